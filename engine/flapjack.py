"""Flapjack: play cards onto a running total to make exactly a target (-13, 0 or 13).

`FlapjackConfig` holds the settings (a named variant, each piece also settable on its own);
`FlapjackState` is one game from the deal to the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.cards import (
    Card,
    Convention,
    make_deck,
    make_rng,
    stacked_order,
)
from engine.errors import ConfigError, IllegalActionError, Reason, Why, check_int, is_seat
from engine.events import Event, EventKind, frozen_card_view
from engine.observation import (
    FrozenDict,
    FrozenList,
    Observation,
    freeze,
    observation_parts,
    state_of,
)
from engine.save_shape import (
    CARD_AMOUNTS,
    CARD_LISTS,
    CARDS,
    LIST,
    PLAIN,
    StateShape,
    enum_or_none,
)
from engine.saves import COLORS, check_events, load_config
from engine.validate import (
    MAX_DECKS,
    MAX_PLAYERS,
    check_targets,
    every_card_once,
    expect_bool,
    expect_card,
    expect_cards,
    expect_choice,
    expect_fields,
    expect_int,
    expect_list,
    expect_list_of,
    expect_seat,
    fail,
    is_int,
)

HAND_SIZE = 7

# `signed` None: cards keep their colour's sign unless the player chooses + or -.
VARIANTS: dict[str, dict[str, Any]] = {
    "classic": {"limit": 13, "face_cards": True, "add_or_subtract": False, "signed": None},
    "simple-ten": {"limit": 10, "face_cards": False, "add_or_subtract": False, "signed": None},
    "add-or-subtract": {"limit": 13, "face_cards": True, "add_or_subtract": True, "signed": None},
    "signed-add-or-subtract": {"limit": 13, "face_cards": True, "add_or_subtract": True,
                               "signed": True},
}


class PassReason(Enum):
    """Why a Flapjack player passed."""

    NO_CARDS = "no-cards"
    NO_LEGAL_CARD = "no-legal-card"


class EndReason(Enum):
    """Why a Flapjack game ended."""

    BLOCKED = "blocked"  # no player could play legally
    ALL_PLAYED = "all-played"  # hands and draw pile empty


@dataclass(frozen=True)
class FlapjackConfig:
    """The fixed settings of a Flapjack table.

    `variant` fills in every setting left as None: limit (the total must stay within
    -limit..limit, or 0..limit when cards count positive), face_cards (J Q K in the deck),
    add_or_subtract (the player chooses to add or subtract the card), signed (cards keep
    their colour's sign; by default they do unless the player adds or subtracts) and targets.
    """

    players: int = 2
    decks: int = 1
    colors: Convention = Convention.BLACK_POSITIVE
    variant: str = "classic"
    limit: int | None = None
    face_cards: bool | None = None
    add_or_subtract: bool | None = None
    targets: tuple[int, ...] | None = None
    signed: bool | None = None

    def __post_init__(self) -> None:
        check_int(self.players, "players", 2, MAX_PLAYERS)
        check_int(self.decks, "decks", 1, MAX_DECKS)
        object.__setattr__(self, "colors", Convention.parse(self.colors))
        name = str(self.variant).strip().lower().replace(" ", "-").replace("_", "-")
        if name not in VARIANTS:
            raise ConfigError(
                f"variant must be one of {', '.join(VARIANTS)}; got {self.variant!r}"
            )
        object.__setattr__(self, "variant", name)
        preset = VARIANTS[name]
        for key in ("limit", "face_cards", "add_or_subtract"):
            if getattr(self, key) is None:
                object.__setattr__(self, key, preset[key])
        check_int(self.limit, "limit", 1, 100)
        for key in ("face_cards", "add_or_subtract"):
            if not isinstance(getattr(self, key), bool):
                raise ConfigError(f"{key} must be true or false; got {getattr(self, key)!r}")
        if self.signed is None:
            signed = preset["signed"]
            object.__setattr__(self, "signed", not self.add_or_subtract if signed is None
                               else signed)
        if not isinstance(self.signed, bool):
            raise ConfigError(f"signed must be true or false; got {self.signed!r}")
        if self.targets is None:
            t = (0, self.limit) if not self.signed else (-self.limit, 0, self.limit)
            object.__setattr__(self, "targets", t)
        else:
            object.__setattr__(self, "targets", check_targets(self.targets, self.low, self.high))
        size = self.deck_size()
        if HAND_SIZE * self.players > size:
            raise ConfigError(
                f"decks must be enough to deal 7 cards to each of {self.players} players: "
                f"{self.decks} deck(s) hold {size} cards, {HAND_SIZE * self.players} are needed",
                "too-few-cards", players=self.players, decks=self.decks, cards=size,
                needed=HAND_SIZE * self.players)

    @property
    def low(self) -> int:
        return -self.limit if self.signed else 0

    @property
    def high(self) -> int:
        return self.limit

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(range(1, 14 if self.face_cards else 11))

    def deck_size(self) -> int:
        return len(self.ranks) * 4 * self.decks

    def value(self, card: Card) -> int:
        """A card's Flapjack value: A = 1 .. K = 13; signed by colour unless cards count
        positive (add or subtract)."""
        if not self.signed:
            return card.rank
        return card.signed_black * self.colors.factor

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "decks": self.decks,
            "colors": self.colors.value,
            "variant": self.variant,
            "limit": self.limit,
            "face_cards": self.face_cards,
            "add_or_subtract": self.add_or_subtract,
            "targets": list(self.targets),
            "signed": self.signed,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FlapjackConfig:
        d = dict(check_flapjack_config(d))
        d["targets"] = tuple(d["targets"])
        return cls(**d)


@dataclass(frozen=True)
class Play:
    """Play `card`; `sign` is +1 (add) or -1 (subtract, only when the player chooses)."""

    card: Card
    sign: int = 1

    def __eq__(self, other: object) -> bool:
        # True == 1 in Python, but Play(card, True) is refused by apply_action: equal only
        # with the same card and a sign of the same type and value
        if type(other) is not Play:
            return NotImplemented
        return self.card == other.card and self.sign == other.sign \
            and type(self.sign) is type(other.sign)

    def __hash__(self) -> int:
        return hash((self.card, self.sign))

    def __str__(self) -> str:
        return f"play {self.card.code}" + (" (subtract)" if self.sign < 0 else "")

    def to_json(self) -> dict[str, Any]:
        return {"kind": "play", "key": self.card.key, "sign": self.sign}


@dataclass(frozen=True)
class FlapjackResult:
    """Cards won per seat, the winners (most cards; equal counts tie) and why play ended."""

    cards_won: tuple[int, ...]
    winners: tuple[int, ...]
    reason: EndReason

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Any]:
        return {"cards_won": list(self.cards_won), "winners": list(self.winners),
                "tie": self.tie, "reason": self.reason.value}


# A game's saved fields, in order (engine.save_shape writes and reads them).
FLAPJACK_SAVE = (("dealer", PLAIN), ("draw_pile", CARDS), ("hands", CARD_LISTS),
                 ("table", CARD_AMOUNTS), ("tricks", CARD_LISTS), ("current", PLAIN),
                 ("end_reason", enum_or_none(EndReason)), ("flapjacks", LIST),
                 ("plays", PLAIN), ("passes", PLAIN))


def _index_of(cards: list[Card], card: Card) -> int:
    """`cards.index(card)`: the first equal card, looked for as the same object first (a
    play's card is the hand's own; comparing cards field by field is slower)."""
    for i, c in enumerate(cards):
        if c is card:
            return i
    return cards.index(card)


@dataclass
class FlapjackState(StateShape):
    """One game of Flapjack, from the deal to the end; change it only through
    `apply_action` (observation, save and clone: engine.save_shape.StateShape)."""

    config: FlapjackConfig
    dealer: int
    draw_pile: list[Card]  # top first
    hands: list[list[Card]]
    table: list[tuple[Card, int]]  # cards in play with the amount each added to the total
    tricks: list[list[Card]]
    current: int | None
    end_reason: EndReason | None = None
    flapjacks: list[int] = field(default_factory=list)
    plays: int = 0
    passes: int = 0
    events: list[Event] = field(default_factory=list)
    # every card of the game when it was dealt from an exact list of cards that is not the
    # config's whole deck(s) (`deal(..., exact=True)`); None: the config's deck(s)
    cards: list[Card] | None = None

    GAME, SAVE = "flapjack", FLAPJACK_SAVE
    OPTIONAL = (("cards", CARDS),)

    @classmethod
    def check_save(cls, d: Any) -> None:
        check_flapjack_state(d)

    @property
    def _log(self) -> list[Event]:
        """The event log as kept (engine.save_shape.StateShape): here the Events themselves."""
        return self.events

    @classmethod
    def deal(
        cls,
        config: FlapjackConfig,
        rng: random.Random | int | str | None = None,
        deck: Sequence[Card] | str | None = None,
        *,
        dealer: int = 0,
        exact: bool = False,
    ) -> FlapjackState:
        """Shuffle and deal 7 cards each. `deck` stacks the top of the deck (top first);
        with `exact` the given cards are the whole deck. The same arguments as
        `HitMeRound.deal`: (config, rng, deck, dealer=...)."""
        if not isinstance(config, FlapjackConfig):
            raise ConfigError("config must be a FlapjackConfig")
        check_int(dealer, "dealer", 0, config.players - 1)
        rng = make_rng(rng)
        what = f"this variant's {config.decks} deck(s)"
        order = stacked_order(make_deck(config.decks, config.ranks), deck, rng, what, exact=exact)
        if len(order) < HAND_SIZE * config.players:
            raise ConfigError(
                f"deck order: {len(order)} cards cannot deal 7 to each of "
                f"{config.players} players"
            )
        n = config.players
        whole = make_deck(config.decks, config.ranks)
        state = cls(
            config=config,
            dealer=dealer,
            draw_pile=list(order),
            hands=[[] for _ in range(n)],
            table=[],
            tricks=[[] for _ in range(n)],
            current=None,
            flapjacks=[0] * n,
            cards=sorted(order) if exact and sorted(order) != sorted(whole) else None,
        )
        for _ in range(HAND_SIZE):
            for i in range(n):
                state.hands[(dealer + 1 + i) % n].append(state.draw_pile.pop(0))
        state.events.append(Event(EventKind.DEAL, dealer, count=len(state.draw_pile)))
        state._advance((dealer + 1) % n)
        return state

    # ----- reading ----------------------------------------------------------------------
    @property
    def total(self) -> int:
        """The running total of the cards in play."""
        return sum([v for _, v in self.table])

    @property
    def is_over(self) -> bool:
        """Nothing is left to do (the core API's end of a game)."""
        return self.end_reason is not None

    @property
    def current_player(self) -> int | None:
        return self.current

    def _moves(self, player: int) -> list[Play]:
        cfg = self.config
        total = sum([v for _, v in self.table])  # (self.total)
        signs = (1, -1) if cfg.add_or_subtract and self.table else (1,)
        out = []
        for card in self.hands[player]:
            for s in signs:
                if cfg.low <= total + s * cfg.value(card) <= cfg.high:
                    out.append(Play(card, s))
        return out

    def _can_move(self, player: int, total: int) -> bool:
        """Has `player` a legal play (`bool(self._moves(player))`, stopping at the first)?
        `total` is self.total."""
        cfg = self.config
        low, high, value = cfg.low, cfg.high, cfg.value
        both = cfg.add_or_subtract and self.table
        for card in self.hands[player]:
            v = value(card)
            if low <= total + v <= high or (both and low <= total - v <= high):
                return True
        return False

    def legal_actions(self, player: int | None = None) -> list[Play]:
        """Every play `player` (default: whoever is to act) may make now."""
        if self.is_over:
            return []
        if player is None:
            player = self.current
        elif player != self.current or not is_seat(player, self.players):
            return []  # another seat's turn, or not a seat (True, 1.0, "1")
        return self._moves(player)

    def why_illegal(self, player: int, card: Card, sign: int = 1) -> Why | None:
        """Why playing `card` with `sign` is not allowed now, as a reason code and its numbers
        (None if it is allowed). The same data answers "why is this card disabled"."""
        cfg = self.config
        if self.is_over:
            return Why(Reason.GAME_OVER)
        if isinstance(player, bool) or not isinstance(player, int) or \
                not 0 <= player < self.players:
            return Why(Reason.NO_SUCH_PLAYER, {"seat": player})
        if player != self.current:
            return Why(Reason.NOT_YOUR_TURN, {"current": self.current, "seat": player})
        hand = self.hands[player]
        if not any(c is card for c in hand) and card not in hand:  # (the same card, or equal)
            return Why(Reason.NOT_IN_HAND, {"card": str(getattr(card, "code", card)),
                                            "seat": player})
        if isinstance(sign, bool) or not isinstance(sign, int) or sign not in (1, -1):
            return Why(Reason.BAD_SIGN, {"sign": sign})
        if sign == -1 and not cfg.add_or_subtract:
            return Why(Reason.SIGN_FIXED)
        if sign == -1 and not self.table:
            return Why(Reason.LEAD_ADDS)
        value = sign * cfg.value(card)
        new = self.total + value
        if not cfg.low <= new <= cfg.high:
            return Why(Reason.LIMIT_EXCEEDED, {
                "card": card.code, "value": value, "before": self.total, "total": new,
                "limit": cfg.high if new > cfg.high else cfg.low})
        return None

    # ----- changing ---------------------------------------------------------------------
    def apply_action(self, action: Play, player: int | None = None) -> None:
        """Play a card; an illegal play raises IllegalActionError and changes nothing."""
        if self.is_over:
            raise IllegalActionError(Reason.GAME_OVER)
        if player is None:
            player = self.current
        if not isinstance(action, Play) or not isinstance(action.card, Card):
            raise IllegalActionError(Reason.NOT_AN_ACTION, game="flapjack", action=repr(action))
        why = self.why_illegal(player, action.card, action.sign)
        if why is not None:
            raise why.error()
        cfg = self.config
        before = self.total
        value = cfg.value(action.card)
        delta = action.sign * value
        hand = self.hands[player]
        del hand[_index_of(hand, action.card)]  # (hand.remove, the same card found sooner)
        self.table.append((action.card, delta))
        self.plays += 1
        after = before + delta
        self.events.append(Event(
            EventKind.PLAY, player, card=action.card, value=value,
            before=before, delta=delta, after=after, lead=len(self.table) == 1,
        ))
        if after in cfg.targets:
            won = [c for c, _ in self.table]
            self.tricks[player] += won
            self.table = []
            self.flapjacks[player] += 1
            self.events.append(Event(EventKind.FLAPJACK, player, after=after, count=len(won)))
        if self.draw_pile:
            card = self.draw_pile.pop(0)
            self.hands[player].append(card)
            self.events.append(Event(EventKind.DRAW, player, private=Event(
                EventKind.DRAW, player, card=card, value=cfg.value(card))))
        self._advance(player if after in cfg.targets else (player + 1) % self.players)

    def _advance(self, seat: int) -> None:
        """Give the turn to `seat`, or the next player who can play; or end the game."""
        if not self.draw_pile and not any(self.hands):
            self._end(EndReason.ALL_PLAYED)
            return
        can_move, total = self._can_move, self.total
        if not any(can_move(p, total) for p in range(self.players)):
            self._end(EndReason.BLOCKED)
            return
        while not can_move(seat, total):
            self.passes += 1
            why = PassReason.NO_CARDS if not self.hands[seat] else PassReason.NO_LEGAL_CARD
            self.events.append(Event(EventKind.PASS, seat, reason=why.value))
            seat = (seat + 1) % self.players
        self.current = seat

    def _end(self, reason: EndReason) -> None:
        self.current = None
        self.end_reason = reason
        res = self.result()
        self.events.append(Event(EventKind.END, None, reason=reason.value,
                                 values=res.cards_won, winners=res.winners))

    def result(self) -> FlapjackResult | None:
        """Cards won and winners, once the game is over."""
        if not self.is_over:
            return None
        won = tuple(len(t) for t in self.tricks)
        best = max(won)
        return FlapjackResult(won, tuple(p for p in range(self.players) if won[p] == best),
                              self.end_reason)

    def played_cards(self) -> list[Card]:
        """Every card played so far (in tricks or on the table): seen by everyone."""
        out = [c for t in self.tricks for c in t] + [c for c, _ in self.table]
        return out

    def all_cards(self) -> list[Card]:
        """Every card of the game wherever it is (for checking nothing is lost)."""
        out = list(self.draw_pile) + [c for c, _ in self.table]
        for p in range(self.players):
            out += self.hands[p] + self.tricks[p]
        return out


class FlapjackObservation(Observation):
    """A Flapjack observation: the core fields of every game (engine.observation.CORE_FIELDS)
    and Flapjack's own (low, high, targets, end_reason, total, table, played, plays, passes),
    each built when first read. `seat(p)` builds one seat alone."""

    __slots__ = ()

    # its own fields (the core ones are typed in Observation)
    low: int
    high: int
    targets: list[int]
    end_reason: str | None
    total: int
    table: list[dict[str, Any]]
    played: list[str]
    plays: int
    passes: int

    def _build_seat(self, p: int) -> dict[str, Any]:
        st = state_of(self)
        show = self._reveal or st.is_over or self.viewer == p  # leftover hands shown at the end
        value = st.config.value
        return FrozenDict({
            "seat": p,
            "hand": FrozenList([frozen_card_view(c, value(c)) for c in st.hands[p]])
            if show else None,
            "hand_count": len(st.hands[p]),
            "trick_count": len(st.tricks[p]),
            "flapjacks": st.flapjacks[p],
        })

    def _result(self) -> dict[str, Any] | None:
        res = state_of(self).result()
        return freeze(res.to_json()) if res else None

    _PARTS = observation_parts(
        "flapjack", "game viewer reveal config low high targets players dealer "
        "current_player is_over end_reason total table draw_pile played seats legal_actions "
        "plays passes events result", {
            "reveal": lambda o: o._reveal or state_of(o).is_over,
            "low": lambda o: state_of(o).config.low,
            "high": lambda o: state_of(o).config.high,
            "targets": lambda o: FrozenList(state_of(o).config.targets),
            "end_reason": lambda o: None if state_of(o).end_reason is None
            else state_of(o).end_reason.value,
            "total": lambda o: state_of(o).total,
            "table": lambda o: FrozenList([frozen_card_view(c, state_of(o).config.value(c), added=v)
                                           for c, v in state_of(o).table]),
            "draw_pile": lambda o: len(state_of(o).draw_pile),
            "played": lambda o: FrozenList([c.code for c in state_of(o).played_cards()]),
            "plays": lambda o: state_of(o).plays,
            "passes": lambda o: state_of(o).passes,
            "events": lambda o: FrozenList([freeze(e.view(o.viewer, o._reveal))
                                            for e in state_of(o).events])
            if o._with_events else FrozenList(),
            "result": _result,
        })


FlapjackState.CONFIG = FlapjackConfig
FlapjackState.OBSERVATION = FlapjackObservation  # (defined after the state it reads)


# ----- what a saved game may hold ------------------------------------------------------------
# Each check follows from ../shared/RULES.md and the way the engine changes a state; the honest
# saves of seeded random play in every variant pass them all (tests/test_forged_saves.py). Shared
# checks (the event log, exact types): engine/saves.py, engine/validate.py.
END_REASONS = tuple(r.value for r in EndReason)
EVENT_REASONS = (*(r.value for r in PassReason), *END_REASONS)
FLAPJACK_EVENTS = ("deal", "play", "draw", "flapjack", "pass", "end")
FLAPJACK_CONFIG_FIELDS = ("players", "decks", "colors", "variant", "limit", "face_cards",
                          "add_or_subtract", "targets", "signed")
FLAPJACK_FIELDS = ("game", "config", "dealer", "draw_pile", "hands", "table", "tricks",
                   "current", "end_reason", "flapjacks", "plays", "passes", "events")


def check_flapjack_config(d: Any, where: str = "config") -> dict[str, Any]:
    """Saved Flapjack settings: exact fields and types (the constructor checks the ranges)."""
    expect_fields(d, where, FLAPJACK_CONFIG_FIELDS)
    expect_int(d["players"], f"{where}.players", 2, MAX_PLAYERS)
    expect_int(d["decks"], f"{where}.decks", 1, MAX_DECKS)
    expect_choice(d["colors"], f"{where}.colors", COLORS)
    expect_choice(d["variant"], f"{where}.variant", tuple(VARIANTS))
    expect_int(d["limit"], f"{where}.limit", 1, 100)
    expect_bool(d["face_cards"], f"{where}.face_cards")
    expect_bool(d["add_or_subtract"], f"{where}.add_or_subtract")
    expect_bool(d["signed"], f"{where}.signed")
    targets = expect_list(d["targets"], f"{where}.targets")  # the constructor checks each
    if all(is_int(t) for t in targets) and targets != sorted(set(targets)):
        # the settings save them sorted, each once: anything else would load as another list
        raise fail(f"{where}.targets", f"must be in increasing order, each once; got {targets}")
    return d


def check_flapjack_state(d: Any) -> None:
    """Refuse (ConfigError) a saved Flapjack game that play by the rules cannot reach."""
    exact = type(d) is dict and "cards" in d  # a game dealt from an exact list of cards
    expect_fields(d, "Flapjack game", FLAPJACK_FIELDS + (("cards",) if exact else ()))
    if d["game"] != "flapjack":
        raise fail("game", f"must be 'flapjack'; got {d['game']!r}")
    cfg = load_config(FlapjackConfig.from_json, d["config"])
    n = cfg.players
    full = make_deck(cfg.decks, cfg.ranks)
    if exact:
        deck = expect_cards(d["cards"], "cards", HAND_SIZE * n, cfg.deck_size())
        foreign = sorted(c.key for c in deck if c not in set(full))
        if foreign or len(set(deck)) != len(deck):
            raise fail("cards", "the cards of the game must be different cards of its "
                                f"{cfg.decks} deck(s)" + (f": {', '.join(foreign)}"
                                                          if foreign else ""))
        if sorted(deck) == sorted(full):
            raise fail("cards", "the whole deck(s): saved without this field")
        full = deck
    size = len(full)
    dealer = expect_seat(d["dealer"], "dealer", n)
    draw = expect_cards(d["draw_pile"], "draw_pile", high=size - HAND_SIZE * n)
    hands = expect_list_of(d["hands"], "hands", n,
                           lambda v, w: expect_cards(v, w, 0, HAND_SIZE))
    tricks = expect_list_of(d["tricks"], "tricks", n, lambda v, w: expect_cards(v, w, 0, size))
    table = [_table_entry(x, f"table[{i}]")
             for i, x in enumerate(expect_list(d["table"], "table", high=size))]
    every_card_once(draw + [c for h in hands for c in h] + [c for c, _ in table]
                    + [c for t in tricks for c in t], full, "cards")
    flapjacks = expect_list_of(d["flapjacks"], "flapjacks", n,
                               lambda v, w: expect_int(v, w, 0, size))
    plays = expect_int(d["plays"], "plays", 0, size)
    passes = expect_int(d["passes"], "passes", 0)
    current = d["current"]
    if current is not None:
        expect_seat(current, "current", n)
    end = d["end_reason"]
    if end is not None:
        expect_choice(end, "end_reason", END_REASONS)
    check_events(d["events"], FLAPJACK_EVENTS, n, full, EVENT_REASONS)

    # Every player is dealt 7 and draws after each play while the pile lasts.
    if draw and any(len(h) != HAND_SIZE for h in hands):
        raise fail("hands", "while the draw pile has cards every hand holds 7")
    # Each play puts one card in play; a Flapjack moves the cards in play to a trick.
    if plays != len(table) + sum(len(t) for t in tricks):
        raise fail("plays", "must be the number of cards in play and in tricks")
    # Between two plays the turn passes each player at most once.
    if passes > (n - 1) * (plays + 1):
        raise fail("passes", f"at most {n - 1} passes follow each play; got {passes} after "
                             f"{plays} plays")
    _check_table(cfg, table)
    for p in range(n):
        _check_tricks(cfg, tricks[p], flapjacks[p], f"tricks[{p}]")

    state = FlapjackState(config=cfg, dealer=dealer, draw_pile=draw, hands=hands, table=table,
                          tricks=tricks, current=current, flapjacks=flapjacks)
    can_play = [p for p in range(n) if state._moves(p)]
    all_played = not draw and not any(hands)
    if end is None:
        if current is None:
            raise fail("current", "the game is not over, so a player is to play")
        if current not in can_play:
            raise fail("current", f"player {current} has no legal card, so would have passed")
        if plays == 0:
            first = next(p for k in range(n) if (p := (dealer + 1 + k) % n) in can_play)
            if current != first or passes != (first - dealer - 1) % n:
                raise fail("current", f"the first player with a legal card from the dealer's "
                                      f"left leads: player {first}")
        return
    if current is not None:
        raise fail("current", "the game is over: no one is to play")
    if end == EndReason.ALL_PLAYED.value and not all_played:
        raise fail("end_reason", "'all-played' but cards are left in hands or the draw pile")
    if end == EndReason.BLOCKED.value and (all_played or can_play):
        raise fail("end_reason", "'blocked' but " + (
            "every card has been played" if all_played else f"player(s) {can_play} can play"))


def _table_entry(x: Any, where: str) -> tuple[Card, int]:
    pair = expect_list(x, where, 2)
    card = expect_card(pair[0], f"{where}[0]")
    if not is_int(pair[1]):
        raise fail(f"{where}[1]", f"must be a whole number; got {pair[1]!r}")
    return card, pair[1]


def _check_table(cfg: FlapjackConfig, table: list[tuple[Card, int]]) -> None:
    """Each card in play added its value (or, adding or subtracting, minus it after the
    lead); every running total stayed within the limits and none made a Flapjack."""
    total = 0
    for i, (card, added) in enumerate(table):
        v = cfg.value(card)
        allowed = (v, -v) if cfg.add_or_subtract and i > 0 else (v,)
        if added not in allowed:
            raise fail(f"table[{i}]", f"{card.key} adds {' or '.join(map(str, allowed))}; "
                                      f"got {added}")
        total += added
        if not cfg.low <= total <= cfg.high:
            raise fail(f"table[{i}]", f"the total {total} is outside {cfg.low}..{cfg.high}")
        if total in cfg.targets:
            raise fail(f"table[{i}]", f"the total {total} is a Flapjack: the cards would "
                                      "have been taken")


def _check_tricks(cfg: FlapjackConfig, cards: list[Card], flapjacks: int, where: str) -> None:
    """A player's tricks are `flapjacks` runs of cards, in the order played, each ending on
    the first total that makes a Flapjack, every total within the limits (with a sign
    choice per card after the lead when adding or subtracting)."""
    # The ways to have played the cards so far: (running total, Flapjacks made, table empty).
    states = {(0, 0, True)}
    for card in cards:
        v = cfg.value(card)
        nxt: set[tuple[int, int, bool]] = set()
        for total, made, empty in states:
            for s in ((1, -1) if cfg.add_or_subtract and not empty else (1,)):
                new = total + s * v
                if not cfg.low <= new <= cfg.high:
                    continue
                if new not in cfg.targets:
                    nxt.add((new, made, False))
                elif made < flapjacks:
                    nxt.add((0, made + 1, True))
        states = nxt
    if (0, flapjacks, True) not in states:
        raise fail(where, f"{len(cards)} card(s) cannot be {flapjacks} Flapjack(s) made by "
                          "the rules, in the order played")
