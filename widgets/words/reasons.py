"""Why a move is illegal, why a card is disabled, why a setting is refused; variants,
levels and actions by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from widgets.words.catalogues import _, ngettext
from widgets.words.numbers import signed


def reason_text(why: Any, plain: bool = False, viewer: int | None = None) -> str:
    """A refusal (engine.errors.Why, or an IllegalActionError) in words:
    'the total would be +14, greater than the limit +13'. `plain` (every card counts
    positive): totals are never negative and carry no '+' sign. Told to `viewer`, their
    own turn is 'your turn'."""
    why = getattr(why, "why", why)
    r = why.reason.value
    d = why.data
    if r == "not-your-turn" and viewer is not None and d.get("seat") == viewer:
        return _("not your turn")
    num = (lambda n: str(n)) if plain else signed
    if r == "game-over":
        return _("the game is over")
    if r == "no-such-player":
        return _("no such player: {seat}").format(seat=repr(d.get("seat")))
    if r == "not-an-action":
        return (_("not a Hit Me move: {action}") if d.get("game") == "hit-me"
                else _("not a Flapjack move: {action}")).format(action=d.get("action"))
    if r == "not-your-turn":
        return _("it is player {current}'s turn, not player {seat}'s").format(**d)
    if r == "not-in-hand":
        return _("{card} is not in player {seat}'s hand").format(**d)
    if r == "bad-sign":
        return _("the sign must be +1 (add) or -1 (subtract); got {sign}").format(
            sign=repr(d.get("sign")))
    if r == "sign-fixed":
        return _("cards are added with their own sign in this variant")
    if r == "lead-adds":
        return _("a lead can only add")
    if r == "limit-exceeded":
        if d["total"] > d["limit"]:
            text = _("the total would be {total}, greater than the limit {limit}")
        else:
            text = _("the total would be {total}, less than the limit {limit}")
        return text.format(total=num(d["total"]), limit=num(d["limit"]))
    if r == "ace-rule-off":
        return _("aces count 1 only: the 'ace one or eleven' rule is off")
    if r == "not-your-card":
        return _("{card} is not one of player {seat}'s cards").format(**d)
    if r == "not-an-ace":
        return _("{card} is not an ace").format(**d)
    if r == "ace-value":
        return _("an ace counts 1 or 11")
    if r == "ace-unchanged":
        return _("{card} already counts {value}").format(card=d["card"],
                                                        value=signed(d["value"]))
    if r == "not-yet-revealed":
        return _("the cards are not turned up yet")
    if r == "not-announcing":
        return _("the cards turn up only when every player is done")
    if r == "round-not-over":
        return _("the round is not over yet")
    if r == "finish-round-first":
        return _("finish this round before dealing the next")
    return r



def config_error_text(error: Any) -> str:
    """A refused setting (engine.errors.ConfigError) as one sentence in the page's language:
    from its code and numbers when it has a code (the engine's message is a developer's); a
    ConfigError made here in widgets/ already holds its sentence."""
    code, d = getattr(error, "code", None), dict(getattr(error, "data", {}) or {})
    if code == "too-few-cards":
        return ngettext("{decks} deck holds {cards} cards: not enough to deal 7 cards to each "
                        "of {players} players ({needed} are needed). Choose more decks or "
                        "fewer players.",
                        "{decks} decks hold {cards} cards: not enough to deal 7 cards to each "
                        "of {players} players ({needed} are needed). Choose more decks or "
                        "fewer players.", d.get("decks", 1)).format(
            decks=d.get("decks", 1), cards=d.get("cards", 0), players=d.get("players", 0),
            needed=d.get("needed", 0))
    if code == "too-few-decks":
        return ngettext("{players} players need at least {need} deck (each player may need 7 "
                        "cards).",
                        "{players} players need at least {need} decks (each player may need 7 "
                        "cards).", d.get("need", 1)).format(
            players=d.get("players", 0), need=d.get("need", 1))
    if code is not None:
        return _("These settings cannot be used.")
    return str(error)


def limit_short(why: Any, plain: bool = False) -> str:
    """A card button's short reason: 'would make -15, less than -13'."""
    num = (lambda n: str(n)) if plain else signed
    d = why.data
    if d["total"] > d["limit"]:
        return _("would make {total}, greater than {limit}").format(
            total=num(d["total"]), limit=num(d["limit"]))
    return _("would make {total}, less than {limit}").format(total=num(d["total"]),
                                                              limit=num(d["limit"]))


def limit_short_both(totals: Sequence[int], low: int, high: int,
                     plain: bool = False) -> str:
    """Add or subtract, both ways refused: 'would make 23 or -3, outside 0 to 13'."""
    num = (lambda n: str(n)) if plain else signed
    return _("would make {totals}, outside {low} to {high}").format(
        totals=_(" or ").join(num(t) for t in totals), low=num(low), high=num(high))


def both_ways_refused(add_why: str, subtract_why: str) -> str:
    return _("adding: {add}; subtracting: {subtract}").format(add=add_why, subtract=subtract_why)


def level_name(level: str) -> str:
    """A computer players' level as shown: 'easy', 'medium', 'hard' (others as given)."""
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}.get(level, level)


def action_text(action: Any) -> str:
    """An engine action in words, lower case: 'hit', 'hold', 'count A♠ as 11', 'play 7♥'."""
    from engine.flapjack import Play
    from engine.hit_me import ChooseAce, Hit, Hold, Reveal

    if isinstance(action, Hit):
        return _("hit")
    if isinstance(action, Hold):
        return _("hold")
    if isinstance(action, Reveal):
        return _("reveal")
    if isinstance(action, ChooseAce):
        return _("count {card} as {n}").format(card=action.card.code.lower(),
                                               n=11 if action.high else 1)
    if isinstance(action, Play):
        return (_("play {card} (subtract)") if action.sign < 0 else _("play {card}")).format(
            card=action.card.code.lower())
    return str(action).lower()
