"""Exit tickets: a few auto-checked questions at the end of each lesson, with feedback, a score
and a short code the student reads out or writes down.

One question at a time; the first answer to each question is the one that counts (a typing slip,
such as a word where a number is wanted, gets a message and does not count). After each answer
the ticket says whether it was right and why. At the end it shows the score and a code such as
`L2-RXRRR`: the lesson number, then one letter per question in order, R for right and X for not
right. The teacher guide explains how to read it.

Each student answers with numbers of their own, so that neighbours' answers are not each
other's: the typed questions (a story keeps its words: cards, totals) and the choices whose
numbers follow (`vary`) get other numbers of the same skill that set the same traps; a
question without a shape is made by its family from numbers of its own (a red card's value,
the zero-pair move, the card that makes a Flapjack or may be played, a fair share), and a
choice in words alone gets its choices in another order. A named student's numbers are
seeded by their name, the day and the lesson; an unnamed student's cannot be worked out
beforehand. The printed ticket (the teacher guide, the kit) has the ticket's own numbers.

On a served page the ticket asks the student's first name once (widgets/lessons/student.py,
remembered
on the device for the day), and every answer goes to the class's store with the mistake it
shows (engine/mistakes.py, from each question's `shape`): the teacher's class view shows
them.

Light at load: a line of text and one Start button; the questions are built when the student
presses Start. Every button checks the state in the kernel, so a click forged on a disabled
button, or a value typed into the page's developer tools, gets a message and changes nothing.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as w

from engine.cards import RANK_LABELS, signed
from engine.mistakes import CHOICE_KINDS, Shape, classify
from engine.questions import NumberRefused, Question, parse_number
from widgets.page.in_browser import IN_BROWSER
from widgets.page.language import N_, check_lang, speaks
from widgets.table.components import (
    check_on_enter,
    html_widget,
    make_button,
    shared_layout,
    style_widget,
)
from widgets.table.render import esc
from widgets.table.shell import LazyPart
from widgets.words import (
    _,
    mistake_feedback,
    ngettext,
    number_refused_text,
    paren_signed,
    question_text,
    sum_terms,
)

MIN_ITEMS, MAX_ITEMS = 3, 5
MAX_CHOICES = 4
ACTIVITY = "exit-ticket"  # what an exit ticket's answers are filed under in the class's store


@dataclass(frozen=True)
class Item:
    """One question: a typed whole number (`choices` empty, `answer` an int) or a choice among
    `choices` (`answer` is the right label). `why` explains the right answer; `hint` is added
    to the feedback after a wrong answer. `size`: the typed answer is a distance, an absolute
    value, a count or a percentage, shown without a sign (11, not +11). `shape`: what the
    question asks of which numbers, so that a wrong answer's mistake can be named; for a
    choice, `picks` gives the number each choice stands for (0: "the same"). `template`: the
    prompt of a choice in words with fields for other numbers of `shape` ({0}, {1}, ...: the
    numbers, signed; {sum}: them added, '-9 + (+4)'; {h0}, {r1}, ...: a number's card rank, in
    Hit Me (A to 10) or Flapjack (A to K)), for a typed item too, see `vary`. `family`: an item
    without a shape made from its `numbers` by a generator of its own (FAMILIES: a card's
    value, the zero-pair move, a Flapjack card to play, a fair share), so that it gets other
    numbers too; `places`: where each choice stood before its choices were put in another
    order (an answer is stored as that place)."""

    prompt: str
    answer: int | str
    choices: tuple[str, ...] = ()
    why: str = ""
    hint: str = ""
    size: bool = False
    shape: Shape | None = None
    picks: tuple[int, ...] = ()
    template: str = ""
    family: str = ""
    numbers: tuple[int, ...] = ()
    places: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.choices:
            if not 2 <= len(self.choices) <= MAX_CHOICES or self.answer not in self.choices:
                raise ValueError(f"{self.prompt!r}: the answer must be one of 2 to "
                                 f"{MAX_CHOICES} choices")
        elif not isinstance(self.answer, int) or isinstance(self.answer, bool):
            raise ValueError(f"{self.prompt!r}: a typed answer must be a whole number")
        elif self.size and self.answer < 0:
            raise ValueError(f"{self.prompt!r}: a size (distance, count) is never negative")
        if self.shape is not None and self.choices:
            if (len(self.picks) != len(self.choices)
                    or self.picks[self.choices.index(self.answer)] != self.shape.answer):
                raise ValueError(f"{self.prompt!r}: one pick a choice, the right one "
                                 f"{self.shape.answer}")
        elif self.shape is not None and self.shape.answer != self.answer:
            raise ValueError(f"{self.prompt!r}: its shape gives {self.shape.answer}, not the "
                             f"answer {self.answer!r}")
        elif self.picks and self.shape is None:
            raise ValueError(f"{self.prompt!r}: picks stand for numbers of a shape")
        if self.template and (self.shape is None
                              or fill(self.template, self.shape.terms) != self.prompt):
            raise ValueError(f"{self.prompt!r}: its template with its own numbers is its "
                             f"prompt")
        if self.family and (self.shape is not None or self.family not in FAMILIES
                            or not self.numbers):
            raise ValueError(f"{self.prompt!r}: a family ({', '.join(FAMILIES)}) makes an "
                             f"item without a shape from its numbers")
        if self.places and sorted(self.places) != list(range(1, len(self.choices) + 1)):
            raise ValueError(f"{self.prompt!r}: places are the choices' places before their "
                             f"order changed")

    def question(self, lesson: int, number: int) -> Question:
        """This item as data: its shape's kind and numbers ('ticket' without one)."""
        if self.shape is None:
            return Question("ticket", self.numbers, lesson, str(number))
        return Question(self.shape.kind, self.shape.terms, lesson, str(number))

    def given_data(self, given: int | str) -> str:
        """An answer as stored: a typed number ('+5', '11'); for a choice the number it stands
        for, else its place among the choices ('2')."""
        if not self.choices:
            return str(given)
        i = self.choices.index(given)
        if self.picks:
            return str(self.picks[i])
        return str(self.places[i] if self.places else i + 1)

    def given_text(self, data: str) -> str:
        """An answer as stored, as the reader sees it (a choice's words in the language in
        use)."""
        if not self.choices:
            return data
        try:
            if self.picks:
                i = self.picks.index(int(data))
            else:
                i = self.places.index(int(data)) if self.places else int(data) - 1
        except ValueError:
            return data
        return shown(self.choices[i]) if 0 <= i < len(self.choices) else data

    def mistake(self, given: int | str) -> str | None:
        """The mistake an answer shows: a typed number, or a choice's label."""
        if self.shape is None:
            return None
        if self.choices:
            if given not in self.choices:
                return None
            return classify(self.shape, self.picks[self.choices.index(given)])
        return classify(self.shape, given) if type(given) is int else None

    @property
    def answer_text(self) -> str:
        """The right answer as shown, in the language in use."""
        if self.choices:
            return shown(str(self.answer))
        return str(self.answer) if self.size else signed(self.answer)


