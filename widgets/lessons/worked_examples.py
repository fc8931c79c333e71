"""Worked examples for the lessons: stacked deals played out move by move, as plain text.

Each example is a fixed card order (a stacked deck) and a fixed list of moves, so the printed
log is the same on every run and a notebook cell can check it (nbval).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card, Convention, Suit, parse_cards, signed
from engine.events import Event, EventKind, card_view
from engine.flapjack import FlapjackConfig, FlapjackState, Play
from engine.hit_me import Hit, HitMeConfig, HitMeRound, Hold
from widgets.page.language import speaking
from widgets.table.render import Arrow, Point, Span, esc, hand_html, number_line_svg
from widgets.words import (
    _,
    abs_math,
    config_error_text,
    log_parts,
    named,
    ngettext,
    private_for_onlooker,
    reason_text,
    sum_math,
)

NAMES = ("Ana", "Ben", "Cam", "Dee", "Eli", "Fay", "Gus", "Hal")

# Hit Me, 3 players, Ana (seat 0) deals. Top of the deck first: three face-down cards
# (Ben, Cam, Ana), three face-up cards in the same order, then the hits.
HIT_ME_EXAMPLE_DECK = "4H,2C,KD,9S,3D,6C,7D,3S,5H,JS"
# (seat, move) in the order they happen.
HIT_ME_EXAMPLE_MOVES = (
    (1, "hit"), (2, "hold"), (0, "hit"),  # first pass
    (1, "hold"), (0, "hit"),  # second pass
    (0, "hit"),  # third pass
    (0, "hold"),  # fourth pass
)

# Flapjack, 3 players, Ana (seat 0) deals: each hand as dealt, and the plays.
FLAPJACK_EXAMPLE_HANDS = (
    ("9S", "5D", "2C", "KH", "6S", "4D", "AC"),  # Ana
    ("8S", "5C", "QS", "3H", "7C", "10D", "2H"),  # Ben
    ("4H", "QD", "JC", "6D", "9H", "AS", "3C"),  # Cam
)
FLAPJACK_EXAMPLE_DRAW = "7S,8D,2S"
FLAPJACK_EXAMPLE_PLAYS = (
    (1, "8S"),  # Ben leads +8
    (2, "4H"),  # Cam: +8 + (-4) = +4
    (0, "9S"),  # Ana: +4 + (+9) = +13, Flapjack
    (0, "5D"),  # Ana leads again: -5
    (1, "5C"),  # Ben: -5 + (+5) = 0, Flapjack
)


def event_line(event: Event, names: Sequence[str] = NAMES, show_private: bool = True,
               show_math: bool = True, add_or_subtract: bool = False) -> str:
    """One event as a sentence with the player's name, and its arithmetic."""
    text, math, _private = log_parts(event, add_or_subtract)
    line = named(names[event.seat] if event.seat is not None else "", text)
    if show_math and math:
        line += f"   [{math}]"
    if show_private and event.private is not None:
        line += f"; {private_for_onlooker(event)}"
    return line


def hit_me_example_round() -> HitMeRound:
    """The Hit Me worked example, played to the end."""
    rnd = HitMeRound.deal(HitMeConfig(players=3), dealer=0, rng=0, deck=HIT_ME_EXAMPLE_DECK)
    for seat, move in HIT_ME_EXAMPLE_MOVES:
        rnd.apply_action(Hit() if move == "hit" else Hold(), player=seat)
    return rnd


def hit_me_example() -> str:
    """The Hit Me worked example as a move log, with every sum and the winner."""
    rnd = hit_me_example_round()
    lines = [_("Hit Me with 3 players; Ana deals. Black cards count +, red cards count -."), ""]
    for e in rnd.events:
        if e.kind is EventKind.REVEAL:
            continue
        if e.kind is EventKind.RESULT:
            break
        lines.append(event_line(e, show_math=False))
    lines += ["", _("All cards turn face up:")]
    res = rnd.result()
    for seat in (1, 2, 0):
        values = rnd.card_values(seat)
        lines.append(f"  {NAMES[seat]}: {sum_math(values)}, {abs_math(res.sums[seat])}")
    winner = NAMES[res.winners[0]]
    lines.append(_("{name} wins: a sum of {sum} is the closest to zero.").format(
        name=winner, sum=signed(res.sums[res.winners[0]])))
    return "\n".join(lines)


