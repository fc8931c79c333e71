"""The exit ticket: auto-checked questions, feedback, a score and a code; every button checks
the state in the kernel, and forged values are refused with a message."""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest
from helpers import story_numbers

from engine.flapjack import FlapjackConfig
from widgets.lessons import course
from widgets.lessons import exit_ticket as et
from widgets.lessons.exit_ticket import ExitTicket, Item, code_for, decode


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
    size = ticket.items[0].answer  # |-11| on paper: the student's own number
    ticket.entry.value = f"-{size}"  # the sign kept: the classic mistake
    assert ticket.check_typed() is False
    # a distance is shown without a sign: "11", never "+11"
    assert f"the answer is {size}." in ticket.feedback.value
    # the mistake's own feedback, at once (in place of the item's general tip)
    assert "drop the sign" in ticket.feedback.value and "Tip" not in ticket.feedback.value
    assert f"+{size}" not in ticket.feedback.value
    ticket.entry.value = str(size)
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
    for text, says in (("minus six", "in digits"), ("", "whole number"), ("1e3", "whole number"),
                       ("9" * 20, "too long"), ("--6", "One sign is enough"),
                       ("6-", "sign goes before")):
        ticket.entry.value = text
        assert ticket.check_typed() is None
        assert says in ticket.status.value, text
    assert ticket.choose(0) is None and "Type this answer" in ticket.status.value
    before = ticket.status.value
    ticket.next_button.click()  # disabled in the page: a forged click runs no handler
    assert ticket.status.value == before and ticket.index == 0
    ticket.next_question()  # called directly, the action still says why
    assert "Answer this question first" in ticket.status.value and ticket.index == 0
    assert ticket.marks == []
    ticket.entry.value = f"\u2212{-ticket.items[0].answer}"  # a typographic minus is fine
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
    assert "L2-RXRRR" in et.answer_key() and "Lesson 6" in et.answer_key()


def test_ticket_answers_agree_with_the_rules() -> None:
    """The worked figures of the printed tickets, recomputed: Flapjack limits and sums."""
    cfg = FlapjackConfig(players=2)
    assert -5 + 5 in cfg.targets and -5 + 4 not in cfg.targets and -5 - 6 not in cfg.targets
    assert 10 + 12 > cfg.high and 10 + 4 > cfg.high and cfg.low <= 10 - 2 <= cfg.high
    items = {i.prompt: i for i in et.TICKETS[course.by_file("05_flapjack.ipynb").number]}
    assert items["The total is +10. Which card may you play?"].answer == "2\u2665 (-2)"
    assert items["The total is -9. You play K\u2663 (+13). What is the new total?"].answer \
        == -9 + 13
    closer = [i for i in et.TICKETS[2] if i.prompt.startswith("Which is closer")]
    # the ticket's closer-to-zero questions: a negative number closer, and a tie
    assert sorted(i.answer for i in closer) == sorted(["-2", "Same distance"])


NUMBER = re.compile(r"[+-]\d+")


def _all_items() -> list[tuple[int, Item]]:
    return [(lesson, item) for lesson, items in et.TICKETS.items() for item in items]


@pytest.mark.parametrize(("lesson", "item"), [
    (lesson, item) for lesson, item in _all_items() if item.prompt.startswith("Work out")])
def test_every_worked_answer_is_the_arithmetic(lesson: int, item: Item) -> None:
    """"Work out -5 - (-2)." and the like: the answer is the expression, computed."""
    expression = item.prompt.removeprefix("Work out ").rstrip(".")
    assert re.fullmatch(r"[-+() \d]+", expression), expression
    assert item.answer == eval(expression), (lesson, item.prompt)  # digits and signs only


def _greater_items() -> list[Item]:
    return [item for _lesson, item in _all_items()
            if item.prompt.startswith(("Which is greater", "Which is the greatest",
                                       "Which is true"))]


