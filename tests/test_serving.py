"""Server-side tests of the Voila configuration (voila.json, voila.py, the classroom template).

A Voila server runs with the project's configuration on a free loopback port and
serves copies of tests/fixtures/. Checked over HTTP and the kernel websocket:
nothing is fetched from outside the server, code cells and tracebacks stay
hidden, notebook files and paths outside the served folder are not served, a
page cannot run code, closing a tab frees its kernel, and idle kernels are culled.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import requests
import websocket
from voila_server import (
    REPO_ROOT,
    find_external_urls,
    kernel_processes,
    message,
    read_log,
    running_voila,
    start_jupyter_server,
    stop_voila,
)

pytestmark = pytest.mark.serving  # starts Voila or Jupyter servers

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SOURCE_MARKER = "SOURCE-MARKER-7f3a"
TRACEBACK_MARKERS = ("TRACEBACK-MARKER-3c9e", "helper_that_fails_3c9e", "Traceback", "ValueError")
OUTSIDE_MARKER = "OUTSIDE-SECRET-51d2"
LISTED_OUTSIDE = re.compile(r'("(name|path)":\s*"[^"]*|href="[^"]*)outside(_secret\.txt|\.ipynb)')
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


class Served:
    """A running Voila server on a folder of fixture notebooks."""

    def __init__(self, url: str, process, root: Path, outside: Path) -> None:
        self.url = url
        self.process = process
        self.root = root  # the served folder
        self.outside = outside  # its parent: nothing here may be served

    def get(self, path: str, session: requests.Session | None = None) -> requests.Response:
        return (session or requests).get(urljoin(self.url, path), timeout=60)

    def render(self, name: str, session: requests.Session | None = None) -> tuple[str, str]:
        """Open a notebook's Voila page; return (html, kernel id)."""
        response = self.get(f"voila/render/{name}", session)
        assert response.status_code == 200, response.text[:500]
        match = KERNEL_ID.search(response.text)
        assert match, "no kernel id in the page"
        return response.text, match.group(1)

    def kernel_exists(self, kernel_id: str) -> bool:
        status = requests.get(urljoin(self.url, f"api/kernels/{kernel_id}"), timeout=10).status_code
        assert status in (200, 404), status
        return status == 200


def _make_tree(base: Path) -> tuple[Path, Path]:
    outside = base / "site"
    root = outside / "notebooks"
    root.mkdir(parents=True)
    for notebook in FIXTURES.glob("*.ipynb"):
        shutil.copy(notebook, root / notebook.name)
    (outside / "outside_secret.txt").write_text(OUTSIDE_MARKER + "\n")
    # A notebook beside the served folder: rendering it would run its code.
    outside_nb = json.loads((FIXTURES / "one_button.ipynb").read_text())
    outside_nb["cells"][0]["source"] = [f"# {OUTSIDE_MARKER}\n"]
    (outside / "outside.ipynb").write_text(json.dumps(outside_nb))
    return root, outside


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root, outside = _make_tree(tmp_path_factory.mktemp("serving"))
    with running_voila(root) as (url, process):
        yield Served(url, process, root, outside)


# --- configuration is the project's ----------------------------------------------------------


def test_voila_json_settings() -> None:
    config = json.loads((REPO_ROOT / "voila.json").read_text())
    voila = config["VoilaConfiguration"]
    assert voila["strip_sources"] is True
    assert voila["show_tracebacks"] is False
    assert voila["template"] == "classroom"
    assert voila["allow_template_override"] == "NO"
    # Lesson pages come from preheated kernels; Voila refuses that with a prelaunch_hook, so
    # voila.py sets none (the kernel manager's page transform does the hook's old jobs).
    assert voila["preheat_kernel"] is True
    assert "prelaunch_hook" not in voila
    notebook = "lessons/03_hit_me.ipynb"
    assert any(re.fullmatch(pattern, notebook) for pattern in voila["file_denylist"])
    culling = config["MappingKernelManager"]
    assert 0 < culling["cull_interval"] <= culling["cull_idle_timeout"] <= 3600
    assert config["Voila"]["ip"] == "127.0.0.1"
    template = REPO_ROOT / "share/jupyter/voila/templates/classroom"
    assert {"conf.json", "index.html.j2", "page.html"} <= {p.name for p in template.iterdir()}


