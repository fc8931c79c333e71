"""Playing cards, decks, the colour-sign convention and signed-number text."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.errors import ConfigError


class Color(Enum):
    """The colour of a suit."""

    BLACK = "black"
    RED = "red"


class Suit(Enum):
    """The four suits, by their one-letter code."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def color(self) -> Color:
        return _SUIT_COLORS[self.value]

    @property
    def symbol(self) -> str:
        return {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[self.value]

    # Ordered by code (C < D < H < S) so that cards, ordered by (rank, suit, copy), sort.
    def __lt__(self, other: Suit) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.value < other.value

    def __gt__(self, other: Suit) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.value > other.value

    def __le__(self, other: Suit) -> bool:
        return self == other or self < other

    def __ge__(self, other: Suit) -> bool:
        return self == other or self > other


_SUIT_COLORS = {"C": Color.BLACK, "S": Color.BLACK, "D": Color.RED, "H": Color.RED}


class Convention(Enum):
    """Which colour counts as positive at this table."""

    BLACK_POSITIVE = "black-positive"  # "accounting" colours, the default
    RED_POSITIVE = "red-positive"  # "electrician" colours

    @classmethod
    def parse(cls, value: Convention | str) -> Convention:
        """Accept a Convention or one of its names ('black-positive', 'red-positive')."""
        if isinstance(value, Convention):
            return value
        aliases = {"accounting": cls.BLACK_POSITIVE, "electrician": cls.RED_POSITIVE}
        text = str(value).strip().lower()
        if text in aliases:
            return aliases[text]
        for member in cls:
            if member.value == text:
                return member
        allowed = ", ".join(m.value for m in cls)
        raise ConfigError(f"colors must be one of {allowed}; got {value!r}")

    def sign(self, color: Color) -> int:
        """+1 or -1 for a card of this colour."""
        positive = Color.BLACK if self is Convention.BLACK_POSITIVE else Color.RED
        return 1 if color is positive else -1

    def card_sign(self, card: Card) -> int:
        """+1 or -1 for this card (the fast path of `sign`, used at every step of a game)."""
        return card.black_sign if self is Convention.BLACK_POSITIVE else -card.black_sign

    @functools.cached_property
    def factor(self) -> int:
        """+1 if black counts positive, else -1: a card's sign is `card.black_sign * factor`."""
        return 1 if self is Convention.BLACK_POSITIVE else -1


RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
_LABEL_TO_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, "1": 1}
_LABEL_TO_RANK.update({str(n): n for n in range(2, 11)})


@dataclass(frozen=True, order=True)
class Card:
    """One physical card. `copy` tells apart equal cards from different decks.

    Its texts are worked out once (cached properties): simulations read them millions of times.
    """

    rank: int
    suit: Suit
    copy: int = 0

    def __post_init__(self) -> None:
        # Exact types: True is not an ace and 7.0 is not a seven (a forged save could say so).
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            raise ConfigError(f"a card rank is a whole number 1 (ace) to 13 (king); "
                              f"got {self.rank!r}")
        if type(self.suit) is not Suit:
            raise ConfigError(f"a card suit is a Suit (C, D, H or S); got {self.suit!r}")
        if type(self.copy) is not int or self.copy < 0:
            raise ConfigError(f"a card copy (which deck it is from, 0 first) is a whole number "
                              f"0 or more; got {self.copy!r}")

    @functools.cached_property
    def label(self) -> str:
        """The rank as printed on the card: A, 2..10, J, Q, K."""
        return RANK_LABELS.get(self.rank, str(self.rank))

    @functools.cached_property
    def code(self) -> str:
        """Short text such as 'KS', '7H', '10C' (the copy is not shown)."""
        return f"{self.label}{self.suit.value}"

    @functools.cached_property
    def short(self) -> str:
        """Rank and suit symbol: 'J\u2660', '10\u2665'."""
        return f"{self.label}{self.suit.symbol}"

    @functools.cached_property
    def color(self) -> Color:
        return self.suit.color

    @functools.cached_property
    def black_sign(self) -> int:
        """+1 for a black card, -1 for a red one."""
        return 1 if self.color is Color.BLACK else -1

    @functools.cached_property
    def hit_me_black(self) -> int:
        """The Hit Me value when black counts positive: A = 1, 2-10, J Q K = 10, signed."""
        return min(self.rank, 10) * self.black_sign

    @functools.cached_property
    def signed_black(self) -> int:
        """The rank signed by colour when black counts positive (Flapjack's value)."""
        return self.rank * self.black_sign

    @functools.cached_property
    def views(self) -> dict[int | None, dict[str, object]]:
        """Card views (see `engine.events.card_view`) by value, made once and copied: every
        observation of every simulated game shows these cards."""
        return {}

    @functools.cached_property
    def key(self) -> str:
        """A unique id among the cards of one game: 'KS' or 'KS#1' for a second deck's copy."""
        return self.code if self.copy == 0 else f"{self.code}#{self.copy}"

    def __str__(self) -> str:
        return self.code

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable: a clone of a game may share its cards


def signed(n: int) -> str:
    """An integer with its sign always written: +7, -7, 0."""
    return f"+{n}" if n > 0 else str(n)


