"""The classroom template's own words in the page's language: widgets/words/page.py.

- the messages of the lesson page's scripts (kernel-watch.js: the kernel stopped, the
  connection was lost, the lesson is slow to start, "Reload the page"; voila-setup.js's
  "Executing 3 of 12"; the loading note) in English, Spanish and the pseudo-locale, made
  through the icg catalogue, and written as a JSON data block that cannot end its <script>;
- the language of the 503 and 429 pages from the request (the lesson folder, then
  Accept-Language), their words, and the template's 503.html/429.html rendered with them;
- a real server (127.0.0.1): a Spanish lesson page carries its words in Spanish and an English
  one in English; a full class (503) and too many pages from one computer (429) are answered
  in the language of the page asked for.
The same messages in Chromium: tests/browser/test_kernel_death.py.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jinja2
import pytest
import requests

from widgets import words
from widgets.words import page as page_words
from widgets.words.page import (
    page_word,
    page_words_json,
    refusal_words,
    request_language,
    script_json,
)

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "share" / "jupyter" / "voila" / "templates" / "classroom"
STATIC = TEMPLATES / "static"
KEYS = {"lang", "kernelStopped", "connectionLost", "slowStart", "reload", "progress",
        "loading", "firstVisit"}


def _english_sentences(text: str) -> list[str]:
    """Quoted JavaScript strings of three words or more (a sentence written in a script; not
    CSS, not comments, not the console's messages for developers)."""
    code = re.sub(r"^\s*//.*$|console\.\w+\(.*$", "", text, flags=re.M)
    return [s for s in re.findall(r"'([^'\n]*)'", code)
            if " " in s and ":" not in s and len(re.findall(r"[A-Za-z]{2,}", s)) >= 3]


def test_page_words_in_each_language() -> None:
    en, es = page_words.page_words("en"), page_words.page_words("es")
    assert set(en) == set(es) == KEYS
    assert en["lang"] == "en" and es["lang"] == "es"
    assert en["reload"] == "Reload the page" and es["reload"] == "Recargar la página"
    assert "restarted" in en["kernelStopped"] and "se reinició" in es["kernelStopped"]
    assert "taking a long time to start" in en["slowStart"]
    assert "tardando mucho en empezar" in es["slowStart"]
    assert es["progress"] == "Ejecutando {index} de {count}"
    for key in KEYS - {"lang"}:
        assert es[key] != en[key], key  # every message translated
        with words.speaking("es"):
            assert words._(en[key]) == es[key]  # through the icg catalogue, nothing else
    # the pseudo-locale marks every message (tests look for unmarked English with it)
    qps = page_words.page_words("qps")
    assert all(qps[k].startswith("\u27e6") for k in KEYS - {"lang"})
    assert "{index}" in qps["progress"] and "{count}" in qps["progress"]


def test_an_unknown_or_bad_language_is_english_and_the_kernel_language_is_untouched() -> None:
    words.set_language("es")
    try:
        assert page_words.page_words("en")["reload"] == "Reload the page"
        for bad in ("xx", "", None, 3, "../es", "ES"):
            assert page_words.page_words(bad) == page_words.page_words("en"), bad
        assert words.language() == "es"
    finally:
        words.set_language("en")


def test_the_json_block_cannot_end_its_script_and_reads_back_the_same() -> None:
    data = {"a": "</script><script>alert(1)</script>", "b": "x & y > z \u2028"}
    text = script_json(data)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == data
    block = page_words_json("es")
    assert json.loads(str(block)) == page_words.page_words("es")
    assert str(jinja2.Environment(autoescape=True).from_string("{{ x }}").render(x=block)) \
        == str(block)  # not escaped twice by an autoescaping template
    assert page_word("es", "loading") == "Abriendo la lección..."


def test_the_scripts_write_no_sentence_of_their_own() -> None:
    """kernel-watch.js and voila-setup.js take every message from the data block."""
    for name in ("kernel-watch.js", "voila-setup.js"):
        text = (STATIC / name).read_text()
        assert "classroom-words" in text, name
        assert _english_sentences(text) == [], (name, _english_sentences(text))
    watch = (STATIC / "kernel-watch.js").read_text()
    for key in KEYS - {"lang", "progress", "loading", "firstVisit"}:
        assert f"word('{key}')" in watch, key
    index = (TEMPLATES / "index.html.j2").read_text()
    assert ('<script type="application/json" id="classroom-words">'
            '{{ resources.language_code | classroom_words }}</script>') in index


@pytest.mark.parametrize(("path", "accept", "expected"), [
    ("/voila/render/es/03_hit_me.ipynb", "", "es"),
    ("/voila/render/es/03_hit_me.ipynb", "en-US,en;q=0.9", "es"),  # the lesson's folder first
    ("/voila/render/03_hit_me.ipynb", "", "en"),
    ("/voila/render/03_hit_me.ipynb", "es-MX,es;q=0.9,en;q=0.8", "es"),
    ("/voila/render/03_hit_me.ipynb", "fr-FR, es;q=0.5", "es"),  # no French: the next one
    ("/voila/render/03_hit_me.ipynb", "fr, en;q=0.9, es;q=0.8", "en"),
    ("/voila/render/03_hit_me.ipynb", "es;q=0, en", "en"),  # q=0: not wanted
    ("/voila/render/03_hit_me.ipynb", "qps", "en"),  # the tests' pseudo-locale: never chosen
    ("/voila/render/qps/03_hit_me.ipynb", "", "en"),
    ("/voila/render/03_hit_me.ipynb", "es;q=abc, en;q=0.5", "en"),  # a bad q counts as 0
    ("/voila/render/xx/es.ipynb", "", "en"),
    ("/", "es", "es"),
    ("", "", "en"),
    ("/voila/render/es/03_hit_me.ipynb?x=/render/en/", "", "es"),
])
def test_request_language(path: str, accept: str, expected: str) -> None:
    assert request_language(path, accept) == expected


def test_refusal_words() -> None:
    full_es, many_es = refusal_words(503, "es"), refusal_words(429, "es")
    assert full_es["heading"] == "La clase está llena" and full_es["lang"] == "es"
    assert "Vuelve a intentarlo en un minuto" in full_es["message"]
    assert many_es["heading"] == "Se están abriendo demasiadas lecciones"
    assert "{link}" in full_es["retry"] and full_es["tryAgain"] == "intentarlo ahora"
    assert full_es["auto"] == "Esta página vuelve a intentarlo sola en un minuto."
    assert full_es["stop"] == "No volver a intentarlo sola"
    full_en = refusal_words(503, "en")
    assert full_en["heading"] == "The class is full"
    # the English default is the kernel manager's own message (its log and config default)
    from serving.kernels import CLASS_FULL_MESSAGE, TOO_MANY_MESSAGE

    assert full_en["message"] == CLASS_FULL_MESSAGE
    assert refusal_words(429, "en")["message"] == TOO_MANY_MESSAGE
    assert refusal_words(503, "es", "Come back at 10.")["message"] == "Come back at 10."
    assert refusal_words(503, "zz")["lang"] == "en"


def _error_env() -> jinja2.Environment:
    """The error pages' Jinja environment as Voila makes it (voila/app.py): the template
    folder, i18n extension, autoescape."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(TEMPLATES)]),
                             extensions=["jinja2.ext.i18n"], autoescape=True)
    env.install_null_translations()
    return env


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


@pytest.mark.parametrize("status", [503, 429])
def test_refusal_pages_in_the_request_language(status: int) -> None:
    from serving.kernels import PAGE_REQUEST, Refusal, refusal

    token = PAGE_REQUEST.set(("/voila/render/es/00_start_here.ipynb", ""))
    try:
        error = refusal(status, "logged 100%", "Class Full")
    finally:
        PAGE_REQUEST.reset(token)
    assert isinstance(error, Refusal) and error.status_code == status
    assert error.log_message % error.args == "logged 100%"
    html = _error_env().get_template(f"{status}.html").render(
        status_code=status, message="logged", exception=error)
    words_es = refusal_words(status, "es")
    assert '<html lang="es">' in html
    assert f"<h1>{words_es['heading']}</h1>" in html
    assert f"<title>\n      {words_es['heading']}" in html or words_es["heading"] in html
    text = _text(html)
    assert words_es["message"] in text
    assert "Esta página vuelve a intentarlo sola en un minuto. No volver a intentarlo sola" \
        in text
    assert '<p id="classroom-retry" hidden>' in html  # until static/retry.js runs
    assert '<button type="button" id="classroom-retry-stop">No volver a intentarlo sola' in html
    assert 'También puedes <a href="">intentarlo ahora</a>.' in html
    assert 'static/retry.js"></script>' in html and 'http-equiv="refresh"' not in html
    assert "requires JavaScript" not in html and "logged" not in html
    assert re.search(r"\b(the|class|page|again)\b", text, re.I) is None, text
    # From an English page, by Accept-Language:
    token = PAGE_REQUEST.set(("/voila/render/00_start_here.ipynb", "es-ES,es;q=0.9"))
    try:
        assert refusal(status, "x", "r").words["lang"] == "es"
    finally:
        PAGE_REQUEST.reset(token)
    assert refusal(status, "x", "r").words["lang"] == "en"  # no request: English


def test_another_handlers_503_keeps_the_english_page() -> None:
    html = _error_env().get_template("503.html").render(
        status_code=503, message="", exception="(unknown)")
    assert '<html lang="en">' in html and "<h1>The class is full</h1>" in html
    assert "Every place on this lesson server is taken right now." in html
    assert 'You can also <a href="">try again now</a>.' in html
    assert 'id="classroom-retry"' not in html  # no words, no timed retry


# --- a real server ------------------------------------------------------------------------------

KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
BLOCK = re.compile(r'<script type="application/json" id="classroom-words">(.*?)</script>', re.S)


def _get(url: str, path: str, address: str, accept: str = "") -> requests.Response:
    headers = {"X-Real-IP": address}
    if accept:
        headers["Accept-Language"] = accept
    response = requests.get(url + path, headers=headers, timeout=120)
    response.encoding = "utf-8"
    return response


@pytest.mark.serving
@pytest.mark.timeout(240)
def test_a_real_server_speaks_the_page_language() -> None:
    """Spanish and English lesson pages carry their scripts' words in their language; a
    refused page (429 too many from one computer, 503 the class is full) is in the language
    of the lesson asked for, or of Accept-Language for an English one."""
    sys.path.insert(0, str(ROOT / "tests"))
    from voila_server import running_voila

    args = ["--VoilaConfiguration.preheat_kernel=False",
            "--ClassroomKernelManager.max_kernels=2",
            "--ClassroomKernelManager.max_unconnected_per_client=1"]
    es_page, en_page = "voila/render/es/00_start_here.ipynb", "voila/render/00_start_here.ipynb"
    with running_voila(ROOT / "lessons", extra_args=args) as (url, _process):
        page = _get(url, es_page, "10.0.0.1")
        assert page.status_code == 200
        assert '<html lang="es">' in page.text
        assert json.loads(BLOCK.search(page.text).group(1)) == page_words.page_words("es")
        assert '<h2 id="loading_text">Abriendo la lección...</h2>' in page.text

        many = _get(url, es_page, "10.0.0.1")  # this computer's page has not connected
        assert many.status_code == 429 and many.headers.get("Retry-After", "").isdigit()
        assert '<html lang="es">' in many.text
        assert "<h1>Se están abriendo demasiadas lecciones</h1>" in many.text

        page = _get(url, en_page, "10.0.0.2")
        assert page.status_code == 200 and '<html lang="en">' in page.text
        assert json.loads(BLOCK.search(page.text).group(1)) == page_words.page_words("en")

        full = _get(url, es_page, "10.0.0.3")  # two kernels: the class is full
        assert full.status_code == 503 and full.headers.get("Retry-After", "").isdigit()
        assert '<html lang="es">' in full.text and "<h1>La clase está llena</h1>" in full.text
        assert "Vuelve a intentarlo en un minuto" in _text(full.text)
        full_en = _get(url, en_page, "10.0.0.3")
        assert full_en.status_code == 503 and '<html lang="en">' in full_en.text
        assert "<h1>The class is full</h1>" in full_en.text
        full_accept = _get(url, en_page, "10.0.0.3", accept="es-MX,es;q=0.9,en;q=0.5")
        assert "<h1>La clase está llena</h1>" in full_accept.text
        assert KERNEL_ID.search(full.text) is None