def test_kernels_talk_over_unix_sockets_not_tcp_ports(served: Served) -> None:
    """voila.json sets KernelManager.transport = "ipc": with TCP, 30 kernels starting at once
    can be handed the same free port (jupyter_client picks ports before the kernel binds them;
    voila#408); the loser dies and its student's page never loads (seen once in 180 loads by
    benchmarks/classroom.py). Unix sockets named after the kernel id cannot collide, and no
    kernel port is open to other users of the machine."""
    _, kernel_id = served.render("one_button.ipynb")
    files = []
    for proc in kernel_processes(served.process.pid):
        cmd = proc.cmdline()
        if "-f" in cmd and kernel_id in cmd[cmd.index("-f") + 1]:
            files.append(Path(cmd[cmd.index("-f") + 1]))
    assert len(files) == 1, "the page's kernel process was not found"
    info = json.loads(files[0].read_text())
    assert info["transport"] == "ipc"
    assert all(Path(f"{info['ip']}-{info[k]}").is_socket()
               for k in ("shell_port", "iopub_port", "control_port", "hb_port"))


def test_config_is_installed_in_the_environment() -> None:
    """`make venv` runs serving/install.py: template and voila.py where Voila looks."""
    check = subprocess.run(
        [sys.executable, str(REPO_ROOT / "serving/install.py"), "--check"],
        capture_output=True, text=True, check=False,
    )
    assert check.returncode == 0, check.stderr


def test_server_reads_the_repository_config(served: Served) -> None:
    """The page uses the classroom template (voila.json) and sets _xsrf (voila.py's hook)."""
    session = requests.Session()
    html, _ = served.render("one_button.ipynb", session)
    assert "/voila/templates/classroom/static/" in html
    assert session.cookies.get("_xsrf")
    assert served.get("voila/templates/classroom/static/voila-style.js").status_code == 200
    # the classroom's labextension (widgets drawn however late the kernel sends them): listed
    # in the page's config and served (a copy: a link out of the folder would be refused)
    assert '"name": "icg-widget-restore"' in html
    entry = served.get("voila/labextensions/icg-widget-restore/static/remoteEntry.js")
    assert entry.status_code == 200 and "javascript" in entry.headers["Content-Type"]
    assert "icgLooksAgain" in entry.text


# --- no request leaves the server ----------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "",  # the tree page listing the notebooks
        "voila/tree",
        "voila/render/one_button.ipynb",
        "voila/render/raises.ipynb",
        "voila/render/one_button.ipynb?template=lab&theme=dark",  # overrides are refused
        "voila/render/no_such_lesson.ipynb",  # error page
    ],
)
def test_pages_fetch_nothing_from_outside(served: Served, path: str) -> None:
    response = served.get(path)
    assert response.status_code in (200, 404)
    assert "<html" in response.text.lower()
    assert find_external_urls(response.text) == []


def test_external_url_finder_finds_the_default_template_links() -> None:
    """The checker itself: the links Voila's default templates carry are caught."""
    page = (
        '<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/font-awesome@4.5.0/'
        'css/font-awesome.min.css" />'
        '<script type="module">await import("https://cdnjs.cloudflare.com/mermaid.mjs")</script>'
        "<style>@import '//fonts.example.org/x.css';</style>"
        '<svg xmlns="http://www.w3.org/2000/svg"></svg><a href="http://127.0.0.1:8866/">ok</a>'
        '<script id="jupyter-config-data">{"fullMathjaxUrl": "https://cdnjs.cloudflare.com/mj.js"}'
        "</script>"
        '<img src="https://img.example.org/card.png">'
        '<div style="background: url(https://img.example.org/felt.png)"></div>'
        # Not requests: a link the reader may follow, a URL in the text.
        '<p>Game by <a href="https://author.example.org/">its author</a>, '
        "see https://author.example.org/games</p>"
    )
    assert find_external_urls(page) == [
        "//fonts.example.org/x.css",
        "https://cdn.jsdelivr.net/npm/font-awesome@4.5.0/css/font-awesome.min.css",
        "https://cdnjs.cloudflare.com/mermaid.mjs",
        "https://cdnjs.cloudflare.com/mj.js",
        "https://img.example.org/card.png",
        "https://img.example.org/felt.png",
    ]