def test_which_is_greater_is_not_passed_by_closer_to_zero() -> None:
    """A student who believes "closer to zero is greater" gets every item with a positive
    number wrong, one who believes "of two negatives the farther is greater" the comparison of
    two negatives, and one who compares the digits only ("-6 is greater than -1") the three-way
    one; each such pick is named."""
    items = _greater_items()
    assert len(items) >= 3
    assert any(all(t < 0 for t in i.shape.terms) for i in items)  # two negatives compared
    for item in items:
        assert item.shape is not None and item.shape.kind == "greater"
        terms = item.shape.terms
        belief = (max(terms, key=abs) if all(t < 0 for t in terms) else min(terms, key=abs))
        pick = item.choices[item.picks.index(belief)]
        assert pick != item.answer, item.prompt
        assert item.mistake(pick) == ("farther-is-greater" if all(t < 0 for t in terms)
                                      else "closer-is-greater")
        if item.prompt == "Which is true?":
            continue
        numbers = [int(c) for c in item.choices if NUMBER.fullmatch(c)]
        right = max(numbers)
        assert item.answer == f"{right:+d}", item.prompt
        closest = min(numbers, key=abs)
        assert closest != right, f"{item.prompt}: passable by 'closer to zero is greater'"
    three = next(i for i in items if len(i.choices) == 3 and i.prompt.startswith("Which is the"))
    by_size = max((int(c) for c in three.choices), key=abs)
    assert f"{by_size:+d}" != three.answer


def test_tickets_separate_the_misconceptions() -> None:
    """The items the guide's misconception list needs: the sign of a sum before it is worked
    out, a greater item beside a closer-to-zero item on the same two numbers, subtracting a
    negative, and the sum whose sign a student guesses from the first card."""
    prompts = {item.prompt: item for _lesson, item in _all_items()}
    sign = prompts["Before you work it out: is -9 + (+4) positive, negative or zero?"]
    assert sign.answer == "Negative" and -9 + 4 < 0
    # "Positive" is the sign of +4, the card closer to zero: named; "Zero" is not a named mistake
    assert sign.mistake("Positive") == "sign-of-closer"
    assert sign.mistake("Zero") is None and sign.mistake("Negative") is None
    assert sign.given_text(sign.given_data("Positive")) == "Positive"
    assert prompts["Which is closer to zero: -2 or +5?"].answer == "-2"
    assert prompts["Which is the greatest: -2, +5 or -7?"].answer == "+5"
    assert prompts["Work out -5 - (-2)."].answer == -3  # not +3, not -7
    assert prompts["Work out +3 + (-8)."].answer == -5  # not +5


def test_sizes_are_shown_without_a_sign() -> None:
    """Distances, absolute values and percentages are shown as 11, 8, 20; a signed answer
    keeps its sign (+5, -10)."""
    sizes = [item for _lesson, item in _all_items() if item.size]
    assert {item.answer_text for item in sizes} >= {"11", "8", "20", "3"}
    for item in sizes:
        assert not item.answer_text.startswith("+"), item.prompt
    for lesson, item in _all_items():
        words = item.prompt.lower()
        keys = ("distance", "absolute", "|", "percent", "score")
        if not item.choices and any(k in words for k in keys):
            assert item.size, (lesson, item.prompt)
    with pytest.raises(ValueError):
        Item("How far?", -3, size=True)
    assert Item("Work out 2 - 7.", -5).answer_text == "-5"


def test_the_strategy_ticket_reads_a_chart_and_asks_an_integer() -> None:
    """The strategy lab: a question answered from the chart (its prompt states no percentage), and
    an integer question (the |sum| of two cards)."""
    items = et.TICKETS[course.by_file("06_strategy_lab.ipynb").number]
    chart = items[0]
    assert "chart" in chart.prompt and "%" not in chart.prompt
    from widgets.lessons.strategy import hit_table, hold_table

    hold = hold_table(4, rounds=100_000, seed=1, progress=False).chance[3]
    hit = hit_table(4, rounds=100_000, seed=1, progress=False).chance[3]
    assert chart.answer == "The blue dot (hit)" and hit > hold + 0.1
    assert "about 24%" in chart.why and round(100 * hit) == 24
    assert "about 9%" in chart.why and round(100 * hold) == 9
    # at |sum| 2 the bar and the dot are "about the same", the third choice's figure
    hold2 = hold_table(4, rounds=100_000, seed=1, progress=False).chance[2]
    hit2 = hit_table(4, rounds=100_000, seed=1, progress=False).chance[2]
    assert "About the same" in chart.choices and abs(hit2 - hold2) < 0.02
    integer = next(i for i in items if "2\u2660 (+2)" in i.prompt)
    assert integer.answer == abs(-5 + 2)


