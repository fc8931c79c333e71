"""Generated practice of every skill of the unit (engine.questions, widgets/lessons/practice.py
SkillPractice): targeted next items after a mistake, mastery, the daily limit, the re-check."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import pytest
from widget_helpers import errors_raise  # noqa: F401 - autouse: click handlers raise

import widgets.lessons.student as student_module
from engine.mistakes import MISTAKES, Shape, classify
from engine.questions import (
    DAILY_LIMIT,
    MISTAKE_SKILL,
    SKILL_KINDS,
    SKILL_TARGETS,
    SKILLS,
    make_item,
    progress,
    wants_recheck,
)
from rooms.answers import Outbox, day_of, open_answers
from widgets.lessons.practice import SkillPractice
from widgets.lessons.student import Student
from widgets.words import speaking

DAY = "2026-12-01"


@pytest.mark.parametrize("skill", SKILLS)
def test_every_skill_makes_its_own_questions(skill: str) -> None:
    rng = random.Random(1)
    for _ in range(200):
        kind, terms = make_item(rng, skill)
        assert kind in SKILL_KINDS[skill]
        Shape(kind, terms)  # a question the mistakes module reads
    if skill == "compare":  # two negatives compared, and not only them
        seen = {all(t < 0 for t in make_item(rng, skill)[1]) for _ in range(100)}
        assert seen == {True, False}


@pytest.mark.parametrize(("skill", "mistake"), sorted(
    (skill, m) for skill, targets in SKILL_TARGETS.items() for m in targets))
def test_a_targeted_item_can_show_its_mistake(skill: str, mistake: str) -> None:
    """The items drawn to practise a mistake are items of the skill where that mistake can be
    made."""
    rng = random.Random(7)
    for _ in range(40):
        kind, terms = make_item(rng, skill, mistake)
        assert kind in SKILL_KINDS[skill]
        shape = Shape(kind, terms, both=mistake in ("sum-for-abs", "abs-for-sum")
                      and kind in ("sum", "abs-sum"))
        candidates = range(-40, 41) if kind not in ("greater", "less", "closer") \
            else shape.options()
        assert any(classify(shape, g) == mistake for g in candidates), (kind, terms)


def test_every_mistake_has_a_skill_that_practises_it() -> None:
    """The dashboard's "practise this" sends each mistake to a skill whose questions can be
    aimed at it."""
    assert set(MISTAKE_SKILL) == set(MISTAKES)
    for mistake, skill in MISTAKE_SKILL.items():
        assert mistake in SKILL_TARGETS[skill], mistake


def test_mastery_three_in_a_row_at_the_first_try() -> None:
    firsts = [(DAY, "abs", True), (DAY, "abs", False), (DAY, "abs", True), (DAY, "abs", True)]
    assert progress(firsts, DAY)["abs"].status() == "practising"
    firsts.append((DAY, "abs", True))
    assert progress(firsts, DAY)["abs"].status() == "mastered"
    assert progress([], DAY).get("abs") is None


def test_ten_a_day_without_mastery_is_flagged() -> None:
    firsts = [(DAY, "subtract", i % 2 == 0) for i in range(DAILY_LIMIT - 1)]
    assert progress(firsts, DAY)["subtract"].status() == "practising"
    firsts.append((DAY, "subtract", False))
    assert progress(firsts, DAY)["subtract"].status() == "flagged"
    # the day after, the count starts again
    assert progress(firsts, "2026-12-02")["subtract"].status() == "practising"


def test_a_mastered_skill_comes_back_once_on_a_later_day() -> None:
    firsts = [(DAY, "closer", True)] * 3
    later = "2026-12-03"
    assert wants_recheck(progress(firsts, later)["closer"], later)
    assert not wants_recheck(progress(firsts, DAY)["closer"], DAY)
    ok = progress([*firsts, (later, "closer", True)], later)["closer"]
    assert ok.status() == "mastered" and not wants_recheck(ok, later)
    missed = progress([*firsts, (later, "closer", False)], later)["closer"]
    assert missed.status() == "practising"


@pytest.fixture
def student(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Student:
    s = Student()
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    s.outbox = Outbox(lambda: open_answers(url), thread=False)
    s.url = url  # type: ignore[attr-defined]
    monkeypatch.setattr(student_module, "STUDENT", s)
    return s


def answer_right(p: SkillPractice) -> None:
    shape = p.shape
    if shape.kind in ("greater", "less", "closer"):
        p.choose(shape.options().index(shape.answer))
    else:
        p.answer.value = str(shape.answer)
        p.check_typed()
    p.next_question()


def test_a_mistake_gets_its_feedback_then_targeted_items_then_mastery(student: Student) -> None:
    p = SkillPractice(skills=["add-2", "compare"], seed=11, today=DAY)
    # find an item where the sizes can be added: +a + (-b)
    while len({t > 0 for t in p.shape.terms}) == 1:
        answer_right(p)
    a, b = p.shape.terms
    p.answer.value = str(abs(a) + abs(b))
    fb = p.check_typed()
    assert fb.mistake == "added-abs" and "zero pairs" in p.feedback.value
    assert p.targets == ["added-abs", "added-abs"]
    p.answer.value = str(a + b)
    p.check_typed()
    p.next_question()
    for _ in range(2):  # the next items practise that mistake: the signs differ
        assert len({t > 0 for t in p.shape.terms}) == 2
        answer_right(p)
    answer_right(p)
    assert p.state().status() == "mastered" and "Mastered" in p.standing.value
    student.set_names(("Ana",))
    rows = open_answers(student.url).answers(day_of(student.clock()))
    assert student.outbox.flush() == 0
    rows = open_answers(student.url).answers(day_of(student.clock()))
    assert {r.activity for r in rows} == {"practice"}
    assert [r.mistake for r in rows if not r.right] == ["added-abs"]
    assert all(r.item.startswith("add-2 11-") for r in rows)


def test_ten_misses_say_to_ask_the_teacher_in_spanish(student: Student) -> None:
    p = SkillPractice(skills=["distance"], seed=3, today=DAY, lang="es")
    for _ in range(DAILY_LIMIT):
        p.answer.value = "99"
        p.check_typed()
        p.check_typed()  # the second miss shows the answer
        p.answer.value = "98"
        p.check_typed()
        p.next_question()
    assert p.state().status() == "flagged"
    with speaking("es"):
        from widgets.words import _
        assert _("You have done {n} questions of this skill today: ask your teacher to look "
                 "at one with you.").format(n=DAILY_LIMIT) in p.standing.value
    assert "ask your teacher" not in p.standing.value


def test_forged_answers_are_refused(student: Student) -> None:
    p = SkillPractice(skills=["closer"], seed=5, today=DAY)
    assert p.check_typed() is None  # a choice question: no typed answer
    assert not p.choose(7).valid and not p.choose(True).valid
    p.next_question()  # not answered: stays
    assert "Answer this question first" in p.feedback.value and p.number == 1


def test_the_skill_picker_is_a_button_per_skill(student: Student) -> None:
    """Each skill has its own button; the one practised is marked; a forged skill changes
    nothing; an item not answered yet is not counted when the skill changes."""
    p = SkillPractice(seed=8, today=DAY)
    assert list(p.skill_buttons) == list(SKILLS)
    assert all(b.description for b in p.skill_buttons.values())
    assert p.skill_buttons[SKILLS[0]].button_style == "info"
    p.skill_buttons["abs"].click()
    assert p.skill == "abs" and p.shape.kind in SKILL_KINDS["abs"] and p.number == 1
    assert p.skill_buttons["abs"].button_style == "info"
    assert p.skill_buttons[SKILLS[0]].button_style == ""
    p.pick("no-such-skill")
    p.pick(["abs"])
    assert p.skill == "abs" and p.number == 1
    for _ in range(3):
        answer_right(p)
    assert p.skill_buttons["abs"].description.startswith("\u2713")


def test_the_standing_is_read_back_from_the_store(student: Student) -> None:
    """A named student's first tries of other pages (today and earlier days) make their
    standing when the page opens: a skill mastered on an earlier day wants its re-check, and
    one mastered today stays mastered; this page's own answers are not counted twice."""
    import time

    from rooms.answers import Answer, new_answer_id

    student.set_names(("Ana",))
    store = open_answers(student.url)
    earlier = "2026-11-28"
    at = {d: time.mktime(time.strptime(f"{d} 12", "%Y-%m-%d %H")) for d in (earlier, DAY)}
    for day, skill, n in ((earlier, "abs", 3), (DAY, "closer", 3)):
        for i in range(n):
            assert day_of(at[day] + i) == day
            store.record(Answer(answer_id=new_answer_id(), student="Ana", lesson=0,
                                activity="practice", item=f"{skill} 99-{i}", kind="abs",
                                terms="-4", given="4", right=True, first_try=True,
                                at=at[day] + i))
    p = SkillPractice(seed=12, today=DAY, lesson=0, name_bar=True)
    assert p.name_bar in p.children
    assert p.state("closer").status() == "mastered"
    assert p.skill == "abs" and wants_recheck(progress(p.earlier, DAY)["abs"], DAY)
    answer_right(p)  # the re-check, right
    assert student.outbox.flush() == 0
    assert len(store.practice_firsts("Ana")) == 7
    p._named()  # read back again: this page's own answer is in `firsts` only
    assert len(p.all_firsts()) == 7 and p.state("abs").status() == "mastered"
    # another student at this device: their own standing, not Ana's, and other numbers
    seed = p.seed
    p.name_bar.change()
    p.name_bar.first.value = "Ben"
    assert p.name_bar.name_me()
    assert p.earlier == [] and p.firsts == [] and p.seed != seed
    assert p.state("closer").status() == "not-started" and p.number == 1
    # and back to Ana: all her first tries, this page's too, from the store
    p.name_bar.change()
    p.name_bar.first.value = "Ana"
    assert p.name_bar.name_me()
    assert len(p.all_firsts()) == 7 and p.state("closer").status() == "mastered"


