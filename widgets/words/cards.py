"""Cards in words: names, faces and screen-reader labels ("value negative 7")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from widgets.words.catalogues import N_, _
from widgets.words.numbers import number_words

_RANK_WORDS = {
    1: N_("ace"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"),
    7: N_("seven"), 8: N_("eight"), 9: N_("nine"), 10: N_("ten"), 11: N_("jack"),
    12: N_("queen"), 13: N_("king"),
}
_SUIT_WORDS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}


def _rank_word(rank: int) -> str:
    return _(_RANK_WORDS[rank])


def _suit_word(suit: str) -> str:
    return _(_SUIT_WORDS[suit])


def _card_fields(card: Any) -> tuple[int, str]:
    """(rank, suit letter) of an engine Card or a card view dict."""
    if isinstance(card, Mapping):
        return int(card["rank"]), str(card["suit"])
    return card.rank, card.suit.value


def card_name(card: Any) -> str:
    """Words a screen reader can read: 'seven of hearts' (a Card or a card view)."""
    rank, suit = _card_fields(card)
    return _("{rank} of {suit}").format(rank=_rank_word(rank), suit=_suit_word(suit))


def card_face(card: Any) -> str:
    """Rank and suit symbol: 'J♠', '10♥' (a Card or a card view)."""
    if isinstance(card, Mapping):
        return f"{card['label']}{card['symbol']}"
    return card.short


def card_aria(card: Mapping[str, Any], value: int | None = None) -> str:
    """'seven of hearts, value negative 7'; a face-down card: 'face-down card'."""
    if card.get("hidden") or "rank" not in card:
        return hidden_card_label()
    v = card.get("value") if value is None else value
    if v is None:
        return card_name(card)
    return _("{name}, value {number}").format(name=card_name(card), number=number_words(int(v)))


def hidden_card_label() -> str:
    return _("face-down card")


SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
