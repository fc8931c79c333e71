"""Hit Me: the table's move log, from the viewer's side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from widgets.words.cards import card_face
from widgets.words.catalogues import _
from widgets.words.numbers import abs_math, signed, step_math, sum_math
from widgets.words.people import addressed, name_of, say


def hit_me_story_line(event: Mapping[str, Any], names: Sequence[str], viewer: int | None,
                      *, teacher: bool = False) -> str:
    """One Hit Me event view as a sentence for `viewer`, then its arithmetic:
    'Ben says “Hit me!” and gets 5♠ (+5). Face-up cards: -3 + (+5) = +2'. The private part
    (present only for its owner, or for a teacher who turned every card up) follows."""
    you = addressed(names, viewer)
    seat = event.get("seat")
    k = event["kind"]
    card = event.get("card")
    face = card_face(card) if card else ""
    value = signed(event["value"]) if event.get("value") is not None else ""
    math = ""
    if k == "deal":
        line = say(seat, names, you,
                    _("You are dealt a face-down card and {card} ({value}) face up"),
                    _("{name} is dealt a face-down card and {card} ({value}) face up"),
                    card=face, value=value)
    elif k == "hit":
        line = say(seat, names, you, _("You say \u201cHit me!\u201d and get {card} ({value})"),
                    _("{name} says \u201cHit me!\u201d and gets {card} ({value})"),
                    card=face, value=value)
        math = _("Face-up cards: {math}").format(
            math=step_math(event["before"], event["delta"], event["after"]))
    elif k == "full":
        line = say(seat, names, you, _("You have 7 cards and are done"),
                    _("{name} has 7 cards and is done"))
    elif k == "hold":
        line = say(seat, names, you, _("You hold"), _("{name} holds"))
    elif k == "ace":
        line = say(seat, names, you, _("You change the value of an ace"),
                    _("{name} changes the value of an ace"))
    elif k == "reveal":
        line = say(seat, names, you, _("You turn up {card}"), _("{name} turns up {card}"),
                    card=face)
        math = _("Sum {math}").format(
            math=f"{sum_math(event['values'])}, {abs_math(event['after'])}")
    elif k == "result":
        winners = list(event["winners"])
        if len(winners) > 1:
            line = _("Tie: co-winners {who}").format(
                who=", ".join(name_of(names, w) for w in winners))
        else:
            line = say(winners[0], names, you, _("You win, closest to zero"),
                        _("{name} wins, closest to zero"))
        math = _("Lowest |sum| = {score}").format(score=event["score"])
    else:
        line = ""
    if math:
        line = _("{sentence}. {math}").format(sentence=line, math=math)
    pv = event.get("private")
    if pv:
        mine = seat == viewer
        label = _("only you see") if not teacher else _("private")
        line += "  " + _("[{label}: {text}]").format(
            label=label, text=_hit_me_private(k, pv, mine, name_of(names, seat)))
    return line


def _hit_me_private(kind: str, pv: Mapping[str, Any], mine: bool, name: str) -> str:
    if kind == "deal":
        return (_("your face-down card is {card}; your sum is {math}") if mine else
                _("{name}'s face-down card is {card}; {name}'s sum is {math}")).format(
            card=card_face(pv["card"]), math=sum_math(pv["values"]), name=name)
    if kind == "hit":
        return (_("your sum: {math}") if mine else _("{name}'s sum: {math}")).format(
            math=step_math(pv["before"], pv["delta"], pv["after"]), name=name)
    if kind == "hold":
        return (_("you hold at {sum}, {abs}") if mine else
                _("{name} holds at {sum}, {abs}")).format(
            sum=signed(pv["after"]), abs=abs_math(pv["after"]), name=name)
    if kind == "ace":
        return (_("{card} now counts {value}; your sum is {sum}") if mine else
                _("{card} now counts {value}; {name}'s sum is {sum}")).format(
            card=card_face(pv["card"]), value=signed(pv["value"]), sum=signed(pv["after"]),
            name=name)
    return ""