def test_the_practice_page_shows_every_skill_with_the_name_bar(student: Student) -> None:
    from widgets.lessons.practice import PRACTICE_PAGE, practice_page, practice_rules

    p = practice_page()
    assert p.skills == SKILLS and p.lesson == PRACTICE_PAGE and p.name_bar in p.children
    assert p.name_bar.first.layout.display != "none"  # the name box, before any answer
    with speaking("es"):
        rules = practice_rules()
    assert rules.count("\n") == len(SKILLS) + 1 and "Sumar dos enteros" in rules
    from widgets.together.dashboard import page_name

    assert page_name(PRACTICE_PAGE) == "Practice"  # where the dashboard says a student is
    with speaking("es"):
        assert page_name(PRACTICE_PAGE) == "Práctica"


def test_the_standing_is_kept_on_the_device_without_a_store() -> None:
    """On the static site (no store) the first tries are kept on the device: each one writes
    the keep widget, and what the page types back makes the standing of a new page, checked
    like anything typed."""
    from widgets.lessons.practice import kept_value, read_kept

    p = SkillPractice(skills=["abs", "closer"], seed=21, today=DAY, on_device=True)
    assert p.keep in p.children and p.recall in p.children and p.name_bar is None
    for _ in range(3):
        answer_right(p)
    kept = re.search(r"data-keep='([^']*)'", p.keep.value)[1]
    assert read_kept(html.unescape(kept)) == [(DAY, "abs", True)] * 3
    p.recall.value = html.unescape(kept)  # the page types its own kept value back: no double
    assert p.device_kept == [] and len(p.all_firsts()) == 3
    later = "2026-12-08"
    q = SkillPractice(skills=["closer", "abs"], seed=22, today=later, on_device=True)
    assert q.skill == "closer"
    for forged in ("", "[[1,2,3]]", '[["2026-12-01","fly",1]]', "{", '[["x","abs",1]]',
                   '[["2026-12-01","abs",true]]', "[" + ",".join(['["2026-12-01","abs",1]']
                                                                * 501) + "]"):
        q.recall.value = forged
        assert q.device_kept == [] and q.state("abs").status() == "not-started", forged
    q.recall.value = html.unescape(kept)
    assert q.state("abs").status() == "mastered" and q.skill == "abs"  # the re-check comes
    assert wants_recheck(q.state("abs"), later)
    answer_right(q)
    assert q.state("abs").rechecked
    assert read_kept(html.unescape(re.search(r"data-keep='([^']*)'", q.keep.value)[1])) == [
        (DAY, "abs", True)] * 3 + [(later, "abs", True)]
    q.recall.value = kept_value([(DAY, "closer", True)])  # typed back once only
    assert q.state("closer").status() == "not-started"



