"""A student's first name on a page (widgets/lessons/student.py): typed once, remembered on the
device
for the day through the page (the kernel checks what the page sends back: forged, stale or
posing values are ignored), "Not you? Change", two of us on one device; and the page's exit
ticket and practice answers on their way to the class's store under that name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from widget_helpers import errors_raise  # noqa: F401 - autouse: click handlers raise

import widgets.lessons.student as student_module
from engine.questions import Question
from rooms.answers import Outbox, day_of, open_answers
from widgets.lessons.exit_ticket import ExitTicket
from widgets.lessons.practice import AbsoluteValuePractice
from widgets.lessons.reporting import reporter
from widgets.lessons.student import (
    NameBar,
    NameRefused,
    Student,
    check_first_name,
    keep_value,
    read_recall,
    today,
)
from widgets.words import speaking

NOON = 1796126400.0  # 2026-12-01, around noon UTC


@pytest.fixture
def student(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Student:
    """This page's student, with their answers going to a store of the test's own."""
    ticks = iter(range(10**6))
    s = Student(clock=lambda: NOON + next(ticks))
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    s.outbox = Outbox(lambda: open_answers(url), thread=False)
    s.url = url  # type: ignore[attr-defined]
    monkeypatch.setattr(student_module, "STUDENT", s)
    return s


def stored(s: Student) -> list:
    assert s.outbox.flush() == 0
    return open_answers(s.url).answers(day_of(NOON))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["Ana", " ana  maría ", "Jean-Luc", "O'Neil", "Zoë"])
def test_first_names_taken(name: str) -> None:
    assert check_first_name(name) == " ".join(name.split())


@pytest.mark.parametrize(("text", "why"), [
    ("", "Type your first name"), ("   ", "Type your first name"), (None, "Type your first"),
    ("x" * 25, "1 to 24"), ("<script>", "1 to 24"), ("Ana\u202e", "1 to 24"),
    ("\u3164", "1 to 24"), ("Ana\u3164", "1 to 24"), ("A\uffa0na", "1 to 24"),
    ("\u115f\u1160", "1 to 24"),
    ("Computer 3", "your own"), ("Ѕeat 4", "your own"), (["Ana"], "Type your first name"),
])
def test_names_refused_with_the_reason(text: object, why: str) -> None:
    with pytest.raises(NameRefused, match=why):
        check_first_name(text)


def test_what_the_page_sends_back_is_checked() -> None:
    day = "2026-12-01"
    assert read_recall(keep_value(("Ana",), day), day) == ("Ana",)
    assert read_recall(keep_value(("Ana", "Ben"), day), day) == ("Ana", "Ben")
    forged = [
        keep_value(("Ana",), "2026-11-30"),  # yesterday's: typed again today
        json.dumps({"day": day, "names": ["Computer 1"]}),
        json.dumps({"day": day, "names": ["Ana", "ana"]}),  # one student twice
        json.dumps({"day": day, "names": ["A", "B", "C"]}),
        json.dumps({"day": day, "names": []}),
        json.dumps({"day": day, "names": "Ana"}),
        json.dumps({"day": day, "names": ["Ana"], "teacher": True}),
        json.dumps({"day": day, "names": ["x" * 30]}),
        json.dumps([day, ["Ana"]]), "Ana", "{", "", None, 7,
        json.dumps({"day": day, "names": ["Ana" + " " * 300]}),
    ]
    for text in forged:
        assert read_recall(text, day) is None, text


def test_a_name_typed_once_is_kept_for_the_device(student: Student) -> None:
    bar = NameBar(1)
    assert bar.student is student and not student.names
    assert bar.entry.layout.display is None and bar.change_button.layout.display == "none"
    bar.first.value = "Computer 2"
    assert bar.name_me() is False and "your own" in bar.message.value
    assert not student.names and "data-keep" not in bar.keep.value
    bar.first.value = " Ana "
    assert bar.name_me() is True and student.names == ("Ana",)
    assert "Answering as Ana" in bar.line.value and bar.entry.layout.display == "none"
    kept = bar.keep.value.split("data-keep='")[1].split("'")[0].replace("&quot;", '"')
    assert json.loads(kept) == {"day": "2026-12-01", "names": ["Ana"]}
    # a second bar on the page shows the same student
    other = NameBar(1)
    assert "Answering as Ana" in other.line.value
    # not you: forgotten on the device, the box back on every bar
    bar.change()
    assert student.names == () and "data-keep=''" in bar.keep.value
    assert other.entry.layout.display is None and other.change_button.disabled


def test_the_page_recalls_a_name_the_kernel_checks(student: Student) -> None:
    bar = NameBar(2)
    bar.recall.value = keep_value(("Ana",), "2026-11-30")  # stale
    assert student.names == ()
    bar.recall.value = json.dumps({"day": today(student.clock()), "names": ["Seat 1"]})  # forged
    assert student.names == ()
    bar.recall.value = keep_value(("Ben",), today(student.clock()))
    assert student.names == ("Ben",) and "Answering as Ben" in bar.line.value
    # once named, a value the page sends changes nothing
    bar.recall.value = keep_value(("Cam",), today(student.clock()))
    assert student.names == ("Ben",)
    assert student.outbox.flush() == 0
    assert [(p.student, p.lesson) for p in open_answers(student.url).presence(  # type: ignore
        day_of(NOON))] == [("Ben", 2)]


def test_two_of_us_on_this_device(student: Student) -> None:
    bar = NameBar(1)
    bar.pair()
    assert bar.pairing and bar.second.layout.display is None
    assert bar.ok_button.description == "That's us"
    bar.first.value, bar.second.value = "Ana", "ANA"
    assert bar.name_me() is False and "different" in bar.message.value
    bar.second.value = "Ben"
    assert bar.name_me() is True and student.names == ("Ana", "Ben")
    assert "Ana and Ben" in bar.line.value
    bar.pair()  # refused once named
    assert student.names == ("Ana", "Ben")


def test_exit_ticket_answers_reach_the_store_with_their_mistake(student: Student) -> None:
    t = ExitTicket(lesson=1)
    t.start()
    assert t.name_bar in t.children
    t.choose(0)  # question 1 is typed: refused, nothing recorded
    t.entry.value = str(t.items[0].answer)  # a red card's value (a red 6 on the printed ticket)
    assert t.check_typed() is True  # before the name: kept on the page
    assert stored(student) == []
    t.name_bar.first.value = "Ana"
    t.name_bar.name_me()
    t.next_question()
    greatest = t.items[1]  # "Which is the greatest: -6, -1 or +4?" with Ana's numbers
    t.choose(greatest.choices.index(greatest.answer))  # right
    t.next_question()
    sign = t.items[2]  # "is -9 + (+4) positive, negative or zero?" with Ana's numbers
    t.choose(0)  # Positive: wrong
    t.next_question()
    total = t.items[3].answer  # +3 + (-8): the sign of the number closer to zero
    t.entry.value = str(-total)
    t.check_typed()
    t.next_question()
    t.entry.value = "oops"
    t.check_typed()  # a typing slip does not count and is not recorded
    t.entry.value = str(t.items[4].answer)
    t.check_typed()
    rows = stored(student)
    assert [(a.student, a.item, a.given, a.right, a.first_try, a.mistake) for a in rows] == [
        ("Ana", "1", f"{t.items[0].answer:+d}", True, True, None),
        ("Ana", "2", str(max(greatest.shape.terms)), True, True, None),
        ("Ana", "3", str(-sum(sign.shape.terms)), False, True, "sign-of-closer"),
        ("Ana", "4", f"{-total:+d}", False, True, "sign-of-closer"),
        ("Ana", "5", str(t.items[4].answer), True, True, None)]
    assert {a.lesson for a in rows} == {1} and {a.activity for a in rows} == {"exit-ticket"}
    # data, no sentence: the question's kind and numbers (a red card's value: its family's
    # numbers; the choice: the number picked;
    # "Positive" stands for a positive sum) and the numbers' variant
    assert [(a.kind, a.terms) for a in rows] == [("ticket", str(t.items[0].answer))] + [
        (item.shape.kind, ",".join(map(str, item.shape.terms))) for item in t.items[1:]]
    assert [a.variant for a in rows] == t.variants
    # the next student at this device names themselves
    t.next_question()
    t.next_student()
    assert student.names == ()


def test_a_pair_answers_for_both(student: Student) -> None:
    t = ExitTicket(lesson=2)
    t.start()
    t.name_bar.pair()
    t.name_bar.first.value, t.name_bar.second.value = "Ana", "Ben"
    t.name_bar.name_me()
    kept = f"-{t.items[0].answer}"  # |-11|, with the pair's numbers: the sign kept
    t.entry.value = kept
    t.check_typed()
    rows = stored(student)
    assert [(a.student, a.partner, a.given, a.mistake) for a in rows] == [
        ("Ana", "Ben", kept, "abs-kept-sign"), ("Ben", "Ana", kept, "abs-kept-sign")]
    assert len({a.answer_id for a in rows}) == 2


def test_practice_answers_first_try_or_later(student: Student) -> None:
    p = AbsoluteValuePractice(kinds=["abs-sum"], seed=3, questions=2, first_try=True)
    assert p.name_bar is None  # shown with the first answer
    q = p.question
    p.answer.value = str(q.total) if q.total != abs(q.total) else "99"
    p.check_typed()
    assert p.name_bar in p.children
    p.name_bar.first.value = "Cam"
    p.name_bar.name_me()
    p.try_again()
    p.answer.value = str(abs(q.total))
    p.check_typed()
    rows = stored(student)
    assert [(a.right, a.first_try, a.activity) for a in rows] == [
        (False, True, "check"), (True, False, "check")]
    assert rows[0].item == rows[1].item == "3-1" and rows[0].kind == "abs-sum"
    assert rows[0].terms == ",".join(map(str, q.numbers)) and rows[0].variant == 3
    assert rows[0].mistake == ("abs-kept-sign" if q.total < 0 else None)
    p.next_question()
    p.code_box.value = "3"  # the set again: its first answers are no first tries
    p.code_button.click()
    p.answer.value = str(abs(p.question.total))
    p.check_typed()
    assert [(a.item, a.right, a.first_try) for a in stored(student)][-1] == ("3-1", True, False)


def test_the_name_bar_speaks_spanish(student: Student) -> None:
    bar = NameBar(1, lang="es")
    with speaking("es"):
        from widgets.words import _
        assert bar.pair_button.description == _("Two of us on this device")
    assert bar.pair_button.description != "Two of us on this device"


def test_hit_me_check_goes_to_the_store_with_its_mistakes(student: Student) -> None:
    from widget_helpers import AlwaysHold

    from widgets import HitMeTable

    t = HitMeTable(players=2, opponents=[AlwaysHold()], seed=7, bot_delay=0,
                   deck="KS,7H,2D,AH", on_answer=reporter("hit_me"))
    t.hold_button.click()
    values = t.session.announce_values()
    total = sum(values)
    t.announce.boxes["sum"].value = str(-total if total else 5)
    t.announce.boxes["abs"].value = str(abs(total))
    t.announce.check_button.click()  # the sum wrong, its absolute value right
    t.announce.boxes["sum"].value = str(total)
    t.announce.check_button.click()
    assert stored(student) == []  # no name yet: kept on the page
    bar = NameBar(3)
    bar.first.value = "Ana"
    assert bar.name_me()
    rows = stored(student)
    assert [(a.item.split()[-1], a.right, a.first_try) for a in rows] == [
        ("sum", False, True), ("|sum|", True, True), ("sum", True, False), ("|sum|", True, False)]
    assert {a.lesson for a in rows} == {3} and {a.activity for a in rows} == {"check"}
    assert [a.kind for a in rows] == ["sum", "abs-sum"] * 2
    assert {a.terms for a in rows} == {",".join(map(str, values))}


@pytest.mark.parametrize("game", ["hit-me", "flapjack"])
def test_a_check_at_a_deal_nobody_chose_goes_to_the_store(student: Student, game: str) -> None:
    """A lesson page's table deals with a secret seed (a long deal code): its checks are filed
    under a short digest of the code (an item is at most 40 characters; the code would give
    the deal's hidden cards to whoever reads the answers), and they reach the store."""
    from helpers import Scripted
    from widget_helpers import AlwaysHold

    from widgets import HitMeTable
    from widgets.flapjack.table import FlapjackTable

    student.set_names(("Cam",))
    if game == "hit-me":
        t = HitMeTable(players=2, opponents=[AlwaysHold()], bot_delay=0,
                       on_answer=reporter("hit_me"))
        t.hold_button.click()
        values = t.session.announce_values()
        t.announce.boxes["sum"].value = str(sum(values))
        t.announce.boxes["abs"].value = str(abs(sum(values)))
        t.announce.check_button.click()
    else:
        t = FlapjackTable(bot_delay=0, say_total=True, opponents=[Scripted()],
                          on_answer=reporter("flapjack"))
        card = next(b for b in t.hand_box.children if not b.disabled)
        card.click()
        t.practice.boxes["total"].value = "0"
        t.practice.check_button.click()
    code = str(t.session.deal_code)
    assert len(code) > 12
    rows = stored(student)
    assert rows and {a.student for a in rows} == {"Cam"}
    assert all(len(a.item) <= 40 and code not in a.item and a.item.startswith(game + " #")
               for a in rows), [a.item for a in rows]


def test_flapjack_new_total_goes_to_the_store(student: Student) -> None:
    from helpers import Scripted

    from widgets.flapjack.table import FlapjackTable

    student.set_names(("Ben",))
    t = FlapjackTable(deck="KH,5S,3D,8S,2C,KS,4H,9D,6C,QD,7S,AH,10C,JD", seed=1, bot_delay=0,
                      say_total=True, opponents=[Scripted("3D")],
                      on_answer=reporter("flapjack"))
    next(b for b in t.hand_box.children if b.description.startswith("9♦ ")).click()
    t.practice.boxes["total"].value = "12"  # -3 + (-9): "two negatives make a positive"
    t.practice.check_button.click()
    t.practice.boxes["total"].value = "-12"
    t.practice.check_button.click()
    rows = stored(student)
    assert [(a.student, a.kind, a.terms, a.given, a.right, a.first_try, a.mistake)
            for a in rows] == [
        ("Ben", "sum", "-3,-9", "+12", False, True, "two-negatives-positive"),
        ("Ben", "sum", "-3,-9", "-12", True, False, None)]


def test_a_subtracted_card_goes_to_the_store_as_a_difference(student: Student) -> None:
    """Signed add or subtract: -3 - (-9) is filed as a difference, its mistake named as one
    (moving left for a negative card), not as a sum's."""
    from helpers import Scripted

    from widgets.flapjack.table import FlapjackTable

    student.set_names(("Ben",))
    t = FlapjackTable(deck="KH,5S,3D,8S,2C,KS,4H,9D,6C,QD,7S,AH,10C,JD", seed=1, bot_delay=0,
                      say_total=True, variant="signed-add-or-subtract",
                      opponents=[Scripted("3D")], on_answer=reporter("flapjack"))
    next(b for b in t.hand_box.children if b.description.startswith("9♦ ")).click()
    t.subtract_button.click()
    t.practice.boxes["total"].value = "-12"  # moved left by 9
    t.practice.check_button.click()
    t.practice.boxes["total"].value = "+6"
    t.practice.check_button.click()
    rows = stored(student)
    assert [(a.kind, a.terms, a.given, a.right, a.first_try, a.mistake) for a in rows] == [
        ("difference", "-3,-9", "-12", False, True, "subtract-negative-left"),
        ("difference", "-3,-9", "+6", True, False, None)]


def test_a_table_without_on_answer_reports_nothing(student: Student) -> None:
    from widget_helpers import AlwaysHold

    from widgets import HitMeTable

    student.set_names(("Eve",))
    t = HitMeTable(players=2, opponents=[AlwaysHold()], seed=7, bot_delay=0,
                   deck="KS,7H,2D,AH")
    t.hold_button.click()
    t.announce.boxes["sum"].value = t.announce.boxes["abs"].value = "99"
    t.announce.check_button.click()
    assert stored(student) == []


def test_the_static_site_records_nothing(student: Student, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the browser's kernel (no server; the site's wheel leaves widgets/together/ out) no name
    bar is made, no answer kept, and nothing of the class's store is imported."""
    import sys

    from widget_helpers import AlwaysHold

    import widgets.hit_me.table
    import widgets.lessons.exit_ticket
    import widgets.lessons.practice
    from widgets import HitMeTable

    for module in (widgets.lessons.exit_ticket, widgets.lessons.practice, widgets.hit_me.table):
        monkeypatch.setattr(module, "IN_BROWSER", True)
    for name in ("widgets.lessons.student", "widgets.together", "rooms.answers"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of them fails
    t = ExitTicket(lesson=1)
    t.start()
    t.entry.value = "-6"
    t.check_typed()
    p = AbsoluteValuePractice(kinds=["abs"], seed=3)
    p.answer.value = "1"
    p.check_typed()
    table = HitMeTable(players=2, opponents=[AlwaysHold()], seed=7, bot_delay=0)
    table.hold_button.click()
    table.announce.boxes["sum"].value = table.announce.boxes["abs"].value = "99"
    table.announce.check_button.click()
    assert t.name_bar is None and p.name_bar is None
    assert student.waiting == [] and student.answers == 0


def test_a_remembered_name_reaches_the_kernel_at_load(student: Student) -> None:
    """The exit ticket's hidden box: a named student's page says its lesson at once, and the
    page's earlier answers (a table's check) go with the name."""
    student.record(question=Question("sum", (6, -9), 3, "hit-me 1 1 sum"), activity="check",
                   given="+3", right=False, first_try=True, mistake="sign-of-closer")
    t = ExitTicket(lesson=3)
    assert t.recall in t.children and t.recall.layout.display == "none"
    t.recall.value = json.dumps({"day": today(student.clock()), "names": ["Computer 1"]})
    assert student.names == ()
    t.recall.value = keep_value(("Dee",), today(student.clock()))
    assert student.names == ("Dee",)
    assert [(a.student, a.item) for a in stored(student)] == [("Dee", "hit-me 1 1 sum")]
    assert [(p.student, p.lesson) for p in open_answers(  # type: ignore[attr-defined]
        student.url).presence(day_of(NOON))] == [("Dee", 3)]
    t.start()
    assert "Answering as Dee" in t.name_bar.line.value


def _finish(t: ExitTicket) -> None:
    while not t.finished:
        item = t.items[t.index]
        if item.choices:
            t.choose(item.choices.index(item.answer))
        else:
            t.entry.value = str(item.answer)
            t.check_typed()
        t.next_question()


def _terms(t: ExitTicket) -> list[tuple[int, ...]]:
    return [i.shape.terms for i in t.items if i.shape]


def test_a_named_students_first_take_has_their_own_numbers(student: Student) -> None:
    """A named student's first take: numbers of their own, seeded by their name, the day and
    the lesson (not the printed ticket's); the same student on a new page before answering
    gets the same numbers, a neighbour other ones."""
    from widgets.lessons import exit_ticket as et

    student.set_names(("Ana",))
    t = ExitTicket(lesson=1)
    t.start()
    ana = et.variant_for("Ana", today(student.clock()), 1, 0)
    assert t.variants == [ana] * 5  # a red card of their own too
    assert all(a != b for a, b in zip(_terms(t), [i.shape.terms for i in t.base_items
                                                 if i.shape], strict=True))
    again = ExitTicket(lesson=1)  # a reload before answering
    again.start()
    assert again.items == t.items and again.variants == t.variants and not again.repeated
    ana_terms = _terms(t)
    student.set_names(("Ben",))  # (the pages above take Ben's numbers: one page, one student)
    ben = ExitTicket(lesson=1)
    ben.start()
    assert _terms(ben) != ana_terms and set(ben.variants) != {ana}


def test_naming_after_start_keeps_the_question_on_the_screen(student: Student) -> None:
    """A student who names themselves after Start: the question on the screen does not change
    under their finger and the answers given stay as given (stored with their numbers, under
    the name); the questions after it get the student's own numbers."""
    from widgets.lessons import exit_ticket as et

    t = ExitTicket(lesson=2)
    t.start()
    first = t.items[0]  # |-11| with unnamed numbers
    t.entry.value = str(first.answer)
    assert t.check_typed() is True
    t.next_question()
    on_screen, shown = t.items[1], t.prompt.value
    unnamed = t.variants[1]
    t.name_bar.first.value = "Ana"
    t.name_bar.name_me()
    assert t.items[0] is first and t.items[1] is on_screen and t.prompt.value == shown
    ana = et.variant_for("Ana", today(student.clock()), 2, 0)
    assert t.variants == [unnamed, unnamed, ana, ana, ana]
    assert t.items[2:] == tuple(et.vary(it, ana, i) for i, it in enumerate(t.base_items)
                                if i >= 2)
    assert not t.repeated - {"1"}  # the first answer was this take's: no retake
    [row] = stored(student)
    assert (row.student, row.item, row.variant, row.given, row.first_try) == (
        "Ana", "1", unnamed, str(first.answer), True)
    assert row.terms == ",".join(map(str, first.shape.terms))


def test_a_retake_gets_new_numbers_and_adds_no_first_try(student: Student) -> None:
    """After "Next student at this device", and on a new page (a reload), a named student who
    answered today gets a retake: other numbers than their first take's (the typed items and
    the choices whose numbers follow); the same student's answers there are not first tries,
    and the store keeps one first try per item."""
    t = ExitTicket(lesson=1)
    t.start()
    t.name_bar.first.value = "Ana"
    t.name_bar.name_me()
    first_take, first_variants = _terms(t), list(t.variants)
    _finish(t)
    assert stored(student)
    t.next_student()
    assert student.names == () and t.variants[1:] != first_variants[1:]
    t.name_bar.first.value = "Ana"  # the same student again, on question 1
    t.name_bar.name_me()
    retake = _terms(t)
    assert len(retake) == len(first_take) and all(
        a != b for a, b in zip(retake, first_take, strict=True))
    assert all(i.shape.answer == i.answer for i in t.items if i.shape and not i.choices)
    # a choice among numbers ("Which is the greatest: -6, -1 or +4?") gets new numbers of the
    # same pattern, its choices with them; a choice in words ("Negative") too, its words kept
    first, again = t.base_items[1], t.items[1]
    assert [n < 0 for n in again.shape.terms] == [n < 0 for n in first.shape.terms]
    assert again.choices == tuple(f"{n:+d}" for n in again.shape.terms)
    assert again.answer == f"{max(again.shape.terms):+d}" and again.picks == again.shape.terms
    assert t.items[2].choices == t.base_items[2].choices
    assert t.items[2].shape.terms != t.base_items[2].shape.terms
    _finish(t)
    rows = stored(student)
    firsts = [(a.item, a.variant) for a in rows if a.first_try]
    assert firsts == [(str(i + 1), v) for i, v in enumerate(first_variants)]
    assert [a.variant for a in rows if not a.first_try] == t.variants
    # a new page (a reload): the named student's ticket is a retake at once
    reload = ExitTicket(lesson=1)
    reload.start()
    assert reload.repeated == {"1", "2", "3", "4", "5"}
    assert _terms(reload) != first_take


def test_an_unnamed_try_is_not_the_next_students(student: Student) -> None:
    """A ticket answered without a name, then "Next student at this device": the student who
    names themselves next gets none of those answers, and their own are their first tries."""
    t = ExitTicket(lesson=1)
    t.start()
    while not t.finished:  # every answer wrong, nobody named
        item = t.items[t.index]
        if item.choices:
            t.choose((item.choices.index(item.answer) + 1) % len(item.choices))
        else:
            t.entry.value = str(item.answer + 1)
            t.check_typed()
        t.next_question()
    assert len(student.waiting) == 5
    t.next_student()
    assert student.waiting == []
    t.name_bar.first.value = "Ben"
    t.name_bar.name_me()
    _finish(t)
    rows = stored(student)
    assert {a.student for a in rows} == {"Ben"}
    assert len(rows) == 5 and all(a.first_try and a.right for a in rows)
    assert [a.variant for a in rows] == t.variants


def test_answers_before_naming_are_kept_for_the_student_who_names_themselves(
        student: Student) -> None:
    """The same student who answered first and names themselves later keeps those answers."""
    t = ExitTicket(lesson=1)
    t.start()
    _finish(t)
    assert stored(student) == [] and len(student.waiting) == 5
    t.name_bar.first.value = "Ana"
    t.name_bar.name_me()
    rows = stored(student)
    assert len(rows) == 5 and {a.student for a in rows} == {"Ana"}
    assert all(a.first_try and a.right for a in rows)


def _answer_all(p: AbsoluteValuePractice) -> None:
    while p.question is not None:
        q = p.question
        if q.kind == "closer":
            p.choose(2 if q.answer == "same" else int(q.answer))
        else:
            p.answer.value = str(q.answer)
            p.check_typed()
        p.next_question()


def test_a_check_taken_again_by_name_is_other_numbers_and_practice(student: Student) -> None:
    """Lesson 2's first-try check, taken by Cam, then opened again (a reload, where the name
    comes back): other questions, scored as practice, and no second first try in the store;
    Dan, who has not taken it, gets the class's set as a first try."""
    student.set_names(("Cam",))
    p = AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9, first_try=True)
    assert p.seed == 9 and p.scored_first
    _answer_all(p)
    assert "5 of 5 right at the first try" in p.prompt.value
    assert len([a for a in stored(student) if a.first_try]) == 5
    again = AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9, first_try=True)
    assert again.seed != 9 and not again.scored_first
    assert "already answered" in again.code_message.value
    _answer_all(again)
    assert "right at the first try" not in again.prompt.value
    rows = stored(student)
    assert len(rows) == 10 and len([a for a in rows if a.first_try]) == 5
    assert {a.variant for a in rows if not a.first_try} == {again.seed}
    # typing the class's code again is practice too
    again.code_box.value = "9"
    again.start_code()
    assert again.seed == 9 and not again.scored_first
    # the next student at the device has not taken it: the class's set, a first try
    student.set_names(("Dan",))
    fresh = AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9, first_try=True)
    assert fresh.seed == 9 and fresh.scored_first


