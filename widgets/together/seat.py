"""One student's seat at a shared room, without ipywidgets: `SeatSession`, made as a
`HitMeSeat` or a `FlapjackSeat` by the room's game.

A seat offers its table what a one-screen session offers it (widgets/hit_me/session.py,
widgets/flapjack/session.py), so `HitMeTable.for_session(seat)` and
`FlapjackTable.for_session(seat)` draw it: the table's own view (`table_view`) built from
this seat's observation only, with its
legal actions (none while a computer player has the seat or the room is not playing), the
hint, Hit Me's end-of-round check, Flapjack's banners, and one method per click. `room` is
True: the room deals (no "New deal", no settings) and turns Hit Me's cards up by itself.

The session holds the store, the room code, the seat and the seat's secret (and the host's
secret when this page opened the room). It polls the room's version on a kernel timer
(`schedule(delay, fn)`, by default the kernel's loop as the tables' computer players use) and,
when it changed, loads the state and redraws (`on_change()`). A click becomes one store move
with the version the page showed; `TableChanged`, `NotYourTurn`, `IllegalMove` ... become the
table's message (`note`, also told to the message hook `on_message(text, kind)`); the
room's own news (the store unavailable, a redraw that failed, the seat taken back elsewhere,
the host's start) is `room_note`, which the room's page shows above the table. The whole
state stays in the kernel.

Computer players (empty seats chosen as computers, or a student away too long) are moved by any
kernel that sees it is their turn: the first seated student's kernel after `bot_delay`, the others
later as a fallback; the version check makes the move happen once. Hit Me's check runs in
each student's own kernel; the result goes to the store (`record_check`), and once every student
present has answered, a kernel turns the cards up (one `reveal` move).

Presence: the poll calls `touch` every `presence_every` seconds and `mark_absent(absent_after)`
when a student was not seen for that long; the student takes the seat back with `take_back()`
(a reload with the seat link does it by itself).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import rooms as st
from engine.cards import card_from_json
from engine.errors import IllegalActionError
from engine.flapjack import FlapjackState, Play
from engine.hit_me import ChooseAce, Hit, HitMeGame, Hold, Phase, Reveal
from rooms.codes import format_code
from rooms.games import NEXT_ROUND, next_round
from widgets.flapjack.session import HandChoices, Note
from widgets.hit_me.render import own_values
from widgets.hit_me.session import (
    check_answer,
    hint_lines_for,
    shown_sum_text,
    widen_ends,
)
from widgets.table.controller import bot_decision, call_later, make_bots
from widgets.words import _, flapjack_hint_lines, hint_sentence, room_error_text

log = logging.getLogger(__name__)
Schedule = Callable[[float, Callable[[], None]], None]


def _reveal(state: Any, seat: int) -> Any:
    """The store change that turns every card of the round up (and scores it)."""
    state.finish_round()
    return state


def round_index(game: HitMeGame) -> int:
    """0 for the first round of a Hit Me room, 1 for the next ... (stays put after the reveal)."""
    return len(game.history) - (1 if game.round.revealed else 0)


def seat_label(info: st.SeatInfo) -> str:
    """How a seat is named on every page: the student's name, 'Ana (computer)' while a computer
    player has it, 'Computer 3' for an empty seat played by the computer, 'Seat 3' when free."""
    if info.name is None:
        return _("Computer {n}").format(n=info.seat + 1) if info.bot else \
            _("Seat {n}").format(n=info.seat + 1)
    if info.controller == "computer":
        return _("{name} (computer)").format(name=info.name)
    return info.name


class Elsewhere:
    """The computer players' runner as a room's seat shows it to its table: a room's computer
    players are moved through the store (`SeatSession._due_moves`), so this page has none to
    step through or to explain (no walkthrough at a room)."""

    walkthrough = False
    bot_moves: tuple[Any, ...] = ()

    def __init__(self, seat: SeatSession) -> None:
        self._seat = seat

    @property
    def state(self) -> Any:
        return self._seat.state

    def bot_to_move(self) -> None:
        return None


def _quiet(text: str | None, kind: str = "info") -> None:
    """The default `on_message`: no table draws this seat yet."""


class SeatSession:
    """One seat of a room, for one page (see the module docstring). `SeatSession(store,
    ticket, ...)` makes the seat of the room's game: a `FlapjackSeat` or a `HitMeSeat`.

    `ticket` is the SeatTicket from `store.join`/`rejoin_pin` (or rebuilt from a seat link);
    `host_secret` makes this page the room's host (Start, and replacing an absent student).
    `poll_every` seconds between version polls; on PostgreSQL (`listen`, with a running asyncio
    loop) the kernel's LISTEN thread wakes the session at each change of its room instead, and
    the poll runs only every `listen_every` seconds while the listener is connected (presence,
    and a fallback); a computer move or reveal that is due is timed on its own.
    `bot_delay` seconds before a computer move;
    `presence_every` seconds between `touch` calls; `absent_after` seconds without a `touch`
    before a student's seat goes to the computer. `on_change()` is called after every redraw-
    worthy change; `note` holds the table's message and `room_note` the room's ((text, kind)
    or None).
    """

    room = True  # the room deals: no "New deal", no settings at the table
    teacher_controls = False
    walkthrough = False
    code_open = False
    deal_code = None  # a room deals from a secret nobody sees: no code to show

    def __new__(cls, store: st.RoomStore, ticket: st.SeatTicket, **kw: Any) -> SeatSession:
        if cls is SeatSession:
            cls = FlapjackSeat if store.room(ticket.code).game == "flapjack" else HitMeSeat
        return super().__new__(cls)

    def __init__(self, store: st.RoomStore, ticket: st.SeatTicket, *,
                 host_secret: str | None = None, poll_every: float = 0.1,
                 listen: bool = True, listen_every: float = 2.0,
                 bot_delay: float = 0.8, presence_every: float = 5.0,
                 absent_after: float = 90.0, schedule: Schedule | None = None,
                 on_change: Callable[[], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.code, self.seat, self.name = ticket.code, ticket.seat, ticket.name
        self._secret = ticket.secret
        self._host_secret = host_secret
        self.poll_every, self.bot_delay = float(poll_every), float(bot_delay)
        self.listen, self.listen_every = bool(listen), float(listen_every)
        self.presence_every, self.absent_after = float(presence_every), float(absent_after)
        self.schedule = schedule or call_later
        self.on_change = on_change or (lambda: None)
        self.on_message: Callable[[str | None, str], None] = _quiet  # the one message hook
        self.clock = clock
        self.lock = threading.RLock()  # (the tables draw under the session's lock)
        self.controller = self.ctl = Elsewhere(self)
        self.note: tuple[str, str] | None = None
        self.room_note: tuple[str, str] | None = None
        self.version = -1
        self.state: Any = None
        self.info: st.RoomInfo | None = None
        self.names: list[str] = []
        self.polls = 0
        self.loads = 0
        self._changed_at = clock()
        self._touched_at = -1e9
        self._polling = False
        self._stopped = False
        self._timer = 0  # the generation of the one poll timer (an older one does nothing)
        self.subscription: Any = None  # the LISTEN subscription (PostgreSQL), or None
        self.wakeups = 0
        self.redraw_failed = False  # the last redraw raised: the next poll redraws again
        self.reload()

    # ----- who and what ---------------------------------------------------------------------
    @property
    def viewer(self) -> int:
        """The seat this page shows (the tables draw its view)."""
        return self.seat

    @property
    def is_host(self) -> bool:
        return self._host_secret is not None

    @property
    def game_name(self) -> str:
        """The room's game: 'hit-me' or 'flapjack'."""
        assert self.info is not None
        return self.info.game

    @property
    def status(self) -> str:
        assert self.info is not None
        return self.info.status

    @property
    def shown_code(self) -> str:
        return format_code(self.code)

    @property
    def secret(self) -> str:
        """The seat's secret (for this page's own seat link only)."""
        return self._secret

    @property
    def host_secret(self) -> str | None:
        return self._host_secret

    @property
    def away(self) -> bool:
        """A computer player has this seat (the student was away, or the host replaced them)."""
        return self.info is not None and self.info.seats[self.seat].controller == "computer"

    @property
    def config(self) -> Any:
        return self.state.config

    def _round(self) -> Any:
        return self.state

    def turn(self) -> int | None:
        """The seat to move now (None in Hit Me's announce step and at the end)."""
        r = self._round()
        return r.current

    def _may_move(self) -> bool:
        """The student at this page may move their seat: the room plays, and no computer
        player has the seat."""
        return self.info is not None and self.status == st.PLAYING and not self.away

    def my_turn(self, viewer: int | None = None) -> bool:
        return self._may_move() and self.turn() == self.seat

    def say(self, text: str | None, kind: str = "error") -> tuple[str, str] | None:
        """The table's message (a refusal, or None: no message)."""
        self.note = None if text is None else (text, kind)
        self.on_message(text, kind)
        return self.note

    def say_room(self, text: str | None, kind: str = "error") -> tuple[str, str] | None:
        """The room's message (kind 'unavailable': the store; 'redraw': a failed redraw)."""
        self.room_note = None if text is None else (text, kind)
        return self.room_note

    # ----- loading and polling --------------------------------------------------------------
    def reload(self) -> None:
        """Read the room (state, seats, and what the game adds) again and redraw."""
        version, state = self.store.load(self.code)
        info = self.store.room(self.code)
        self.loads += 1
        old = self.state
        self.version, self.state, self.info = version, state, info
        self.names = [seat_label(s) for s in info.seats]
        self._loaded(old)
        self._changed_at = self.clock()
        self.redraw()

    def _loaded(self, old: Any) -> None:
        """After a reload (`old`: the state shown before): what the game keeps of its own."""

    def redraw(self) -> bool:
        """Call `on_change()` (the page's redraw). When it raises, the page gets a clear
        message, the next poll loads and redraws again (`redraw_failed`), and nothing is lost:
        the room's state is in the store and this session keeps what it read."""
        try:
            self.on_change()
        except Exception as e:  # noqa: BLE001 - a bad redraw must not stop the page
            log.exception("room %s seat %s: redraw failed", self.code, self.seat)
            self.redraw_failed = True
            self.say_room(redraw_failed_text(e), "redraw")
            return False
        if self.redraw_failed:
            self.redraw_failed = False
            if self.room_note is not None and self.room_note[1] == "redraw":
                self.say_room(None)
                self.on_change()  # without the message
        return True

    def start_polling(self) -> None:
        """Poll on the kernel timer until `stop()` (on PostgreSQL: listen, and poll seldom)."""
        if not self._polling and not self._stopped:
            self._polling = True
            if self.listen:
                try:
                    self.subscription = self.store.subscribe(self.code, self._wake)
                except st.RoomError as e:  # polling goes on
                    log.warning("room notifications not available: %s", e)
            self._arm(self._next_delay())

    @property
    def listening(self) -> bool:
        """A notification will wake this session at the next change of its room."""
        return self.subscription is not None and self.subscription.connected

    def stop(self) -> None:
        """Stop polling and listening (the page is closed, or only watches now)."""
        self._stopped = True
        sub, self.subscription = self.subscription, None
        if sub is not None:
            sub.close()

    def _arm(self, delay: float) -> None:
        """(Re)start the one poll timer: it fires after `delay` seconds; an earlier timer of
        this session does nothing when it fires."""
        self._timer += 1
        gen = self._timer
        self.schedule(max(0.0, delay), lambda: self._tick(gen))

    def _next_delay(self) -> float:
        """Seconds to the next poll: `poll_every`, or `listen_every` while a notification will
        come; sooner when a computer move or the reveal falls due."""
        delay = self.listen_every if self.listening else self.poll_every
        due = self._due_in()
        return delay if due is None else min(delay, due + 0.01)

    def _tick(self, gen: int | None = None) -> None:
        if gen is not None and gen != self._timer:
            return
        if self._stopped:
            self._polling = False
            return
        self._poll_safely()
        if not self._stopped:
            self._arm(self._next_delay())
        else:
            self._polling = False

    def _wake(self) -> None:
        """A notification (on the kernel's loop): the room changed, or the listener
        (re)connected. Poll now and time the next poll afresh."""
        if self._stopped:
            return
        self.wakeups += 1
        self._poll_safely()
        if not self._stopped:
            self._arm(self._next_delay())

    def _poll_safely(self) -> None:
        try:
            self.poll()
        except Exception as e:  # noqa: BLE001 - a timer callback must never die
            log.warning("room poll failed: %s", e)

    def poll(self) -> bool:
        """One tick: read the version (one indexed read); on a change reload and redraw; keep
        presence; move a computer player or turn the cards up when it is due. Returns whether
        the page changed."""
        self.polls += 1
        changed = False
        try:
            version = self.store.current_version(self.code)
            if version != self.version or self.redraw_failed:
                self.reload()
                changed = True
            if self.room_note and self.room_note[1] == "unavailable":
                self.say_room(None)
                changed = True
            self._presence()
            self._due_moves()
        except st.StoreUnavailable as e:
            self.say_room(room_error_text(e), "unavailable")
            self.on_change()
            return True
        except st.RoomNotFound as e:
            self.say_room(room_error_text(e))
            self.stop()
            self.on_change()
            return True
        return changed

    def _presence(self) -> None:
        now = self.clock()
        if now - self._touched_at < self.presence_every or self.away:
            return
        self._touched_at = now
        try:
            self.store.touch(self.code, self.seat, self._secret)
        except st.NotAllowed:  # the seat's secret changed (PIN rejoin on another page)
            self.say_room(_("This seat was taken back on another page (with its PIN); this "
                            "page only watches now."), "error")
            self.stop()
            self.on_change()
            return
        info = self.info
        if info is None or info.status not in (st.PLAYING, st.PAUSED):
            return
        wall = time.time()
        stale = [s for s in info.seats if s.controller == "human" and s.seat != self.seat
                 and (s.last_seen or 0) < wall - self.absent_after]
        if stale:
            self.info = self.store.room(self.code)  # last_seen changes do not bump the version
            stale = [s for s in self.info.seats if s.controller == "human"
                     and (s.last_seen or 0) < wall - self.absent_after]
            if stale and self.store.mark_absent(self.code, self.absent_after):
                self.reload()

    def _rank(self) -> int:
        """0 for the first seated student present (moves computer players first), 1, 2 ..."""
        assert self.info is not None
        humans = [s.seat for s in self.info.seats if s.controller == "human"]
        return humans.index(self.seat) if self.seat in humans else len(humans)

    def _due(self) -> str | None:
        """What this kernel may have to do for the room: 'bot' (a computer player's turn),
        'reveal' (every student present answered Hit Me's check) or None."""
        info = self.info
        if info is None or info.status != st.PLAYING or self.away or self.state is None:
            return None
        turn = self.turn()
        if turn is not None and info.seats[turn].controller == "computer":
            return "bot"
        return "reveal" if self._reveal_due() else None

    def _reveal_due(self) -> bool:
        return False

    def _turn_up(self) -> None:
        """Hit Me: turn every card of the round up (one store move; another kernel's first is
        no news)."""

    def _wait(self) -> float:
        rank = self._rank()
        return self.bot_delay + (0 if rank == 0 else 1.0 + 0.5 * rank)

    def _due_in(self) -> float | None:
        """Seconds until this kernel's computer move or reveal falls due (None: nothing)."""
        if self._due() is None:
            return None
        return max(0.0, self._wait() - (self.clock() - self._changed_at))

    def _due_moves(self) -> None:
        """A computer player's move, or Hit Me's reveal, when this kernel should make it."""
        due = self._due()
        if due is None or self.clock() - self._changed_at < self._wait():
            return
        if due == "bot":
            self._bot_move(self.turn())  # type: ignore[arg-type]
        else:
            self._turn_up()

    def _bot_move(self, seat: int) -> None:
        assert self.info is not None
        spec = self.info.seats[seat].bot or {"bot": "medium"}
        game = self.game_name
        level = str(spec.get("bot", "medium")) if isinstance(spec, dict) else str(spec)
        try:
            bot = make_bots({seat: level}, game, f"{self.code}/{self.version}")[seat]
        except Exception:  # noqa: BLE001 - an unknown spec plays as the medium player
            bot = make_bots({seat: "medium"}, game, f"{self.code}/{self.version}")[seat]
        legal = self._bot_legal(seat)
        if not legal:
            return
        action, _said = bot_decision(bot, self._round(), seat, legal)
        self._store_move(lambda: self.store.play(self.code, seat, self._secret, action,
                                                 expected_version=self.version), quiet=True)

    def _bot_legal(self, seat: int) -> list[Any]:
        """The moves offered to a computer player (every legal one)."""
        return self._round().legal_actions(seat)

    def _store_move(self, make: Callable[[], int], quiet: bool = False) -> bool:
        """Run one store move; a refusal becomes the message (quiet: a computer move or the
        reveal that another kernel made first is no news). Reloads after it either way."""
        ok = False
        try:
            make()
            ok = True
            self.say(None)
        except st.TableChanged as e:
            if not quiet:
                self.say(room_error_text(e))
        except st.NotYourTurn:
            if not quiet:
                self.say(_("It is not your turn."))
        except st.StoreUnavailable as e:
            self.say_room(room_error_text(e), "unavailable")
        except st.RoomError as e:
            if not quiet:
                self.say(room_error_text(e))
        try:
            self.reload()
        except st.RoomError as e:
            self.say_room(room_error_text(e), "unavailable")
            self.on_change()
        return ok

    def _refuse_away(self) -> bool:
        """While a computer player has this seat: say so (the table's message) and return
        True; False otherwise."""
        if not self.away:
            return False
        self.say(_("A computer player has your seat now: press \"Take my seat back\" first."))
        self.on_change()
        return True

    def _play(self, action: Any) -> bool:
        """A student's engine move, with the version this page showed (refused with a
        message while a computer player has the seat or the room is not playing)."""
        if self._refuse_away():
            return False
        if self.status != st.PLAYING:
            self.say({st.WAITING: _("The game has not started yet."),
                      st.PAUSED: _("The host has paused this table."),
                      st.FINISHED: _("This game is over."),
                      st.CLOSED: _("This table is closed.")}.get(self.status,
                                                                 _("Not now.")))
            self.on_change()
            return False
        return self._store_move(lambda: self.store.play(
            self.code, self.seat, self._secret, action, expected_version=self.version))

    # ----- clicks: everyone -------------------------------------------------------------------
    def take_back(self) -> None:
        """The student is back: the seat leaves the computer player."""
        try:
            self.store.rejoin(self.code, self.seat, self._secret)
            self._touched_at = self.clock()
            self.say_room(_("Welcome back: this is your seat again."), "ok")
        except st.RoomError as e:
            self.say_room(room_error_text(e))
        self.reload()

    def start(self) -> None:
        """The host starts the room (empty seats go to computer players)."""
        if self._host_secret is None:
            self.say_room(_("Only the student who opened this table can start it."))
            self.on_change()
            return
        try:
            self.store.start(self.code, self._host_secret)
            self.say_room(None)
        except st.RoomError as e:
            self.say_room(room_error_text(e))
        self.reload()

    def replace(self, seat: int) -> None:
        """The host gives an absent student's seat to a computer player at once."""
        if self._host_secret is None:
            self.say_room(_("Only the student who opened this table can do this."))
            self.on_change()
            return
        try:
            self.store.replace_seat(self.code, self._host_secret, seat)
        except st.RoomError as e:
            self.say_room(room_error_text(e))
        self.reload()

    def new_pin(self) -> str | None:
        """A fresh seat PIN to write down (None when the store refused)."""
        try:
            return self.store.new_pin(self.code, self.seat, self._secret)
        except st.RoomError as e:
            self.say_room(room_error_text(e))
            return None

    # ----- what the page shows ----------------------------------------------------------------
    def room_status(self) -> str:
        """One line for the room's header: status and whose turn (plain text)."""
        info = self.info
        assert info is not None
        if info.status == st.WAITING:
            free = sum(1 for s in info.seats if s.controller == "empty")
            return _("Waiting for players: {n} seat(s) free. The host starts the table, or it "
                     "starts when every seat is taken.").format(n=free)
        if info.status == st.PAUSED:
            return _("The host has paused the table.")
        if info.status == st.CLOSED:
            return _("This table is closed.")
        if self.away:
            return _("A computer player has your seat while you were away.")
        turn = self.turn()
        if turn is None:
            if info.status == st.FINISHED:
                return _("The game is over.")
            return ""
        if turn == self.seat:
            return _("Your turn.")
        return _("{name}'s turn.").format(name=self.names[turn])



