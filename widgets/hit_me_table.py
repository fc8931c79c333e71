"""The Hit Me card table: one student against computer players, or several students on one screen.

`HitMeTable(players=3, opponents='medium', seed=None, mode='solo', walkthrough=False, ...)` is an
ipywidgets VBox. It owns a `HitMeGame` through a `TableController` and renders every view from
observations (`round.observation(viewer)`), never from the raw state, so a card that the person at
the screen may not see is never in any widget value.

Phases of a round: PLAY (hit or hold; computer players move with a pause), ANNOUNCE (the round is
over in the engine but the cards are not turned up yet: each student types their sum and its
absolute value), REVEAL (every card up, sums on the number line, winner, score table, next round).
In pass-the-device mode a "pass the device to X" screen hides everything private until X says
they hold the device; X then chooses to peek at their face-down card.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

import ipywidgets as widgets

from engine.cards import card_from_json, signed
from engine.errors import ConfigError, check_int
from engine.hit_me import ChooseAce, Hit, HitMeConfig, HitMeGame, Hold
from widgets.components import (
    AnswerEntry,
    HintBox,
    LazyPart,
    MessageArea,
    MoveLog,
    NumberLine,
    SettingsPanel,
    hbox,
    html_widget,
    make_button,
    make_toggle,
    parse_choice,
    parse_deal_code,
    parse_int_setting,
    shared_layout,
    style_widget,
)
from widgets.controller import TableController, make_bots
from widgets.deal_codes import format_code, new_secret_seed
from widgets.render import (
    Arrow,
    Point,
    Span,
    card_back_html,
    card_face_html,
    esc,
    score_table_html,
)
from widgets.words import (
    _,
    abs_math,
    card_name,
    hit_me_hint,
    hit_me_story_line,
    join_names,
    ngettext,
    sum_math,
)

log = logging.getLogger(__name__)

MODES = ("solo", "pass-device")
LEVELS = ("easy", "medium", "hard")
COLOR_OPTIONS = [("black positive, red negative", "black-positive"),
                 ("red positive, black negative", "red-positive")]
TURN_OPTIONS = [("round robin (one hit a pass)", "round-robin"),
                ("all at once (all your hits in a row)", "all-at-once")]
MAX_PLAYERS = 8
MAX_NAME = 24


class Phase(Enum):
    """Where a round is, as the table shows it."""

    PLAY = "play"
    ANNOUNCE = "announce"
    REVEAL = "reveal"


# ----- pure helpers (observation -> data / HTML) -------------------------------------------
def _ace_note(card: dict[str, Any], value: int | None = None) -> str:
    if "ace_high" not in card:
        return ""
    v = card["value"] if value is None else value
    if card.get("ace_high") is None:
        return _("ace counts {n} (not set)").format(n=abs(v))
    return _("ace counts {n}").format(n=abs(v))


def seat_html(obs: dict[str, Any], seat: dict[str, Any], name: str, *, show_down: bool,
              winner: bool = False) -> str:
    """One player's place at the table: name, role, cards, and the sums that are known."""
    p = seat["seat"]
    classes = ["icg-seat"]
    if obs["current_player"] == p:
        classes.append("icg-current")
    if winner:
        classes.append("icg-winner")
    tags = []
    if obs["dealer"] == p:
        tags.append(_("dealer"))
    if obs["current_player"] == p:
        tags.append(_("to play"))
    if seat["held"]:
        tags.append(_("held"))
    elif seat["cards"] >= 7:
        tags.append(_("7 cards"))
    if winner:
        tags.append(_("winner"))
    down = seat["face_down"]
    vals = seat.get("values") if show_down else None
    cards_html = []
    if show_down and not down.get("hidden"):
        v = vals[0] if vals else None
        cards_html.append(card_face_html(_with_value(down, v), note=_ace_note(down, v)))
    else:
        label = _("your face-down card (not peeked)") if obs["viewer"] == p else \
            _("{name}'s face-down card").format(name=name)
        cards_html.append(card_back_html(label))
    for i, c in enumerate(seat["face_up"]):
        v = vals[i + 1] if vals else None
        cards_html.append(card_face_html(_with_value(c, v), note=_ace_note(c, v)))
    lines = [_("face-up cards: {sum}").format(sum=signed(seat["face_up_sum"]))]
    if show_down and seat["sum"] is not None:
        lines.append(_("sum {sum}, {abs}").format(sum=signed(seat["sum"]),
                                                  abs=abs_math(seat["sum"])))
    hits = seat["hits"]
    lines.append(ngettext("{n} hit", "{n} hits", hits).format(n=hits))
    return (f'<div class="{" ".join(classes)}" role="group" aria-label="{esc(name)}">'
            f'<div class="icg-seat-name">{esc(name)}'
            f'{" (" + esc(", ".join(tags)) + ")" if tags else ""}</div>'
            f'<div class="icg-hand">{"".join(cards_html)}</div>'
            f'<div class="icg-seat-status">{esc("; ".join(lines))}</div></div>')


