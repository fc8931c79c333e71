"""Start-up size of the tables: every widget model is a comm_open in the kernel and an entry in
the state a page fetches, so 30 students opening a lesson at once wait for each of them.

Budgets from a measurement (2026-11-30): a fresh HitMeTable(players=3) made 220 models before
layouts and styles were shared, 96 after; 36 once the answer box, the pass-the-device screen
and the teacher's controls were made on first use, 35 with shared toggle styles;
FlapjackTable(players=2) 221, then about 122, then 40 (parts made on first use, card buttons
made as they look and sharing one layout, shared toggle styles). With one teacher box for
both tables (2026-12-01; the first table of a kernel, shared models included):
Hit Me 40 (a student's page gained "New deal" and "Large print"), Flapjack 39 (a student's
page no longer holds the teacher's switches, which follow `walkthrough`).

2026-12-01 (the Hit Me lesson within 1.3x of the bare page; benchmarks/page_load.py
counts a lesson's models in a real kernel): HitMeTable(players=3) 19 models (first table of
a kernel 25 with the shared ones), from 35: one stylesheet model per kernel, the number line
and the move log one HTML model each, the hint's text, the message area, the result, the ace
row and the next-round button made on first use, Hit me!/Hold one layout for both, the root's
layout shared. FlapjackTable(players=2) 36. Lesson 02's practices 22 and 21. The exit ticket
3 at load (header, Start, its box), from 7. The Hit Me lesson page: 35 models (state fetch
45 KB), from 44 (62 KB). Both together (the one teacher box on the lighter tables): see the
budgets below.
"""

from __future__ import annotations

import ipywidgets as widgets
import pytest
from ipywidgets.widgets.widget import _instances

from widgets import FlapjackTable, HitMeTable
from widgets.lessons.practice import AbsoluteValuePractice
from widgets.table.components import (
    SharedButtonStyle,
    SharedLayout,
    html_widget,
    make_button,
    shared_button_style,
    shared_layout,
)
from widgets.table.shell import LazyPart

HIT_ME_BUDGET = 22  # 19, and the student's New deal and Large print in their row
FLAPJACK_BUDGET = 38
# the exit ticket: 3 at load, and (2026-12-01) the hidden box a remembered first name comes
# back in (widgets/lessons/student.py NameRecall, shared layout and style): 4
EXIT_TICKET_BUDGET = 4
# lesson 02's two practices (2026-11-30): 29 models each with both answer rows made at load
# (lesson 02: 71 models), 23 and 22 with each row made when a question first needs it (59);
# 22 and 21 with one stylesheet model per kernel (2026-12-01)
PRACTICE_BUDGET = 22
# the practice page (lessons/practice.ipynb, 2026-12-02): 50 models, the name bar and a
# button per skill of the unit (7) included
PRACTICE_PAGE_BUDGET = 50
# the re-check at the top of lessons 2 to 6 while nothing is due (2026-12-04): 38 models made
# at load (its question's parts and a button per skill, never shown); 6 with the parts made
# when a re-check is due (its box, the name's hidden recall and the live class's cover)
RECHECK_IDLE_BUDGET = 6
# lesson 4's money-and-debt self-check (2026-12-04): its question, the box and its style, Check,
# the message, Next question, their row and itself: 8
MONEY_CHECK_BUDGET = 8


def _new_models(make) -> list[widgets.Widget]:
    before = set(_instances)
    make()
    return [w for k, w in list(_instances.items()) if k not in before]


def test_hit_me_model_count_within_budget() -> None:
    HitMeTable(players=3)  # the shared stylesheet, layouts and styles, made once a kernel
    models = _new_models(lambda: HitMeTable(players=3))
    assert 12 < len(models) <= HIT_ME_BUDGET, len(models)


