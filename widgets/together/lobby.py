"""Play together: one student's page at a table shared with classmates on their own devices.

    from widgets.together.lobby import PlayTogether
    PlayTogether(query=page_query())        # the lesson page (lessons/play_together.ipynb)

A thin ipywidgets layer over `widgets.together.seat.SeatSession` (no game logic here):

* the lobby: "Open a table" (game, variant and settings, seats, empty seats as computer players
  or not, your name) gives a short room code shown big; "Join" (code + name) gives a seat;
  "Come back" (code + name + seat PIN) gives one's seat back on another page;
* the table: the room code, this seat's PIN and seat link, the host's Start button, the room's
  messages, and the game: `HitMeTable.for_session(seat)` or
  `FlapjackTable.for_session(seat)`, the tables a one-screen game uses, drawn from this seat's
  view only; it updates by itself (the session
  polls the store on the kernel's timer).

The page holds its seat's secret in the seat link (`?room=KM7Q4X&seat=1&key=...`), read back
with `page_query()` on a reload. The seat PIN is shown on the seat's first page and stays the
same (pages reopened, other devices) until the student presses "New seat PIN", which shows a
fresh one (the old one stops working). Wrong codes, PINs and links make the
page wait (1, 2, 4 ... 60 s) before the next try; the store also counts wrong PINs per seat.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import ipywidgets as widgets

import rooms as st
from engine.errors import ConfigError
from engine.games import GAMES, LEVELS, make_game, settings_of
from rooms.codes import CodeError, format_code, parse_code
from widgets.table import components as ui
from widgets.table.deal_codes import new_secret_seed
from widgets.table.games import game_options, table_class
from widgets.together.seat import SeatSession, redraw_failed_text
from widgets.words import _, level_name, room_error_text, setting_label, variant_title

# every game's variants and colour conventions, in the registry's order
VARIANTS = tuple(dict.fromkeys(v for g in GAMES for v in settings_of(g).choices_of("variant")))
COLORS = tuple(dict.fromkeys(c for g in GAMES for c in settings_of(g).choices_of("colors")))
MIN_SEATS = min(settings_of(g).players[0] for g in GAMES)
MAX_WAIT = 60.0

ROOM_CSS = """
.icg-room-code { font-size: 2.6em; font-weight: bold; letter-spacing: 0.12em;
  font-family: monospace; }
