"""Computer players for Hit Me and Flapjack.

A bot sees only what its seat may see: the observation dict of its seat
(``state.observation(seat)``) and the list of its legal actions
(``state.legal_actions(seat)``). It never touches the game state. ``bot.choose`` returns a
`Decision`: one of the legal actions and one plain sentence a student can read.

    bot = make_bot("threshold:4", "hit-me", rng=7)
    decision = bot.choose(round_.observation(seat), round_.legal_actions(seat))
    round_.apply_action(decision.action, seat)

Hit Me bots: ``random`` (a coin flip between hit and hold), ``threshold:T`` (hit while
|sum| >= T), ``expert`` (estimates its chance of winning if it holds and if it hits).
Flapjack bots: ``random`` (any legal play), ``greedy`` (takes a Flapjack when it can,
otherwise leaves a total few unseen card values can finish), ``expert`` (counts the cards
already seen to estimate the chance that the next player can finish, keeps its hand flexible).
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy is imported where the expert uses it: a page with easier
    import numpy as np  # computer players does not pay for importing it (~0.08 s CPU)

from engine.cards import RANK_LABELS, make_rng, signed
from engine.errors import ConfigError
from engine.games import GAMES as REGISTRY
from engine.games import game_name
from engine.hit_me import (
    HIT_ME_OBSERVATIONS,
    MAX_CARDS,
    MAX_HITS,
    Hit,
    Hold,
    best_sum,
    seat_ace_state,
)

GAMES = tuple(REGISTRY)
# each game's levels and the bot each plays (the registry's settings)
BOT_LEVELS: dict[str, dict[str, str]] = {name: gt.settings.levels for name, gt in REGISTRY.items()
                                         if gt.settings is not None}
_NOT_LAZY = object()
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@dataclass(frozen=True)
class Decision:
    """A bot's move: one of its legal actions, a reason code and its numbers (JSON-ready).
    widgets.words.bot_reason_text(decision) says it in one sentence."""

    action: Any
    code: str
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(self, action: Any, code: str, data: dict[str, Any] | None = None) -> None:
        # Written out (the frozen dataclass __init__ is slow; bots decide at every step of
        # every simulated game).
        d = self.__dict__
        d["action"] = action
        d["code"] = code
        d["data"] = {} if data is None else data


class Bot:
    """Base class: a named player that chooses from an observation and its legal actions."""

    game: str = ""
    name: str = ""
    description: str = ""

    def __init__(self, spec: str, rng: random.Random) -> None:
        self.spec = spec
        self.rng = rng

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Decision:
        """Pick one of `legal` using only `observation`."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.game} bot {self.spec!r}>"


def normalize_game(game: str) -> str:
    """'hit-me' or 'flapjack' (accepts 'hitme', 'hit_me', 'Hit Me'): the registry's name."""
    return game_name(game)


def make_bot(spec: str, game: str, rng: random.Random | int | str | None = None) -> Bot:
    """A bot from its spec. Hit Me: 'random', 'threshold:T', 'expert'.
    Flapjack: 'random', 'greedy', 'expert'. Levels 'easy', 'medium', 'hard' also work."""
    game = normalize_game(game)
    rng = make_rng(rng)
    text = str(spec).strip().lower()
    text = BOT_LEVELS[game].get(text, text)
    if game == "hit-me":
        if text == "random":
            return HitMeRandom(text, rng)
        if text == "expert":
            return HitMeExpert(text, rng)
        if text.startswith("threshold"):
            _, _, t = text.partition(":")
            try:
                threshold = int(t)
            except ValueError:
                threshold = -1
            if not 0 <= threshold <= 100:
                raise ConfigError(
                    f"a threshold bot is written threshold:T with T a whole number 0 to 100 "
                    f"(it hits while |sum| >= T); got {spec!r}"
                )
            return HitMeThreshold(f"threshold:{threshold}", rng, threshold)
        allowed = "random, threshold:T (T = 0 to 100), expert, easy, medium, hard"
    else:
        if text == "random":
            return FlapjackRandom(text, rng)
        if text == "greedy":
            return FlapjackGreedy(text, rng)
        if text == "expert":
            return FlapjackExpert(text, rng)
        allowed = "random, greedy, expert, easy, medium, hard"
    raise ConfigError(f"{game} bot must be one of {allowed}; got {spec!r}")