def _with_value(card: dict[str, Any], value: int | None) -> dict[str, Any]:
    if value is None or value == card.get("value"):
        return card
    c = dict(card)
    c["value"], c["value_text"] = value, signed(value)
    return c


def seats_html(obs: dict[str, Any], names: Sequence[str], *, peeked: bool) -> str:
    """Every seat. The viewer's face-down card shows only after a peek (or at the reveal)."""
    res = obs.get("result") or {}
    winners = set(res.get("winners", []))
    parts = []
    for seat in obs["seats"]:
        p = seat["seat"]
        show = obs["reveal"] or (obs["viewer"] == p and peeked)
        parts.append(seat_html(obs, seat, names[p], show_down=show, winner=p in winners))
    return f'<div class="icg-seats">{"".join(parts)}</div>'


def number_line_parts(obs: dict[str, Any], names: Sequence[str], *, peeked: bool
                      ) -> tuple[list[Point], Arrow | None, list[Span]]:
    """Points, the last card's arrow and |sum| spans for the number line, from an observation."""
    viewer = obs["viewer"]
    res = obs.get("result")
    points: list[Point] = []
    spans: list[Span] = []
    known: dict[int, int] = {}
    for seat in obs["seats"]:
        p = seat["seat"]
        if seat["sum"] is not None and (obs["reveal"] or (p == viewer and peeked)):
            known[p] = seat["sum"]
    for seat in obs["seats"]:
        p = seat["seat"]
        if p in known:
            kind = "winner" if res and p in res["winners"] else ("me" if p == viewer else "sum")
            points.append(Point(known[p], names[p], kind))
            spans.append(Span(known[p], f"{names[p]}: {abs_math(known[p])}"))
        else:
            points.append(Point(seat["face_up_sum"],
                                _("{name} (face-up cards)").format(name=names[p]), "sum"))
    arrow = None
    hits = [e for e in obs["events"] if e["kind"] == "hit"]
    if hits and not res:
        p = hits[-1]["seat"]
        seat = obs["seats"][p]
        card = seat["face_up"][-1]
        if p in known:
            value, end = int(card["value"]), known[p]
        else:  # face-up cards only, at their printed values
            value = int(card["value"])
            if card.get("rank") == 1:
                value = 1 if value > 0 else -1
            end = seat["face_up_sum"]
        arrow = Arrow(end - value, end, _("{name}: last card {value}").format(
            name=names[p], value=signed(value)))
    return points, arrow, spans


def announce_feedback(values: list[int], typed_sum: int | None, typed_abs: int | None
                      ) -> tuple[bool, str]:
    """Check a typed sum and |sum| against the cards; (right?, feedback text with arithmetic)."""
    total = sum(values)
    terms = [signed(values[0])] + [f"({signed(v)})" for v in values[1:]]
    question = " + ".join(terms)
    if typed_sum is None or typed_abs is None:
        return False, _("Type a whole number in each box, like -7 or 12 "
                        "(the \u2212 key makes it negative).")
    if typed_sum == total and typed_abs == abs(total):
        return True, _("Right! {sum}, and {abs}.").format(sum=sum_math(values),
                                                          abs=abs_math(total))
    if typed_sum != total:
        return False, _("Your sum is not {typed}. Add the card values again: {question} = ?"
                        ).format(typed=signed(typed_sum), question=question)
    return False, _("Your sum {sum} is right. The absolute value is the distance from zero: "
                    "|{sum}| = ? (you typed {typed})").format(sum=signed(total), typed=typed_abs)


