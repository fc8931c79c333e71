"""Stored playthroughs: seeded games written out as text, compared with tests/playthroughs/.

Each file is one seeded game (random legal moves from a generator seeded alike) with its full
event log, every step's arithmetic and private notes, and the final result. Any change of the
rules engine's behaviour (deal order, turn order, scoring, event text) shows up as a diff.

When a change is intended, regenerate the files and review the diff in git:

    .venv/bin/python -m tests.test_playthroughs --regen
    # or: PLAYTHROUGHS_REGEN=1 .venv/bin/python -m pytest tests/test_playthroughs.py
"""

from __future__ import annotations

import difflib
import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

try:
    from helpers import random_hit_me_step
except ImportError:  # run as `python -m tests.test_playthroughs`
    from tests.helpers import random_hit_me_step

from engine.events import Event
from engine.flapjack import FlapjackConfig, FlapjackState
from engine.hit_me import HitMeConfig, HitMeGame
from widgets.words import log_parts, variant_title

DIR = Path(__file__).resolve().parent / "playthroughs"
REGEN_HINT = ("regenerate with `.venv/bin/python -m tests.test_playthroughs --regen` "
              "(or PLAYTHROUGHS_REGEN=1 pytest tests/test_playthroughs.py) and review the diff")


def event_line(e: Event, add_or_subtract: bool = False, plain: bool | None = None) -> str:
    who = "table" if e.seat is None else f"seat {e.seat}"
    text, math, private = log_parts(e, add_or_subtract, plain)
    line = f"[{e.kind.value}] {who}: {text}"
    if math:
        line += f"  | {math}"
    if private:
        line += f"  | private: {private}"
    return line


def hit_me_text(config: HitMeConfig, seed: int, rounds: int) -> str:
    """A seeded game of several Hit Me rounds with random moves, as text."""
    game = HitMeGame(config, seed=seed)
    rng = random.Random(f"moves-{seed}")
    out = [f"# Hit Me, seed {seed}, moves from random.Random('moves-{seed}')",
           f"# settings: {json.dumps(config.to_json(), sort_keys=True)}"]
    for n in range(1, rounds + 1):
        out.append(f"## round {n}, dealer seat {game.dealer}")
        ace_budget = [4]
        while not game.round.players_done:
            random_hit_me_step(game.round, rng, ace_budget)
        res = game.finish_round()
        out += [event_line(e) for e in game.round.events]
        out.append(f"result: sums {list(res.sums)}, scores {list(res.scores)}, "
                   f"winners {list(res.winners)}{' (tie)' if res.tie else ''}")
        if n < rounds:
            game.next_round()
    out.append("## score table")
    out += [f"seat {row['seat']}: {row['wins']} wins, {row['ties']} ties"
            for row in game.score_table()]
    return "\n".join(out) + "\n"


def flapjack_text(config: FlapjackConfig, seed: int) -> str:
    """A seeded Flapjack game with random legal moves, as text."""
    state = FlapjackState.deal(config, rng=seed)
    rng = random.Random(f"moves-{seed}")
    out = [f"# Flapjack ({variant_title(config.variant)}), seed {seed}, "
           f"moves from random.Random('moves-{seed}')",
           f"# settings: {json.dumps(config.to_json(), sort_keys=True)}",
           "## hands dealt"]
    out += [f"seat {p}: {' '.join(c.key for c in hand)}" for p, hand in enumerate(state.hands)]
    out.append(f"draw pile (top first): {' '.join(c.key for c in state.draw_pile)}")
    out.append("## play")
    while not state.is_over:
        state.apply_action(rng.choice(state.legal_actions()))
    out += [event_line(e, config.add_or_subtract, not config.signed) for e in state.events]
    res = state.result()
    out.append(f"result: {res.reason.value}; cards won {list(res.cards_won)}; "
               f"winners {list(res.winners)}{' (tie)' if res.tie else ''}; "
               f"plays {state.plays}, passes {state.passes}, flapjacks {state.flapjacks}")
    out.append("left unwon: table " + " ".join(c.key for c, _ in state.table)
               + "; hands " + " | ".join(" ".join(c.key for c in h) for h in state.hands))
    return "\n".join(out) + "\n"


PLAYTHROUGHS: dict[str, Callable[[], str]] = {
    "hit-me-round-robin": lambda: hit_me_text(HitMeConfig(players=3), seed=1, rounds=4),
    "hit-me-all-at-once": lambda: hit_me_text(HitMeConfig(players=4, turn_order="all-at-once"),
                                              seed=2, rounds=3),
    "hit-me-ace-eleven": lambda: hit_me_text(HitMeConfig(players=3, ace_eleven=True),
                                             seed=3, rounds=4),
    "hit-me-red-positive-8-players": lambda: hit_me_text(
        HitMeConfig(players=8, colors="red-positive"), seed=4, rounds=2),
    "flapjack-classic": lambda: flapjack_text(FlapjackConfig(players=3), seed=1),
    "flapjack-simple-ten": lambda: flapjack_text(
        FlapjackConfig(players=2, variant="simple-ten"), seed=2),
    "flapjack-add-or-subtract": lambda: flapjack_text(
        FlapjackConfig(players=3, variant="add-or-subtract"), seed=3),
    "flapjack-signed-add-or-subtract": lambda: flapjack_text(
        FlapjackConfig(players=3, variant="signed-add-or-subtract"), seed=5),
    "flapjack-classic-two-decks-8-players": lambda: flapjack_text(
        FlapjackConfig(players=8, decks=2, colors="red-positive"), seed=4),
}


def regenerate() -> list[Path]:
    DIR.mkdir(exist_ok=True)
    written = []
    for name, make in PLAYTHROUGHS.items():
        path = DIR / f"{name}.txt"
        path.write_text(make(), encoding="utf-8")
        written.append(path)
    return written


@pytest.mark.parametrize("name", list(PLAYTHROUGHS))
def test_playthrough_matches_stored_text(name: str) -> None:
    path = DIR / f"{name}.txt"
    text = PLAYTHROUGHS[name]()
    if os.environ.get("PLAYTHROUGHS_REGEN"):
        DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: {REGEN_HINT}"
    stored = path.read_text(encoding="utf-8")
    if stored != text:
        diff = "".join(list(difflib.unified_diff(
            stored.splitlines(keepends=True), text.splitlines(keepends=True),
            f"stored/{name}.txt", f"now/{name}.txt"))[:80])
        pytest.fail(f"the engine now plays {name} differently:\n{diff}\nIf intended, {REGEN_HINT}")


def test_playthroughs_are_deterministic_and_complete() -> None:
    for name, make in PLAYTHROUGHS.items():
        text = make()
        assert text == make(), f"{name} is not the same twice"
        assert "result:" in text
    assert "(tie)" in "".join(make() for make in PLAYTHROUGHS.values()), "no tie in any game"
    assert sorted(p.stem for p in DIR.glob("*.txt")) == sorted(PLAYTHROUGHS), (
        f"tests/playthroughs/ holds a file for each playthrough and nothing else; {REGEN_HINT}")


if __name__ == "__main__":
    if "--regen" in sys.argv[1:]:
        for p in regenerate():
            print(f"wrote {p}")
    else:
        print(__doc__)