def test_exit_ticket_loads_light() -> None:
    """At load a ticket is its header, its Start button and the hidden box of a remembered
    name (the stylesheet is the page's one model); the questions, the messages and the score
    are made when needed."""
    from widgets.lessons.exit_ticket import ExitTicket

    ExitTicket(lesson=3)  # the shared stylesheet and layouts, made once
    models = _new_models(lambda: ExitTicket(lesson=3))
    assert len(models) <= EXIT_TICKET_BUDGET, [type(m).__name__ for m in models]
    t = ExitTicket(lesson=2)
    assert not LazyPart.built(t, "status") and not LazyPart.built(t, "result")
    t.check_typed()  # before Start: a message, in a status area made for it
    assert LazyPart.built(t, "status") and t.status in t.children
    assert "Start" in t.status.value and not LazyPart.built(t, "result")
    t.start()
    while not t.finished:
        item = t.items[t.index]
        if item.choices:
            t.choose(0)
        else:
            t.entry.value = str(item.answer)
            t.check_typed()
        t.next_question()
    assert t.status.value == "" and t.result in t.children and t.code in t.result.value


def test_a_unit_check_loads_as_light_as_an_exit_ticket() -> None:
    """The readiness check opens lesson 1's page and the end-of-unit check closes the last
    one: each loads as an exit ticket does, its eight questions made on Start."""
    from widgets.lessons.unit_check import UnitCheck

    UnitCheck("readiness")
    for which in ("readiness", "unit-check"):
        models = _new_models(lambda which=which: UnitCheck(which))
        assert len(models) <= EXIT_TICKET_BUDGET, [type(m).__name__ for m in models]
    assert not LazyPart.built(UnitCheck("unit-check"), "body")


def test_the_money_check_within_budget() -> None:
    from widgets.lessons.contexts import MoneyCheck

    MoneyCheck()  # the shared stylesheet and layouts, made once
    models = _new_models(MoneyCheck)
    assert len(models) <= MONEY_CHECK_BUDGET, [type(m).__name__ for m in models]


def test_hit_me_parts_are_made_when_first_needed() -> None:
    """The answer box appears when the round ends; the pass screen only in pass-the-device
    mode; the teacher's controls only in walkthrough mode (a solo page has none to forge)."""
    t = HitMeTable(players=3, seed=5, bot_delay=0)
    assert not any(LazyPart.built(t, n) for n in ("announce_box", "pass_box"))
    assert t.teacher_box.more is None and t.restart_button is None  # no teacher's controls
    assert all(type(c).__name__ != "AnswerEntry" for c in t.children)
    box = t.announce_box  # reading it builds it, and it takes its place on the table
    assert LazyPart.built(t, "announce_box") and box in t.children
    assert t.announce_box.layout.display == "none"  # and hidden until the round ends
    u = HitMeTable(players=3, seed=5, bot_delay=0)
    u.peek_button.click()
    while not u.game.round.players_done:
        u.hold_button.click()
    assert LazyPart.built(u, "announce_box") and u.announce_box in u.children
    assert u.announce_box.layout.display is None and not u.announce.check_button.disabled
    assert u.teacher_box.more is None and not LazyPart.built(u, "pass_box")
    w = HitMeTable(players=3, seed=5, bot_delay=0, walkthrough=True)
    assert w.teacher_box.bar in w.children and w.teacher_box.more in w.children
    assert w.code_text.value == "5"
    p = HitMeTable(players=3, seed=5, bot_delay=0, mode="pass-device", students=2)
    assert LazyPart.built(p, "pass_box") and p.pass_box in p.children
    assert p.pass_box.layout.display is None and not p.pass_button.disabled


def test_flapjack_model_count_within_budget() -> None:
    models = _new_models(lambda: FlapjackTable(players=2))
    assert 20 < len(models) <= FLAPJACK_BUDGET, len(models)


