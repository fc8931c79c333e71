"""A Hit Me session: one game at one screen, without ipywidgets.

The session holds the engine game, the phase of the round as the table shows it, who holds the
device, the peek, the announce queue and check, the deal code and the computer players (paced by
the runner every table shares, `widgets.table.controller.TableController`, with an injected
`schedule(delay, fn)`). One method per click; each checks the click is allowed now
and otherwise changes nothing. The widget (widgets/hit_me/table.py) passes `on_change` (re-render)
and `notify(text, kind)` (a message; text None clears it); tests pass nothing and read the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import card_from_json
from engine.errors import ConfigError, check_int
from engine.games import make_game, settings_of
from engine.hit_me import ChooseAce, Hit, HitMeGame, Hold, Phase
from widgets.hit_me.render import announce_feedback, own_values
from widgets.table.controller import TableController, make_bots
from widgets.table.deal_codes import format_code, new_secret_seed, parse_deal_code
from widgets.table.feedback import Feedback
from widgets.table.shell import check_opponent_specs, check_teacher, seat_names
from widgets.words import _, abs_math, hint_sentence, hit_me_hint_lines, sum_math

MODES = ("solo", "pass-device")
SETTINGS = settings_of("hit-me")  # the registry's settings of this game (engine/games.py)
LEVELS = tuple(SETTINGS.levels)
MAX_PLAYERS = SETTINGS.table_players


def widen_ends(line_ends: dict[int | None, tuple[int, int]], viewer: int | None,
               ends: tuple[int, int]) -> tuple[int, int]:
    """The number line's ends for `viewer` (kept in `line_ends`, one range per viewer, emptied
    at each new round), given the ends its dots need now: they widen when a dot needs it and
    never narrow within a round, so the scale stays steady while the round is played."""
    old = line_ends.get(viewer)
    if old is not None:
        ends = (min(ends[0], old[0]), max(ends[1], old[1]))
    line_ends[viewer] = ends
    return ends


def check_answer(values: Sequence[int], answers: dict[str, int | None],
                 sum_seen: bool) -> Feedback:
    """The end-of-round check of a student's typed sum and |sum|. Right after "Show my sum"
    counts as shown, and says so."""
    ok, text = announce_feedback(list(values), answers.get("sum"), answers.get("abs"))
    if ok and sum_seen:
        text += " " + _("(You saw your sum during the round with \u201cShow my sum\u201d: next "
                        "time, try adding it up yourself.)")
    return Feedback(ok, text)


def shown_sum_text(values: Sequence[int]) -> str:
    """"Show me" at the check: the sum and its absolute value."""
    return _("Here it is: {sum}, and {abs}.").format(sum=sum_math(list(values)),
                                                    abs=abs_math(sum(values)))


def hint_lines_for(s: Any, my_turn: bool) -> list[Any]:
    """The hint for the viewer of a session (a HitMeSession or a room's seat), one sentence a
    line: only on their own turn (`my_turn`), after a peek and with their sum open."""
    if not my_turn:
        return [_("Hints are for your own turn.")]
    if not s.peeked:
        return [_("Peek at your face-down card first: the hint works with your whole sum.")]
    if not s.sums_open(s.viewer):
        return [_("The hint works with your whole sum: press \u201cShow my sum\u201d first "
                  "(the check at the end of the round will know you saw it).")]
    return hit_me_hint_lines(s.game.round.observation(s.viewer), s.names)


def _quiet(text: str | None, kind: str = "info") -> None:
    """The default `notify`: a session without a screen keeps the last message."""


class HitMeSession:
    """See the module docstring. `new_game(...)` takes the table's settings."""

    room = False  # one screen (a room's seat, widgets/together/seat.py, is True: the room deals)

    def __init__(self, *, walkthrough: bool = False, teacher_controls: bool | None = None,
                 bot_delay: float = 0.8, names: Sequence[str] | None = None,
                 on_change: Callable[[], None] | None = None,
                 notify: Callable[[str | None, str], None] | None = None,
                 schedule: Callable[[float, Callable[[], None]], None] | None = None) -> None:
        # the teacher's controls (one policy for every table: widgets.table.shell.check_teacher)
        walkthrough, self.teacher_controls = check_teacher(walkthrough, teacher_controls)
        self.ctl = TableController(
            state=lambda: self.game.round, on_change=self.changed,
            on_error=lambda message: self.notify(message, "error"), bot_legal=self._bot_legal,
            after_move=self._after_move, schedule=schedule, bot_delay=bot_delay,
            walkthrough=walkthrough)
        self.on_change = on_change
        self.on_message = notify or _quiet  # the one message hook (the table sets it)
        self.last_message: tuple[str | None, str] = (None, "info")
        self.names_arg = list(names) if names is not None else None
        self.teacher_reveal = False
        self.announce_round = 0  # goes up each time a student's announce check starts afresh
        self.announce_feedback: tuple[str, str] | None = None
        self.on_round_start: Callable[[], None] | None = None
        # the number line's ends by viewer, this round (`steady_ends`)
        self.line_ends: dict[int | None, tuple[int, int]] = {}

    # ----- plumbing --------------------------------------------------------------------
    @property
    def lock(self) -> Any:
        return self.ctl.lock

    @property
    def walkthrough(self) -> bool:
        return self.ctl.walkthrough

    def changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def notify(self, text: str | None, kind: str = "info") -> None:
        self.last_message = (text, kind)
        self.on_message(text, kind)

    # ----- game set-up -----------------------------------------------------------------
    def new_game(self, *, players: int, opponents: Any, seed: Any, mode: str, colors: str,
                 turn_order: str, ace_eleven: bool, students: int | None,
                 deck: str | None = None, code_typed: bool = False,
                 at_once: bool = False) -> None:
        """Make a new game (raises ConfigError on a bad setting; nothing changes then).
        `at_once`: the computer players' first moves are made now, not paced (the table's first
        deal, made before its page loads: `TableController.run_bots`).

        `code_typed`: the person at the screen typed the deal code, so it is theirs to see
        during play; otherwise (outside walkthrough) it shows only once the round is over.
        """
        with self.lock:
            check_int(players, "players", 2, MAX_PLAYERS)
            config = make_game("hit-me", players=players, colors=colors,
                               turn_order=turn_order, ace_eleven=ace_eleven).config
            if mode not in MODES:
                raise ConfigError(_("mode must be one of {modes}; got {mode}").format(
                    modes=", ".join(MODES), mode=repr(mode)))
            if mode == "solo":
                n_students = 1
            else:
                n_students = players if students is None else check_int(
                    students, "students", 1, players)
            specs = check_opponent_specs(opponents, players - n_students, "hit-me")
            names = seat_names(self.names_arg, players, n_students, solo=mode == "solo")
            # a deal nobody chose comes from 128 secret bits (a short code could be searched)
            code = seed if seed is not None else new_secret_seed()
            if isinstance(code, str):
                code = parse_deal_code(code)
                if code is None:
                    code = new_secret_seed()
            game = make_game("hit-me", config).new_series(seed=code, deck=deck)
            # everything checked: replace the game
            self.ctl.new_generation()
            self.config = config
            self.mode = mode
            self.students = list(range(n_students))
            self.names = names
            self.opponent_specs = specs
            self.opponents = opponents
            self.deal_code = code
            self.bot_seed: int | str = code
            self.code_typed = bool(code_typed) and seed is not None
            self.game = game
            self.round_number = 1
            self.start_round(at_once=at_once)

    def start_round(self, at_once: bool = False) -> None:
        """Set up the game's current round (just dealt) and let the computer players move
        (`at_once`: see new_game)."""
        with self.lock:
            self.ctl.new_generation()
            bot_seats = [p for p in range(self.config.players) if p not in self.students]
            self.ctl.bots = make_bots(dict(zip(bot_seats, self.opponent_specs, strict=True)),
                                      "hit-me", f"{self.bot_seed}/round{self.round_number}")
            self.snapshot = self.game.to_json()
            self.phase = Phase.PLAY
            self.peeked = False
            # the students who pressed "Show my sum" this round (the check records it)
            self.sum_shown: set[int] = set()
            self.holder: int | None = 0 if self.mode == "solo" else None
            self.announce_queue: list[int] = []
            self.announce_misses = 0
            self.announced: dict[int, str] = {}
            self.announce_feedback = None
            self.announce_round += 1
            self.line_ends = {}
            if self.on_round_start is not None:
                self.on_round_start()
            self.notify(None)
            self.changed()
            self.ctl.run_bots(at_once)
        self.changed()

    def _bot_legal(self, seat: int) -> list[Any]:
        """A computer player hits or holds (its aces count as the engine sets them)."""
        return [a for a in self.game.round.legal_actions(seat) if isinstance(a, Hit | Hold)]

    def _after_move(self) -> None:
        """Called after every move: start the announce step when the round is over."""
        if self.phase is Phase.PLAY and self.game.round.players_done:
            self.phase = Phase.ANNOUNCE
            self.announce_queue = list(self.students)
            self._fresh_announce()

    def _fresh_announce(self) -> None:
        self.announce_misses = 0
        self.announce_feedback = None
        self.announce_round += 1

    # ----- who is looking --------------------------------------------------------------
    def needed(self) -> int | None:
        """The student who must act now (turn or announce), if any."""
        if self.phase is Phase.PLAY:
            cur = self.game.round.current
            return cur if cur in self.students else None
        if self.phase is Phase.ANNOUNCE and self.announce_queue:
            return self.announce_queue[0]
        return None

    @property
    def pass_screen(self) -> bool:
        """True while the 'pass the device' screen is up (pass-device mode only)."""
        need = self.needed()
        return self.mode == "pass-device" and need is not None and need != self.holder

    @property
    def viewer(self) -> int | None:
        """Whose eyes the table shows: None (a spectator) behind the pass screen."""
        if self.pass_screen:
            return None
        return self.holder

    @property
    def code_open(self) -> bool:
        """May the deal code show during play? In walkthrough, or when the user typed it."""
        return self.walkthrough or self.code_typed

    def observation(self) -> dict[str, Any]:
        """What the screen may show now: the viewer's observation."""
        reveal = self.walkthrough and self.teacher_reveal
        return self.game.round.observation(self.viewer, reveal=reveal)

    def announce_values(self) -> list[int] | None:
        """The viewer's card values during the announce check (None when not checking)."""
        v = self.viewer
        if self.phase is not Phase.ANNOUNCE or v is None:
            return None
        return own_values(self.game.round.observation(v)["seats"][v])

    # ----- clicks ------------------------------------------------------------------------
    def take_device(self) -> None:
        with self.lock:
            if not self.pass_screen:
                return
            self.holder = self.needed()
            self.peeked = False
            if self.phase is Phase.ANNOUNCE:
                self._fresh_announce()
        self.changed()

    def toggle_peek(self) -> None:
        with self.lock:
            if self.viewer is None or self.phase is Phase.REVEALED:
                return
            self.peeked = not self.peeked
        self.changed()

    def sums_open(self, seat: int | None) -> bool:
        """May the screen state `seat`'s sum? Only once its student asked to see it (Show my
        sum while playing, Show me at the check) or answered the check."""
        return seat is not None and (seat in self.sum_shown or seat in self.announced)

    def show_sum(self) -> None:
        """The student asks to see their whole sum while playing (it counts as being shown at
        the end-of-round check)."""
        with self.lock:
            v = self.viewer
            if v is None or self.phase is not Phase.PLAY or not self.peeked:
                return
            self.sum_shown.add(v)
        self.changed()

    def hit(self) -> None:
        self._human(Hit())

    def hold(self) -> None:
        self._human(Hold())

    def _human(self, action: Any) -> None:
        v = self.viewer
        if v is None or self.phase is not Phase.PLAY or self.game.round.current != v:
            self.notify(_("It is not your turn."), "error")
            return
        self.notify(None)
        self.ctl.human_move(action, v)

    def choose_ace(self, card: dict[str, Any], high: bool) -> None:
        v = self.viewer
        if v is None or self.phase is Phase.REVEALED:
            return
        if self.game.round.players_done:  # the round ended: choices are fixed now
            self.notify(_("The round is over: aces stay as they are."), "error")
            return
        self.ctl.human_move(ChooseAce(card_from_json(card["key"]), high), v)

    def hint_text(self) -> str:
        return hint_sentence(self.hint_lines())

    def hint_lines(self) -> list[Any]:
        """The hint, one sentence a line (widgets.words.hit_me_hint_lines)."""
        return hint_lines_for(self, self.viewer is not None and self.phase is Phase.PLAY
                              and self.game.round.current == self.viewer)

    def next_move(self) -> None:
        if self.walkthrough and self.phase is Phase.PLAY:
            self.ctl.step()

    def check_announce(self, answers: dict[str, int | None]) -> bool | None:
        """Check the viewer's typed sum and |sum|; True right, False wrong, None refused."""
        with self.lock:
            v = self.viewer
            if self.phase is not Phase.ANNOUNCE or v is None or v in self.announced:
                return None
            values = self.announce_values() or []
            fb = check_answer(values, answers, v in self.sum_shown)
            ok = fb.correct
            if ok:  # right; "shown" when the sum was on the screen
                self.announced[v] = "shown" if v in self.sum_shown else "right"
            elif answers.get("sum") is not None and answers.get("abs") is not None:
                self.announce_misses += 1
            self.announce_feedback = (fb.message, fb.tone)
        self.changed()
        return ok

    @property
    def show_me_offered(self) -> bool:
        return self.phase is Phase.ANNOUNCE and self.announce_misses >= 2

    def show_me(self) -> None:
        with self.lock:
            v = self.viewer
            if not self.show_me_offered or v is None or v in self.announced:
                return
            values = self.announce_values() or []
            self.announced[v] = "shown"
            self.announce_feedback = (shown_sum_text(values), "info")
        self.changed()

    def finish_announce(self) -> None:
        """Turn every card up once the student answered (a teacher in walkthrough mode may
        turn them up without typing the sum first: the class adds up together)."""
        with self.lock:
            v = self.viewer
            if self.phase is not Phase.ANNOUNCE or v is None or (
                    v not in self.announced and not self.walkthrough):
                return
            if self.announce_queue and self.announce_queue[0] == v:
                self.announce_queue.pop(0)
            if self.announce_queue:
                self._fresh_announce()
            else:
                self.game.finish_round()  # the engine's Reveal step turns every card up
                self.phase = Phase.REVEALED
        self.changed()

    def next_round(self) -> None:
        with self.lock:
            if self.phase is not Phase.REVEALED:
                return
            if not self.code_open:
                # The code was shown at the end of this round; it must not predict the next
                # one, so later rounds of a self-study game come from a fresh, unshown shuffle
                # (128 secret bits, as a first deal; the computer players' choices too).
                self.game.rng = random.Random(new_secret_seed())
                self.bot_seed = new_secret_seed()
            self.game.next_round()
            self.round_number += 1
            self.start_round()

    def set_walkthrough(self, on: bool) -> bool:
        """The teacher's "Teacher walkthrough" switch: the computer players wait for "Next
        move" (on) or play by themselves (off). Refused (False) without the teacher's
        controls (the switch is not on the page: a forged value)."""
        if not self.teacher_controls:
            self.notify(_("The walkthrough is one of the teacher's controls."), "error")
            return False
        self.ctl.walkthrough = on is True
        self.changed()
        if on is not True:
            self.ctl.run_bots()
        return True

    def restart_deal(self) -> bool:
        """The same round again, from its deal: a teacher's control (a student who saw the
        other hands could replay the round knowing them)."""
        with self.lock:
            if not self.teacher_controls:
                return False
            self.game = HitMeGame.from_json(self.snapshot)
            self.start_round()
        return True

    def steady_ends(self, viewer: int | None, ends: tuple[int, int]) -> tuple[int, int]:
        """The number line's ends for `viewer`, given the ends its dots need now: they widen
        when a dot needs it and never narrow within a round, so the scale stays steady while
        the round is played. One range per viewer: a range widened by a
        student's own sum is theirs. A new round starts afresh."""
        return widen_ends(self.line_ends, viewer, ends)

    def settings_args(self) -> dict[str, Any]:
        """This game's settings, as `new_game` takes them."""
        cfg = self.config
        return {
            "players": cfg.players, "opponents": self.opponents, "seed": self.deal_code,
            "mode": self.mode, "colors": cfg.colors.value, "turn_order": cfg.turn_order.value,
            "ace_eleven": cfg.ace_eleven,
            "students": len(self.students) if self.mode == "pass-device" else None,
            "code_typed": self.code_typed,
        }

    def settings_values(self) -> dict[str, Any]:
        """This game's settings, as the Settings panel shows them."""
        cfg = self.config
        return {"players": cfg.players, "colors": cfg.colors.value,
                "turn_order": cfg.turn_order.value, "ace_eleven": cfg.ace_eleven,
                "opponents": self.opponents if self.opponents in LEVELS else "medium",
                "mode": self.mode, "seed": format_code(self.deal_code) if self.code_open else "",
                "students": len(self.students)}

    def new_game_like(self, **changes: Any) -> None:
        """A new game with this game's settings but `changes` (`new_game`'s arguments)."""
        args = self.settings_args()
        args.update(changes)
        self.new_game(**args)

    def apply_settings(self, values: dict[str, Any]) -> str | None:
        """A new game from the Settings panel's parsed values; the reason it is refused (the
        game unchanged), or None."""
        try:
            args = self.settings_from(values)
        except ValueError as e:
            return str(e)
        self.new_game_like(**args)
        return None

    def settings_from(self, values: dict[str, Any]) -> dict[str, Any]:
        """`new_game` arguments from the Settings panel's parsed values (ValueError: refused)."""
        students = None
        if values["mode"] == "pass-device":
            students = values["students"]
            if students > values["players"]:
                raise ValueError(_("Students at this screen: at most the number of players "
                                   "({players}); got {students}").format(
                    players=values["players"], students=students))
        if values["players"] != self.config.players:
            self.names_arg = None  # given names fit the old number of players
        return {"players": values["players"], "colors": values["colors"],
                "turn_order": values["turn_order"], "ace_eleven": values["ace_eleven"],
                "opponents": values["opponents"], "mode": values["mode"], "seed": values["seed"],
                "students": students, "code_typed": values["seed"] is not None}
