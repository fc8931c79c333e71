"""Hit Me: get the sum of your cards as close to zero as you can.

`HitMeConfig` holds a table's settings, `HitMeRound` is one round (deal, hits, reveal) and
`HitMeGame` is a sequence of rounds with a score table and the passing of the deal.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.cards import (
    Card,
    Convention,
    make_deck,
    make_rng,
    shuffle,
    stacked_order,
)
from engine.errors import (
    ConfigError,
    IllegalActionError,
    Reason,
    check_int,
    is_seat,
    parse_enum,
)
from engine.events import HIDDEN_CARD, Event, EventKind, frozen_card_view
from engine.observation import (
    FrozenList,
    LazyView,
    Observation,
    freeze,
    mark,
    observation_parts,
    set_cache,
    set_stamp,
    set_state,
    state_of,
)
from engine.save_shape import (
    CARD_LISTS,
    CARDS,
    DICTS,
    LIST,
    MAYBE_CARDS,
    PLAIN,
    StateShape,
)
from engine.saves import COLORS, check_events, check_rng, load_config
from engine.validate import (
    MAX_DECKS,
    MAX_PLAYERS,
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

MAX_CARDS = 7
_set = object.__setattr__
_new = object.__new__
MAX_HITS = MAX_CARDS - 2
CARDS_PER_DECK = 52


class Phase(str, Enum):
    """Where a round is: played, then the announce step (every player done, the face-down
    cards still hidden, the one move Reveal), then revealed (every card up: `is_over`). A
    str Enum, so an observation's `phase` is its plain string in JSON ("play", "announce",
    "revealed")."""

    PLAY = "play"
    ANNOUNCE = "announce"
    REVEALED = "revealed"

    def __str__(self) -> str:
        return self.value


class TurnOrder(Enum):
    """How hits are offered."""

    ROUND_ROBIN = "round-robin"  # one hit a pass, everyone asked each pass
    ALL_AT_ONCE = "all-at-once"  # each player takes all their hits before the next player


@functools.lru_cache(maxsize=100_000)
def free_aces_high(s: int, pos_aces: int = 0, neg_aces: int = 0) -> tuple[int, int]:
    """The one rule for aces a player never chose ("ace one or eleven"): how many of the free
    positive and free negative aces count 11, given `s`, the sum with every free ace as 1.

    ../shared/RULES.md: an ace is 1; the player may count it 11; where the player never chose, the
    choice that brings the sum closest to zero. When two sums are equally close (AS and 6H:
    -5 as 1, +5 as 11), counting 11 brings it no closer, so the aces keep their value 1: of
    the closest sums, the one with the fewest aces counting 11. (That one is unique: two sums
    equally close, x and -x, never have equally many aces at 11.) `final_sum`, the end of the
    round, the hint and the computer players all count with this function (docs/rules.md)."""
    best = (0, 0)
    best_key = (abs(s), 0)
    for a in range(pos_aces + 1):
        for b in range(neg_aces + 1):
            key = (abs(s + 10 * a - 10 * b), a + b)
            if key < best_key:
                best, best_key = (a, b), key
    return best


@functools.lru_cache(maxsize=100_000)
def best_sum(s: int, pos_aces: int = 0, neg_aces: int = 0) -> int:
    """The sum that scores when the free aces count as `free_aces_high` says (`s` counts every
    free ace as 1; `pos_aces`/`neg_aces` are the free aces of each sign)."""
    a, b = free_aces_high(s, pos_aces, neg_aces)
    return s + 10 * a - 10 * b


def hit_me_value(card: Card, colors: Convention) -> int:
    """A card's Hit Me value: A = 1, 2-10 face value, J Q K = 10, signed by colour."""
    return card.hit_me_black * colors.factor


@dataclass(frozen=True)
class HitMeConfig:
    """The fixed settings of a Hit Me table."""

    players: int = 2
    decks: int | None = None  # None: the fewest decks that give every player 7 cards
    colors: Convention = Convention.BLACK_POSITIVE
    turn_order: TurnOrder = TurnOrder.ROUND_ROBIN
    ace_eleven: bool = False

    def __post_init__(self) -> None:
        check_int(self.players, "players", 2, MAX_PLAYERS)
        object.__setattr__(self, "colors", Convention.parse(self.colors))
        object.__setattr__(self, "turn_order", parse_enum(TurnOrder, self.turn_order, "turn_order"))
        object.__setattr__(self, "_factor", self.colors.factor)  # (read at every hit)
        object.__setattr__(self, "_all_at_once", self.turn_order is TurnOrder.ALL_AT_ONCE)
        if not isinstance(self.ace_eleven, bool):
            raise ConfigError(f"ace_eleven must be true or false; got {self.ace_eleven!r}")
        need = self.min_decks(self.players)
        if self.decks is None:
            object.__setattr__(self, "decks", need)
        else:
            check_int(self.decks, "decks", 1, MAX_DECKS)
            if self.decks < need:
                raise ConfigError(
                    f"decks must be {need} or more for {self.players} players "
                    f"(each player may need 7 cards); got {self.decks}",
                    "too-few-decks", players=self.players, decks=self.decks, need=need)
        object.__setattr__(self, "_cards", tuple(make_deck(self.decks)))  # (dealt each round)
        # per seat p, the other seats in playing order after it, then p itself (read at every
        # move to find the next seat still in)
        n = self.players
        object.__setattr__(self, "_after", tuple(
            tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)))

    @staticmethod
    def min_decks(players: int) -> int:
        return math.ceil(MAX_CARDS * players / CARDS_PER_DECK)

    def value(self, card: Card) -> int:
        return card.hit_me_black * self.colors.factor

    def to_json(self) -> dict[str, Any]:
        d = self.__dict__.get("_json")  # made once (every observation shows it), copied
        if d is None:
            d = self._make_json()
            object.__setattr__(self, "_json", d)
        return dict(d)

    def _make_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "decks": self.decks,
            "colors": self.colors.value,
            "turn_order": self.turn_order.value,
            "ace_eleven": self.ace_eleven,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HitMeConfig:
        return cls(**check_hit_me_config(d))


@dataclass(frozen=True)
class Hit:
    """Take one more card, face up."""

    def __str__(self) -> str:
        return "hit"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "hit"}


@dataclass(frozen=True)
class Hold:
    """Stop taking cards for the rest of the round (final)."""

    def __str__(self) -> str:
        return "hold"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "hold"}