def test_flapjack_parts_are_made_when_first_needed() -> None:
    """Add / Subtract only in add-or-subtract, once a card is chosen; the new-total practice
    once a card is played with say_total; the settings panel when opened, showing the table's
    settings."""
    t = FlapjackTable(players=2, seed=8, bot_delay=0, say_total=True,
                      variant="add-or-subtract")
    assert not any(LazyPart.built(t, n) for n in ("sign_box", "practice_box", "settings"))
    key = next(k for k, b in zip(t._hand_keys, t.card_buttons, strict=False)
               if not b.disabled)
    t.click_card(key)
    assert LazyPart.built(t, "sign_box") and t.sign_box in t.children
    assert t.sign_box.layout.display is None
    button = t.add_button if not t.add_button.disabled else t.subtract_button
    button.click()
    assert LazyPart.built(t, "practice_box") and t.practice_box in t.children
    assert t.practice_box.layout.display is None and not t.practice.check_button.disabled
    t.settings_toggle.value = True
    assert t.settings in t.children and t.settings.layout.display is None
    assert t.players_field.value == 2 and t.variant_field.value == "add-or-subtract"
    assert t.say_field.value is True
    t.settings_toggle.value = False
    assert t.settings.layout.display == "none"
    u = FlapjackTable(players=2, seed=8, bot_delay=0)
    assert "Classic, 2 players" in u.settings_toggle.description


def test_shared_models_are_read_only() -> None:
    a = make_button("A")
    b = make_button("B")
    assert a.layout is b.layout and isinstance(a.layout, SharedLayout)
    assert a.style is b.style is shared_button_style()
    with pytest.raises(AttributeError):
        a.layout.display = "none"
    with pytest.raises(AttributeError):
        a.style.button_color = "red"
    assert b.layout.display is None
    assert html_widget("x").layout is shared_layout()


def test_own_layout_hides_only_that_button() -> None:
    a = make_button("A", own_layout=True)
    b = make_button("B")
    a.layout.display = "none"
    assert a.layout is not b.layout and b.layout.display is None


def test_closed_shared_model_is_made_again() -> None:
    old = shared_layout(width="7em")
    old.close()
    new = shared_layout(width="7em")
    assert new is not old and new.comm is not None and new.width == "7em"


def test_hit_me_hidden_buttons_keep_their_own_layouts() -> None:
    t = HitMeTable(players=3, seed=3)
    own = [t.hit_button, t.hold_button, t.next_round_button, t.announce.show_me_button]
    assert not any(isinstance(b.layout, SharedLayout) for b in own)
    assert isinstance(t.peek_button.style, SharedButtonStyle)
    # the next-round button is hidden during play, the peek button is not
    assert t.next_round_button.layout.display == "none"
    assert t.peek_button.layout.display is None


def test_hit_me_settings_built_on_first_open_with_current_values() -> None:
    t = HitMeTable(players=4, seed=11, opponents="hard")
    assert not LazyPart.built(t, "settings") and not any(
        isinstance(c, widgets.VBox) and "icg-settings" in c._dom_classes for c in t.children)
    t.settings_toggle.value = True
    panel = t.settings
    assert panel in t.children and panel.layout.display is None
    assert panel.values()["players"] == 4 and panel.values()["opponents"] == "hard"
    assert t.settings is panel  # built once
    t.settings_toggle.value = False
    assert panel.layout.display == "none" and t.children.count(panel) == 1


def test_practice_model_count_within_budget() -> None:
    """Lesson 02's two practices, as the lesson makes them (the page loads both at once)."""
    AbsoluteValuePractice(kinds=["abs"], seed=1)  # the shared layouts and styles, made once
    typed = _new_models(lambda: AbsoluteValuePractice(kinds=["abs", "abs-sum"], seed=2024))
    closer = _new_models(lambda: AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9))
    assert 12 < len(typed) <= PRACTICE_BUDGET, len(typed)
    assert 12 < len(closer) <= PRACTICE_BUDGET, len(closer)


