"""Pure rendering: observations (plain dicts from the engine) to HTML text.

Nothing here imports ipywidgets or touches a game state: every function takes the data a viewer
may see (an observation or a piece of one) and returns a string, so it can be tested without a
browser. Every card face carries its signed value as text; a card back carries no value.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from widgets.words import _, card_aria, hidden_card_label

__all__ = [
    "Arrow", "Point", "Span",
    "abs_text", "card_back_html", "card_face_html", "card_html", "esc",
    "hand_html", "move_log_html", "number_line_svg", "score_table_html", "signed",
    "message_html",
]


def esc(text: Any) -> str:
    """HTML-escape any value's text (quotes included, safe inside attributes)."""
    return html.escape(str(text), quote=True)


def signed(n: int) -> str:
    """'+7', '-7', '0' (same as engine.cards.signed; kept here so render has no engine import)."""
    return f"+{n}" if n > 0 else str(n)


def abs_text(n: int) -> str:
    """'|-3| = 3', the distance from zero written out."""
    return f"|{signed(n)}| = {abs(n)}"


# ----- cards ---------------------------------------------------------------------------------
def card_face_html(card: dict[str, Any], *, small: bool = False, note: str = "") -> str:
    """A face-up card from an engine card view: rank, suit symbol, colour and signed value.

    `card` is a dict as made by engine.events.card_view (keys label, symbol, color, value_text,
    aria, ...). `note` is an optional extra line (e.g. "ace counts 11").
    """
    value = int(card["value"])
    sign_class = "icg-pos" if value > 0 else ("icg-neg" if value < 0 else "icg-zero")
    classes = f"icg-card icg-{esc(card['color'])} {sign_class}" + (" icg-small" if small else "")
    aria = card_aria(card)
    if note:
        aria = f"{aria}, {note}"
    value_text = card.get("value_text", signed(value))
    note_html = f'<span class="icg-card-note">{esc(note)}</span>' if note else ""
    return (
        f'<span class="{classes}" role="img" aria-label="{esc(aria)}" title="{esc(aria)}">'
        f'<span class="icg-rank" aria-hidden="true">{esc(card["label"])}</span>'
        f'<span class="icg-suit" aria-hidden="true">{esc(card["symbol"])}</span>'
        f'<span class="icg-value" aria-hidden="true">{esc(value_text)}</span>'
        f"{note_html}</span>"
    )


def card_back_html(label: str | None = None, *, small: bool = False) -> str:
    """A face-down card: a patterned back and an accessible label; no rank, suit or value."""
    label = hidden_card_label() if label is None else label
    classes = "icg-card icg-back" + (" icg-small" if small else "")
    return (f'<span class="{classes}" role="img" aria-label="{esc(label)}" title="{esc(label)}">'
            f'<span class="icg-back-pattern" aria-hidden="true"></span></span>')


def card_html(card: dict[str, Any], *, small: bool = False, note: str = "") -> str:
    """A card view or HIDDEN_CARD: the face if it is known, else the back."""
    if card.get("hidden") or "value" not in card:
        return card_back_html(small=small)
    return card_face_html(card, small=small, note=note)


def hand_html(cards: Iterable[dict[str, Any]], *, label: str | None = None,
              small: bool = False) -> str:
    """A row of cards (faces or backs) as a labelled group."""
    label = _("cards") if label is None else label
    inner = "".join(card_html(c, small=small) for c in cards)
    return f'<span class="icg-hand" role="group" aria-label="{esc(label)}">{inner}</span>'


# ----- number line ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Point:
    """A point on the number line (a player's sum, the running total); drawn as 'label +5'."""

    value: int
    label: str
    kind: str = "sum"  # css hint: 'sum', 'me', 'total', 'winner'


@dataclass(frozen=True)
class Arrow:
    """The last card: an arrow from the old total to the new one."""

    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class Span:
    """The distance from zero to `value`, drawn as a bracket labelled |v| = d."""

    value: int
    label: str = ""  # default: abs_text(value)


