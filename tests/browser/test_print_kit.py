"""The printable kit prints: Chromium (through Playwright) prints its Voila page to PDF, and the
PDF has one page per sheet or so, every sheet's text, the engine's figures, and no table cut
across a page break."""

from __future__ import annotations

import io
from typing import Any

import pypdf

from widgets.lessons import kit
from widgets.lessons.exit_ticket import TICKETS
from widgets.lessons.problem_set import SETS

A4_HEIGHT_PX = 1123  # 297 mm at 96 px per inch
MARGIN_PX = 2 * 45  # @page margin 12 mm, top and bottom


def _print(lessons_server: Any, open_page: Any) -> tuple[Any, bytes]:
    vp = open_page("kit")
    vp.open(lessons_server.page_url("printable_kit.ipynb"), expect_widgets=False)
    vp.page.wait_for_selector(".icg-kit", timeout=30_000)
    vp.page.emulate_media(media="print")
    pdf = vp.page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    return vp, pdf


def test_the_kit_prints_to_pdf(lessons_server: Any, open_page: Any) -> None:
    vp, pdf = _print(lessons_server, open_page)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    pages = [p.extract_text() or "" for p in reader.pages]
    sheets = ["Rule cards", "Hit Me recording sheet", "Flapjack running-total sheet",
              "Score sheet", "Exit tickets", "Stacked deals of the worked examples"]
    # every sheet starts a page; the exit tickets and decks may take more than one, and each
    # lesson's problem set (room to write) two at most
    assert len(sheets) <= len(pages) <= 16 + 2 * len(SETS), len(pages)
    text = "\n".join(pages)
    for title in sheets:
        starts = [i for i, p in enumerate(pages) if title in p]
        assert starts, f"{title!r} is not in the PDF"
    # the engine's figures are there: limits, targets, the example's sums, every exit ticket
    for needle in ("from -13 to +13", "-13, 0, +13", "-4, +5, -2", "+4 + (+9) = +13",
                   *(f"Exit ticket, lesson {n}" for n in TICKETS),
                   *(f"Problem set, lesson {n}" for n in SETS)):
        assert needle in " ".join(text.replace("\u2212", "-").split()), needle  # lines wrap
    assert "(Ctrl+P or" not in text  # the kit's screen-only note is not printed
    assert vp.problems() == []


def test_no_table_is_cut_across_a_page(lessons_server: Any, open_page: Any) -> None:
    """In print layout every table and rule card avoids a page break inside, and each one
    is shorter than a printed page, so the break can always fall before it."""
    vp, _pdf = _print(lessons_server, open_page)
    boxes = vp.page.evaluate("""() => [...document.querySelectorAll(
        '.icg-kit table, .icg-kit .icg-kit-card')].map(e => ({
          tag: e.tagName, inside: getComputedStyle(e).breakInside,
          height: e.getBoundingClientRect().height}))""")
    assert len(boxes) >= 8
    for box in boxes:
        assert box["inside"] == "avoid", box
        assert 0 < box["height"] < A4_HEIGHT_PX - MARGIN_PX, box
    sheets = vp.page.evaluate("""() => [...document.querySelectorAll('.icg-kit-sheet')]
        .map(e => getComputedStyle(e).breakAfter)""")
    assert sheets[:-1] == ["page"] * (len(sheets) - 1), sheets
    assert kit.kit_html().count("icg-kit-sheet'") == len(sheets)


def _font_sizes(pdf: bytes) -> list[float]:
    """The printed size (pt) of every run of text in the PDF: the font size times the scale of
    the text and current matrices, as a viewer draws it."""
    sizes: list[float] = []
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
            if text.strip():
                scale = abs(cm[3] * tm[3]) or abs(cm[0] * tm[0])
                sizes.append(size * scale)
        page.extract_text(visitor_text=visit)
    return sizes


def test_the_kit_prints_at_full_size_from_a_wide_window(lessons_server: Any,
                                                        open_page: Any) -> None:
    """Printed from a 1366 px window (a school laptop) the kit is not shrunk to fit: its text
    prints at 10 pt or more, and the links at the page's end are not printed."""
    vp = open_page("kit-wide", viewport={"width": 1366, "height": 768})
    vp.open(lessons_server.page_url("printable_kit.ipynb"), expect_widgets=False)
    vp.page.wait_for_selector(".icg-kit", timeout=30_000)
    vp.page.emulate_media(media="print")
    pdf = vp.page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    sizes = sorted(_font_sizes(pdf))
    assert sizes, "no text in the PDF"
    median = sizes[len(sizes) // 2]
    print(f"printed text: {sizes[0]:.1f} to {sizes[-1]:.1f} pt, median {median:.1f} pt")
    assert median >= 10, f"the kit prints shrunk: median text {median:.1f} pt"
    text = "\n".join(p.extract_text() or "" for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Back to start" not in text
    assert vp.problems() == []
