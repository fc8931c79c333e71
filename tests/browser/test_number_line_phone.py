"""The number line at a round's end on a phone (and an iPad, a Chromebook), measured in
Chromium: no label overlaps another label or a line of the drawing (a |sum| bracket, the
axis, the last card's arrow), and none goes past the drawing's edge, in English and Spanish.

The drawings are the tables' own (widgets/hit_me/render.py's `number_line_parts` of a revealed
round, widgets/table/render.py's `number_line_svg`) in the tables' style sheet, for two to
six players and sums from the middle of the line to its ends.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import ARTIFACTS_DIR

from widgets.hit_me.render import number_line_parts
from widgets.table.components import CSS_PATH
from widgets.table.render import number_line_svg
from widgets.table.shell import seat_names
from widgets.words import speaking

SIZES = {"phone": (390, 844), "phone-small": (320, 640), "ipad-portrait": (768, 1024),
         "chromebook": (1366, 657)}


def ends_of_rounds() -> list[list[int]]:
    """Every seat's sum at a round's end: chosen ones (far apart, at both ends, all alike)
    and seeded random ones for two to six players."""
    chosen = [[9, -7], [21, -3], [-21, 19], [1, 1], [0, 13, -13], [12, 3, -15, 1],
              [2, 2, 2, 2, 2, 2], [-1, 1, -2, 2, 0, 20], [17, 18, 19, 20, -20, -19]]
    rng = random.Random(35)
    drawn = [[rng.randint(-21, 21) for _ in range(players)]
             for players in (2, 3, 4, 5, 6) for _ in range(3)]
    return chosen + drawn


def revealed(sums: list[int]) -> dict[str, Any]:
    """A revealed round's observation, as far as the number line reads it."""
    best = min(abs(s) for s in sums)
    return {"viewer": 0, "reveal": True, "events": [],
            "result": {"winners": [p for p, s in enumerate(sums) if abs(s) == best]},
            "seats": [{"seat": p, "sum": s, "face_up_sum": s} for p, s in enumerate(sums)]}


def figures(lang: str) -> str:
    with speaking(lang):
        out = []
        for sums in ends_of_rounds():
            names = seat_names(None, len(sums))
            points, arrow, spans = number_line_parts(revealed(sums), names, peeked=True)
            out.append(f'<div class="icg-root" data-sums="{sums}">'
                       f'{number_line_svg(points, arrow, spans)}</div>')
    return "".join(out)


# Boxes of the drawing shown (the wide or the narrow one) in CSS pixels: its labels, and its
# lines (a horizontal line's box is its stroke, 2 px high).
OVERLAPS_JS = """() => {
  const problems = [];
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  for (const root of document.querySelectorAll('.icg-root')) {
    const svg = [...root.querySelectorAll('svg.icg-nl')].find(s => s.checkVisibility());
    const frame = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].map(t => ({t: t.textContent,
                                                                 b: t.getBoundingClientRect()}));
    const lines = [...svg.querySelectorAll('.icg-nl-span, .icg-nl-axis, .icg-nl-arrow')]
      .map(l => { const r = l.getBoundingClientRect();
                  const w = parseFloat(getComputedStyle(l).strokeWidth) / 2;
                  return {c: l.getAttribute('class'), b: {left: r.left - w, right: r.right + w,
                          top: r.top - w, bottom: r.bottom + w}}; });
    const where = root.dataset.sums + ' ' + (svg.classList.contains('icg-nl-narrow')
                                               ? 'narrow' : 'wide');
    texts.forEach((a, i) => {
      if (a.b.left < frame.left - 0.5 || a.b.right > frame.right + 0.5)
        problems.push(`${where}: "${a.t}" past the edge`);
      texts.slice(i + 1).forEach(b => { if (hit(a.b, b.b))
        problems.push(`${where}: "${a.t}" over "${b.t}"`); });
      lines.forEach(l => { if (hit(a.b, l.b)) problems.push(`${where}: "${a.t}" over ${l.c}`); });
    });
    const size = Math.min(...texts.map(t => t.b.height));
    if (size < 12) problems.push(`${where}: a label ${size.toFixed(1)} px high`);
  }
  return problems;
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_number_line_labels_never_overlap(browser: Any, lang: str) -> None:
    html = (f'<!DOCTYPE html><html lang="{lang}"><head><meta name="viewport" '
            'content="width=device-width, initial-scale=1">'
            f"<style>body{{margin:16px}}{CSS_PATH.read_text()}</style></head>"
            f"<body>{figures(lang)}</body></html>")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_content(html)
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate(OVERLAPS_JS) == [], name
            if lang == "es" and name == "phone":
                ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS_DIR / "number-line-es-phone.png"),
                                full_page=True)
    finally:
        context.close()