VARIED_KINDS = ("sum", "difference", "abs", "abs-sum", "distance")
MAX_VARIANT = 999_999
MAX_SIZE = 12  # the largest size of a varied number (a card's rank, the queen)
SIGNED_NUMBER = re.compile(r"[+-]\d+")


def _same_pattern(old: tuple[int, ...], new: tuple[int, ...]) -> bool:
    """The same signs, the same order, the same equal sizes and zero pairs: the same traps."""
    pairs = [(i, j) for i in range(len(old)) for j in range(len(old)) if i < j]
    return (all((a > 0) == (b > 0) and (a < 0) == (b < 0) for a, b in zip(old, new, strict=True))
            and all((old[i] < old[j]) == (new[i] < new[j])
                    and (abs(old[i]) == abs(old[j])) == (abs(new[i]) == abs(new[j]))
                    and (old[i] == -old[j]) == (new[i] == -new[j]) for i, j in pairs)
            and new != old)


def _same_sizes_order(old: tuple[int, ...], new: tuple[int, ...]) -> bool:
    """Which of two numbers is closer to zero stays the same."""
    return all((abs(old[i]) < abs(old[j])) == (abs(new[i]) < abs(new[j]))
               for i in range(len(old)) for j in range(len(old)) if i != j)


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def choice_label(kind: str, option: int) -> str:
    """A generated choice's label as the ticket keeps it (translated when shown)."""
    return N_("Same distance") if kind == "closer" and option == 0 else signed(option)


def _numbers_are_choices(item: Item) -> bool:
    """A choice among the item's numbers (and "Same distance"): its words come from them."""
    shape = item.shape
    return (shape is not None and shape.kind in CHOICE_KINDS
            and all(p in shape.terms or (p == 0 and shape.kind == "closer") for p in item.picks)
            and item.choices == tuple(choice_label(shape.kind, p) for p in item.picks))


def _pick_follows(pick: int, shape: Shape) -> bool:
    """A choice's pick is one of the numbers, 0 ("the same", "zero"), or the answer or its
    opposite ("Negative" and "Positive" of a sum): it follows the numbers when they change."""
    return pick in shape.terms or pick == 0 or abs(pick) == abs(shape.answer)


def _new_pick(pick: int, old: Shape, new: Shape) -> int:
    if pick in old.terms:
        return new.terms[old.terms.index(pick)]
    if pick == 0:
        return 0
    return new.answer if pick == old.answer else -new.answer


def _label_follows(label: str, shape: Shape) -> bool:
    """A choice's words stay ("Negative", a player's name); a label of signs and numbers only
    ("-9 > -2", "+4") has the item's numbers, which change with them."""
    if not any(c.isdigit() for c in label):
        return True
    if any(c.isalpha() for c in label):
        return False
    numbers = SIGNED_NUMBER.findall(label)
    return (all(int(n) in shape.terms for n in numbers)
            and len("".join(numbers)) == sum(c.isdigit() or c in "+-" for c in label))


def _new_label(label: str, old: tuple[int, ...], new: tuple[int, ...]) -> str:
    if not any(c.isdigit() for c in label):
        return label
    return SIGNED_NUMBER.sub(lambda m: signed(new[old.index(int(m.group()))]), label)


HIT_ME_RANKS = range(1, 11)  # a Hit Me card's rank as a story writes it (face cards count 10)
FLAPJACK_RANKS = range(1, 14)


def rank_label(size: int) -> str:
    """A card's rank as printed: A, 2 to 10, J, Q, K."""
    return RANK_LABELS.get(size, str(size))


def fill(template: str, terms: tuple[int, ...]) -> str:
    """A template with the numbers `terms`: {0}, {1}, ... the numbers, signed; {sum} them
    added ('-9 + (+4)'); {h0}, {h1}, ... a number's rank as a Hit Me card (A to 10), {r0},
    {r1}, ... as a Flapjack card (A to K). KeyError when a number is no such card; in a
    Flapjack story (an {r} field) a total past -13 or +13 is no story either."""
    fields: dict[str, str] = {"sum": sum_terms(terms)}
    for i, t in enumerate(terms):
        if abs(t) in HIT_ME_RANKS:
            fields[f"h{i}"] = rank_label(abs(t))
        if abs(t) in FLAPJACK_RANKS:
            fields[f"r{i}"] = rank_label(abs(t))
    if "{r" in template and (abs(sum(terms)) > 13 or abs(terms[0]) > 13):
        raise KeyError("a Flapjack total stays between -13 and +13")
    return template.format(*(signed(n) for n in terms), **fields)


def card_face(value: int, suit: str = "") -> str:
    """A card's rank and suit: '5\u2660', 'Q\u2666' (black cards +, red cards -; spades and
    hearts unless another `suit` is given)."""
    symbol = suit or ("\u2660" if value > 0 else "\u2665")
    return f"{rank_label(abs(value))}{symbol}"


def card_text(value: int, suit: str = "") -> str:
    """A card named by its rank, suit and value: '5\u2660 (+5)', 'Q\u2666 (-12)'."""
    return f"{card_face(value, suit)} ({signed(value)})"


# ----- items without a shape that still take other numbers: each made by its family ---------
# A family makes its item from numbers (`numbers`, stored with each answer as the question's
# terms) in the language spoken now, and draws other numbers that set the same traps. The
# ticket's own item is written out below (the printed ticket, translated as a whole); a test
# checks that its family makes the same item from its numbers.
@dataclass(frozen=True)
class Family:
    """How a family draws other numbers, and makes its item from numbers (None: numbers that
    are not this family's)."""

    draw: Callable[[random.Random], tuple[int, ...]]
    make: Callable[[tuple[int, ...]], Item | None]


def _red_card_value(numbers: tuple[int, ...]) -> Item | None:
    (value,) = numbers
    if not -10 <= value <= -2:
        return None
    rank = str(-value)
    return Item(_("What is the value of a red {rank} (black cards +, red cards -)?").format(
                    rank=rank), value,
                why=_("Red cards count negative, so a red {rank} is {value}.").format(
                    rank=rank, value=signed(value)),
                hint=_("Which colour is negative?"), family="red-card", numbers=numbers)


