"""What every card table shares, once: seat-name policy, computer-player specs, the deal-code
format, large print, the lazily built settings panel and the teacher box toggle.

Hit Me (widgets/hit_me/table.py) uses all of it; the Flapjack table can adopt it piece by piece.
No ipywidgets import at module level for the policies (sessions use them without widgets).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import ConfigError
from widgets.deal_codes import format_code, new_secret_seed  # the one deal-code format

__all__ = ["MAX_NAME", "check_opponent_specs", "format_code", "new_secret_seed", "seat_names",
           "set_large_print", "bot_name"]

MAX_NAME = 24  # one length limit for a player's name, every table


def seat_names(given: Sequence[str] | None, players: int, n_students: int, *,
               solo: bool) -> list[str]:
    """The seats' names: the given ones (checked: `players` names of 1 to MAX_NAME characters,
    stripped), else 'You' (solo) or 'Player 1'... for the students, then 'Computer 1'...."""
    if given is not None:
        if len(given) != players or not all(isinstance(n, str) and 0 < len(n.strip())
                                            <= MAX_NAME for n in given):
            raise ConfigError(f"names: give {players} names of 1 to {MAX_NAME} characters")
        return [n.strip() for n in given]
    people = ["You"] if solo else [f"Player {i + 1}" for i in range(n_students)]
    return people + [f"Computer {i + 1}" for i in range(players - n_students)]


def bot_name(name: str) -> str:
    """'Computer 1', or 'Ben (computer)' when a given name does not say so."""
    return name if "computer" in name.lower() else f"{name} (computer)"


def check_opponent_specs(opponents: Any, n: int, game: str) -> list[Any]:
    """One spec per computer seat (a level, a bot spec or an object with `choose`), each checked
    now so that a bad one is refused (ConfigError) before anything changes."""
    if isinstance(opponents, list | tuple):
        if len(opponents) != n:
            raise ConfigError(f"opponents: give one level or {n} specs; got {len(opponents)}")
        specs = list(opponents)
    else:
        specs = [opponents] * n
    from engine.bots import make_bot

    for s in specs:
        if not hasattr(s, "choose"):
            try:
                make_bot(str(s), game, 0)
            except Exception as e:  # noqa: BLE001
                raise ConfigError(f"opponents: {e}") from e
    return specs


def set_large_print(root: Any, on: bool, number_line: Any = None, toggle: Any = None) -> None:
    """Large print on a table's root box (class icg-large), its number line and its toggle."""
    if on:
        root.add_class("icg-large")
    else:
        root.remove_class("icg-large")
    if number_line is not None:
        number_line.set_large(on)
    if toggle is not None and toggle.value != on:
        toggle.value = on
