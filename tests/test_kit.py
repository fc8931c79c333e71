"""The printable kit: its figures come from the engine, and it holds every sheet."""

from __future__ import annotations

import re

from engine.cards import parse_cards, signed
from engine.flapjack import FlapjackConfig
from widgets.lessons import course, kit
from widgets.lessons import worked_examples as lt
from widgets.lessons.exit_ticket import TICKETS


def test_the_kit_holds_every_sheet() -> None:
    html = kit.kit_html()
    for title in ("Rule cards", "Hit Me recording sheet", "Flapjack running-total sheet",
                  "Score sheet", "Exit tickets", "Stacked deals of the worked examples"):
        assert f"<h2>{title}" in html, title
    assert html.count("<section class='icg-kit-sheet'>") == 6
    for lesson, items in TICKETS.items():
        assert f"Exit ticket, lesson {lesson}" in html
        assert f"Code: L{lesson}-" + " ".join("__" for _ in items) in html
    assert "Denise Gaskins" in html and "Lisa in AZ" in html
    assert "printable_kit.ipynb" in course.FILES
    assert "printable_kit.ipynb" in course.lesson_links().data  # linked from Start here


def test_the_figures_come_from_the_engine() -> None:
    html = kit.kit_html()
    fj = FlapjackConfig(players=3)
    assert f"from {signed(fj.low)} to {signed(fj.high)}" in html
    assert ", ".join(signed(t) for t in fj.targets) in html
    # the stacked decks list the example decks in order, with the values the engine gives
    hit_cards = [c.short for c in parse_cards(lt.HIT_ME_EXAMPLE_DECK)]
    deck = lt.flapjack_deck(lt.FLAPJACK_EXAMPLE_HANDS, lt.FLAPJACK_EXAMPLE_DRAW)
    fj_cards = [c.short for c in parse_cards(deck)]
    section = html.split("Stacked deals")[1]
    listed = re.findall(r"<tr><td>\d+</td><td>([^<]+)</td>", section)
    assert listed == hit_cards + fj_cards
    # the recording sheet's example is the worked example played out by the engine
    res = lt.hit_me_example_round().result()
    assert "-10, -4, -1, -6, +4" in html and res.sums[0] == 4
    assert "+4 + (+9) = +13" in html and "Flapjack!" in html
    assert "Ben -2, Cam -1, Ana +4" in kit.kit_contents()
