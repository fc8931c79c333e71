"""The exit ticket: auto-checked questions, feedback, a score and a code; every button checks
the state in the kernel, and forged values are refused with a message."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from engine.flapjack import FlapjackConfig
from widgets import exit_ticket as et
from widgets.exit_ticket import ExitTicket, Item, code_for, decode


def _answer(ticket: ExitTicket, right: bool) -> None:
    item = ticket.items[ticket.index]
    if item.choices:
        want = item.choices.index(item.answer)
        ticket.choice_buttons[want if right else (want + 1) % len(item.choices)].click()
    else:
        ticket.entry.value = str(item.answer if right else item.answer + 1)
        ticket.check_button.click()


@pytest.mark.parametrize("lesson", sorted(et.TICKETS))
def test_every_ticket_scores_a_full_run(lesson: int) -> None:
    ticket = ExitTicket(lesson)
    assert 3 <= len(ticket.items) <= 5
    ticket.start_button.click()
    pattern = [i % 2 == 0 for i in range(len(ticket.items))]
    for right in pattern:
        _answer(ticket, right)
        assert ("Right" in ticket.feedback.value) == right
        assert ticket.next_button.disabled is False
        ticket.next_button.click()
    assert ticket.finished and ticket.score == sum(pattern)
    assert ticket.code == code_for(lesson, pattern)
    assert f"Score: {sum(pattern)} of {len(pattern)}" in ticket.result.value
    assert ticket.code in ticket.result.value
    assert decode(ticket.code) == (lesson, pattern)


def test_the_page_loads_one_button_until_start() -> None:
    ticket = ExitTicket(2)
    assert not et.LazyPart.built(ticket, "body")
    buttons = [c for c in ticket.children if isinstance(c, widgets.Button)]
    assert [b.description for b in buttons] == ["Start the exit ticket"]
    ticket.start()
    assert ticket.body in ticket.children and ticket.start_button not in ticket.children


def test_first_answer_counts_and_wrong_answers_explain() -> None:
    ticket = ExitTicket(2)
    ticket.start()
    ticket.entry.value = "-11"  # |-11| is 11: the classic mistake
    assert ticket.check_typed() is False
    assert "the answer is +11" in ticket.feedback.value and "Tip" in ticket.feedback.value
    ticket.entry.value = "11"
    assert ticket.check_typed() is None  # answered: a second try does not count
    assert "press Next question" in ticket.status.value
    assert ticket.marks == [False]


def test_every_button_is_guarded_and_forged_values_refused() -> None:
    ticket = ExitTicket(1)
    # before Start: the actions say what to do and change nothing
    assert ticket.check_typed() is None and "Start" in ticket.status.value
    assert ticket.choose(0) is None
    ticket.next_question()
    assert "no next question" in ticket.status.value and ticket.index == -1
    ticket.start()
    ticket.start()
    assert "already started" in ticket.status.value and ticket.index == 0
    # question 1 is typed: nonsense, a choice button, Next before answering
    for text in ("minus six", "", "1e3", "9" * 20, "--6"):
        ticket.entry.value = text
        assert ticket.check_typed() is None
        assert "whole number" in ticket.status.value
    assert ticket.choose(0) is None and "Type this answer" in ticket.status.value
    before = ticket.status.value
    ticket.next_button.click()  # disabled in the page: a forged click runs no handler
    assert ticket.status.value == before and ticket.index == 0
    ticket.next_question()  # called directly, the action still says why
    assert "Answer this question first" in ticket.status.value and ticket.index == 0
    assert ticket.marks == []
    ticket.entry.value = "\u22126"  # a typographic minus is fine
    assert ticket.check_typed() is True
    ticket.next_question()
    # question 2 is a choice: forged indexes and a typed answer are refused
    for forged in (7, -1, True, "1", None, 1.0):
        assert ticket.choose(forged) is None
        assert "Choose one of the buttons" in ticket.status.value
    ticket.entry.value = "-2"
    assert ticket.check_typed() is None and "buttons" in ticket.status.value
    assert ticket.marks == [True]
    for _ in range(len(ticket.items) - 1):
        _answer(ticket, True)
        ticket.next_question()
    assert ticket.finished and ticket.code == "L1-RRRRR"
    assert ticket.choose(0) is None and "finished" in ticket.status.value
    ticket.next_question()
    assert ticket.code == "L1-RRRRR"


def test_tickets_are_checked_when_made() -> None:
    with pytest.raises(ValueError):
        ExitTicket(99)
    with pytest.raises(ValueError):
        ExitTicket(1, items=[Item("1 + 1?", 2)])  # too few
    with pytest.raises(ValueError):
        Item("Pick", "c", ("a", "b"))
    with pytest.raises(ValueError):
        Item("Type", "7")


def test_decode_reads_codes_and_refuses_others() -> None:
    assert decode("l3-rrxrr") == (3, [True, True, False, True, True])
    for bad in ("", "L3", "L3-RRQ", "3-RRR", "Lx-RRR", "L3-RR", "L3-RRRRRR"):
        assert decode(bad) is None
    assert "L2-RXRRR" in et.answer_key() and "Lesson 5" in et.answer_key()


def test_ticket_answers_agree_with_the_rules() -> None:
    """The worked figures of the tickets, recomputed: Flapjack limits and sums."""
    cfg = FlapjackConfig(players=2)
    assert -5 + 5 in cfg.targets and -5 + 4 not in cfg.targets and -5 - 6 not in cfg.targets
    assert 10 + 12 > cfg.high
    items = {i.prompt: i for i in et.TICKETS[4]}
    assert items["The total is -9. You play a black king (+13). What is the new total?"].answer \
        == -9 + 13
    closer = [i for i in et.TICKETS[2] if i.choices]
    answers = [i.answer for i in closer]
    # the ticket's closer-to-zero questions are balanced too: a negative, a tie, a positive
    assert sorted(answers) == sorted(["-2", "Same distance", "+4"])
