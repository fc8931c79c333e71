"""The unit's two checks (widgets/lessons/unit_check.py): "Check your readiness" before lesson 1
and the end-of-unit check after the last lesson. Eight questions each, one per skill, the same
skills and traps in the same order with other numbers; every wrong answer a student typically
gives is named with its mistake; each student has numbers of their own; the answers reach the
class's store under the check's own activity."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import click_every_answer_right, ticket_answer
from widget_helpers import errors_raise  # noqa: F401 - autouse: click handlers raise

from engine.mistakes import CHOICE_KINDS
from rooms.answers import Outbox, day_of, open_answers
from widgets.lessons import course
from widgets.lessons import exit_ticket as et
from widgets.lessons import unit_check as uc
from widgets.lessons.student import Student, today
from widgets.lessons.unit_check import UnitCheck
from widgets.words import speaking

NOON = 1796126400.0  # 2026-12-01, around noon UTC

# each question's typical wrong answers and the mistake each one shows, in the order asked
TRAPS = {
    uc.READINESS: [
        {"+4": "sign-of-closer", "+10": "added-abs", "-10": "added-abs"},  # -7 + (+3)
        {"+9": "two-negatives-positive", "-1": "subtracted-abs"},  # -4 + (-5)
        {"+2": "sign-flipped", "-14": "added-abs"},  # +6 + (-2) + (-6)
        {"+4": "two-negatives-positive", "-8": "subtract-negative-left"},  # -6 - (-2)
        {"-9": "abs-kept-sign"},  # |-9|
        {"2": "distance-sizes-subtracted", "-10": "abs-kept-sign"},  # from -4 to +6
        {"-8": "farther-is-greater", "-5": "farther-is-greater"},  # the greatest of -8, -3, -5
        {"-6": "lesser-is-closer"},  # closer to zero: -6 or +2
    ],
    uc.UNIT_END: [
        {"+5": "sign-of-closer", "+13": "added-abs", "-13": "added-abs"},  # -9 + (+4)
        {"+11": "two-negatives-positive", "-5": "subtracted-abs"},  # -3 + (-8)
        {"+4": "sign-flipped", "-22": "added-abs"},  # +9 + (-4) + (-9)
        {"+5": "two-negatives-positive", "-13": "subtract-negative-left"},  # -9 - (-4)
        {"-12": "abs-kept-sign"},  # |-12|
        {"5": "distance-sizes-subtracted", "-11": "abs-kept-sign"},  # from -3 to +8
        {"-9": "farther-is-greater", "-6": "farther-is-greater"},  # the greatest of -9, -2, -6
        {"-9": "lesser-is-closer"},  # closer to zero: -9 or +5
    ],
}


def _given(item: et.Item, text: str) -> int | str:
    return text if item.choices else int(text)


def answer(check: UnitCheck, right: bool, trap: int = 0, go_on: bool = True) -> None:
    """Answer the question on the screen: right, or with its `trap`-th named wrong answer;
    then the next question (`go_on`)."""
    item = check.items[check.index]
    given = str(item.answer) if right else uc.traps(item)[trap][0]
    if item.choices:
        check.choose([et.shown(c) for c in item.choices].index(given if not right
                                                              else et.shown(item.answer)))
    else:
        check.entry.value = given
        check.check_typed()
    if go_on:
        check.next_question()


@pytest.mark.parametrize("which", uc.CHECKS)
def test_every_question_has_its_shape_and_names_its_typical_wrong_answers(which: str) -> None:
    """Eight questions, one per skill, each with its shape; a choice has at least three
    options and its prompt names no method; each typical wrong number or option is named with
    its mistake, and every wrong option of a choice shows a named mistake but "Same distance"
    (a guess, not a misconception)."""
    items = uc.check_items(which)
    assert len(items) == len(uc.SKILLS) == 8
    assert [i.shape.kind for i in items] == [uc.KINDS[s] for s in uc.SKILLS]
    for item, traps, skill in zip(items, TRAPS[which], uc.SKILLS, strict=True):
        assert item.shape is not None and item.shape.answer == (
            item.picks[item.choices.index(item.answer)] if item.choices else item.answer)
        for given, mistake in traps.items():
            assert item.mistake(_given(item, given)) == mistake, (skill, given)
        assert set(traps) <= {g for g, _m in uc.traps(item)}, skill
        if item.choices:
            assert len(item.choices) >= 3, skill
            wrong = [c for c in item.choices if c != item.answer]
            assert [c for c in wrong if item.mistake(c) is None] == (
                ["Same distance"] if item.shape.kind == "closer" else [])
        assert "distance from zero" not in item.prompt and "zero pair" not in item.prompt
        assert item.mistake(item.answer) is None
        assert ticket_answer(item.prompt, item.choices) == str(item.answer)


def test_start_and_end_ask_the_same_skills_with_other_numbers() -> None:
    """The two checks compare: the same kinds in the same order, the same signs and traps
    (each typical wrong answer shows the same mistake), other numbers."""
    start, end = (uc.check_items(which) for which in uc.CHECKS)
    for a, b in zip(start, end, strict=True):
        assert a.shape.kind == b.shape.kind and a.shape.terms != b.shape.terms
        assert [t > 0 for t in a.shape.terms] == [t > 0 for t in b.shape.terms]
        assert sorted({m for _g, m in uc.traps(a)}) == sorted({m for _g, m in uc.traps(b)})
    assert [set(t.values()) for t in TRAPS[uc.READINESS]] == \
        [set(t.values()) for t in TRAPS[uc.UNIT_END]]


@pytest.mark.parametrize("which", uc.CHECKS)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_full_run_scores_eight_of_eight_and_gives_its_code(which: str, lang: str) -> None:
    check = UnitCheck(which, lang=lang, student=Student())
    assert check.lesson == uc.check_lesson(which)
    click_every_answer_right(check, lang)
    prefix = "START" if which == uc.READINESS else "END"
    assert check.score == 8 and check.code == f"{prefix}-RRRRRRRR"
    score = "Score: 8 of 8." if lang == "en" else "Puntuación: 8 de 8."
    assert score in check.result.value and check.code in check.result.value


def test_a_wrong_answer_is_named_and_the_code_marks_it() -> None:
    """Each question answered with its first typical wrong answer, with the student's own
    numbers: the feedback names the mistake at once, and the code is all X."""
    from widgets.table.render import esc
    from widgets.words import mistake_feedback

    check = UnitCheck(uc.READINESS, student=Student())
    check.start()
    for i in range(8):
        item = check.items[check.index]
        given, mistake = uc.traps(item)[0]
        assert mistake in {m for _g, m in uc.traps(check.base_items[i])}
        answer(check, right=False, go_on=False)
        assert esc(mistake_feedback(mistake)) in check.feedback.value, given
        check.next_question()
    assert check.code == "START-XXXXXXXX" and check.score == 0
    assert "START is the check before the unit" in check.result.value


def test_the_checks_words_are_their_own_and_speak_spanish() -> None:
    start, end = UnitCheck(uc.READINESS), UnitCheck(uc.UNIT_END, lang="es")
    assert start.start_button.description == "Start the check"
    assert "Check your readiness:" in start.header.value and "8 questions" in start.header.value
    assert end.start_button.description == "Empezar la prueba"
    assert "Prueba de fin de unidad:" in end.header.value
    start.check_typed()
    assert "Press Start the check first." in start.status.value
    end.start()
    end.start()
    assert "La prueba ya ha empezado." in end.status.value
    with speaking("es"):
        prompts = [et.shown(i.prompt) for i in uc.check_items(uc.READINESS)]
    assert prompts[0] == "Calcula: -7 + (+3) = ?" and prompts[7].startswith("¿")
    with pytest.raises(ValueError):
        UnitCheck("midterm")


def test_a_check_is_not_the_exit_ticket_the_live_class_opens(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.page import live_gate

    noted = []
    monkeypatch.setattr(live_gate, "note_exit_ticket", noted.append)
    UnitCheck(uc.UNIT_END)
    assert noted == []
    ticket = et.ExitTicket(lesson=6)
    assert noted == [ticket]


def test_each_student_has_numbers_of_their_own_that_keep_the_traps() -> None:
    """Over 200 variants each question takes other numbers; the answer a student works out
    from the words they read is the check's, the right choice keeps its place and each wrong
    answer shows the same mistake as on the printed numbers."""
    for which in uc.CHECKS:
        for i, item in enumerate(uc.check_items(which)):
            varied = 0
            for variant in range(1, 201):
                new = et.vary(item, variant, i)
                if new is item:
                    continue
                varied += 1
                assert ticket_answer(new.prompt, new.choices) == str(new.answer)
                assert sorted({m for _g, m in uc.traps(new)}) == \
                    sorted({m for _g, m in uc.traps(item)}), new.prompt
                if new.shape.kind in CHOICE_KINDS:
                    assert new.choices.index(new.answer) == item.choices.index(item.answer)
            assert varied >= 190, (which, i)


@pytest.fixture
def named(tmp_path: Path) -> Student:
    ticks = iter(range(10**6))
    s = Student(clock=lambda: NOON + next(ticks))
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    s.outbox = Outbox(lambda: open_answers(url), thread=False)
    s.url = url  # type: ignore[attr-defined]
    s.set_names(("Ana",))
    return s


def test_the_answers_reach_the_store_under_the_checks_activity(named: Student) -> None:
    """A named student's answers: filed under the check's activity and its lesson, with the
    mistake each wrong one shows and the student's numbers; their numbers are not those of
    the exit ticket on the same page, and a second take the same day is no first try."""
    check = UnitCheck(uc.READINESS, student=named)
    check.start()
    variant = et.variant_for("Ana", today(named.clock()), 1, 0, uc.READINESS)
    assert set(check.variants) == {variant}
    assert variant != et.variant_for("Ana", today(named.clock()), 1, 0)  # lesson 1's ticket
    wrong = {2, 4, 8}
    for n in range(1, 9):
        answer(check, right=n not in wrong)
    assert named.outbox.flush() == 0
    rows = open_answers(named.url).answers(day_of(NOON))  # type: ignore[attr-defined]
    assert {(a.activity, a.lesson) for a in rows} == {(uc.READINESS, 1)}
    assert [a.item for a in rows] == [str(n) for n in range(1, 9)]
    assert [a.right for a in rows] == [n not in wrong for n in range(1, 9)]
    assert [a.mistake for a in rows] == [
        uc.traps(item)[0][1] if n in wrong else None
        for n, item in enumerate(check.items, start=1)]
    assert [a.terms for a in rows] == [",".join(map(str, i.shape.terms)) for i in check.items]
    assert all(a.first_try and a.variant == variant for a in rows)
    again = UnitCheck(uc.READINESS, student=named)  # a reload: a retake, no first try
    again.start()
    assert again.repeated == {str(n) for n in range(1, 9)} and again.variants[0] != variant


def test_the_checks_sit_where_the_unit_starts_and_ends() -> None:
    lessons = course.student_lessons()
    assert uc.check_lesson(uc.READINESS) == lessons[0].number == 1
    assert uc.check_lesson(uc.UNIT_END) == lessons[-1].number
    assert uc.code_for(uc.UNIT_END, [True, False] * 4) == "END-RXRXRXRX"