def test_two_students_at_one_device_get_a_code_each() -> None:
    """Pairs share a device: after the first code, "Next student at this device" starts the
    same questions again; the first code stays on the page and each student's score is their
    own. Before the end the button is not on the page, and called anyway it changes nothing."""
    ticket = ExitTicket(3)
    ticket.start()
    ticket.next_student()
    assert "Finish the exit ticket first" in ticket.status.value and ticket.index == 0
    for right in (True,) * len(ticket.items):
        _answer(ticket, right)
        ticket.next_question()
    first = ticket.code
    assert first == "L3-RRRRR" and ticket.again_button in ticket.children
    ticket.again_button.click()
    assert ticket.index == 0 and ticket.marks == [] and not ticket.finished
    assert ticket.again_button not in ticket.children and ticket.result not in ticket.children
    for right in (False, True, True, True, False):
        _answer(ticket, right)
        ticket.next_question()
    assert ticket.code == "L3-XRRRX" and ticket.score == 3
    assert f"students before at this device: {first}" in ticket.result.value
    assert ticket.codes == [first]


def test_no_choice_item_is_passed_by_guessing_half_the_time() -> None:
    """Every item with choices has at least three, so a guess is right at most one time in
    three; no prompt names the method it asks for ("its distance from zero")."""
    for lesson, item in _all_items():
        if item.choices:
            assert len(item.choices) >= 3, (lesson, item.prompt)
        assert "(its distance from zero)" not in item.prompt, (lesson, item.prompt)



def test_lesson_4_asks_for_the_zero_pair_move() -> None:
    """Lesson 4's ticket asks how to take away a card the hand does not hold: the right choice
    is the zero pair of that card (its value with both signs); one distractor is a zero pair of
    another card, one a single card that changes the hand's worth; the question does not say
    "zero pair" (it would give the answer away), in English or in Spanish."""
    from widgets.lessons.exit_ticket import TICKETS

    item = next(i for i in TICKETS[4] if "zero pair" in i.why)
    values = [[int(v) for v in re.findall(r"\(([+-]\d+)\)", c)] for c in item.choices]
    right = values[item.choices.index(item.answer)]
    assert sorted(right) == [-5, 5] and "(-5)" in item.prompt
    others = [v for c, v in zip(item.choices, values, strict=True) if c != item.answer]
    assert any(sum(v) == 0 and -5 not in v for v in others)  # a zero pair, not the card's
    assert any(sum(v) != 0 for v in others)  # the hand's worth would change
    assert "+8" in item.why  # where the hand ends: +3 - (-5)
    for lang, pair in (("en", "zero pair"), ("es", "par cero")):
        t = ExitTicket(lesson=4, lang=lang)
        t.start()
        while t.items[t.index].family != item.family:  # the questions before it, answered
            if t.items[t.index].choices:
                t.choose(0)
            else:
                t.entry.value = "0"
                t.check_typed()
            t.next_question()
        hand, away = t.items[t.index].numbers  # the student's own numbers
        assert pair not in t.prompt.value.lower() and f"{hand:+d}" in t.prompt.value
        assert f"({away:+d})" in t.prompt.value
        shown = [b.description for b in t.choice_buttons if b.layout.display != "none"]
        assert len(shown) == 3 and t.items[t.index].answer in shown  # made in the language
        assert (lang == "en") == (" and " in t.items[t.index].answer)