def test_page_uses_bundled_mathjax(served: Served) -> None:
    html, _ = served.render("one_button.ipynb")
    config = json.loads(
        re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                  html, re.S).group(1)
    )
    # Both null: Voila's front end then loads its bundled MathJax 3, not the CDN one.
    assert config["fullMathjaxUrl"] is None and config["mathjaxConfig"] is None


# --- what a page shows ------------------------------------------------------------------------


def test_page_has_widget_but_no_source(served: Served) -> None:
    html, _ = served.render("one_button.ipynb")
    assert "application/vnd.jupyter.widget-view+json" in html  # the button's output
    assert "One button" in html  # markdown is shown
    assert SOURCE_MARKER not in html
    assert "import ipywidgets" not in html


def test_traceback_is_not_shown(served: Served) -> None:
    html, _ = served.render("raises.ipynb")
    assert "There was an error when executing cell" in html  # the page did render the failure
    for marker in TRACEBACK_MARKERS:
        assert marker not in html, marker
    assert "TRACEBACK-MARKER-3c9e" in read_log(served.process)  # only the server log has it


def test_contents_api_does_not_leak_source(served: Served) -> None:
    response = served.get("voila/api/contents/one_button.ipynb")
    assert response.status_code == 200
    assert response.json()["content"] is None
    assert SOURCE_MARKER not in response.text
    listing = served.get("voila/api/contents/").json()
    assert {item["name"] for item in listing["content"]} == {"one_button.ipynb", "raises.ipynb"}


# --- files and paths --------------------------------------------------------------------------


def _raw_get(url: str, path: str, hops: int = 3) -> list[tuple[str, int, str]]:
    """GET `path` byte for byte (no client-side normalisation); follow redirects."""
    parts = urlsplit(url)
    seen = []
    for _ in range(hops + 1):
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read().decode("utf-8", errors="replace")
            seen.append((path, response.status, body))
            location = response.getheader("Location")
        finally:
            conn.close()
        if response.status not in (301, 302, 303, 307, 308) or not location:
            break
        path = urlsplit(location).path or "/"
    return seen


NOT_SERVED = [
    "/voila/files/one_button.ipynb",
    "/voila/files/raises.ipynb",
    "/one_button.ipynb",
    "/voila/render/../outside_secret.txt",
    "/voila/render/%2e%2e/outside_secret.txt",
    "/voila/render/..%2foutside_secret.txt",
    "/voila/render/../outside.ipynb",
    "/voila/render/%2e%2e/outside.ipynb",
    "/voila/render/%2e%2e%2foutside.ipynb",
    "/voila/render/{outside}/outside.ipynb",
    "/voila/render/%2F{outside_q}%2Foutside.ipynb",
    "/voila/files/../outside_secret.txt",
    "/voila/files/%2e%2e/outside_secret.txt",
    "/voila/files/..%2foutside_secret.txt",
    "/voila/files/%2e%2e%2foutside_secret.txt",
    "/voila/files/{outside}/outside_secret.txt",
    "/voila/files//etc/passwd",
    "/voila/files/%2fetc%2fpasswd",
    "/voila/static/../../../../../../../../etc/passwd",
    "/voila/static/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/voila/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/voila/templates/classroom/static/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/voila/templates/../../../../../../../../etc/passwd",
    "/voila/templates/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/voila/labextensions/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/voila/api/themes/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/voila/api/contents/..%2foutside_secret.txt",
    "/voila/api/contents/%2e%2e",
    "/voila/tree/%2e%2e",
    "/voila/tree/..",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/etc/passwd",
    "//etc/passwd",
    # CVE-2024-30265 (GHSA-2q59-h24c-w6fg), fixed in Voila 0.5.6: /static served from "/".
    "/static/etc/passwd",
    "/static//etc/passwd",
    "/voila/static//etc/passwd",
    "/voila/static/etc/passwd",
]


