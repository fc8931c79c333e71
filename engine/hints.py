"""Hints for a student, computed from the student's own observation only.

`hit_me_hint(observation)` says what holding and hitting would do; `flapjack_hint(observation)`
says which cards make a Flapjack now, and for every other play which total it leaves and how
many of the cards the student has not seen would let the next player make a Flapjack.
Both are pure functions of the observation dict (``state.observation(seat)``).
"""

from __future__ import annotations

from typing import Any

from engine.bots import (
    SUIT_SYMBOLS,
    FlapjackView,
    best_abs,
    best_sum,
    hit_me_unseen,
    hypergeometric_any,
    own_hit_me_state,
)
from engine.cards import signed
from engine.errors import ConfigError
from engine.hit_me import MAX_CARDS, MAX_HITS


def _viewer(observation: dict[str, Any]) -> int:
    me = observation.get("viewer")
    if me is None:
        raise ConfigError("a hint needs the observation of one player's seat (viewer is None)")
    return me


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def hit_me_hint(observation: dict[str, Any]) -> str:
    """What holding and hitting would do, from the cards this player can see."""
    me = _viewer(observation)
    seat = observation["seats"][me]
    state = own_hit_me_state(observation)
    s = best_sum(*state)
    now = f"Your sum is {signed(s)}, so your score would be |{signed(s)}| = {abs(s)}."
    if observation["over"]:
        return f"The round is over. {now}"
    if seat["held"]:
        return f"You hold at {signed(s)}: your score is |{signed(s)}| = {abs(s)}. " \
               f"Wait for the others to finish."
    if seat["cards"] >= MAX_CARDS or seat["hits"] >= MAX_HITS:
        return f"You have 7 cards, so you are done. {now}"
    ace_eleven = bool(observation["config"].get("ace_eleven"))
    unseen = hit_me_unseen(observation)
    total = sum(unseen.values())
    closer = same = farther = zero = 0
    for v, count in unseen.items():
        p, n = state[1] + (ace_eleven and v == 1), state[2] + (ace_eleven and v == -1)
        a = best_abs(state[0] + v, p, n)
        if a < abs(s):
            closer += count
        elif a == abs(s):
            same += count
        else:
            farther += count
        zero += count if a == 0 else 0
    turn = observation["current_player"] == me
    lead = "It is your turn. " if turn else "When your turn comes: "
    hold = f"If you hold, you keep {signed(s)} and your score is {abs(s)}."
    if s == 0:
        hit = ("If you hit, any card moves your sum away from 0, so your score could only "
               "get worse.")
    else:
        hit = (f"If you hit, {closer} of the {total} cards you have not seen "
               f"(about {round(100 * closer / total)}%) would bring your sum closer to zero"
               + (f", {zero} of them all the way to 0" if zero else "")
               + (f"; {same} would leave it just as far from zero" if same else "")
               + f"; and {farther} would take it farther from zero.")
    others = [x for x in observation["seats"] if x["seat"] != me]
    held = [x for x in others if x["held"] or not x["in"]]
    extra = ""
    if held:
        names = ", ".join(f"Seat {x['seat']} (face-up sum {signed(x['face_up_sum'])})"
                          for x in held)
        extra = f" Already done: {names}; their face-down cards are still hidden."
    return f"{lead}{now} {hold} {hit}{extra}"


def flapjack_hint(observation: dict[str, Any]) -> str:
    """Which cards make a Flapjack now, and what total every other play leaves and how many
    unseen cards would let the next player make a Flapjack from it."""
    me = _viewer(observation)
    view = FlapjackView.from_observation(observation)
    targets = " or ".join(view.num(t) for t in view.targets)
    if observation["over"]:
        return "The game is over: no more plays."
    if observation["current_player"] != me:
        return (f"It is not your turn. The total is {view.num(view.total)}; a Flapjack is a "
                f"total of exactly {targets}.")
    legal = observation["legal_actions"]
    if not legal:
        return "You have no card you can play without going past the limit."
    unseen_total = sum(view.unseen.values())
    nxt = view.next_player()
    draws = min(view.hand_counts[nxt], unseen_total)
    plays = list(legal)  # dicts {key, sign, text}: FlapjackView reads them like Plays
    start = ("You lead: the table is empty." if view.table_size == 0
             else f"The total is {view.num(view.total)}.")
    parts = [start]
    makers = [p for p in plays if view.is_flapjack(p)]
    if makers:
        cards = ", ".join(f"{view.card_text(p)} makes {view.num(view.after(p))}" for p in makers)
        parts.append(f"Flapjack now: {cards}, and you would take "
                     f"{_plural(view.table_size + 1, 'card')}.")
    else:
        parts.append(f"No card in your hand makes a Flapjack ({targets}) now.")
    others = [p for p in plays if not view.is_flapjack(p)]
    if others:
        by_total: dict[int, list[str]] = {}
        for p in others:
            by_total.setdefault(view.after(p), []).append(view.card_text(p))
        lines = []
        for after, cards in sorted(by_total.items(), key=lambda kv: view.finishing_unseen(kv[0])):
            f = view.finishing_unseen(after)
            risk = round(100 * hypergeometric_any(unseen_total, f, draws))
            lines.append(f"{' or '.join(cards)} leaves {view.num(after)}, which "
                         f"{_plural(f, 'unseen card')} could turn into a Flapjack "
                         f"(about {risk}% chance the next player holds one)")
        parts.append(f"Your other plays (counting the {unseen_total} cards you have not seen): "
                     + "; ".join(lines) + ".")
    blocked = [c for k, c in view.hand.items() if all(a["key"] != k for a in legal)]
    if blocked:
        names = ", ".join(f"{c['label']}{SUIT_SYMBOLS[c['suit']]} ({view.num(c['value'])})"
                          for c in blocked)
        parts.append(f"You cannot play {names}: the total would go past the limit "
                     f"({view.num(view.low)} to {view.num(view.high)}).")
    return " ".join(parts)