def flapjack_deck(hands: Sequence[Sequence[str]], draw: str = "", dealer: int = 0) -> str:
    """The card order (top first) that deals these hands, one card at a time from the
    dealer's left, followed by `draw` as the top of the draw pile."""
    n = len(hands)
    order = []
    for i in range(len(hands[0])):
        for k in range(n):
            order.append(hands[(dealer + 1 + k) % n][i])
    return ",".join(order + [c for c in draw.split(",") if c])


def flapjack_example_state(plays: int = len(FLAPJACK_EXAMPLE_PLAYS)) -> FlapjackState:
    """The Flapjack worked example after its first `plays` scripted plays."""
    deck = flapjack_deck(FLAPJACK_EXAMPLE_HANDS, FLAPJACK_EXAMPLE_DRAW)
    state = FlapjackState.deal(FlapjackConfig(players=3), rng=0, deck=deck)
    for seat, code in FLAPJACK_EXAMPLE_PLAYS[:plays]:
        state.apply_action(Play(parse_cards(code)[0]), player=seat)
    return state


def flapjack_example() -> str:
    """The Flapjack worked example as a move log (classic rules, limit 13)."""
    state = flapjack_example_state()
    lines = [_("Flapjack with 3 players; Ana deals, so Ben leads. Black +, red -."), ""]
    for e in state.events[1:]:
        if e.kind is EventKind.DRAW:
            continue
        lines.append(event_line(e, show_private=False))
    lines += ["", _("Cards won so far: {counts}.").format(
        counts=", ".join(f"{NAMES[p]} {len(state.tricks[p])}" for p in range(3)))]
    # What if Ben had played Q\u2660 (+12) on -5 instead? The engine says what Cam could not do.
    what_if = flapjack_example_state(len(FLAPJACK_EXAMPLE_PLAYS) - 1)
    what_if.apply_action(Play(parse_cards("QS")[0]), player=1)
    why = reason_text(what_if.why_illegal(2, parse_cards("JC")[0]))
    lines.append(_("What if Ben had played Q\u2660 (+12) on -5 instead? -5 + (+12) = +7, and "
                   "then Cam could not play J\u2663 (+11): {why}.").format(why=why))
    return "\n".join(lines)


# ----- number lines for the lessons (drawn by widgets.table.render)
def points_line(values: Sequence[int], labels: Sequence[str] | None = None,
                title: str | None = None) -> str:
    """Each value as a point with its distance to zero drawn as a span (|v| = d)."""
    title = title if title is not None else _("Number line")
    labels = list(labels) if labels is not None else [signed(v) for v in values]
    points = [Point(v, lab) for v, lab in zip(values, labels, strict=True)]
    spans = [Span(v) for v in values]
    return number_line_svg(points=points, spans=spans, title=title)


def steps_line(values: Sequence[int], title: str | None = None) -> str:
    """A sum built up card by card: a point after each card (labelled with the number of
    cards so far), an arrow for the last card, and the distance from the sum to zero."""
    title = title if title is not None else _("Adding the cards on the number line")
    if not values:
        return number_line_svg(points=[Point(0, _("start"))], title=title)
    totals, total = [], 0
    for v in values:
        total += v
        totals.append(total)
    # Short labels (the step number; the line adds the value) so that near points stay legible.
    points = [Point(0, _("start"))] + [Point(t, f"{i + 1}:",
                                             "me" if i == len(totals) - 1 else "sum")
                                   for i, t in enumerate(totals)]
    before = totals[-2] if len(totals) > 1 else 0
    arrow = Arrow(before, total, _("last card {value}").format(value=signed(values[-1])))
    return number_line_svg(points=points, arrow=arrow, spans=[Span(total)], title=title)


# ----- small printed tables for the lessons ----------------------------------------------------
def card_values_table(colors: str = "black-positive") -> str:
    """Every rank's value in Hit Me and in Flapjack, for a black card and a red card."""
    conv = Convention.parse(colors)
    hit_me = HitMeConfig(players=2, colors=conv)
    flapjack = FlapjackConfig(players=2, colors=conv)
    card, hit, flap, black, red = _("card"), _("Hit Me"), _("Flapjack"), _("black"), _("red")
    lines = [f"{card:<6}{hit:>14}{flap:>16}",
             f"{'':<6}{black:>7}{red:>7}{black:>8}{red:>8}"]
    for rank in range(1, 14):
        black, red = Card(rank, Suit.SPADES), Card(rank, Suit.HEARTS)
        lines.append(f"{black.label:<6}{signed(hit_me.value(black)):>7}"
                     f"{signed(hit_me.value(red)):>7}{signed(flapjack.value(black)):>8}"
                     f"{signed(flapjack.value(red)):>8}")
    return "\n".join(lines)


