"""Play many seeded games between computer players and summarise them.

Command line (``python -m engine.simulate --help``)::

    python -m engine.simulate hitme --players 4 --bot threshold:3 --rounds 100000 --seed 1 --json
    python -m engine.simulate flapjack --players 4 --bot random --games 20000 --variant classic \\
        --seed 1 --json
    python -m engine.simulate hitme --players 3 --deck KS,7H,10C,2D,AH,5S --log
    python tools/simulate.py hitme --players 3 --deck KS,7H,10C,2D,AH,5S --log  # in words

`--log` prints the event log as data (one JSON event a line): the engine makes no sentences
and imports nothing from widgets. `tools/simulate.py` runs this same command line with
widgets.words.format_log, so its log is in sentences.

Library: `simulate_hit_me(...)` and `simulate_flapjack(...)` return the same dicts as
``--json``. Every bot sees only its own observation (``state.observation(seat)``) and its
legal actions. Seat 0 is the first dealer. A Hit Me simulation is one long game (the winner
of a round deals the next); each Flapjack game is dealt by seat 0.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from engine.bots import Bot, make_bot
from engine.cards import parse_cards
from engine.errors import ConfigError
from engine.events import Event
from engine.flapjack import VARIANTS, EndReason, FlapjackConfig, FlapjackState
from engine.hit_me import MAX_HITS, HitMeConfig, HitMeGame, HitMeRound, Reveal

Progress = Callable[[int, int], None]
HIT_ME_KEYS = ("rounds", "win_share", "mean_winning_abs", "share_won_at_zero",
               "mean_hits_per_player", "share_someone_took_5")
FLAPJACK_KEYS = ("games", "mean_flapjacks", "mean_cards_won", "share_blocked", "mean_plays",
                 "mean_passes", "win_share")


def seat_specs(bots: str | Sequence[str], players: int) -> list[str]:
    """One bot spec per seat: a single spec is used for every seat."""
    specs = [bots] if isinstance(bots, str) else list(bots)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ConfigError(
            f"give one bot for every seat or one bot for all: {players} players, "
            f"{len(specs)} bots given"
        )
    return specs


def make_seat_bots(specs: Sequence[str], game: str, seed: Any) -> list[Bot]:
    """Bots for each seat, each with its own generator derived from the seed."""
    return [make_bot(spec, game, random.Random(f"bot:{seed}:{seat}"))
            for seat, spec in enumerate(specs)]


_REVEAL = Reveal()

class _Ticker:
    """Calls a progress callback, or drives a tqdm bar on stderr, every `step` items."""

    def __init__(self, progress: bool | Progress | None, total: int, desc: str) -> None:
        self.total = total
        self.callback: Progress | None = None
        self.bar = None
        self.step = max(1, total // 200)
        if callable(progress):
            self.callback = progress
        elif progress:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, unit=desc.split()[-1], file=sys.stderr,
                            leave=False)

    def __call__(self, done: int) -> None:
        if done % self.step and done != self.total:
            return
        if self.callback is not None:
            self.callback(done, self.total)
        if self.bar is not None:
            self.bar.n = done
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _split_share(winners: Sequence[int], share: list[float]) -> None:
    for w in winners:
        share[w] += 1 / len(winners)


def play_out(state: HitMeRound | FlapjackState, seat_bots: Sequence[Bot]) -> None:
    """Let the computer players move until the round or game is over. Each sees only its own
    observation (without the event log, which no bot reads) and its legal actions."""
    observe, legal, apply = state.observation, state.legal_actions, state.apply_action
    if type(state) is HitMeRound:
        # The same steps, written for Hit Me (a simulation spends its time here; each seat
        # still gets only its own observation and legal actions)
        state.play_turns([bot.choose for bot in seat_bots])
        if not state.revealed:  # the announce step: no one to wait for, the one move reveals
            apply(_REVEAL)  # (legal(None) lists it alone)
        return
    while not state.is_over:
        seat = state.current_player
        if seat is None:  # Hit Me's announce step: no one to wait for, the one move reveals
            apply(legal(None)[0])
            continue
        apply(seat_bots[seat].choose(observe(seat, False, False), legal(seat)).action, seat)


def simulate_hit_me(
    players: int = 4,
    bots: str | Sequence[str] = "threshold:4",
    rounds: int = 1000,
    seed: int | str | None = 1,
    decks: int | None = None,
    colors: str = "black-positive",
    turn_order: str = "round-robin",
    ace_eleven: bool = False,
    deck: str | None = None,
    progress: bool | Progress | None = None,
    on_round: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Play `rounds` rounds of one Hit Me game between bots; summary keys as HIT_ME_KEYS.

    `bots`: one spec for all seats or one per seat. `deck` stacks the first round (top first).
    `progress`: True for a tqdm bar on stderr, or a callback(done, total).
    `on_round(round)` is called with each finished round (for logs)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ConfigError(f"rounds must be a whole number 1 or more; got {rounds!r}")
    config = HitMeConfig(players=players, decks=decks, colors=colors, turn_order=turn_order,
                         ace_eleven=ace_eleven)
    specs = seat_specs(bots, players)
    seat_bots = make_seat_bots(specs, "hit-me", seed)
    game = HitMeGame(config, seed=random.Random(f"deal:{seed}"),
                     deck=parse_cards(deck) if deck else None)
    share = [0.0] * players
    winning_abs = zero_wins = hits = took5 = 0
    ticker = _Ticker(progress, rounds, "Hit Me rounds")
    ticking = ticker.callback is not None or ticker.bar is not None
    try:
        for r in range(rounds):
            if r:
                game.next_round()
            rnd = game.round
            play_out(rnd, seat_bots)
            res = game.finish_round()
            winners = res.winners
            for w in winners:  # (_split_share, inlined)
                share[w] += 1 / len(winners)
            best = res.scores[winners[0]]
            winning_abs += best
            zero_wins += best == 0
            cards_up = [*map(len, rnd.face_up)]  # rnd.hits(p) + 1 of every seat
            hits += sum(cards_up) - players
            took5 += max(cards_up) > MAX_HITS
            if on_round is not None:
                on_round(rnd)
            if ticking:
                ticker(r + 1)
    finally:
        ticker.close()
    return {
        "rounds": rounds,
        "win_share": [s / rounds for s in share],
        "mean_winning_abs": winning_abs / rounds,
        "share_won_at_zero": zero_wins / rounds,
        "mean_hits_per_player": hits / (rounds * players),
        "share_someone_took_5": took5 / rounds,
    }


def simulate_flapjack(
    players: int = 4,
    bots: str | Sequence[str] = "random",
    games: int = 1000,
    seed: int | str | None = 1,
    variant: str = "classic",
    decks: int = 1,
    colors: str = "black-positive",
    deck: str | None = None,
    progress: bool | Progress | None = None,
    on_game: Callable[[FlapjackState], None] | None = None,
) -> dict[str, Any]:
    """Play `games` seeded Flapjack games between bots; summary keys as FLAPJACK_KEYS.

    `bots`: one spec for all seats or one per seat. `deck` stacks every game's deck (top
    first; use it with games=1 to replay a deal). `progress`: True for a tqdm bar on stderr,
    or a callback(done, total). `on_game(state)` is called with each finished game."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"games must be a whole number 1 or more; got {games!r}")
    config = FlapjackConfig(players=players, decks=decks, colors=colors, variant=variant)
    specs = seat_specs(bots, players)
    seat_bots = make_seat_bots(specs, "flapjack", seed)
    rng = random.Random(f"deal:{seed}")
    order = parse_cards(deck) if deck else None
    share = [0.0] * players
    flapjacks = cards_won = blocked = plays = passes = 0
    ticker = _Ticker(progress, games, "Flapjack games")
    try:
        for g in range(games):
            state = FlapjackState.deal(config, rng, deck=order)
            play_out(state, seat_bots)
            res = state.result()
            _split_share(res.winners, share)
            flapjacks += sum(state.flapjacks)
            cards_won += sum(res.cards_won)
            blocked += res.reason is EndReason.BLOCKED
            plays += state.plays
            passes += state.passes
            if on_game is not None:
                on_game(state)
            ticker(g + 1)
    finally:
        ticker.close()
    return {
        "games": games,
        "mean_flapjacks": flapjacks / games,
        "mean_cards_won": cards_won / games,
        "share_blocked": blocked / games,
        "mean_plays": plays / games,
        "mean_passes": passes / games,
        "win_share": [s / games for s in share],
    }