def _zero_pair_move(numbers: tuple[int, ...]) -> Item | None:
    """A hand worth `hand`; the card `away` (negative) to take away is not in it: its zero
    pair goes in first. The wrong choices: the opposite card alone (the hand's worth
    changes), and a zero pair of the hand's own size."""
    hand, away = numbers
    if not (away < 0 and 2 <= -away <= 10 and 1 <= abs(hand) <= 9 and abs(hand) != -away):
        return None
    taken, kept = card_text(away), card_text(-away)
    pair = _("{first} and {second}")
    right = pair.format(first=kept, second=taken)
    choices = (_("{card} alone").format(card=kept), right,
               pair.format(first=card_text(abs(hand)), second=card_text(-abs(hand))))
    return Item(
        _("A hand is worth {hand} and has no {card} in it. To take {card} away, what do you "
          "put in first, so that the hand is still worth {hand}?").format(
              hand=signed(hand), card=taken), right, choices,
        why=_("{kept} and {taken} are a zero pair: together they add 0, so the hand is still "
              "{hand}. Then {taken} is taken away and {kept} stays: {hand} - ({away}) = {hand} "
              "+ ({opposite}) = {result}.").format(
                  kept=kept, taken=taken, hand=signed(hand), away=signed(away),
                  opposite=signed(-away), result=signed(hand - away)),
        hint=_("A zero pair is a card and its opposite: together they add 0, and one of them "
               "must be the card to take away."), family="zero-pair-move", numbers=numbers)


def _flapjack_card(total: int) -> tuple[int, int, int] | None:
    """The card that makes a Flapjack on `total` and two that do not, in the order shown: a
    card one short, the right card, and one of the wrong sign (or, to 0, one too far)."""
    size, sign = abs(total), _sign(total)
    if 2 <= size <= 5:  # to 0
        return -sign * (size - 1), -total, sign * (size + 1)
    if 7 <= size <= 11:  # to -13 or +13
        return sign * (12 - size), sign * (13 - size), -sign * (13 - size)
    return None


def _makes_flapjack(numbers: tuple[int, ...]) -> Item | None:
    (total,) = numbers
    cards = _flapjack_card(total)
    if cards is None:
        return None
    short, right, wrong = cards
    suits = ("\u2660", "\u2665") if total < 0 else ("\u2663", "\u2666")
    labels = tuple(card_text(c, suits[c < 0]) for c in cards)
    return Item(_("The total is {total}. Which card makes a Flapjack?").format(
                    total=signed(total)), labels[1], labels,
                why=_("{total} + ({card}) = {flapjack}, a Flapjack. The others make {first} "
                      "and {second}.").format(
                          total=signed(total), card=signed(right),
                          flapjack=signed(total + right), first=signed(total + short),
                          second=signed(total + wrong)),
                hint=_("A Flapjack is a total of exactly -13, 0 or +13."),
                family="flapjack-card", numbers=numbers)


def _may_play(numbers: tuple[int, ...]) -> Item | None:
    """On a total near a limit, the card that may be played among two that would pass it."""
    total, big, over, right = numbers
    sign = _sign(total)
    if not (8 <= abs(total) <= 11 and _sign(big) == _sign(over) == sign == -_sign(right)
            and abs(total + over) == 14 and 14 < abs(total + big) and abs(big) <= 12
            and 1 <= abs(right) <= 6):
        return None
    suits = ("\u2663", "\u2660") if sign > 0 else ("\u2666", "\u2665")
    labels = (card_text(big, suits[0]), card_text(over, suits[1]), card_text(right))
    return Item(_("The total is {total}. Which card may you play?").format(total=signed(total)),
                labels[2], labels,
                why=_("{total} + ({card}) = {new} stays within the limits; {first} would make "
                      "{first_total} and {second} {second_total}, past the limit {limit}.").format(
                          total=signed(total), card=signed(right), new=signed(total + right),
                          first=card_face(big, suits[0]), first_total=signed(total + big),
                          second=card_face(over, suits[1]), second_total=signed(total + over),
                          limit=signed(13 * sign)),
                hint=_("The total must stay between -13 and +13."),
                family="may-play", numbers=numbers)


FAIR_PLAYERS = (2, 4, 5, 10)  # tables whose fair share is a whole percentage


def _fair_share(numbers: tuple[int, ...]) -> Item | None:
    (players,) = numbers
    if players not in FAIR_PLAYERS:
        return None
    share = 100 // players
    return Item(_("What is the fair share of wins with {n} players, in percent?").format(
                    n=players), share, size=True,
                why=_("1 round in {n} is {share}%.").format(n=players, share=share),
                hint=_("One round in how many?"), family="fair-share", numbers=numbers)


def _draw_may_play(rng: random.Random) -> tuple[int, ...]:
    sign = rng.choice((1, -1))
    total = rng.randint(8, 11)
    over = 14 - total
    return (sign * total, sign * rng.randint(over + 2, 12), sign * over,
            -sign * rng.randint(1, 6))


FAMILIES: dict[str, Family] = {
    "red-card": Family(lambda rng: (-rng.randint(2, 10),), _red_card_value),
    "zero-pair-move": Family(
        lambda rng: (rng.choice((1, -1)) * rng.randint(1, 9), -rng.randint(2, 10)),
        _zero_pair_move),
    "flapjack-card": Family(
        lambda rng: (rng.choice((1, -1)) * rng.choice((2, 3, 4, 5, 7, 8, 9, 10, 11)),),
        _makes_flapjack),
    "may-play": Family(_draw_may_play, _may_play),
    "fair-share": Family(lambda rng: (rng.choice(FAIR_PLAYERS),), _fair_share),
}


def made(family: str, numbers: tuple[int, ...]) -> Item | None:
    """The item of `family` on `numbers`, in the language spoken now; None for numbers (or a
    family) there is no such item of."""
    maker = FAMILIES.get(family)
    if maker is None:
        return None
    try:
        return maker.make(tuple(numbers))
    except ValueError:  # the wrong count of numbers
        return None


def reordered(item: Item, rng: random.Random) -> Item:
    """A choice without a shape with its choices in another order (the same words for every
    student, so neighbours do not share a place); each choice keeps its place before for the
    store (`places`). An item with a shape keeps its order: its choices follow its numbers."""
    if not item.choices or item.shape is not None or item.places:
        return item
    order = list(range(len(item.choices)))
    rng.shuffle(order)
    return Item(item.prompt, item.answer, tuple(item.choices[i] for i in order), why=item.why,
                hint=item.hint, size=item.size, family=item.family, numbers=item.numbers,
                places=tuple(i + 1 for i in order))


def varies(item: Item) -> bool:
    """Whether the item takes other numbers of the same skill (see `vary`): a typed item of a
    kind in VARIED_KINDS; a choice whose prompt and choices hold only its shape's numbers
    (its prompt written from them, or a `template`, or no number in it), each choice standing
    for a number that follows them."""
    shape = item.shape
    if shape is None:
        return bool(item.family)
    if not item.choices:
        return shape.kind in VARIED_KINDS
    if _numbers_are_choices(item):
        return True
    return (all(_pick_follows(p, shape) for p in item.picks)
            and all(_label_follows(c, shape) for c in item.choices)
            and bool(item.template or not any(c.isdigit() for c in item.prompt)))


