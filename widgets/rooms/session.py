"""One student's seat at a shared room, without ipywidgets: `SeatSession`.

The session holds the store, the room code, the seat and the seat's secret (and the host's
secret when this page opened the room). It polls the room's version on a kernel timer
(`schedule(delay, fn)`, by default the kernel's loop as the tables' computer players use) and,
when it changed, loads the state and redraws from `observation(seat)` through the tables' own
view functions (widgets/hit_me/view.py, widgets/flapjack/view.py). A click becomes one store move
with the version the page showed; `TableChanged`, `NotYourTurn`, `IllegalMove`,
`StoreUnavailable` ... become a message. The whole state stays in the kernel: the view is built
from this seat's observation only.

Computer players (empty seats chosen as computers, or a student away too long) are moved by any
kernel that sees it is their turn: the first seated student's kernel after `bot_delay`, the others
later as a fallback; the version check makes the move happen once. Hit Me's announce step runs in
each student's own kernel; the result goes to the store (`record_check`), and once every student
present has announced, a kernel turns the cards up (one `reveal` move).

Presence: the poll calls `touch` every `presence_every` seconds and `mark_absent(absent_after)`
when a student was not seen for that long; the student takes the seat back with `take_back()`
(a reload with the seat link does it by itself).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Any

import rooms as st
from engine.cards import card_from_json
from engine.errors import IllegalActionError, Reason, Why
from engine.flapjack import Play
from engine.hit_me import ChooseAce, Hit, HitMeGame, Hold, Reveal
from rooms.codes import format_code
from rooms.games import NEXT_ROUND, next_round
from widgets.controller import call_later, make_bots
from widgets.hit_me.render import announce_feedback, own_values
from widgets.words import _, abs_math, room_error_text, sum_math

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


class _HitMeLook:
    """One seat of a room as widgets.hit_me.view.table_view reads a session: it satisfies
    `widgets.hit_me.view.HitMeLook`, the Protocol a HitMeSession satisfies too."""

    mode = "solo"
    walkthrough = False
    teacher_reveal = False
    code_open = False
    deal_code = 0
    pass_screen = False
    ctl = None

    def __init__(self, seat: SeatSession) -> None:
        from widgets.hit_me.session import Phase

        game: HitMeGame = seat.state
        self.game, self.config = game, game.config
        self.viewer = seat.seat
        self.holder = seat.seat
        self.names = seat.names
        phase = game.round.phase
        self.phase = {"play": Phase.PLAY, "announce": Phase.ANNOUNCE}.get(phase, Phase.REVEAL)
        self.peeked = seat.peeked
        self.students = [s.seat for s in seat.info.seats if s.controller == "human"]
        self.announced = dict.fromkeys(seat.checked, "right")
        if seat.my_check is not None:
            self.announced[seat.seat] = seat.my_check
        self.announce_queue = [] if seat.seat in self.announced else [seat.seat]
        self.announce_misses = seat.misses
        self.round_number = round_index(game) + 1

    def needed(self) -> int | None:
        return self.announce_queue[0] if self.announce_queue else None

    def sums_open(self, seat: int | None) -> bool:
        """As HitMeSession.sums_open: a seat's sum is stated only once its student answered the
        check or asked to be shown (a room offers no "Show my sum" while playing yet)."""
        return seat is not None and seat in self.announced

    def observation(self) -> dict[str, Any]:
        return self.game.round.observation(self.viewer)

    def steady_ends(self, viewer: int | None, ends: tuple[int, int]) -> tuple[int, int]:
        """A room's page draws no number line: the ends its dots need now."""
        return ends

    @property
    def show_me_offered(self) -> bool:
        from widgets.hit_me.session import Phase

        return self.phase is Phase.ANNOUNCE and self.announce_misses >= 2


