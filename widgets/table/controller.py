"""The computer-player runner of a card table, one for every table's session.

A session (widgets/hit_me/session.py, widgets/flapjack/session.py) makes a `TableController`
with callbacks: `state()` (the engine object being played, with `current`, `is_over`,
`legal_actions(p)`, `apply_action(a, p)`, `observation(p)`), `on_change()` (the session
changed: re-render), `on_error(message)`, and optionally `bot_legal(seat)` (the moves offered
to a computer player), `after_move()` and `schedule(delay, fn)` (how a paced move waits:
the kernel's loop by default; tests pass their own). The controller

* applies a student's move (`human_move`), turning an illegal one into a message;
* runs computer players one move at a time with a visible pause (`bot_delay` seconds, on the
  kernel's asyncio loop when there is one, else a `threading.Timer`), or synchronously when
  `bot_delay <= 0` (tests), or only on `step()` ("Next move") in walkthrough mode;
* remembers each computer player's reason for its last move (`reasons`);
* cancels pending computer moves when the game is replaced (`new_generation`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

MAX_BOT_MOVES = 10_000  # a safety stop for the synchronous loop (a game is far shorter)


@dataclass(frozen=True)
class BotMove:
    """One computer move as the table reports it."""

    seat: int
    action: Any
    reason: str


def call_later(delay: float, fn: Callable[[], None]) -> None:
    """Run `fn` after `delay` seconds on the running asyncio loop, else on a timer thread; in
    the language spoken now (a table's own `lang=`)."""
    from widgets.words import bound

    fn = bound(fn)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is not None:
        loop.call_later(delay, fn)
        return
    t = threading.Timer(delay, fn)
    t.daemon = True
    t.start()


def bot_decision(bot: Any, state: Any, seat: int, legal: list[Any]) -> tuple[Any, str | None]:
    """A computer player's move among `legal` from its own observation, and its reason in
    words; a bot that fails plays the last legal move instead (reason None: a fallback), so a
    failing bot never stalls a table or a room. The one decision every runner makes: the
    table's `TableController.bot_move` and a room seat's computer move
    (widgets/together/seat.py)."""
    try:
        decision = bot.choose(state.observation(seat), legal)
    except Exception as e:  # noqa: BLE001 - a failing bot must not stall the table
        log.warning("computer player %s failed: %s", seat, e)
        return (legal[-1] if legal else None), None
    from widgets.words import bot_reason_text

    return decision.action, bot_reason_text(decision)


def make_bots(specs: dict[int, Any], game: str, seed: Any) -> dict[int, Any]:
    """Bots for the given seats. A spec is a level ('easy', 'medium', 'hard'), a bot spec
    ('threshold:4', 'expert', 'random', 'greedy') or an object with a `choose` method.
    Each bot gets its own generator seeded from the deal code, so a deal replays exactly."""
    from engine import bots as engine_bots  # the bots helper's module

    out = {}
    for seat, spec in specs.items():
        if hasattr(spec, "choose"):
            out[seat] = spec
            continue
        text = str(spec).strip().lower()
        text = engine_bots.BOT_LEVELS.get(game, {}).get(text, text)
        rng = random.Random(f"{seed!r}/bot/{seat}")
        out[seat] = engine_bots.make_bot(text, game, rng)
    return out


class TableController:
    """Paces the computer players of one session's game. See the module docstring."""

    def __init__(self, *, state: Callable[[], Any], on_change: Callable[[], None],
                 on_error: Callable[[str], None] | None = None,
                 bot_legal: Callable[[int], list[Any]] | None = None,
                 after_move: Callable[[], None] | None = None,
                 schedule: Callable[[float, Callable[[], None]], None] | None = None,
                 bot_delay: float = 0.8, walkthrough: bool = False) -> None:
        self.lock = threading.RLock()
        self.bot_delay = float(bot_delay) if isinstance(bot_delay, int | float) else 0.8
        self.walkthrough = bool(walkthrough)
        self._state_of = state
        self._on_change = on_change
        self._on_error = on_error
        self._bot_legal = bot_legal
        self._after_move = after_move
        # How a paced computer move is put off: the kernel's timer unless the session says.
        self.schedule: Callable[[float, Callable[[], None]], None] = schedule or call_later
        self.bots: dict[int, Any] = {}
        self.reasons: dict[int, str] = {}
        self.bot_moves: list[BotMove] = []
        self._generation = 0
        self._pending = False

    # ----- the session's callbacks ------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The engine state being played (a HitMeRound, a FlapjackState), or None."""
        return self._state_of()

    def refresh(self) -> None:
        """Tell the session something changed (it re-renders from observations)."""
        self._on_change()

    def on_error(self, message: str) -> None:
        """Show a message (an illegal move, a failed bot)."""
        if self._on_error is not None:
            self._on_error(message)
        else:
            log.warning("%s", message)

    def bot_legal(self, seat: int) -> list[Any]:
        """The moves offered to a computer player (default: every legal action)."""
        if self._bot_legal is not None:
            return self._bot_legal(seat)
        return self.state.legal_actions(seat)

    # ----- moves ----------------------------------------------------------------------------
    def bot_to_move(self) -> int | None:
        """The seat of the computer player whose turn it is, or None."""
        st = self.state
        if st is None or st.is_over or st.current not in self.bots:
            return None
        return st.current

    def human_move(self, action: Any, seat: int) -> str | None:
        """Apply a student's move; returns an error message (state unchanged) or None."""
        from engine.errors import IllegalActionError

        with self.lock:
            try:
                self.state.apply_action(action, seat)
            except IllegalActionError as e:
                from widgets.words import reason_text

                text = reason_text(e, viewer=seat)
                self.on_error(text)
                self.refresh()
                return text
            self.after_move()
        self.refresh()
        self.run_bots()
        return None

    def after_move(self) -> None:
        """Called (under the lock) after any move is applied."""
        if self._after_move is not None:
            self._after_move()

    def bot_move(self) -> BotMove | None:
        """Make one computer move now (the seat to move must be a computer player)."""
        with self.lock:
            seat = self.bot_to_move()
            if seat is None:
                return None
            st = self.state
            legal = self.bot_legal(seat)
            action, said = bot_decision(self.bots[seat], st, seat, legal)
            try:
                st.apply_action(action, seat)
            except Exception as e:  # noqa: BLE001 - a failing bot must not stall the table
                log.warning("computer player %s's move failed: %s", seat, e)
                if said is None:
                    return None
                action, said = (legal[-1] if legal else None), None
                try:
                    st.apply_action(action, seat)
                except Exception as e2:  # noqa: BLE001
                    log.warning("fallback move of computer player %s failed: %s", seat, e2)
                    return None
            if said is None:
                from widgets.words import _

                said = _("(made a fallback move)")
            reason = said
            move = BotMove(seat, action, reason)
            self.reasons[seat] = reason
            self.bot_moves.append(move)
            self.after_move()
            return move

    def run_bots(self, at_once: bool = False) -> None:
        """Let computer players move: at once (delay 0, or `at_once`), paced, or not at all
        (walkthrough).

        A table deals its first game `at_once`: its page is not there yet, so no one watches the
        pacing, and a paced move would change the widgets while a page loads them (ipywidgets 8's
        page drops an update sent between its snapshot of the widgets and the making of their
        models: the table then showed every button disabled, waiting for a move already made)."""
        if self.walkthrough:
            return
        if self.bot_delay <= 0 or at_once:
            for _ in range(MAX_BOT_MOVES):
                if self.bot_move() is None:
                    break
            self.refresh()
            return
        with self.lock:
            if self._pending or self.bot_to_move() is None:
                return
            self._pending = True
            gen = self._generation
        self.schedule(self.bot_delay, lambda: self._tick(gen))

    def _tick(self, gen: int) -> None:
        with self.lock:
            if gen != self._generation:
                return
            self._pending = False
            try:
                self.bot_move()
            except Exception as e:  # noqa: BLE001 - runs outside any handler
                log.warning("paced bot move failed: %s", e)
        try:
            self.refresh()
        except Exception as e:  # noqa: BLE001
            log.warning("refresh failed: %s", e)
        self.run_bots()

    def step(self) -> BotMove | None:
        """Walkthrough "Next move": one computer move, then re-render."""
        move = self.bot_move()
        self.refresh()
        return move

    def new_generation(self) -> None:
        """Forget pending paced moves (call when the game or round is replaced)."""
        with self.lock:
            self._generation += 1
            self._pending = False
            self.reasons = {}
            self.bot_moves = []
