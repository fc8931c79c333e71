"""The computer players' reasons, from their decisions' codes and numbers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from widgets.words.cards import SUIT_SYMBOLS
from widgets.words.catalogues import _, ngettext
from widgets.words.numbers import percent, plain_totals, signed, total_text


def _bot_card(d: Mapping[str, Any]) -> str:
    """'7♥ (-7)', or '7♥ (subtract 7)' / '7♥ (subtract -7)' when adding or subtracting."""
    c = d["card"]
    short = f"{c['label']}{SUIT_SYMBOLS[c['suit']]}"
    if d.get("add_or_subtract"):
        how = _("subtract {n}") if d["sign"] < 0 else _("add {n}")
        return f"{short} ({how.format(n=total_text(c['value'], plain_totals(d)))})"
    return f"{short} ({signed(c['value'])})"


def bot_reason_text(decision: Any) -> str:
    """A computer player's decision (engine.bots.Decision: a code and numbers) in one
    sentence, in the first person: 'My sum is +7, which is 7 away from zero (4 or more), so
    I take a hit.'"""
    code, d = decision.code, decision.data
    if code in ("coin-hit", "coin-hold"):
        return (_("My sum is {sum}, and I flipped a coin: it said take a hit.") if code ==
                "coin-hit" else _("My sum is {sum}, and I flipped a coin: it said hold.")
                ).format(sum=signed(d["sum"]))
    if code == "threshold-hit":
        if d["sum"] == 0:
            return _("My sum is 0, and I take a hit whenever my sum is {t} or more away from "
                     "zero, so I take a hit.").format(t=d["threshold"])
        return _("My sum is {sum}, which is {away} away from zero ({t} or more), so I take a "
                 "hit.").format(sum=signed(d["sum"]), away=abs(d["sum"]), t=d["threshold"])
    if code == "threshold-hold":
        if d["sum"] == 0:
            return _("My sum is exactly 0, as close to zero as it can be, so I hold.")
        return _("My sum is {sum}, only {away} away from zero (less than {t}), so I hold."
                 ).format(sum=signed(d["sum"]), away=abs(d["sum"]), t=d["threshold"])
    if code == "expert-even":
        if d["hold_pct"] == 0:
            return (_("My sum is {sum}, so far from zero that I have almost no chance of "
                      "winning either way, so I take a hit.") if d["hit"] else
                    _("My sum is {sum}, so far from zero that I have almost no chance of "
                      "winning either way, so I hold.")).format(sum=signed(d["sum"]))
        return (_("Whether I hold at {sum} or take a hit, I estimate I win about {pct} of "
                  "the time, a little more if I take a hit, so I take a hit.") if d["hit"] else
                _("Whether I hold at {sum} or take a hit, I estimate I win about {pct} of "
                  "the time, a little more if I hold, so I hold.")).format(
            sum=signed(d["sum"]), pct=percent(d["hold_pct"]))
    if code == "expert-hit":
        return _("If I hold at {sum}, I estimate I win about {ph} of the time, and if I take "
                 "a hit about {pt}, so I take a hit.").format(
            sum=signed(d["sum"]), ph=percent(d["hold_pct"]), pt=percent(d["hit_pct"]))
    if code == "expert-hold":
        return _("If I hold at {sum}, I estimate I win about {ph} of the time, and if I take "
                 "a hit only about {pt}, so I hold.").format(
            sum=signed(d["sum"]), ph=percent(d["hold_pct"]), pt=percent(d["hit_pct"]))
    aos = plain_totals(d)
    card = _bot_card(d) if "card" in d else ""
    after = total_text(d.get("after", 0), aos)
    if code == "flapjack":
        return (ngettext("I lead {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} card in play.",
                         "I lead {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} cards in play.", d["taken"])
                if d["lead"] else
                ngettext("I play {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} card in play.",
                         "I play {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} cards in play.", d["taken"])).format(
            card=card, before=total_text(d["before"], aos), after=after, n=d["taken"])
    if code == "random-play":
        text = (_("I chose at random: I lead {card} and the total becomes {after}")
                if d["lead"] else
                _("I chose at random: I play {card} and the total becomes {after}")).format(
            card=card, after=after)
        return text + (_(", a Flapjack!") if d.get("flapjack") else ".")
    if code == "greedy-leave":
        vals = d["values"]
        if not vals:
            how = _("and no card I have not seen can turn it into a Flapjack")
        else:
            how = _("and only a card worth {values} could turn it into a Flapjack").format(
                values=_(" or ").join(total_text(v, aos) for v in vals))
            if d.get("choices", 1) > 1:
                how += _(", as few kinds of card as any play allows")
        return (_("I lead {card} to leave the total at {after}, {how}.") if d["lead"] else
                _("I play {card} to leave the total at {after}, {how}.")).format(
            card=card, after=after, how=how)
    if code == "expert-leave":
        if d["finishing"] == 0:
            why = _("none of the {unseen} cards I have not seen can turn {after} into a "
                    "Flapjack").format(unseen=d["unseen"], after=after)
        else:
            why = _("only {f} of the {unseen} cards I have not seen can turn {after} into a "
                    "Flapjack, so the chance that the next player holds one is about {pct}"
                    ).format(f=d["finishing"], unseen=d["unseen"], after=after,
                             pct=percent(d["pct"]))
        return (_("I lead {card} to leave the total at {after}: {why}.") if d["lead"] else
                _("I play {card} to leave the total at {after}: {why}.")).format(
            card=card, after=after, why=why)
    return code
