"""The Flapjack table: one student (seat 0) against computer players, or a teacher walkthrough.

    from widgets.flapjack_table import FlapjackTable
    FlapjackTable(players=3, opponents="medium", variant="classic", seed=1234)

The table owns one `FlapjackState` through a `TableController` (widgets/controller.py) and
renders only observations: the student's own view, or every hand when a teacher turns on
"Show every hand" in walkthrough mode (and at the end of the game). The student's hand is a row of
real buttons, one per card ("7♦ -7"); cards that would break the limit are disabled with the
reason in their label. In "add or subtract" a chosen card offers Add and Subtract buttons, only
the legal ones enabled. With `say_total=True` the student types the new total before it is
shown (feedback with the arithmetic, "Show me" after a second miss).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from engine.cards import Card
from engine.errors import ConfigError, IllegalActionError, Reason, Why
from engine.flapjack import VARIANTS, FlapjackConfig, FlapjackState, Play
from widgets import render_flapjack as rf
from widgets import words
from widgets.components import (
    MINUS,
    AnswerEntry,
    HintBox,
    LazyPart,
    MessageArea,
    MoveLog,
    NumberLine,
    SettingError,
    SettingsPanel,
    card_button,
    hbox,
    html_widget,
    make_button,
    make_toggle,
    parse_choice,
    parse_deal_code,
    shared_layout,
    style_widget,
    update_card_button,
)
from widgets.controller import TableController, make_bots
from widgets.deal_codes import format_code, new_secret_seed

log = logging.getLogger(__name__)

YOU = 0  # the student's seat (seat 0 deals, so the computer player on the left leads)
LEVELS = ("easy", "medium", "hard")
BOT_SPECS = ("random", "greedy", "expert")
SPEC_LEVEL = {"random": "easy", "greedy": "medium", "expert": "hard"}
COLOR_OPTIONS = [("Black positive, red negative", "black-positive"),
                 ("Red positive, black negative", "red-positive")]
VARIANT_OPTIONS = [("Classic: -13 to +13, Flapjack at -13, 0, +13", "classic"),
                   ("Simple ten: no face cards, -10 to +10", "simple-ten"),
                   ("Add or subtract: 0 to 13, Flapjack at 0 or 13", "add-or-subtract")]
LEVEL_OPTIONS = [("Easy (plays any legal card)", "easy"),
                 ("Medium (takes a Flapjack when it can)", "medium"),
                 ("Hard (counts the cards already seen)", "hard")]
MAX_NAME = 30


def _check_opponents(value: Any, players: int) -> tuple[Any, ...]:
    """One bot spec (level or bot name, or a bot object) per computer player."""
    allowed = LEVELS + BOT_SPECS
    items = [value] * (players - 1) if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not items:
        raise ConfigError(f"opponents must be one of {', '.join(allowed)} (or a list of them, "
                          f"one per computer player); got {value!r}")
    out = []
    for item in items:
        if hasattr(item, "choose"):  # a bot object (engine.bots or a scripted test player)
            out.append(item)
            continue
        text = str(item).strip().lower()
        if text not in allowed:
            raise ConfigError(f"opponents must be one of {', '.join(allowed)}; got {item!r}")
        out.append(text)
    if len(out) == 1:
        out = out * (players - 1)
    if len(out) != players - 1:
        raise ConfigError(f"opponents: give one level for all or one per computer player "
                          f"({players - 1}); got {len(out)}")
    return tuple(out)


def _check_names(names: Any, players: int) -> list[str] | None:
    if names is None:
        return None
    if isinstance(names, str) or not isinstance(names, list | tuple):
        raise ConfigError(f"names must be a list of {players} names; got {names!r}")
    out = []
    for n in names:
        text = str(n).strip()
        if not text or len(text) > MAX_NAME:
            raise ConfigError(f"each name must be 1 to {MAX_NAME} characters; got {n!r}")
        out.append(text)
    if len(set(out)) != len(out):
        raise ConfigError("names must be different from each other")
    return out


def fresh_code() -> int:
    """A deal code for a deal nobody chose: 128 bits from the system's entropy (a short code
    could be found by trying them all; see widgets/deal_codes.py)."""
    return new_secret_seed()


class _Controller(TableController):
    """The TableController of one FlapjackTable (the state and the pacing of the bots)."""

    def __init__(self, table: FlapjackTable, bot_delay: float, walkthrough: bool) -> None:
        super().__init__(bot_delay=bot_delay, walkthrough=walkthrough)
        self.table = table
        self.game: FlapjackState | None = None

    @property
    def state(self) -> FlapjackState | None:
        return self.game

    def refresh(self) -> None:
        self.table.refresh()

    def on_error(self, message: str) -> None:
        self.table.message.show(message, "error")


class FlapjackTable(widgets.VBox):
    """A Flapjack table. Keywords: players (2-8), opponents ('easy'/'medium'/'hard' or a bot:
    'random'/'greedy'/'expert', or one per computer player), variant ('classic', 'simple-ten',
    'add-or-subtract'), decks, colors ('black-positive'/'red-positive'), seed (the deal code;
    None = a fresh shuffle), walkthrough (teacher mode), large_print, names (one per seat, the
    student first), say_total (type the new total before it is shown), bot_delay (seconds
    between computer moves; 0 = at once), deck (a stacked deck such as 'KS,7H,...', top first,
    dealt one card at a time from seat 1; kept by "Restart this deal"), teacher_controls
    (False: no "Teacher walkthrough", "Show every hand" or "Restart this deal" on the page, for
    self-study where the student must not be able to turn the other hands up or replay a deal;
    on a served page, a table with them goes behind the teacher's key: widgets/teacher_key.py)."""

    def __init__(
        self,
        players: int = 2,
        opponents: str | Sequence[str] = "medium",
        variant: str = "classic",
        decks: int = 1,
        colors: str = "black-positive",
        seed: int | str | None = None,
        walkthrough: bool = False,
        large_print: bool = False,
        names: Sequence[str] | None = None,
        say_total: bool = False,
        bot_delay: float = 0.8,
        deck: str | None = None,
        teacher_controls: bool = True,
    ) -> None:
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, int | float) or \
                not 0 <= bot_delay <= 10:
            raise ConfigError(f"bot_delay must be a number of seconds 0 to 10; got {bot_delay!r}")
        for flag, label in ((walkthrough, "walkthrough"), (large_print, "large_print"),
                            (say_total, "say_total"), (teacher_controls, "teacher_controls")):
            if not isinstance(flag, bool):
                raise ConfigError(f"{label} must be True or False; got {flag!r}")
        config = FlapjackConfig(players=players, decks=decks, colors=colors, variant=variant)
        try:
            code = parse_deal_code(seed)
        except SettingError as e:
            raise ConfigError(str(e)) from None
        self._opponents = _check_opponents(opponents, config.players)
        self._names_given = _check_names(names, config.players)
        if self._names_given is not None and len(self._names_given) != config.players:
            raise ConfigError(f"names must give one name per player ({config.players}); "
                              f"got {len(self._names_given)}")
        self.say_total = say_total
        self.teacher_controls = teacher_controls
        self.controller = _Controller(self, float(bot_delay), walkthrough)
        self.config = config
        self.deal_code: int | str = 0
        self.code_typed = False  # the person at the screen typed the deal code in Settings
        if deck is not None and not isinstance(deck, str):
            raise ConfigError(f"deck must be card codes such as 'KS,7H,10C'; got {deck!r}")
        FlapjackState.deal(config, rng=0, deck=deck)  # a bad stacked deck is refused here
        if code is None:
            code = fresh_code()
        self._deck = deck
        self._deck_code = code
        self.names: list[str] = rf.seat_names(config.players, self._names_given)
        self._selected: str | None = None  # add-or-subtract: the card waiting for + or -
        self._pending: tuple[str, int] | None = None  # say-total: (card key, sign) to check
        self._misses = 0
        self._banner_from = 0
        self._build()
        super().__init__(self._layout(), _dom_classes=(
            "icg-root", "icg-flapjack", *(["icg-large"] if large_print else [])))
        self.large_toggle.value = large_print
        self._sync_settings()
        self.new_game(code)

    # ----- widgets ------------------------------------------------------------------------
    def _build(self) -> None:
        self.header = html_widget("", ["icg-fj-header"])
        self.banner = html_widget("", ["icg-fj-banner-box"])
        self.status = html_widget("", ["icg-fj-status"])
        self.message = MessageArea()
        self.seats = html_widget("", ["icg-fj-seats"])
        self.table_view = html_widget("", ["icg-fj-tableview"])
        self.number_line = NumberLine("Running total")
        self.hand_title = html_widget("<b>Your hand</b>")
        self.card_buttons: list[widgets.Button] = []
        self._hand_keys: list[str] = []
        self.hand_box = widgets.HBox([], layout=shared_layout(flex_flow="row wrap"))
        self.hint = HintBox(self._hint_text)
        self.hint.layout.align_items = "flex-start"
        self.next_button = make_button("Next move", self._next_move,
                                       tooltip="let the next computer player make one move",
                                       button_style="primary", own_layout=True)
        if self.teacher_controls:
            self._build_switches()
        self.large_toggle = make_toggle("Large print", "bigger text for a projector")
        self.new_deal_button = make_button("New deal", lambda: self.new_game(None),
                                           tooltip="shuffle and deal with a fresh deal code")
        self.large_toggle.observe(self._on_large, names="value")
        self.reasons = html_widget("", ["icg-fj-reasons-box"])
        self.move_log = MoveLog("Move log")
        self.settings_toggle = make_toggle("Settings", "show or hide the settings")
        self.settings_toggle.observe(self._show_settings, names="value")
        self.css = html_widget(f"<style>{rf.FLAPJACK_CSS}</style>", ["icg-style"])
        self.base_css = style_widget()
        switches = ([self.walkthrough_toggle, self.reveal_toggle] if self.teacher_controls
                    else [])
        restart = [self.restart_button] if self.teacher_controls else []
        self.teacher_box = widgets.HBox([*switches, self.next_button, self.large_toggle,
                                         *restart, self.new_deal_button],
                                        layout=shared_layout(flex_flow="row wrap"))

    # Parts made on first use (LazyPart): the Add / Subtract choice exists only in the
    # add-or-subtract variant, the new-total practice only when it is on; every widget made is
    # a model sent to the page at load time.
    (sign_prompt, add_button, subtract_button, cancel_sign_button,
     sign_box) = LazyPart.group("_build_signs", 5)
    practice, cancel_practice_button, practice_box = LazyPart.group("_build_practice", 3)

    def _build_signs(self) -> None:
        self.sign_prompt = html_widget("")
        self.add_button = make_button("+ Add", lambda: self._choose_sign(1))
        self.subtract_button = make_button(f"{MINUS} Subtract", lambda: self._choose_sign(-1))
        self.cancel_sign_button = make_button("Choose another card", self._cancel,
                                              tooltip="put the card back and choose again")
        self.sign_box = widgets.VBox([self.sign_prompt, hbox(
            [self.add_button, self.subtract_button, self.cancel_sign_button])])
        self.sign_box.layout.display = "none"

    def _build_practice(self) -> None:
        self.practice = AnswerEntry([("total", "New total")], on_check=self._check_total,
                                    on_show_me=self._show_me, check_label="Check the new total")
        self.cancel_practice_button = make_button("Choose another card", self._cancel,
                                                  tooltip="put the card back and choose again")
        self.practice_box = widgets.VBox([self.practice, self.cancel_practice_button])
        self.practice_box.layout.display = "none"
        self.practice_box.layout.align_items = "flex-start"

    # The settings panel (about 30 models) is made the first time it is opened (or read).
    (settings, players_field, variant_field, decks_field, colors_field, level_field, code_field,
     say_field) = LazyPart.group("_build_settings", 8)

    def _build_settings(self) -> None:
        self.settings = SettingsPanel("Settings", "Apply and deal", self._apply_settings)
        s = self.settings
        self.players_field = s.add_field(
            "players", "Players", widgets.Dropdown(options=[(str(n), n) for n in range(2, 9)]),
            lambda v: parse_choice(v, list(range(2, 9)), "players"))
        self.variant_field = s.add_field(
            "variant", "Variant", widgets.Dropdown(options=VARIANT_OPTIONS),
            lambda v: parse_choice(v, list(VARIANTS), "variant"))
        self.decks_field = s.add_field(
            "decks", "Decks", widgets.Dropdown(options=[(str(n), n) for n in range(1, 5)]),
            lambda v: parse_choice(v, [1, 2, 3, 4], "decks"))
        self.colors_field = s.add_field(
            "colors", "Colours", widgets.Dropdown(options=COLOR_OPTIONS),
            lambda v: parse_choice(v, [c for _, c in COLOR_OPTIONS], "colours"))
        self.level_field = s.add_field(
            "opponents", "Computer players", widgets.Dropdown(options=self._level_options()),
            lambda v: parse_choice(v, [c for _, c in self._level_options()], "computer players"))
        self.code_field = s.add_field(
            "seed", "Deal code", widgets.Text(placeholder="empty: a fresh shuffle"),
            parse_deal_code)
        self.say_field = s.add_field(
            "say_total", "Say the new total (practice)", widgets.Checkbox(),
            lambda v: parse_choice(v, [True, False], "say the new total"))
        s.set_values(self._settings_values())
        s.layout.display = None if self.settings_toggle.value is True else "none"

    def _show_settings(self, change: Any = None) -> None:
        self.settings.layout.display = None if self.settings_toggle.value is True else "none"

    # The teacher's switches and "Restart this deal" exist only with teacher_controls (a
    # self-study page has none: a switch, even hidden, would be a synced value a page could
    # change, and a restart would replay the deal after the other hands were seen).
    walkthrough_toggle, reveal_toggle, restart_button = LazyPart.group("_build_switches", 3)

    def _build_switches(self) -> None:
        self.walkthrough_toggle = make_toggle(
            "Teacher walkthrough",
            "step through the computer players' moves one at a time, with reasons",
            self.controller.walkthrough)
        self.reveal_toggle = make_toggle(
            "Show every hand",
            "show every player's hand and the computer players' reasons (teacher)", True,
            own_layout=True)
        self.walkthrough_toggle.observe(self._on_walkthrough, names="value")
        self.reveal_toggle.observe(lambda _ch: self.refresh(), names="value")
        self.restart_button = make_button("Restart this deal", self.restart,
                                          tooltip="deal the same cards again from the start")

    def _hide_part(self, name: str) -> None:
        """Hide a part made on first use, if it was made."""
        if LazyPart.built(self, name):
            getattr(self, name).layout.display = "none"

    def _layout(self) -> list[widgets.Widget]:
        part = self.__dict__.get
        return [w for w in [
            self.base_css, self.css, self.header, self.banner, self.status, self.message,
            self.seats, self.table_view, self.number_line, self.hand_title, self.hand_box,
            part("sign_box"), part("practice_box"), self.hint, self.teacher_box, self.reasons,
            self.move_log, self.settings_toggle, part("settings")] if w is not None]

    def _layout_children(self) -> None:
        self.children = self._layout()

    def _level_options(self) -> list[tuple[str, str]]:
        opts = list(LEVEL_OPTIONS)
        if len({str(o) for o in self._opponents}) > 1 or not isinstance(self._opponents[0], str):
            opts.append(("Mixed (as set in the notebook)", "mixed"))
        return opts

    def _settings_values(self) -> dict[str, Any]:
        """The table's current settings, as the settings panel shows them."""
        ops = self._opponents
        if len({str(o) for o in ops}) > 1 or not isinstance(ops[0], str):
            level = "mixed"
        else:
            level = SPEC_LEVEL.get(ops[0], ops[0])
        return {
            "players": self.config.players, "variant": self.config.variant,
            "decks": self.config.decks if self.config.decks <= 4 else 1,
            "colors": self.config.colors.value, "opponents": level,
            "seed": format_code(self.deal_code) if self.code_open else "",
            "say_total": self.say_total,
        }

    def _sync_settings(self) -> None:
        """Show the table's current settings in the settings panel (if it was made)."""
        if LazyPart.built(self, "settings"):
            self.settings.set_values(self._settings_values())

    def _sync_code(self) -> None:
        if LazyPart.built(self, "settings"):
            self.settings.set_values({"seed": format_code(self.deal_code) if self.code_open
                                      else ""})

    # ----- games ----------------------------------------------------------------------------
    @property
    def state(self) -> FlapjackState:
        """The game being played (for tests and teachers; views never render it directly)."""
        assert self.controller.game is not None
        return self.controller.game

    def new_game(self, code: int | str | None = None) -> None:
        """Deal a new game with the current settings; `code` None = a fresh deal code."""
        if code is None:
            code = fresh_code()
        deck = self._deck if self._deck is not None and code == self._deck_code else None
        state = FlapjackState.deal(self.config, rng=code, deck=deck)
        c = self.controller
        c.new_generation()
        c.game = state
        c.bots = make_bots({seat: self._opponents[seat - 1]
                            for seat in range(1, self.config.players)}, "flapjack", code)
        self.deal_code = code
        self._selected = None
        self._pending = None
        self._misses = 0
        self._banner_from = 0
        self.message.clear()
        self.hint.clear()
        if LazyPart.built(self, "practice"):
            self.practice.reset()
        self._hide_part("practice_box")
        self._hide_part("sign_box")
        self._sync_code()
        self.refresh()
        c.run_bots()

    @property
    def code_open(self) -> bool:
        """May the deal code show during play? In walkthrough, or when the user typed it.

        In self-study the code would let a student recompute the hidden hands (the engine is
        open source), so it shows only once the game is over."""
        return self.controller.walkthrough or self.code_typed

    def restart(self) -> None:
        """The same deal again, from the start (same code, same settings): a teacher's control
        (a student who saw the other hands could replay the deal knowing them)."""
        if not self.teacher_controls:
            self.message.show("Restarting a deal is one of the teacher's controls.", "error")
            return
        self.new_game(self.deal_code)

    def _apply_settings(self, values: dict[str, Any]) -> str | None:
        try:
            config = FlapjackConfig(players=values["players"], decks=values["decks"],
                                    colors=values["colors"], variant=values["variant"])
            level = values["opponents"]
            opponents = self._opponents if level == "mixed" else (level,)
            opponents = _check_opponents(
                list(opponents) if len(opponents) == config.players - 1 else opponents[0],
                config.players)
        except ConfigError as e:
            return str(e)
        if config != self.config:
            self._deck = None
        self.config = config
        self._opponents = opponents
        self.names = rf.seat_names(config.players, self._names_given)
        self.say_total = bool(values["say_total"])
        self.code_typed = values["seed"] is not None
        self.new_game(values["seed"])
        return None

    # ----- what the student does ----------------------------------------------------------
    def _my_turn(self) -> bool:
        st = self.controller.game
        return st is not None and not st.over and st.current == YOU

    def _hand(self) -> list[Card]:
        return list(self.state.hands[YOU])

    def _card(self, key: str) -> Card | None:
        for c in self._hand():
            if c.key == key:
                return c
        return None

    def _signs(self) -> tuple[int, ...]:
        return (1, -1) if self.config.add_or_subtract else (1,)

    def _why_data(self, card: Card, sign: int) -> Why | None:
        """Why the student may not play `card` with `sign` now, as data (None: allowed)."""
        st = self.state
        if st.over:
            return Why(Reason.GAME_OVER)
        if st.current != YOU:
            return Why(Reason.NOT_YOUR_TURN, {"current": st.current, "seat": YOU})
        return st.why_illegal(YOU, card, sign)

    def _why(self, card: Card, sign: int) -> str | None:
        """The same in words (None: allowed)."""
        why = self._why_data(card, sign)
        return None if why is None else words.reason_text(why, self.config.add_or_subtract,
                                                          viewer=YOU)

    def _card_reason(self, card: Card) -> str | None:
        """Why a card cannot be played at all now, in words (None: some way is legal)."""
        whys = [self._why(card, s) for s in self._signs()]
        if any(w is None for w in whys):
            return None
        if len(whys) == 1 or whys[0] == whys[1]:
            return whys[0]
        return words.both_ways_refused(whys[0], whys[1])

    def _short_reason(self, card: Card, reason: str) -> str:
        """The reason a card is disabled, short enough for its button ('would make -15, less
        than -13'; add or subtract: 'would make 23 or -3, outside 0 to 13')."""
        found = [self._why_data(card, s) for s in self._signs()]
        if not all(w is not None and w.reason is Reason.LIMIT_EXCEEDED for w in found):
            return reason
        aos = self.config.add_or_subtract
        if len(found) == 1:
            return words.limit_short(found[0], aos)
        return words.limit_short_both([w["total"] for w in found], self.config.low,
                                      self.config.high, aos)

    def click_card(self, key: str) -> None:
        """The student chose a card (the same as clicking its button)."""
        if not self._my_turn():
            self.message.show("Wait for your turn.", "error")
            return
        card = self._card(key)
        if card is None:
            self.message.show("That card is not in your hand.", "error")
            return
        reason = self._card_reason(card)
        if reason:
            self.message.show(f"You cannot play {card.short} now: {reason}.", "error")
            return
        self.message.clear()
        if self.config.add_or_subtract:
            self._selected = key
            self._pending = None
            self._hide_part("practice_box")
            self.refresh()
            return
        self._commit(key, 1)

    def _choose_sign(self, sign: int) -> None:
        key = self._selected
        card = self._card(key) if key else None
        if card is None or not self._my_turn():
            self.message.show("Choose a card first.", "error")
            return
        why = self._why(card, sign)
        if why:
            self.message.show(f"You cannot {'add' if sign > 0 else 'subtract'} "
                              f"{card.short} now: {why}.", "error")
            return
        self._selected = None
        self._commit(key, sign)

    def _cancel(self) -> None:
        self._selected = None
        self._pending = None
        if LazyPart.built(self, "practice"):
            self.practice.reset()
        self._hide_part("practice_box")
        self.refresh()

    def _commit(self, key: str, sign: int) -> None:
        if self.say_total:
            self._pending = (key, sign)
            self._misses = 0
            card = self._card(key)
            assert card is not None
            view = self._card_view(card)
            self.practice.reset(rf.practice_prompt_html(
                self.state.total, view, sign, self.config.add_or_subtract))
            self.practice_box.layout.display = None
            self.cancel_practice_button.disabled = False
            self.hint.clear()
            self.refresh()
            return
        self._play(key, sign)

    def _play(self, key: str, sign: int) -> str | None:
        card = self._card(key)
        if card is None:
            self.message.show("That card is not in your hand.", "error")
            return "not in hand"
        st = self.state
        self._banner_from = len(st.events)
        self._selected = None
        self._pending = None
        self.hint.clear()
        return self.controller.human_move(Play(card, sign), YOU)

    def _card_view(self, card: Card) -> dict[str, Any]:
        for v in self.state.observation(YOU)["seats"][YOU]["hand"]:
            if v["key"] == card.key:
                return v
        raise IllegalActionError(Reason.NOT_IN_HAND, card=card.code, seat=YOU)

    # ----- say the new total --------------------------------------------------------------
    def _expected(self) -> tuple[int, int, int] | None:
        if self._pending is None:
            return None
        key, sign = self._pending
        card = self._card(key)
        if card is None:
            return None
        before = self.state.total
        delta = sign * self.config.value(card)
        return before, delta, before + delta

    def _check_total(self, answers: dict[str, int | None]) -> None:
        nums = self._expected()
        if nums is None or not self._my_turn():
            self.practice.feedback("Choose a card first.", "error")
            return
        before, delta, after = nums
        aos = self.config.add_or_subtract
        typed = answers.get("total")
        if typed is None:
            self.practice.feedback("Type a whole number, such as -5 or 7 (the "
                                   f"{MINUS} key makes it negative).", "error")
            return
        if typed == after:
            self.practice.feedback(f"Right! {rf.play_math(before, delta, aos)}", "ok")
            self._finish_practice()
            return
        self._misses += 1
        question = rf.play_question(before, delta, aos).rsplit("=", 1)[0].strip()
        hint = rf.direction_hint(before, delta, aos)
        if self._misses == 1:
            self.practice.feedback(f"Not quite: {question} is not {rf.total_text(typed, aos)}. "
                                   f"{hint} Try again.", "error")
        else:
            self.practice.feedback(f"Not yet: {question} is not {rf.total_text(typed, aos)}. "
                                   f"{hint} Try once more, or press Show me.", "error")
            self.practice.offer_show_me(True)

    def _show_me(self) -> None:
        nums = self._expected()
        if nums is None or not self._my_turn():
            self.practice.feedback("Choose a card first.", "error")
            return
        if self._misses < 2:  # the button is offered only after a second miss
            self.practice.feedback("Try to work it out first: Show me comes after two tries.",
                                   "info")
            return
        before, delta, after = nums
        aos = self.config.add_or_subtract
        self.practice.feedback(f"Here is the arithmetic: {rf.play_math(before, delta, aos)}. "
                               f"The new total is {rf.total_text(after, aos)}.", "info")
        self._finish_practice()

    def _finish_practice(self) -> None:
        assert self._pending is not None
        key, sign = self._pending
        self.practice.lock()
        self.cancel_practice_button.disabled = True
        self._play(key, sign)

    # ----- teacher ----------------------------------------------------------------------
    def _next_move(self) -> None:
        if not self.controller.walkthrough:
            return
        st = self.controller.game
        if st is None or self.controller.bot_to_move() is None:
            self.message.show("It is not a computer player's turn.", "error")
            return
        self._banner_from = len(st.events)
        self.message.clear()
        self.controller.step()

    def _on_walkthrough(self, change: dict[str, Any]) -> None:
        if not self.teacher_controls:  # the switch is not on the page: a forged value
            return
        on = change["new"] is True
        self.controller.walkthrough = on
        self._sync_code()
        self.refresh()
        if not on:
            self.controller.run_bots()

    def _on_large(self, change: dict[str, Any]) -> None:
        if change["new"] is True:
            self.add_class("icg-large")
        else:
            self.remove_class("icg-large")
        self.number_line.set_large(change["new"] is True)

    def _reveal(self) -> bool:
        """Every hand is shown: a teacher's walkthrough with "Show every hand", or the end."""
        st = self.state
        return st.over or (self.teacher_controls and self.controller.walkthrough
                           and self.reveal_toggle.value is True)

    def _hint_text(self) -> str:
        if self._pending is not None:  # the hint names new totals: not while one is asked
            return "Work out the new total first; the hint is back after that."
        return words.flapjack_hint(self.state.observation(YOU))

    # ----- rendering --------------------------------------------------------------------
    def observation(self) -> dict[str, Any]:
        """What this table shows: the student's view, or every hand when revealed."""
        return self.state.observation(YOU, reveal=self._reveal())

    def refresh(self) -> None:
        """Re-render every view from observations."""
        st = self.controller.game
        if st is None:
            return
        obs = self.observation()
        names = self.names
        cfg = self.config
        walk = self.controller.walkthrough
        self.header.value = self._header_html()
        events = obs["events"][self._banner_from:]
        self.banner.value = (rf.banner_html(events, names, YOU, cfg.add_or_subtract)
                             + rf.end_html(obs, names, YOU))
        if st.over and not self.code_open:
            shown = rf.esc(format_code(self.deal_code))
            self.banner.value += (f'<div class="icg-fj-replay">Replay this deal: deal code '
                                  f"<b>{shown}</b> (type it in Settings, Deal code).</div>")
        choosing = ""
        if self._selected is not None and self._card(self._selected) is not None:
            c = self._card(self._selected)
            choosing = f"You chose {c.short}: add it or subtract it?"
        elif self._pending is not None:
            choosing = "Type the new total, then press Check."
        self.status.value = rf.notice_html(
            rf.status_text(obs, names, YOU, walkthrough=walk, choosing=choosing), "info")
        self.seats.value = rf.seats_html(obs, names, YOU)
        self.table_view.value = rf.table_html(obs)
        self.number_line.show(**rf.number_line_args(obs))
        self._render_hand()
        self._render_signs()
        self.move_log.set_lines(rf.log_lines(obs, names, YOU))
        if LazyPart.built(self, "reveal_toggle"):
            self.reveal_toggle.layout.display = None if walk else "none"
        self.next_button.layout.display = None if walk else "none"
        self.next_button.disabled = not walk or self.controller.bot_to_move() is None
        self.reasons.value = self._reasons_html()
        self.hint.button.disabled = self._pending is not None
        if st.over and LazyPart.built(self, "practice"):
            self.practice.check_button.disabled = True
            self.cancel_practice_button.disabled = True
        cfg_text = f"{cfg.title}, {cfg.players} players"
        self.settings_toggle.description = f"Settings ({cfg_text})"

    def _header_html(self) -> str:
        cfg = self.config
        aos = cfg.add_or_subtract
        targets = ", ".join(rf.total_text(t, aos) for t in cfg.targets)
        if aos:
            count = "Every card counts its rank (A = 1, J = 11, Q = 12, K = 13); you choose to " \
                    "add it or subtract it."
        else:
            pos = "black" if cfg.colors.value == "black-positive" else "red"
            neg = "red" if pos == "black" else "black"
            count = f"{pos.capitalize()} cards are positive, {neg} cards negative."
        limits = f"{rf.total_text(cfg.low, aos)} to {rf.total_text(cfg.high, aos)}"
        code = (f" Deal code: <b>{rf.esc(format_code(self.deal_code))}</b>." if self.code_open
                else "")
        return (f'<div class="icg-title">Flapjack: {rf.esc(cfg.title)}</div>'
                f"<div>{rf.esc(count)} Keep the running total within {rf.esc(limits)}; "
                f"make it exactly {rf.esc(targets)} for a Flapjack and win the cards in play."
                f"{code}</div>")

    def _render_hand(self) -> None:
        hand = self._hand()
        views = {v["key"]: v for v in (self.state.observation(YOU)["seats"][YOU]["hand"] or [])}
        self._hand_keys = [c.key for c in hand]
        for i in range(max(len(hand), len(self.card_buttons))):
            if i >= len(hand):  # kept for later, off the page (not among the hand's children)
                b = self.card_buttons[i]
                with b.hold_sync():
                    b.disabled = True
                    b.description = ""
                    b.tooltip = ""
                continue
            card = hand[i]
            view = views[card.key]
            reason = self._card_reason(card)
            chosen = card.key in (self._selected, self._pending[0] if self._pending else None)
            if reason:
                look = {"reason": self._short_reason(card, reason),
                        "detail": words._("cannot be played now, {reason}").format(reason=reason)}
            else:
                look = {"suffix": " (chosen)" if chosen else ""}
            classes = ["icg-fj-pending"] if chosen else []
            if i < len(self.card_buttons):
                update_card_button(self.card_buttons[i], view, classes=classes, **look)
            else:  # a new button is made as it should look (one message, not one per trait)
                b = card_button(view, classes=classes, **look)
                b.on_click(lambda _b, i=i: self._click_index(i))
                b.refused = lambda i=i: self._click_refused(i)
                self.card_buttons.append(b)
        self.hand_box.children = tuple(self.card_buttons[:len(hand)])
        self.hand_title.value = (f"<b>Your hand ({len(hand)} card{'s' if len(hand) != 1 else ''})"
                                 f"</b>" if hand else "<b>Your hand is empty.</b>")

    def _click_index(self, i: int) -> None:
        if 0 <= i < len(self._hand_keys):
            self.click_card(self._hand_keys[i])

    def _click_refused(self, i: int) -> None:
        """A click on a switched-off card (only a forged one): a message, nothing else."""
        card = self._card(self._hand_keys[i]) if 0 <= i < len(self._hand_keys) else None
        reason = self._card_reason(card) if card is not None else None
        self.message.show(f"You cannot play {card.short} now: {reason}." if card and reason
                          else "That card cannot be played now.", "error")

    def _render_signs(self) -> None:
        key = self._selected
        card = self._card(key) if key else None
        if card is None or not self._my_turn() or not self.config.add_or_subtract:
            self._selected = None
            self._hide_part("sign_box")
            return
        n = self.config.value(card)
        view = self._card_view(card)
        self.sign_prompt.value = (f"<div>You chose {rf.card_face_html(view, small=True)} "
                                  f"(it counts {n}). Add it to the total or subtract it?</div>")
        for b, sign, verb in ((self.add_button, 1, "Add"),
                              (self.subtract_button, -1, "Subtract")):
            why = self._why(card, sign)
            mark = "+" if sign > 0 else MINUS
            b.description = f"{mark} {verb} {n}" + (f" ({why})" if why else "")
            b.tooltip = f"{verb.lower()} {n}" + (f": not allowed, {why}" if why else "")
            b.disabled = why is not None
        self.sign_box.layout.display = None

    def _reasons_html(self) -> str:
        c = self.controller
        if not c.walkthrough:
            return ""
        if not self._reveal():
            return rf.notice_html("Turn on \"Show every hand\" to see why the computer players "
                                  "moved (a reason can name a card in their hand).", "info")
        moves = []
        for m in c.bot_moves[-max(1, self.config.players - 1) * 3:]:
            card = m.action.card if isinstance(m.action, Play) else None
            what = "played a card"
            if card is not None:
                how = ""
                if self.config.add_or_subtract:
                    how = " (subtract)" if m.action.sign < 0 else " (add)"
                what = f"played {card.short}{how}"
            moves.append((self.names[m.seat], what, m.reason))
        return rf.reasons_html(moves)
