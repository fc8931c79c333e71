"""serving/markdown_cache.py: Voila renders a Markdown cell's text once, the same HTML."""

from __future__ import annotations

import json
from pathlib import Path

from voila.exporter import VoilaExporter

from serving import markdown_cache

LESSON = Path(__file__).resolve().parent.parent / "lessons" / "03_hit_me.ipynb"


def _markdown_cells() -> list[str]:
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def test_cached_markdown_is_the_same_html_rendered_once() -> None:
    markdown_cache.install()
    markdown_cache.install()  # twice: still one wrapper
    wrapper = VoilaExporter.markdown2html
    assert wrapper.icg_cached and not getattr(wrapper.__wrapped__, "icg_cached", False)
    exporter = VoilaExporter(template_name="lab")
    for source in _markdown_cells():
        first = exporter.markdown2html({"cell": {}}, source)
        assert first == wrapper.__wrapped__(exporter, {"cell": {}}, source)
        assert exporter.markdown2html({"cell": {}}, source) is first  # from the cache
    assert "<h2" in first or "<p>" in first


def test_cells_with_images_are_rendered_every_time() -> None:
    markdown_cache.install()
    exporter = VoilaExporter(template_name="lab")
    for source, cell in (("A card: <img src='card.png' alt='a card'>", {}),
                         ("See the picture.", {"attachments": {"x.png": {"image/png": "AA=="}}})):
        first = exporter.markdown2html({"cell": cell}, source)
        again = exporter.markdown2html({"cell": cell}, source)
        assert again == first and again is not first
