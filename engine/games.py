"""The registry of games: one shape for every game, as in OpenSpiel.

    from engine.games import GAMES, make_game
    game = make_game("flapjack", players=3, variant="simple-ten")
    state = game.new_state(rng=7)
    while not state.is_over:
        seat = state.current_player
        state.apply_action(state.legal_actions(seat)[0], seat)

A `Game` is made from a frozen config and creates states; every state has the same core API:
`current_player`, `legal_actions(seat)`, `apply_action(action, seat)`, `is_over`, `result()`,
`observation(seat)` (with the same field names in both games: `draw_pile` is the number of
cards in the face-down pile, `legal_actions` a list of action data `{"kind": ...}`), and
`to_json()` / `from_json()`. Bots, the simulator, hints, the explorer and the tables look games
up here instead of branching on their names; adding a game means an engine module, a line in
GAMES and a widgets package.

Each game's settings are written here once, as data (`GameType.settings`, a `GameSettings`):
the players and decks the engine accepts and the most a table or room offers, the computer
players' levels (and the bot each plays), each setting's choices (Flapjack's variants, the
colour conventions, Hit Me's turn orders) and the defaults. The engine holds no sentences:
these are identifiers, and `widgets.words.setting_label(setting, choice)` gives each its label
in the page's language; the settings panels, the lobby, the explorer, the bots and the rooms
read them from here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, Convention, card_from_json, make_deck
from engine.errors import ConfigError, IllegalActionError, Reason, is_seat
from engine.flapjack import VARIANTS, FlapjackConfig, FlapjackState, Play
from engine.hit_me import (
    ChooseAce,
    Hit,
    HitMeConfig,
    HitMeGame,
    HitMeRound,
    Hold,
    Reveal,
    TurnOrder,
)
from engine.validate import MAX_DECKS, MAX_PLAYERS

NAME_LENGTH = 24  # the most characters of a player's name (at least 1), every table and room
TABLE_PLAYERS = 8  # the most seats a table on one screen or a room offers (the engine: 20)
LEVELS = ("easy", "medium", "hard")  # the computer players' levels, every game
COLORS = tuple(c.value for c in Convention)  # the colour conventions, every game


@dataclass(frozen=True, eq=False)
class GameSettings:
    """One game's settings as data (identifiers, no sentences).

    `players` and `decks` are the engine's bounds (a config outside them is refused);
    `table_players` and `table_decks` the most a settings panel or the lobby offers. `levels`
    gives the bot each level plays (`engine.bots.make_bot`). `choices` gives each setting with
    a fixed list its choices, in the order shown ("colors", and "variant" or "turn_order");
    `defaults` a new table's values."""

    players: tuple[int, int]
    decks: tuple[int, int]
    table_players: int
    table_decks: int
    levels: dict[str, str]
    choices: dict[str, tuple[str, ...]]
    defaults: dict[str, Any]

    def choices_of(self, setting: str) -> tuple[str, ...]:
        """The choices of one setting (empty if this game has no such setting)."""
        return self.choices.get(setting, ())


@dataclass(frozen=True)
class GameType:
    """What the registry knows of one game: how to make its config and states."""

    name: str
    config_type: type
    state_type: type
    deal: Callable[..., Any]  # deal(config, rng, deck, dealer) -> state
    base_value: Callable[[Card], int]  # a card's size before its colour sign (A=1 ...)
    action_from_json: Callable[[dict[str, Any], Any, Any], Any]  # (data, state, seat)
    # series(config, seed, deck) -> a sequence of deals with a score table (Hit Me's
    # HitMeGame: the winner deals next), for games played deal after deal; None otherwise
    series: Callable[..., Any] | None = None
    series_type: type | None = None  # the class `series` makes (its to_json / from_json)
    settings: GameSettings | None = None  # see GameSettings (every game in GAMES has them)

    def card_value(self, card: Card, colors: Convention | str = Convention.BLACK_POSITIVE
                   ) -> int:
        """A card's signed value in this game (aces as 1)."""
        return self.base_value(card) * Convention.parse(colors).card_sign(card)


@dataclass(frozen=True)
class Game:
    """One game type with fixed settings; it makes states (new deals)."""

    type: GameType
    config: Any

    @property
    def name(self) -> str:
        return self.type.name

    def new_state(self, rng: random.Random | int | str | None = None,
                  deck: Sequence[Card] | str | None = None, dealer: int = 0) -> Any:
        """A new deal: shuffled with `rng`, or with `deck` stacked on top (top first)."""
        return self.type.deal(self.config, rng, deck, dealer)

    def new_series(self, seed: random.Random | int | str | None = None,
                   deck: Sequence[Card] | str | None = None) -> Any:
        """Deal after deal with a score table (Hit Me: a `HitMeGame`); `deck` stacks the
        first deal. A game without series (Flapjack: one deal is one game) raises."""
        if self.type.series is None:
            raise ConfigError(f"{self.name} is played one deal at a time: use new_state()")
        return self.type.series(self.config, seed, deck)

    def value(self, card: Card) -> int:
        return self.config.value(card)

    def full_deck(self) -> list[Card]:
        """Every card this game is played with (the deck(s), in a fixed order)."""
        ranks = getattr(self.config, "ranks", tuple(range(1, 14)))
        return make_deck(self.config.decks, ranks)

    def state_from_json(self, data: dict[str, Any]) -> Any:
        return self.type.state_type.from_json(data)

    def action_from_json(self, data: dict[str, Any], state: Any, seat: int | None = None
                         ) -> Any:
        """An action from its data ({"kind": ...}, as `legal_actions` in an observation and
        `to_json` write it) for `seat` (default: the seat to play), its card looked for in
        that seat's own cards only: any other card (another seat's, the draw pile's, a card
        of no game) is refused alike (IllegalActionError), so a refusal never tells where a
        hidden card is. Data that is no action of this game raises ConfigError."""
        if seat is None:
            seat = state.current_player
        return self.type.action_from_json(data, state, seat)