def _nice_range(values: Sequence[int], minimum: int) -> tuple[int, int]:
    r = max([minimum] + [abs(v) for v in values])
    r = ((r + 4) // 5) * 5  # round up to a multiple of 5
    return -r, r


#: The number line is drawn twice: for the width asked (640 units; 440 for large print) and
#: narrow (NARROW_WIDTH units, fewer numbers) for a phone. style.css shows one of the two by the
#: width of the figure (a container query: no script, Chromium 105+, Safari 16+; a browser
#: without container queries shows the wide one). Both are scaled to the figure's width, so a
#: label's size on screen is FONT * figure width / drawing width: 13 units stay at least 12 px
#: while the wide drawing is shown at 600 px or more (style.css switches below that), and the
#: narrow one at 277 px or more (a 320 px phone leaves the figure about 290 px).
NARROW_WIDTH = 300
FONT = 13  # px of every label in SVG units (style.css sets the same size)
CHAR = 0.6 * FONT  # estimated width of a character of a label
#: The vertical line (positive up: a thermometer, heights above and below sea level) is drawn
#: once, NARROW_WIDTH units wide or wider when its labels need it; style.css shows it at most
#: 360 px wide, so its labels are 12 to 16 px from a 277 px phone figure up. Its whole numbers
#: are at most V_STEP units apart, and the line at most V_LENGTH units long.
V_STEP = 18
V_LENGTH = 380
V_AXIS = 64  # the axis's x: the numbers are at its left, the labels at its right


def number_line_svg(
    points: Sequence[Point] = (),
    arrow: Arrow | None = None,
    spans: Sequence[Span] = (),
    marks: Sequence[int] = (),
    limits: tuple[int, int] | None = None,
    lo: int | None = None,
    hi: int | None = None,
    title: str | None = None,
    width: int = 640,
    vertical: bool = False,
    unit: str = "",
) -> str:
    """A number line as inline SVG plus a text list of what it shows (for screen readers).

    Points are stacked when they share a value. `marks` are targets drawn as diamonds (Flapjack:
    -13, 0, 13); `limits` shade everything outside lo..hi. The caption lists every point, the
    arrow and every span as text ("|-3| = 3"), so nothing is said by the picture alone.
    The drawing comes twice, `width` units wide and NARROW_WIDTH wide for small screens (the
    page shows one of them); only the caption is read out.

    `vertical`: the line stands up, positive up (a thermometer, heights above and below sea
    level), drawn once (`width` is not used): the numbers at the left of the axis, each point's
    label, the arrow's and the spans' at its right, at their own height. `unit` follows every
    point's value in its label and in the caption ("start -4 °C").
    """
    title = _("Number line") if title is None else title
    values = [p.value for p in points] + [s.value for s in spans] + list(marks)
    if arrow is not None:
        values += [arrow.start, arrow.end]
    if limits is not None:
        values += list(limits)
    auto_lo, auto_hi = _nice_range(values, 10)
    lo = auto_lo if lo is None else min(lo, min(values, default=lo))
    hi = auto_hi if hi is None else max(hi, max(values, default=hi))
    if hi <= lo:
        hi = lo + 1
    bits = _number_line_caption(points, arrow, spans, marks, limits, unit)
    caption = "; ".join(bits)
    items = "".join(f"<li>{esc(t)}</li>" for t in bits if t)
    if vertical:
        upright = _vertical_drawing(points, arrow, spans, marks, limits, lo, hi, unit, title,
                                    caption)
        return (f'<figure class="icg-numberline icg-nl-upright">{upright}'
                f'<figcaption><ul class="icg-nl-text">{items}</ul></figcaption></figure>')
    wide = _drawing(points, arrow, spans, marks, limits, lo, hi, width, "icg-nl-wide",
                    title, caption, unit)
    narrow = _drawing(points, arrow, spans, marks, limits, lo, hi, NARROW_WIDTH,
                      "icg-nl-narrow", "", "", unit)
    return (f'<figure class="icg-numberline">{wide}{narrow}'
            f'<figcaption><ul class="icg-nl-text">{items}</ul></figcaption></figure>')


#: The colours the line is drawn in, by part (style.css draws them in system colours under
#: forced colours). Each is painted through a one-colour gradient of the drawing's own, never as
#: a plain colour: Chromium's forced dark mode (WebContentsForceDark) lightens an inline SVG's
#: dark text and lines (Chromium 150: white labels on the line's white ground) or leaves them
#: as they are (Chromium 156), but leaves a gradient's colours alone in both.
INK = {"axis": "#222", "tick": "#444", "num": "#222", "pt": "#1d4e89", "me": "#8a4b00",
       "winner": "#1b6e1b", "ptlabel": "#111", "span": "#8a4b00", "spanlabel": "#5a3100",
       "arrow": "#b00020", "head": "#b00020", "arrowlabel": "#7a0016", "mark": "#1b6e1b"}


class _Inks:
    """The gradients one drawing paints with: `paint(part)` is the fill or stroke of a part.
    Their ids are made from the drawing itself: a page shows one of two drawings of a line
    (the other hidden), and a paint found by its id in a hidden drawing is not drawn."""

    def __init__(self) -> None:
        self.used: dict[str, str] = {}

    def paint(self, part: str) -> str:
        colour = INK[part]
        self.used[colour] = colour[1:]
        return f"url(#@INK@{colour[1:]})"

    def finish(self, body: str, salt: str) -> str:
        """`body` with its gradients, their ids made from `salt` and the body."""
        prefix = "icg" + hashlib.sha1((salt + body).encode()).hexdigest()[:10]
        defs = "".join(f'<linearGradient id="{prefix}{name}" gradientUnits="userSpaceOnUse">'
                       f'<stop stop-color="{colour}"/></linearGradient>'
                       for colour, name in self.used.items())
        return f"<defs>{defs}</defs>" + body.replace("@INK@", prefix)


def _drawing(points: Sequence[Point], arrow: Arrow | None, spans: Sequence[Span],
             marks: Sequence[int], limits: tuple[int, int] | None, lo: int, hi: int,
             width: int, kind: str, title: str, caption: str, unit: str = "") -> str:
    """One SVG of the line, `width` units wide, named `title: caption` (no title: hidden from
    screen readers, being a copy of the other drawing)."""
    pad = 24

    def x(v: float) -> float:
        return round(pad + (v - lo) * (width - 2 * pad) / (hi - lo), 1)

    rows, n_rows = _label_rows(points, x, width, unit)
    top = 22 if arrow is not None and arrow.label else 8
    arrow_y = top + (8 if arrow is not None else 0)
    axis_y = arrow_y + 36 + 18 * (n_rows - 1)  # the top label row clears the arrowhead
    span_rows = _span_rows(spans, x, width)
    ink = _Inks()
    height = axis_y + 36 + 18 * sum(rows for rows, _lx, _anchor, _ly in span_rows)

    # A white ground under the drawing: Chromium's forced dark mode darkens the page but
    # leaves an SVG with a light ground as it is (dark text on white), where it would
    # otherwise leave dark text on a darkened page. style.css paints it Canvas under
    # forced colours.
    parts: list[str] = [f'<rect class="icg-nl-bg" x="0" y="0" width="{width}" '
                        f'height="{height}"/>']
    if limits is not None:
        a, b = limits
        if a > lo:
            parts.append(f'<rect class="icg-nl-out" x="{x(lo)}" y="{axis_y - 12}" '
                         f'width="{x(a) - x(lo)}" height="24"/>')
        if b < hi:
            parts.append(f'<rect class="icg-nl-out" x="{x(b)}" y="{axis_y - 12}" '
                         f'width="{x(hi) - x(b)}" height="24"/>')
    parts.append(f'<line class="icg-nl-axis" x1="{x(lo)}" y1="{axis_y}" '
                 f'x2="{x(hi)}" y2="{axis_y}" stroke="{ink.paint("axis")}"/>')
    span_len = hi - lo
    # numbers at least 4 characters apart ("-10" and a gap)
    step, label_step = _steps(span_len, (width - 2 * pad) / span_len, 4.5 * CHAR, (5, 10))
    special = sorted({*marks, *(limits or ())})
    ticks = []  # every tick in one path: a third of the drawing's bytes, redrawn every move
    for v in range(lo - lo % step, hi + 1, step):
        if v < lo:
            continue
        big = v % label_step == 0
        h = 8 if big else 4
        ticks.append(f"M{x(v)} {axis_y - h}V{axis_y + h}")
    parts.append(f'<path class="icg-nl-tick" d="{"".join(ticks)}" '
                 f'stroke="{ink.paint("tick")}"/>')
    for v in range(lo - lo % step, hi + 1, step):
        if v < lo:
            continue
        big = v % label_step == 0
        crowded = any(v != m and abs(x(v) - x(m)) < 4 * CHAR for m in special)
        if v in special or (big and not crowded):
            parts.append(f'<text class="icg-nl-num" x="{x(v)}" y="{axis_y + 24}" '
                         f'text-anchor="middle" fill="{ink.paint("num")}">{esc(signed(v))}</text>')
    for m in marks:
        if m % step:  # a target between ticks still gets its number
            parts.append(f'<text class="icg-nl-num" x="{x(m)}" y="{axis_y + 24}" '
                         f'text-anchor="middle" fill="{ink.paint("num")}">{esc(signed(m))}</text>')
        parts.append(f'<path class="icg-nl-mark" d="M{x(m)} {axis_y - 9} l6 9 l-6 9 l-6 -9 z" '
                     f'fill="{ink.paint("mark")}"/>')
    y = axis_y + 38
    for s, (n_rows, lx, anchor, dy) in zip(spans, span_rows, strict=True):
        text = s.label or abs_text(s.value)
        x0, x1 = x(0), x(s.value)
        line = ink.paint("span")
        parts.append(f'<line class="icg-nl-span" x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" '
                     f'stroke="{line}"/>'
                     f'<line class="icg-nl-span" x1="{x0}" y1="{y - 4}" x2="{x0}" y2="{y + 4}" '
                     f'stroke="{line}"/>'
                     f'<line class="icg-nl-span" x1="{x1}" y1="{y - 4}" x2="{x1}" y2="{y + 4}" '
                     f'stroke="{line}"/>'
                     f'<text class="icg-nl-spanlabel" x="{lx}" y="{y + dy}" '
                     f'text-anchor="{anchor}" fill="{ink.paint("spanlabel")}">{esc(text)}</text>')
        y += 18 * n_rows
    if arrow is not None:
        y = arrow_y
        x0, x1 = x(arrow.start), x(arrow.end)
        d = 1 if x1 >= x0 else -1
        # the head is a path of its own (not a <marker>: a marker is found by its id, and the
        # first drawing with that id may be the one the page hides)
        parts.append(f'<line class="icg-nl-arrow" x1="{x0}" y1="{y}" '
                     f'x2="{round(x1 - d * 10, 1)}" y2="{y}" stroke="{ink.paint("arrow")}"/>'
                     f'<path class="icg-nl-head" d="M{x1} {y} l{-12 * d} -6 l0 12 z" '
                     f'fill="{ink.paint("head")}"/>')
        if arrow.label:
            mid = (x0 + x1) / 2
            w = CHAR * len(arrow.label) / 2
            mid = min(max(mid, w + 2), width - w - 2)
            parts.append(f'<text class="icg-nl-arrowlabel" x="{round(mid, 1)}" '
                         f'y="{y - 8}" text-anchor="middle" '
                         f'fill="{ink.paint("arrowlabel")}">{esc(arrow.label)}</text>')
    for p, (k, anchor, tx) in zip(points, rows, strict=True):
        px = x(p.value)
        dot = ink.paint(p.kind if p.kind in ("me", "winner") else "pt")
        parts.append(f'<circle class="icg-nl-pt icg-nl-{esc(p.kind)}" cx="{px}" '
                     f'cy="{axis_y}" r="6" fill="{dot}"/>')
        parts.append(f'<text class="icg-nl-ptlabel" x="{tx}" y="{axis_y - 15 - 18 * k}" '
                     f'text-anchor="{anchor}" fill="{ink.paint("ptlabel")}">'
                     f'{esc(_point_text(p, unit))}</text>')
    a11y = (f'role="img" aria-label="{esc(title)}: {esc(caption)}"' if title
            else 'aria-hidden="true"')
    name = f"<title>{esc(title)}</title>" if title else ""
    body = ink.finish("".join(parts), f"{kind} {width}")
    return (f'<svg class="icg-nl {kind}" viewBox="0 0 {width} {height}" {a11y} '
            f'preserveAspectRatio="xMidYMid meet">{name}{body}</svg>')


def _steps(span_len: int, unit: float, label_gap: float, least: tuple[int, int]
           ) -> tuple[int, int]:
    """The steps between ticks and between numbered ticks on a line `span_len` long, `unit`
    SVG units per whole number: ticks at least 5 units apart, numbers at least `label_gap`
    apart and every least[0] (least[1] on a line longer than 60)."""
    step = next(s for s in (1, 5, 10, 20, 50, 100, 1000) if s * unit >= 5 or s == 1000)
    step = max(step, 1 if span_len <= 30 else (5 if span_len <= 100 else 10))
    label_step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 1000)
                      if s >= least[0] and s * unit >= label_gap or s == 1000)
    label_step = max(label_step, least[0] if span_len <= 60 else least[1])
    return step, label_step


