"""The plain event log: the command line, stored playthroughs, lessons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from widgets.words.catalogues import _, ngettext
from widgets.words.numbers import (
    abs_math,
    paren_signed,
    play_math,
    signed,
    step_math,
    sum_math,
    total_text,
)


def log_parts(e: Any, add_or_subtract: bool = False, plain: bool | None = None
              ) -> tuple[str, str, str]:
    """(what happened, its arithmetic, the private part) of an engine Event, in the third
    person without a subject ('holds'), as the command line and the stored playthroughs print
    it after 'seat 1:'. The private part speaks to its owner ('your sum: ...').
    `add_or_subtract`: the player chose to add or subtract each card; `plain`: every card
    counts positive, totals without a sign (by default: when adding or subtracting)."""
    plain = add_or_subtract if plain is None else plain
    k = e.kind.value
    pv = e.private
    text = math = private = ""
    if k == "deal" and e.card is not None:  # Hit Me
        text = _("is dealt a face-down card and {card} ({value}) face up").format(
            card=e.card.short, value=signed(e.value))
        math = _("face up: {value}").format(value=signed(e.value))
        if pv is not None:
            private = _("your face-down card is {card}; your sum is {math}").format(
                card=pv.card.short, math=sum_math(pv.values))
    elif k == "deal":  # Flapjack
        text = ngettext("deals 7 cards to each player; {n} card stays in the draw pile",
                        "deals 7 cards to each player; {n} cards stay in the draw pile",
                        e.count).format(n=e.count)
    elif k == "hit":
        text = _("says \u201cHit me!\u201d and gets {card} ({value})").format(
            card=e.card.short, value=signed(e.value))
        math = _("face-up cards: {math}").format(math=step_math(e.before, e.delta, e.after))
        if pv is not None:
            private = _("your sum: {math}").format(math=step_math(pv.before, pv.delta, pv.after))
    elif k == "full":
        text = _("has 7 cards and is done")
    elif k == "hold":
        text = _("holds")
        if pv is not None:
            private = _("you hold at {sum}, {abs}").format(sum=signed(pv.after),
                                                          abs=abs_math(pv.after))
    elif k == "ace":
        text = _("changes the value of an ace")
        if pv is not None:
            private = _("{card} now counts {value}; your sum is {sum}").format(
                card=pv.card.short, value=signed(pv.value), sum=signed(pv.after))
    elif k == "reveal":
        text = _("turns up {card}").format(card=e.card.short)
        math = f"{sum_math(e.values)}, {abs_math(e.after)}"
    elif k == "result":
        if len(e.winners) > 1:
            text = _("tie: co-winners {who}").format(
                who=", ".join(_("player {n}").format(n=w) for w in e.winners))
        else:
            text = _("player {n} wins, closest to zero").format(n=e.winners[0])
        math = _("lowest |sum| = {score}").format(score=e.score)
    elif k == "play":
        verb = _("leads") if e.lead else _("plays")
        if add_or_subtract and plain:
            how = (_("and subtracts {n}") if e.delta < 0 else _("and adds {n}")).format(
                n=abs(e.delta))
            text = _("{verb} {card} {how}; the total is {total}").format(
                verb=verb, card=e.card.short, how=how, total=e.after)
            math = str(e.value) if e.lead and not e.before else play_math(
                e.before, e.delta, True)
        elif add_or_subtract:
            how = (_("and subtracts {n}") if e.delta != e.value else _("and adds {n}")).format(
                n=paren_signed(e.value))
            text = _("{verb} {card} {how}; the total is {total}").format(
                verb=verb, card=e.card.short, how=how, total=signed(e.after))
            math = play_math(e.before, e.delta, value=e.value)
        else:
            text = _("{verb} {card} {how}; the total is {total}").format(
                verb=verb, card=e.card.short, how=f"({signed(e.delta)})", total=signed(e.after))
            math = play_math(e.before, e.delta)
    elif k == "flapjack":
        total = total_text(e.after, plain)
        text = ngettext("makes {total}: Flapjack! and takes {n} card",
                        "makes {total}: Flapjack! and takes {n} cards",
                        e.count).format(total=total, n=e.count)
        math = _("total = {total}").format(total=total)
    elif k == "draw":
        text = _("draws a card")
        if pv is not None:
            private = _("you drew {card} ({value})").format(card=pv.card.short,
                                                            value=signed(pv.value))
    elif k == "pass":
        text = _("passes (has no cards)") if e.reason == "no-cards" else \
            _("passes (has no legal card)")
    elif k == "end":
        text = _("game over: {why}").format(why=end_reason_short(e.reason))
        math = _("cards won by seat: {counts}").format(counts=", ".join(map(str, e.values)))
    return text, math, private


def end_reason_short(reason: str | None) -> str:
    return _("no player can play a legal card") if reason == "blocked" else \
        _("every card has been played")


def private_for_onlooker(e: Any) -> str:
    """The private part of an event for someone who sees every card (a worked example):
    'face down: 4♥; sum -4 + (+9) = +5', 'sum +2, |+2| = 2', 'drew 3♣ (+3)'."""
    pv = e.private
    if pv is None:
        return ""
    k = e.kind.value
    if k == "deal":
        return _("face down: {card}; sum {math}").format(card=pv.card.short,
                                                         math=sum_math(pv.values))
    if k == "hit":
        return _("sum {math}").format(math=step_math(pv.before, pv.delta, pv.after))
    if k == "hold":
        return _("sum {sum}, {abs}").format(sum=signed(pv.after), abs=abs_math(pv.after))
    if k == "ace":
        return _("{card} now counts {value}; sum {sum}").format(
            card=pv.card.short, value=signed(pv.value), sum=signed(pv.after))
    if k == "draw":
        return _("drew {card} ({value})").format(card=pv.card.short, value=signed(pv.value))
    return ""


def named(name: str, text: str) -> str:
    """'Ben holds': a name and what the log says they did."""
    return _("{name} {text}").format(name=name, text=text) if name else text


def format_log(events: Sequence[Any], add_or_subtract: bool = False,
               plain: bool | None = None) -> list[str]:
    """The command line's log: 'Seat 1: ...', its arithmetic and private part."""
    lines = []
    for e in events:
        text, math, private = log_parts(e, add_or_subtract, plain)
        line = (_("Seat {n}: {text}").format(n=e.seat, text=text) if e.seat is not None
                else text)
        if math:
            line += f"   [{math}]"
        if private:
            line += "   " + _("(seen by Seat {n} only: {private})").format(n=e.seat,
                                                                          private=private)
        lines.append(line)
    return lines