.icg-room-pin { font-size: 1.4em; font-family: monospace; }
"""


class BackOff:
    """Wait 1, 2, 4 ... up to 60 seconds after each wrong try (per page's kernel)."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock, self.fails, self.until = clock, 0, 0.0

    def wait_left(self) -> float:
        return max(0.0, self.until - self.clock())

    def failed(self) -> None:
        self.fails += 1
        self.until = self.clock() + min(MAX_WAIT, 2.0 ** (self.fails - 1))

    def ok(self) -> None:
        self.fails, self.until = 0, 0.0


def make_state(game: str, players: int, variant: str, colors: str) -> Any:
    """A freshly dealt room state (seed: 128 secret bits, never shown or stored apart): a
    series of deals for a game played deal after deal, else one deal. `variant` is used by a
    game that has variants."""
    seed = new_secret_seed()
    settings = {"players": players, "colors": colors}
    if has_variants(game):
        settings["variant"] = variant
    g = make_game(game, **settings)
    return g.new_series(seed) if g.type.series is not None else g.new_state(rng=seed)


def has_variants(game: str) -> bool:
    return bool(settings_of(game).choices_of("variant"))


class PlayTogether(widgets.VBox):
    """See the module docstring. `query`: the page's query (`page_query()`); `store`: a
    RoomStore (default: `open_store()`); `poll_every`, `bot_delay`, `absent_after`: the seat
    session's; `schedule`: its timer (tests pass their own)."""

    def __init__(self, query: dict[str, str] | None = None, store: st.RoomStore | None = None,
                 *, poll_every: float = 0.1, bot_delay: float = 0.8,
                 absent_after: float = 90.0, schedule: Any = None) -> None:
        self.store = store if store is not None else st.open_store()
        self.opts = {"poll_every": poll_every, "bot_delay": bot_delay,
                     "absent_after": absent_after, "schedule": schedule}
        self.backoff = BackOff()
        self.session: SeatSession | None = None
        self.pin = ""
        self.css = ui.html_widget(f"<style>{ROOM_CSS}</style>", ["icg-style"])
        self.base_css = ui.style_widget()
        self.message = ui.MessageArea()
        self._build_lobby()
        from widgets.together.live import lobby_parts

        # the live class: a name picked on another device brings its seat back (_seat_back)
        self.live_parts = lobby_parts(self._seat_back)
        super().__init__([self.base_css, self.css, self.message, self.lobby, *self.live_parts],
                         _dom_classes=("icg-root", "icg-room"))
        q = query or {}
        if q.get("room") and q.get("seat") and q.get("key"):
            self._from_link(q)

    # ----- the lobby ----------------------------------------------------------------------
    def _build_lobby(self) -> None:
        text = {"style": {"description_width": "initial"}, "continuous_update": False}
        self.join_code = widgets.Text(description=_("Room code"), placeholder="KM7-Q4X", **text)
        self.join_name = widgets.Text(description=_("Your name"), placeholder="Ana", **text)
        self.join_pin = widgets.Text(description=_("Seat PIN (to come back)"),
                                     placeholder="6 digits", **text)
        self.join_button = ui.make_button(_("Join the table"), self.join, button_style="primary",
                                          tooltip=_("take a free seat at this room"))
        self.back_button = ui.make_button(_("Come back to my seat"), self.come_back,
                                          tooltip=_("your seat again, with your seat PIN"))
        self.open_game = widgets.Dropdown(description=_("Game"), options=game_options(),
                                          style={"description_width": "initial"})
        self.open_variant = widgets.Dropdown(description=_("Flapjack variant"),
                                             options=[(variant_title(v), v)
                                                      for v in VARIANTS],
                                             style={"description_width": "initial"})
        self.open_colors = widgets.Dropdown(description=_("Colours"),
                                            options=[(setting_label("colors", c), c)
                                                     for c in COLORS],
                                            style={"description_width": "initial"})
        self.open_seats = widgets.IntText(value=4, description=_("Seats ({low} to {high})").format(
                                              low=MIN_SEATS, high=st.MAX_SEATS),
                                          style={"description_width": "initial"})
        self.open_bots = widgets.Checkbox(value=True,
                                          description=_("Empty seats are computer players"),
                                          style={"description_width": "initial"})
        self.open_level = widgets.Dropdown(description=_("Computer players"),
                                           options=[(level_name(lv), lv) for lv in LEVELS],
                                           value="medium",
                                           style={"description_width": "initial"})
        self.open_name = widgets.Text(description=_("Your name (you play too)"),
                                     placeholder="Ana", **text)
        self.open_button = ui.make_button(_("Open a table"), self.open_table,
                                          button_style="success",
                                          tooltip=_("make a room and get its code"))
        self.lobby = widgets.VBox([
            ui.html_widget("<h3>" + _("Join a table") + "</h3>"),
            self.join_code, self.join_name, ui.hbox([self.join_button]),
            self.join_pin, ui.hbox([self.back_button]),
            ui.html_widget("<h3>" + _("Or open a table") + "</h3>"),
            self.open_game, self.open_variant, self.open_colors, self.open_seats,
            self.open_bots, self.open_level, self.open_name, ui.hbox([self.open_button]),
        ])

    def _say(self, text: str, kind: str = "error") -> None:
        self.message.show(text, kind)

    def _waiting(self) -> bool:
        left = self.backoff.wait_left()
        if left > 0:
            self._say(_("Wait {n} seconds before trying again.").format(n=int(left) + 1))
            return True
        return False

    def _code(self, text: object) -> str | None:
        try:
            return parse_code(text)
        except CodeError as e:
            self._say(room_error_text(e))
            return None

    def join(self) -> None:
        """Join (code + name): the first free seat."""
        if self.session is not None or self._waiting():
            return
        code = self._code(self.join_code.value)
        if code is None:
            return
        self._take_seat(lambda: self.store.join(code, self.join_name.value))

    def come_back(self) -> None:
        """Come back (code + name + PIN): one's own seat, on a new page."""
        if self.session is not None or self._waiting():
            return
        code = self._code(self.join_code.value)
        if code is None:
            return
        self._take_seat(lambda: self.store.rejoin_pin(code, self.join_name.value,
                                                      self.join_pin.value))

    def _take_seat(self, attempt: Callable[[], Any]) -> None:
        """Join or come back: a wrong code, name or PIN counts for the back-off; any other
        refusal is only said; a ticket seats this page."""
        try:
            ticket = attempt()
        except (st.RoomNotFound, st.NotAllowed) as e:
            self.backoff.failed()
            self._say(room_error_text(e))
            return
        except st.RoomError as e:
            self._say(room_error_text(e))
            return
        self.backoff.ok()
        self._sit(ticket, None)

    def open_table(self) -> None:
        """Open a table with the lobby's settings; this page takes seat 1 and is the host."""
        if self.session is not None:
            return
        try:
            players = ui.parse_int_setting(self.open_seats.value, "seats", MIN_SEATS,
                                           st.MAX_SEATS)
            game = ui.parse_choice(self.open_game.value, list(GAMES), "game")
            variant = ui.parse_choice(self.open_variant.value, list(VARIANTS), "variant")
            colors = ui.parse_choice(self.open_colors.value, list(COLORS), "colours")
            level = ui.parse_choice(self.open_level.value, LEVELS, "computer players")
            from rooms.codes import clean_name

            try:
                clean_name(self.open_name.value)
            except CodeError as e:
                self._say(room_error_text(e))
                return
            state = make_state(game, players, variant, colors)
        except (ValueError, ConfigError) as e:
            self._say(str(e))
            return
        bots = self.open_bots.value is True
        from widgets.page.teacher_key import page_client

        try:
            host = self.store.create_room(
                state, settings={"game": game, "variant": variant if has_variants(game) else
                                 None, "colors": colors, "computers": bots, "level": level},
                fill_bot={"bot": level} if bots else None, client=page_client())
            ticket = self.store.join(host.code, self.open_name.value)
        except st.RoomError as e:
            self._say(room_error_text(e))
            return
        self._sit(ticket, host.secret)

    def _from_link(self, q: dict[str, str]) -> None:
        """A reload with the seat link: back to the seat (a wrong link waits like a wrong PIN)."""
        code = self._code(q.get("room"))
        seat_text = q.get("seat", "")
        if code is None or not seat_text.isdigit() or len(seat_text) > 2:
            self._say(_("This seat link is not valid."))
            return
        seat = int(seat_text)
        try:
            self.store.rejoin(code, seat, q.get("key"))
            info = self.store.room(code)
        except st.RoomError as e:
            self.backoff.failed()
            self._say(room_error_text(e))
            return
        host = q.get("host")
        ticket = st.SeatTicket(code, seat, info.seats[seat].name or "", q.get("key", ""))
        self._sit(ticket, host if isinstance(host, str) and host else None)

    def _seat_back(self, ticket: st.SeatTicket) -> None:
        """The live class found this student's seat (picked their name on this device)."""
        if self.session is None:
            self._sit(ticket, None)

    # ----- at the table --------------------------------------------------------------------
    def _sit(self, ticket: st.SeatTicket, host_secret: str | None) -> None:
        opts = {k: v for k, v in self.opts.items() if v is not None}
        try:
            self.session = SeatSession(self.store, ticket, host_secret=host_secret,
                                       on_change=self.refresh, **opts)
        except st.RoomError as e:
            self._say(room_error_text(e))
            return
        # the seat's PIN stays the same until the student asks for a new one: a page reopened
        # (seat link, PIN) shows none, only the first page of a seat shows it
        try:
            self.pin = self.store.first_pin(ticket.code, ticket.seat, ticket.secret) or ""
        except st.RoomError:
            self.pin = ""
        from widgets.together.live import note_seat

        note_seat(ticket.code, ticket.seat)  # found again if the student moves to another device
        self._build_table()
        self.children = [self.base_css, self.css, self.room_box, self.message, self.game_box]
        self.message.clear()
        self.session.redraw()  # a failing draw: a message, and the first poll draws again
        self.session.start_polling()

    def new_pin(self) -> None:
        """The student asks for a new seat PIN: shown here to write down; the old one stops
        working (on every page)."""
        if self.session is None:
            return
        pin = self.session.new_pin()
        if pin is not None:
            self.pin = pin
        self.refresh()

    def seat_link(self) -> str:
        """This seat's link (relative: the lesson page with the seat in its query)."""
        s = self.session
        assert s is not None
        q = {"room": s.code, "seat": str(s.seat), "key": s.secret}
        if s.host_secret:
            q["host"] = s.host_secret
        return "?" + urlencode(q)

    def _build_table(self) -> None:
        s = self.session
        assert s is not None
        self.code_html = ui.html_widget("")
        self.seat_html = ui.html_widget("")
        self.room_status = ui.html_widget("", ["icg-status"])
        self.start_button = ui.make_button(_("Start the table now"), s.start,
                                           button_style="primary", own_layout=True,
                                           tooltip=_("start: empty seats go to computer "
                                                     "players"))
        self.back_seat_button = ui.make_button(_("Take my seat back"), s.take_back,
                                               button_style="warning", own_layout=True,
                                               tooltip=_("play your own seat again"))
        self.new_pin_button = ui.make_button(_("New seat PIN"), self.new_pin, own_layout=True,
                                             tooltip=_("a new PIN to write down: the old one "
                                                       "stops working"))
        self.room_box = widgets.VBox([self.code_html, self.seat_html, self.room_status,
                                      widgets.HBox([self.start_button, self.back_seat_button,
                                                    self.new_pin_button])])
        # the game: the table a one-screen game uses, drawn over this seat (the seat's view
        # only); the room's page redraws the room's parts, then the table
        self.table: Any = table_class(s.game_name).for_session(s)
        hand = getattr(self.table, "hand", None)  # a table whose hand is a row of cards
        if hand is not None:
            hand.box.add_class("icg-room-hand")
        s.on_change = self.refresh
        self.game_box = widgets.VBox([self.table])

    # ----- the view to the widgets ----------------------------------------------------------
    def refresh(self) -> None:
        """Draw the seat's view. When drawing raises, the page says so in its message line
        and the error goes on to the session, whose next poll draws again."""
        try:
            self._refresh()
        except Exception as e:
            if "message" in self.__dict__:
                self.message.show(redraw_failed_text(e), "error")
            raise

    def _refresh(self) -> None:
        s = self.session
        if s is None or "room_box" not in self.__dict__:
            return
        info = s.info
        assert info is not None
        note = s.room_note
        if note is not None:
            self.message.show(note[0], "error" if note[1] in ("unavailable", "redraw")
                              else note[1])
        else:
            self.message.clear()
        room_code, code_label = html.escape(_("Room code")), html.escape(_("room code"))
        self.code_html.value = (
            f'<div>{room_code}: <span class="icg-room-code" '
            f'aria-label="{code_label} {" ".join(s.shown_code)}">'
            f"{html.escape(s.shown_code)}</span></div>")
        seats = ", ".join(html.escape(n) for n in s.names)
        you_are = html.escape(_("You are {name}, seat {n}.").format(name=s.name, n=s.seat + 1))
        pin_label = html.escape(_("Your seat PIN"))
        link_text = html.escape(_("my seat link: keep it to come back"))
        at_table = html.escape(_("At this table"))
        pin = (f" {pin_label}: <span class=\"icg-room-pin\">{html.escape(self.pin)}</span> "
               if self.pin else " " + html.escape(_(
                   "Your seat PIN is the one you wrote down (or press \u201cNew seat PIN\u201d)."))
               + " ")
        self.seat_html.value = (
            f"<div>{you_are}{pin}"
            f"(<a class=\"icg-seat-link\" href=\"{html.escape(self.seat_link())}\">"
            f"{link_text}</a>)</div>"
            f"<div>{at_table}: {seats}</div>")
        self.room_status.value = f'<div role="status">{html.escape(s.room_status())}</div>'
        waiting = info.status == st.WAITING
        self.start_button.layout.display = None if waiting and s.is_host else "none"
        self.start_button.disabled = not (waiting and s.is_host)
        self.back_seat_button.layout.display = None if s.away else "none"
        self.back_seat_button.disabled = not s.away
        if waiting:
            self.game_box.layout.display = "none"
            return
        self.game_box.layout.display = None
        self.table.refresh()


def play_together(**kw: Any) -> PlayTogether:
    """The lesson page's one call: the table, back in one's seat when the page has a seat link."""
    from widgets.page.query import page_query

    return PlayTogether(query=page_query(), **kw)


__all__ = ["BackOff", "PlayTogether", "format_code", "make_state", "play_together"]


def how_to_play_together() -> str:
    """The steps of playing together, as plain text (the lesson page prints it)."""
    from rooms.codes import ALPHABET

    return "\n".join([
        _("1. One student opens a table: game, seats, and whether empty seats are computer "
          "players."),
        _("2. The page shows a room code such as KM7-Q4X. Read it out or write it on the board."),
        "   " + _("Codes use only {digits} and the letters without I, L, O and U.").format(
            digits=ALPHABET[:8]),
        _("3. Everyone else types the code and a name and presses Join the table."),
        _("4. The host presses Start the table now, or it starts when every seat is taken."),
        _("5. Write down your seat PIN, or keep your seat link: with either one you come back "
          "to your own seat."),
    ])