def test_who_wins_a_round_names_the_least_wins_mistake() -> None:
    """Lesson 3's "Who wins?" items are closer-to-zero questions: picking the least sum is
    named (the lesser taken as closer), picking the greatest or a wrong tie is not."""
    from widgets.lessons.exit_ticket import TICKETS

    ana_ben_cam, dee_eli = [i for i in TICKETS[3] if i.prompt.endswith("Who wins?")]
    assert ana_ben_cam.mistake("Cam") == "lesser-is-closer"
    assert ana_ben_cam.mistake("Ana") is None and ana_ben_cam.mistake("Ben") is None
    assert dee_eli.mistake("Dee") == "lesser-is-closer" and dee_eli.mistake("Eli") is None


VARIANTS = range(1, 301)
# the choices in words whose numbers vary: what each option stands for stays
WORD_CHOICES = {
    "Before you work it out: is -9 + (+4) positive, negative or zero?":
        ("Positive", "Negative", "Zero"),
    "Final sums: Ana +3, Ben -1, Cam -4. Who wins?": ("Ana", "Ben", "Cam"),
    "Final sums: Dee -2, Eli +2. Who wins?": ("Dee", "Eli", "They tie"),
    "Which is true?": None,  # statements: "-9 > -2", "-9 < -2", "-9 = -2"
}
CARD_RANK = re.compile(r"(10|[2-9AJQK])[\u2660\u2663\u2665\u2666]")  # a card's rank and suit
ODD_SIGNS = re.compile(r"[+-]\s*[+-]\s*\d|\(\s|\s\)|\{|\}")


def _reads_naturally(item: Item, variant: int, index: int, lang: str) -> None:
    """The item with other numbers, made in a language: signs written once, no field left
    unfilled, each number in the prompt signed, the question mark of the language, the
    prompt's numbers the item's own."""
    from widgets.words import speaking

    with speaking(lang):
        new = et.vary(item, variant, index)
        prompt = et.shown(new.prompt)
        shown_choices = [et.shown(c) for c in new.choices]
    assert not ODD_SIGNS.search(prompt), prompt
    numbers_only = CARD_RANK.sub("", prompt).replace("|", " ")
    assert not re.search(r"(?<![\w|+-])\d", numbers_only), prompt  # all signed, or a card
    assert prompt.endswith("?"), prompt
    if lang == "es":
        assert "¿" in prompt or prompt.endswith("= ?"), prompt  # a question, or an equation
        assert not re.search(r"\b(Which|Who|Work|positive|distance)\b", prompt), prompt
    if new.prompt != item.prompt:
        assert story_numbers(prompt) == list(new.shape.terms), prompt
    for old_label, label in zip(item.choices, shown_choices, strict=True):
        if not any(c.isdigit() for c in old_label):  # words stay words
            with speaking(lang):
                assert label == et.shown(old_label)


def test_every_varied_item_is_right_keeps_its_traps_and_reads_naturally() -> None:
    """Over 300 variants, every item that takes other numbers (typed, a choice among
    numbers, a choice in words): the right answer is the one the question's words give
    (worked out from the prompt as a student reads it), the right choice is at the same
    place, each wrong choice shows the same mistake as on the ticket's own numbers, a choice
    stored and read back is the same choice, and the question reads naturally in English and
    in Spanish."""
    from helpers import ticket_answer

    varied: dict[str, int] = {}
    for items in et.TICKETS.values():
        for i, item in enumerate(items):
            if item.shape is None:  # see the next test
                continue
            for variant in VARIANTS:
                new = et.vary(item, variant, i)
                if new is item:
                    continue
                varied[item.prompt] = varied.get(item.prompt, 0) + 1
                assert new.shape.kind == item.shape.kind
                worked = ticket_answer(new.prompt, new.choices)
                assert (worked if new.choices else int(worked)) == new.answer, new.prompt
                assert new.why and new.why != item.why
                if new.choices:
                    assert new.choices.index(new.answer) == item.choices.index(item.answer)
                    assert [new.mistake(c) for c in new.choices] == \
                        [item.mistake(c) for c in item.choices], new.prompt
                    assert [new.given_text(new.given_data(c)) for c in new.choices] == \
                        list(new.choices)
                else:
                    assert new.mistake(new.answer) is None
                    assert (new.answer > 0) == (item.answer > 0)
                for lang in ("en", "es") if variant % 3 == 0 else ("en",):
                    _reads_naturally(item, variant, i, lang)
    # every item with a shape but one kept for its words varies, nearly every time
    shaped = [it for items in et.TICKETS.values() for it in items if it.shape is not None]
    assert set(varied) == {it.prompt for it in shaped}
    assert min(varied.values()) >= 0.95 * len(VARIANTS)
    assert set(WORD_CHOICES) <= set(varied)


