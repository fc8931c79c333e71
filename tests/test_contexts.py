"""Lesson 4's real contexts (widgets/lessons/contexts.py): money and debt, where taking a debt
away is subtracting a negative number, with a self-check that names each wrong answer's
mistake; and a temperature change on the vertical number line. Both lessons (English and
Spanish) hold them, and the lesson's plan gives them their minutes."""

from __future__ import annotations

import re

import pytest
from test_lessons_meta import LESSONS_DIR, load

from engine.mistakes import (
    ADDED_ABS,
    SIGN_OF_CLOSER,
    SUBTRACT_NEGATIVE_LEFT,
    TWO_NEGATIVES_POSITIVE,
)
from widgets.lessons import course
from widgets.lessons.contexts import (
    MoneyCheck,
    money_html,
    money_steps,
    temperature_html,
    temperature_steps,
)
from widgets.words import speaking

LESSON = "04_taking_a_card_away.ipynb"


def test_money_example_subtracts_the_forgiven_debt():
    steps = money_steps(5, -7, -3)
    assert "+5 + (-7) = -2" in steps[0]
    assert "-2 - (-3) = -2 + (+3) = +1" in steps[1]
    assert "+5 + (-4) = +1" in steps[2]
    html = money_html(5, -7, -3)
    # a black card of cash and a red debt card, each with its signed value as text
    assert 'class="icg-card icg-black icg-pos icg-small"' in html and ">+5</span>" in html
    assert 'class="icg-card icg-red icg-neg icg-small"' in html and ">-7</span>" in html
    assert "<li>before at -2</li>" in html and "<li>after at +1</li>" in html
    with pytest.raises(ValueError):
        money_steps(5, -3, -7)  # more forgiven than owed


def test_money_check_names_each_mistake_and_moves_on_when_right():
    check = MoneyCheck()
    assert "+6" in check.question_text() and "-9" in check.question_text()
    assert check.check("15") == ADDED_ABS  # +6 + (-9): sizes added
    assert "make zero pairs" in check.feedback.value and "Try again" in check.feedback.value
    assert check.next_button.disabled
    assert check.check("-3") == "right"
    assert not check.next_button.disabled
    check.next_question()
    assert check.check("-7") == SUBTRACT_NEGATIVE_LEFT  # -3 - (-4) moved left
    assert "move right, not left" in check.feedback.value
    assert check.check("+1") == "right"
    check.next_question()
    assert check.check("+3") == TWO_NEGATIVES_POSITIVE  # -8 - (-5)
    # the second wrong try shows the answer, worked out
    assert check.check("-13") == SUBTRACT_NEGATIVE_LEFT
    assert "The answer is -3: -8 - (-5) = -8 + (+5) = -3." in check.feedback.value
    assert check.check("-3") is None and check.check_button.disabled  # answered
    assert check.mistakes == [ADDED_ABS, SUBTRACT_NEGATIVE_LEFT, TWO_NEGATIVES_POSITIVE,
                              SUBTRACT_NEGATIVE_LEFT]
    assert check.next_button.disabled  # the last question


def test_money_check_refuses_what_is_not_a_number_and_speaks_spanish():
    check = MoneyCheck(lang="es")
    assert check.check("five") is None and check.tries == 0
    assert "dólares" in check.question_text()
    assert check.check("+3") == SIGN_OF_CLOSER
    assert "Comprobar" == check.check_button.description


def test_temperature_on_the_vertical_line():
    assert temperature_steps(-4, 9) == [
        "From -4 °C the temperature rises 9 degrees: -4 + (+9) = +5 °C.",
        "Change = end - start = +5 - (-4) = +9 degrees."]
    assert temperature_steps(3, -8)[1] == "Change = end - start = -5 - (+3) = -8 degrees."
    html = temperature_html(-4, 9)
    assert 'class="icg-nl icg-nl-vertical"' in html
    assert ">start -4 °C</text>" in html and ">end +5 °C</text>" in html
    with speaking("es"):
        assert ">sube 9</text>" in temperature_html(-4, 9)


@pytest.mark.parametrize("name", [LESSON, f"es/{LESSON}"])
def test_lesson_4_holds_money_and_the_vertical_line(name: str):
    cells = load(name).cells
    code = [c.source for c in cells if c.cell_type == "code"]
    assert any("money_example(cash=5, debt=-7, forgiven=-3)" in s for s in code)
    assert any("MoneyCheck()" in s for s in code)
    assert any("temperature_example(start=-4, change=9)" in s for s in code)
    text = "\n".join(c.source for c in cells if c.cell_type == "markdown")
    assert "+5 + (-7) - (-3) = -2 + (+3) = +1" in text
    assert re.search(r"^### .*(vertical).*$", text, flags=re.MULTILINE)


def test_lesson_4_plan_gives_the_contexts_their_minutes():
    lesson = course.by_file(LESSON)
    plan = dict(lesson.plan)
    assert plan["Money and debt"] == 5 and plan["A vertical number line: temperature"] == 3
    assert sum(plan.values()) == lesson.minutes == 60
    headings = course.headings(lesson)
    assert headings.index("Subtraction in symbols") < headings.index("Money and debt") \
        < headings.index("Four traps")
    assert (LESSONS_DIR / "es" / LESSON).is_file()
