"""The classroom Voila template's own words, in the page's language.

The lesson page's scripts (share/jupyter/voila/templates/classroom/static: kernel-watch.js's
alerts when the kernel stops, the connection drops or the lesson is slow to start, and their
reload button; voila-setup.js's "Executing 3 of 12") and the loading note are not widgets, but
their words are made here, through `_()` and the icg catalogue like every other sentence
(widgets/words/), never in a second dictionary in JavaScript:

- `page_words(lang)` is every message the page's scripts show, in `lang`;
- `page_words_json(lang)` is the same as a JSON text safe inside the page's
  `<script type="application/json" id="classroom-words">` data block (a block the browser does
  not run, so the Content-Security-Policy in voila.json needs no hash for it). The classroom
  template renders it for the notebook's language (its metadata "icg": {"lang": "es"}) with
  the Jinja filter `classroom_words` (serving/voila_config.py registers this function), and
  the scripts read their strings from it.

The server's own pages refused before a lesson starts (HTTP 503 "the class is full", 429 "too
many lessons are starting": serving/kernels.py, the template's 503.html and 429.html) have no
notebook, so `request_language(path, accept_language)` chooses their language from the request:
a page under a language's lesson folder (/voila/render/es/...) speaks that language, any other
request the browser's first language we have a catalogue for (Accept-Language), else English.
`refusal_words(status, lang)` gives those pages' heading and sentences.

Nothing here imports ipywidgets: the Voila server process imports this module.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from widgets.words import PSEUDO, SOURCE_LANGUAGE, _, available_languages, speaking

# The classroom template's Jinja filters (nbconvert's TemplateExporter.filters, by import
# name): serving/voila_config.py sets them for the standalone server, serving/kernel_guard.py's
# server extension for Voila inside a Jupyter server (JupyterLab's preview, JupyterHub), where
# Voila's exporter reads the server's config, not voila.py.
TEMPLATE_FILTERS = {
    "classroom_words": "widgets.words.page.page_words_json",
    "classroom_word": "widgets.words.page.page_word",
}


def page_language(lang: Any) -> str:
    """`lang` if it is a language we have words for, else English (a notebook's metadata is
    the author's, not checked anywhere else)."""
    return lang if isinstance(lang, str) and lang in available_languages() else SOURCE_LANGUAGE


def page_words(lang: Any = SOURCE_LANGUAGE) -> dict[str, str]:
    """Every message the lesson page's scripts show, in `lang` (an unknown one: English).
    '{index}' and '{count}' are filled in by the page."""
    code = page_language(lang)
    with speaking(code):
        return {
            "lang": code,
            "kernelStopped": _(
                "This game has stopped: the program behind the page restarted, so the cards on "
                "screen no longer work. Reload the page to start again."),
            "connectionLost": _(
                "The connection to the game was lost (the server stopped or the network "
                "dropped). Reload the page to start again."),
            "slowStart": _(
                "This lesson is taking a long time to start (the server may be busy). Wait a "
                "little more, or reload the page to try again."),
            "reload": _("Reload the page"),
            "progress": _("Executing {index} of {count}"),
            "loading": _("Starting the lesson..."),
            "firstVisit": _(
                "The first visit on a device takes longer: the lesson's Python comes down once, "
                "then the browser keeps it."),
        }


def script_json(data: Mapping[str, Any]) -> str:
    """`data` as JSON that cannot end the `<script>` element it is written in: '<', '>' and
    '&' are written as JSON escapes (the same value for JSON.parse)."""
    text = json.dumps(dict(data), ensure_ascii=False, sort_keys=True)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def page_words_json(lang: Any = SOURCE_LANGUAGE) -> Any:
    """`page_words(lang)` for the page's JSON data block (the classroom template's Jinja filter
    `classroom_words`); marked safe, so an autoescaping template does not escape it again."""
    from markupsafe import Markup

    return Markup(script_json(page_words(lang)))


def page_word(lang: Any, key: str) -> str:
    """One of `page_words(lang)` (the classroom template's Jinja filter `classroom_word`, for
    the words the page shows before its scripts run: the loading note)."""
    return page_words(lang)[key]


def _served_languages() -> list[str]:
    """The languages a request may ask for (the tests' pseudo-language is never chosen)."""
    return [code for code in available_languages() if code != PSEUDO]


def _accept_language(header: str) -> list[str]:
    """The primary language codes of an Accept-Language header, best first ('es-MX,es;q=0.9,
    en;q=0.8' -> ['es', 'es', 'en']); q=0 and malformed entries are left out."""
    found: list[tuple[float, int, str]] = []
    for i, part in enumerate(str(header or "").split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = tag.strip().split("-")[0].lower()
        if code.isalpha() and quality > 0:
            found.append((-quality, i, code))
    return [code for _q, _i, code in sorted(found)]


def request_language(path: str = "", accept_language: str = "") -> str:
    """The language of a page the server writes without a notebook (503, 429): the language
    folder of the lesson asked for (/voila/render/es/03_hit_me.ipynb: 'es'), else the first
    language of the browser's Accept-Language that we speak, else English."""
    served = _served_languages()
    parts = [p for p in str(path or "").split("?")[0].split("/") if p]
    if "render" in parts:
        folder = parts[parts.index("render") + 1:-1]
        if folder and folder[0] in served:
            return folder[0]
    for code in _accept_language(accept_language):
        if code in served:
            return code
    return SOURCE_LANGUAGE


def refusal_words(status: int, lang: Any = SOURCE_LANGUAGE, message: str = "",
                  kind: str = "") -> dict[str, str]:
    """The heading and sentences of the 503 ("the class is full") or 429 ("too many lessons are
    starting"; with `kind` "open": too many pages open from one computer) page in `lang`.
    `message`: a deployment's own message (ClassroomKernelManager.class_full_message changed
    from its default), shown as it is instead of ours."""
    code = page_language(lang)
    with speaking(code):
        if status == 429 and kind == "open":
            heading = _("Too many lessons are open on this computer")
            said = _("Too many lesson pages are open from this computer. Close the lesson tabs "
                     "you no longer use, then try again.")
        elif status == 429:
            heading = _("Too many lessons are starting")
            said = _("Too many lesson pages were started from this computer without being "
                     "opened. Wait for the pages already open to finish loading, then try "
                     "again in a few minutes.")
        else:
            heading = _("The class is full")
            said = _("Every place on this lesson server is taken right now. Try again in a "
                     "minute.")
        return {
            "lang": code,
            "heading": heading,
            "message": message or said,
            # shown by static/retry.js, which then loads the page again after a minute; its
            # button stops that (WCAG 2.2.1: a timed reload the student can turn off)
            "auto": _("This page tries again by itself in a minute."),
            "stop": _("Do not try again by itself"),
            # '{link}' is the link "try again now" (tryAgain), placed where the language puts it
            "retry": _("You can also {link}."),
            "tryAgain": _("try again now"),
        }


def projector_words(lang: Any = SOURCE_LANGUAGE) -> dict[str, str]:
    """The sentences of `make class`'s projector page (serving/class_server.py) in `lang`.
    '{address}', '{others}', '{where}', '{env}' and '{local}' are filled in by the page."""
    code = page_language(lang)
    with speaking(code):
        return {
            "lang": code,
            "title": _("Integer Card Games: join the class"),
            "type": _("Type this address in your browser:"),
            "scan": _("or scan this code:"),
            "qr": _("QR code of the address {address}"),
            "then": _("Then open Start here, or the lesson your teacher names."),
            "others": _("Another address of this computer, if the first one does not open: "
                        "{others}"),
            "none": _("This computer has no network address that other devices can reach: only "
                      "this computer can open the lessons ({local}). Connect it to the school "
                      "network (Wi-Fi or cable); this page shows the address as soon as there "
                      "is one."),
            "loopback": _("The lessons are served to this computer only ({local}): run make "
                          "class without HOST=127.0.0.1 to let the students' devices in."),
            "apart": _("Does the address not open on a student's device? Some school Wi-Fi "
                       "keeps devices apart: see \u201cWhen the Wi-Fi keeps devices apart\u201d "
                       "in the teacher guide."),
            "key_file": _("Teacher: your key was printed where you ran make class, and is kept "
                          "in {where}. Type it on the Teacher guide or Class view page; never "
                          "show it on the projector."),
            "key_env": _("Teacher: your key is the one set in {env} where the server was "
                         "started. Type it on the Teacher guide or Class view page; never show "
                         "it on the projector."),
            "key_none": _("This server has no teacher's key, so the teacher's controls and "
                          "answers stay locked: run make class again, or set {env}."),
        }