# ----- command line --------------------------------------------------------------------------


# (events, add_or_subtract: the player chose + or -, plain: every card counted positive)
LogFormatter = Callable[[Sequence[Event], bool, bool], list[str]]


def event_lines(events: Sequence[Event], add_or_subtract: bool = False,
                plain: bool = False) -> list[str]:
    """The event log as data: one JSON object a line (private parts included). The engine
    makes no sentences; `python tools/simulate.py ... --log` passes widgets.words.format_log
    to `main` and prints the same log in words."""
    return [json.dumps(e.to_json(), ensure_ascii=False) for e in events]


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number 1 or more, got {n}")
    return n


def build_parser(prog: str = "python -m engine.simulate") -> argparse.ArgumentParser:
    """The argparse parser of `python -m engine.simulate`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Play many seeded games of Hit Me or Flapjack between computer players "
                    "and print a summary (seat 0 is the first dealer).",
    )
    sub = parser.add_subparsers(dest="game", metavar="{hitme,flapjack}")
    sub.required = True

    def common(p: argparse.ArgumentParser, default_bot: str, bots: str) -> None:
        p.add_argument("--players", type=_positive_int, default=4, help="number of players (2+)")
        p.add_argument("--bot", action="append", metavar="SPEC",
                       help=f"bot for every seat, or repeat once per seat ({bots}); "
                            f"default {default_bot}")
        p.add_argument("--seed", default="1", help="seed of the deals and bots (default 1)")
        p.add_argument("--decks", type=_positive_int, default=None, help="number of decks")
        p.add_argument("--colors", default="black-positive",
                       choices=["black-positive", "red-positive"],
                       help="which colour is positive (default black-positive)")
        p.add_argument("--deck", metavar="CARDS",
                       help="play one game from this card order, top first (e.g. KS,7H,10C)")
        p.add_argument("--log", action="store_true",
                       help="print the event log of the game (with --deck or a single game): "
                            "one JSON event a line here, sentences with tools/simulate.py")
        p.add_argument("--json", action="store_true", help="print the summary as JSON")
        p.add_argument("--quiet", action="store_true", help="no progress bar")

    h = sub.add_parser("hitme", aliases=["hit-me"], help="Hit Me rounds")
    common(h, "threshold:4", "random, threshold:T, expert")
    h.add_argument("--rounds", type=_positive_int, default=1000, help="rounds to play")
    h.add_argument("--ace-eleven", action="store_true", help="an ace counts 1 or 11")
    h.add_argument("--all-at-once", action="store_true",
                   help="each player takes all their hits before the next player")
    h.add_argument("--variant", choices=["round-robin", "all-at-once"], default=None,
                   help="turn order (same as --all-at-once)")

    f = sub.add_parser("flapjack", help="Flapjack games")
    common(f, "random", "random, greedy, expert")
    f.add_argument("--games", type=_positive_int, default=1000, help="games to play")
    f.add_argument("--variant", choices=list(VARIANTS), default="classic", help="rule set")
    return parser


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _print_summary(result: dict[str, Any], as_json: bool, specs: list[str], out: TextIO) -> None:
    if as_json:
        print(json.dumps(result), file=out)
        return
    for key, value in result.items():
        if key == "win_share":
            continue
        print(f"{key}: {round(value, 4) if isinstance(value, float) else value}", file=out)
    print("win_share (ties split):", file=out)
    for seat, (spec, share) in enumerate(zip(specs, result["win_share"], strict=True)):
        print(f"  Seat {seat} ({spec}): {share:.4f}", file=out)


def main(argv: Sequence[str] | None = None, format_log: LogFormatter | None = None,
         prog: str = "python -m engine.simulate") -> int:
    """Run the command line; returns the exit status (2 for bad arguments). `format_log`
    turns a game's events into the lines `--log` prints (default: `event_lines`, data)."""
    parser = build_parser(prog)
    log_lines = format_log or event_lines
    args = parser.parse_args(argv)
    game = "hitme" if args.game in ("hitme", "hit-me") else "flapjack"
    count = args.rounds if game == "hitme" else args.games
    if args.deck:
        count = 1
    if args.log and count != 1:
        parser.error("--log prints one game's events: use it with --deck, or with "
                     + ("--rounds 1" if game == "hitme" else "--games 1"))
    progress = not args.quiet and sys.stderr.isatty() and count > 1
    logs: list[list[str]] = []
    seed = _seed(args.seed)
    try:
        if game == "hitme":
            if args.variant == "all-at-once":
                args.all_at_once = True
            specs = seat_specs(args.bot or ["threshold:4"], args.players)
            result = simulate_hit_me(
                players=args.players, bots=specs, rounds=count, seed=seed, decks=args.decks,
                colors=args.colors, turn_order="all-at-once" if args.all_at_once else "round-robin",
                ace_eleven=args.ace_eleven, deck=args.deck, progress=progress,
                on_round=(lambda r: logs.append(log_lines(r.events, False, False)))
                if args.log else None,
            )
        else:
            specs = seat_specs(args.bot or ["random"], args.players)
            result = simulate_flapjack(
                players=args.players, bots=specs, games=count, seed=seed,
                variant=args.variant, decks=args.decks or 1, colors=args.colors,
                deck=args.deck, progress=progress,
                on_game=(lambda s: logs.append(log_lines(s.events, s.config.add_or_subtract,
                                                         not s.config.signed)))
                if args.log else None,
            )
    except ConfigError as e:
        parser.error(str(e))
    for lines in logs:
        for line in lines:
            print(line)
        print()
    _print_summary(result, args.json, specs, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