class HitMeSeat(SeatSession):
    """A seat at a Hit Me room: what `HitMeTable` draws (widgets.hit_me.view.HitMeLook) and the
    clicks it routes (peek, Show my sum, hit, hold, an ace, the check, Show me, next round).

    The check is this student's own, once per round: a right answer (or Show me) goes to the
    store (`record_check`); the cards turn up once every student present has answered."""

    mode = "solo"  # one student at this screen
    teacher_reveal = False
    pass_screen = False

    def __init__(self, store: st.RoomStore, ticket: st.SeatTicket, **kw: Any) -> None:
        self.peeked = False
        self.sum_shown: set[int] = set()  # this student pressed "Show my sum" this round
        self.checked: set[int] = set()  # seats that answered this round's check (the store's)
        self.my_check: str | None = None  # 'right' or 'shown' once this seat answered
        self.misses = 0
        self.first_mistake: str | None = None
        self.announce_feedback: tuple[str, str] | None = None
        self.announce_round = 0  # one more each time the check starts afresh (table: reset)
        self.check_round = -1
        self._asked_round = -1  # the round whose check this page has started
        self.line_ends: dict[int | None, tuple[int, int]] = {}
        self.on_round_start: Callable[[], None] | None = None
        super().__init__(store, ticket, **kw)

    # ----- what HitMeTable reads (HitMeLook) ---------------------------------------------------
    @property
    def game(self) -> HitMeGame:
        return self.state

    def _round(self) -> Any:
        return self.state.round

    @property
    def phase(self) -> Phase:
        return self.state.round.phase

    @property
    def students(self) -> list[int]:
        assert self.info is not None
        return [s.seat for s in self.info.seats if s.controller == "human"]

    @property
    def round_number(self) -> int:
        return round_index(self.state) + 1

    @property
    def announced(self) -> dict[int, str]:
        out = dict.fromkeys(self.checked, "right")
        if self.my_check is not None:
            out[self.seat] = self.my_check
        return out

    @property
    def announce_queue(self) -> list[int]:
        return [] if self.seat in self.announced else [self.seat]

    @property
    def announce_misses(self) -> int:
        return self.misses

    @property
    def show_me_offered(self) -> bool:
        return self.phase is Phase.ANNOUNCE and self.misses >= 2

    def needed(self) -> int | None:
        if self.phase is Phase.ANNOUNCE:
            return self.announce_queue[0] if self.announce_queue else None
        return self.seat if self.my_turn() else None

    def sums_open(self, seat: int | None) -> bool:
        """May the page state `seat`'s sum? Only this student's, once they pressed "Show my
        sum" or answered the check."""
        return seat is not None and (seat in self.sum_shown or seat in self.announced)

    def observation(self) -> dict[str, Any]:
        """This seat's observation; its legal actions only while the student may move."""
        obs = self.state.round.observation(self.seat)
        return obs if self._may_move() else {**obs, "legal_actions": []}

    def steady_ends(self, viewer: int | None, ends: tuple[int, int]) -> tuple[int, int]:
        return widen_ends(self.line_ends, viewer, ends)

    def view(self) -> Any:
        """This seat's HitMeView (the table's own view function)."""
        from widgets.hit_me.view import table_view

        return table_view(self)

    # ----- loading ----------------------------------------------------------------------------
    def _loaded(self, old: Any) -> None:
        game: HitMeGame = self.state
        idx = round_index(game)
        if idx != self.check_round:  # a new round: the check starts afresh
            self.check_round, self.my_check, self.misses = idx, None, 0
            self.first_mistake, self.announce_feedback, self.peeked = None, None, False
            self.sum_shown = set()
            self.line_ends = {}
            self.announce_round += 1
            if self.on_round_start is not None:
                self.on_round_start()
        self.checked = {c["seat"] for c in self.store.checks(self.code) if c["round"] == idx}
        if self.seat in self.checked and self.my_check is None:
            self.my_check = "right"  # answered on an earlier page of this seat
            self.announce_feedback = (_("You have announced your sum. The cards turn up when "
                                        "everyone has."), "ok")
        if game.round.phase == "announce" and self._asked_round != idx:
            self._asked_round = idx
            self.announce_round += 1

    def _bot_legal(self, seat: int) -> list[Any]:
        """A computer player hits or holds (its aces count as the engine sets them), as on
        one screen (`HitMeSession._bot_legal`)."""
        return [a for a in self._round().legal_actions(seat) if isinstance(a, Hit | Hold)]

    def _reveal_due(self) -> bool:
        if self.state.round.phase != "announce" or self.info is None:
            return False
        return set(self.students) <= self.checked

    def _turn_up(self) -> None:
        self._store_move(lambda: self.store.move(
            self.code, self.seat, self._secret, _reveal, action=Reveal().to_json(),
            expected_version=self.version), quiet=True)

    # ----- clicks -----------------------------------------------------------------------------
    def toggle_peek(self) -> None:
        if self.phase is Phase.REVEALED:
            return
        self.peeked = not self.peeked
        self.on_change()

    def show_sum(self) -> None:
        """The student asks to see their whole sum while playing (the check records it)."""
        if self.phase is not Phase.PLAY or not self.peeked:
            return
        self.sum_shown.add(self.seat)
        self.on_change()

    def hint_lines(self) -> list[Any]:
        return hint_lines_for(self, self.my_turn() and self.phase is Phase.PLAY)

    def hint_text(self) -> str:
        return hint_sentence(self.hint_lines())

    def hit(self) -> bool:
        return self._hit_me_move(Hit())

    def hold(self) -> bool:
        return self._hit_me_move(Hold())

    def _hit_me_move(self, action: Any) -> bool:
        if self.status == st.PLAYING and not self.away and self.turn() != self.seat:
            self.say(_("It is not your turn."))
            self.on_change()
            return False
        return self._play(action)

    def choose_ace(self, card: dict[str, Any] | str, high: bool) -> bool:
        """One of this student's aces (its card view, or its key) to count 11 or 1."""
        key = card.get("key") if isinstance(card, dict) else card
        try:
            ace = card_from_json(key)
        except (ValueError, TypeError):
            self.say(_("That is not one of your aces."))
            self.on_change()
            return False
        return self._play(ChooseAce(ace, bool(high)))

    def announce_values(self) -> list[int] | None:
        if self.state.round.phase != "announce":
            return None
        return own_values(self.state.round.observation(self.seat)["seats"][self.seat])

    def check_announce(self, answers: dict[str, int | None]) -> bool | None:
        """This student's typed sum and |sum| (True right, False wrong, None not now)."""
        values = self.announce_values()
        if values is None or self.my_check is not None or self._refuse_away():
            return None
        seen = self.seat in self.sum_shown
        fb = check_answer(values, answers, seen)
        self.announce_feedback = (fb.message, fb.tone)
        if fb.correct:
            self._record("shown" if seen else "right")
        else:
            typed_sum, typed_abs = answers.get("sum"), answers.get("abs")
            if typed_sum is not None and typed_abs is not None:
                self.misses += 1
                if self.first_mistake is None:
                    self.first_mistake = "sum" if typed_sum != sum(values) else "abs"
            self.on_change()
        return fb.correct

    def show_me(self) -> None:
        values = self.announce_values()
        if values is None or self.my_check is not None or self.misses < 2:
            return
        self.announce_feedback = (shown_sum_text(values), "info")
        if self.first_mistake is None:
            self.first_mistake = "shown"
        self._record("shown")

    def _record(self, how: str) -> None:
        self.my_check = how
        first_try = how == "right" and self.misses == 0
        try:
            self.store.record_check(self.code, self.seat, self._secret, self.check_round,
                                    first_try, self.misses,
                                    None if first_try else (self.first_mistake or "shown"))
        except st.RoomError as e:
            self.my_check = None  # try again when the store is back
            self.say_room(room_error_text(e), "unavailable")
        self.reload()
        self._due_moves_now()

    def _due_moves_now(self) -> None:
        """The last student to answer turns the cards up at once."""
        if self.info is not None and self.info.status == st.PLAYING and self._reveal_due():
            self._turn_up()

    def finish_announce(self) -> None:
        """The cards turn up by themselves once every student present has answered (a room
        shows no button for it; a forged click changes nothing else)."""
        self._due_moves_now()

    def next_round(self) -> bool:
        """Deal the next round (after the reveal; the first click of any student does it)."""
        if not self.state.round.revealed:
            self.say(_("The next round comes after every card is turned up."))
            self.on_change()
            return False
        if self._refuse_away():
            return False
        return self._store_move(lambda: self.store.move(
            self.code, self.seat, self._secret, next_round, action=NEXT_ROUND,
            expected_version=self.version), quiet=True)

    def take_device(self) -> None:
        """(No pass screen at a room: each student has their own page.)"""

    def next_move(self) -> None:
        """(No walkthrough at a room.)"""