def test_a_check_whose_name_comes_back_after_load_is_swapped_before_any_answer(
        student: Student) -> None:
    """The name is recalled after the page loaded: a set this student took today is swapped
    for other numbers before they answer; once they answered, it is only scored as practice."""
    student.set_names(("Eve",))
    _answer_all(AbsoluteValuePractice(kinds=["closer"], questions=3, seed=9, first_try=True))
    student.set_names(())
    page = AbsoluteValuePractice(kinds=["closer"], questions=3, seed=9, first_try=True)
    assert page.seed == 9 and page.scored_first  # nobody named yet
    student.set_names(("Eve",))  # the device's name comes back
    assert page.seed != 9 and not page.scored_first
    student.set_names(())
    late = AbsoluteValuePractice(kinds=["closer"], questions=3, seed=9, first_try=True)
    late.choose(0)  # answered before the name came back
    student.set_names(("Eve",))
    assert late.seed == 9 and not late.scored_first
    assert len([a for a in stored(student) if a.first_try]) == 3


def test_money_check_tries_reach_the_store_as_lesson_4_checks(student: Student) -> None:
    """Each try of lesson 4's money-and-debt self-check is filed under the page's student as
    a lesson check with its numbers and the mistake it shows, the first try of each question
    marked; the class view lists them under their own place, per student."""
    from widgets.lessons.contexts import MoneyCheck
    from widgets.together.dashboard import check_place, lesson_checks

    student.set_names(("Ana",))
    check = MoneyCheck()  # the page's student
    assert check.check("15") == "added-abs" and check.check("-3") == "right"
    check.next_question()
    assert check.check("+1") == "right"
    rows = stored(student)
    assert [(a.lesson, a.activity, a.item, a.kind, a.terms, a.given, a.right, a.first_try,
             a.mistake) for a in rows] == [
        (4, "check", "money 1", "sum", "6,-9", "+15", False, True, "added-abs"),
        (4, "check", "money 1", "sum", "6,-9", "-3", True, False, None),
        (4, "check", "money 2", "difference", "-3,-4", "+1", True, True, None)]
    with speaking("en"):
        assert {check_place(a) for a in rows} == {("Money and debt, lesson 4", "money 1"),
                                                  ("Money and debt, lesson 4", "money 2")}
        (ana,) = lesson_checks(rows)
    assert (ana.name, ana.checks, ana.first_try, ana.misses, ana.mistakes) == \
        ("Ana", 2, 1, 1, (("added-abs", 1),))