def _locked(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a table method under the controller's lock (paced computer moves run on a timer)."""

    @functools.wraps(method)
    def run(self: HitMeTable, *args: Any, **kwargs: Any) -> Any:
        with self.ctl.lock:
            return method(self, *args, **kwargs)

    return run


def _parse_bool(value: Any) -> bool:
    if value is True or value is False:
        return value
    raise ValueError("must be on or off")


# ----- the table ---------------------------------------------------------------------------
class _Controller(TableController):
    def __init__(self, table: HitMeTable, **kw: Any) -> None:
        super().__init__(**kw)
        self.table = table

    @property
    def state(self) -> Any:
        return self.table.game.round

    def refresh(self) -> None:
        self.table.refresh()

    def on_error(self, message: str) -> None:
        self.table.message.show(message, "error")

    def bot_legal(self, seat: int) -> list[Any]:
        return [a for a in self.state.legal_actions(seat) if isinstance(a, Hit | Hold)]

    def after_move(self) -> None:
        self.table._after_move()


class HitMeTable(widgets.VBox):
    """A Hit Me table (see the module docstring). Keyword settings:

    players 2-8; opponents 'easy' | 'medium' | 'hard' | a bot spec ('threshold:4', 'expert',
    'random') | a list of those, one per computer seat; seed: the deal code (int or text; None
    makes one up); mode 'solo' | 'pass-device'; students: how many seats are people in
    pass-device mode (default all); walkthrough: teacher controls; large_print; names;
    colors 'black-positive' | 'red-positive'; turn_order 'round-robin' | 'all-at-once';
    ace_eleven; bot_delay seconds between computer moves (0: at once, for tests);
    deck: a stacked card order for the first round, top first ('KS,7H,...'; the rest shuffled).
    """

    def __init__(
        self,
        players: int = 3,
        opponents: Any = "medium",
        seed: int | str | None = None,
        mode: str = "solo",
        walkthrough: bool = False,
        large_print: bool = False,
        names: Sequence[str] | None = None,
        colors: str = "black-positive",
        turn_order: str = "round-robin",
        ace_eleven: bool = False,
        bot_delay: float = 0.8,
        students: int | None = None,
        deck: str | None = None,
    ) -> None:
        check_int(players, "players", 2, MAX_PLAYERS)
        if mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
        self.ctl = _Controller(self, bot_delay=bot_delay, walkthrough=walkthrough)
        self._build_widgets()
        self.message = MessageArea()
        self.large_print = False
        if self.ctl.walkthrough:
            self._build_walkthrough()
        # children and classes given at creation (each later change is one more message)
        super().__init__(self._children(), _dom_classes=("icg-root",))
        self._set_large_print(bool(large_print))
        self._names_arg = list(names) if names is not None else None
        self._new_game(players=players, opponents=opponents, seed=seed, mode=mode,
                       colors=colors, turn_order=turn_order, ace_eleven=ace_eleven,
                       students=students, deck=deck)

    # ----- building ------------------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.css = style_widget()
        self.title_html = html_widget('<div class="icg-title">Hit Me</div>')
        self.status_html = html_widget("", ["icg-status"])
        # table
        self.seats_html = html_widget("")
        self.number_line = NumberLine("Number line: sums and distances from zero")
        self.peek_button = make_button("Peek at my face-down card", self._toggle_peek,
                                       tooltip="show or hide your own face-down card")
        self.hit_button = make_button("Hit me!", self._hit, button_style="success",
                                      tooltip="take one more card, face up", own_layout=True)
        self.hold_button = make_button("Hold", self._hold, button_style="warning",
                                       tooltip="stop taking cards for this round (final)",
                                       own_layout=True)
        self.ace_box = widgets.HBox([], layout=shared_layout(), _dom_classes=("icg-aces",))
        self._ace_buttons: list[widgets.Button] = []
        self._ace_cards: list[dict[str, Any]] = []
        self.hint = HintBox(self._hint_text)
        self.actions_box = widgets.HBox([self.peek_button, self.hit_button, self.hold_button])
        # results
        self.result_html = html_widget("")
        self.scores_html = html_widget("")
        self.next_round_button = make_button("Next round", self._next_round,
                                             button_style="primary",
                                             tooltip="the next dealer deals a new round",
                                             own_layout=True)
        self.next_round_row = hbox([self.next_round_button])
        self.move_log = MoveLog("Move log")
        # settings: the panel is built the first time it is opened (or read), see `settings`
        self._settings: SettingsPanel | None = None
        self._settings_values: dict[str, Any] = {}
        self.settings_toggle = make_toggle("Settings", "show or hide the settings")
        self.settings_toggle.observe(lambda ch: self._show_settings(), names="value")

    # Parts made on first use (LazyPart): a solo student's page never needs the pass screen
    # or the teacher's controls, and needs the answer box only at the end of a round; each
    # widget made is a model sent to the page at load time.
    pass_html, pass_button, pass_box = LazyPart.group("_build_pass", 3)
    announce, announce_done_button, announce_box = LazyPart.group("_build_announce", 3)
    (reveal_toggle, next_move_button, code_text, replay_button, restart_button,
     large_print_toggle, reasons_html, walk_box) = LazyPart.group("_build_walkthrough", 8)

    def _build_pass(self) -> None:
        self.pass_html = html_widget("")
        self.pass_button = make_button("I have the device", self._take_device,
                                       button_style="primary")
        self.pass_box = widgets.VBox([self.pass_html, hbox([self.pass_button])])
        self.pass_box.add_class("icg-passbox")
        self.pass_box.layout.display = "none"

    def _build_announce(self) -> None:
        self.announce = AnswerEntry(
            [("sum", "My sum"), ("abs", "Its absolute value |sum|")],
            on_check=self._check_announce, on_show_me=self._show_me,
            check_label="Check my sum")
        self.announce_done_button = make_button(
            "Turn up all the cards", self._finish_announce, button_style="primary",
            tooltip="turn every card face up and see who wins")
        self.announce_box = widgets.VBox([self.announce,
                                          hbox([self.announce_done_button])])
        self.announce_box.layout.display = "none"

    def _build_walkthrough(self) -> None:
        self.reveal_toggle = make_toggle(
            "Show every hand",
            "teacher: turn every face-down card up and show the computer players' reasons")
        self.reveal_toggle.observe(lambda ch: self.refresh(), names="value")
        self.next_move_button = make_button("Next move", self._next_move,
                                            tooltip="the next computer player makes one move")
        self.code_text = widgets.Text(description="Deal code", continuous_update=False,
                                      style={"description_width": "initial"})
        self.replay_button = make_button("Deal this code", self._replay_code,
                                         tooltip="start a new game from the deal code in the box")
        self.restart_button = make_button("Restart this deal", self._restart_deal,
                                          tooltip="deal this round again, the same cards, "
                                          "to try other choices")
        self.large_print_toggle = make_toggle("Large print", "bigger text for a projector",
                                              self.large_print)
        self.large_print_toggle.observe(self._large_print_changed, names="value")
        self.reasons_html = html_widget("")
        self.walk_box = widgets.VBox([
            html_widget('<div class="icg-title">Teacher walkthrough</div>'),
            hbox([self.reveal_toggle, self.next_move_button, self.restart_button,
                  self.large_print_toggle]),
            hbox([self.code_text, self.replay_button]),
            self.reasons_html,
        ])
        self.walk_box.add_class("icg-walkthrough")
        if self.ctl.walkthrough and hasattr(self, "deal_code"):
            self.code_text.value = format_code(self.deal_code)
        if not self.ctl.walkthrough:
            self.walk_box.layout.display = "none"

    @property
    def settings(self) -> SettingsPanel:
        """The settings panel, built on first use: most pages never open it, and its ~30 widget
        models would otherwise be sent to every page at start-up."""
        if self._settings is None:
            self._settings = self._build_settings()
            self._settings.set_values(self._settings_values)
            self._settings.layout.display = ("none" if self.settings_toggle.value is not True
                                             else None)
            self._layout_children()
        return self._settings

    def _build_settings(self) -> SettingsPanel:
        settings = SettingsPanel("Settings", "Apply and deal", on_apply=self._apply_settings)
        settings.add_field("players", "Players (2 to 8)", widgets.IntText(value=3),
                           lambda v: parse_int_setting(v, "players", 2, MAX_PLAYERS))
        settings.add_field("colors", "Colours", widgets.Dropdown(options=COLOR_OPTIONS),
                           lambda v: parse_choice(v, [c for _, c in COLOR_OPTIONS],
                                                  "colours"))
        settings.add_field("turn_order", "Turn order",
                           widgets.Dropdown(options=TURN_OPTIONS),
                           lambda v: parse_choice(v, [t for _, t in TURN_OPTIONS],
                                                  "turn order"))
        settings.add_field("ace_eleven", "Aces count 1 or 11", widgets.Checkbox(),
                           _parse_bool)
        settings.add_field("opponents", "Computer players",
                           widgets.Dropdown(options=[(f"{lv}", lv) for lv in LEVELS]),
                           lambda v: parse_choice(v, LEVELS, "computer players"))
        settings.add_field("mode", "Who plays",
                           widgets.Dropdown(options=[("one student (solo)", "solo"),
                                                     ("students pass the device",
                                                      "pass-device")]),
                           lambda v: parse_choice(v, MODES, "who plays"))
        settings.add_field("students", "Students at this screen (pass the device)",
                           widgets.IntText(value=1),
                           lambda v: parse_int_setting(v, "students", 1, MAX_PLAYERS))
        settings.add_field("seed", "Deal code (empty: new shuffle)",
                           widgets.Text(placeholder="e.g. 42 or class-5b"),
                           parse_deal_code)
        return settings

    def _layout_children(self) -> None:
        # the teacher controls exist only in walkthrough mode: a hidden widget still syncs,
        # and a page could "click" it
        self.children = self._children()

    def _children(self) -> list[widgets.Widget]:
        part = self.__dict__.get
        teacher = [part("walk_box")] if self.ctl.walkthrough else []
        return [w for w in [
            self.css, self.title_html, self.message, self.status_html, part("pass_box"),
            self.seats_html, self.actions_box, self.ace_box, self.hint, part("announce_box"),
            self.result_html, self.next_round_row, self.number_line,
            self.scores_html, self.move_log, *teacher, self.settings_toggle,
            *([self._settings] if self._settings is not None else []),
        ] if w is not None]

    def _show_settings(self) -> None:
        self.settings.layout.display = None if self.settings_toggle.value is True else "none"

    def _large_print_changed(self, change: Any = None) -> None:
        self._set_large_print(self.large_print_toggle.value is True)

    def _set_large_print(self, on: bool) -> None:
        self.large_print = on
        if on:
            self.add_class("icg-large")
        else:
            self.remove_class("icg-large")
        self.number_line.set_large(on)
        if LazyPart.built(self, "large_print_toggle") and self.large_print_toggle.value != on:
            self.large_print_toggle.value = on

    # ----- game set-up --------------------------------------------------------------------
    @_locked
    def _new_game(self, *, players: int, opponents: Any, seed: Any, mode: str, colors: str,
                  turn_order: str, ace_eleven: bool, students: int | None,
                  deck: str | None = None, code_typed: bool = False) -> None:
        """Make a new game (raises ConfigError on a bad setting; nothing changes then).

        `code_typed`: the person at the screen typed the deal code, so it is theirs to see
        during play; otherwise (outside walkthrough) it shows only once the round is over.
        """
        config = HitMeConfig(players=players, colors=colors, turn_order=turn_order,
                             ace_eleven=ace_eleven)
        if mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
        if mode == "solo":
            n_students = 1
        else:
            n_students = players if students is None else check_int(students, "students", 1,
                                                                     players)
        specs = self._opponent_specs(opponents, players - n_students)
        names = self._make_names(players, n_students, mode)
        # a deal nobody chose comes from 128 secret bits (a short code could be searched)
        code = seed if seed is not None else new_secret_seed()
        if isinstance(code, str):
            code = parse_deal_code(code)
            if code is None:
                code = new_secret_seed()
        game = HitMeGame(config, seed=code, deck=deck)
        # everything checked: replace the game
        self.ctl.new_generation()
        self.config = config
        self.mode = mode
        self.students = list(range(n_students))
        self.names = names
        self.opponent_specs = specs
        self.opponents = opponents
        self.deal_code = code
        self._bot_seed: int | str = code
        self.code_typed = bool(code_typed) and seed is not None
        self.game = game
        self.round_number = 1
        self._start_round()
        self._settings_values = {"players": players, "colors": config.colors.value,
                                  "turn_order": config.turn_order.value,
                                  "ace_eleven": config.ace_eleven,
                                  "opponents": opponents if opponents in LEVELS else "medium",
                                  "mode": mode,
                                  "seed": format_code(code) if self.code_open else "",
                                  "students": n_students}
        # the teacher's box exists only in walkthrough mode (a synced value is readable)
        if LazyPart.built(self, "code_text") or self.ctl.walkthrough:
            self.code_text.value = format_code(code) if self.ctl.walkthrough else ""
        if self._settings is not None:
            self._settings.set_values(self._settings_values)
            self._settings.message.clear()

    def _opponent_specs(self, opponents: Any, n: int) -> list[Any]:
        if isinstance(opponents, list | tuple):
            if len(opponents) != n:
                raise ConfigError(f"opponents: give one level or {n} specs; got {len(opponents)}")
            specs = list(opponents)
        else:
            specs = [opponents] * n
        from engine.bots import make_bot

        for s in specs:  # check each spec now, so a bad one is refused before anything changes
            if not hasattr(s, "choose"):
                try:
                    make_bot(str(s), "hit-me", 0)
                except Exception as e:  # noqa: BLE001
                    raise ConfigError(f"opponents: {e}") from e
        return specs

    def _make_names(self, players: int, n_students: int, mode: str) -> list[str]:
        given = self._names_arg
        if given is not None:
            if len(given) != players or not all(isinstance(n, str) and 0 < len(n.strip())
                                                <= MAX_NAME for n in given):
                raise ConfigError(f"names: give {players} names of 1 to {MAX_NAME} characters")
            return [n.strip() for n in given]
        if mode == "solo":
            people = ["You"]
        else:
            people = [f"Player {i + 1}" for i in range(n_students)]
        return people + [f"Computer {i + 1}" for i in range(players - n_students)]

    @_locked
    def _start_round(self) -> None:
        """Set up the views for the game's current round (just dealt)."""
        self.ctl.new_generation()
        bot_seats = [p for p in range(self.config.players) if p not in self.students]
        self.ctl.bots = make_bots(dict(zip(bot_seats, self.opponent_specs, strict=True)),
                                  "hit-me", f"{self._bot_seed}/round{self.round_number}")
        self.snapshot = self.game.to_json()
        self.phase = Phase.PLAY
        self.peeked = False
        self.holder: int | None = 0 if self.mode == "solo" else None
        self.announce_queue: list[int] = []
        self.announce_misses = 0
        self.announced: dict[int, str] = {}
        self.hint.clear()
        self.result_html.value = ""
        self.message.clear()
        if LazyPart.built(self, "announce"):
            self.announce.reset()
        self.refresh()
        self.ctl.run_bots()
        self.refresh()

    def _after_move(self) -> None:
        """Called after every move: start the announce step when the round is over."""
        if self.phase is Phase.PLAY and self.game.round.over:
            self.phase = Phase.ANNOUNCE
            self.announce_queue = list(self.students)
            self.announce_misses = 0
            self.announce.reset(self._announce_prompt())

    # ----- who is looking -----------------------------------------------------------------
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

    def observation(self) -> dict[str, Any]:
        """What the table may show now: the viewer's observation (pre-reveal while announcing)."""
        reveal = self.ctl.walkthrough and self.reveal_toggle.value is True
        return self.game.round.observation(self.viewer, reveal=reveal)

    # ----- rendering ----------------------------------------------------------------------
    def refresh(self) -> None:
        """Render every view from the current observation."""
        with self.ctl.lock:
            self._refresh()

    def _refresh(self) -> None:
        obs = self.observation()
        viewer = obs["viewer"]
        names = self.names
        pass_up = self.pass_screen
        # pass screen
        if pass_up:
            who = names[self.needed()]
            why = "to take a turn" if self.phase is Phase.PLAY else "to announce a sum"
            self.pass_html.value = (f'<div class="icg-pass" role="status">Pass the device to '
                                    f'{esc(who)} {why}. Everyone else: no peeking!</div>')
            self.pass_button.description = f"I am {who}: show my cards"
            self.pass_button.tooltip = f"{who} has the device now"
            self.pass_box.layout.display = None
            self.pass_button.disabled = False
        elif LazyPart.built(self, "pass_box"):
            self.pass_html.value = ""
            self.pass_box.layout.display = "none"
            self.pass_button.disabled = True
        # seats, number line, log
        peeked = self.peeked and viewer is not None
        self.seats_html.value = seats_html(obs, names, peeked=peeked)
        points, arrow, spans = number_line_parts(obs, names, peeked=peeked)
        self.number_line.show(points, arrow, spans)
        events = obs["events"]
        if not peeked and not obs["reveal"]:
            events = [{k: v for k, v in e.items() if k != "private"} for e in events]
        teacher_reveal = self.ctl.walkthrough and self.reveal_toggle.value is True
        self.move_log.set_lines([hit_me_story_line(e, names, viewer, teacher=teacher_reveal)
                                 for e in events])
        # buttons
        legal = {a["kind"] for a in obs["legal_actions"]} if viewer is not None else set()
        playing = self.phase is Phase.PLAY and not pass_up and viewer is not None
        self.hit_button.disabled = not (playing and "hit" in legal)
        self.hold_button.disabled = not (playing and "hold" in legal)
        self.peek_button.disabled = not (viewer is not None and self.phase is not Phase.REVEAL
                                         and not obs["reveal"])
        self.peek_button.description = ("Hide my face-down card" if self.peeked
                                         else "Peek at my face-down card")
        self.hint.button.disabled = not playing
        self.hint.layout.display = None if self.phase is Phase.PLAY and not pass_up else "none"
        self.actions_box.layout.display = None if self.phase is not Phase.REVEAL and \
            not pass_up else "none"
        shown = None if self.phase is Phase.PLAY else "none"
        self.hit_button.layout.display = self.hold_button.layout.display = shown
        self._render_aces(obs, self.phase is Phase.PLAY and not pass_up and viewer is not None)
        self.status_html.value = self._status_text(obs)
        # announce
        announcing = self.phase is Phase.ANNOUNCE and not pass_up and viewer is not None
        if announcing or LazyPart.built(self, "announce_box"):
            self.announce_box.layout.display = None if announcing else "none"
            self.announce.check_button.disabled = not announcing or viewer in self.announced
            self.announce_done_button.disabled = not (announcing and viewer in self.announced)
            more = len(self.announce_queue) > 1
            self.announce_done_button.description = ("Done: pass to the next student" if more
                                                     else "Turn up all the cards")
        # results
        reveal_phase = self.phase is Phase.REVEAL
        self.next_round_button.disabled = not reveal_phase
        self.next_round_button.layout.display = None if reveal_phase else "none"
        self.result_html.value = self._result_text(obs) if reveal_phase else ""
        self.scores_html.value = score_table_html(names, self.game.wins, self.game.ties)
        # walkthrough
        if self.ctl.walkthrough or LazyPart.built(self, "walk_box"):
            self.walk_box.layout.display = None if self.ctl.walkthrough else "none"
            self.next_move_button.disabled = not (self.ctl.walkthrough
                                                  and self.phase is Phase.PLAY
                                                  and self.ctl.bot_to_move() is not None)
            self.reasons_html.value = self._reasons_text(obs)

    def _render_aces(self, obs: dict[str, Any], active: bool) -> None:
        viewer = obs["viewer"]
        if not self.config.ace_eleven or viewer is None:
            self._ace_cards = []
            self.ace_box.children = ()
            return
        seat = obs["seats"][viewer]
        cards = list(seat["face_up"])
        if self.peeked and not seat["face_down"].get("hidden"):
            cards.insert(0, seat["face_down"])
        aces = [c for c in cards if c.get("rank") == 1]
        # the buttons are kept and relabelled in place (no new widget on every refresh)
        while len(self._ace_buttons) < len(aces):
            i = len(self._ace_buttons)
            self._ace_buttons.append(make_button("ace", lambda i=i: self._click_ace(i)))
        self._ace_cards = aces
        for c, b in zip(aces, self._ace_buttons, strict=False):
            now = abs(c["value"])
            other = 1 if now == 11 else 11
            sign = 1 if c["value"] > 0 else -1
            b.description = (f"{c['label']}{c['symbol']} counts {signed(sign * now)}: "
                             f"make it {signed(sign * other)}")
            b.tooltip = f"{card_name(c)}: count it as {signed(sign * other)} instead"
            b.disabled = not active
        self.ace_box.children = tuple(self._ace_buttons[:len(aces)])

    def _click_ace(self, i: int) -> None:
        if not 0 <= i < len(self._ace_cards):
            return
        c = self._ace_cards[i]
        self._choose_ace(c, abs(c["value"]) != 11)

    def _status_text(self, obs: dict[str, Any]) -> str:
        names = self.names
        if self.phase is Phase.REVEAL:
            text = "The round is over: every card is face up."
        elif self.phase is Phase.ANNOUNCE:
            text = "Every player has held or has 7 cards. Before the cards turn up, " \
                   "announce your sum."
        else:
            cur = obs["current_player"]
            if cur is None:
                text = ""
            elif cur == obs["viewer"]:
                who = f", {names[cur]}" if self.mode == "pass-device" else ""
                text = f"Your turn{who}: hit or hold?"
                if not self.peeked:
                    text += " (Peek at your face-down card first.)"
            elif cur in self.students:
                text = f"{names[cur]}'s turn."
            elif self.ctl.walkthrough:
                text = f"{self._bot_name(cur)} is next: press Next move."
            else:
                text = f"{self._bot_name(cur)} is thinking\u2026"
        info = [f"Round {self.round_number}", f"dealer {names[obs['dealer']]}"]
        if self.phase is Phase.PLAY and obs["current_player"] is not None:
            info.append(f"pass {obs['pass_number']} of 5 round the table")
        if self.code_open:
            info.append(f"deal code {format_code(self.deal_code)}")
        return (f'<div role="status"><div class="icg-status-now">{esc(text)}</div>'
                f'<div class="icg-status-info">{esc(", ".join(info))}.</div></div>')

    def _bot_name(self, seat: int) -> str:
        """'Computer 1', or 'Ben (computer)' when a given name does not say so."""
        name = self.names[seat]
        return name if "computer" in name.lower() else f"{name} (computer)"

    def _reasons_text(self, obs: dict[str, Any]) -> str:
        if not self.ctl.walkthrough:
            return ""
        if not obs["reveal"]:
            return ('<div class="icg-reason">Turn on "Show every hand" to see why the computer '
                    'players move as they do (their reasons give away their cards).</div>')
        rows = [f"<li><b>{esc(self.names[m.seat])}</b> chose {esc(str(m.action).lower())}: "
                f"\u201c{esc(m.reason)}\u201d</li>" for m in self.ctl.bot_moves[-8:]]
        if not rows:
            return '<div class="icg-reason">No computer moves yet.</div>'
        return ('<div class="icg-reason">Computer players\' reasons (latest last):<ul>'
                f'{"".join(rows)}</ul></div>')

    def _result_text(self, obs: dict[str, Any]) -> str:
        res = obs["result"]
        if not res:
            return ""
        names = self.names
        w = res["winners"]
        score = res["scores"][w[0]]
        if len(w) == 1:
            head = _("{name} wins the round: |sum| = {score} is the closest to zero.").format(
                name=names[w[0]], score=score)
        else:
            head = _("Tie: {who} are co-winners, each with |sum| = {score}.").format(
                who=join_names(names, w), score=score)
        line = _("sum {sum}, {abs}")
        rows = "".join(
            f"<li>{esc(names[p])}: "
            f"{esc(line.format(sum=signed(res['sums'][p]), abs=abs_math(res['sums'][p])))}</li>"
            for p in range(len(names)))
        nxt = names[self.game.next_dealer()]
        return (f'<div class="icg-msg icg-msg-celebrate" role="status">{esc(head)}</div>'
                f"<ul>{rows}</ul><div>{esc(_('Next dealer: {name}.').format(name=nxt))}</div>"
                f"{self._replay_text()}")

    def _replay_text(self) -> str:
        """After a round: the code that deals this game again (round 1 onwards)."""
        if self.code_open:
            return ""
        where = "this deal" if self.round_number == 1 else "round 1 of this game"
        return (f"<div>Replay {where}: deal code <b>{esc(format_code(self.deal_code))}</b> "
                "(type it in Settings, Deal code).</div>")

    def _announce_prompt(self) -> str:
        who = self.needed()
        name = self.names[who] if who is not None else ""
        return (f"<div><b>{esc(name)}</b>, before the cards turn up: what is your sum, and "
                "how far is it from zero? Peek at your face-down card, then use the keys or "
                "type; the \u2212 key makes a number negative.</div>")

    # ----- handlers ---------------------------------------------------------------------
    def _take_device(self) -> None:
        with self.ctl.lock:
            if not self.pass_screen:
                return
            self.holder = self.needed()
            self.peeked = False
            self.hint.clear()
            if self.phase is Phase.ANNOUNCE:
                self.announce_misses = 0
                self.announce.reset(self._announce_prompt())
        self.refresh()

    @_locked
    def _toggle_peek(self) -> None:
        if self.viewer is None or self.phase is Phase.REVEAL:
            return
        self.peeked = not self.peeked
        self.refresh()

    def _hit(self) -> None:
        self._human(Hit())

    def _hold(self) -> None:
        self._human(Hold())

    def _human(self, action: Any) -> None:
        v = self.viewer
        if v is None or self.phase is not Phase.PLAY or self.game.round.current != v:
            self.message.show("It is not your turn.", "error")
            return
        self.hint.clear()
        self.message.clear()
        self.ctl.human_move(action, v)

    def _choose_ace(self, card: dict[str, Any], high: bool) -> None:
        v = self.viewer
        rnd = self.game.round
        if v is None or self.phase is Phase.REVEAL:
            return
        if rnd.over:  # the round ended: choices are fixed now (the engine allows none)
            self.message.show("The round is over: aces stay as they are.", "error")
            return
        self.ctl.human_move(ChooseAce(card_from_json(card["key"]), high), v)

    def _hint_text(self) -> str:
        if self.viewer is None or self.phase is not Phase.PLAY:
            return "Hints are for your own turn."
        if not self.peeked:
            return "Peek at your face-down card first: the hint works with your whole sum."
        return hit_me_hint(self.game.round.observation(self.viewer), self.names)

    def _next_move(self) -> None:
        if self.ctl.walkthrough and self.phase is Phase.PLAY:
            self.ctl.step()

    @_locked
    def _check_announce(self, answers: dict[str, int | None]) -> None:
        v = self.viewer
        if self.phase is not Phase.ANNOUNCE or v is None or v in self.announced:
            return
        values = self.game.round.observation(v)["seats"][v]["values"]
        ok, text = announce_feedback(values, answers.get("sum"), answers.get("abs"))
        if ok:
            self.announced[v] = "right"
            self.announce.feedback(text, "ok")
            self.announce.lock()
        else:
            if answers.get("sum") is not None and answers.get("abs") is not None:
                self.announce_misses += 1
            self.announce.feedback(text, "error")
            if self.announce_misses >= 2:
                self.announce.offer_show_me(True)
        self.refresh()

    @_locked
    def _show_me(self) -> None:
        v = self.viewer
        if self.phase is not Phase.ANNOUNCE or v is None or self.announce_misses < 2:
            return
        values = self.game.round.observation(v)["seats"][v]["values"]
        total = sum(values)
        self.announced[v] = "shown"
        self.announce.feedback(f"Here it is: {sum_math(values)}, and {abs_math(total)}.", "info")
        self.announce.lock()
        self.refresh()

    def _finish_announce(self) -> None:
        with self.ctl.lock:
            v = self.viewer
            if self.phase is not Phase.ANNOUNCE or v is None or v not in self.announced:
                return
            if self.announce_queue and self.announce_queue[0] == v:
                self.announce_queue.pop(0)
            self.announce_misses = 0
            if self.announce_queue:
                self.announce.reset(self._announce_prompt())
            else:
                self.game.finish_round()  # the engine's Reveal step turns every card up
                self.phase = Phase.REVEAL
        self.refresh()

    @property
    def code_open(self) -> bool:
        """May the deal code show during play? In walkthrough, or when the user typed it."""
        return self.ctl.walkthrough or self.code_typed

    @_locked
    def _next_round(self) -> None:
        if self.phase is not Phase.REVEAL:
            return
        if not self.code_open:
            # The code was shown at the end of this round; it must not predict the next one,
            # so the later rounds of a self-study game come from a fresh, unshown shuffle
            # (128 secret bits, as a first deal; the computer players' choices too).
            self.game.rng = random.Random(new_secret_seed())
            self._bot_seed = new_secret_seed()
        self.game.next_round()
        self.round_number += 1
        self._start_round()

    def _replay_code(self) -> None:
        if not self.ctl.walkthrough:
            return
        try:
            code = parse_deal_code(self.code_text.value)
        except ValueError as e:
            self.message.show(f"Deal code: {e}", "error")
            return
        if code is None:
            self.message.show("Deal code: type a number or a word first.", "error")
            return
        self._rebuild(seed=code, code_typed=True)
        self.message.show(f"New game from deal code {format_code(code)}.", "ok")

    @_locked
    def _restart_deal(self) -> None:
        if not self.ctl.walkthrough:
            return
        self.game = HitMeGame.from_json(self.snapshot)
        self._start_round()
        self.message.show("The same deal again: try other choices.", "ok")

    def _rebuild(self, **changes: Any) -> None:
        cfg = self.config
        args: dict[str, Any] = {
            "players": cfg.players, "opponents": self.opponents, "seed": self.deal_code,
            "mode": self.mode, "colors": cfg.colors.value, "turn_order": cfg.turn_order.value,
            "ace_eleven": cfg.ace_eleven,
            "students": len(self.students) if self.mode == "pass-device" else None,
            "code_typed": self.code_typed,
        }
        args.update(changes)
        self._new_game(**args)

    def _apply_settings(self, values: dict[str, Any]) -> str | None:
        if values["players"] != self.config.players:
            self._names_arg = None  # given names fit the old number of players
        students = None
        if values["mode"] == "pass-device":
            students = values["students"]
            if students > values["players"]:
                return (f"Students at this screen: at most the number of players "
                        f"({values['players']}); got {students}")
        self._rebuild(players=values["players"], colors=values["colors"],
                      turn_order=values["turn_order"], ace_eleven=values["ace_eleven"],
                      opponents=values["opponents"], mode=values["mode"], seed=values["seed"],
                      students=students, code_typed=values["seed"] is not None)
        return None
