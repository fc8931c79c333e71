"""Every lesson renders through Voila's HTTP endpoint with widgets and without an error.

(The tree page is built in the browser: tests/browser/test_pages.py checks it lists them.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from voila_server import find_external_urls, running_voila

from widgets import course

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ERRORS = ("There was an error when executing cell", "Traceback (most recent call last)")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_voila(ROOT / "lessons") as (url, _process):
        yield url


def test_every_listed_lesson_is_there() -> None:
    assert LESSONS == sorted(course.FILES), LESSONS


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_renders_with_widgets_and_no_error(server: str, name: str) -> None:
    response = requests.get(f"{server}voila/render/{name}", timeout=240)
    assert response.status_code == 200, response.status_code
    html = response.text
    if course.by_file(name).role not in ("start", "kit"):  # text, links and sheets only
        assert WIDGET_VIEW in html, f"{name}: no widget in the rendered page"
    for text in ERRORS:
        assert text not in html, f"{name}: the page shows {text!r}"
    assert not find_external_urls(html), f"{name}: fetches {find_external_urls(html)}"