@dataclass(frozen=True)
class ChooseAce:
    """Count one of your aces as 1 or as 11 (with its colour's sign); allowed at any time."""

    card: Card
    high: bool

    def __eq__(self, other: object) -> bool:
        # True == 1 in Python, but ChooseAce(card, 1) is refused by apply_action (an ace is
        # high or not): equal only with the same card and the same bool
        if type(other) is not ChooseAce:
            return NotImplemented
        return self.card == other.card and self.high is other.high

    def __hash__(self) -> int:
        return hash((self.card, self.high))

    def __str__(self) -> str:
        return f"count {self.card.code} as {11 if self.high else 1}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "ace", "key": self.card.key, "high": self.high}


@dataclass(frozen=True)
class Reveal:
    """Turn every face-down card up, once every player is done (and has announced a sum)."""

    def __str__(self) -> str:
        return "reveal"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "reveal"}


HitMeAction = Hit | Hold | ChooseAce | Reveal
_HIT, _HOLD = Hit(), Hold()  # (immutable: every legal_actions() list shares them)
_TURN = (_HIT, _HOLD)
_REVEAL = Reveal()


@dataclass(frozen=True)
class RoundResult:
    """The end of a round: every sum and score, and who won."""

    sums: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def __init__(self, sums: tuple[int, ...], scores: tuple[int, ...],
                 winners: tuple[int, ...]) -> None:
        # Written out (the frozen dataclass __init__ sets each field through
        # object.__setattr__): one is made at every round of every simulation.
        d = self.__dict__
        d["sums"] = sums
        d["scores"] = scores
        d["winners"] = winners

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Any]:
        return {"sums": list(self.sums), "scores": list(self.scores),
                "winners": list(self.winners), "tie": self.tie}


# A round's saved fields, in order (engine.save_shape writes and reads them).
HIT_ME_SAVE = (("dealer", PLAIN), ("deck", CARDS), ("face_down", MAYBE_CARDS),
               ("face_up", CARD_LISTS), ("held", LIST), ("ace_high", DICTS),
               ("current", PLAIN), ("revealed", PLAIN))


# The event log keeps each step as a compact record, a tuple (builder, *numbers), and makes
# the Event (engine.events) only when someone reads `state.events`: a simulation never reads
# most of them. The builders below give exactly the events the steps used to log directly.
def _deal_event(seat: int, up: Card, up_value: int, down: Card, down_value: int) -> Event:
    return Event(EventKind.DEAL, seat, card=up, value=up_value,
                 private=Event(EventKind.DEAL, seat, card=down, value=down_value,
                               values=(down_value, up_value), after=down_value + up_value))


def _hit_event(seat: int, card: Card, shown: int, before_up: int, before: int, value: int,
               ) -> Event:
    return Event.make(EventKind.HIT, seat, card=card, value=shown, before=before_up,
                      delta=shown, after=before_up + shown,
                      private=Event.make(EventKind.HIT, seat, before=before, delta=value,
                                         after=before + value))


def _full_event(seat: int) -> Event:
    return Event.make(EventKind.FULL, seat)


def _hold_event(seat: int, total: int) -> Event:
    return Event.make(EventKind.HOLD, seat, private=Event.make(
        EventKind.HOLD, seat, after=total, score=abs(total)))


def _reveal_event(seat: int, card: Card | None, values: tuple[int, ...], total: int,
                  score: int) -> Event:
    return Event(EventKind.REVEAL, seat, card=card, value=values[0], values=values,
                 after=total, score=score)


def _plain_reveal_event(seat: int, down: Card | None, up: list[Card], factor: int, total: int,
                        score: int) -> Event:
    """A reveal without the ace rule: each card's value is its shown value (the hand no
    longer changes once revealed, so `up` is read when the Event is made)."""
    values = tuple([c.hit_me_black * factor for c in ([down, *up] if down is not None else up)])
    return _reveal_event(seat, down, values, total, score)


def _result_event(winners: tuple[int, ...], score: int) -> Event:
    return Event(EventKind.RESULT, None, winners=winners, score=score)


def _events(self: HitMeRound) -> list[Event]:
    """The event log (engine.events.Event), each step's Event made when first read."""
    log = self._log
    n = len(log)
    if self._built != n:
        for i in range(self._built, n):
            rec = log[i]
            if type(rec) is tuple:
                log[i] = rec[0](*rec[1:])
        self._built = n
    return log


def _set_events(self: HitMeRound, events: list[Event]) -> None:
    self._log = events if type(events) is list else list(events)
    self._built = 0


