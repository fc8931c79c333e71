"""No module names a game outside its homes: the literals "hit-me" and "flapjack" appear only in
engine/hit_me.py, engine/flapjack.py, engine/games.py (the registry), widgets/hit_me/,
widgets/flapjack/ and the tests. Everything else reads the registry (engine.games.GAMES,
`settings_of`, `widgets.table.games`), so a third game touches only its own homes.

The test walks every module of the packages (engine/, rooms/, widgets/, serving/) with ast and
looks at every string constant. The command-line scripts (tools/, benchmarks/) run a chosen
game and are not walked. The modules still naming a game are listed in LEFT, each with what
it still does; the test also finds each of them still naming one, so the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"hit-me", "flapjack"}
PACKAGES = ("engine", "rooms", "widgets", "serving")
HOMES = ("engine/hit_me.py", "engine/flapjack.py", "engine/games.py", "widgets/hit_me/",
         "widgets/flapjack/")
LEFT = {
    # each game's computer players and their reason codes (the code "flapjack": a Flapjack made)
    "engine/bots.py": "the bots of both games, made by game name",
    "engine/events.py": 'the event kind "flapjack" (a Flapjack made), not the game',
    "engine/simulate.py": "the command line's subcommands, one per game",
    "rooms/classroom.py": "the teacher's reveal and the public facts branch on the room's game",
    "widgets/lessons/worked_examples.py": "the worked examples, one per game, by name",
    "widgets/together/class_view.py": "the games' names as the class view shows them",
    "widgets/together/seat.py": "a seat's class and its table's settings by the room's game",
    "widgets/words/bot_reasons.py": 'the bot reason code "flapjack" (a Flapjack made)',
    "widgets/words/event_log.py": 'the event kind "flapjack" (a Flapjack made)',
    "widgets/words/flapjack_log.py": 'the event kind "flapjack" (a Flapjack made)',
    "widgets/words/reasons.py": "a refused action's sentence by the game in its data",
}


def named(path: Path) -> list[tuple[int, str]]:
    """(line, name) of every string constant of `path` that is a game's registry name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and n.value in NAMES]


def modules() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for top in PACKAGES for p in (ROOT / top).rglob("*.py")
                  if "__pycache__" not in p.parts)


def test_the_walk_sees_the_homes() -> None:
    """The walk finds the names where they belong (the registry names both games)."""
    assert {name for _, name in named(ROOT / "engine/games.py")} == NAMES
    assert named(ROOT / "widgets/hit_me/session.py")


def test_no_module_outside_the_homes_names_a_game() -> None:
    found = {m: named(ROOT / m) for m in modules() if not m.startswith(HOMES)}
    naming = {m: hits for m, hits in found.items() if hits}
    unlisted = {m: hits for m, hits in naming.items() if m not in LEFT}
    assert not unlisted, f"modules naming a game outside its homes: {unlisted}"
    cleaned = sorted(set(LEFT) - set(naming))
    assert not cleaned, f"these modules no longer name a game: take them off LEFT: {cleaned}"
