"""Flapjack: the move log, the banners, the end of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from widgets.words.cards import card_face
from widgets.words.catalogues import _, ngettext
from widgets.words.event_log import end_reason_short
from widgets.words.numbers import play_math, signed, total_text
from widgets.words.people import addressed, join_names, name_of, say


def flapjack_log_line(event: Mapping[str, Any], names: Sequence[str], viewer: int | None,
                      plain: bool = False) -> str | None:
    """One Flapjack event view as a move-log line for `viewer` (None: not logged): plays as
    equations ('Ben: -3 + (+5) = +2  [5♠]', a signed card subtracted 'Ben: +5 - (-7) = +12
    [7♥]'), Flapjacks, passes, private draws, the end. `plain`: every card counts positive
    ('Ben: 6 - 5 = 1')."""
    you = addressed(names, viewer)
    k = event["kind"]
    p = event.get("seat")
    name = name_of(names, p) or _("Table")
    if k == "play":
        return _("{name}: {math}  [{card}]").format(
            name=name, math=play_math(event["before"], event["delta"], plain,
                                      event.get("value")),
            card=card_face(event["card"]))
    if k == "flapjack":
        total = total_text(event["after"], plain)
        n = event["count"]
        if p is not None and p == you:
            return ngettext("{name}: Flapjack! The total is exactly {total}; {name} take {n} "
                            "card", "{name}: Flapjack! The total is exactly {total}; {name} "
                            "take {n} cards", n).format(name=name, total=total, n=n)
        return ngettext("{name}: Flapjack! The total is exactly {total}; {name} takes {n} card",
                        "{name}: Flapjack! The total is exactly {total}; {name} takes {n} cards",
                        n).format(name=name, total=total, n=n)
    if k == "draw":
        pv = event.get("private")
        if not pv:
            return None
        card, value = card_face(pv["card"]), signed(pv["value"])
        if p == viewer:
            return _("{name} drew {card} ({value}) (only you see this)").format(
                name=name, card=card, value=value)
        return _("{name} drew {card} ({value}) (shown: every hand is revealed)").format(
            name=name, card=card, value=value)
    if k == "pass":
        return flapjack_pass_sentence(event, names, you)
    if k == "deal":
        n = event["count"]
        if p is not None and p == you:
            return ngettext("You deal 7 cards to each player; {n} card stays in the draw pile",
                            "You deal 7 cards to each player; {n} cards stay in the draw pile",
                            n).format(n=n)
        return ngettext("{name} deals 7 cards to each player; {n} card stays in the draw pile",
                        "{name} deals 7 cards to each player; {n} cards stay in the draw pile",
                        n).format(name=name, n=n)
    if k == "end":
        return _("Game over: {why}").format(why=end_reason_short(event.get("reason")))
    return None


def flapjack_pass_sentence(event: Mapping[str, Any], names: Sequence[str],
                           you: int | None) -> str:
    """'Ben passes (has no legal card)' / 'You pass (have no cards)'."""
    no_cards = event.get("reason") == "no-cards"
    if no_cards:
        return say(event.get("seat"), names, you, _("You pass (have no cards)"),
                    _("{name} passes (has no cards)"))
    return say(event.get("seat"), names, you, _("You pass (have no legal card)"),
                _("{name} passes (has no legal card)"))


def flapjack_banner_text(event: Mapping[str, Any], names: Sequence[str],
                         you: int | None, plain: bool = False) -> str:
    """After the word 'Flapjack!': 'Ben makes the total exactly +13 and takes 3 cards.'"""
    total = total_text(event["after"], plain)
    n = event["count"]
    seat = event.get("seat")
    if seat is not None and seat == you:
        return ngettext("{name} make the total exactly {total} and take {n} card.",
                        "{name} make the total exactly {total} and take {n} cards.",
                        n).format(name=name_of(names, seat), total=total, n=n)
    return ngettext("{name} makes the total exactly {total} and takes {n} card.",
                    "{name} makes the total exactly {total} and takes {n} cards.",
                    n).format(name=name_of(names, seat) or _("Someone"), total=total, n=n)


def flapjack_end_reason(reason: str) -> str:
    return {
        "blocked": _("no player can play a card that keeps the total within the limits"),
        "all-played": _("every card has been played"),
    }.get(reason, reason)


def flapjack_end_text(result: Mapping[str, Any], names: Sequence[str], you: int | None) -> str:
    """'Game over: every card has been played. Ada wins with 12 cards. Cards won: ...'."""
    why = flapjack_end_reason(result["reason"])
    won = result["cards_won"]
    winners = list(result["winners"])
    best = won[winners[0]] if winners else 0
    if len(winners) == 1:
        w = winners[0]
        if w == you:
            verdict = ngettext("{name} win with {n} card.", "{name} win with {n} cards.",
                               best).format(name=name_of(names, w), n=best)
        else:
            verdict = ngettext("{name} wins with {n} card.", "{name} wins with {n} cards.",
                               best).format(name=name_of(names, w), n=best)
    else:
        verdict = ngettext("A tie: {who} each won {n} card.", "A tie: {who} each won {n} cards.",
                           best).format(who=join_names(names, winners), n=best)
    counts = ", ".join(_("{name} {n}").format(name=name_of(names, i), n=n)
                       for i, n in enumerate(won))
    return _("Game over: {why}. {verdict} Cards won: {counts}.").format(
        why=why, verdict=verdict, counts=counts)