def _device(student: Student) -> Student:
    """The same class's store seen from another device (a page of its own, nobody named)."""
    other = Student(clock=student.clock)
    url = student.url  # type: ignore[attr-defined]
    other.outbox = Outbox(lambda: open_answers(url), thread=False)
    other.url = url  # type: ignore[attr-defined]
    return other


def _answer(t: ExitTicket, right: bool) -> None:
    item = t.items[t.index]
    if item.choices:
        t.choose(next(i for i, c in enumerate(item.choices) if (c == item.answer) == right))
    else:
        t.entry.value = str(item.answer if right else item.answer + 1)
        t.check_typed()
    t.next_question()


def test_a_ticket_left_unfinished_goes_on_where_it_was(student: Student) -> None:
    """Ana answers two questions and her tablet drops. On another device (named before or
    after Start) the ticket goes on at question 3 with the numbers her first page had: her
    first answers are kept as given (never asked again, no second first try), and the code at
    the end holds them. A finished ticket is not gone on with: a page opened after it is a
    retake with other numbers."""
    student.set_names(("Ana",))
    first = ExitTicket(lesson=1)
    first.start()
    _answer(first, True)
    _answer(first, False)
    assert first.index == 2 and len(stored(student)) == 2
    tablet = _device(student)
    tablet.set_names(("Ana",))
    again = ExitTicket(lesson=1, student=tablet)
    again.start()
    assert again.index == 2 and again.marks == [True, False]
    assert again.items[2:] == first.items[2:]  # her numbers of the day
    assert "Welcome back: your answers to questions 1 to 2 are kept" in again.status.value
    assert "Question 3 of 5." in again.prompt.value
    # named after Start on a third device: the question on the screen moves on to hers
    phone = _device(student)
    late = ExitTicket(lesson=1, student=phone)
    late.start()
    assert late.index == 0
    phone.set_names(("Ana",))
    assert late.index == 2 and late.marks == [True, False] and late.items[2] == first.items[2]
    for _n in range(3):
        _answer(again, True)
    assert again.code == "L1-RXRRR"
    assert tablet.outbox.flush() == 0
    rows = stored(student)
    assert sorted(a.item for a in rows if a.first_try) == ["1", "2", "3", "4", "5"]
    assert len(rows) == 5
    # finished: a page opened now is a retake, nothing kept to go on with
    retake = ExitTicket(lesson=1, student=_device(student))
    retake.student.set_names(("Ana",))
    retake.start()
    assert retake.index == 0 and retake.repeated == {"1", "2", "3", "4", "5"}
    assert retake.items[2:] != first.items[2:]
