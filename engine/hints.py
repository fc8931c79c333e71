"""Hints for a student, computed from the student's own observation only, as data.

`hit_me_hint_data(observation)` counts what holding and hitting would do;
`flapjack_hint_data(observation)` finds which cards make a Flapjack now, and for every other
play which total it leaves and how many of the cards the student has not seen would let the
next player make a Flapjack. Both are pure functions of the observation dict
(``state.observation(seat)``); widgets.words.hit_me_hint / flapjack_hint say them in words.
"""

from __future__ import annotations

from typing import Any

from engine.bots import (
    FlapjackView,
    best_abs,
    hit_me_unseen,
    hypergeometric_any,
    own_hit_me_state,
)
from engine.errors import ConfigError
from engine.hit_me import MAX_CARDS, MAX_HITS, best_sum


def _viewer(observation: dict[str, Any]) -> int:
    me = observation.get("viewer")
    if me is None:
        raise ConfigError("a hint needs the observation of one player's seat (viewer is None)")
    return me


def hit_me_hint_data(observation: dict[str, Any]) -> dict[str, Any]:
    """What holding and hitting would do, from the cards this player can see, as data:
    `state` ('over', 'held', 'full' or 'deciding'), the sum, and for a decision how many
    unseen cards would bring the sum closer to zero, leave it as far, take it farther, or
    make it 0; and the seats already done with their face-up sums.
    widgets.words.hit_me_hint_text says it in words."""
    me = _viewer(observation)
    seat = observation["seats"][me]
    state = own_hit_me_state(observation)
    s = best_sum(*state)
    if observation["phase"] != "play":
        return {"state": "over", "sum": s}
    if seat["held"]:
        return {"state": "held", "sum": s}
    if seat["cards"] >= MAX_CARDS or seat["hits"] >= MAX_HITS:
        return {"state": "full", "sum": s}
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
    others = [x for x in observation["seats"] if x["seat"] != me]
    done = [(x["seat"], x["face_up_sum"]) for x in others if x["held"] or not x["in"]]
    return {"state": "deciding", "sum": s, "turn": observation["current_player"] == me,
            "unseen": total, "closer": closer, "same": same, "farther": farther, "zero": zero,
            "done": done}


def flapjack_hint_data(observation: dict[str, Any]) -> dict[str, Any]:
    """Which cards make a Flapjack now, what total every other play leaves and how many unseen
    cards could turn it into a Flapjack (and the chance the next player holds one), and which
    cards cannot be played, as data. widgets.words.flapjack_hint_text says it in words."""
    me = _viewer(observation)
    view = FlapjackView.from_observation(observation)
    base = {"add_or_subtract": view.add_or_subtract, "signed": view.signed,
            "targets": list(view.targets),
            "total": view.total, "low": view.low, "high": view.high}
    if observation["is_over"]:
        return {**base, "state": "over"}
    if observation["current_player"] != me:
        return {**base, "state": "waiting"}
    legal = observation["legal_actions"]
    if not legal:
        return {**base, "state": "stuck"}
    unseen_total = sum(view.unseen.values())
    nxt = view.next_player()
    draws = min(view.hand_counts[nxt], unseen_total)

    def card(p: dict[str, Any]) -> dict[str, Any]:
        c = view.hand[p["key"]]
        return {"label": c["label"], "suit": c["suit"], "value": c["value"],
                "sign": p.get("sign", 1)}

    makers = [{"card": card(p), "after": view.after(p)} for p in legal if view.is_flapjack(p)]
    by_total: dict[int, list[dict[str, Any]]] = {}
    for p in legal:
        if not view.is_flapjack(p):
            by_total.setdefault(view.after(p), []).append(card(p))
    leaves = []
    for after, cards in sorted(by_total.items(), key=lambda kv: view.finishing_unseen(kv[0])):
        f = view.finishing_unseen(after)
        leaves.append({"after": after, "cards": cards, "finishing": f,
                       "pct": round(100 * hypergeometric_any(unseen_total, f, draws))})
    blocked = [{"label": c["label"], "suit": c["suit"], "value": c["value"], "sign": 1}
               for k, c in view.hand.items() if all(a["key"] != k for a in legal)]
    return {**base, "state": "turn", "lead": view.table_size == 0,
            "taken": view.table_size + 1, "makers": makers, "leaves": leaves,
            "unseen": unseen_total, "blocked": blocked}