def _mastered_before(student: Student, skill: str) -> str:
    """Ana mastered `skill` three days ago (in the store); returns today's day."""
    import time

    from rooms.answers import Answer, new_answer_id

    store = open_answers(student.url)
    now = time.time()
    for i in range(3):
        store.record(Answer(answer_id=new_answer_id(), student="Ana", lesson=0,
                            activity="practice", item=f"{skill} 99-{i}", kind="abs",
                            terms="-4", given="4", right=True, first_try=True,
                            at=now - 3 * 86400 + i))
    return day_of(now)


def made(recheck: object) -> bool:
    """Whether a re-check made its question's widgets (a lesson page's re-check with nothing
    due makes none: each would be a model every student's page loads)."""
    return any(name in recheck.__dict__ for name in ("title", "prompt", "skill_buttons",
                                                     "standing"))


def test_a_later_lesson_starts_with_the_re_check_of_a_skill_mastered_before(
        student: Student) -> None:
    """Lesson 3's re-check: nothing while nobody is named; once Ana's name comes back, one
    question of the skill she mastered on an earlier day, answered once, filed as practice
    under lesson 3; then nothing more, here or on the next page of the same day."""
    from widgets.lessons.practice import Recheck

    today = _mastered_before(student, "abs")
    r = Recheck(lesson=3, today=today)
    assert r.due() is None and r.shape is None and not made(r)
    student.set_names(("Ana",))  # the name typed once comes back at load
    assert r.due() == "abs" and r.skill == "abs" and r.prompt in r.children
    assert "Re-check: Absolute value" in r.title.value and r.skill_row not in r.children
    answer_right(r)
    assert "Still mastered" in r.standing.value and r.shape.kind in SKILL_KINDS["abs"]
    r.next_question()  # its one question only
    assert r.number == 1 and r.next_button not in r.children
    assert student.outbox.flush() == 0
    mine = [a for a in open_answers(student.url).answers(today) if a.lesson == 3]
    assert [(a.activity, a.item.split()[0], a.first_try, a.right) for a in mine] == [
        ("practice", "abs", True, True)]
    again = Recheck(lesson=4, today=today)
    assert again.due() is None and not made(again)