# ======================================================================================
# Hit Me
# ======================================================================================


@lru_cache(maxsize=100_000)
def best_abs(s: int, pos_aces: int = 0, neg_aces: int = 0) -> int:
    """The least |sum| when each free ace may count 11 instead of 1 (with its sign): the
    |sum| of engine.hit_me.best_sum, the one that scores.

    `s` counts every ace as 1 (with its sign); `pos_aces`/`neg_aces` are the free aces."""
    return min(abs(s + 10 * a - 10 * b) for a in range(pos_aces + 1) for b in range(neg_aces + 1))


def _add_card(state: tuple[int, int, int], value: int, ace_eleven: bool) -> tuple[int, int, int]:
    s, p, n = state
    if ace_eleven and value in (1, -1):
        return (s + value, p + (value > 0), n + (value < 0))
    return (s + value, p, n)


def own_hit_me_state(observation: dict[str, Any]) -> tuple[int, int, int]:
    """(sum with free aces as 1, free positive aces, free negative aces) of the viewer."""
    if type(observation) in HIT_ME_OBSERVATIONS:
        return observation.own_state()  # the same numbers, from the viewer's own seat
    me = getattr(observation, "viewer", _NOT_LAZY)  # a lazy Observation has it as a slot
    lazy = me is not _NOT_LAZY
    if not lazy:
        me = observation["viewer"]
    if me is None:
        raise ConfigError("a bot needs the observation of its own seat (viewer is None)")
    # a lazy observation (engine.observation) builds the one seat read, not all of them
    seat = observation.seat(me) if lazy else observation["seats"][me]
    if not observation["config"].get("ace_eleven"):
        return (seat["sum"], 0, 0)  # (a lazy seat works it out without any card view)
    return seat_ace_state(seat)


def own_hit_me_sum(observation: dict[str, Any]) -> int:
    """The viewer's sum, counting every free ace the way that brings it closest to zero."""
    s, p, n = own_hit_me_state(observation)
    return best_sum(s, p, n) if p or n else s


def hit_me_unseen(observation: dict[str, Any]) -> Counter[int]:
    """Values (aces as +-1) of the cards the viewer has not seen: the full deck(s) minus
    the viewer's own cards and every face-up card."""
    cfg = observation["config"]
    decks, colors = cfg["decks"], cfg["colors"]
    seen: Counter[tuple[int, str]] = Counter()
    me = observation["viewer"]
    for seat in observation["seats"]:
        cards = list(seat["face_up"])
        if seat["seat"] == me or not seat["face_down"].get("hidden"):
            cards.append(seat["face_down"])
        for c in cards:
            seen[(c["rank"], c["suit"])] += 1
    out: Counter[int] = Counter()
    positive = ("C", "S") if colors == "black-positive" else ("D", "H")
    for suit in "CDHS":
        sign = 1 if suit in positive else -1
        for rank in range(1, 14):
            left = decks - seen[(rank, suit)]
            if left > 0:
                out[min(rank, 10) * sign] += left
    return out


def _hit_me_turn_actions(legal: Sequence[Any]) -> tuple[Any, Any]:
    if len(legal) == 2 and type(legal[0]) is Hit and type(legal[1]) is Hold:
        return legal[0], legal[1]  # the common case (the engine lists hit, hold)
    hit = hold = None
    for a in legal:
        if hit is None and isinstance(a, Hit):
            hit = a
        elif hold is None and isinstance(a, Hold):
            hold = a
    if hit is None or hold is None:
        raise ConfigError("a Hit Me bot is asked only on its own turn (hit and hold legal)")
    return hit, hold


