"""Voila settings that JSON cannot hold (voila.json at the repository root holds the rest).

`serving/install.py` links this file into the environment as
`<prefix>/etc/jupyter/voila.py`, where Voila reads it both as a standalone
server (`make serve`) and as a Jupyter server extension (the Voila preview in
JupyterLab, JupyterHub, Binder). It is not at the repository root on purpose:
a `voila.py` there would shadow the `voila` package for `python -m ...` run
from the root.

Freeing a kernel when its tab closes: on `beforeunload` the page posts
/voila/api/shutdown/<kernel id> with the `_xsrf` cookie's value in the form.
Voila's notebook page never sets that cookie itself, so a student who opens a
lesson directly (bookmark, JupyterHub default URL, Binder link) sends an empty
token, the server answers 403 "'_xsrf' argument missing from POST" and the
kernel lives on until it is culled (voila-dashboards/voila#1458). The kernel
manager (serving.kernels.PageRequestTransform, a tornado output transform)
gives every HTML page answer Tornado's own `_xsrf` cookie when the browser has
none. XSRF checks stay on for every request; the page can now pass them. This
used to be a prelaunch hook, but Voila refuses a prelaunch_hook together with
preheat_kernel, and lesson pages are served from preheated kernels
(voila.json: preheat_kernel, kernel_pools_config; docs/deploy.md).

MathJax from the server: as a Jupyter server extension (JupyterLab, JupyterHub,
Binder) Voila writes a CDN MathJax URL into the page config, and its front end
then loads MathJax 2 from that CDN for pages with math. With both MathJax
options null (what the standalone server sends) it uses the MathJax 3 bundled
in its own static files. The page-config hook below makes every mode do that.

Kernel websocket frames: jupyter_server trusts the part count at the start of a binary
frame, and an 8-byte frame can freeze the server (docs/security.md). Standalone Voila uses
serving.kernel_guard's connection class, which checks every frame first, refuses a page's
comm_open to widget targets and keeps kernel tracebacks off the page; tornado refuses a frame
over the page's size cap before reading it (voila.json's
Voila.tornado_settings.websocket_max_message_size: JSON config is read after this file and
replaces a dict set here, so every tornado setting lives in voila.json). As a Jupyter
server extension, the server's own connection class is the one that counts:
serving.kernel_guard's server extension (enabled by serving/install.py in
jupyter_server_config.d) sets the same guard there.

Kernels: voila.json sets `serving.kernels.ClassroomKernelManager` (a cap on kernels, a
short cull of kernels whose page never connected, a limit on pages starting from one
computer, pools of preheated kernels that stay alive); the same transform tells it the
address of the computer asking for each page.
"""


def bundled_mathjax(page_config, **kwargs):
    """Voila page-config hook: use the MathJax bundled with Voila, never a CDN; on the tree
    page, what the classroom template's landing page (tree-lab.html) shows, from
    widgets/lessons/course.py: the folder's language (lessons/ English, lessons/es/ Spanish), its
    lessons (titles, order, times), the languages to choose from and the page's sentences.
    The tree handler ignores the returned dict, so the config is changed in place too."""
    page_config.update(fullMathjaxUrl=None, mathjaxConfig=None)
    path = str(kwargs.get("notebook_path") or "")
    if not path.endswith(".ipynb"):
        from widgets.lessons import course

        page_config.update(course.landing_page(path))
    return page_config


# A teacher's key chosen in $ICG_TEACHER_KEY that a student could guess (short, or a common
# password) stops the server at start, with a message saying why (widgets/page/teacher_key.py).
from widgets.page.teacher_key import chosen_key_refusal  # noqa: E402

if chosen_key_refusal():
    raise SystemExit(chosen_key_refusal())

# Open files raised to the hard limit (said when still short of a class's need), connections
# timed out and capped per computer, websockets cut off past a bound of unread bytes
# (serving/connections.py). Before the kernel manager starts: its ZMQ socket cap follows the
# open-file limit.
from serving import connections  # noqa: E402

connections.install()

c = get_config()  # noqa: F821 - provided by traitlets when it loads this file
c.VoilaConfiguration.page_config_hook = bundled_mathjax
# The classroom template's own words (kernel-watch.js's alerts, the loading note) in the
# page's language: widgets/words/page.py, through the icg catalogue (index.html.j2).
from widgets.words.page import TEMPLATE_FILTERS  # noqa: E402

c.VoilaExporter.filters = dict(TEMPLATE_FILTERS)
c.Voila.kernel_websocket_connection_class = "serving.kernel_guard.VoilaPageConnection"
# A lesson's Markdown rendered once per cell text, not on every page request (about 12 ms of
# the server per Hit Me page, 30 times over at class start): serving/markdown_cache.py.
from serving import markdown_cache  # noqa: E402

markdown_cache.install()
# The page-query websocket (/voila/query/<kernel id>) of preheated kernels: only the server's
# own kernels may open it, one waiter per kernel, removed only by its own connection
# (serving/query_socket.py; Voila's on_close removed another page's waiter).
from serving import query_socket  # noqa: E402

query_socket.install()
# Anonymous requests that once wrote a traceback each (/logout, bad template paths, refused
# websocket handshakes) get a short error page, tracebacks and refused requests' access-log
# lines are capped per minute (serving/quiet_errors.py).
from serving import quiet_errors  # noqa: E402

quiet_errors.install()