def _vertical_drawing(points: Sequence[Point], arrow: Arrow | None, spans: Sequence[Span],
                      marks: Sequence[int], limits: tuple[int, int] | None, lo: int, hi: int,
                      unit: str, title: str, caption: str) -> str:
    """The line standing up, positive up, named `title: caption`: the numbers right-aligned at
    the left of the axis; the arrow and each span on a lane of their own at its right; every
    label (the points', the arrow's, the spans') at the height it names, further right, past
    the labels before it that it would touch (two points at the same height: side by side)."""
    span_len = hi - lo
    step_units = min(V_STEP, V_LENGTH / span_len)
    top = 16

    def y(v: float) -> float:
        return round(top + (hi - v) * step_units, 1)

    ink = _Inks()
    lanes = (1 if arrow is not None else 0) + len(spans)
    text_x = V_AXIS + 16 + 12 * lanes
    # (height, text, ink part) of every label at the right of the axis
    labels = [(y(p.value), _point_text(p, unit), "ptlabel") for p in points]
    if arrow is not None and arrow.label:
        labels.append(((y(arrow.start) + y(arrow.end)) / 2, arrow.label, "arrowlabel"))
    labels += [((y(0) + y(s.value)) / 2, s.label or abs_text(s.value), "spanlabel")
               for s in spans]
    placed: list[tuple[float, float, float]] = []  # (height, x, end) of each label placed
    xs = [0.0] * len(labels)
    for i in sorted(range(len(labels)), key=lambda i: (labels[i][0], i)):
        h, text, _part = labels[i]
        # right of every label placed before that it would touch, at its own height
        x = max([float(text_x)] + [end + 10 for h2, _x, end in placed
                                   if abs(h - h2) < FONT + 4])
        xs[i] = round(x, 1)
        placed.append((h, x, x + CHAR * len(text)))
    width = max([NARROW_WIDTH] + [round(end + 4) for _h, _x, end in placed])
    height = round(y(lo) + top)
    parts: list[str] = [f'<rect class="icg-nl-bg" x="0" y="0" width="{width}" '
                        f'height="{height}"/>']
    if limits is not None:
        a, b = limits
        if a > lo:
            parts.append(f'<rect class="icg-nl-out" x="{V_AXIS - 12}" y="{y(a)}" width="24" '
                         f'height="{round(y(lo) - y(a), 1)}"/>')
        if b < hi:
            parts.append(f'<rect class="icg-nl-out" x="{V_AXIS - 12}" y="{y(hi)}" width="24" '
                         f'height="{round(y(b) - y(hi), 1)}"/>')
    parts.append(f'<line class="icg-nl-axis" x1="{V_AXIS}" y1="{y(hi)}" x2="{V_AXIS}" '
                 f'y2="{y(lo)}" stroke="{ink.paint("axis")}"/>')
    step, label_step = _steps(span_len, step_units, FONT + 6, (1, 5))
    special = sorted({*marks, *(limits or ())})
    values = [v for v in range(lo - lo % step, hi + 1, step) if v >= lo]
    ticks = "".join(f"M{V_AXIS - (8 if v % label_step == 0 else 4)} {y(v)}"
                    f"H{V_AXIS + (8 if v % label_step == 0 else 4)}" for v in values)
    parts.append(f'<path class="icg-nl-tick" d="{ticks}" stroke="{ink.paint("tick")}"/>')
    numbered = [v for v in values if v in special or (
        v % label_step == 0 and not any(v != m and abs(y(v) - y(m)) < FONT + 4
                                        for m in special))]
    numbered += [m for m in marks if m % step]  # a target between ticks gets its number
    for v in numbered:
        parts.append(f'<text class="icg-nl-num" x="{V_AXIS - 12}" y="{round(y(v) + FONT / 3, 1)}" '
                     f'text-anchor="end" fill="{ink.paint("num")}">{esc(signed(v))}</text>')
    for m in marks:
        parts.append(f'<path class="icg-nl-mark" d="M{V_AXIS - 9} {y(m)} l9 -6 l9 6 l-9 6 z" '
                     f'fill="{ink.paint("mark")}"/>')
    lane = V_AXIS + 20
    if arrow is not None:
        y0, y1 = y(arrow.start), y(arrow.end)
        d = 1 if y1 <= y0 else -1  # 1: the arrow points up
        parts.append(f'<line class="icg-nl-arrow" x1="{lane}" y1="{y0}" x2="{lane}" '
                     f'y2="{round(y1 + d * 10, 1)}" stroke="{ink.paint("arrow")}"/>'
                     f'<path class="icg-nl-head" d="M{lane} {y1} l-6 {12 * d} l12 0 z" '
                     f'fill="{ink.paint("head")}"/>')
        lane += 12
    for s in spans:
        y0, y1 = y(0), y(s.value)
        line = ink.paint("span")
        parts.append(f'<line class="icg-nl-span" x1="{lane}" y1="{y0}" x2="{lane}" y2="{y1}" '
                     f'stroke="{line}"/>'
                     f'<line class="icg-nl-span" x1="{lane - 4}" y1="{y0}" x2="{lane + 4}" '
                     f'y2="{y0}" stroke="{line}"/>'
                     f'<line class="icg-nl-span" x1="{lane - 4}" y1="{y1}" x2="{lane + 4}" '
                     f'y2="{y1}" stroke="{line}"/>')
        lane += 12
    for p in points:
        dot = ink.paint(p.kind if p.kind in ("me", "winner") else "pt")
        parts.append(f'<circle class="icg-nl-pt icg-nl-{esc(p.kind)}" cx="{V_AXIS}" '
                     f'cy="{y(p.value)}" r="6" fill="{dot}"/>')
    for (h, text, part), lx in zip(labels, xs, strict=True):
        parts.append(f'<text class="icg-nl-{part}" '
                     f'x="{lx}" y="{round(h + FONT / 3, 1)}" '
                     f'text-anchor="start" fill="{ink.paint(part)}">{esc(text)}</text>')
    a11y = f'role="img" aria-label="{esc(title)}: {esc(caption)}"'
    body = ink.finish("".join(parts), f"upright {width}")
    return (f'<svg class="icg-nl icg-nl-vertical" viewBox="0 0 {width} {height}" {a11y} '
            f'preserveAspectRatio="xMidYMid meet"><title>{esc(title)}</title>{body}</svg>')


