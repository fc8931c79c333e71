"""While a student is asked for their sum and |sum|, nothing on the table
states either (seat text, number line, move log), until they answer or ask to be shown."""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as widgets
import pytest

from engine.cards import signed
from engine.hit_me import Phase
from widgets.hit_me.render import own_values
from widgets.hit_me.table import HitMeTable
from widgets.words import abs_math


def every_value(w: Any, out: list[str]) -> list[str]:
    """Every string a widget and its children hold (what the page receives)."""
    for trait in w.trait_names():
        if trait.startswith("_") and trait != "_options_labels":
            continue
        v = getattr(w, trait, None)
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list | tuple):
            for x in v:
                if isinstance(x, widgets.Widget):
                    every_value(x, out)
                elif isinstance(x, str):
                    out.append(x)
        elif isinstance(v, widgets.Widget) and trait not in ("layout", "style"):
            every_value(v, out)
    return out


def telltales(total: int, name: str) -> list[str]:
    return [f"sum {signed(total)}", abs_math(total), f"{name} {signed(total)}",
            f"{name}: {abs_math(total)}", f"{name} at {signed(total)}"]


def to_the_check(seed: int) -> tuple[HitMeTable, int]:
    t = HitMeTable(players=3, opponents="easy", seed=seed, bot_delay=0)
    t.peek_button.click()
    for _ in range(10):
        if t.phase is not Phase.PLAY:
            break
        (t.hit_button if not t.hit_button.disabled and seed % 2 else t.hold_button).click()
    assert t.phase is Phase.ANNOUNCE and t.peeked
    return t, sum(own_values(t.game.round.observation(0)["seats"][0]))


@pytest.mark.parametrize("seed", range(8))
def test_the_check_does_not_show_its_answer(seed):
    t, total = to_the_check(seed)
    page = "\n".join(every_value(t, []))
    for bad in telltales(total, "You"):
        assert bad not in page, f"{bad!r} is on the page during the check"
    assert "e.g. -7" not in t.announce.boxes["abs"].placeholder
    # the face-down card itself stays visible (the student needs it to add)
    assert "your face-down card (not peeked)" not in t.seats_html.value
    # positive control: once answered, the sum is on the page
    t.announce.boxes["sum"].value = str(total)
    t.announce.boxes["abs"].value = str(abs(total))
    t.announce.check_button.click()
    page = "\n".join(every_value(t, []))
    assert f"sum {signed(total)}" in page and abs_math(total) in page


def test_show_me_also_opens_the_sum():
    t, total = to_the_check(3)
    for _ in range(2):
        t.announce.boxes["sum"].value = str(total + 50)
        t.announce.boxes["abs"].value = "1"
        t.announce.check_button.click()
    assert f"sum {signed(total)}" not in "\n".join(every_value(t, []))
    t.announce.show_me_button.click()
    assert f"sum {signed(total)}" in "\n".join(every_value(t, []))


def test_the_check_lists_the_students_own_cards():
    """The check's prompt names each of the student's cards with its signed value (what to
    add), the face-down one only while peeked; no other seat's face-down card."""
    t, _total = to_the_check(2)
    r = t.game.round
    values = [signed(v) for v in own_values(r.observation(0)["seats"][0])]
    line = t.announce.prompt.value
    assert "Your cards: " in line
    assert re.findall(r"\(([+-]\d+)\)", line) == values, line
    t.peek_button.click()  # hide the face-down card again
    line = t.announce.prompt.value
    assert "your face-down card (not peeked)" in line
    assert re.findall(r"\(([+-]\d+)\)", line) == values[1:], line
    for seat in range(1, t.game.config.players):
        down = r.face_down[seat]
        assert f"{down.label}{down.suit.symbol}" not in line