class _FlapjackLook:
    """What widgets.flapjack.view.table_view reads of a FlapjackSession, for one seat."""

    walkthrough = False
    code_open = False
    deal_code = 0
    pending = None

    class controller:  # noqa: N801 - read as session.controller.bot_moves
        bot_moves: tuple[Any, ...] = ()

    def __init__(self, seat: SeatSession) -> None:
        self.state = seat.state
        self.config = seat.state.config
        self.names = seat.names
        self.selected = seat.selected
        self.banner_from = seat.banner_from

    def observation(self, viewer: int) -> dict[str, Any]:
        return self.state.observation(viewer, reveal=self.state.over)

    def signs(self) -> tuple[int, ...]:
        return (1, -1) if self.config.add_or_subtract else (1,)

    def why(self, card: Any, sign: int, viewer: int) -> Why | None:
        s = self.state
        if s.over:
            return Why(Reason.GAME_OVER)
        if s.current != viewer:
            return Why(Reason.NOT_YOUR_TURN, {"current": s.current, "seat": viewer})
        return s.why_illegal(viewer, card, sign)

    def card_whys(self, viewer: int) -> dict[str, tuple[Why | None, ...]]:
        return {c.key: tuple(self.why(c, s, viewer) for s in self.signs())
                for c in self.state.hands[viewer]}