def worked(shape: Shape) -> str:
    """A question's numbers worked out, in signs and numbers only ('-9 + (+4) = -5.'): the
    explanation of an item with other numbers."""
    t, answer = shape.terms, shape.answer
    if shape.kind == "sum":
        line = f"{sum_terms(t)} = {signed(answer)}"
    elif shape.kind == "abs":
        line = f"|{signed(t[0])}| = {answer}"
    elif shape.kind == "abs-sum":
        line = f"|{sum_terms(t)}| = |{signed(sum(t))}| = {answer}"
    elif shape.kind == "difference":
        line = (f"{signed(t[0])} - {paren_signed(t[1])} = {signed(t[0])} + "
                f"{paren_signed(-t[1])} = {signed(answer)}")
    elif shape.kind == "distance":
        line = f"|{signed(t[1])} - {paren_signed(t[0])}| = |{signed(t[1] - t[0])}| = {answer}"
    elif shape.kind == "closer":
        line = ", ".join(f"|{signed(n)}| = {abs(n)}" for n in t)
    else:  # greater, less: the numbers in order on the number line
        line = " < ".join(signed(n) for n in sorted(t))
    return line + "."


def with_numbers(item: Item, terms: tuple[int, ...]) -> Item | None:
    """The item with the numbers `terms` in place of its shape's, in the language spoken now:
    its prompt written from them (its `template`; a typed item's or a choice among numbers'
    own words), its choices' numbers and picks following them, the answer worked out from
    them. None when the item does not vary or these numbers would not set its traps: other
    signs, order or equal sizes, another sign of the answer, another choice right, or a wrong
    choice showing another mistake."""
    if not varies(item):
        return None
    if item.shape is None:
        return item if tuple(terms) == item.numbers else made(item.family, terms)
    old = item.shape
    if terms == old.terms:
        return item
    if (len(terms) != len(old.terms) or not _same_pattern(old.terms, terms)
            or item.choices and not _same_sizes_order(old.terms, terms)):
        return None
    try:
        shape = Shape(old.kind, terms, old.both)
    except ValueError:
        return None
    if _sign(shape.answer) != _sign(old.answer) or (
            old.kind == "abs-sum" and _sign(sum(terms)) != _sign(sum(old.terms))):
        return None  # the answer's sign; an absolute value's sum's sign (its traps)
    hint = item.hint if item.hint and not any(c.isdigit() for c in shown(item.hint)) else ""
    why = worked(shape)
    if not item.choices:
        if item.template:  # a story: its words stay, with the new numbers
            try:
                prompt = fill(_(item.template), terms)
            except KeyError:  # a number that is no card of the story's game
                return None
            return Item(prompt, shape.answer, size=item.size, shape=shape, hint=hint, why=why)
        question = question_text(shape.kind, terms)
        return Item(question if shape.kind == "distance" else
                    _("Work out: {question}").format(question=question),
                    shape.answer, size=item.size, shape=shape, hint=hint, why=why)
    if _numbers_are_choices(item):
        prompt = question_text(shape.kind, terms)
    elif item.template:
        try:
            prompt = fill(_(item.template), terms)
        except KeyError:
            return None
    else:
        prompt = item.prompt
    picks = tuple(_new_pick(p, old, shape) for p in item.picks)
    choices = tuple(_new_label(c, old.terms, terms) for c in item.choices)
    if len(set(choices)) != len(choices) or len(set(picks)) != len(picks):
        return None
    try:
        new = Item(prompt, choices[item.choices.index(item.answer)], choices, why=why,
                   hint=hint, shape=shape, picks=picks)
    except ValueError:  # the same place is no longer the right answer
        return None
    if [classify(shape, p) for p in picks] != [classify(old, p) for p in item.picks]:
        return None
    return new


def vary(item: Item, variant: int, index: int) -> Item:
    """The item with other numbers of the same skill (variant 0: the item itself), drawn by a
    generator seeded by the variant and the item's place (`index`): see `with_numbers`. The
    numbers keep their signs, order and equal sizes, the answer its sign (and, for a choice,
    which is closer to zero, and each choice the mistake it shows), so the item sets the same
    traps. An item of a family gets its family's other numbers; a choice without a shape,
    its choices in another order (`reordered`)."""
    if not variant:
        return item
    rng = random.Random(variant * 10 + index)
    if item.shape is None:
        if item.family:
            maker = FAMILIES[item.family]
            for _try in range(100):
                numbers = tuple(maker.draw(rng))
                if numbers != item.numbers and (other := made(item.family, numbers)):
                    return reordered(other, rng)
        return reordered(item, rng)
    if not varies(item):
        return item
    old = item.shape.terms
    for _try in range(500):
        new = tuple(0 if t == 0 else _sign(t) * rng.randint(1, MAX_SIZE) for t in old)
        if _same_pattern(old, new):
            varied = with_numbers(item, new)
            if varied is not None:
                return varied
    return item


def variant_for(name: str, day: str, lesson: int, take: int, activity: str = ACTIVITY) -> int:
    """The variant of a named student's take of a ticket: seeded by the student, the day, the
    lesson, the take (0 the first, then each retake's number) and the activity (an exit
    ticket, or a unit check on the same page: each its own numbers); 1 to MAX_VARIANT."""
    seed = f"{name.casefold()}|{day}|{lesson}|{take}"
    if activity != ACTIVITY:
        seed += f"|{activity}"
    digest = hashlib.sha256(seed.encode()).digest()
    return int.from_bytes(digest[:8], "big") % MAX_VARIANT + 1


def unforeseen_variant() -> int:
    """A variant nobody can work out beforehand (an unnamed student's numbers): from the
    system's source of randomness, not a seeded generator."""
    return random.SystemRandom().randint(1, MAX_VARIANT)


def shown(text: str) -> str:
    """A ticket's text (marked with N_ where it is written) in the language in use. Choices
    that are not words (-7, 8♠ (+8), a name) have no entry and stay as they are."""
    return _(text) if text else ""


def code_for(lesson: int, marks: Sequence[bool]) -> str:
    """The code a student reads out: 'L2-RXRRR' (lesson 2; questions 1, 3, 4, 5 right)."""
    return f"L{lesson}-" + "".join("R" if m else "X" for m in marks)


def decode(code: str) -> tuple[int, list[bool]] | None:
    """(lesson, right or not for each question) from a code, or None if it is not one."""
    text = str(code).strip().upper().replace(" ", "")
    if not text.startswith("L") or "-" not in text:
        return None
    number, _, marks = text[1:].partition("-")
    if not number.isdigit() or not MIN_ITEMS <= len(marks) <= MAX_ITEMS or set(marks) - {"R", "X"}:
        return None
    return int(number), [m == "R" for m in marks]