def worked_comparisons(pairs: Sequence[tuple[int, int]]) -> str:
    """For each pair of sums: which is closer to zero, and why, in one line."""
    lines = []
    for a, b in pairs:
        if abs(a) == abs(b):
            verdict = _("so they are the same distance from zero")
        else:
            near = a if abs(a) < abs(b) else b
            verdict = _("so {near} is closer to zero").format(near=signed(near))
        lines.append(_("{a} or {b}: {abs_a}, {abs_b}, {verdict}").format(
            a=f"{signed(a):>4}", b=f"{signed(b):>4}", abs_a=abs_math(a), abs_b=abs_math(b),
            verdict=verdict))
    return "\n".join(lines)


def stacking_instructions() -> str:
    """How to stack a real deck so that the class can replay the Hit Me worked example."""
    cards = parse_cards(HIT_ME_EXAMPLE_DECK)
    config = HitMeConfig(players=3)
    order = "  ".join(f"{c.short}({signed(config.value(c))})" for c in cards)
    return "\n".join([
        _("Hit Me worked example, 3 players, Ana deals (seat order: Ana, Ben, Cam)."),
        _("Stack the deck, top card first: {order}").format(order=order),
        _("Deal face down to Ben, Cam, Ana; then face up to Ben, Cam, Ana; then hit from the "
          "top.")])


# ----- the worked examples as pictures ---------------------------------------------------------
def hit_me_example_html() -> str:
    """Every hand of the Hit Me worked example, face up, and the sums on one number line."""
    rnd = hit_me_example_round()
    obs = rnd.observation(None, reveal=True)
    res = rnd.result()
    rows, points, spans = [], [], []
    for seat in (1, 2, 0):
        view = obs["seats"][seat]
        cards = [view["face_down"], *view["face_up"]]
        s = res.sums[seat]
        won = seat in res.winners
        wins = " " + _("(wins)") if won else ""
        label = _("{name} cards").format(name=NAMES[seat])
        sum_text = _("sum {sum}, {distance}").format(sum=signed(s), distance=abs_math(s))
        rows.append(f"<div class='icg-seat{' icg-winner' if won else ''}'>"
                    f"<div class='icg-seat-name'>{esc(NAMES[seat])}{esc(wins)}</div>"
                    f"{hand_html(cards, label=label, small=True)}"
                    f"<div>{esc(sum_text)}</div></div>")
        points.append(Point(s, NAMES[seat], "winner" if won else "sum"))
        spans.append(Span(s, f"{NAMES[seat]}: {abs_math(s)}"))
    line = number_line_svg(points=points, spans=spans,
                           title=_("Final sums and their distances"))
    return f"<div class='icg-seats'>{''.join(rows)}</div>{line}"


def flapjack_example_html() -> str:
    """The first trick of the Flapjack worked example: the cards played and the total on the
    number line, with the targets marked."""
    state = flapjack_example_state(3)
    cfg = state.config
    played = [parse_cards(code)[0] for _, code in FLAPJACK_EXAMPLE_PLAYS[:3]]
    views = [card_view(c, cfg.value(c)) for c in played]
    totals, total = [], 0
    for c in played:
        total += cfg.value(c)
        totals.append(total)
    points = [Point(t, f"{NAMES[seat]}:") for (seat, _), t in
              zip(FLAPJACK_EXAMPLE_PLAYS[:3], totals, strict=True)]
    line = number_line_svg(points=points,
                           arrow=Arrow(totals[-2], totals[-1],
                                       _("{name}'s {card}").format(name="Ana", card="9♠")),
                           marks=cfg.targets, limits=(cfg.low, cfg.high), lo=cfg.low,
                           hi=cfg.high, title=_("The first trick"))
    taken = len(state.tricks[0])
    total = _("total {total}: Flapjack!").format(total=signed(totals[-1]))
    takes = ngettext("{name} takes {n} card.", "{name} takes {n} cards.", taken).format(
        name="Ana", n=taken)
    in_play = _("cards in play, in order")
    return (f"<div>{hand_html(views, label=in_play, small=True)} "
            f"<b>{esc(total)}</b> {esc(takes)}</div>{line}")