def test_practice_answer_rows_are_made_when_a_question_needs_them() -> None:
    """A set of 'closer' questions never makes the typed row, an 'abs' set never the choice
    buttons; a mixed set makes each row at its first question of that kind, and shows only
    the row of the question asked."""
    closer = AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9)
    assert LazyPart.built(closer, "choice_row") and not LazyPart.built(closer, "typed_row")
    assert closer.choice_row in closer.children and closer.choice_row.layout.display is None
    for _ in range(4):
        closer.show_me()
        closer.next_question()
    assert not LazyPart.built(closer, "typed_row")
    typed = AbsoluteValuePractice(kinds=["abs", "abs-sum"], seed=2024)
    assert LazyPart.built(typed, "typed_row") and not LazyPart.built(typed, "choice_row")
    assert typed.typed_row in typed.children and not typed.check_button.disabled

    mixed = AbsoluteValuePractice(seed=5, questions=10)
    kinds = []
    while mixed.question is not None:
        kind = mixed.question.kind
        kinds.append(kind)
        shown, hidden = (("choice_row", "typed_row") if kind == "closer" else
                         ("typed_row", "choice_row"))
        row = mixed.__dict__[shown]
        assert row in mixed.children and row.layout.display is None
        if LazyPart.built(mixed, hidden):
            assert mixed.__dict__[hidden].layout.display == "none"
        assert LazyPart.built(mixed, hidden) == any(
            (k == "closer") == (hidden == "choice_row") for k in kinds)
        if kind == "closer":
            assert [b.description for b in mixed.choice_buttons] == list(mixed.question.choices)
            assert not any(b.disabled for b in mixed.choice_buttons)
        else:
            assert not mixed.check_button.disabled and mixed.answer.value == ""
        mixed.show_me()
        mixed.next_question()
    assert {"closer"} < set(kinds)  # the seed gives both kinds of question
    assert "Set finished" in mixed.prompt.value
    assert mixed.typed_row.layout.display == "none" == mixed.choice_row.layout.display
    # a row read before its first question (a test, a forged message) is hidden and disabled
    late = AbsoluteValuePractice(kinds=["abs"], seed=1)
    assert late.choice_row.layout.display == "none"
    assert all(b.disabled for b in late.choice_buttons) and late.choose(0) is None


def test_both_tables_build_the_same_teacher_box() -> None:
    """One TeacherBox (widgets/table/shell.py): the same controls, labels and order on both tables,
    with the teacher's controls and on a student's page (only New deal and Large print)."""
    teacher = ["Teacher walkthrough", "Show every hand", "Next move", "Restart this deal",
               "New deal", "Large print", "Deal code", "Deal this code"]
    hit = HitMeTable(players=3, seed=5, bot_delay=0, walkthrough=True)
    flap = FlapjackTable(players=3, seed=5, bot_delay=0, walkthrough=True)
    for t in (hit, flap):
        assert [w.description for w in t.teacher_box.controls()] == teacher
        assert t.teacher_box.bar in t.children and t.teacher_box.more in t.children
        assert "No computer moves yet" in t.last_reason_html.value
        assert t.code_text.value == "5"  # the walkthrough shows the deal code
        t.next_move_button.click()
        assert "Last move:" in t.last_reason_html.value
        t.walkthrough_toggle.value = False  # the same switch: Next move and reasons go away
        assert t.next_move_button.layout.display == "none" and t.reasons_html.value == ""
        assert t.reveal_toggle.layout.display == "none" and t.last_reason_html.value == ""
        t.code_text.value = "class-5b"
        t.replay_button.click()
        assert t.deal_code == "class-5b" and "deal code class-5b" in t.message.value
    for t in (HitMeTable(players=3, seed=5, bot_delay=0),
              FlapjackTable(players=3, seed=5, bot_delay=0)):
        assert [w.description for w in t.teacher_box.controls()] == ["New deal", "Large print"]
        assert t.teacher_box.more is None and t.teacher_box.bar in t.children
        code = t.deal_code
        t.new_deal_button.click()
        assert t.deal_code != code


def test_practice_page_within_budget() -> None:
    """The practice page: the student's name bar, the skill picker (a button per skill, one
    shared layout) and one question's answer rows."""
    from widgets.lessons.practice import practice_page

    practice_page()  # the shared stylesheet, layouts and styles, made once a kernel
    models = _new_models(practice_page)
    assert 20 < len(models) <= PRACTICE_PAGE_BUDGET, len(models)


def test_a_lessons_re_check_with_nothing_due_loads_light() -> None:
    """A lesson page's re-check while nobody is named (or nothing is due) makes none of its
    question's parts; they come when a re-check is due."""
    from widgets.lessons.practice import Recheck

    Recheck(lesson=3)  # the shared stylesheet, layouts and styles, made once a kernel
    models = _new_models(lambda: Recheck(lesson=3))
    assert len(models) <= RECHECK_IDLE_BUDGET, [type(m).__name__ for m in models]