def _own_card(key: Any, cards: Sequence[Card], reason: Reason, seat: Any) -> Card:
    for c in cards:
        if c.key == key:
            return c
    raise IllegalActionError(reason, card=str(key), seat=seat)


def _hit_me_action(data: dict[str, Any], state: HitMeRound, seat: Any) -> Any:
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "hit":
        return Hit()
    if kind == "hold":
        return Hold()
    if kind == "reveal":
        return Reveal()
    if kind == "ace":
        own = state.cards(seat) if is_seat(seat, state.players) else []
        return ChooseAce(_own_card(data.get("key"), own, Reason.NOT_YOUR_CARD, seat),
                         data.get("high"))
    raise ConfigError(f"not a Hit Me action: {data!r}")


def _flapjack_action(data: dict[str, Any], state: FlapjackState, seat: Any) -> Any:
    if not isinstance(data, dict) or data.get("kind") != "play":
        raise ConfigError(f"not a Flapjack action: {data!r}")
    own = state.hands[seat] if is_seat(seat, state.players) else []
    return Play(_own_card(data.get("key"), own, Reason.NOT_IN_HAND, seat), data.get("sign", 1))


def read_action(data: Any) -> Any:
    """An action from its JSON exactly as `to_json` writes it, with no state to look in (a
    saved move log): `{"kind": "hit"}`, `{"kind": "hold"}`, `{"kind": "reveal"}`,
    `{"kind": "ace", "key": "AS", "high": true}`, `{"kind": "play", "key": "KS", "sign": -1}`.
    Anything else (a field more or less, a bool for a sign, a card key not written exactly)
    is refused with IllegalActionError(NOT_AN_ACTION); `apply_action` then checks the move."""
    if not isinstance(data, dict) or type(data.get("kind")) is not str:
        raise IllegalActionError(Reason.NOT_AN_ACTION, action=repr(data))
    kind, fields = data["kind"], set(data) - {"kind"}
    try:
        if kind in _PLAIN_ACTIONS and not fields:
            return _PLAIN_ACTIONS[kind]
        if kind == "ace" and fields == {"key", "high"} and type(data["high"]) is bool:
            return ChooseAce(card_from_json(data["key"]), data["high"])
        if kind == "play" and fields == {"key", "sign"} and type(data["sign"]) is int \
                and data["sign"] in (1, -1):
            return Play(card_from_json(data["key"]), data["sign"])
    except ConfigError as e:  # a card key not written exactly
        raise IllegalActionError(Reason.NOT_AN_ACTION, action=repr(data), error=str(e)) from e
    raise IllegalActionError(Reason.NOT_AN_ACTION, action=repr(data))


_PLAIN_ACTIONS = {"hit": Hit(), "hold": Hold(), "reveal": Reveal()}


GAMES: dict[str, GameType] = {
    "hit-me": GameType(
        "hit-me", HitMeConfig, HitMeRound,
        lambda config, rng, deck, dealer: HitMeRound.deal(config, rng, deck, dealer=dealer),
        lambda card: min(card.rank, 10), _hit_me_action,
        lambda config, seed, deck: HitMeGame(config, seed=seed, deck=deck), HitMeGame,
        GameSettings(
            players=(2, MAX_PLAYERS), decks=(1, MAX_DECKS), table_players=TABLE_PLAYERS,
            table_decks=1,
            levels={"easy": "threshold:8", "medium": "threshold:4", "hard": "expert"},
            choices={"colors": COLORS, "turn_order": tuple(t.value for t in TurnOrder)},
            defaults={"players": 3, "colors": COLORS[0], "turn_order": "round-robin",
                      "level": "medium"})),
    "flapjack": GameType(
        "flapjack", FlapjackConfig, FlapjackState,
        lambda config, rng, deck, dealer: FlapjackState.deal(config, rng, deck, dealer=dealer),
        lambda card: card.rank, _flapjack_action,
        settings=GameSettings(
            players=(2, MAX_PLAYERS), decks=(1, MAX_DECKS), table_players=TABLE_PLAYERS,
            table_decks=4,
            levels={"easy": "random", "medium": "greedy", "hard": "expert"},
            choices={"variant": tuple(VARIANTS), "colors": COLORS},
            defaults={"players": 3, "variant": "classic", "colors": COLORS[0],
                      "level": "medium"})),
}

_ALIASES = {"hitme": "hit-me"}


def game_name(name: Any) -> str:
    """The registry name of a game ('hit-me', 'flapjack'; accepts 'hitme', 'Hit Me')."""
    g = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    g = _ALIASES.get(g, g)
    if g not in GAMES:
        raise ConfigError(f"game must be one of {', '.join(GAMES)}; got {name!r}")
    return g


def settings_of(name: Any) -> GameSettings:
    """A game's settings (accepts the names `game_name` accepts)."""
    settings = GAMES[game_name(name)].settings
    assert settings is not None
    return settings


def make_game(name: str, config: Any = None, **settings: Any) -> Game:
    """A Game from its name and a config (or the config's settings)."""
    gt = GAMES[game_name(name)]
    if config is None:
        config = gt.config_type(**settings)
    elif settings:
        raise ConfigError("give a config or settings, not both")
    if not isinstance(config, gt.config_type):
        raise ConfigError(f"config must be a {gt.config_type.__name__}")
    return Game(gt, config)