class HitMeRandom(Bot):
    """Flips a fair coin: hit or hold."""

    game = "hit-me"
    name = "random"
    description = "Flips a coin to decide whether to hit or hold."

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Decision:
        hit, hold = _hit_me_turn_actions(legal)
        s = own_hit_me_sum(observation)
        if self.rng.random() < 0.5:
            return Decision(hit, "coin-hit", {"sum": s})
        return Decision(hold, "coin-hold", {"sum": s})


class HitMeThreshold(Bot):
    """Hits while |sum| >= threshold (the sum counts free aces in the best way)."""

    game = "hit-me"
    name = "threshold"

    def __init__(self, spec: str, rng: random.Random, threshold: int) -> None:
        super().__init__(spec, rng)
        self.threshold = threshold
        self._decisions: dict[int, tuple[int, Decision]] = {}
        self.description = (f"Takes a hit while its sum is {threshold} or more away from zero, "
                            f"and holds once it is closer to zero than that.")

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Decision:
        if type(observation) in HIT_ME_OBSERVATIONS:
            s, p, n = observation.own_state()  # (own_hit_me_sum, inlined: every step)
            if p or n:
                s = best_sum(s, p, n)
        else:
            s = own_hit_me_sum(observation)
        # A decision depends only on the sum: each is made once and reused (it is frozen;
        # its data is read, never changed) while the legal actions are the same two, in the
        # same order: (index of its action in `legal`, decision).
        known = self._decisions.get(s)
        if known is not None and len(legal) == 2 and legal[known[0]] is known[1].action:
            return known[1]
        if len(legal) == 2 and type(legal[0]) is Hit and type(legal[1]) is Hold:
            hit, hold = legal  # the common case (_hit_me_turn_actions, inlined)
        else:
            hit, hold = _hit_me_turn_actions(legal)
        t = self.threshold
        action = hit if abs(s) >= t else hold
        code = "threshold-hit" if action is hit else "threshold-hold"
        decision = Decision(action, code, {"sum": s, "threshold": t})
        if len(legal) == 2:
            self._decisions[s] = (0 if action is legal[0] else 1, decision)
        return decision


# Prior over the threshold an opponent plays (hit while |sum| >= T), and the chance that a
# player does the other thing now and then.
OPPONENT_THRESHOLDS = {1: 0.04, 2: 0.1, 3: 0.18, 4: 0.2, 5: 0.18, 6: 0.12, 7: 0.08,
                       8: 0.05, 9: 0.03, 10: 0.02}
OPPONENT_SLIP = 0.08
MAX_ABS = 100
_SPAN = 120  # sums from -120 to +120 in the exact model


def _exact_abs(combos: list[tuple[tuple[int, int, int], int]], weights: list[float],
               hits_left: int, unseen: Counter[int]) -> np.ndarray:
    """Exact distribution of an opponent's final |sum| (aces count 1): from each weighted
    (current sum, threshold), they hit while |sum| >= threshold, drawing from the unseen cards."""
    import numpy as np

    sums = np.arange(-_SPAN, _SPAN + 1)
    total = sum(unseen.values())
    kernel = np.zeros(21)
    for v, c in unseen.items():
        kernel[v + 10] = c / total
    by_t: dict[int, np.ndarray] = {}
    for ((s, _, _), t), w in zip(combos, weights, strict=True):
        if t not in by_t:
            by_t[t] = np.zeros(2 * _SPAN + 1)
        by_t[t][s + _SPAN] += w
    final = np.zeros(2 * _SPAN + 1)
    for t, mass in by_t.items():
        go = np.abs(sums) >= t
        for _ in range(hits_left):
            final += np.where(go, 0.0, mass)
            mass = np.convolve(np.where(go, mass, 0.0), kernel)[10:10 + 2 * _SPAN + 1]
        final += mass
    final /= final.sum()
    d = final[_SPAN:].copy()
    d[1:] += final[:_SPAN][::-1]
    out = d[:MAX_ABS + 1]
    out[MAX_ABS] += d[MAX_ABS + 1:].sum()
    return out