def test_a_missed_re_check_sends_the_skill_back_to_practice(student: Student) -> None:
    from widgets.lessons.practice import Recheck

    today = _mastered_before(student, "closer")
    student.set_names(("Ana",))
    r = Recheck(lesson=5, today=today, lang="es")
    wrong = next(o for o in r.shape.options() if o != r.shape.answer)
    r.choose(r.shape.options().index(wrong))
    assert r.state("closer").status() == "practising"
    assert "página de práctica" in r.standing.value


def test_the_re_check_on_the_static_site_reads_the_device() -> None:
    from widgets.lessons.practice import Recheck, kept_value

    r = Recheck(lesson=2, today=DAY, on_device=True)
    assert r.recall in r.children and not made(r)  # nothing kept yet
    r.recall.value = kept_value([("2026-11-20", "distance", True)] * 3)
    assert r.skill == "distance" and r.title in r.children
    answer_right(r)
    assert "Still mastered" in r.standing.value and "distance" in r.keep.value


def test_enter_in_the_answer_box_checks_it() -> None:
    """Enter in the box does what Check does (the page sends a "submit" message), while Check
    may be pressed: a keyboard student needs no Tab to Check."""
    p = SkillPractice(skills=["abs"], seed=4, today=DAY)
    p.answer.value = str(p.shape.answer)
    p.answer._handle_custom_msg({"event": "submit"}, [])
    assert [right for _skill, _given, right in p.firsts] == [True]
    p.answer._handle_custom_msg({"event": "submit"}, [])  # answered: Enter again does nothing
    assert len(p.firsts) == 1
