"""`python -m engine.simulate` and the library functions behind it."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine import HitMeConfig, HitMeGame
from engine.errors import ConfigError
from engine.simulate import (
    FLAPJACK_KEYS,
    HIT_ME_KEYS,
    main,
    simulate_flapjack,
    simulate_hit_me,
)
from widgets.words import format_log

ROOT = Path(__file__).resolve().parent.parent


def run_main(capsys: pytest.CaptureFixture[str], *argv: str,
             words: bool = False) -> tuple[int, str, str]:
    """`python -m engine.simulate` (or, with `words`, tools/simulate.py: the log in words)."""
    try:
        code = main(list(argv), format_log=format_log if words else None)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_hit_me_summary_keys_shapes_and_sense() -> None:
    res = simulate_hit_me(players=4, bots="threshold:3", rounds=80, seed=1)
    assert tuple(res) == HIT_ME_KEYS
    assert res["rounds"] == 80
    assert len(res["win_share"]) == 4 and math.isclose(sum(res["win_share"]), 1.0)
    assert 0 <= res["mean_winning_abs"] <= 10
    assert 0 <= res["share_won_at_zero"] <= 1 and 0 <= res["share_someone_took_5"] <= 1
    assert 0 <= res["mean_hits_per_player"] <= 5
    never = simulate_hit_me(players=3, bots="threshold:100", rounds=20, seed=1)
    assert never["mean_hits_per_player"] == 0 and never["share_someone_took_5"] == 0
    always = simulate_hit_me(players=3, bots="threshold:0", rounds=20, seed=1)
    assert always["mean_hits_per_player"] == 5 and always["share_someone_took_5"] == 1


def test_flapjack_summary_keys_shapes_and_sense() -> None:
    res = simulate_flapjack(players=3, bots=["random", "greedy", "expert"], games=20, seed=2,
                            variant="simple-ten")
    assert tuple(res) == FLAPJACK_KEYS
    assert res["games"] == 20 and len(res["win_share"]) == 3
    assert math.isclose(sum(res["win_share"]), 1.0)
    assert 0 <= res["share_blocked"] <= 1
    assert res["mean_cards_won"] <= 40 and res["mean_plays"] <= 40
    assert res["mean_flapjacks"] > 0


def test_same_seed_same_result_and_progress_callback() -> None:
    calls = []
    a = simulate_hit_me(players=4, bots=["expert", "threshold:4", "random", "threshold:2"],
                        rounds=4, seed=7, progress=lambda done, total: calls.append(done))
    b = simulate_hit_me(players=4, bots=["expert", "threshold:4", "random", "threshold:2"],
                        rounds=4, seed=7)
    assert a == b and calls[-1] == 4
    c = simulate_flapjack(players=2, bots="random", games=30, seed=3)
    assert c == simulate_flapjack(players=2, bots="random", games=30, seed=3)
    assert c != simulate_flapjack(players=2, bots="random", games=30, seed=4)


def test_library_refuses_bad_settings() -> None:
    with pytest.raises(ConfigError, match="one bot for every seat"):
        simulate_hit_me(players=3, bots=["random", "random"], rounds=2)
    with pytest.raises(ConfigError, match="rounds"):
        simulate_hit_me(rounds=0)
    with pytest.raises(ConfigError, match="variant"):
        simulate_flapjack(variant="bogus", games=1)


def test_cli_hit_me_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["hitme", "--players", "4", "--bot", "threshold:3", "--rounds", "60", "--seed", "1",
            "--json"]
    code, out, err = run_main(capsys, *argv)
    assert code == 0
    res = json.loads(out)
    assert list(res) == list(HIT_ME_KEYS) and len(res["win_share"]) == 4
    assert res == simulate_hit_me(players=4, bots="threshold:3", rounds=60, seed=1)
    assert run_main(capsys, *argv)[1] == out


def test_cli_flapjack_json_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "flapjack", "--players", "2", "--bot", "greedy", "--bot",
                            "random", "--games", "20", "--variant", "add-or-subtract",
                            "--seed", "1", "--json")
    assert code == 0
    res = json.loads(out)
    assert list(res) == list(FLAPJACK_KEYS) and len(res["win_share"]) == 2
    code, out, _ = run_main(capsys, "hitme", "--players", "3", "--rounds", "10", "--ace-eleven",
                            "--all-at-once", "--colors", "red-positive", "--decks", "2")
    assert code == 0 and "win_share (ties split)" in out and "Seat 2 (threshold:4)" in out


def test_cli_deck_and_log_replay_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    deck = "KS,7H,10C,2D,AH,5S"
    code, out, _ = run_main(capsys, "hitme", "--players", "3", "--bot", "threshold:3",
                            "--deck", deck, "--log", "--seed", "4", words=True)
    assert code == 0
    lines = out.splitlines()
    # seat 1 is dealt first: KS face down, then 2D face up; seat 0 (the dealer) gets 5S.
    assert lines[0].startswith("Seat 1: is dealt a face-down card and 2\u2666 (-2) face up")
    assert "(seen by Seat 1 only: your face-down card is K\u2660" in lines[0]
    assert any(line.startswith("Seat 0: is dealt a face-down card and 5\u2660 (+5)")
               for line in lines)
    assert "rounds: 1" in out
    # the same log from the library
    game = HitMeGame(HitMeConfig(players=3), seed=None, deck=deck)
    assert format_log(game.round.events)[0] == lines[0]
    assert run_main(capsys, "hitme", "--players", "3", "--bot", "threshold:3", "--deck", deck,
                    "--log", "--seed", "4", words=True)[1] == out
    code, out, _ = run_main(capsys, "flapjack", "--players", "2", "--deck", "KS,7H,10C",
                            "--log", "--json", words=True)
    assert code == 0
    assert out.splitlines()[0].startswith("Seat 0: deals 7 cards")
    assert json.loads(out.strip().splitlines()[-1])["games"] == 1


@pytest.mark.parametrize("argv", [
    ["hitme", "--players", "1"],
    ["hitme", "--players", "two"],
    ["hitme", "--bot", "genius"],
    ["hitme", "--players", "3", "--bot", "random", "--bot", "expert"],
    ["hitme", "--rounds", "0"],
    ["hitme", "--deck", "ZZ,7H"],
    ["hitme", "--players", "8", "--decks", "1"],
    ["hitme", "--colors", "green-positive"],
    ["hitme", "--rounds", "5", "--log"],
    ["flapjack", "--variant", "bogus"],
    ["flapjack", "--bot", "threshold:3"],
    ["flapjack", "--players", "8"],
    ["flapjack", "--decks", "0"],
    ["poker"],
    [],
])
def test_cli_bad_arguments_exit_2_without_traceback(capsys: pytest.CaptureFixture[str],
                                                    argv: list[str]) -> None:
    code, out, err = run_main(capsys, *argv)
    assert code == 2
    assert "error:" in err and "Traceback" not in err
    assert out == ""


def test_python_dash_m_runs_and_fails_cleanly() -> None:
    ok = subprocess.run([sys.executable, "-m", "engine.simulate", "flapjack", "--players", "4",
                         "--bot", "random", "--games", "5", "--variant", "classic", "--seed",
                         "1", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert list(json.loads(ok.stdout)) == list(FLAPJACK_KEYS)
    assert ok.stderr == ""  # no progress bar when stderr is not a terminal
    bad = subprocess.run([sys.executable, "-m", "engine.simulate", "hitme", "--decks", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "--decks" in bad.stderr


def test_engine_log_is_data_and_the_words_come_from_tools(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """`python -m engine.simulate --log` prints the events as JSON data (the engine makes no
    sentences); tools/simulate.py prints the same events in words."""
    deck = "KS,7H,10C,2D,AH,5S"
    argv = ("hitme", "--players", "3", "--bot", "threshold:3", "--deck", deck, "--log")
    code, out, _ = run_main(capsys, *argv)
    assert code == 0
    game = HitMeGame(HitMeConfig(players=3), seed=None, deck=deck)
    first = json.loads(out.splitlines()[0])
    assert first == game.round.events[0].to_json()
    assert first["kind"] == "deal" and first["seat"] == 1 and first["card"] == "2D"
    tool = subprocess.run([sys.executable, "tools/simulate.py", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert tool.returncode == 0, tool.stderr
    assert tool.stdout.splitlines()[0] == format_log(game.round.events)[0]
    assert tool.stdout.startswith("Seat 1: is dealt a face-down card")


def test_the_engine_imports_nothing_from_widgets() -> None:
    import ast

    for path in sorted((ROOT / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n == "widgets" or n.startswith("widgets.") for n in names), \
                f"{path.name} imports {names}"
