"""Hit Me: get the sum of your cards as close to zero as you can.

`HitMeConfig` holds a table's settings, `HitMeRound` is one round (deal, hits, reveal) and
`HitMeGame` is a sequence of rounds with a score table and the passing of the deal.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.cards import (
    Card,
    Convention,
    card_from_json,
    card_to_json,
    make_deck,
    make_rng,
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
from engine.events import HIDDEN_CARD, Event, EventKind, card_view
from engine.observation import Observation
from engine.validate import MAX_DECKS, MAX_PLAYERS

MAX_CARDS = 7
MAX_HITS = MAX_CARDS - 2
CARDS_PER_DECK = 52


class TurnOrder(Enum):
    """How hits are offered."""

    ROUND_ROBIN = "round-robin"  # one hit a pass, everyone asked each pass
    ALL_AT_ONCE = "all-at-once"  # each player takes all their hits before the next player


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
                    f"(each player may need 7 cards); got {self.decks}"
                )

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
        from engine.saves import check_hit_me_config  # (engine.saves imports this module)
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


@dataclass(frozen=True)
class RoundResult:
    """The end of a round: every sum and score, and who won."""

    sums: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Any]:
        return {"sums": list(self.sums), "scores": list(self.scores),
                "winners": list(self.winners), "tie": self.tie}


@dataclass
class HitMeRound:
    """One round of Hit Me. Change it only through `apply_action`."""

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

    # ----- making a round -------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        config: HitMeConfig,
        dealer: int = 0,
        rng: random.Random | int | str | None = None,
        deck: Sequence[Card] | str | None = None,
    ) -> HitMeRound:
        """Gather, shuffle and deal a new round. `deck` stacks the top of the deck (top first)."""
        if not isinstance(config, HitMeConfig):
            raise ConfigError("config must be a HitMeConfig")
        check_int(dealer, "dealer", 0, config.players - 1)
        rng = make_rng(rng)
        order = stacked_order(make_deck(config.decks), deck, rng, f"{config.decks} deck(s)")
        n = config.players
        seats = [(dealer + 1 + i) % n for i in range(n)]  # left of the dealer first, dealer last
        state = cls(
            config=config,
            dealer=dealer,
            deck=order,
            face_down=[None] * n,
            face_up=[[] for _ in range(n)],
            held=[False] * n,
            ace_high=[{} for _ in range(n)],
            current=None,
        )
        for s in seats:
            state.face_down[s] = state.deck.pop(0)
        for s in seats:
            state.face_up[s].append(state.deck.pop(0))
        for s in seats:
            up = state.face_up[s][0]
            down = state.face_down[s]
            vals = state.card_values(s)
            state.events.append(Event(
                EventKind.DEAL, s, card=up, value=config.value(up),
                private=Event(EventKind.DEAL, s, card=down, value=vals[0], values=tuple(vals),
                              after=sum(vals)),
            ))
        state.current = state._next_in(dealer)
        return state

    # ----- reading the state ------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.config.players

    @property
    def over(self) -> bool:
        """Every player is done: no more hits, holds or ace choices. The round then waits in
        its announce phase (face-down cards still hidden) until a Reveal turns them up."""
        return self.current is None

    @property
    def is_over(self) -> bool:
        """The round has ended and every card is face up (nothing more to do)."""
        return self.revealed

    @property
    def phase(self) -> str:
        """'play', then 'announce' (everyone done, cards not yet turned up), then 'revealed'."""
        return "revealed" if self.revealed else ("announce" if self.over else "play")

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
        return sum(self.card_values(player))

    def final_sum(self, player: int) -> int:
        """The sum that scores: chosen aces as chosen, unchosen aces as brings it closest to 0."""
        if not self.config.ace_eleven:
            return self.sum(player)
        fixed, free = 0, []
        for c in self.cards(player):
            if c.rank == 1 and c.key not in self.ace_high[player]:
                free.append(self.config.value(c))
            else:
                fixed += self.card_value(player, c)
        best = None
        for highs in itertools.product((False, True), repeat=len(free)):
            s = fixed + sum(v * (11 if h else 1) for v, h in zip(free, highs, strict=True))
            if best is None or abs(s) < abs(best):
                best = s
        return best

    def pass_number(self) -> int:
        """Round robin: which pass of hits (1 to 5) is being asked now (0 when over)."""
        if self.current is None:
            return 0
        return self.hits(self.current) + 1

    def legal_actions(self, player: int | None = None) -> list[HitMeAction]:
        """Every move `player` (default: whoever is to act) may make now. In the announce
        phase the one move is Reveal (for anyone). An ace never chosen may be set to 1 or 11;
        a chosen one only to the other value (keeping its value is not a move). Aces may be
        chosen at any time until every player is done (RULES.md), not only on one's turn."""
        if self.revealed:
            return []
        if self.over:
            return [Reveal()] if player is None or is_seat(player, self.players) else []
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

    # ----- changing the state -------------------------------------------------------------
    def apply_action(self, action: HitMeAction, player: int | None = None) -> None:
        """Make one move; an illegal one raises IllegalActionError and changes nothing."""
        if self.revealed:
            raise IllegalActionError(Reason.GAME_OVER)
        kind = type(action)
        if (kind is Hit or kind is Hold) and player is not None and player == self.current \
                and type(player) is int:
            self._turn(kind is Hit, player)  # the common case, checked: it is player's turn
            return
        if isinstance(action, Reveal):
            if player is not None and not is_seat(player, self.players):
                raise IllegalActionError(Reason.NO_SUCH_PLAYER, seat=player)
            if not self.over:
                raise IllegalActionError(Reason.NOT_ANNOUNCING)
            self._reveal()
            return
        if self.over:
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
        self._turn(isinstance(action, Hit), player)

    def _turn(self, hit: bool, player: int) -> None:
        """A hit or a hold by the seat to play (already checked)."""
        if hit:
            factor = self.config.colors.factor
            up = self.face_up[player]
            before_up = sum([c.hit_me_black for c in up]) * factor
            down = self.face_down[player]
            if self.config.ace_eleven or down is None:
                before = self.sum(player)
            else:
                before = before_up + down.hit_me_black * factor
            card = self.deck.pop(0)
            up.append(card)
            shown = card.hit_me_black * factor
            v = self.card_value(player, card) if card.rank == 1 else shown
            self.events.append(Event(
                EventKind.HIT, player, card=card, value=shown,
                before=before_up, delta=shown, after=before_up + shown,
                private=Event(EventKind.HIT, player, before=before, delta=v, after=before + v),
            ))
            if len(up) + (self.face_down[player] is not None) == MAX_CARDS:
                self.events.append(Event(EventKind.FULL, player))
        else:
            self.held[player] = True
            s = self.sum(player)
            self.events.append(Event(EventKind.HOLD, player,
                                     private=Event(EventKind.HOLD, player, after=s, score=abs(s))))
        if self.config.turn_order is TurnOrder.ALL_AT_ONCE and self.is_in(player):
            return
        self.current = self._next_in(player)

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
        for s in self._seat_order():
            vals = self.card_values(s)
            if self.config.ace_eleven:
                vals = self._final_values(s)
            self.events.append(Event(
                EventKind.REVEAL, s, card=self.face_down[s], value=vals[0], values=tuple(vals),
                after=res.sums[s], score=res.scores[s],
            ))
        self.events.append(Event(EventKind.RESULT, None, winners=res.winners,
                                 score=res.scores[res.winners[0]]))

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
        """Sums, scores (|sum|) and winners once the round is over."""
        if not self.over:
            return None
        sums = tuple(self.final_sum(p) for p in range(self.players))
        scores = tuple(abs(s) for s in sums)
        best = min(scores)
        return RoundResult(sums, scores, tuple(p for p in range(self.players) if scores[p] == best))

    # ----- what one player may see ----------------------------------------------------------
    def observation(
        self, viewer: int | None, reveal: bool = False, events: bool = True
    ) -> dict[str, Any]:
        """The round as `viewer` sees it (None: a spectator). `reveal` shows everything;
        `events=False` leaves out the event log (computer players do not read it) and returns
        a lazy `HitMeObservation`: the same keys and values, each part built when first read
        (`dict(obs)` or `obs.to_dict()` gives the plain dict)."""
        if viewer is not None and not is_seat(viewer, self.players):
            raise IllegalActionError(Reason.NO_SUCH_PLAYER, seat=viewer)
        obs = HitMeObservation(self, viewer, reveal, events)
        return obs if not events else obs.to_dict()

    def _version(self) -> int:
        """Changes with every move (each move, the reveal too, logs an event): a lazy
        observation's check."""
        return len(self.events)

    def _seat_view(self, viewer: int | None, p: int, show_all: bool) -> dict[str, Any]:
        """Seat `p` as `viewer` sees it (one entry of the observation's 'seats')."""
        cfg = self.config
        factor = cfg.colors.factor
        ace_eleven = cfg.ace_eleven
        over = self.current is None
        mine = viewer == p or show_all  # ace choices are private until the end
        down = self.face_down[p]
        up = self.face_up[p]
        up_vals = [c.hit_me_black * factor for c in up]
        count = len(up) + (down is not None)
        if mine and not ace_eleven and down is not None:  # the common case, written out
            own = [down.hit_me_black * factor, *up_vals]
            views = [card_view(c, v) for c, v in zip(self.cards(p), own, strict=True)]
            s = sum(own)
            return {"seat": p, "face_down": views[0], "face_up": views[1:],
                    "held": self.held[p], "hits": len(up) - 1, "cards": count,
                    "in": not over and not self.held[p] and count < MAX_CARDS,
                    "face_up_sum": s - own[0], "sum": s, "abs": abs(s), "values": own}
        seat: dict[str, Any] = {"seat": p}
        if mine:
            own = self.card_values(p)  # face-down first, aces as chosen
            if ace_eleven:
                chosen = self.ace_high[p]
                views = [card_view(c, v, ace_high=chosen.get(c.key)) if c.rank == 1
                         else card_view(c, v) for c, v in zip(self.cards(p), own, strict=True)]
            else:
                views = [card_view(c, v) for c, v in zip(self.cards(p), own, strict=True)]
            seat["face_down"] = views.pop(0) if down is not None else card_view(down, None)
            seat["face_up"] = views
        else:
            seat["face_down"] = dict(HIDDEN_CARD)
            seat["face_up"] = [card_view(c, v) for c, v in zip(up, up_vals, strict=True)]
        seat["held"] = self.held[p]
        seat["hits"] = len(up) - 1
        seat["cards"] = count
        seat["in"] = not over and not self.held[p] and count < MAX_CARDS
        seat["face_up_sum"] = sum(up_vals)
        if mine:
            if ace_eleven:
                s = self.final_sum(p) if over else sum(own)
                # each card's value as it counts now (face-down first); once every player is
                # done, an ace never chosen counts the way that brings the sum closest to 0
                values = self._final_values(p) if over else own
            else:
                s, values = sum(own), own
            seat["sum"], seat["abs"], seat["values"] = s, abs(s), values
        else:
            seat["sum"] = seat["abs"] = seat["values"] = None
        return seat

    # ----- saving ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state (hidden cards included) as JSON-ready data, for saving."""
        return {
            "game": "hit-me",
            "config": self.config.to_json(),
            "dealer": self.dealer,
            "deck": [card_to_json(c) for c in self.deck],
            "face_down": [card_to_json(c) if c else None for c in self.face_down],
            "face_up": [[card_to_json(c) for c in cs] for cs in self.face_up],
            "held": list(self.held),
            "ace_high": [dict(a) for a in self.ace_high],
            "current": self.current,
            "revealed": self.revealed,
            "events": [e.to_json() for e in self.events],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HitMeRound:
        from engine.saves import check_hit_me_round  # refuses a forged save, builds nothing
        check_hit_me_round(d)
        return cls(
            config=HitMeConfig.from_json(d["config"]),
            dealer=d["dealer"],
            deck=[card_from_json(c) for c in d["deck"]],
            face_down=[card_from_json(c) if c else None for c in d["face_down"]],
            face_up=[[card_from_json(c) for c in cs] for cs in d["face_up"]],
            held=list(d["held"]),
            ace_high=[dict(a) for a in d["ace_high"]],
            current=d["current"],
            events=[Event.from_json(e) for e in d["events"]],
            revealed=d["revealed"],
        )

    def clone(self) -> HitMeRound:
        return copy.deepcopy(self)

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
        self.round = HitMeRound.deal(config, 0, self.rng, deck)

    @property
    def rounds_played(self) -> int:
        return len(self.history)

    def finish_round(self) -> RoundResult:
        """Record the over round in the score table (once) and return its result."""
        if not self.round.over:
            raise IllegalActionError(Reason.ROUND_NOT_OVER)
        if not self.round.revealed:
            self.round.apply_action(Reveal())
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
        if not self.round.over:
            raise IllegalActionError(Reason.FINISH_ROUND_FIRST)
        if not self.round.revealed:
            self.round.apply_action(Reveal())
        if not self._recorded:
            self._record(self.round.result())
        self.dealer = self.next_dealer()
        self.last_dealt[self.dealer] = len(self.history)
        self.round = HitMeRound.deal(self.config, self.dealer, self.rng, deck)
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
        from engine.saves import check_hit_me_game  # refuses a forged save, builds nothing
        check_hit_me_game(d)
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


class HitMeObservation(Observation):
    """A Hit Me observation, each part built when first read (see engine.observation)."""

    __slots__ = ()

    def _build_seat(self, p: int) -> dict[str, Any]:
        st = self._state
        return st._seat_view(self.viewer, p, self.reveal or st.revealed)

    def _events(self) -> list[dict[str, Any]]:
        if not self.events:
            return []
        st, viewer, reveal = self._state, self.viewer, self.reveal
        show_all = reveal or st.revealed
        # An ace choice is a private thought: telling others of it would reveal that a
        # face-down card is an ace, so others see it only once the round is over.
        return [e.view(viewer, reveal) for e in st.events
                if e.kind is not EventKind.ACE or show_all or e.player == viewer]

    def _result(self) -> dict[str, Any] | None:
        st = self._state
        res = st.result() if self.reveal or st.revealed else None
        return res.to_json() if res else None

    _PARTS = {
        "game": lambda o: "hit-me",
        "viewer": lambda o: o.viewer,
        "reveal": lambda o: o.reveal or o._state.revealed,
        "config": lambda o: o._state.config.to_json(),
        "players": lambda o: o._state.players,
        "dealer": lambda o: o._state.dealer,
        "current_player": lambda o: o._state.current,
        "pass_number": lambda o: o._state.pass_number(),
        "over": lambda o: o._state.over,
        "phase": lambda o: o._state.phase,
        "revealed": lambda o: o._state.revealed,
        "draw_pile": lambda o: len(o._state.deck),  # the face-down pile: its count is public
        "seats": lambda o: [o.seat(p) for p in range(o._state.players)],
        "legal_actions": lambda o: [] if o.viewer is None
        else [a.to_json() for a in o._state.legal_actions(o.viewer)],
        "events": _events,
        "result": _result,
    }
