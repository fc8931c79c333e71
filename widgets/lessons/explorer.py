"""Card explorer: pick cards and watch their sum built up on the number line.

Shows what each card is worth (the colour gives the sign), the sum as an equation, its
absolute value as a distance, opposites (cards of opposite values: the same rank in the other
colour, and in Hit Me also any two face cards of different colours) and zero pairs.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from engine.cards import RANK_LABELS, Card, Color, Convention, Suit, signed
from engine.events import card_view
from engine.games import GAMES as REGISTRY
from widgets.lessons import worked_examples as lesson_tools
from widgets.page.language import check_lang, speaks
from widgets.page.live_gate import page_parts
from widgets.table.components import (
    GuardedButton,
    guarded,
    html_widget,
    make_button,
    make_toggle,
    shared_button_style,
    shared_layout,
    style_widget,
)
from widgets.table.render import Arrow, Point, Span, esc, hand_html, number_line_svg
from widgets.table.shell import set_large_print
from widgets.words import _, abs_math, card_name, ngettext, sum_math

MAX_CARDS = 12
GAMES = tuple(REGISTRY)
SUIT_FOR = {Color.BLACK: Suit.SPADES, Color.RED: Suit.HEARTS}


def card_value(card: Card, game: str, colors: Convention) -> int:
    """The card's signed value, from the engine's registry: J Q K count 10 in Hit Me and
    11, 12, 13 in Flapjack."""
    return REGISTRY[game].card_value(card, colors)


def zero_pairs(values: list[int]) -> list[tuple[int, int]]:
    """Index pairs (i, j) of cards whose values are opposites, each card used at most once."""
    used: set[int] = set()
    pairs = []
    for i, v in enumerate(values):
        if i in used or v == 0:
            continue
        for j in range(i + 1, len(values)):
            if j not in used and values[j] == -v:
                used.update((i, j))
                pairs.append((i, j))
                break
    return pairs


MODES = ("add", "take")


class CardExplorer(w.VBox):
    """Pick black and red cards; see each value, the running sum and |sum| on the number line.

    With `take_away=True` a second mode takes a card of the hand away: the sum moves as if the
    card's opposite were added (taking away -3 moves it 3 to the right, like adding +3). A card
    that is not in the hand is taken away with the zero-pair move: the card and its opposite
    go in first (a zero pair: the sum stays the same), then the card comes out, so -3 - (-7)
    ends with a +7 added to the hand."""

    @speaks
    def __init__(self, game: str = GAMES[0], colors: str = "black-positive",
                 take_away: bool = False, *, lang: str | None = None) -> None:
        self.lang = check_lang(lang)
        if game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}; got {game!r}")
        self.game = game
        self.colors = Convention.parse(colors)
        self.cards: list[Card] = []
        self.message = ""
        self.mode = "add"
        self.last_take: tuple[int, int, int] | None = None  # (sum before, value, sum after)
        self.mode_toggle: w.ToggleButtons | None = None
        if take_away:
            self.mode_toggle = w.ToggleButtons(
                options=[(_("Add a card"), "add"), (_("Take a card away"), "take")],
                value="add", description=_("Click a card to:"),
                style={"description_width": "initial"},
                tooltips=[_("clicking a card adds it to the hand"),
                          _("clicking a card takes it out of the hand")])
            self.mode_toggle.observe(self._on_mode, names="value")

        self.color_toggle = w.ToggleButtons(
            options=[(_("Black +, red \u2212"), "black-positive"),
                     (_("Red +, black \u2212"), "red-positive")],
            value=self.colors.value, description=_("Colours:"),
            tooltips=[_("black cards positive, red negative"),
                      _("red cards positive, black negative")])
        self.color_toggle.observe(self._on_colors, names="value")
        self.rank_buttons: dict[tuple[int, Color], w.Button] = {}
        rows = []
        for color in (Color.BLACK, Color.RED):
            row = []
            for rank in range(1, 14):
                # made as it looks, with a shared layout and style: 26 buttons, 26 models
                # 13 of them fit one row of a table (980 px) on a Chromebook: no king alone
                b = GuardedButton(layout=shared_layout(width="5em", height="3.2em"),
                                  style=shared_button_style(), **self._rank_state(rank, color),
                                  _dom_classes=("icg-card-btn", f"icg-{color.value}"))
                b.on_click(lambda _b, r=rank, c=color: guarded(self.click, r, c))
                self.rank_buttons[(rank, color)] = b
                row.append(b)
            rows.append(w.HBox(row, layout=shared_layout(flex_flow="row wrap"),
                               _dom_classes=("icg-rank-row",)))
        self.opposite_button = make_button(_("Add the opposite"), self.add_opposite,
                                           tooltip=_("add the opposite of the last card"),
                                           disabled=True)
        self.cancel_button = make_button(_("Remove zero pairs"), self.remove_zero_pairs,
                                         tooltip=_("take away pairs of opposite cards"),
                                         disabled=True)
        self.undo_button = make_button(_("Undo"), self.undo,
                                       tooltip=_("take back the last card"), disabled=True)
        self.clear_button = make_button(_("Clear"), self.clear,
                                        tooltip=_("start again with no cards"), disabled=True)
        # projected in front of the class (the run sheet): the tables' large print
        self.large_print_toggle = make_toggle(_("Large print"), _("bigger text for a projector"))
        self.large_print_toggle.observe(
            lambda ch: set_large_print(self, bool(ch["new"])), names="value")
        self.hand = html_widget()
        self.equation = html_widget()
        self.line = html_widget()
        self.pairs = html_widget()
        super().__init__([
            style_widget(),
            self.color_toggle,
            *([self.mode_toggle] if self.mode_toggle is not None else
              [html_widget("<b>" + esc(_("Click a card to add it:")) + "</b>")]),
            *rows,
            # wraps on a phone instead of cutting the labels ("Add the oppo...")
            w.HBox([self.opposite_button, self.cancel_button, self.undo_button,
                    self.clear_button, self.large_print_toggle],
                   layout=shared_layout(flex_flow="row wrap")),
            self.hand, self.equation, self.pairs, self.line,
            *page_parts(),  # on a page of the live class: its cover and the exit ticket opened
        ], _dom_classes=("icg-root", "icg-explorer"))
        self._refresh()

    def _rank_state(self, rank: int, color: Color) -> dict[str, Any]:
        """A rank button's label, tooltip and state for the current colours and cards."""
        card = Card(rank, SUIT_FOR[color])
        v = card_value(card, self.game, self.colors)
        label = f"{RANK_LABELS.get(rank, str(rank))}{SUIT_FOR[color].symbol}"
        if self.mode == "take":
            held = any(c.rank == rank and c.color is color for c in self.cards)
            if held:
                return {"description": f"{label} {signed(v)}",
                        "tooltip": _("take away the {card}, value {value}").format(
                            card=card_name(card), value=signed(v)),
                        "disabled": False}
            return {"description": f"{label} {signed(v)}",
                    "tooltip": _("no {card} in the hand: add a zero pair, then take the {card} "
                                 "away").format(card=card_name(card)),
                    "disabled": len(self.cards) >= MAX_CARDS}
        return {"description": f"{label} {signed(v)}",
                "tooltip": _("add the {card}, value {value}").format(card=card_name(card),
                                                                     value=signed(v)),
                "disabled": len(self.cards) >= MAX_CARDS}

    # ----- reading -----------------------------------------------------------------------
    @property
    def values(self) -> list[int]:
        """The signed values of the cards picked, in order."""
        return [card_value(c, self.game, self.colors) for c in self.cards]

    @property
    def total(self) -> int:
        return sum(self.values)

    # ----- actions -----------------------------------------------------------------------
    @speaks
    def click(self, rank: Any, color: Any) -> None:
        """A card button: add the card, or take it away in 'take away' mode."""
        if rank not in range(1, 14) or not isinstance(color, Color):
            self.message = _("Choose one of the card buttons.")
            self._refresh()
            return
        if self.mode == "take":
            self.take_away(rank, color)
        else:
            self.add(rank, color)

    @speaks
    def add(self, rank: int, color: Color) -> None:
        """Add one card of this rank and colour (at most 12 cards)."""
        self.last_take = None
        if len(self.cards) >= MAX_CARDS:
            self.message = _("That is {n} cards: press Clear or Undo to go on.").format(
                n=MAX_CARDS)
        else:
            self.cards.append(Card(rank, SUIT_FOR[color]))
            self.message = ""
        self._refresh()

    @speaks
    def take_away(self, rank: int, color: Color) -> None:
        """Take one card of this rank and colour out of the hand: the sum changes by the
        opposite of its value (a card that is not in the hand gets a message)."""
        index = next((i for i in range(len(self.cards) - 1, -1, -1)
                      if self.cards[i].rank == rank and self.cards[i].color is color), None)
        if index is None:
            self.zero_pair_take_away(rank, color)
            return
        before = self.total
        value = self.values[index]
        card = self.cards.pop(index)
        after = self.total
        self.last_take = (before, value, after)
        self.message = _("You took away {card} ({value}): {subtraction}, the same as adding "
                         "its opposite: {addition}.").format(
            card=card.short, value=signed(value),
            subtraction=f"{signed(before)} \u2212 ({signed(value)}) = {signed(after)}",
            addition=f"{signed(before)} + ({signed(-value)}) = {signed(after)}")
        self._refresh()

    @speaks
    def zero_pair_take_away(self, rank: int, color: Color) -> None:
        """Take away a card that is not in the hand: put in a zero pair (the card and its
        opposite: the sum does not change), then take the card away. The hand keeps the
        opposite, so the sum moves as if the opposite were added."""
        card = Card(rank, SUIT_FOR[color])
        if len(self.cards) >= MAX_CARDS:
            self.message = _("That is {n} cards: press Clear or Undo to go on.").format(
                n=MAX_CARDS)
            self._refresh()
            return
        other = Card(rank, SUIT_FOR[Color.RED if color is Color.BLACK else Color.BLACK])
        before = self.total
        value = card_value(card, self.game, self.colors)
        self.cards.append(other)
        after = self.total
        self.last_take = (before, value, after)
        self.message = _("There is no {card} in the hand, so first add a zero pair: {card} "
                         "({value}) and {other} ({opposite}); the sum is still {before}. Then "
                         "take the {card} away: {subtraction}, the same as adding its "
                         "opposite: {addition}.").format(
            card=card.short, value=signed(value), other=other.short, opposite=signed(-value),
            before=signed(before),
            subtraction=f"{signed(before)} \u2212 ({signed(value)}) = {signed(after)}",
            addition=f"{signed(before)} + ({signed(-value)}) = {signed(after)}")
        self._refresh()

    @speaks
    def add_opposite(self) -> None:
        """Add the opposite of the last card: same rank, the other colour."""
        if not self.cards:
            return
        last = self.cards[-1]
        other = Color.RED if last.color is Color.BLACK else Color.BLACK
        self.add(last.rank, other)

    @speaks
    def remove_zero_pairs(self) -> None:
        """Take away every pair of opposite cards; the sum does not change."""
        self.last_take = None
        pairs = zero_pairs(self.values)
        gone = {i for pair in pairs for i in pair}
        before = self.total
        self.cards = [c for i, c in enumerate(self.cards) if i not in gone]
        if pairs:
            self.message = ngettext("Removed {n} zero pair. The sum is still {total}.",
                                    "Removed {n} zero pairs. The sum is still {total}.",
                                    len(pairs)).format(n=len(pairs), total=signed(before))
        self._refresh()

    @speaks
    def undo(self) -> None:
        self.last_take = None
        if self.cards:
            self.cards.pop()
        self.message = ""
        self._refresh()

    @speaks
    def clear(self) -> None:
        self.last_take = None
        self.cards = []
        self.message = ""
        self._refresh()

    # ----- drawing -----------------------------------------------------------------------
    @speaks
    def _on_mode(self, change: dict) -> None:
        if change["new"] not in MODES:  # a forged value: back to the mode in use
            if self.mode_toggle is not None:
                self.mode_toggle.value = self.mode
            return
        self.mode = change["new"]
        self.message = (_("Click a card of the hand to take it away.") if self.mode == "take"
                        else "")
        self._refresh()

    @speaks
    def _on_colors(self, change: dict) -> None:
        self.last_take = None
        try:
            self.colors = Convention.parse(change["new"])
        except ValueError:
            self.color_toggle.value = self.colors.value
            return
        self._refresh()

    @speaks
    def _refresh(self) -> None:
        for (rank, color), b in self.rank_buttons.items():
            with b.hold_sync():
                for name, value in self._rank_state(rank, color).items():
                    setattr(b, name, value)
        values = self.values
        self.opposite_button.disabled = not self.cards or len(self.cards) >= MAX_CARDS
        self.undo_button.disabled = not self.cards
        self.clear_button.disabled = not self.cards
        pairs = zero_pairs(values)
        self.cancel_button.disabled = not pairs
        views = [card_view(c, v) for c, v in zip(self.cards, values, strict=True)]
        self.hand.value = (hand_html(views, label=_("cards picked")) if views
                           else "<p>" + esc(_("No cards yet: click a card above to start."))
                           + "</p>")
        if values:
            eq = _("Sum: {sum}. Distance from zero: {distance}.").format(
                sum=sum_math(values), distance=abs_math(self.total))
        else:
            eq = _("Sum: {sum}").format(sum=0)
        note = f"<p role='status'>{esc(self.message)}</p>" if self.message else ""
        self.equation.value = f"<p style='font-size:1.2em'><b>{esc(eq)}</b></p>{note}"
        if pairs:
            items = ", ".join(
                _("{card} and {other} ({math})").format(
                    card=self.cards[i].short, other=self.cards[j].short,
                    math=f"{signed(values[i])} + ({signed(values[j])}) = 0") for i, j in pairs)
            self.pairs.value = "<p>" + esc(_("Zero pairs: {pairs}.").format(pairs=items)) + "</p>"
        else:
            self.pairs.value = ""
        if self.last_take is not None:
            before, value, after = self.last_take
            self.line.value = number_line_svg(
                points=[Point(before, _("before")), Point(after, _("after"), "me")],
                arrow=Arrow(before, after, _("take away {value}").format(value=signed(value))),
                spans=[Span(after)], title=_("Taking a card away on the number line"))
        else:
            self.line.value = lesson_tools.steps_line(values)