@dataclass
class HitMeRound(StateShape):
    """One round of Hit Me. Change it only through `apply_action`. Its observation, save
    and clone come from engine.save_shape.StateShape."""

    GAME = "hit-me"
    SAVE = HIT_ME_SAVE

    @classmethod
    def check_save(cls, d: Any) -> None:
        check_hit_me_round(d)

    config: HitMeConfig
    dealer: int
    deck: list[Card]  # what is left, top first
    face_down: list[Card | None]
    face_up: list[list[Card]]
    held: list[bool]
    ace_high: list[dict[str, bool]]  # per player: card key -> counts as 11?
    current: int | None
    events: list[Event] = field(default_factory=list)
    revealed: bool = False  # the Reveal step, after every player is done
    # Kept up to date by the moves (None: work them out again on first use): per seat, the
    # face-up sum as shown and the own sum (aces as chosen); the result once over.
    _up_sums: list[int] | None = field(default=None, init=False, repr=False, compare=False)
    _sums: list[int] | None = field(default=None, init=False, repr=False, compare=False)
    _result: tuple[int, RoundResult | None] | None = field(
        default=None, init=False, repr=False, compare=False)
    # per seat: no longer asked (held, or 7 cards), i.e. `not is_in(seat)`
    _out: list[bool] | None = field(default=None, init=False, repr=False, compare=False)

    # ----- making a round -------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        config: HitMeConfig,
        rng: random.Random | int | str | None = None,
        deck: Sequence[Card] | str | None = None,
        *,
        dealer: int = 0,
    ) -> HitMeRound:
        """Gather, shuffle and deal a new round. `deck` stacks the top of the deck (top first).
        The same arguments as `FlapjackState.deal`: (config, rng, deck, dealer=...)."""
        if not isinstance(config, HitMeConfig):
            raise ConfigError("config must be a HitMeConfig")
        if type(dealer) is not int or not 0 <= dealer < config.players:
            check_int(dealer, "dealer", 0, config.players - 1)
        if type(rng) is not random.Random:
            rng = make_rng(rng)
        if deck is None:  # (stacked_order with nothing stacked: the same one shuffle)
            order = list(config._cards)
            shuffle(order, rng)
        else:
            order = stacked_order(make_deck(config.decks), deck, rng, f"{config.decks} deck(s)")
        n = config.players
        face_down: list[Card | None] = [None] * n
        face_up: list[list[Card]] = [[]] * n  # (each seat's list is put in below)
        up_sums, sums = [0] * n, [0] * n
        log: list[Any] = []
        f = config._factor
        seats = config._after[dealer]  # left of the dealer first, dealer last
        for i, s in enumerate(seats):
            down, up = order[i], order[n + i]  # one card face down to each, then one face up
            face_down[s] = down
            face_up[s] = [up]
            down_value, up_value = down.hit_me_black * f, up.hit_me_black * f  # (no ace chosen)
            up_sums[s] = up_value
            sums[s] = down_value + up_value
            log.append((_deal_event, s, up, up_value, down, down_value))
        # cls(config=..., dealer=..., ...) with every other field at its default, written out
        # (a round is dealt for every round of every simulation); everyone is in, so the seat
        # left of the dealer plays first
        state = _new(cls)
        state.__dict__.update({
            "config": config, "dealer": dealer, "deck": order[2 * n:], "face_down": face_down,
            "face_up": face_up, "held": [False] * n, "ace_high": [{} for _ in seats],
            "current": seats[0], "revealed": False, "_log": log, "_built": 0,
            "_up_sums": up_sums, "_sums": sums, "_result": None, "_out": [False] * n})
        return state

    # ----- reading the state ------------------------------------------------------------
    @property
    def players_done(self) -> bool:
        """Every player is done (`current_player` is None): no more hits, holds or ace
        choices. The round then waits in its announce step (`Phase.ANNOUNCE`: face-down cards
        still hidden, the one move Reveal) until a Reveal turns them up (`is_over`)."""
        return self.current is None

    @property
    def is_over(self) -> bool:
        """The round has ended and every card is face up (nothing more to do)."""
        return self.revealed

    @property
    def phase(self) -> Phase:
        """PLAY, then ANNOUNCE (everyone done, cards not yet turned up), then REVEALED."""
        return Phase.REVEALED if self.revealed else (
            Phase.ANNOUNCE if self.current is None else Phase.PLAY)

    @property
    def current_player(self) -> int | None:
        return self.current

    def cards(self, player: int) -> list[Card]:
        """All of a player's cards: the face-down one first."""
        down = self.face_down[player]
        return [down, *self.face_up[player]] if down is not None else list(self.face_up[player])

    def hits(self, player: int) -> int:
        return len(self.face_up[player]) - 1

    def is_in(self, player: int) -> bool:
        """Still to be asked: has not held and has fewer than 7 cards."""
        return not self.held[player] and \
            len(self.face_up[player]) + (self.face_down[player] is not None) < MAX_CARDS

    def card_value(self, player: int, card: Card) -> int:
        """A card's value in this player's hand, counting an ace as chosen."""
        v = card.hit_me_black * self.config.colors.factor
        if card.rank == 1 and self.config.ace_eleven and self.ace_high[player].get(card.key):
            v *= 11
        return v

    def card_values(self, player: int) -> list[int]:
        if self.config.ace_eleven:
            return [self.card_value(player, c) for c in self.cards(player)]
        f = self.config.colors.factor
        return [c.hit_me_black * f for c in self.cards(player)]

    def sum(self, player: int) -> int:
        """The player's sum with their ace choices so far."""
        sums = self._sums
        if sums is None:
            sums = self._count_sums()
        return sums[player]

    def _count_sums(self) -> list[int]:
        """Work out every seat's running sums from its cards (after a deal or a load)."""
        f = self.config.colors.factor
        self._up_sums = [sum([c.hit_me_black for c in up]) * f for up in self.face_up]
        sums = self._sums = [sum(self.card_values(p)) for p in range(self.players)]
        return sums

    def final_sum(self, player: int) -> int:
        """The sum that scores: chosen aces as chosen, the others as `free_aces_high` says
        (closest to 0; on a tie, aces keep 1)."""
        if not self.config.ace_eleven:
            return self.sum(player)
        s = pos = neg = 0
        chosen = self.ace_high[player]
        for c in self.cards(player):
            v = self.card_value(player, c)  # (a free ace as 1)
            s += v
            if c.rank == 1 and c.key not in chosen:
                pos += v > 0
                neg += v < 0
        return best_sum(s, pos, neg)

    def pass_number(self) -> int:
        """Round robin: which pass of hits (1 to 5) is being asked now (0 when over)."""
        if self.current is None:
            return 0
        return self.hits(self.current) + 1

    def legal_actions(self, player: int | None = None) -> list[HitMeAction]:
        """Every move `player` (default: whoever is to act) may make now. In the announce
        phase the one move is Reveal (for anyone). An ace never chosen may be set to 1 or 11;
        a chosen one only to the other value (keeping its value is not a move). Aces may be
        chosen at any time until every player is done (../shared/RULES.md), not only on one's
        turn."""
        if player == self.current and type(player) is int and not self.config.ace_eleven:
            return [_HIT, _HOLD]  # the common case: the seat to play (so not over), no aces
        if self.revealed:
            return []
        if self.current is None:
            return [_REVEAL] if player is None or is_seat(player, self.players) else []
        if player is None:
            player = self.current
        if not is_seat(player, self.players):
            return []
        if not self.config.ace_eleven:
            return [_HIT, _HOLD] if player == self.current else []
        actions: list[HitMeAction] = []
        if player == self.current:
            actions += [_HIT, _HOLD]
        if self.config.ace_eleven:
            chosen = self.ace_high[player]
            for c in self.cards(player):
                if c.rank == 1:
                    if c.key in chosen:
                        actions.append(ChooseAce(c, not chosen[c.key]))
                    else:
                        actions += [ChooseAce(c, False), ChooseAce(c, True)]
        return actions

    def turn_actions(self) -> tuple[HitMeAction, ...] | None:
        """The legal actions of the seat to play at each of its turns in this round, if they
        never change: (Hit, Hold) without the ace rule, so `legal_actions(current)` lists
        exactly these. None with the ace rule (ace choices come and go)."""
        return None if self.config.ace_eleven else _TURN

    # ----- changing the state -------------------------------------------------------------
    def apply_action(self, action: HitMeAction, player: int | None = None) -> None:
        """Make one move; an illegal one raises IllegalActionError and changes nothing."""
        kind = type(action)
        if (kind is not Hit and kind is not Hold) or player != self.current \
                or type(player) is not int or self.revealed:
            self._check_and_apply(action, player)  # every other case, checked there
            return
        # The common case, checked: a hit or a hold by the seat to play (an int equal to
        # `current`, so the round is in play).
        self._turn(kind is Hit, player)

    def _turn(self, hit: bool, player: int) -> None:
        """A hit (or a hold) by `player`, the seat to play, as checked by apply_action or
        play_turns. It runs at every step of every simulation."""
        sums = self._sums
        if sums is None:
            sums = self._count_sums()
        out = self._out
        if out is None:  # (after a load: worked out from the cards)
            out = self._out = [not self.is_in(p) for p in range(len(self.held))]
        config = self.config
        if hit:
            up = self.face_up[player]
            card = self.deck.pop(0)
            up.append(card)
            shown = card.hit_me_black * config._factor
            # (card_value, inlined: without the ace rule a card counts as shown)
            v = shown if card.rank != 1 or not config.ace_eleven \
                else self.card_value(player, card)
            up_sums = self._up_sums
            before_up = up_sums[player]
            before = sums[player]
            up_sums[player] = before_up + shown
            sums[player] = before + v
            log = self._log
            log.append((_hit_event, player, card, shown, before_up, before, v))
            if len(up) >= MAX_CARDS - 1 and \
                    len(up) + (self.face_down[player] is not None) == MAX_CARDS:
                log.append((_full_event, player))
                out[player] = True
            elif config._all_at_once:
                return  # (the same seat hits again)
        else:
            self.held[player] = True
            self._log.append((_hold_event, player, sums[player]))
            out[player] = True
        # the next seat still in after `player` (_next_in, inlined)
        for seat in config._after[player]:
            if not out[seat]:
                self.current = seat
                return
        self.current = None

    def play_turns(self, choose: Sequence[Callable[[Any, list[HitMeAction]], Any]]) -> None:
        """Ask the seat to play for its move until everyone is done (the announce step is not
        made): `choose[seat](observation, legal)` returns a decision (its `.action` is made
        through `apply_action`, so checked). Each seat gets only its own observation, the
        one `observation(seat, False, False)` gives (made as `HitMeObservation.for_seat_to_play`
        makes it, written out here: a simulation makes one at every step), and its legal
        actions as a fresh list (`turn_actions()` when they never change in the round:
        `legal_actions(seat)` lists the same)."""
        apply = self.apply_action
        fixed = self.turn_actions()
        if fixed is not None:
            classes, marks, turn = _SeatToPlay.of_seat, _VIEWER_MARKS, self._turn
            while (seat := self.current) is not None:  # (an int: the seat to play)
                o = classes[seat](marks[seat])  # (its viewer is `seat`)
                set_state(o, self)
                set_stamp(o, len(self._log))
                action = choose[seat](o, [*fixed]).action
                kind = type(action)
                if kind is Hit or kind is Hold:  # (apply_action's checks, all met here)
                    turn(kind is Hit, seat)
                else:
                    apply(action, seat)  # (checked there)
        legal, seat_view = self.legal_actions, HitMeObservation.for_seat_to_play
        while (seat := self.current) is not None:
            apply(choose[seat](seat_view(self, seat), legal(seat)).action, seat)

    def _check_and_apply(self, action: HitMeAction, player: int | None) -> None:
        """apply_action's checks and its moves other than a hit or hold by the seat to play
        (given as an int): raises IllegalActionError, changing nothing, for an illegal one."""
        if self.revealed:
            raise IllegalActionError(Reason.GAME_OVER)
        if isinstance(action, Reveal):
            if player is not None and not is_seat(player, self.players):
                raise IllegalActionError(Reason.NO_SUCH_PLAYER, seat=player)
            if self.current is not None:
                raise IllegalActionError(Reason.NOT_ANNOUNCING)
            self._reveal()
            return
        if self.current is None:
            raise IllegalActionError(Reason.GAME_OVER)
        if player is None:
            player = self.current
        if isinstance(player, bool) or not isinstance(player, int) \
                or not 0 <= player < self.players:
            raise IllegalActionError(Reason.NO_SUCH_PLAYER, seat=player)
        if isinstance(action, ChooseAce):
            self._choose_ace(action, player)
            return
        if not isinstance(action, Hit | Hold):
            raise IllegalActionError(Reason.NOT_AN_ACTION, game="hit-me", action=repr(action))
        if player != self.current:
            raise IllegalActionError(Reason.NOT_YOUR_TURN, current=self.current, seat=player)
        # a hit or a hold by the seat to play, now checked (an int subclass or None as the
        # seat, or a subclass of Hit or Hold as the move): made by the common case
        self.apply_action(_HIT if isinstance(action, Hit) else _HOLD, int(player))

    def _choose_ace(self, action: ChooseAce, player: int) -> None:
        if not self.config.ace_eleven:
            raise IllegalActionError(Reason.ACE_RULE_OFF)
        if not isinstance(action.card, Card) or action.card not in self.cards(player):
            raise IllegalActionError(Reason.NOT_YOUR_CARD, seat=player,
                                     card=str(getattr(action.card, "code", action.card)))
        if action.card.rank != 1:
            raise IllegalActionError(Reason.NOT_AN_ACE, card=action.card.code)
        if not isinstance(action.high, bool):
            raise IllegalActionError(Reason.ACE_VALUE, high=repr(action.high))
        if self.ace_high[player].get(action.card.key, None) is action.high:
            raise IllegalActionError(Reason.ACE_UNCHANGED, card=action.card.code,
                                     value=self.card_value(player, action.card))
        self.ace_high[player][action.card.key] = action.high
        self._sums = None  # worked out again from the cards
        s = self.sum(player)
        self.events.append(Event(EventKind.ACE, player, private=Event(
            EventKind.ACE, player, card=action.card,
            value=self.card_value(player, action.card), after=s)))

    def _next_in(self, after: int) -> int | None:
        n = self.players
        held, up, down = self.held, self.face_up, self.face_down
        for i in range(1, n + 1):
            seat = (after + i) % n
            if not held[seat] and len(up[seat]) + (down[seat] is not None) < MAX_CARDS:
                return seat  # is_in(seat)
        return None

    def _reveal(self) -> None:
        self.revealed = True
        res = self.result()
        log, sums, scores = self._log, res.sums, res.scores
        if not self.config.ace_eleven:
            f, down, up = self.config._factor, self.face_down, self.face_up
            for s in self.config._after[self.dealer]:  # left of the dealer first
                log.append((_plain_reveal_event, s, down[s], up[s], f, sums[s], scores[s]))
        else:
            for s in self._seat_order():
                log.append((_reveal_event, s, self.face_down[s], tuple(self._final_values(s)),
                            sums[s], scores[s]))
        log.append((_result_event, res.winners, res.scores[res.winners[0]]))
        self._result = (len(log), res)  # (no move changes a result once everyone is done)

    def _final_values(self, player: int) -> list[int]:
        """Card values as scored (unchosen aces set to the best choice)."""
        target = self.final_sum(player)
        fixed = self.card_values(player)
        free = [i for i, c in enumerate(self.cards(player))
                if c.rank == 1 and c.key not in self.ace_high[player]]
        for highs in itertools.product((False, True), repeat=len(free)):
            vals = list(fixed)
            for i, h in zip(free, highs, strict=True):
                vals[i] = vals[i] * (11 if h else 1)
            if sum(vals) == target:
                return vals
        return fixed

    def _seat_order(self) -> list[int]:
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def result(self) -> RoundResult | None:
        """Sums, scores (|sum|) and winners once the round is over (worked out once a move)."""
        if self.current is not None:
            return None
        cached = self._result
        version = len(self._log)
        if cached is not None and cached[0] == version:
            return cached[1]
        if self.config.ace_eleven:
            sums = tuple(self.final_sum(p) for p in range(self.players))
        else:
            sums = tuple(self._sums if self._sums is not None else self._count_sums())
        scores = tuple(map(abs, sums))
        best = min(scores)
        if scores.count(best) == 1:
            winners: tuple[int, ...] = (scores.index(best),)
        else:
            winners = tuple([p for p, sc in enumerate(scores) if sc == best])
        res = _new(RoundResult)  # RoundResult(sums, scores, winners), written out
        _set(res, "__dict__", {"sums": sums, "scores": scores, "winners": winners})
        self._result = (version, res)
        return res

    def all_cards(self) -> list[Card]:
        """Every card of the round wherever it is (for checking nothing is lost)."""
        out = list(self.deck)
        for p in range(self.players):
            out += self.cards(p)
        return out


