"""Every lesson renders through Voila's HTTP endpoint with widgets and without an error, in
every language (lessons/ and lessons/es/), and says its language on <html lang>.

(The tree page is built in the browser: tests/browser/test_pages.py checks it lists them.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from voila_server import find_external_urls, running_voila

from widgets.lessons import course

pytestmark = pytest.mark.serving  # starts Voila or Jupyter servers

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb"))
# (language, path in lessons/) of every page of every language
PAGES = [("en", name) for name in LESSONS] + [
    (code, f"{course.FOLDERS[code]}/{name}") for code in course.LANGUAGES if code != "en"
    for name in sorted(p.name for p in (ROOT / "lessons" / course.FOLDERS[code]).glob("*.ipynb"))]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ERRORS = ("There was an error when executing cell", "Traceback (most recent call last)")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_voila(ROOT / "lessons", preheat=False) as (url, _process):
        yield url


def test_every_listed_lesson_is_there() -> None:
    assert LESSONS == sorted(course.FILES), LESSONS


@pytest.mark.parametrize(("lang", "name"), PAGES, ids=[name for _, name in PAGES])
def test_lesson_renders_with_widgets_and_no_error(server: str, lang: str, name: str) -> None:
    response = requests.get(f"{server}voila/render/{name}", timeout=240)
    assert response.status_code == 200, response.status_code
    html = response.text
    assert re.search(r"<html[^>]*\blang=\"([^\"]+)\"", html).group(1) == lang
    if course.by_file(Path(name).name).role not in ("start", "kit"):  # text, links, sheets
        assert WIDGET_VIEW in html, f"{name}: no widget in the rendered page"
    for text in ERRORS:
        assert text not in html, f"{name}: the page shows {text!r}"
    assert not find_external_urls(html), f"{name}: fetches {find_external_urls(html)}"



@pytest.mark.parametrize("lang", [code for code in course.LANGUAGES if code != "en"])
def test_the_landing_page_offers_the_language(server: str, lang: str) -> None:
    """/ links every language by its own name; the language's folder lists its lessons by
    their titles in that language, on a page that says <html lang>."""
    root = requests.get(server, timeout=60).text
    folder = course.FOLDERS[lang]
    assert re.search(rf'<a href="/voila/tree/{folder}" lang="{lang}"\s+hreflang="{lang}">'
                     rf"{re.escape(course.LANGUAGES[lang])}</a>", root), root
    page = requests.get(f"{server}voila/tree/{folder}", timeout=60).text
    assert re.search(r"<html[^>]*\blang=\"([^\"]+)\"", page).group(1) == lang
    shown = re.findall(r'<a href="/voila/render/([^"]+)">([^<]+)</a>', page)
    assert shown == [(f"{folder}/{lesson.file}", course.display_name(lesson))
                     for lesson in course.lessons(lang)]
    assert f'href="/voila/tree/{folder}/' not in page and "/voila/render/0" not in page, \
        "a language's page links only its own lessons"