# ----- the tickets of the lessons (the teacher guide prints them with their answers) ----------
# keyed by the lesson's number in the unit (widgets/lessons/course.py), in that order
TICKETS: dict[int, tuple[Item, ...]] = {
    1: (
        Item(N_("What is the value of a red 6 (black cards +, red cards -)?"), -6,
             why=N_("Red cards count negative, so a red 6 is -6."),
             hint=N_("Which colour is negative?"), family="red-card", numbers=(-6,)),
        # "closer to zero is greater" picks -1, "the bigger digit is greater" picks -6
        Item(N_("Which is the greatest: -6, -1 or +4?"), "+4", ("-6", "-1", "+4"),
             shape=Shape("greater", (-6, -1, 4)), picks=(-6, -1, 4),
             why=N_("+4 is the farthest to the right on the number line, so it is the "
                    "greatest, even though -1 is closer to zero."),
             hint=N_("Greater means farther to the right on the number line.")),
        # each choice stands for a sum of its sign: "Positive" (+5) is the sign of the card
        # closer to zero, "Zero" (0) no named mistake
        Item(N_("Before you work it out: is -9 + (+4) positive, negative or zero?"),
             N_("Negative"), (N_("Positive"), N_("Negative"), N_("Zero")),
             shape=Shape("sum", (-9, 4)), picks=(5, -5, 0),
             template=N_("Before you work it out: is {sum} positive, negative or zero?"),
             why=N_("The -9 pulls 9 to the left and the +4 only 4 to the right, so the sum is "
                    "left of zero: -9 + (+4) = -5."),
             hint=N_("Which card is farther from zero? Its sign wins.")),
        Item(N_("Work out +3 + (-8)."), -5,
             why=N_("Start at +3 and move 8 to the left: you land on -5 (not +5)."),
             hint=N_("A negative card moves you to the left."), shape=Shape("sum", (3, -8))),
        Item(N_("Work out -3 + (-4) + (+3)."), -4,
             why=N_("-3 and +3 are a zero pair, so -4 is left."),
             hint=N_("Look for a zero pair first."), shape=Shape("sum", (-3, -4, 3))),
    ),
    2: (
        Item(N_("What is |-11|?"), 11, size=True,
             why=N_("-11 is 11 steps from zero, and a distance is never negative."),
             hint=N_("An absolute value is a distance."), shape=Shape("abs", (-11,))),
        Item(N_("Which is closer to zero: -2 or +5?"), "-2", ("-2", "+5", N_("Same distance")),
             shape=Shape("closer", (-2, 5)), picks=(-2, 5, 0),
             why=N_("|-2| = 2 and |+5| = 5, so -2 is closer to zero."),
             hint=N_("Compare the distances from zero, not which number is greater.")),
        # beside the closer-to-zero item on -2 and +5: "closer to zero is greater" answers -2
        # twice, "farther from zero is greater" picks -7
        Item(N_("Which is the greatest: -2, +5 or -7?"), "+5", ("-2", "+5", "-7"),
             shape=Shape("greater", (-2, 5, -7)), picks=(-2, 5, -7),
             why=N_("+5 is the farthest to the right, so it is the greatest, even though -2 is "
                    "closer to zero and -7 is farther from zero."),
             hint=N_("Greater is not the same as closer to zero.")),
        Item(N_("Which is closer to zero: +6 or -6?"), N_("Same distance"),
             ("+6", "-6", N_("Same distance")), shape=Shape("closer", (6, -6)), picks=(6, -6, 0),
             why=N_("|+6| = |-6| = 6: both are 6 steps from zero."),
             hint=N_("How far is each one from zero?")),
        Item(N_("A hand holds +7 and -10. What is the absolute value of its sum?"), 3,
             size=True,
             why=N_("The sum is +7 + (-10) = -3, and |-3| = 3."),
             hint=N_("Add with the signs first, then take the distance from zero."),
             shape=Shape("abs-sum", (7, -10)),
             template=N_("A hand holds {0} and {1}. What is the absolute value of its sum?")),
    ),
    3: (
        Item(N_("In Hit Me your cards are 6\u2663 and 9\u2666. What is your sum?"), -3,
             why=N_("+6 + (-9) = -3."), hint=N_("Black cards are +, red cards are -."),
             shape=Shape("sum", (6, -9)),
             template=N_("In Hit Me your cards are {h0}\u2663 and {h1}\u2666. What is your "
                         "sum?")),
        Item(N_("What is your score with a sum of -3?"), 3, size=True,
             why=N_("|-3| = 3."), hint=N_("A score is a distance, never negative."),
             shape=Shape("abs", (-3,)), template=N_("What is your score with a sum of {0}?")),
        # the sum closest to zero wins: "the least wins" picks Cam, "the greatest wins" Ana
        Item(N_("Final sums: Ana +3, Ben -1, Cam -4. Who wins?"), "Ben", ("Ana", "Ben", "Cam"),
             shape=Shape("closer", (3, -1, -4)), picks=(3, -1, -4),
             template=N_("Final sums: Ana {0}, Ben {1}, Cam {2}. Who wins?"),
             why=N_("The scores are 3, 1 and 4: Ben's -1 is the closest to zero."),
             hint=N_("Compare the distances from zero.")),
        Item(N_("Your sum is -2. You hit and get 5\u2660 (+5). What is your new sum?"), 3,
             why=N_("-2 + (+5) = +3."), hint=N_("Start at -2 and move 5 to the right."),
             shape=Shape("sum", (-2, 5)),
             template=N_("Your sum is {0}. You hit and get {h1}\u2660 ({1}). What is your new "
                         "sum?")),
        Item(N_("Final sums: Dee -2, Eli +2. Who wins?"), N_("They tie"),
             ("Dee", "Eli", N_("They tie")), shape=Shape("closer", (-2, 2)), picks=(-2, 2, 0),
             template=N_("Final sums: Dee {0}, Eli {1}. Who wins?"),
             why=N_("|-2| = |+2| = 2: they tie and share the round."),
             hint=N_("How far is each sum from zero?")),
    ),
    4: (
        Item(N_("Work out -5 - (-2)."), -3,
             why=N_("Subtracting -2 is adding its opposite: -5 + (+2) = -3. (Not +3: two "
                    "minus signs side by side do not make the answer positive.)"),
             hint=N_("Subtract by adding the opposite."), shape=Shape("difference", (-5, -2))),
        Item(N_("Work out -4 - (+6)."), -10,
             why=N_("Subtracting +6 is adding -6: -4 + (-6) = -10, 6 more to the left."),
             hint=N_("Subtract by adding the opposite."), shape=Shape("difference", (-4, 6))),
        # the zero-pair move: a card not in the hand is taken away after its zero pair is put in
        Item(N_("A hand is worth +3 and has no 5\u2665 (-5) in it. To take 5\u2665 (-5) away, "
                "what do you put in first, so that the hand is still worth +3?"),
             N_("5\u2660 (+5) and 5\u2665 (-5)"),
             (N_("5\u2660 (+5) alone"), N_("5\u2660 (+5) and 5\u2665 (-5)"),
              N_("3\u2660 (+3) and 3\u2665 (-3)")),
             why=N_("5\u2660 (+5) and 5\u2665 (-5) are a zero pair: together they add 0, so the "
                    "hand is still +3. Then 5\u2665 (-5) is taken away and 5\u2660 (+5) stays: "
                    "+3 - (-5) = +3 + (+5) = +8."),
             hint=N_("A zero pair is a card and its opposite: together they add 0, and one of "
                     "them must be the card to take away."),
             family="zero-pair-move", numbers=(3, -5)),
        Item(N_("What is the distance between -3 and +5 on the number line?"), 8, size=True,
             why=N_("|+5 - (-3)| = |+8| = 8: 3 steps to zero, then 5 more."),
             hint=N_("The distance between p and q is |p - q|."),
             shape=Shape("distance", (-3, 5))),
        # of two negative numbers, "the one farther from zero is greater" picks -9 > -2
        Item(N_("Which is true?"), "-9 < -2", ("-9 > -2", "-9 < -2", "-9 = -2"),
             why=N_("-9 is to the left of -2, so -9 is less: -9 < -2, even though 9 is more "
                    "than 2."),
             hint=N_("Less means farther to the left on the number line."),
             shape=Shape("greater", (-9, -2)), picks=(-9, -2, 0)),
    ),
    5: (
        Item(N_("In Flapjack the total is +6. You play 8\u2665 (-8). What is the new total?"),
             -2,
             why=N_("+6 + (-8) = -2."), hint=N_("A red card moves the total to the left."),
             shape=Shape("sum", (6, -8)),
             template=N_("In Flapjack the total is {0}. You play {r1}\u2665 ({1}). What is the "
                         "new total?")),
        Item(N_("The total is -5. Which card makes a Flapjack?"), "5\u2660 (+5)",
             ("4\u2660 (+4)", "5\u2660 (+5)", "6\u2665 (-6)"),
             why=N_("-5 + (+5) = 0, a Flapjack. The others make -1 and -11."),
             hint=N_("A Flapjack is a total of exactly -13, 0 or +13."),
             family="flapjack-card", numbers=(-5,)),
        Item(N_("The total is +10. Which card may you play?"), "2\u2665 (-2)",
             ("Q\u2663 (+12)", "4\u2660 (+4)", "2\u2665 (-2)"),
             why=N_("+10 + (-2) = +8 stays within the limits; Q\u2663 would make +22 and "
                    "4\u2660 +14, past the limit +13."),
             hint=N_("The total must stay between -13 and +13."),
             family="may-play", numbers=(10, 12, 4, -2)),
        Item(N_("The total is -9. You play K\u2663 (+13). What is the new total?"), 4,
             why=N_("-9 + (+13) = +4."), hint=N_("Start at -9 and move 13 to the right."),
             shape=Shape("sum", (-9, 13)),
             template=N_("The total is {0}. You play {r1}\u2663 ({1}). What is the new "
                         "total?")),
    ),
    6: (
        Item(N_("Look at the chart of Experiment 1 (4 players). At |sum| 3, which is higher: "
                "the red bar (hold) or the blue dot (hit)?"), N_("The blue dot (hit)"),
             (N_("The red bar (hold)"), N_("The blue dot (hit)"), N_("About the same")),
             why=N_("At |sum| 3 the dot (hitting, about 24%) is well above the bar (holding, "
                    "about 9%): with 4 players, hit at 3. (At |sum| 2 they are about the "
                    "same.)"),
             hint=N_("Find 3 on the bottom axis, then compare the bar and the dot above it.")),
        Item(N_("What is the fair share of wins with 5 players, in percent?"), 20, size=True,
             why=N_("1 round in 5 is 20%."), hint=N_("One round in how many?"),
             family="fair-share", numbers=(5,)),
        Item(N_("Your first two cards are 5\u2665 (-5) and 2\u2660 (+2). At which |sum| of "
                "the chart's bottom axis do you look?"), 3, size=True,
             why=N_("-5 + (+2) = -3, and |-3| = 3."),
             hint=N_("Add with the signs, then take the distance from zero."),
             shape=Shape("abs-sum", (-5, 2)),
             template=N_("Your first two cards are {h0}\u2665 ({0}) and {h1}\u2660 ({1}). At "
                         "which |sum| of the chart's bottom axis do you look?")),
        Item(N_("Two players tie for the lowest score. How much of a win does each get?"),
             N_("Half a win"), (N_("A whole win"), N_("Half a win"), N_("Nothing")),
             why=N_("A tie is shared: with two winners each counts half a win."),
             hint=N_("The round is shared between the winners.")),
        Item(N_("With more players at the table, the sum you need to win is..."),
             N_("Closer to zero"),
             (N_("Closer to zero"), N_("Farther from zero"), N_("The same")),
             why=N_("More players means more chances that someone gets close to zero."),
             hint=N_("Look at Experiment 3.")),
    ),
}