@pytest.mark.parametrize("template", NOT_SERVED)
def test_files_and_outside_paths_are_not_served(served: Served, template: str) -> None:
    outside = str(served.outside).lstrip("/")
    path = template.format(outside=outside, outside_q=outside.replace("/", "%2F"))
    for hop, status, body in _raw_get(served.url, path):
        assert "root:x:0:0" not in body, (hop, status)
        assert OUTSIDE_MARKER not in body, (hop, status)
        # No listing of the parent folder (error messages may echo the requested path).
        assert not LISTED_OUTSIDE.search(body), (hop, status)
        assert SOURCE_MARKER not in body, (hop, status)
        assert '"nbformat"' not in body, (hop, status)
        if hop.endswith(".ipynb") and hop.startswith("/voila/files/"):
            assert status in (403, 404), (hop, status)


# --- a page user cannot run code --------------------------------------------------------------


def test_execute_request_is_refused(served: Served, tmp_path: Path) -> None:
    """Voila lets only comm and kernel-info messages through the kernel websocket."""
    session = requests.Session()
    _, kernel_id = served.render("one_button.ipynb", session)
    target = tmp_path / "created_by_page_user.txt"
    cookie = "; ".join(f"{c.name}={c.value}" for c in session.cookies)
    session_id = uuid.uuid4().hex
    ws_url = served.url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
    ws = websocket.create_connection(f"{ws_url}?session_id={session_id}", cookie=cookie, timeout=30)
    try:
        attacks = [
            message("execute_request", session_id, {
                "code": f"open({str(target)!r}, 'w').write('ran')", "silent": False,
                "store_history": False, "user_expressions": {}, "allow_stdin": False,
                "stop_on_error": True}),
            message("execute_request", session_id, {
                "code": "", "silent": True, "store_history": False,
                "user_expressions": {"x": f"open({str(target)!r}, 'w').write('ran')"},
                "allow_stdin": False, "stop_on_error": True}),
            message("complete_request", session_id, {"code": "import o", "cursor_pos": 8}),
            message("inspect_request", session_id, {"code": "open", "cursor_pos": 4,
                                                      "detail_level": 1}),
            message("history_request", session_id, {"output": False, "raw": True,
                                                      "hist_access_type": "tail", "n": 10}),
        ]
        for attack in attacks:
            ws.send(json.dumps(attack))
        # Control: a message Voila allows must still get its reply on the same socket.
        control = message("kernel_info_request", session_id, {})
        ws.send(json.dumps(control))
        attack_ids = {a["header"]["msg_id"] for a in attacks}
        replies: list[str] = []
        got_control = False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not got_control:
            reply = json.loads(ws.recv())
            parent = reply.get("parent_header", {}).get("msg_id")
            if parent in attack_ids:
                replies.append(reply["msg_type"])
            got_control = parent == control["header"]["msg_id"] and reply["msg_type"] == (
                "kernel_info_reply"
            )
        # Replies to earlier messages would have come before the control's reply; wait a bit more.
        ws.settimeout(2)
        try:
            while True:
                reply = json.loads(ws.recv())
                if reply.get("parent_header", {}).get("msg_id") in attack_ids:
                    replies.append(reply["msg_type"])
        except websocket.WebSocketTimeoutException:
            pass
    finally:
        ws.close()
    assert got_control, "the kernel websocket did not answer kernel_info_request"
    assert replies == [], replies
    assert not target.exists()
    assert 'Received message of type "execute_request", which is not allowed' in read_log(
        served.process
    )