class HitMeGame:
    """A game of many Hit Me rounds: a score table and the passing of the deal."""

    def __init__(
        self,
        config: HitMeConfig,
        seed: random.Random | int | str | None = None,
        deck: Sequence[Card] | str | None = None,
    ) -> None:
        """`seed` makes the whole game repeatable; `deck` stacks the first round's deck."""
        self.config = config
        self.seed = seed if not isinstance(seed, random.Random) else None
        self.rng = make_rng(seed)
        self.wins = [0] * config.players
        self.ties = [0] * config.players
        self.last_dealt: list[int | None] = [None] * config.players
        self.history: list[RoundResult] = []
        self.dealer = 0
        self.last_dealt[0] = 0
        self._recorded = False
        self.round = HitMeRound.deal(config, self.rng, deck, dealer=0)

    @property
    def rounds_played(self) -> int:
        return len(self.history)

    def finish_round(self) -> RoundResult:
        """Record the over round in the score table (once) and return its result."""
        if not self.round.players_done:
            raise IllegalActionError(Reason.ROUND_NOT_OVER)
        if not self.round.revealed:
            self.round.apply_action(_REVEAL)
        res = self.round.result()
        if not self._recorded:
            self._record(res)
        return res

    def _record(self, res: RoundResult) -> None:
        self.history.append(res)
        self._recorded = True
        if res.tie:
            for w in res.winners:
                self.ties[w] += 1
        else:
            self.wins[res.winners[0]] += 1

    def next_dealer(self) -> int:
        """The winner deals; after a tie, whoever dealt least recently (seat order breaks ties)."""
        res = self.round.result()
        if res is None:
            raise IllegalActionError(Reason.ROUND_NOT_OVER)
        if not res.tie:
            return res.winners[0]
        n = self.config.players
        order = [(self.dealer + 1 + i) % n for i in range(n)]

        def staleness(seat: int) -> int:
            last = self.last_dealt[seat]
            return -1 if last is None else last

        return min(order, key=staleness)  # min is stable: seat order breaks ties

    def next_round(self, deck: Sequence[Card] | str | None = None) -> HitMeRound:
        """Start the next round with a fresh shuffle of every card."""
        if not self.round.players_done:
            raise IllegalActionError(Reason.FINISH_ROUND_FIRST)
        if not self.round.revealed:
            self.round.apply_action(_REVEAL)
        if not self._recorded:
            self._record(self.round.result())
        self.dealer = self.next_dealer()
        self.last_dealt[self.dealer] = len(self.history)
        self.round = HitMeRound.deal(self.config, self.rng, deck, dealer=self.dealer)
        self._recorded = False
        return self.round

    def to_json(self) -> dict[str, Any]:
        """The whole game, generator state included, as JSON-ready data."""
        version, internal, gauss = self.rng.getstate()
        return {
            "game": "hit-me-game",
            "config": self.config.to_json(),
            "rng": [version, list(internal), gauss],
            "wins": list(self.wins),
            "ties": list(self.ties),
            "last_dealt": list(self.last_dealt),
            "history": [r.to_json() for r in self.history],
            "dealer": self.dealer,
            "recorded": self._recorded,
            "round": self.round.to_json(),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HitMeGame:
        check_hit_me_game(d)  # refuses a forged save, builds nothing
        game = cls.__new__(cls)
        game.config = HitMeConfig.from_json(d["config"])
        game.seed = None
        game.rng = random.Random()
        version, internal, gauss = d["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        game.wins = list(d["wins"])
        game.ties = list(d["ties"])
        game.last_dealt = list(d["last_dealt"])
        game.history = [RoundResult(tuple(r["sums"]), tuple(r["scores"]), tuple(r["winners"]))
                        for r in d["history"]]
        game.dealer = d["dealer"]
        game._recorded = d["recorded"]
        game.round = HitMeRound.from_json(d["round"])
        return game

    def score_table(self) -> list[dict[str, int]]:
        """Round wins and ties per seat."""
        return [{"seat": p, "wins": self.wins[p], "ties": self.ties[p]}
                for p in range(self.config.players)]


class HitMeSeat(LazyView):
    """One seat as one viewer sees it (an entry of the observation's `seats`), each field
    built when first read: `sum` and `values` need no card view. Keys: seat, face_down,
    face_up, held, hits, cards, in, face_up_sum, sum, abs, values (sum, abs and values are
    None for a seat whose face-down card the viewer may not see)."""

    __slots__ = ("_p", "_mine")

    def __init__(self, state: HitMeRound, p: int, mine: bool, stamp: int) -> None:
        set_state(self, state)
        _set(self, "_stamp", stamp)
        _set(self, "_cache", {"seat": p})
        mark(self, "seat", p)
        _set(self, "_p", p)
        _set(self, "_mine", mine)

    def _own_views(self) -> list[dict[str, Any]]:
        st, p = state_of(self), self._p
        own = st.card_values(p)  # face-down first, aces as chosen
        if st.config.ace_eleven:
            chosen = st.ace_high[p]
            return [frozen_card_view(c, v, ace_high=chosen.get(c.key)) if c.rank == 1
                    else frozen_card_view(c, v)
                    for c, v in zip(st.cards(p), own, strict=True)]
        return [frozen_card_view(c, v) for c, v in zip(st.cards(p), own, strict=True)]

    def _face_down(self) -> dict[str, Any]:
        st, p = state_of(self), self._p
        if not self._mine:
            return HIDDEN_CARD
        if st.face_down[p] is None:
            return frozen_card_view(st.face_down[p], None)
        return self._own_views()[0]

    def _face_up(self) -> list[dict[str, Any]]:
        st, p = state_of(self), self._p
        if self._mine:
            views = self._own_views()
            return FrozenList(views[1:] if st.face_down[p] is not None else views)
        f = st.config.colors.factor
        return FrozenList([frozen_card_view(c, c.hit_me_black * f) for c in st.face_up[p]])

    def _count(self) -> int:
        st, p = state_of(self), self._p
        return len(st.face_up[p]) + (st.face_down[p] is not None)

    def _sum(self) -> int | None:
        if not self._mine:
            return None
        st = state_of(self)
        if st.config.ace_eleven and st.current is None:
            return st.final_sum(self._p)
        sums = st._sums
        return (sums if sums is not None else st._count_sums())[self._p]

    def _values(self) -> list[int] | None:
        if not self._mine:
            return None
        st, p = state_of(self), self._p
        if st.config.ace_eleven and st.current is None:
            # once every player is done, an ace never chosen counts the way that brings the
            # sum closest to 0
            return FrozenList(st._final_values(p))
        return FrozenList(st.card_values(p))

    def _face_up_sum(self) -> int:
        st, p = state_of(self), self._p
        if st._up_sums is None:
            st._count_sums()
        return st._up_sums[p]

    _PARTS = {
        "seat": lambda o: o._p,
        "face_down": _face_down,
        "face_up": _face_up,
        "held": lambda o: state_of(o).held[o._p],
        "hits": lambda o: len(state_of(o).face_up[o._p]) - 1,
        "cards": _count,
        "in": lambda o: state_of(o).current is not None and not state_of(o).held[o._p]
        and o["cards"] < MAX_CARDS,
        "face_up_sum": _face_up_sum,
        "sum": _sum,
        "abs": lambda o: None if o["sum"] is None else abs(o["sum"]),
        "values": _values,
    }


def seat_ace_state(seat: Any) -> tuple[int, int, int]:
    """(sum with free aces as 1, free positive aces, free negative aces) of a seat as its own
    player sees it (aces-eleven games: a free ace is one whose value is not chosen yet)."""
    s = p = n = 0
    for card in [seat["face_down"], *seat["face_up"]]:
        v = card["value"]
        s += v
        if card.get("rank") == 1 and card.get("ace_high") is None:
            p += v > 0
            n += v < 0
    return (s, p, n)


class HitMeObservation(Observation):
    """A Hit Me observation: the core fields of every game (engine.observation.CORE_FIELDS),
    then Hit Me's own (pass_number, phase, revealed); each built when first read."""

    __slots__ = ()

    # its own fields (the core ones are typed in Observation)
    pass_number: int
    phase: str
    revealed: bool

    @staticmethod
    def for_seat_to_play(state: HitMeRound, seat: int) -> HitMeObservation:
        """`state.observation(seat, False, False)` for the seat to play (`state.current`,
        so a real seat): what a computer player gets, made without checking the seat again
        (a simulation makes one at every step)."""
        o = _SeatToPlay.of_seat[seat](_VIEWER_MARKS[seat])  # (its viewer is `seat`)
        set_state(o, state)
        set_stamp(o, len(state._log))
        return o  # (its cache of built parts is made at the first read of one)

    def own_state(self) -> tuple[int, int, int]:
        """The viewer's (sum with free aces as 1, free positive aces, free negative aces):
        what a computer player reads (engine.bots.own_hit_me_state), worked out from the
        viewer's own seat only."""
        st, me = state_of(self), self.viewer
        if len(st._log) != self._stamp:
            self._check()
        if me is None:
            raise ConfigError("a bot needs the observation of its own seat (viewer is None)")
        if not st.config.ace_eleven:
            sums = st._sums
            return ((sums if sums is not None else st._count_sums())[me], 0, 0)
        return seat_ace_state(self.seat(me))

    def _build_seat(self, p: int) -> HitMeSeat:
        st = state_of(self)
        return HitMeSeat(st, p, p == self.viewer or self._reveal or st.revealed, self._stamp)

    def _events(self) -> list[dict[str, Any]]:
        if not self._with_events:
            return FrozenList()
        st, viewer, reveal = state_of(self), self.viewer, self._reveal
        show_all = reveal or st.revealed
        # An ace choice is a private thought: telling others of it would reveal that a
        # face-down card is an ace, so others see it only once the round is over.
        return FrozenList([freeze(e.view(viewer, reveal)) for e in st.events
                           if e.kind is not EventKind.ACE or show_all or e.player == viewer])

    def _result(self) -> dict[str, Any] | None:
        st = state_of(self)
        res = st.result() if self._reveal or st.revealed else None
        return freeze(res.to_json()) if res else None

    _PARTS = observation_parts(
        "hit-me", "game viewer reveal config players dealer current_player pass_number is_over "
        "phase revealed draw_pile seats legal_actions events result", {
            "reveal": lambda o: o._reveal or state_of(o).revealed,
            "pass_number": lambda o: state_of(o).pass_number(),
            "phase": lambda o: state_of(o).phase,
            "revealed": lambda o: state_of(o).revealed,
            "draw_pile": lambda o: len(state_of(o).deck),  # the face-down pile's count
            "events": _events,
            "result": _result,
        })


class _SeatToPlay(HitMeObservation):
    """A HitMeObservation made by `HitMeObservation.for_seat_to_play`: its two flags are
    fixed (no reveal, no event log), so they are class attributes instead of slots to set, and
    so is its viewer (`_SeatToPlay.of_seat[seat]` is the class of one seat's observations)."""

    __slots__ = ()
    _reveal = False
    _with_events = False
    of_seat: tuple[type[_SeatToPlay], ...] = ()  # (set below, one class a seat)
    # Made as `of_seat[seat](_VIEWER_MARKS[seat])`: the dict's own storage gets the view's
    # one field (engine.observation.mark) in the same call that makes it.
    __init__ = dict.__init__  # type: ignore[assignment]

    # Its cache of built parts is made when first needed (a threshold bot reads own_state()
    # only): the two readers of the cache make sure it is there.
    def __getitem__(self, key: str) -> Any:
        try:
            self._cache  # noqa: B018
        except AttributeError:
            set_cache(self, {})
        return HitMeObservation.__getitem__(self, key)

    def seat(self, p: int) -> Any:
        try:
            self._cache  # noqa: B018
        except AttributeError:
            set_cache(self, {})
        return HitMeObservation.seat(self, p)


def _seat_to_play_class(seat: int) -> type[_SeatToPlay]:
    """The _SeatToPlay of one seat: its viewer is a class attribute too (one slot fewer to
    set at every step of a simulation)."""
    cls = type("_SeatToPlay", (_SeatToPlay,), {"__slots__": (), "viewer": seat,
                                                "__module__": __name__})
    cls.__qualname__ = f"_SeatToPlay.of_seat[{seat}]"
    return cls


# per seat: the class of its observations made by for_seat_to_play, and the field its dict
# storage holds
_SeatToPlay.of_seat = tuple(_seat_to_play_class(seat) for seat in range(MAX_PLAYERS))
_VIEWER_MARKS = tuple({"viewer": seat} for seat in range(MAX_PLAYERS))

# The observation classes of Hit Me (a type test on this set is much cheaper than isinstance,
# which goes through the Mapping ABC machinery).
HIT_ME_OBSERVATIONS = frozenset({HitMeObservation, _SeatToPlay, *_SeatToPlay.of_seat})

HitMeRound.events = property(_events, _set_events, doc=_events.__doc__)  # (a dataclass field)
HitMeRound.CONFIG = HitMeConfig
HitMeRound.OBSERVATION = HitMeObservation  # (defined after the state it reads)


# ----- what a saved round or game may hold ---------------------------------------------------
# Each check follows from ../shared/RULES.md and the way the engine changes a state; the honest
# saves of seeded random play in every variant pass them all (tests/test_forged_saves.py). Shared
# checks (the event log, the generator, exact types): engine/saves.py, engine/validate.py.
TURN_ORDERS = tuple(t.value for t in TurnOrder)
HIT_ME_EVENTS = ("deal", "hit", "hold", "full", "ace", "reveal", "result")
HIT_ME_CONFIG_FIELDS = ("players", "decks", "colors", "turn_order", "ace_eleven")
HIT_ME_ROUND_FIELDS = ("game", "config", "dealer", "deck", "face_down", "face_up", "held",
                       "ace_high", "current", "revealed", "events")
HIT_ME_GAME_FIELDS = ("game", "config", "rng", "wins", "ties", "last_dealt", "history",
                      "dealer", "recorded", "round")
RESULT_FIELDS = ("sums", "scores", "winners", "tie")


def check_hit_me_config(d: Any, where: str = "config") -> dict[str, Any]:
    """Saved Hit Me settings: exact fields and types (the constructor checks the ranges)."""
    expect_fields(d, where, HIT_ME_CONFIG_FIELDS)
    expect_int(d["players"], f"{where}.players", 2, MAX_PLAYERS)
    expect_int(d["decks"], f"{where}.decks", 1, MAX_DECKS)
    expect_choice(d["colors"], f"{where}.colors", COLORS)
    expect_choice(d["turn_order"], f"{where}.turn_order", TURN_ORDERS)
    expect_bool(d["ace_eleven"], f"{where}.ace_eleven")
    return d


def check_hit_me_round(d: Any, where: str = "Hit Me round") -> None:
    """Refuse (ConfigError) a saved round that play by the rules cannot reach."""
    expect_fields(d, where, HIT_ME_ROUND_FIELDS)
    if d["game"] != "hit-me":
        raise fail(f"{where}.game", f"must be 'hit-me'; got {d['game']!r}")
    cfg = load_config(HitMeConfig.from_json, d["config"])
    n = cfg.players
    dealer = expect_seat(d["dealer"], "dealer", n)
    deck = expect_cards(d["deck"], "deck", high=cfg.decks * CARDS_PER_DECK)
    face_down = expect_list_of(d["face_down"], "face_down", n, expect_card)
    # Two cards are dealt to each; a player takes hits up to 7 cards in all.
    face_up = expect_list_of(d["face_up"], "face_up", n,
                             lambda v, w: expect_cards(v, w, 1, MAX_CARDS - 1))
    held = expect_list_of(d["held"], "held", n, expect_bool)
    current = d["current"]
    if current is not None:
        expect_seat(current, "current", n)
    every_card_once(deck + face_down + [c for cs in face_up for c in cs],
                    make_deck(cfg.decks), "cards")
    aces = [{c.key for c in [face_down[p], *face_up[p]] if c.rank == 1} for p in range(n)]
    ace_high = expect_list(d["ace_high"], "ace_high", n)
    for p, choices in enumerate(ace_high):
        if type(choices) is not dict:
            raise fail(f"ace_high[{p}]", f"must be an object; got {type(choices).__name__}")
        if choices and not cfg.ace_eleven:
            raise fail(f"ace_high[{p}]", "aces count 1 only: the 'ace one or eleven' rule is off")
        for key, high in choices.items():
            if key not in aces[p]:
                raise fail(f"ace_high[{p}]", f"{key!r} is not one of player {p}'s aces")
            expect_bool(high, f"ace_high[{p}][{key!r}]")
    revealed = expect_bool(d["revealed"], "revealed")
    events = check_events(d["events"], HIT_ME_EVENTS, n, make_deck(cfg.decks))
    shown = sum(e["kind"] == "reveal" for e in events), sum(e["kind"] == "result" for e in events)

    # The engine's own reading of these pieces answers who is still in.
    rnd = HitMeRound(config=cfg, dealer=dealer, deck=deck, face_down=face_down,
                     face_up=face_up, held=held, ace_high=ace_high, current=current)
    for p in range(n):
        if held[p] and len(rnd.cards(p)) >= MAX_CARDS:
            raise fail(f"held[{p}]", "a player with 7 cards is never asked, so cannot hold")
    if current is None:
        still = [p for p in range(n) if rnd.is_in(p)]
        if still:
            raise fail("current", f"the round is over but player(s) {still} are still in")
        _check_reveal_logged(revealed, shown, n)
        return
    if revealed:
        raise fail("revealed", f"the cards are turned up only once every player is done, "
                               f"and player {current} is still to play")
    _check_reveal_logged(revealed, shown, n)
    if held[current]:
        raise fail("current", f"player {current} has held and cannot be the one to play")
    if not rnd.is_in(current):
        raise fail("current", f"player {current} has 7 cards and cannot be the one to play")
    _check_turns(rnd, current)


def _check_reveal_logged(revealed: bool, shown: tuple[int, int], n: int) -> None:
    """The log holds the reveal (a reveal a player and the result) exactly when the round is
    revealed: `shown` is (reveal events, result events) in the log."""
    if shown != ((n, 1) if revealed else (0, 0)):
        raise fail("revealed", f"{'a revealed' if revealed else 'a round not yet revealed'} "
                               f"round logs {n if revealed else 0} reveals and "
                               f"{1 if revealed else 0} result; the log holds {shown[0]} and "
                               f"{shown[1]}")


def _check_turns(rnd: HitMeRound, current: int) -> None:
    """Who has been asked so far, given whose turn it is. Players are asked in seat order from
    the dealer's left (position 0) to the dealer (last)."""
    n = rnd.players

    def pos(seat: int) -> int:
        return (seat - rnd.dealer - 1) % n

    h = rnd.hits(current)
    for p in range(n):
        if p == current:
            continue
        before, hits = pos(p) < pos(current), rnd.hits(p)
        if rnd.config.turn_order is TurnOrder.ALL_AT_ONCE:
            # Everyone before the current player is done; no one after has been asked.
            if before and rnd.is_in(p):
                raise fail(f"seat {p}", f"must be done before player {current} plays "
                                        "(all at once: each player in turn takes all their hits)")
            if not before and (hits or rnd.held[p]):
                raise fail(f"seat {p}", f"cannot have played before player {current}'s turn "
                                        "(all at once)")
            continue
        # Round robin: in pass h+1 the players before the current one have been asked (a hit
        # gives them h+1 hits), the ones after not yet (h hits); a held player stopped earlier.
        if rnd.held[p]:
            most = h if before else h - 1
            if hits > most:
                raise fail(f"seat {p}", f"held with {hits} hits, but only {most} passes could "
                                        f"have reached them before player {current}'s turn")
        elif hits != (h + 1 if before else h):
            raise fail(f"seat {p}", f"has {hits} hits; in pass {h + 1} with player {current} to "
                                    f"play, a player still in has {h + 1 if before else h}")


def _check_result(r: Any, where: str, n: int, max_abs: int) -> tuple[list[int], list[int]]:
    expect_fields(r, where, RESULT_FIELDS)
    sums = expect_list_of(r["sums"], f"{where}.sums", n,
                          lambda v, w: expect_int(v, w, -max_abs, max_abs))
    scores = expect_list_of(r["scores"], f"{where}.scores", n,
                            lambda v, w: expect_int(v, w, 0, max_abs))
    if scores != [abs(s) for s in sums]:
        raise fail(f"{where}.scores", "each score must be |sum|")
    best = min(scores)
    winners = [p for p in range(n) if scores[p] == best]
    if r["winners"] != winners or any(not is_int(w) for w in r["winners"]):
        raise fail(f"{where}.winners", f"the lowest |sum| wins: must be {winners}")
    if expect_bool(r["tie"], f"{where}.tie") != (len(winners) > 1):
        raise fail(f"{where}.tie", "a tie is two or more winners")
    return sums, winners


def check_hit_me_game(d: Any) -> None:
    """Refuse (ConfigError) a saved game of rounds that play by the rules cannot reach."""
    expect_fields(d, "Hit Me game", HIT_ME_GAME_FIELDS)
    if d["game"] != "hit-me-game":
        raise fail("game", f"must be 'hit-me-game'; got {d['game']!r}")
    cfg = load_config(HitMeConfig.from_json, d["config"])
    n = cfg.players
    check_hit_me_round(d["round"], "round")
    if d["round"]["config"] != d["config"]:
        raise fail("round.config", "must be the game's settings")
    dealer = expect_seat(d["dealer"], "dealer", n)
    if dealer != d["round"]["dealer"]:
        raise fail("dealer", "must be the current round's dealer")
    check_rng(d["rng"])
    max_abs = MAX_CARDS * (11 if cfg.ace_eleven else 10)
    history = [_check_result(r, f"history[{i}]", n, max_abs)
               for i, r in enumerate(expect_list(d["history"], "history"))]
    wins = expect_list_of(d["wins"], "wins", n, lambda v, w: expect_int(v, w, 0))
    ties = expect_list_of(d["ties"], "ties", n, lambda v, w: expect_int(v, w, 0))
    for p in range(n):
        if wins[p] != sum(ws == [p] for _, ws in history):
            raise fail(f"wins[{p}]", "must count the rounds player won alone in the history")
        if ties[p] != sum(len(ws) > 1 and p in ws for _, ws in history):
            raise fail(f"ties[{p}]", "must count the tied rounds in the history")
    recorded = expect_bool(d["recorded"], "recorded")
    rnd = HitMeRound.from_json(d["round"])
    if recorded:
        res = rnd.result()
        if res is None:
            raise fail("recorded", "a round is recorded only once it is over")
        if not rnd.revealed:
            raise fail("recorded", "a round is recorded once its cards are turned up (revealed)")
        if not history or history[-1] != (list(res.sums), list(res.winners)):
            raise fail("history", "the last entry must be the recorded round's result")
    # The round now dealt is number len(history) (counted from 0), or one less once recorded.
    now = len(history) - recorded
    last = expect_list_of(d["last_dealt"], "last_dealt", n,
                          lambda v, w: v if v is None else expect_int(v, w, 0, now))
    if last[dealer] != now:
        raise fail(f"last_dealt[{dealer}]", f"the dealer dealt round {now}, this one")
    if last[0] is None:
        raise fail("last_dealt[0]", "seat 0 dealt the first round")
    dealt = [x for x in last if x is not None]
    if len(set(dealt)) != len(dealt):
        raise fail("last_dealt", "one dealer a round: two seats cannot have dealt the same one")
    for i in range(1, now + 1):
        _, winners = history[i - 1]
        w = winners[0]
        if len(winners) == 1 and (last[w] is None or last[w] < i):
            raise fail(f"last_dealt[{w}]", f"player {w} won round {i - 1} alone, so dealt "
                                           f"round {i}")