def test_items_without_a_shape_get_other_numbers_or_another_order() -> None:
    """A red card's value, the zero-pair move, the card that makes a Flapjack, the card that
    may be played and a fair share take other numbers of their own family, each right by the
    question's words (worked out as a student reads them) and by the game's rules; the same
    numbers make the same item again (the dashboard's key). The other choices come in other
    orders; a choice stored and read back, on the item as the dashboard remakes it, is the
    same choice."""
    from helpers import ticket_answer

    cfg = FlapjackConfig(players=2)
    seen: dict[str, set[tuple[int, ...]]] = {}
    orders: dict[str, set[tuple[str, ...]]] = {}
    for lesson, items in et.TICKETS.items():
        for i, item in enumerate(items):
            if item.shape is not None:
                continue
            if item.family:
                assert et.made(item.family, item.numbers) == item  # the printed item
            for variant in VARIANTS:
                new = et.vary(item, variant, i)
                assert new.family == item.family and new.shape is None
                orders.setdefault(item.prompt, set()).add(new.choices)
                question = new.question(lesson, i + 1)
                assert question.kind == "ticket" and question.terms == new.numbers
                # as the dashboard remakes it
                again = et.with_numbers(item, new.numbers) if item.family else item
                assert again is not None and set(again.choices) == set(new.choices)
                assert [again.given_text(new.given_data(c)) for c in new.choices] == \
                    list(new.choices)
                if not item.family:
                    assert new.prompt == item.prompt and new.answer == item.answer
                    continue
                seen.setdefault(item.family, set()).add(new.numbers)
                worked = ticket_answer(new.prompt, new.choices)
                assert (worked if new.choices else int(worked)) == new.answer, new.prompt
                if item.family == "flapjack-card":
                    total = new.numbers[0]
                    values = [story_numbers(c)[0] for c in new.choices]
                    assert [total + v in cfg.targets for v in values].count(True) == 1
                    assert all(cfg.low <= total + v <= cfg.high for v in values)
                elif item.family == "may-play":
                    total = new.numbers[0]
                    legal = [cfg.low <= total + story_numbers(c)[0] <= cfg.high
                             for c in new.choices]
                    assert legal == [c == new.answer for c in new.choices]
                elif item.family == "zero-pair-move":
                    hand, away = new.numbers
                    assert f"{hand - away:+d}." in new.why and away < 0
                for lang in ("en", "es") if variant % 10 == 0 else ():
                    from widgets.words import speaking

                    with speaking(lang):
                        words = et.vary(item, variant, i)
                    assert (words.answer in words.choices) == bool(item.choices)
                    assert "{" not in words.prompt + words.why and words.prompt.endswith("?")
                    if lang == "es":
                        assert words.prompt.startswith("¿") or "¿" in words.prompt
    assert set(seen) == {"red-card", "zero-pair-move", "flapjack-card", "may-play", "fair-share"}
    assert all(len(numbers) >= 3 for numbers in seen.values()), seen  # fair shares: 3 others
    assert all(len(o) >= 6 for o in orders.values() if () not in o)  # every order of three