def parse_card(text: str) -> Card:
    """Read one card code such as 'KS', '7h', '10C' (copy 0)."""
    t = str(text).strip().upper()
    if len(t) < 2 or t[-1] not in "CDHS" or t[:-1] not in _LABEL_TO_RANK:
        raise ConfigError(
            f"not a card code: {text!r} (write rank then suit, e.g. KS, 7H, 10C, AD)"
        )
    return Card(_LABEL_TO_RANK[t[:-1]], Suit(t[-1]))


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a card order like 'KS,7H,10C' (top first). Repeats become copies 1, 2, ..."""
    items = text.replace(" ", ",").split(",") if isinstance(text, str) else list(text)
    seen: dict[tuple[int, Suit], int] = {}
    out = []
    for item in items:
        if not str(item).strip():
            continue
        c = parse_card(item)
        n = seen.get((c.rank, c.suit), 0)
        seen[(c.rank, c.suit)] = n + 1
        out.append(Card(c.rank, c.suit, n))
    return out


def make_deck(decks: int = 1, ranks: Sequence[int] = tuple(range(1, 14))) -> list[Card]:
    """All cards of `decks` standard decks (optionally only some ranks), in a fixed order.
    The cards are made once per (decks, ranks) and shared (a card is immutable)."""
    return list(_deck(decks, tuple(ranks)))


@functools.lru_cache(maxsize=64)
def _deck(decks: int, ranks: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(Card(r, s, d) for d in range(decks) for s in Suit for r in ranks)


def check_order(order: Sequence[Card], full_deck: Sequence[Card], what: str) -> None:
    """Refuse a stacked card order that holds a card the game's deck(s) do not have."""
    pool: dict[Card, int] = {}
    for c in full_deck:
        pool[c] = pool.get(c, 0) + 1
    for c in order:
        if pool.get(c, 0) <= 0:
            raise ConfigError(
                f"deck order: {c.code} appears more often than {what} holds it"
                if any(k.rank == c.rank and k.suit == c.suit for k in full_deck)
                else f"deck order: {c.code} is not in {what}"
            )
        pool[c] -= 1


def stacked_order(
    full_deck: Sequence[Card],
    top: Sequence[Card] | Sequence[str] | str | None,
    rng: random.Random,
    what: str,
    exact: bool = False,
) -> list[Card]:
    """The order of a game's deck, top first: `top` (cards or codes) stacked on the rest,
    which is shuffled; with `exact`, `top` is the whole deck. No stack: all shuffled."""
    if top is None:
        return shuffled(full_deck, rng)
    cards = list(top) if all(isinstance(c, Card) for c in top) else parse_cards(top)
    check_order(cards, full_deck, what)
    if exact:
        return cards
    rest = list(full_deck)
    for c in cards:
        rest.remove(c)
    return cards + shuffled(rest, rng)


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy of `cards` using the given generator."""
    out = list(cards)
    shuffle(out, rng)
    return out


# CPython's Random.shuffle draws each index with _randbelow_with_getrandbits (when the class
# does not override random() or getrandbits()); `shuffle` below writes those steps out.
_PLAIN_RANDBELOW = getattr(random.Random, "_randbelow", None) is \
    getattr(random.Random, "_randbelow_with_getrandbits", object())


def shuffle(items: list[object], rng: random.Random) -> None:
    """`rng.shuffle(items)`: the same order from the same generator state, leaving the
    generator in the same state, about twice as fast for a plain random.Random (Python's
    Fisher-Yates steps and getrandbits draws written out, without a method call per card;
    every deal of every simulation shuffles). Any other generator shuffles itself."""
    if type(rng) is not random.Random or not _PLAIN_RANDBELOW:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@functools.lru_cache(maxsize=64)
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The Fisher-Yates steps of a shuffle of `size` items, as Random.shuffle takes them:
    (index i, draw below n = i + 1, with k = n.bit_length() random bits), made once a size."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size)))


def make_rng(seed: int | str | random.Random | None) -> random.Random:
    """A generator from a seed (int or text deal code); a Random passes through."""
    if isinstance(seed, random.Random):
        return seed
    return random.Random(seed)


def card_to_json(card: Card) -> str:
    return card.key


# A saved card is written exactly as `card_to_json` writes it: 'KS', '10H', 'AD#1' (no '#0',
# no lower case, no spaces, no leading zeros), so every card has one spelling.
_CARD_KEY = re.compile(r"(A|[2-9]|10|J|Q|K)([CDHS])(?:#([1-9][0-9]{0,5}))?")


def card_from_json(text: str) -> Card:
    """Read a card key written by `card_to_json`; anything else is refused with ConfigError."""
    card = _read_card(text) if type(text) is str else None
    if card is None:
        raise ConfigError(f"not a saved card: {text!r} (expected a key such as KS, 10H or AD#1)")
    return card


# Cards are immutable: every reading of one key may share one Card, whose texts (cached
# properties) are then worked out once. A room's page reads its whole game at every move.
@functools.lru_cache(maxsize=1024)
def _read_card(text: str) -> Card | None:
    m = _CARD_KEY.fullmatch(text)
    return None if m is None else Card(_LABEL_TO_RANK[m[1]], Suit(m[2]),
                                       int(m[3]) if m[3] else 0)