def _span_rows(spans: Sequence[Span], x: Any, width: int
               ) -> list[tuple[int, float, str, int]]:
    """For each |sum| bracket: the rows it takes, and its label's x, text-anchor and height
    from the bracket's line. The label goes beside the bracket's far end, else beside zero on
    the other side; when neither leaves room (a phone's narrow drawing, a long name) it goes on
    a row of its own under the bracket, so that no bracket ever crosses a label."""
    out = []
    for s in spans:
        text = s.label or abs_text(s.value)
        w = CHAR * len(text)
        x0, x1 = x(0), x(s.value)
        if s.value >= 0 and x1 + 6 + w <= width:
            out.append((1, x1 + 6, "start", 5))
        elif s.value < 0 and x1 - 6 - w >= 0:
            out.append((1, x1 - 6, "end", 5))
        elif s.value >= 0 and x0 - 6 - w >= 0:
            out.append((1, x0 - 6, "end", 5))
        elif s.value < 0 and x0 + 6 + w <= width:
            out.append((1, x0 + 6, "start", 5))
        else:  # under the bracket, centred on it as far as the edges allow
            mid = min(max((x0 + x1) / 2, w / 2 + 2), width - w / 2 - 2)
            out.append((2, round(mid, 1), "middle", 19))
    return out