def answer_key() -> str:
    """Every lesson's exit ticket with its answers, and how to read a code (for the guide)."""
    lines = [_("A code reads L<lesson>-<one letter per question>: R right at the first answer, "
               "X not right."),
             _("Example: L2-RXRRR is lesson 2, question 2 missed, score 4 of 5."), ""]
    for lesson, items in TICKETS.items():
        lines.append(_("Lesson {lesson}").format(lesson=lesson))
        for i, item in enumerate(items, start=1):
            lines.append(f"  {i}. {shown(item.prompt)}  "
                         + _("Answer: {answer}").format(answer=item.answer_text))
    return "\n".join(lines)


class ExitTicket(w.VBox):
    """The exit ticket of `lesson` (or the given `items`): Start, then one question at a time.

    A unit check (widgets/lessons/unit_check.py) is this ticket with more questions, its own
    activity in the class's store, its own words (WORDS) and its own code."""

    activity = ACTIVITY
    min_items, max_items = MIN_ITEMS, MAX_ITEMS
    dom_class = "icg-exit-ticket"  # the page's keyboard help (play-focus.js) knows it
    # the sentences that name the activity, translated where they are shown
    WORDS = {
        "title": N_("Exit ticket, lesson {lesson}:"),
        "start": N_("Start the exit ticket"),
        "again": N_("start the exit ticket again for the next student; the code above stays "
                    "on the page"),
        "started": N_("The exit ticket has already started."),
        "finish first": N_("Finish the exit ticket first: then the next student can start."),
        "press start": N_("Press Start the exit ticket first."),
        "finished": N_("The exit ticket is finished: read out your code."),
        "code": N_("Read it out or write it down for your teacher: the number after L is the "
                   "lesson, then one letter per question (R right, X not right)."),
    }

    # built when the student presses Start (LazyPart): the page loads one button
    (prompt, entry, check_button, choice_buttons, choice_row, typed_row, feedback, next_button,
     body) = LazyPart.group("_build", 9)
    # a message about a click that cannot be done now, and the score: made when first shown
    (status,) = LazyPart.group("_build_status", 1)
    (result, again_button) = LazyPart.group("_build_result", 2)

    @speaks
    def __init__(self, lesson: int, items: Sequence[Item] | None = None, *,
                 lang: str | None = None, student: Any = None) -> None:
        """`student`: who answers (a widgets.lessons.student.Student; default: the page's)."""
        self.lang = check_lang(lang)
        self.student = student
        chosen = tuple(items) if items is not None else TICKETS.get(lesson)
        if not chosen:
            raise ValueError(f"no exit ticket for lesson {lesson!r}; there are tickets for "
                             f"lessons {', '.join(map(str, TICKETS))}")
        if not self.min_items <= len(chosen) <= self.max_items:
            raise ValueError(f"{self.activity}: {self.min_items} to {self.max_items} questions; "
                             f"got {len(chosen)}")
        self.lesson = lesson
        self.base_items = chosen
        self.items = chosen
        # each question's numbers: 0 the ticket's own (as printed), else a variant (`vary`)
        self.variants = [0] * len(chosen)
        self.retakes = 0
        self.repeated: set[str] = set()  # items this named student has had a first try at
        self.index = -1  # -1: not started; len(items): finished
        self.marks: list[bool] = []
        self.answered = False
        self.codes: list[str] = []  # the codes of the students before, on this device
        self.name_bar: Any = None  # who answers (widgets/lessons/student.py), made on Start
        self.header = html_widget(
            "<b>" + esc(_(self.WORDS["title"]).format(lesson=lesson)) + "</b> "
            + esc(_("{n} questions. Your first answer to each one counts.").format(
                n=len(chosen))))
        self.start_button = make_button(_(self.WORDS["start"]), self.start,
                                        button_style="primary")
        # the name the device remembers reaches the kernel at load (widgets/lessons/student.py)
        self.recall: Any = None
        if not IN_BROWSER:
            from widgets.lessons.student import NameRecall

            self.recall = NameRecall(lesson, student=student)
        super().__init__([style_widget(), self.header, self.start_button,
                          *([self.recall] if self.recall is not None else [])],
                         layout=shared_layout(), _dom_classes=("icg-root", self.dom_class))
        if self.activity == ACTIVITY:
            from widgets.page.live_gate import note_exit_ticket

            note_exit_ticket(self)  # the live class's "Open the exit ticket" shows this one

    def __repr__(self) -> str:  # not ipywidgets' walk through every child's traits
        return f"<{type(self).__name__} lesson {self.lesson}>"

    def _build_status(self) -> None:
        self.status = html_widget()

    def _build_result(self) -> None:
        self.result = html_widget()
        # two students at one device: each takes the ticket in turn and gets a code
        self.again_button = make_button(_("Next student at this device"), self.next_student,
                                        tooltip=_(self.WORDS["again"]))

    def _clear_status(self) -> None:
        if LazyPart.built(self, "status"):
            self.status.value = ""

    # ----- parts made on Start -----------------------------------------------------------
    @speaks
    def _build(self) -> None:
        self.prompt = html_widget()
        self.entry = w.Text(placeholder=_("a whole number"), description=_("Answer:"),
                            layout=shared_layout(width="14em"), continuous_update=False)
        self.check_button = make_button(_("Check"), self.check_typed, button_style="primary")
        check_on_enter(self.entry, self.check_button)
        self.choice_buttons = [make_button("", lambda i=i: self.choose(i), own_layout=True)
                               for i in range(MAX_CHOICES)]
        # own layouts: these rows are shown and hidden question by question
        self.choice_row = w.HBox(self.choice_buttons)
        self.typed_row = w.HBox([self.entry, self.check_button])
        self.feedback = html_widget()
        self.next_button = make_button(_("Next question"), self.next_question)
        self.body = w.VBox([self.prompt, self.typed_row, self.choice_row, self.feedback,
                            self.next_button])

    def _layout_children(self) -> None:
        parts = [style_widget(), self.header]
        if self.name_bar is not None:
            parts.append(self.name_bar)
        if self.index < 0:
            parts.append(self.start_button)
        elif LazyPart.built(self, "body") and self.index < len(self.items):
            parts.append(self.body)
        if self.recall is not None:
            parts.append(self.recall)
        shown = ("status", "result", "again_button") if self.finished else ("status",)
        self.children = [*parts, *(self.__dict__[n] for n in shown if LazyPart.built(self, n))]

    # ----- actions (buttons call these; tests too) ---------------------------------------
    @speaks
    def start(self) -> None:
        if self.index >= 0:
            self._say(_(self.WORDS["started"]))
            return
        self.index = 0
        if not IN_BROWSER:
            from widgets.lessons.student import NameBar

            self.name_bar = NameBar(self.lesson, student=self.student, lang=self.lang)
            self.name_bar.student.listeners.append(self._named)
        if self._resume():
            return
        self._choose_numbers(0)
        self._show_item()

    @speaks
    def check_typed(self) -> bool | None:
        """Check the typed answer of the current question."""
        item = self._current()
        if item is None:
            return None
        if item.choices:
            self._say(_("This question is answered with one of the buttons."))
            return None
        try:
            n = parse_number(self.entry.value)
        except NumberRefused as e:
            self._say(number_refused_text(e.code))
            return None
        return self._record(n == item.answer, signed(n) if not item.size else str(n),
                            item.mistake(n))

    @speaks
    def choose(self, index: Any) -> bool | None:
        """Answer the current question with choice number `index` (0 first)."""
        item = self._current()
        if item is None:
            return None
        if not item.choices:
            self._say(_("Type this answer in the box, then press Check."))
            return None
        if isinstance(index, bool) or not isinstance(index, int) \
                or not 0 <= index < len(item.choices):
            self._say(_("Choose one of the buttons."))
            return None
        choice = item.choices[index]
        return self._record(choice == item.answer, item.given_data(choice), item.mistake(choice))

    @speaks
    def next_question(self) -> None:
        if self.index < 0 or self.index >= len(self.items):
            self._say(_("There is no next question now."))
            return
        if not self.answered:
            self._say(_("Answer this question first."))
            return
        self.index += 1
        if self.index == len(self.items):
            self._finish()
        else:
            self._show_item()

    @speaks
    def next_student(self) -> None:
        """After a finished ticket: the same questions, with numbers of their own, for the next
        student at this device. The codes of the students before stay listed on the page."""
        if not self.finished:
            self._say(_(self.WORDS["finish first"]))
            return
        self.codes.append(self.code or "")
        if self.name_bar is not None:
            # the next student names themselves; an unnamed student's answers are not theirs
            self.name_bar.student.forget_waiting()
            self.name_bar.change()
        self.index = 0
        self.marks = []
        self._choose_numbers(0)
        self._show_item()

    # ----- each student's numbers --------------------------------------------------------
    def _choose_numbers(self, first: int) -> None:
        """Numbers for the questions from `first` on, so that neighbours' answers are not each
        other's. A named student's are seeded by their name, the day and the lesson (a reload
        before answering shows the same numbers); when they answered this ticket today before
        this take (another page, a reload, the same student again at this device) they get a
        retake's numbers, and those answers are not first tries again. An unnamed student's
        numbers cannot be worked out beforehand."""
        student = self.name_bar.student if self.name_bar is not None else None
        if student is not None and student.names:
            from widgets.lessons.student import today

            self.repeated = student.first_tried(self.lesson, self.activity)
            # this take's questions before `first`, answered before the student named
            # themselves, are no retake
            if self.repeated - {str(i + 1) for i in range(first)}:
                self.retakes += 1
                take = self.retakes
            else:
                take = 0
            variant = variant_for(student.names[0], today(student.clock()), self.lesson, take,
                                  self.activity)
        else:
            self.repeated = set()
            variant = unforeseen_variant()
        self._set_numbers(variant, first)

    def _set_numbers(self, variant: int, first: int) -> None:
        """The questions from `first` on with the numbers of `variant` (`vary`)."""
        items, variants = list(self.items), list(self.variants)
        for i in range(first, len(self.base_items)):
            items[i] = vary(self.base_items[i], variant, i)
            variants[i] = 0 if items[i] is self.base_items[i] else variant
        self.items, self.variants = tuple(items), variants

    @speaks
    def _named(self) -> None:
        """A student named themselves on a started ticket: the questions after the one on the
        screen get their numbers (the one on the screen does not change under their finger,
        and the answers given stay as given), and what they answered today is not a first try
        again."""
        if self.name_bar is None or not self.name_bar.student.names or self.finished:
            return
        if self.index == 0 and not self.answered and not self.marks and self._resume():
            return
        self._choose_numbers(self.index + 1)

    def _resume(self) -> bool:
        """A named student who answered part of this ticket today and did not finish it (on
        another device, before a reload or a crash) goes on where they were: their first
        answers are kept as given (their marks, never asked again), and the questions they
        have not answered come with their numbers of the day. False (nothing changed) when
        there is nothing to go on with: no answer yet, or the ticket finished (then a
        retake)."""
        student = self.name_bar.student if self.name_bar is not None else None
        if student is None or not student.names:
            return False
        marks = student.first_marks(self.lesson, self.activity)
        places = [str(i + 1) for i in range(len(self.base_items))]
        done = next((i for i, p in enumerate(places) if p not in marks), len(places))
        if done == 0 or done == len(places) or any(p in marks for p in places[done:]):
            return False
        from widgets.lessons.student import today

        self._set_numbers(variant_for(student.names[0], today(student.clock()), self.lesson,
                                      0, self.activity), 0)
        self.repeated = set(marks)
        self.marks = [marks[p] for p in places[:done]]
        self.index = done
        self._show_item()
        self.status.value = "<p role='status'>" + esc(ngettext(
            "Welcome back: your answer to question {n} is kept. Go on here.",
            "Welcome back: your answers to questions 1 to {n} are kept. Go on here.",
            done).format(n=done)) + "</p>"
        return True

    # ----- reading ----------------------------------------------------------------------
    @property
    def score(self) -> int:
        return sum(self.marks)

    @property
    def finished(self) -> bool:
        return self.index >= len(self.items)

    @property
    def code(self) -> str | None:
        return self.code_of(self.marks) if self.finished else None

    def code_of(self, marks: Sequence[bool]) -> str:
        """The code of these marks, as the student reads it out."""
        return code_for(self.lesson, marks)

    # ----- helpers ----------------------------------------------------------------------
    def _current(self) -> Item | None:
        if self.index < 0:
            self._say(_(self.WORDS["press start"]))
            return None
        if self.finished:
            self._say(_(self.WORDS["finished"]))
            return None
        if self.answered:
            self._say(_("This question is answered: press Next question."))
            return None
        return self.items[self.index]

    def _say(self, text: str) -> None:
        self.status.value = f"<p role='status'>! {esc(text)}</p>"

    def _record(self, right: bool, given: str, mistake: str | None = None) -> bool:
        item = self.items[self.index]
        self.marks.append(right)
        if self.name_bar is not None:
            # data only: the dashboard writes the question in the teacher's language
            q = item.question(self.lesson, self.index + 1)
            self.name_bar.student.record(
                question=Question(q.kind, q.terms, q.lesson, q.item, self.variants[self.index]),
                activity=self.activity, given=given, right=right,
                first_try=str(self.index + 1) not in self.repeated, mistake=mistake)
        self.answered = True
        self._clear_status()
        if right:
            text = "\u2714 " + _("Right. {why}").format(why=shown(item.why))
        else:
            text = "\u2717 " + _("Not this time: the answer is {answer}. {why}").format(
                answer=item.answer_text, why=shown(item.why))
            if mistake is not None:
                text += " " + mistake_feedback(mistake)
            elif item.hint:
                text += " " + _("(Tip: {hint})").format(hint=shown(item.hint))
        self.feedback.value = f"<p role='status'>{esc(text)}</p>"
        self._update_buttons()
        return right

    def _show_item(self) -> None:
        item = self.items[self.index]
        self.answered = False
        self._clear_status()
        self.feedback.value = ""
        self.entry.value = ""
        self.typed_row.layout.display = "none" if item.choices else None
        self.choice_row.layout.display = None if item.choices else "none"
        for i, b in enumerate(self.choice_buttons):
            label = shown(item.choices[i]) if i < len(item.choices) else ""
            b.description = label
            b.tooltip = _("answer {choice}").format(choice=label) if label else ""
            b.layout.display = None if label else "none"
        self._update_buttons()
        self._layout_children()
        # the question's number last: a page that sees it sees the question's box and
        # buttons ready (each change reaches the page in the order it is made)
        number = _("Question {number} of {total}.").format(number=self.index + 1,
                                                           total=len(self.items))
        self.prompt.value = (f"<p style='font-size:1.2em'><b>{esc(number)}</b> "
                             f"{esc(shown(item.prompt))}</p>")

    def _update_buttons(self) -> None:
        answering = not self.answered
        self.check_button.disabled = not answering
        self.entry.disabled = not answering
        for b in self.choice_buttons:
            b.disabled = not answering
        self.next_button.disabled = answering
        self.next_button.description = (_("See my score") if self.index == len(self.items) - 1
                                        else _("Next question"))

    def _finish(self) -> None:
        n = len(self.items)
        score = _("Score: {score} of {n}.").format(score=self.score, n=n)
        before = ("<p>" + esc(_("Codes of the students before at this device: {codes}").format(
            codes=", ".join(self.codes))) + "</p>") if self.codes else ""
        self.result.value = before + (
            f"<p role='status' style='font-size:1.2em'><b>{esc(score)}</b> "
            + esc(_("Your code:")) + f" <b>{esc(self.code or '')}</b></p>"
            "<p>" + esc(_(self.WORDS["code"])) + "</p>")
        self._clear_status()
        self._layout_children()
