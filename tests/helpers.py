"""Shared helpers for the tests: seeded random play, invariants, hidden-card search; the right
answer to an exit-ticket question as a student reads it (`ticket_answer`)."""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from engine.cards import Card, make_deck
from engine.errors import IllegalActionError, Reason
from engine.flapjack import FlapjackConfig, FlapjackState, Play
from engine.hit_me import (
    MAX_CARDS,
    MAX_HITS,
    ChooseAce,
    Hit,
    HitMeConfig,
    HitMeRound,
    Hold,
    Reveal,
    TurnOrder,
)
from widgets.words import card_name, reason_text

# The Hit Me table settings worth sweeping (name -> extra HitMeConfig keywords).
HIT_ME_VARIANTS: dict[str, dict[str, Any]] = {
    "round-robin": {},
    "all-at-once": {"turn_order": "all-at-once"},
    "ace-eleven": {"ace_eleven": True},
    "red-positive": {"colors": "red-positive"},
}
FLAPJACK_VARIANTS = ("classic", "simple-ten", "add-or-subtract", "signed-add-or-subtract")

# The teacher's key of the tests that give the kernel one (the `server_key` fixture).
TEACHER_KEY = "7K3M-Q9XD-2VRT"


def flapjack_config(players: int, variant: str, **kw: Any) -> FlapjackConfig:
    """A Flapjack table with the fewest decks that deal 7 cards to everyone."""
    per_deck = 40 if variant == "simple-ten" else 52
    decks = kw.pop("decks", -(-7 * players // per_deck))
    return FlapjackConfig(players=players, decks=decks, variant=variant, **kw)


def hit_me_config(players: int, variant: str) -> HitMeConfig:
    return HitMeConfig(players=players, **HIT_ME_VARIANTS[variant])


def multiset(cards: Iterable[Card]) -> Counter:
    return Counter(cards)


def _ident(card: Card) -> tuple[int, str, int]:
    return (card.rank, card.suit.value, card.copy)


@functools.cache
def full_deck(decks: int, ranks: tuple[int, ...] = tuple(range(1, 14))) -> frozenset:
    """Every card of the game's deck(s) as (rank, suit, copy); each is unique."""
    return frozenset(_ident(c) for c in make_deck(decks, ranks))


def assert_every_card_once(cards: list[Card], decks: int,
                           ranks: tuple[int, ...] = tuple(range(1, 14))) -> None:
    """No card lost or doubled: the cards found are exactly the full deck(s)."""
    deck = full_deck(decks, tuple(ranks))
    found = {_ident(c) for c in cards}
    assert len(cards) == len(deck) and found == deck, (
        f"lost: {sorted(deck - found)}; "
        f"doubled: {sorted(k for k, n in Counter(c.key for c in cards).items() if n > 1)}; "
        f"foreign: {sorted(found - deck)}"
    )


def assert_illegal(state: Any, action: Any, player: Any = None, match: str | None = None) -> str:
    """The move raises IllegalActionError (with a reason) and leaves to_json() unchanged."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action, player)
    assert isinstance(info.value.reason, Reason) and str(info.value).strip()
    message = reason_text(info.value)  # the engine gives a code and numbers; words say why
    assert message.strip(), "an illegal move must say why"
    if match is not None:
        assert re.search(match, message), f"{message!r} does not match {match!r}"
    after = json.dumps(state.to_json(), sort_keys=True)
    assert after == before, "an illegal move changed the state"
    return message


# ----- Hit Me --------------------------------------------------------------------------------
def random_hit_me_step(state: HitMeRound, rng: random.Random, ace_budget: list[int]) -> None:
    """One random legal move: sometimes an ace choice by any player, else the current player's."""
    if state.config.ace_eleven and ace_budget[0] > 0 and rng.random() < 0.3:
        p = rng.randrange(state.players)
        # toggles of the value shown (an unchosen ace shows 1), as the table's ace button does
        aces = [a for a in state.legal_actions(p) if isinstance(a, ChooseAce)
                and a.high != state.ace_high[p].get(a.card.key, False)]
        if aces:
            ace_budget[0] -= 1
            state.apply_action(rng.choice(aces), p)
            return
    # Hit more often than hold, so that full 7-card hands are common.
    state.apply_action(Hit() if rng.random() < 0.7 else Hold(), state.current)


def play_hit_me_round(
    config: HitMeConfig,
    seed: int,
    dealer: int = 0,
    on_step: Callable[[HitMeRound], None] | None = None,
) -> HitMeRound:
    """Deal with `seed` and play random legal moves (choices from a generator seeded alike)."""
    state = HitMeRound.deal(config, dealer=dealer, rng=seed)
    rng = random.Random(f"moves-{seed}")
    ace_budget = [4]
    if on_step:
        on_step(state)
    bound = config.players * (MAX_HITS + 1) + 4
    while not state.players_done:
        random_hit_me_step(state, rng, ace_budget)
        bound -= 1
        assert bound >= 0, "a Hit Me round did not end within its bound"
        if on_step:
            on_step(state)
    return state


def check_hit_me_invariants(state: HitMeRound) -> None:
    """Every card once, card and hit limits, and who may act."""
    cfg = state.config
    assert_every_card_once(state.all_cards(), cfg.decks)
    for p in range(state.players):
        assert state.face_down[p] is not None
        assert 1 <= len(state.face_up[p]) <= MAX_CARDS - 1
        assert 0 <= state.hits(p) <= MAX_HITS
        assert len(state.cards(p)) <= MAX_CARDS
    if state.players_done:
        assert state.current is None
        assert all(state.held[p] or len(state.cards(p)) == MAX_CARDS for p in range(state.players))
        assert state.legal_actions() == ([] if state.revealed else [Reveal()])
    else:
        assert state.is_in(state.current)


def expected_next_hit_me(state: HitMeRound, actor: int) -> int | None:
    """Who the rules say acts after `actor` moved (computed independently of the engine)."""
    n = state.players
    order = [(state.dealer + 1 + i) % n for i in range(n)]  # left of the dealer first
    if state.config.turn_order is TurnOrder.ALL_AT_ONCE:
        if state.is_in(actor):
            return actor
        later = order[order.index(actor) + 1:]
        return next((p for p in later if state.is_in(p)), None)
    # round robin: the next seat still in, wrapping around to start a new pass
    i = order.index(actor)
    for p in order[i + 1:] + order[: i + 1]:
        if state.is_in(p):
            return p
    return None


# ----- Flapjack --------------------------------------------------------------------------------
def play_flapjack(
    config: FlapjackConfig,
    seed: int,
    dealer: int = 0,
    on_step: Callable[[FlapjackState], None] | None = None,
) -> FlapjackState:
    """Deal with `seed` and play uniformly random legal moves until the end."""
    state = FlapjackState.deal(config, rng=seed, dealer=dealer)
    rng = random.Random(f"moves-{seed}")
    if on_step:
        on_step(state)
    bound = config.deck_size()
    while not state.is_over:
        state.apply_action(rng.choice(state.legal_actions()))
        bound -= 1
        assert bound >= 0, "a Flapjack game did not end within one play per card"
        if on_step:
            on_step(state)
    return state


def check_flapjack_invariants(state: FlapjackState) -> None:
    cfg = state.config
    assert_every_card_once(state.all_cards(), cfg.decks, cfg.ranks)
    assert cfg.low <= state.total <= cfg.high
    assert state.total not in cfg.targets or not state.table, "a Flapjack total left on the table"
    assert all(len(h) <= 7 for h in state.hands)
    # Each play puts one card in play; a Flapjack moves the cards in play to a trick.
    assert sum(len(t) for t in state.tricks) + len(state.table) == state.plays
    if state.is_over:
        assert state.current is None and state.legal_actions() == []
        if state.end_reason.value == "all-played":
            assert not state.draw_pile and not any(state.hands)
        else:
            assert not any(state._moves(p) for p in range(state.players))
    else:
        assert state.legal_actions(), "the player to act must have a legal card"
        for p in range(state.players):
            if p != state.current:
                assert state.legal_actions(p) == []


# ----- hidden cards in an observation ---------------------------------------------------------
def card_forms(card: Card) -> list[str]:
    """Every way a card may be written: code, key, short form, name."""
    return sorted({card.code, card.key, card.short, card_name(card)})


_RANK = r"(?:10|[2-9AJQK])"
_TOKEN_RES = (
    re.compile(r"(?<![0-9A-Za-z])" + _RANK + r"[CDHS](?:#\d+)?(?![0-9A-Za-z])"),  # KS, KS#1
    re.compile(r"(?<![0-9A-Za-z])" + _RANK + "[\u2663\u2666\u2665\u2660]"),  # K\u2660
    re.compile(r"\b(?:ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)"
               r" of (?:clubs|diamonds|hearts|spades)\b"),  # king of spades
)


def card_tokens(text: str) -> set[str]:
    """Every written card form (code, key, short form, name) that occurs in `text`."""
    found: set[str] = set()
    for pattern in _TOKEN_RES:
        found.update(pattern.findall(text))
    found.update({t.partition("#")[0] for t in found if "#" in t})  # 'KS#0' still shows KS
    return found


def find_card_text(text: str, card: Card) -> list[str]:
    """The forms of `card` that occur in `text` as whole tokens."""
    tokens = card_tokens(text)
    return [form for form in card_forms(card) if form in tokens]


def hidden_cards_leaked(observation: dict[str, Any], hidden: Iterable[Card],
                        visible: Iterable[Card]) -> dict[str, list[str]]:
    """Hidden cards (other than copies of a visible card) that appear in the observation."""
    tokens = card_tokens(json.dumps(dict(observation), ensure_ascii=False))
    seen = {(c.rank, c.suit) for c in visible}
    leaks = {}
    for card in hidden:
        if (card.rank, card.suit) in seen:
            continue  # a twin from another deck is visible: its code may appear legitimately
        forms = [form for form in card_forms(card) if form in tokens]
        if forms:
            leaks[card.key] = forms
    return leaks


def flapjack_illegal_candidates(state: FlapjackState) -> list[tuple[Play, int | None]]:
    """Moves that must be refused in this state (with who tries them)."""
    out: list[tuple[Play, int | None]] = []
    cur = state.current
    n = state.players
    legal = set(state.legal_actions())
    hand = state.hands[cur]
    for card in hand:
        for sign in (1, -1, 2, 0):
            if Play(card, sign) not in legal:
                out.append((Play(card, sign), cur))
        out += [(Play(card, sign), cur) for sign in (1.0, -1.0, True)]  # not whole numbers
    elsewhere = [c for p in range(n) if p != cur for c in state.hands[p]]
    elsewhere += state.draw_pile[:3] + [c for c, _ in state.table] + state.played_cards()[:3]
    for card in elsewhere:
        if card not in hand:
            out.append((Play(card), cur))
    legal_list = state.legal_actions()
    for bad in (n, -1, float(cur), str(cur), cur == 1):  # not a seat number
        out += [(a, bad) for a in legal_list[:1]]
    forged = Card(5, hand[0].suit if hand else make_deck()[0].suit, copy=9)
    out.append((Play(forged), cur))
    for p in range(n):
        if p != cur:
            for card in hand[:2] + state.hands[p][:2]:
                out.append((Play(card), p))
    return out


class Scripted:
    """A Flapjack computer player that plays the given card codes in order (else its first
    legal play): the table and session tests script a deal with it."""

    def __init__(self, *codes: str, sign: int = 1) -> None:
        self.codes = list(codes)
        self.sign = sign

    def choose(self, observation: Any, legal: list[Any]) -> Any:
        from engine.bots import Decision

        while self.codes:
            code = self.codes.pop(0)
            for a in legal:
                if a.card.code == code and a.sign in (self.sign, 1):
                    return Decision(a, f"I play {a.card.short} because it is next in my script.")
        return Decision(legal[0], "I play my first legal card.")


def click_every_answer_right(ticket: Any, lang: str) -> None:
    """Start an exit ticket (a unit check, a problem set) and answer every question right by
    its buttons, as a student's clicks do: the right choice by its label in `lang`, or the
    answer typed and Check."""
    from widgets.lessons.exit_ticket import shown
    from widgets.words import speaking

    ticket.start_button.click()
    while not ticket.finished:
        item = ticket.items[ticket.index]
        if item.choices:
            with speaking(lang):
                label = shown(item.answer)
            [button] = [b for b in ticket.choice_buttons if b.description == label]
            button.click()
        else:
            ticket.entry.value = str(item.answer)
            ticket.check_button.click()
        ticket.next_button.click()


# ----- an exit ticket's questions, answered from what the page shows --------------------------
_SIGNED = re.compile(r"[+-]\d+")
# a card as a question writes it ('5\u2660', '5\u2660 (+5)'), or a signed number
_STORY = re.compile(r"(10|[2-9AJQK])([\u2660\u2663\u2665\u2666])(?: \(([+-]\d+)\))?|([+-]\d+)")
_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def story_numbers(text: str) -> list[int]:
    """The numbers of a question's story in order: each signed number, and each card's value
    (its value in brackets, else its rank signed by its colour: black +, red -)."""
    out = []
    for m in _STORY.finditer(text):
        if m.group(4):
            out.append(int(m.group(4)))
        elif m.group(3):
            out.append(int(m.group(3)))
        else:
            rank = _RANKS.get(m.group(1)) or int(m.group(1))
            out.append(rank if m.group(2) in "\u2660\u2663" else -rank)
    return out


_EXPRESSION = re.compile(r"[-+()|\d ]+")


def _worked_out(expression: str) -> int:
    """'-9 + (+4)', '|+7 + (-10)|', '-5 - (-2)': signs, digits, brackets and bars only."""
    if not _EXPRESSION.fullmatch(expression):
        raise ValueError(f"not an expression of integers: {expression!r}")
    python = re.sub(r"\|([^|]*)\|", r"abs(\1)", expression)
    return int(eval(python, {"__builtins__": {}, "abs": abs}))  # signs and digits only


def ticket_answer(prompt: str, choices: Iterable[str] = ()) -> str:
    """The right answer to an English exit-ticket question as the page shows it (`prompt`,
    "Question 2 of 5." left out or not; `choices`: the buttons' labels, none for a typed
    answer), worked out from the numbers in its words: a number to type ('-5', '8') or the
    label of the button to press. A question whose numbers are always the ticket's own (a red
    6's value) is answered from the ticket."""
    from widgets.lessons.exit_ticket import TICKETS

    text = re.sub(r"^Question \d+ of \d+\.\s*", "", " ".join(prompt.split()))
    labels = [" ".join(c.split()) for c in choices]
    numbers = [int(n) for n in _SIGNED.findall(text)]
    if m := re.fullmatch(r"Work out:? (.*?)(?: = \?|\.)", text):
        return str(_worked_out(m.group(1)))
    if m := re.fullmatch(r"What is the distance between ([+-]?\d+) and ([+-]?\d+)\?", text):
        return str(abs(int(m.group(1)) - int(m.group(2))))
    if m := re.fullmatch(r"Before you work it out: is (.*) positive, negative or zero\?", text):
        total = _worked_out(m.group(1))
        return "Positive" if total > 0 else "Negative" if total < 0 else "Zero"
    if text.startswith(("Which is greater:", "Which is the greatest:")):
        return f"{max(numbers):+d}"
    if text.startswith(("Which is less:", "Which is the least:")):
        return f"{min(numbers):+d}"
    if text.startswith("Which is closer to zero:"):
        nearest = [n for n in numbers if abs(n) == min(abs(x) for x in numbers)]
        return f"{nearest[0]:+d}" if len(nearest) == 1 else "Same distance"
    if m := re.fullmatch(r"Final sums: (.*)\. Who wins\?", text):
        sums = {name: int(n) for name, n in re.findall(r"(\w+) ([+-]\d+)", m.group(1))}
        best = min(abs(n) for n in sums.values())
        winners = [name for name, n in sums.items() if abs(n) == best]
        return winners[0] if len(winners) == 1 else next(c for c in labels if c not in sums)
    if text == "Which is true?" and labels and all(
            re.fullmatch(r"[+-]?\d+ [<>=] [+-]?\d+", c) for c in labels):
        ops = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "=": lambda a, b: a == b}
        return next(c for c in labels
                    if ops[c.split()[1]](int(c.split()[0]), int(c.split()[2])))
    story = story_numbers(text)
    if m := re.fullmatch(r"What is the value of a red (\d+) \(black cards \+, red cards -\)\?",
                         text):
        return str(-int(m.group(1)))
    if text.endswith(("What is the absolute value of its sum?",
                      "At which |sum| of the chart's bottom axis do you look?")):
        return str(abs(sum(story)))
    if m := re.fullmatch(r"What is your score with a sum of ([+-]?\d+)\?", text):
        return str(abs(int(m.group(1))))
    if text.endswith(("What is your sum?", "What is your new sum?", "What is the new total?")):
        return f"{sum(story):+d}"
    if m := re.fullmatch(r"What is the fair share of wins with (\d+) players, in percent\?", text):
        return str(100 // int(m.group(1)))
    if text.startswith("A hand is worth") and "what do you put in first" in text:
        away = story[1]
        return next(c for c in labels if sorted(story_numbers(c)) == sorted([away, -away]))
    if m := re.fullmatch(r"The total is ([+-]?\d+)\. Which card (makes a Flapjack|may you "
                         r"play)\?", text):
        total = int(m.group(1))
        if m.group(2) == "makes a Flapjack":
            return next(c for c in labels if total + story_numbers(c)[0] in (-13, 0, 13))
        return next(c for c in labels if -13 <= total + story_numbers(c)[0] <= 13)
    for items in TICKETS.values():
        for item in items:
            if item.prompt == text:
                return str(item.answer) if item.choices else item.answer_text
    raise ValueError(f"not an exit-ticket question: {text!r}")