def _point_text(p: Point, unit: str = "") -> str:
    return f"{p.label} {signed(p.value)}{unit}"


def _label_rows(points: Sequence[Point], x: Any, width: int, unit: str = ""
                ) -> tuple[list[tuple[int, str, float]], int]:
    """For each point, a label row (0 = nearest the axis), text-anchor and x, so that labels on
    the same row do not overlap and none goes past an edge of the drawing (widths estimated at
    CHAR units a character): a label centred on its point, or moved along as little as it
    needs to stay inside (on a phone's narrow drawing a long label may sit beside it)."""
    out: list[tuple[int, str, float]] = [(0, "middle", 0.0)] * len(points)
    row_ends: list[float] = []
    for i in sorted(range(len(points)), key=lambda i: (x(points[i].value), i)):
        px = x(points[i].value)
        w = CHAR * len(_point_text(points[i], unit)) + 8
        left = max(2.0, min(px - w / 2, width - 2 - w))
        if left == px - w / 2:
            anchor, tx = "middle", px
        else:
            anchor, tx = "start", round(left + 4, 1)
        row = next((r for r, end in enumerate(row_ends) if end <= left), len(row_ends))
        if row == len(row_ends):
            row_ends.append(0.0)
        row_ends[row] = left + w
        out[i] = (row, anchor, tx)
    return out, max(1, len(row_ends))