def example_view(which: str, lang: str | None = None) -> object:
    """A worked example as a picture: 'hit-me' or 'flapjack', with its "Large print" switch.

    Plain HTML output, not a widget: nothing in it is interactive, so it needs no kernel
    connection (widget models cost every page load a message each; the picture shows even
    before the widgets do)."""
    from IPython.display import HTML

    from widgets.table.components import load_css

    html = {"hit-me": hit_me_example_html, "flapjack": flapjack_example_html}
    if which not in html:
        raise ValueError(f"which must be 'hit-me' or 'flapjack'; got {which!r}")
    with speaking(lang):
        body = html[which]()
        # for a projector, as the tables' switch: a checkbox the page's stylesheet reads
        switch = (f'<label class="icg-lp-switch"><input type="checkbox"> {esc(_("Large print"))}'
                  "</label>")
    return HTML(f'<style>{load_css()}</style><div class="icg-root icg-example">{switch}{body}'
                "</div>")


def deal_later(make: Any, label: str, **settings: Any) -> object:
    """A "Deal" button that makes `make(**settings)` (a table, or any widget such as the strategy
    lab's simulation panel) when it is pressed.

    For a second table further down a lesson page: it costs the page one button at load instead
    of a whole table's widget models, and its computer players start when the student gets
    there, not while they are still playing the first table. The setting names are checked
    now (a typo fails when the cell runs); their values when the table is made, with the
    table's own message in the page if one is wrong. The button speaks the table's `lang=`
    (passed on to the table), else the kernel's language."""
    import inspect

    import ipywidgets

    from widgets.table.components import MessageArea, make_button

    try:
        inspect.signature(make).bind(**settings)
    except TypeError as e:
        raise TypeError(f"deal_later({getattr(make, '__name__', make)}): {e}") from None
    box = ipywidgets.VBox([])
    message = MessageArea()
    lang = settings.get("lang")
    lang = lang if isinstance(lang, str) else None

    def deal() -> None:
        with speaking(lang):
            try:
                table = make(**settings)
            except (ValueError, TypeError) as e:  # ConfigError is a ValueError
                message.show(_("This table cannot be dealt: {error}").format(
                    error=config_error_text(e)), "error")
                return
        box.children = [table]

    with speaking(lang):
        box.children = [make_button(label, deal, button_style="primary",
                                    tooltip=_("{label}: it appears here").format(label=label)),
                        message]
    return box


# ----- lesson 4: taking a card away ---------------------------------------------------------
def subtraction_steps(pairs: Sequence[tuple[int, int]]) -> str:
    """For each (p, q): p - q written as p plus the opposite of q, and the result."""
    lines = []
    for p, q in pairs:
        move = (_("(move {n} to the right)") if q < 0
                else _("(move {n} to the left)")).format(n=abs(q))
        lines.append(f"{signed(p)} - ({signed(q)}) = {signed(p)} + ({signed(-q)}) = "
                     f"{signed(p - q)}   {move}")
    return "\n".join(lines)


def distance_steps(pairs: Sequence[tuple[int, int]]) -> str:
    """For each (p, q): the distance between them as |q - p|, the same as |p - q|."""
    return "\n".join(_("from {p} to {q}: {one}, and {other}").format(
        p=signed(p), q=signed(q),
        one=f"|{signed(q)} - ({signed(p)})| = |{signed(q - p)}| = {abs(q - p)}",
        other=f"|{signed(p)} - ({signed(q)})| = |{signed(p - q)}| = {abs(p - q)}")
        for p, q in pairs)


# ----- the links at the end of a lesson ---------------------------------------------------------
def lesson_nav_html(name: str, lang: str | None = None) -> str:
    """'Next lesson: 2. Absolute value' and 'Back to start' as relative links, in `lang`
    (None: the kernel's language): `widgets.lessons.course.lesson_nav_html`, kept here for callers
    of this module."""
    from widgets.lessons.course import lesson_nav_html as course_nav

    return course_nav(name, lang)


def lesson_nav(name: str, lang: str | None = None) -> object:
    """The links at the end of a lesson, in `lang` (a Spanish lesson ends with
    `lesson_nav("02_absolute_value.ipynb")` after `set_language("es")`)."""
    from IPython.display import HTML

    return HTML(lesson_nav_html(name, lang))
