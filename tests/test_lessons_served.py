"""The lessons as Voila serves them: every lesson the course lists is there, and the landing
page offers each language, whose folder lists its lessons by their titles on a page that says
<html lang>.

(Every page, in every language, is rendered and checked in a real browser: widgets drawn, no
error, its language, no request off the server, axe-core, the Content-Security-Policy:
tests/browser/test_devices.py for the English pages, test_spanish.py's journey and
test_lesson_pages.py for the Spanish ones. The tree page is built in the browser:
tests/browser/test_pages.py checks it lists them.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from voila_server import running_voila

from widgets.lessons import course

pytestmark = pytest.mark.serving  # starts Voila or Jupyter servers

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb"))


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_voila(ROOT / "lessons", preheat=False) as (url, _process):
        yield url


def test_every_listed_lesson_is_there() -> None:
    assert LESSONS == sorted(course.FILES), LESSONS


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
