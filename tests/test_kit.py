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
    for title in ("Rule cards", "Number lines from -13 to +13", "Hit Me recording sheet",
                  "Flapjack running-total sheet", "Score sheet", "Exit tickets",
                  "Stacked deals of the worked examples"):
        assert f"<h2>{title}" in html, title
    assert html.count("<section class='icg-kit-sheet'>") == 7
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


def test_the_number_lines_run_from_minus_13_to_plus_13() -> None:
    """The supports ask for a printed number line from -13 to +13: two strips across and one
    upright (top +13, bottom -13), every integer once, each with its sign."""
    sheet = kit.number_line_sheet()
    across, _second, upright = re.findall(r"<table class='icg-kit-line[^']*'.*?</table>", sheet)
    cells = re.findall(r"<td>(?:<b>)?([+-]?\d+)(?:</b>)?</td>", across)
    assert cells == [signed(n) for n in range(-13, 14)]
    column = re.findall(r"<td>([+-]?\d+)</td>", upright)
    assert column == [signed(n) for n in range(13, -14, -1)]


def test_the_rule_card_is_complete() -> None:
    """../shared/RULES.md rule 6: the game also ends when every card has been played; cards
    left are won by no one; the signed variant is on the card with its equation, from the engine."""
    cards = kit.rule_cards()
    assert "when every card has been played" in cards and "won by no one" in cards
    assert "+5 - (-7) = +12" in cards
    assert "face cards count +10 or -10 by colour" in kit.kit_contents()


def test_the_strategy_ticket_has_its_chart_on_paper() -> None:
    """The lab's paper ticket asks about the chart of Experiment 1: the sheet carries it."""
    sheets = kit.exit_ticket_sheets()
    lab = course.by_file("06_strategy_lab.ipynb").number
    card = sheets.split(f"Exit ticket, lesson {lab}")[1]
    assert "the chart of Experiment 1 (4 players)" in card and "<svg" in card
    assert "Look at the chart of Experiment 1" in card
    assert sheets.count("<svg") == 1
