"""Hints: Hit Me's and Flapjack's, as lines (a list line is a `HintList`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from widgets.words.cards import SUIT_SYMBOLS
from widgets.words.catalogues import _, ngettext
from widgets.words.numbers import abs_math, percent, plain_totals, signed, total_text
from widgets.words.people import name_of


class HintList:
    """A hint's line that is a list: a head and its items ('Your other plays (...): a; b; c.').
    str() is the sentence; a page shows three or more items as a list (components.hint_html)."""

    def __init__(self, head: str, items: Sequence[str], end: str = ".") -> None:
        self.head, self.items, self.end = head, list(items), end

    def __str__(self) -> str:
        return f"{self.head}: {'; '.join(self.items)}{self.end}"


def hint_sentence(lines: Sequence[Any]) -> str:
    """A hint's lines as one paragraph (the command line, tests)."""
    return " ".join(str(x) for x in lines)


def hit_me_hint(observation: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """What holding and hitting would do (engine.hints.hit_me_hint_data), in words; other
    seats by name ('Seat 2' without names)."""
    return hint_sentence(hit_me_hint_lines(observation, names))


def hit_me_hint_lines(observation: Mapping[str, Any],
                      names: Sequence[str] | None = None) -> list[Any]:
    """The hint of hit_me_hint, one sentence a line."""
    from engine.hints import hit_me_hint_data

    return hit_me_hint_text_lines(hit_me_hint_data(dict(observation)), names)


def hit_me_hint_text(d: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    return hint_sentence(hit_me_hint_text_lines(d, names))


def hit_me_hint_text_lines(d: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Any]:
    s = d["sum"]
    now = _("Your sum is {sum}, so your score would be {abs}.").format(sum=signed(s),
                                                                      abs=abs_math(s))
    st = d["state"]
    if st == "over":
        return [_("The round is over."), now]
    if st == "held":
        return [_("You hold at {sum}: your score is {abs}.").format(sum=signed(s),
                                                                  abs=abs_math(s)),
                _("Wait for the others to finish.")]
    if st == "full":
        return [_("You have 7 cards, so you are done."), now]
    lead = _("It is your turn.") if d["turn"] else _("When your turn comes:")
    hold = _("If you hold, you keep {sum} and your score is {score}.").format(
        sum=signed(s), score=abs(s))
    if s == 0:
        hit = _("If you hit, any card moves your sum away from 0, so your score could only "
                "get worse.")
    else:
        total = d["unseen"]
        hit = _("If you hit, {closer} of the {total} cards you have not seen (about {pct}) "
                "would bring your sum closer to zero").format(
            closer=d["closer"], total=total, pct=percent(round(100 * d["closer"] / total)))
        if d["zero"]:
            hit += _(", {n} of them all the way to 0").format(n=d["zero"])
        if d["same"]:
            hit += _("; {n} would leave it just as far from zero").format(n=d["same"])
        hit += _("; and {n} would take it farther from zero.").format(n=d["farther"])
    lines: list[Any] = [lead, now, hold, hit] if d["turn"] else [f"{lead} {now}", hold, hit]
    if d["done"]:
        who = ", ".join(_("{name} (face-up sum {sum})").format(
            name=name_of(names, seat) if names else _("Seat {n}").format(n=seat),
            sum=signed(up)) for seat, up in d["done"])
        lines.append(_("Already done: {who}; their face-down cards are still hidden.").format(
            who=who))
    return lines


def flapjack_hint(observation: Mapping[str, Any]) -> str:
    """Which cards make a Flapjack now and what every other play leaves
    (engine.hints.flapjack_hint_data), in words."""
    return hint_sentence(flapjack_hint_lines(observation))


def flapjack_hint_lines(observation: Mapping[str, Any]) -> list[Any]:
    """The hint of flapjack_hint, one sentence (or list) a line."""
    from engine.hints import flapjack_hint_data

    return flapjack_hint_text_lines(flapjack_hint_data(dict(observation)))


def _hint_card(c: Mapping[str, Any], aos: bool, plain: bool | None = None) -> str:
    """'7♥ (-7)'; adding or subtracting (`aos`) '7♥ (subtract 7)', or with signed cards
    (not `plain`) '7♥ (subtract -7)'."""
    short = f"{c['label']}{SUIT_SYMBOLS[c['suit']]}"
    if aos:
        how = _("subtract {n}") if c.get("sign", 1) < 0 else _("add {n}")
        shown = total_text(c["value"], aos if plain is None else plain)
        return f"{short} ({how.format(n=shown)})"
    return f"{short} ({signed(c['value'])})"


def flapjack_hint_text(d: Mapping[str, Any]) -> str:
    return hint_sentence(flapjack_hint_text_lines(d))


def flapjack_hint_text_lines(d: Mapping[str, Any]) -> list[Any]:
    aos = bool(d["add_or_subtract"])
    plain = plain_totals(d)

    def num(n: int) -> str:
        return total_text(n, plain)

    targets = _(" or ").join(num(t) for t in d["targets"])
    st = d["state"]
    if st == "over":
        return [_("The game is over: no more plays.")]
    if st == "waiting":
        return [_("It is not your turn."),
                _("The total is {total}; a Flapjack is a total of exactly {targets}.").format(
                    total=num(d["total"]), targets=targets)]
    if st == "stuck":
        return [_("You have no card you can play without going past the limit.")]
    parts = [_("You lead: the table is empty.") if d["lead"] else
             _("The total is {total}.").format(total=num(d["total"]))]
    if d["makers"]:
        cards = ", ".join(_("{card} makes {after}").format(
            card=_hint_card(m["card"], aos, plain), after=num(m["after"]))
                          for m in d["makers"])
        parts.append(ngettext("Flapjack now: {cards}, and you would take {n} card.",
                              "Flapjack now: {cards}, and you would take {n} cards.",
                              d["taken"]).format(cards=cards, n=d["taken"]))
    else:
        parts.append(_("No card in your hand makes a Flapjack ({targets}) now.").format(
            targets=targets))
    if d["leaves"]:
        lines = [ngettext("{cards} leaves {after}, which {f} unseen card could turn into a "
                          "Flapjack (about {pct} chance the next player holds one)",
                          "{cards} leaves {after}, which {f} unseen cards could turn into a "
                          "Flapjack (about {pct} chance the next player holds one)",
                          x["finishing"]).format(
            cards=_(" or ").join(_hint_card(c, aos, plain) for c in x["cards"]),
            after=num(x["after"]),
            f=x["finishing"], pct=percent(x["pct"])) for x in d["leaves"]]
        parts.append(HintList(_("Your other plays (counting the {n} cards you have not seen)"
                                ).format(n=d["unseen"]), lines))
    if d["blocked"]:
        cards = ", ".join(f"{c['label']}{SUIT_SYMBOLS[c['suit']]} ({num(c['value'])})"
                          for c in d["blocked"])
        parts.append(_("You cannot play {cards}: the total would go past the limit "
                       "({low} to {high}).").format(cards=cards, low=num(d["low"]),
                                                    high=num(d["high"])))
    return parts
