"""The student's hand as a row of card buttons, kept across moves (a button is made once and
re-labelled; buttons beyond the hand stay off the page). A candidate for widgets/shell.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets

from widgets import components as ui
from widgets.flapjack.view import CardChoice
from widgets.words import _


class CardRow:
    """`buttons` (made on demand), `keys` (the card key of each shown button) and `box` (the
    HBox on the page). A click calls `on_click(key)`; a forged click on a disabled button
    calls `on_refused(key or None)`."""

    def __init__(self, on_click: Callable[[str], None],
                 on_refused: Callable[[str | None], None]) -> None:
        self.on_click = on_click
        self.on_refused = on_refused
        self.buttons: list[widgets.Button] = []
        self.keys: list[str] = []
        self.box = widgets.HBox([], layout=ui.shared_layout(flex_flow="row wrap"))

    def _key(self, i: int) -> str | None:
        return self.keys[i] if 0 <= i < len(self.keys) else None

    def _click(self, i: int) -> None:
        key = self._key(i)
        if key is not None:
            self.on_click(key)

    def show(self, hand: Sequence[CardChoice]) -> None:
        """Label one button per card (the reason on a disabled one)."""
        self.keys = [c.key for c in hand]
        for i in range(max(len(hand), len(self.buttons))):
            if i >= len(hand):  # kept for later, off the page (not among the hand's children)
                b = self.buttons[i]
                with b.hold_sync():
                    b.disabled, b.description, b.tooltip = True, "", ""
                continue
            c = hand[i]
            look = ({"reason": c.short, "detail": _("cannot be played now, {reason}").format(
                reason=c.reason)} if c.reason else {"suffix": " (chosen)" if c.chosen else ""})
            classes = ["icg-fj-pending"] if c.chosen else []
            if i < len(self.buttons):
                ui.update_card_button(self.buttons[i], c.card, classes=classes, **look)
            else:  # a new button is made as it should look (one message, not one per trait)
                b = ui.card_button(c.card, classes=classes, **look)
                b.on_click(lambda _b, i=i: self._click(i))
                b.refused = lambda i=i: self.on_refused(self._key(i))
                self.buttons.append(b)
        self.box.children = tuple(self.buttons[:len(hand)])