class SeatSession:
    """One seat of a room, for one page (see the module docstring).

    `ticket` is the SeatTicket from `store.join`/`rejoin_pin` (or rebuilt from a seat link);
    `host_secret` makes this page the room's host (Start, and replacing an absent student).
    `poll_every` seconds between version polls; on PostgreSQL (`listen`, with a running asyncio
    loop) the kernel's LISTEN thread wakes the session at each change of its room instead, and
    the poll runs only every `listen_every` seconds while the listener is connected (presence,
    and a fallback); a computer move or reveal that is due is timed on its own.
    `bot_delay` seconds before a computer move;
    `presence_every` seconds between `touch` calls; `absent_after` seconds without a `touch`
    before a student's seat goes to the computer. `on_change()` is called after every redraw-
    worthy change; `note` holds the message to show ((text, kind) or None).
    """

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
        self.clock = clock
        self.note: tuple[str, str] | None = None
        self.version = -1
        self.state: Any = None
        self.info: st.RoomInfo | None = None
        self.names: list[str] = []
        self.peeked = False
        self.selected: str | None = None
        self.banner_from = 0
        self.checked: set[int] = set()  # seats that announced this round (from the store)
        self.my_check: str | None = None  # 'right' or 'shown' once this seat announced
        self.misses = 0
        self.first_mistake: str | None = None
        self.feedback: tuple[str, str] | None = None
        self.check_round = -1
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
    def is_host(self) -> bool:
        return self._host_secret is not None

    @property
    def game(self) -> str:
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

    def _round(self) -> Any:
        return self.state.round if isinstance(self.state, HitMeGame) else self.state

    def turn(self) -> int | None:
        """The seat to move now (None in Hit Me's announce step and at the end)."""
        r = self._round()
        return None if r.over else r.current

    def my_turn(self) -> bool:
        return self.status == st.PLAYING and not self.away and self.turn() == self.seat

    def say(self, text: str | None, kind: str = "error") -> tuple[str, str] | None:
        self.note = None if text is None else (text, kind)
        return self.note

    # ----- loading and polling --------------------------------------------------------------
    def reload(self) -> None:
        """Read the room (state, seats, announce checks) again and redraw."""
        version, state = self.store.load(self.code)
        info = self.store.room(self.code)
        self.loads += 1
        old_events = len(self._round().events) if self.state is not None and \
            not isinstance(self.state, HitMeGame) else 0
        self.version, self.state, self.info = version, state, info
        self.names = [seat_label(s) for s in info.seats]
        if isinstance(state, HitMeGame):
            idx = round_index(state)
            if idx != self.check_round:  # a new round: the announce check starts afresh
                self.check_round, self.my_check, self.misses = idx, None, 0
                self.first_mistake, self.feedback, self.peeked = None, None, False
            self.checked = {c["seat"] for c in self.store.checks(self.code)
                            if c["round"] == idx}
            if self.seat in self.checked and self.my_check is None:
                self.my_check = "right"  # announced on an earlier page of this seat
        else:
            self.banner_from = min(old_events, len(state.events))
            if self.selected is not None and not self.my_turn():
                self.selected = None
        self._changed_at = self.clock()
        self.redraw()

    def redraw(self) -> bool:
        """Call `on_change()` (the page's redraw). When it raises, the page gets a clear
        message, the next poll loads and redraws again (`redraw_failed`), and nothing is lost:
        the room's state is in the store and this session keeps what it read."""
        try:
            self.on_change()
        except Exception as e:  # noqa: BLE001 - a bad redraw must not stop the page
            log.exception("room %s seat %s: redraw failed", self.code, self.seat)
            self.redraw_failed = True
            self.say(redraw_failed_text(e), "redraw")
            return False
        if self.redraw_failed:
            self.redraw_failed = False
            if self.note is not None and self.note[1] == "redraw":
                self.say(None)
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
            if self.note and self.note[1] == "unavailable":
                self.say(None)
                changed = True
            self._presence()
            self._due_moves()
        except st.StoreUnavailable as e:
            self.say(room_error_text(e), "unavailable")
            self.on_change()
            return True
        except st.RoomNotFound as e:
            self.say(room_error_text(e))
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
            self.say(_("This seat was taken back on another page (with its PIN); this page "
                       "only watches now."), "error")
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
        'reveal' (every student present announced) or None."""
        info = self.info
        if info is None or info.status != st.PLAYING or self.away or self.state is None:
            return None
        turn = self.turn()
        if turn is not None and info.seats[turn].controller == "computer":
            return "bot"
        if isinstance(self.state, HitMeGame) and self.state.round.phase == "announce":
            present = {s.seat for s in info.seats if s.controller == "human"}
            if present <= self.checked:
                return "reveal"
        return None

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
            self._store_move(lambda: self.store.move(
                self.code, self.seat, self._secret, _reveal, action=Reveal().to_json(),
                expected_version=self.version), quiet=True)

    def _bot_move(self, seat: int) -> None:
        assert self.info is not None
        spec = self.info.seats[seat].bot or {"bot": "medium"}
        game = "hit-me" if isinstance(self.state, HitMeGame) else "flapjack"
        level = str(spec.get("bot", "medium")) if isinstance(spec, dict) else str(spec)
        try:
            bot = make_bots({seat: level}, game, f"{self.code}/{self.version}")[seat]
        except Exception:  # noqa: BLE001 - an unknown spec plays as the medium player
            bot = make_bots({seat: "medium"}, game, f"{self.code}/{self.version}")[seat]
        r = self._round()
        legal = r.legal_actions(seat)
        if game == "hit-me":
            legal = [a for a in legal if isinstance(a, Hit | Hold)]
        if not legal:
            return
        try:
            action = bot.choose(r.observation(seat), legal).action
        except Exception as e:  # noqa: BLE001 - a failing bot must not stall the room
            log.warning("computer player %s failed: %s", seat, e)
            action = legal[-1]
        self._store_move(lambda: self.store.play(self.code, seat, self._secret, action,
                                                 expected_version=self.version), quiet=True)

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
            self.say(room_error_text(e), "unavailable")
        except st.RoomError as e:
            if not quiet:
                self.say(room_error_text(e))
        try:
            self.reload()
        except st.RoomError as e:
            self.say(room_error_text(e), "unavailable")
            self.on_change()
        return ok

    def _play(self, action: Any) -> bool:
        """A student's engine move, with the version this page showed."""
        if self.away:
            self.say(_("A computer player has your seat now: press \"Take my seat back\" "
                       "first."))
            self.on_change()
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
            self.say(_("Welcome back: this is your seat again."), "ok")
        except st.RoomError as e:
            self.say(room_error_text(e))
        self.reload()

    def start(self) -> None:
        """The host starts the room (empty seats go to computer players)."""
        if self._host_secret is None:
            self.say(_("Only the student who opened this table can start it."))
            self.on_change()
            return
        try:
            self.store.start(self.code, self._host_secret)
            self.say(None)
        except st.RoomError as e:
            self.say(room_error_text(e))
        self.reload()

    def replace(self, seat: int) -> None:
        """The host gives an absent student's seat to a computer player at once."""
        if self._host_secret is None:
            self.say(_("Only the student who opened this table can do this."))
            self.on_change()
            return
        try:
            self.store.replace_seat(self.code, self._host_secret, seat)
        except st.RoomError as e:
            self.say(room_error_text(e))
        self.reload()

    def new_pin(self) -> str | None:
        """A fresh seat PIN to write down (None when the store refused)."""
        try:
            return self.store.new_pin(self.code, self.seat, self._secret)
        except st.RoomError as e:
            self.say(room_error_text(e))
            return None

    # ----- clicks: Hit Me ---------------------------------------------------------------------
    def toggle_peek(self) -> None:
        self.peeked = not self.peeked
        self.on_change()

    def hit(self) -> bool:
        return self._hit_me_move(Hit())

    def hold(self) -> bool:
        return self._hit_me_move(Hold())

    def _hit_me_move(self, action: Any) -> bool:
        if not isinstance(self.state, HitMeGame):
            self.say(_("That is a Hit Me button; this table plays Flapjack."))
            self.on_change()
            return False
        if self.status == st.PLAYING and not self.away and self.turn() != self.seat:
            self.say(_("It is not your turn."))
            self.on_change()
            return False
        return self._play(action)

    def choose_ace(self, key: str, high: bool) -> bool:
        try:
            card = card_from_json(key)
        except ValueError:
            self.say(_("That is not one of your aces."))
            self.on_change()
            return False
        return self._play(ChooseAce(card, bool(high)))

    def announce_values(self) -> list[int] | None:
        if not isinstance(self.state, HitMeGame) or self.state.round.phase != "announce":
            return None
        return own_values(self.state.round.observation(self.seat)["seats"][self.seat])

    def check_announce(self, answers: dict[str, int | None]) -> bool | None:
        """This student's typed sum and |sum| (True right, False wrong, None not now)."""
        values = self.announce_values()
        if values is None or self.my_check is not None or self.away:
            return None
        typed_sum, typed_abs = answers.get("sum"), answers.get("abs")
        ok, text = announce_feedback(values, typed_sum, typed_abs)
        if ok:
            self.feedback = (text, "ok")
            self._record("right")
        else:
            if typed_sum is not None and typed_abs is not None:
                self.misses += 1
                if self.first_mistake is None:
                    self.first_mistake = "sum" if typed_sum != sum(values) else "abs"
            self.feedback = (text, "error")
            self.on_change()
        return ok

    def show_me(self) -> None:
        values = self.announce_values()
        if values is None or self.my_check is not None or self.misses < 2:
            return
        self.feedback = (_("Here it is: {sum}, and {abs}.").format(
            sum=sum_math(values), abs=abs_math(sum(values))), "info")
        if self.first_mistake is None:
            self.first_mistake = "shown"
        self._record("shown")

    def _record(self, how: str) -> None:
        self.my_check = how
        mistake = self.first_mistake if how == "right" else (self.first_mistake or "shown")
        try:
            self.store.record_check(self.code, self.seat, self._secret, self.check_round,
                                    how == "right" and self.misses == 0, self.misses,
                                    None if how == "right" and self.misses == 0 else mistake)
        except st.RoomError as e:
            self.my_check = None  # try again when the store is back
            self.say(room_error_text(e), "unavailable")
        self.reload()
        self._due_moves_now()

    def _due_moves_now(self) -> None:
        """The last student to announce turns the cards up at once."""
        if isinstance(self.state, HitMeGame) and self.state.round.phase == "announce" \
                and self.info is not None and self.info.status == st.PLAYING:
            present = {s.seat for s in self.info.seats if s.controller == "human"}
            if present <= self.checked:
                self._store_move(lambda: self.store.move(
                    self.code, self.seat, self._secret, _reveal, action=Reveal().to_json(),
                    expected_version=self.version), quiet=True)

    def next_round(self) -> bool:
        """Deal the next round (after the reveal; the first click of any student does it)."""
        if not isinstance(self.state, HitMeGame) or not self.state.round.revealed:
            self.say(_("The next round comes after every card is turned up."))
            self.on_change()
            return False
        return self._store_move(lambda: self.store.move(
            self.code, self.seat, self._secret, next_round, action=NEXT_ROUND,
            expected_version=self.version), quiet=True)

    # ----- clicks: Flapjack -------------------------------------------------------------------
    def _own_card(self, key: object) -> Any:
        if isinstance(self.state, HitMeGame) or not isinstance(key, str):
            return None
        return next((c for c in self.state.hands[self.seat] if c.key == key), None)

    def click_card(self, key: str) -> bool:
        """A card of this student's hand: played (or chosen, in add or subtract)."""
        card = self._own_card(key)
        if card is None:
            self.say(_("That card is not in your hand."))
            self.on_change()
            return False
        if not self.my_turn():
            self.say(_("Wait for your turn."))
            self.on_change()
            return False
        signs = (1, -1) if self.state.config.add_or_subtract else (1,)
        if all(self.state.why_illegal(self.seat, card, s) is not None for s in signs):
            self.say(_("You cannot play {card} now.").format(card=card.short))
            self.on_change()
            return False
        if self.state.config.add_or_subtract:
            self.selected = key
            self.say(None)
            self.on_change()
            return True
        return self._play(Play(card, 1))

    def choose_sign(self, sign: int) -> bool:
        card = self._own_card(self.selected)
        if card is None or sign not in (1, -1):
            self.say(_("Choose a card first."))
            self.on_change()
            return False
        self.selected = None
        return self._play(Play(card, sign))

    def cancel(self) -> None:
        self.selected = None
        self.on_change()

    # ----- what the page shows ----------------------------------------------------------------
    def view(self) -> Any:
        """This seat's table view: a HitMeView or a Flapjack TableView, built by the tables'
        own view functions from this seat's observation only."""
        if isinstance(self.state, HitMeGame):
            from widgets.hit_me.view import table_view as hit_me_view

            v = hit_me_view(_HitMeLook(self))
            if v.round_over:
                from widgets.hit_me.render import result_html

                r = self.state.round
                v = dataclasses.replace(v, result_html=result_html(
                    r.observation(self.seat)["result"], self.names, self.state.next_dealer(),
                    None, False))
            if self.away or self.status != st.PLAYING:
                v = dataclasses.replace(v, can_hit=False, can_hold=False, can_check=False,
                                        can_finish=False)
            return v
        from widgets.flapjack.view import table_view as flapjack_view

        v = flapjack_view(_FlapjackLook(self), self.seat)  # type: ignore[arg-type]
        return dataclasses.replace(v, replay_code=None)

    def hint_text(self) -> str:
        """The table's hint, for this seat only (Hit Me: after a peek, on one's own turn)."""
        from widgets.words import flapjack_hint, hit_me_hint

        if isinstance(self.state, HitMeGame):
            if not self.my_turn() or self.state.round.phase != "play":
                return _("Hints are for your own turn.")
            if not self.peeked:
                return _("Peek at your face-down card first: the hint works with your whole "
                         "sum.")
            return hit_me_hint(self.state.round.observation(self.seat), self.names)
        return flapjack_hint(self.state.observation(self.seat))

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
