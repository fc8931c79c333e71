"""Voila renders a lesson's Markdown cells once per text, not once per page request.

Voila's exporter turns every Markdown cell into HTML (mistune) on every page request: for the
Hit Me lesson about 12 ms of the server's one process per page (the bare one-button notebook:
almost nothing), 30 times over when a class opens the lesson at once. The HTML depends only on
the cell's text and the exporter's settings, except for images (read from the lesson's folder,
and a cell's attachments), so `install()` wraps `VoilaExporter.markdown2html` with a bounded
cache keyed on those; a cell with an image or attachments is rendered every time, as before.
`serving/voila_config.py` calls it when Voila loads the project's settings.
"""

from __future__ import annotations

from typing import Any

MAX_ENTRIES = 2048  # Markdown cells of every lesson in every language, with room to spare


def install() -> None:
    """Wrap `voila.exporter.VoilaExporter.markdown2html` with the cache (once)."""
    from jinja2 import pass_context
    from voila.exporter import VoilaExporter

    render = VoilaExporter.markdown2html
    if getattr(render, "icg_cached", False):
        return
    cache: dict[tuple[Any, ...], str] = {}

    @pass_context
    def markdown2html(self: Any, context: Any, source: str) -> str:
        cell = context.get("cell") or {}
        if cell.get("attachments") or "![" in source or "<img" in source:
            return render(self, context, source)  # images are read from disk: not cached
        key = (source, self.anchor_link_text, self.markdown_renderer_class)
        html = cache.get(key)
        if html is None:
            if len(cache) >= MAX_ENTRIES:
                cache.clear()
            html = cache[key] = render(self, context, source)
        return html

    markdown2html.icg_cached = True  # type: ignore[attr-defined]
    markdown2html.__wrapped__ = render  # type: ignore[attr-defined]
    markdown2html.__doc__ = render.__doc__
    VoilaExporter.markdown2html = markdown2html  # type: ignore[method-assign]
