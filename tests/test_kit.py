"""The printable kit: its figures come from the engine, and it holds every sheet."""

from __future__ import annotations

import html as html_module
import re
from pathlib import Path

import pytest

from engine.cards import parse_cards, signed
from engine.flapjack import FlapjackConfig
from widgets.lessons import course, kit
from widgets.lessons import problem_set as ps
from widgets.lessons import unit_check as uc
from widgets.lessons import worked_examples as lt
from widgets.lessons.exit_ticket import TICKETS, shown
from widgets.words import mistake_label, speaking


def test_the_kit_holds_every_sheet() -> None:
    html = kit.kit_html()
    for title in ("Rule cards", "Number lines from -13 to +13", "Hit Me recording sheet",
                  "Flapjack running-total sheet", "Score sheet", "Exit tickets",
                  "The unit&#x27;s checks: readiness and end of unit",
                  "Stacked deals of the worked examples"):
        assert f"<h2>{title}" in html, title
    # eight sheets, then a problem set per lesson (tests/test_problem_set.py)
    assert html.count("<section class='icg-kit-sheet'>") == 8 + len(ps.SETS)
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


def _plain(text: str) -> str:
    return " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", text)).split())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_kit_prints_both_unit_checks_with_their_numbers(lang: str) -> None:
    """Both checks on paper, the printed numbers of each question, the choices to circle, a
    line per typed answer and the code to fill in; no answer on the students' sheets."""
    with speaking(lang):
        sheet = _plain(kit.unit_check_sheets())
        titles = [_plain(kit.esc(kit._(kit.CHECK_TITLES[w]).format(lesson=uc.check_lesson(w))))
                  for w in uc.CHECKS]
        cards = [sheet.split(t)[1] for t in titles]
        for which, card in zip(uc.CHECKS, cards, strict=True):
            card = card.split(titles[1])[0]
            items = uc.check_items(which)
            for item in items:
                assert shown(item.prompt) in card, (which, item.prompt)
                if item.choices:
                    assert " / ".join(shown(c) for c in item.choices) in card
            assert len(re.findall(r"(?<!_)_{6}(?!_)", card)) == sum(not i.choices for i in items)
            code = f"{uc.CODES[which]}-" + " ".join("__" for _i in items)
            assert code in card and ("(R right, X not right)" in card) == (lang == "en")
    assert "Prueba de fin de unidad, después de la lección 6" in titles[1] or lang == "en"
    assert "abs-kept-sign" not in sheet and mistake_label("abs-kept-sign") not in sheet
    assert "8. Stacked deals" in kit.kit_contents() and "7. The unit's checks" in \
        kit.kit_contents()


def test_the_unit_checks_key_gives_each_answer_and_names_the_typical_mistakes() -> None:
    key = _plain(kit.unit_check_key_sheet())
    assert "answer key (for the teacher)" in key
    for which in uc.CHECKS:
        for skill, item in zip(uc.SKILLS, uc.check_items(which), strict=True):
            row = key.split(shown(item.prompt))[1]
            assert row.startswith(f" {item.answer_text} "), (which, item.prompt, row[:40])
            for given, mistake in uc.traps(item):
                assert given in row.split(mistake_label(mistake))[0], (item.prompt, given)
            assert kit._(uc.SKILL_NAMES[skill]) in key.split(shown(item.prompt))[0][-60:]
    assert "|-9| = ? 9 -9: " in key  # the sign kept: its mistake
    with speaking("es"):
        spanish = _plain(kit.unit_check_key_sheet())
    assert "Calcula: -7 + (+3) = ? -4" in spanish and "Sumar con signos distintos" in spanish
    # the key is not on the students' pages of the kit
    assert "answer key (for the teacher)" not in kit.kit_html()


KITS = {"en": course.LESSONS_DIR / "printable_kit.ipynb",
        "es": course.LESSONS_DIR / "es" / "printable_kit.ipynb"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_kits_answer_key_opens_with_the_teachers_key_only(
        lang: str, server_key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit page is open to students: its cells run as its page's kernel runs them, and
    nothing any widget of the page syncs holds the unit checks' answers until the teacher's
    key is typed in the page's key box; then the key sheet is there."""
    from test_teacher_key import run_cells, wait_for_next_try
    from test_teacher_parts import page_text

    from widgets.lessons import teacher_parts as tp
    from widgets.page import teacher_key as tk
    from widgets.words import set_language

    monkeypatch.setattr(tp._Page, "unlocked", False)  # a new page's kernel
    monkeypatch.setattr(tp._Page, "parts", [])
    try:
        shown_ = run_cells(Path(KITS[lang]))
        with speaking(lang):
            rows = [f"{shown(i.prompt)}" for w in uc.CHECKS for i in uc.check_items(w)]
            wrong = _plain(kit._("Wrong answers and the mistake they show"))
        gates = [w for w in shown_ if isinstance(w, tk.TeacherGate)]
        assert len(gates) == 1 and gates[0].table is None
        locked = page_text(shown_)
        assert wrong not in locked and mistake_label("abs-kept-sign") not in locked
        wait_for_next_try()
        gates[0].password.set_state({"value": server_key})
        gates[0].unlock_button._handle_custom_msg({"event": "click"}, [])
        opened = _plain(page_text(shown_))
        assert wrong in opened and all(r in opened for r in rows)
        assert server_key not in opened
    finally:
        set_language("en")


def test_a_teachers_copy_shows_the_kits_key_with_no_key_box(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The teacher's copy of the static site opens the page's teacher parts with no key: the
    kit's key is then shown at once, with no key box."""
    from widgets.lessons import teacher_parts as tp

    monkeypatch.setattr(tp._Page, "unlocked", False)
    monkeypatch.setattr(tp._Page, "parts", [])
    tp.open_without_key()
    part = tp.teacher_part("unit-check-key", key_box=True)
    assert isinstance(part, tp.TeacherPart) and part.content is not None
    assert "answer key (for the teacher)" in html_module.unescape(part.content.value)
