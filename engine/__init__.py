"""The rules engine of Integer Card Games: cards, Hit Me, Flapjack and computer players.

Pure Python with no widget code: the single source of truth for what is legal.
"""

from engine.cards import Card, Color, Convention, Suit, make_deck, parse_card, parse_cards, signed
from engine.errors import ConfigError, IllegalActionError
from engine.events import Event, EventKind
from engine.flapjack import EndReason, FlapjackConfig, FlapjackResult, FlapjackState, Play
from engine.hit_me import (
    ChooseAce,
    Hit,
    HitMeConfig,
    HitMeGame,
    HitMeRound,
    Hold,
    Reveal,
    RoundResult,
    TurnOrder,
)

__all__ = [
    "Card", "Color", "Convention", "Suit", "make_deck", "parse_card", "parse_cards", "signed",
    "ConfigError", "IllegalActionError", "Event", "EventKind",
    "EndReason", "FlapjackConfig", "FlapjackResult", "FlapjackState", "Play",
    "ChooseAce", "Hit", "HitMeConfig", "HitMeGame", "HitMeRound", "Hold", "Reveal", "RoundResult",
    "TurnOrder",
]