def _number_line_caption(points: Sequence[Point], arrow: Arrow | None, spans: Sequence[Span],
                         marks: Sequence[int], limits: tuple[int, int] | None,
                         unit: str = "") -> list[str]:
    """The number line in words, one item a line (the caption a screen reader reads)."""
    bits = [_("{label} at {value}").format(label=p.label, value=signed(p.value) + unit)
            for p in points]
    if arrow is not None:
        move = _("from {start} to {end}").format(start=signed(arrow.start),
                                                 end=signed(arrow.end))
        bits.append(_("{label}: {move}").format(label=arrow.label, move=move) if arrow.label
                    else move)
    bits += [s.label or _("distance from zero {abs}").format(abs=abs_text(s.value))
             for s in spans]
    if marks:
        bits.append(_("targets {values}").format(values=", ".join(signed(m) for m in marks)))
    if limits is not None:
        bits.append(_("limits {low} to {high}").format(low=signed(limits[0]),
                                                        high=signed(limits[1])))
    return bits


# ----- move log, scores, messages ------------------------------------------------------------
def move_log_html(lines: Sequence[str], *, title: str | None = None, newest_first: bool = True,
                  limit: int | None = None) -> str:
    """A copyable log (a <pre>), newest line first by default."""
    title = _("Move log") if title is None else title
    rows = list(reversed(lines)) if newest_first else list(lines)
    if limit is not None:
        rows = rows[:limit]
    body = "\n".join(esc(r) for r in rows) or esc(_("(no moves yet)"))
    order = esc(_("newest first") if newest_first else _("oldest first"))
    return (f'<div class="icg-log"><div class="icg-log-title">{esc(title)} ({order})</div>'
            f'<pre class="icg-log-text" aria-label="{esc(title)}, {order}" tabindex="0">'
            f"{body}</pre>"
            f"</div>")