def test_choices_in_words_keep_their_words_and_follow_the_numbers() -> None:
    """"Positive", "Negative", "Zero"; a player's name; "They tie": the words stay and what
    each stands for follows the new numbers. A statement "-9 > -2" gets the new numbers."""
    items = {item.prompt: (i, item) for items in et.TICKETS.values()
             for i, item in enumerate(items)}
    for prompt, words in WORD_CHOICES.items():
        i, item = items[prompt]
        seen = set()
        for variant in VARIANTS:
            new = et.vary(item, variant, i)
            seen.add(new.prompt + "|".join(new.choices))
            if words is not None:
                assert new.choices == words and new.answer == item.answer
            else:
                a, b = new.shape.terms
                assert new.choices == (f"{a:+d} > {b:+d}", f"{a:+d} < {b:+d}",
                                       f"{a:+d} = {b:+d}")
                assert a < b < 0 and new.answer == f"{a:+d} < {b:+d}"
        assert len(seen) >= 8, prompt  # many different questions
    sign = items["Before you work it out: is -9 + (+4) positive, negative or zero?"][1]
    new = et.vary(sign, 7, 2)
    far, near = new.shape.terms
    assert far < 0 < near < -far
    assert new.prompt == (f"Before you work it out: is {far:+d} + ({near:+d}) positive, "
                          "negative or zero?")
    # "Positive" stands for the sum with the sign of the card closer to zero: named
    assert new.picks == (-(far + near), far + near, 0)
    assert new.mistake("Positive") == "sign-of-closer" and new.mistake("Zero") is None


def test_a_first_take_has_numbers_of_its_own() -> None:
    """An unnamed student's first take already has other numbers than the printed ticket's,
    drawn from the system's randomness (SystemRandom: nobody can work them out beforehand),
    so that neighbours do not share answers; the ticket's own numbers stay in the printed
    key."""
    from widgets.lessons.student import Student

    class Drawn:
        def randint(self, low: int, high: int) -> int:
            assert (low, high) == (1, et.MAX_VARIANT)
            return 4242

    tickets = []
    for _n in range(2):
        t = ExitTicket(1, student=Student())
        t.start()
        tickets.append(t)
    first, second = tickets
    assert all(v for v, it in zip(first.variants, first.items, strict=True) if it.shape)
    assert [it.shape.terms for it in first.items if it.shape] != \
        [it.shape.terms for it in first.base_items if it.shape]
    assert first.variants != second.variants
    import random as random_module

    original = random_module.SystemRandom
    random_module.SystemRandom = Drawn  # type: ignore[misc, assignment]
    try:
        t = ExitTicket(2, student=Student())
        t.start()
    finally:
        random_module.SystemRandom = original  # type: ignore[misc]
    assert set(t.variants) == {4242}
    assert t.items == tuple(et.vary(it, 4242, i) for i, it in enumerate(t.base_items))
    assert "Before you work it out: is -9 + (+4) positive, negative or zero?" in et.answer_key()
    assert all(et.vary(it, 0, i) is it for items in et.TICKETS.values()
               for i, it in enumerate(items))


def test_a_template_gives_the_prompt_with_its_own_numbers() -> None:
    with pytest.raises(ValueError, match="template"):
        Item("Final sums: Dee -2, Eli +2. Who wins?", "They tie", ("Dee", "Eli", "They tie"),
             shape=et.Shape("closer", (-2, 2)), picks=(-2, 2, 0),
             template="Final sums: Eli {0}, Dee {1}. Who wins?")


def test_an_absolute_value_of_a_sum_keeps_the_sums_sign() -> None:
    """|+7 + (-10)|: the sum is negative on every student's numbers, so that giving it with
    its sign (-3) stays a named mistake for all of them."""
    item = next(it for it in et.TICKETS[2] if it.shape and it.shape.kind == "abs-sum")
    for variant in VARIANTS:
        new = et.vary(item, variant, 4)
        assert sum(new.shape.terms) < 0
        assert new.mistake(-new.answer) == "abs-kept-sign"