class FlapjackSeat(HandChoices, SeatSession):
    """A seat at a Flapjack room: what `FlapjackTable` draws (widgets.flapjack.view.table_view
    over this seat's observation, `card_whys`) and the clicks on the hand it routes
    (HandChoices: a card, + or -, put it back), each played as one store move."""

    say_total = False  # (saying the new total first is a one-screen table's practice)
    pending = None
    practice_serial = 0
    show_hands = False

    def __init__(self, store: st.RoomStore, ticket: st.SeatTicket, **kw: Any) -> None:
        self.selected: str | None = None
        self.banner_from = 0
        super().__init__(store, ticket, **kw)

    @property
    def viewer(self) -> int:  # (the seat, not HandChoices' one-screen seat)
        return self.seat

    def _may_move(self) -> bool:
        return SeatSession._may_move(self)

    def my_turn(self, viewer: int | None = None) -> bool:
        return HandChoices.my_turn(self, viewer)

    def observation(self, viewer: int | None = None) -> dict[str, Any]:
        """This seat's observation (every hand once the game is over)."""
        return self.state.observation(self.seat, reveal=self.state.is_over)

    def view(self) -> Any:
        """This seat's TableView (the table's own view function)."""
        from widgets.flapjack.view import table_view

        return table_view(self, self.seat)

    def changed(self) -> None:
        self.on_change()

    def _loaded(self, old: Any) -> None:
        """The banner announces what happened since this seat's own last play, as on one
        screen (`FlapjackSession`); a new game starts it again."""
        if not isinstance(old, FlapjackState) or self.banner_from > len(self.state.events):
            self.banner_from = 0
        if self.selected is not None and not self.my_turn():
            self.selected = None

    def _commit(self, key: str, sign: int) -> Note | None:
        card = self._own_card(key)
        self.selected = None
        if card is None:
            return self._say(_("That card is not in your hand."))
        before = self.banner_from
        self.banner_from = len(self.state.events)
        if self._play(Play(card, sign)):
            return None
        self.banner_from = before
        return self.note or self.room_note or (_("Not now."), "error")

    def hint_lines(self) -> list[Any]:
        return flapjack_hint_lines(self.state.observation(self.seat))

    def hint_text(self) -> str:
        return hint_sentence(self.hint_lines())


def redraw_failed_text(e: BaseException) -> str:
    """The page's message when drawing the table raised (the next poll draws again)."""
    return _("This page could not be redrawn ({error}); it tries again in a moment. Nothing "
             "is lost: the game is kept on the server.").format(error=type(e).__name__)


def error_text(e: BaseException) -> str:
    """A store refusal as the sentence to show (IllegalActionError through the words)."""
    if isinstance(e, IllegalActionError):
        from widgets.words import reason_text

        return reason_text(e)
    if isinstance(e, st.RoomError):
        return room_error_text(e)
    return str(e)