def score_table_html(names: Sequence[str], wins: Sequence[int], ties: Sequence[int] | None = None,
                     *, title: str | None = None, win_label: str | None = None) -> str:
    """A small table: one row per player with wins (and ties)."""
    title = _("Score table") if title is None else title
    win_label = _("Round wins") if win_label is None else win_label
    player, ties_label = _("Player"), _("Ties")  # (not inside f-strings: Babel reads calls)
    head = (f"<th scope='col'>{esc(player)}</th>"
            f"<th scope='col'>{esc(win_label)}</th>")
    if ties is not None:
        head += f"<th scope='col'>{esc(ties_label)}</th>"
    rows = []
    for i, n in enumerate(names):
        cells = f"<th scope='row'>{esc(n)}</th><td>{int(wins[i])}</td>"
        if ties is not None:
            cells += f"<td>{int(ties[i])}</td>"
        rows.append(f"<tr>{cells}</tr>")
    return (f'<table class="icg-scores"><caption>{esc(title)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def message_html(text: str, kind: str = "info") -> str:
    """A status message; kind 'info', 'ok', 'error' or 'celebrate'. Read out by screen readers."""
    if not text:
        return ""
    role = "alert" if kind == "error" else "status"
    return f'<div class="icg-msg icg-msg-{esc(kind)}" role="{role}">{esc(text)}</div>'