class HitMeExpert(Bot):
    """Estimates its chance of winning if it holds and if it hits, from the cards it sees.

    The opponents' final |sums| are sampled (Monte Carlo): each opponent's face-down card is
    drawn from the unseen cards, weighted by how well it explains that opponent's hits and
    hold so far under a threshold player of unknown threshold; an opponent still in takes
    further hits with that threshold. Its own choice looks ahead exactly over every next card
    (and the cards after it, deciding again each time)."""

    game = "hit-me"
    name = "expert"
    description = ("Counts the cards it can see and estimates its chance of winning if it "
                   "holds and if it takes a hit, then picks the better one.")

    def __init__(self, spec: str, rng: random.Random, samples: int = 200,
                 learn: bool = True) -> None:
        super().__init__(spec, rng)
        self.samples = samples
        self.learn = learn
        # What it has learnt about each opponent seat's threshold from earlier rounds (public
        # information only: face-up cards, hits and holds it saw), and this round's evidence.
        self.beliefs: dict[int, dict[int, float]] = {}
        self._round_sig: tuple[Any, ...] | None = None
        self._evidence: dict[int, dict[int, float]] = {}

    def _prior(self, seat: int) -> dict[int, float]:
        return self.beliefs.get(seat, OPPONENT_THRESHOLDS)

    def _new_round_check(self, observation: dict[str, Any]) -> None:
        """On a new round, fold the last evidence of the round before into the beliefs."""
        sig = (observation["dealer"], observation["players"],
               tuple(x["face_up"][0]["key"] if x["face_up"] else None
                     for x in observation["seats"]))
        if sig == self._round_sig:
            return
        if self.learn:
            for seat, ev in self._evidence.items():
                prior = self._prior(seat)
                top = max(ev.values()) or 1.0
                post = {t: prior[t] * ev.get(t, 0.0) / top for t in prior}
                norm = sum(post.values())
                if norm <= 0:
                    continue
                # keep a little of the starting prior so a player who changes can be relearnt
                self.beliefs[seat] = {t: 0.98 * post[t] / norm + 0.02 * OPPONENT_THRESHOLDS[t]
                                      for t in prior}
        self._round_sig = sig
        self._evidence = {}

    # ----- the opponents ------------------------------------------------------------------
    def win_curve(self, observation: dict[str, Any], unseen: Counter[int]) -> list[float]:
        """win[a]: estimated share of the round won (ties split) with a final |sum| of a.

        Each opponent's final |sum| gets a distribution (exact when aces count 1 only,
        sampled otherwise); opponents are taken as independent of each other."""
        import numpy as np

        me = observation["viewer"]
        ace_eleven = bool(observation["config"].get("ace_eleven"))
        dists: list[np.ndarray] = []
        for seat in observation["seats"]:
            if seat["seat"] == me:
                continue
            ups = [c["value"] for c in seat["face_up"]]
            if not seat["face_down"].get("hidden"):  # shown (round over): known exactly
                state = (0, 0, 0)
                for v in [seat["face_down"]["value"], *ups]:
                    state = _add_card(state, v, ace_eleven)
                d = np.zeros(MAX_ABS + 1)
                d[min(best_abs(*state), MAX_ABS)] = 1.0
                dists.append(d)
                continue
            hits_left = min(MAX_HITS - seat["hits"], MAX_CARDS - seat["cards"]) \
                if seat["in"] else 0
            prior = self._prior(seat["seat"])
            combos, weights = self._posterior(ups, seat["held"], unseen, ace_eleven, prior)
            ev: dict[int, float] = {}
            for (_, t), w in zip(combos, weights, strict=True):
                ev[t] = ev.get(t, 0.0) + w
            self._evidence[seat["seat"]] = {t: w / prior[t] for t, w in ev.items()}
            if ace_eleven:
                dists.append(self._sampled_abs(combos, weights, hits_left, unseen))
            else:
                dists.append(_exact_abs(combos, weights, hits_left, unseen))
        # Win share at a: sum over k of P(every opponent >= a, exactly k of them at a) / (k+1).
        coeffs = np.zeros((len(dists) + 1, MAX_ABS + 1))
        coeffs[0] = 1.0
        for d in dists:
            equal = d
            greater = 1.0 - np.cumsum(d)
            new = coeffs * greater
            new[1:] += coeffs[:-1] * equal
            coeffs = new
        win = sum(coeffs[k] / (k + 1) for k in range(len(dists) + 1))
        return [float(x) for x in win]

    def _sampled_abs(self, combos: list[tuple[tuple[int, int, int], int]], weights: list[float],
                     hits_left: int, unseen: Counter[int], ace_eleven: bool = True,
                     ) -> np.ndarray:
        """Monte Carlo distribution of an opponent's final |sum| (aces may count 11)."""
        import numpy as np

        rng = self.rng
        pool = list(unseen.elements())
        d = np.zeros(MAX_ABS + 1)
        for state, t in rng.choices(combos, weights=weights, k=self.samples):
            k = hits_left
            while k > 0 and best_abs(*state) >= t:
                state = _add_card(state, rng.choice(pool), ace_eleven)
                k -= 1
            d[min(best_abs(*state), MAX_ABS)] += 1
        return d / self.samples

    @staticmethod
    def _posterior(ups: list[int], held: bool, unseen: Counter[int], ace_eleven: bool,
                   thresholds: dict[int, float],
                   ) -> tuple[list[tuple[tuple[int, int, int], int]], list[float]]:
        """Face-down value and threshold of an opponent, weighted by what they did so far."""
        combos, weights = [], []
        for v, count in unseen.items():
            start = _add_card((0, 0, 0), v, ace_eleven)
            states = [start]
            st = start
            for u in ups:
                st = _add_card(st, u, ace_eleven)
                states.append(st)
            # states[i] = face-down + first i face-up cards; states[1] is the dealt hand.
            decided = [best_abs(*x) for x in states[1:]]
            for t, prior in thresholds.items():
                w = count * prior
                for a in decided[:-1]:  # each of these was followed by a hit
                    w *= (1 - OPPONENT_SLIP) if a >= t else OPPONENT_SLIP
                if held:
                    w *= (1 - OPPONENT_SLIP) if decided[-1] < t else OPPONENT_SLIP
                if w > 0:
                    combos.append((st, t))
                    weights.append(w)
        return combos, weights

    # ----- my own choice ------------------------------------------------------------------
    def evaluate(self, observation: dict[str, Any]) -> tuple[float, float]:
        """(estimated win share if I hold, if I hit and then play on as well as I can)."""
        me = observation["viewer"]
        seat = observation["seats"][me]
        ace_eleven = bool(observation["config"].get("ace_eleven"))
        unseen = hit_me_unseen(observation)
        win = self.win_curve(observation, unseen)
        total = sum(unseen.values())
        dist = [(v, c / total) for v, c in unseen.items()]
        memo: dict[tuple[tuple[int, int, int], int], float] = {}

        def value(state: tuple[int, int, int], k: int) -> float:
            hold = win[min(best_abs(*state), MAX_ABS)]
            if k <= 0:
                return hold
            key = (state, k)
            if key not in memo:
                memo[key] = max(hold, hit_value(state, k))
            return memo[key]

        def hit_value(state: tuple[int, int, int], k: int) -> float:
            return sum(p * value(_add_card(state, v, ace_eleven), k - 1) for v, p in dist)

        state = own_hit_me_state(observation)
        k = min(MAX_HITS - seat["hits"], MAX_CARDS - seat["cards"])
        hold = win[min(best_abs(*state), MAX_ABS)]
        if k <= 0:
            return hold, 0.0
        if ace_eleven:
            return hold, hit_value(state, k)
        # Aces count 1: the same look-ahead on every sum at once.
        import numpy as np

        kernel = np.zeros(21)
        for v, p in dist:
            kernel[v + 10] = p
        flipped = kernel[::-1]
        hold_at = np.array(win)[np.minimum(np.abs(np.arange(-_SPAN, _SPAN + 1)), MAX_ABS)]

        def expect(v: np.ndarray) -> np.ndarray:  # E[v(sum + next card)] for every sum
            return np.convolve(v, flipped)[10:10 + len(v)]

        best = hold_at
        for _ in range(k - 1):
            best = np.maximum(hold_at, expect(best))
        return hold, float(expect(best)[state[0] + _SPAN])

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Decision:
        hit_action, hold_action = _hit_me_turn_actions(legal)
        self._new_round_check(observation)
        s = own_hit_me_sum(observation)
        hold, hit = self.evaluate(observation)
        ph, pt = round(100 * hold), round(100 * hit)
        data = {"sum": s, "hold_pct": ph, "hit_pct": pt, "hit": hit > hold}
        if ph == pt:
            return Decision(hit_action if hit > hold else hold_action, "expert-even", data)
        if hit > hold:
            return Decision(hit_action, "expert-hit", data)
        return Decision(hold_action, "expert-hold", data)