def test_kernels_cannot_be_started_or_listed(served: Served) -> None:
    assert served.get("api/kernels").status_code in (403, 404, 405)
    started = requests.post(urljoin(served.url, "api/kernels"), json={"name": "python3"},
                            timeout=30)
    assert started.status_code in (403, 404, 405)
    assert served.get("api/sessions").status_code in (403, 404, 405)
    assert served.get("api/terminals").status_code in (403, 404, 405)


# --- kernels are freed ------------------------------------------------------------------------


def _wait_gone(served: Served, kernel_id: str, seconds: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if not served.kernel_exists(kernel_id):
            return time.monotonic() - start
        time.sleep(0.25)
    raise AssertionError(f"kernel {kernel_id} still running after {seconds} s")


def test_closing_a_tab_frees_its_kernel(served: Served) -> None:
    """What the page sends on `beforeunload`, from a student who opened the lesson directly."""
    session = requests.Session()  # no cookie yet: no tree page visited before
    response = session.get(urljoin(served.url, "voila/render/one_button.ipynb"), timeout=60)
    kernel_id = KERNEL_ID.search(response.text).group(1)
    assert served.kernel_exists(kernel_id)
    # The kernel manager's page transform sets the cookie, readable by the page's script.
    set_cookie = response.headers.get("Set-Cookie", "")
    xsrf = session.cookies.get("_xsrf")
    assert xsrf, "the notebook page did not set the _xsrf cookie"
    xsrf_header = [part for part in set_cookie.split(", ") if part.startswith("_xsrf=")]
    assert xsrf_header and "httponly" not in xsrf_header[0].lower()
    # navigator.sendBeacon(url, FormData{_xsrf}): a multipart POST with cookies and Origin.
    beacon = session.post(
        urljoin(served.url, f"voila/api/shutdown/{kernel_id}"),
        files={"_xsrf": (None, xsrf)},
        headers={"Origin": served.url.rstrip("/")},
        timeout=30,
    )
    assert beacon.status_code == 204, beacon.text
    assert _wait_gone(served, kernel_id, 60) < 60


def test_shutdown_without_xsrf_token_is_refused(served: Served) -> None:
    """XSRF protection stays on: a forged shutdown (no token) is rejected."""
    owner = requests.Session()
    _, kernel_id = served.render("one_button.ipynb", owner)
    forged = requests.post(
        urljoin(served.url, f"voila/api/shutdown/{kernel_id}"),
        files={"_xsrf": (None, "")},
        timeout=30,
    )
    assert forged.status_code == 403
    wrong = requests.post(
        urljoin(served.url, f"voila/api/shutdown/{kernel_id}"),
        files={"_xsrf": (None, "2|deadbeef|00112233445566778899aabbccddeeff|1700000000")},
        cookies={"_xsrf": "2|cafebabe|ffeeddccbbaa99887766554433221100|1700000000"},
        timeout=30,
    )
    assert wrong.status_code == 403
    assert served.kernel_exists(kernel_id)
    # Clean up like the real page would.
    owner.post(
        urljoin(served.url, f"voila/api/shutdown/{kernel_id}"),
        files={"_xsrf": (None, owner.cookies.get("_xsrf"))},
        timeout=30,
    )
    _wait_gone(served, kernel_id, 60)


def test_idle_kernels_are_culled(tmp_path: Path) -> None:
    """Culling with short timeouts given on the command line (voila.json sets the real ones)."""
    root, _ = _make_tree(tmp_path)
    args = ["--MappingKernelManager.cull_idle_timeout=3", "--MappingKernelManager.cull_interval=1"]
    with running_voila(root, extra_args=args) as (url, process):
        served = Served(url, process, root, root.parent)
        session = requests.Session()
        _, abandoned = served.render("one_button.ipynb")  # page fetched, tab never connects
        _, open_tab = served.render("one_button.ipynb", session)
        cookie = "; ".join(f"{c.name}={c.value}" for c in session.cookies)
        ws = websocket.create_connection(
            url.replace("http://", "ws://") + f"api/kernels/{open_tab}/channels"
            f"?session_id={uuid.uuid4().hex}",
            cookie=cookie,
            timeout=30,
        )
        try:
            assert _wait_gone(served, abandoned, 30) < 30
            # cull_connected is false: a tab that is still open keeps its kernel.
            assert served.kernel_exists(open_tab)
        finally:
            ws.close()
        assert _wait_gone(served, open_tab, 30) < 30
        assert "Culling kernel" in read_log(process) or "culling" in read_log(process).lower()


def test_a_page_gone_without_its_beacon_frees_its_kernel(tmp_path: Path) -> None:
    """A tab that closed without sending the shutdown beacon (a crashed browser, a dropped
    tablet page) frees its kernel `cull_disconnected_after` seconds after its websocket closed,
    not after the 10-minute idle cull; a page that reconnects within that time keeps it, and an
    open page keeps its kernel however long."""
    root, _ = _make_tree(tmp_path)
    args = ["--ClassroomKernelManager.cull_disconnected_after=3",
            "--MappingKernelManager.cull_idle_timeout=600"]
    with running_voila(root, extra_args=args) as (url, process):
        served = Served(url, process, root, root.parent)

        def connect(kernel_id: str, session: requests.Session) -> websocket.WebSocket:
            cookie = "; ".join(f"{c.name}={c.value}" for c in session.cookies)
            return websocket.create_connection(
                url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
                f"?session_id={uuid.uuid4().hex}", cookie=cookie, timeout=30)

        gone_session, back_session, open_session = (requests.Session() for _ in range(3))
        _, gone = served.render("one_button.ipynb", gone_session)
        _, back = served.render("one_button.ipynb", back_session)
        _, still_open = served.render("one_button.ipynb", open_session)
        open_ws = connect(still_open, open_session)
        try:
            connect(gone, gone_session).close()
            back_ws = connect(back, back_session)
            back_ws.close()
            time.sleep(1)
            back_ws = connect(back, back_session)  # the connection came back within 3 s
            try:
                assert _wait_gone(served, gone, 30) < 30
                time.sleep(4)
                assert served.kernel_exists(back)
                assert served.kernel_exists(still_open)
            finally:
                back_ws.close()
            assert _wait_gone(served, back, 30) < 30
            assert served.kernel_exists(still_open)
        finally:
            open_ws.close()
        assert "did not come back" in read_log(process)


# --- the same configuration as a Jupyter server extension (JupyterLab, JupyterHub, Binder) -----


def test_server_extension_uses_the_project_config(tmp_path: Path) -> None:
    """`jupyter server` from the root: Voila pages get the same template, hooks and settings."""
    root, _ = _make_tree(tmp_path)
    url, process = start_jupyter_server(root, tmp_path / "jupyter_server.log")
    try:
        session = requests.Session()
        try:
            page = session.get(url + "voila/render/one_button.ipynb?token=class-token",
                               timeout=60)
        except requests.ConnectionError as e:
            raise AssertionError(f"{e}\nserver alive: {process.poll() is None}\n"
                                 f"{read_log(process)[-3000:]}") from e
        assert page.status_code == 200
        assert "/voila/templates/classroom/static/" in page.text
        # the template's words (widgets/words/page.py): its filters are registered here too
        assert '<script type="application/json" id="classroom-words">{' in page.text
        assert '"reload": "Reload the page"' in page.text
        assert "application/vnd.jupyter.widget-view+json" in page.text
        assert SOURCE_MARKER not in page.text
        assert find_external_urls(page.text) == []  # includes the MathJax URL in the page config
        assert session.cookies.get("_xsrf")
        failing = session.get(url + "voila/render/raises.ipynb?token=class-token", timeout=60)
        assert "There was an error when executing cell" in failing.text
        assert not any(marker in failing.text for marker in TRACEBACK_MARKERS)
    finally:
        stop_voila(process)