# ======================================================================================
# Flapjack
# ======================================================================================


def play_key(action: Any) -> tuple[str, int]:
    """(card key, sign) of a Play or of a legal-action dict {'key', 'sign'}."""
    if isinstance(action, dict):
        return action["key"], action.get("sign", 1)
    return action.card.key, action.sign


@lru_cache(maxsize=16)
def _deck_codes(face_cards: bool, colors: str, signed: bool
                ) -> tuple[tuple[tuple[str, int], ...], frozenset[int]]:
    """(code, value) of each card of one deck, in suit then rank order, and the values
    (every value positive when cards are not `signed` by colour)."""
    ranks = range(1, 14) if face_cards else range(1, 11)
    positive = ("C", "S") if colors == "black-positive" else ("D", "H")
    codes = []
    for suit in "CDHS":
        sign = 1 if (not signed or suit in positive) else -1
        for rank in ranks:
            codes.append((f"{RANK_LABELS.get(rank, str(rank))}{suit}", rank * sign))
    return tuple(codes), frozenset(v for _, v in codes)


@dataclass(frozen=True)
class FlapjackView:
    """What a Flapjack bot needs from an observation (all of it public to the viewer)."""

    me: int
    players: int
    total: int
    low: int
    high: int
    targets: tuple[int, ...]
    add_or_subtract: bool  # the player chooses to add or subtract each card after the lead
    table_size: int
    hand: dict[str, dict[str, Any]]  # key -> card view
    deck_values: frozenset[int]
    # read through `unseen` and `hand_counts`, each worked out when first read (a random
    # player reads neither): the observation, its hand's card codes, the config
    _obs: Any = field(repr=False, compare=False)
    _hand_codes: tuple[str, ...] = field(repr=False, compare=False)
    signed: bool = True  # cards keep their colour's sign (totals are written +7 / -7)

    @functools.cached_property
    def unseen(self) -> Counter[int]:
        """value (as the card counts when added) -> cards not seen (not in my hand, not
        played)."""
        obs = self._obs
        cfg = obs["config"]
        seen: Counter[str] = Counter(self._hand_codes)
        seen.update(obs["played"])
        codes, _ = _deck_codes(bool(cfg["face_cards"]), cfg["colors"], bool(cfg["signed"]))
        decks = cfg["decks"]
        unseen: Counter[int] = Counter()
        for code, value in codes:
            left = decks - seen[code]
            if left > 0:
                unseen[value] += left
        return unseen

    @functools.cached_property
    def hand_counts(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        obs = self._obs
        one_seat = getattr(obs, "seat", None)
        if one_seat is None:
            return tuple(s["hand_count"] for s in obs["seats"])
        return tuple(one_seat(p)["hand_count"] for p in range(self.players))

    @classmethod
    def from_observation(cls, obs: dict[str, Any]) -> FlapjackView:
        """The view of an observation (read at once; `unseen` and `hand_counts` when first
        read, so read them before the state moves on, as a bot's choose does)."""
        me = obs["viewer"]
        if me is None:
            raise ConfigError("a bot needs the observation of its own seat (viewer is None)")
        cfg = obs["config"]
        # a lazy observation (engine.observation) builds the one seat read, not all of them
        one_seat = getattr(obs, "seat", None)
        hand_cards = (obs["seats"][me] if one_seat is None else one_seat(me))["hand"] or []
        signed_values = bool(cfg["signed"])
        return cls(
            me=me, players=obs["players"], total=obs["total"], low=obs["low"],
            high=obs["high"], targets=tuple(obs["targets"]),
            add_or_subtract=bool(cfg["add_or_subtract"]), table_size=len(obs["table"]),
            hand={c["key"]: c for c in hand_cards},
            deck_values=_deck_codes(bool(cfg["face_cards"]), cfg["colors"], signed_values)[1],
            _obs=obs, _hand_codes=tuple([c["code"] for c in hand_cards]),
            signed=signed_values,
        )

    # ----- arithmetic of one play -------------------------------------------------------------
    def delta(self, action: Any) -> int:
        """How much `action` (a Play, or a legal-action dict of the observation) adds."""
        key, sign = play_key(action)
        return sign * self.hand[key]["value"]

    def after(self, action: Any) -> int:
        return self.total + self.delta(action)

    def is_flapjack(self, action: Any) -> bool:
        return self.after(action) in self.targets

    def finishes(self, total: int, value: int) -> bool:
        """Can a card of this value make a Flapjack from `total` (table not empty)?"""
        if total + value in self.targets:
            return True
        return self.add_or_subtract and total - value in self.targets \
            and self.low <= total - value <= self.high

    def finishing_values(self, total: int, values: Any) -> list[int]:
        return sorted(v for v in values if self.finishes(total, v))

    def finishing_unseen(self, total: int) -> int:
        """How many unseen cards could make a Flapjack from `total`."""
        return sum(c for v, c in self.unseen.items() if self.finishes(total, v))

    def next_player(self) -> int:
        """The next seat that holds cards (the one who plays after me, passes aside)."""
        for i in range(1, self.players):
            seat = (self.me + i) % self.players
            if self.hand_counts[seat] > 0:
                return seat
        return (self.me + 1) % self.players

    # ----- words ----------------------------------------------------------------------------
    def num(self, n: int) -> str:
        """A total or value as the variant writes it (+7 / -7, or 7 when cards count
        positive)."""
        return signed(n) if self.signed else str(n)

    def card_text(self, action: Any) -> str:
        """'7♥ (-7)', or '7♥ (subtract 7)' / '7♥ (subtract -7)' when adding or subtracting."""
        key, sign = play_key(action)
        c = self.hand[key]
        short = f"{c['label']}{SUIT_SYMBOLS[c['suit']]}"
        if self.add_or_subtract:
            return f"{short} ({'subtract' if sign < 0 else 'add'} {self.num(c['value'])})"
        return f"{short} ({signed(c['value'])})"

    def cards_word(self, n: int) -> str:
        return f"{n} card{'s' if n != 1 else ''}"


def hypergeometric_any(unseen: int, good: int, draws: int) -> float:
    """Chance that `draws` cards taken from `unseen` cards include at least one of `good`."""
    if good <= 0 or draws <= 0:
        return 0.0
    if unseen - good < draws:
        return 1.0
    return 1.0 - math.comb(unseen - good, draws) / math.comb(unseen, draws)


def _play_data(view: FlapjackView, action: Any) -> dict[str, Any]:
    """The numbers of one play, for a reason: the card, how it counts, the totals."""
    key, sign = play_key(action)
    c = view.hand[key]
    return {"lead": view.table_size == 0, "card": {"label": c["label"], "suit": c["suit"],
                                                   "value": c["value"]},
            "sign": sign, "add_or_subtract": view.add_or_subtract, "signed": view.signed,
            "before": view.total,
            "after": view.after(action)}


def _flapjack_reason(view: FlapjackView, action: Any) -> Decision:
    return Decision(action, "flapjack", {**_play_data(view, action),
                                         "taken": view.table_size + 1})


class FlapjackRandom(Bot):
    """Any legal play, uniformly (two equal cards from two decks are two plays)."""

    game = "flapjack"
    name = "random"
    description = "Plays any card it is allowed to, chosen at random."

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Decision:
        if not legal:
            raise ConfigError("a Flapjack bot is asked only when it has a legal play")
        view = FlapjackView.from_observation(observation)
        action = self.rng.choice(list(legal))
        data = _play_data(view, action)
        return Decision(action, "random-play", {**data, "flapjack": data["after"] in view.targets})


class FlapjackGreedy(Bot):
    """Takes a Flapjack when it can; otherwise leaves a total that the fewest card values
    still unseen (not in its hand, not played) can turn into a Flapjack."""

    game = "flapjack"
    name = "greedy"
    description = ("Makes a Flapjack whenever it can; otherwise leaves a total that few "
                   "kinds of card can turn into a Flapjack.")

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Decision:
        if not legal:
            raise ConfigError("a Flapjack bot is asked only when it has a legal play")
        view = FlapjackView.from_observation(observation)
        flapjacks = [a for a in legal if view.is_flapjack(a)]
        if flapjacks:
            action = flapjacks[0]
            return _flapjack_reason(view, action)
        live = [v for v, c in view.unseen.items() if c > 0]
        scored = [(len(view.finishing_values(view.after(a), live)), a) for a in legal]
        least = min(n for n, _ in scored)
        action = self.rng.choice([a for n, a in scored if n == least])
        vals = view.finishing_values(view.after(action), live)
        return Decision(action, "greedy-leave", {**_play_data(view, action), "values": vals,
                                                 "choices": len(scored)})


class FlapjackExpert(Bot):
    """Counts every card it has seen (its hand and every card played) to estimate the chance
    that the next player holds a card that makes a Flapjack, weighs it by the cards at stake,
    and prefers to keep a hand that can finish from many totals."""

    game = "flapjack"
    name = "expert"
    description = ("Remembers every card played, estimates the chance that the next player "
                   "can make a Flapjack after each play, and keeps useful cards for later.")

    FLEX_WEIGHT = 0.15

    def coverage(self, view: FlapjackView, hand_values: list[int]) -> int:
        """How many totals (inside the limits) this hand could finish from."""
        values = set(hand_values)
        count = 0
        for t in range(view.low, view.high + 1):
            if t in view.targets:
                continue
            if any(view.finishes(t, v) for v in values):
                count += 1
        return count

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Decision:
        if not legal:
            raise ConfigError("a Flapjack bot is asked only when it has a legal play")
        view = FlapjackView.from_observation(observation)
        hand_keys = list(view.hand)

        def rest_values(action: Any) -> list[int]:
            keys = list(hand_keys)
            keys.remove(play_key(action)[0])
            return [view.hand[k]["value"] for k in keys]

        span = max(1, view.high - view.low)
        flapjacks = [a for a in legal if view.is_flapjack(a)]
        if flapjacks:
            action = max(flapjacks, key=lambda a: self.coverage(view, rest_values(a)))
            return _flapjack_reason(view, action)
        unseen_total = sum(view.unseen.values())
        nxt = view.next_player()
        draws = min(view.hand_counts[nxt], unseen_total)
        pot = view.table_size + 1
        best = None
        for a in legal:
            after = view.after(a)
            f = view.finishing_unseen(after)
            risk = hypergeometric_any(unseen_total, f, draws)
            # my chance of finishing next time: how many of the totals I can finish from
            flex = self.coverage(view, rest_values(a)) / span
            score = -risk * pot + self.FLEX_WEIGHT * flex * (pot + 1)
            key = (score, -abs(view.delta(a)))
            if best is None or key > best[0]:
                best = (key, a, f, risk)
        _, action, f, risk = best
        return Decision(action, "expert-leave", {**_play_data(view, action), "finishing": f,
                                                 "unseen": unseen_total,
                                                 "pct": round(100 * risk)})
