"""The Flapjack table's session: the game and everything the screen remembers, no ipywidgets.

`FlapjackSession` holds one `FlapjackState`, paced by the runner every table shares
(`TableController`, widgets/table/controller.py),
the settings, the deal code, the card waiting for + or - (add or subtract), the new total being
asked (say_total), the teacher's switches and the pacing of the computer players through an
injected `schedule(delay, fn)` (the widget passes the kernel's loop; tests pass nothing and
`bot_delay=0` plays them at once). One method per click; each checks that the click is allowed
now and otherwise returns a message and changes nothing. What the screen shows is computed by
`widgets.flapjack.view.table_view(session, viewer)` from the viewer's observation only; the one
thing an observation lacks, why each card of the viewer's own hand cannot be played, comes from
`card_whys(viewer)` (the engine's `why_illegal` for that viewer's own cards, as data).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import Card
from engine.errors import ConfigError, Reason, Why
from engine.flapjack import FlapjackState, Play
from engine.games import make_game, settings_of
from engine.mistakes import Shape, classify
from widgets import words
from widgets.table.controller import TableController, call_later, make_bots
from widgets.table.deal_codes import DealCodeError, new_secret_seed, parse_deal_code
from widgets.table.feedback import Feedback
from widgets.table.shell import (
    MAX_NAME,  # noqa: F401 - one limit for every table
    check_opponent_specs,
    check_teacher,
    seat_names,
)
from widgets.table.shell import check_names as check_names_policy
from widgets.words import _, config_error_text, mistake_feedback

YOU = 0  # the student's seat (seat 0 deals, so the computer player on the left leads)
SETTINGS = settings_of("flapjack")  # the registry's settings of this game (engine/games.py)
LEVELS = tuple(SETTINGS.levels)
BOT_SPECS = ("random", "greedy", "expert")
SPEC_LEVEL = {"random": "easy", "greedy": "medium", "expert": "hard"}
MINUS = "\u2212"  # the minus sign of the keypad
Note = tuple[str, str]  # (text, kind): a message for the message area
Schedule = Callable[[float, Callable[[], None]], None]


def check_opponents(value: Any, players: int) -> tuple[Any, ...]:
    """One bot spec (level or bot name, or a bot object) per computer player: the check every
    table shares (widgets.table.shell.check_opponent_specs), Flapjack's levels and bots only."""
    return tuple(check_opponent_specs(value, players - 1, "flapjack",
                                      allowed=LEVELS + BOT_SPECS))


def check_names(names: Any, players: int) -> list[str] | None:
    """The given names (None: the defaults), by the one name policy of every table."""
    return None if names is None else check_names_policy(names, players)


def fresh_code() -> int:
    """A deal code for a deal nobody chose: 128 bits from the system's entropy (a short code
    could be found by trying them all; see widgets/table/deal_codes.py)."""
    return new_secret_seed()


class HandChoices:
    """The choices of one seat's own hand, shared by a one-screen `FlapjackSession` (seat `YOU`)
    and a room's seat (widgets/together/seat.py, `FlapjackSeat`): why each card may not be played
    (as data, for `card_whys` and the view), and the clicks on the hand (choose a card, choose
    + or -, put it back), each refused with a message that changes nothing.

    The class using it provides `state` (the game), `config`, `viewer` (the seat at this
    screen), `selected` and `pending` (the card waiting for + or -, the total being asked),
    `note`, `changed()` (after a change) and `_commit(key, sign)` (the chosen move: played, or
    first asked about); `_may_move()` says whether the person at this screen may move their
    seat at all (a room's seat: not while a computer player has it or the room is paused)."""

    viewer = YOU
    state: FlapjackState
    config: Any
    selected: str | None
    pending: tuple[str, int] | None
    note: Note | None

    def changed(self) -> None:  # pragma: no cover - every user defines it
        raise NotImplementedError

    def _commit(self, key: str, sign: int) -> Note | None:  # pragma: no cover
        raise NotImplementedError

    def _may_move(self) -> bool:
        return True

    def _state_or_none(self) -> FlapjackState | None:
        return self.state

    # ----- the viewer's own cards (the session may look at these, never at other hands) ----
    def my_turn(self, viewer: int | None = None) -> bool:
        st = self._state_or_none()
        v = self.viewer if viewer is None else viewer
        return st is not None and not st.is_over and st.current == v and self._may_move()

    def _own_card(self, key: str | None, viewer: int | None = None) -> Card | None:
        v = self.viewer if viewer is None else viewer
        for c in self.state.hands[v]:
            if c.key == key:
                return c
        return None

    def signs(self) -> tuple[int, ...]:
        return (1, -1) if self.config.add_or_subtract else (1,)

    def why(self, card: Card, sign: int, viewer: int | None = None) -> Why | None:
        """Why `viewer` may not play their own `card` with `sign` now, as data (None: allowed)."""
        st = self.state
        v = self.viewer if viewer is None else viewer
        if st.is_over:
            return Why(Reason.GAME_OVER)
        if st.current != v or not self._may_move():
            return Why(Reason.NOT_YOUR_TURN, {"current": st.current, "seat": v})
        return st.why_illegal(v, card, sign)

    def card_whys(self, viewer: int | None = None) -> dict[str, tuple[Why | None, ...]]:
        """For each card in `viewer`'s own hand: why each sign is refused (None: allowed)."""
        v = self.viewer if viewer is None else viewer
        return {c.key: tuple(self.why(c, s, v) for s in self.signs())
                for c in self.state.hands[v]}

    def why_text(self, card: Card, sign: int) -> str | None:
        why = self.why(card, sign)
        return None if why is None else words.reason_text(
            why, words.plain_totals(self.config), viewer=self.viewer)

    def card_reason(self, card: Card) -> str | None:
        """Why a card cannot be played at all now, in words (None: some way is legal)."""
        whys = [self.why_text(card, s) for s in self.signs()]
        if any(w is None for w in whys):
            return None
        if len(whys) == 1 or whys[0] == whys[1]:
            return whys[0]
        return words.both_ways_refused(whys[0], whys[1])

    # ----- clicks -------------------------------------------------------------------------
    def _say(self, text: str, kind: str = "error") -> Note:
        self.note = (text, kind)
        return self.note

    def click_card(self, key: str) -> Note | None:
        """The student chose a card. Returns the refusal (nothing changed) or None."""
        if not self.my_turn():
            return self._say(_("Wait for your turn."))
        card = self._own_card(key)
        if card is None:
            return self._say(_("That card is not in your hand."))
        reason = self.card_reason(card)
        if reason:
            return self._say(_("You cannot play {card} now: {reason}.").format(
                card=card.short, reason=reason))
        self.note = None
        if self.config.add_or_subtract:
            self.selected = key
            self.pending = None
            self.changed()
            return None
        return self._commit(key, 1)

    def refused_card(self, key: str | None) -> Note:
        """A click on a card that was switched off when the click came (a forged one, or a
        page a moment behind its table): a message, nothing else. A card that may be played
        now was switched off only while the table changed: press it again."""
        card = self._own_card(key) if key is not None else None
        reason = self.card_reason(card) if card is not None else None
        if card is not None and reason is None and self.my_turn():
            return self._say(_("The table had just changed: press {card} again to play it.")
                             .format(card=card.short), "info")
        return self._say(_("You cannot play {card} now: {reason}.").format(
            card=card.short, reason=reason) if card and reason
            else _("That card cannot be played now."))

    def choose_sign(self, sign: int) -> Note | None:
        key = self.selected
        card = self._own_card(key) if key else None
        if key is None or card is None or not self.my_turn() or sign not in (1, -1):
            return self._say(_("Choose a card first."))
        why = self.why_text(card, sign)
        if why:
            return self._say((_("You cannot add {card} now: {reason}.") if sign > 0 else
                              _("You cannot subtract {card} now: {reason}.")).format(
                card=card.short, reason=why))
        self.selected = None
        return self._commit(key, sign)

    def cancel(self) -> None:
        """Put the chosen card back."""
        self.selected = None
        self.pending = None
        self.changed()


class FlapjackSession(HandChoices):
    """One student's Flapjack table without widgets (see the module docstring). Keywords:
    players (2-8), opponents ('easy'/'medium'/'hard' or a bot: 'random'/'greedy'/'expert', or
    one per computer player), variant ('classic', 'simple-ten', 'add-or-subtract'), decks,
    colors ('black-positive'/'red-positive'), seed (the deal code; None = a fresh shuffle),
    walkthrough (teacher mode), names (one per seat, the student first), say_total (type the
    new total before it is shown), bot_delay (seconds between computer moves; 0 = at once),
    deck (a stacked deck such as 'KS,7H,...', top first, dealt one card at a time from seat 1;
    kept by "Restart this deal"), teacher_controls (True: the teacher box's teacher's
    controls, "Teacher walkthrough", "Show every hand", "Next move", "Restart this deal" and
    the deal-code box; None, the default: with walkthrough; without them the student cannot
    turn the other hands up or replay a deal; on a served page, a table with them goes behind
    the teacher's key: widgets/page/teacher_key.py; widgets.table.shell.check_teacher),
    schedule(delay, fn) (how a paced computer move waits; default: the kernel's loop) and
    on_change() (called after every change)."""

    room = False  # one screen (a room's seat, widgets/together/seat.py, is True: the room deals)

    def __init__(
        self,
        players: int = 2,
        opponents: str | Sequence[str] = "medium",
        variant: str = "classic",
        decks: int = 1,
        colors: str = "black-positive",
        seed: int | str | None = None,
        walkthrough: bool = False,
        names: Sequence[str] | None = None,
        say_total: bool = False,
        bot_delay: float = 0.8,
        deck: str | None = None,
        teacher_controls: bool | None = None,
        schedule: Schedule | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, int | float) or \
                not 0 <= bot_delay <= 10:
            raise ConfigError(_("bot_delay must be a number of seconds 0 to 10; got {value}"
                                ).format(value=repr(bot_delay)))
        # the teacher's controls: one policy for every table (widgets.table.shell.check_teacher)
        walkthrough, teacher_controls = check_teacher(walkthrough, teacher_controls)
        for flag, label in ((say_total, "say_total"),):
            if not isinstance(flag, bool):
                raise ConfigError(_("{setting} must be True or False; got {value}").format(
                    setting=label, value=repr(flag)))
        config = make_game("flapjack", players=players, decks=decks, colors=colors,
                           variant=variant).config
        try:
            code = parse_deal_code(seed)
        except DealCodeError as e:
            raise ConfigError(str(e)) from None
        self.opponents = check_opponents(opponents, config.players)
        self.names_given = check_names(names, config.players)
        if deck is not None and not isinstance(deck, str):
            raise ConfigError(_("deck must be card codes such as 'KS,7H,10C'; got {value}"
                                ).format(value=repr(deck)))
        make_game("flapjack", config).new_state(rng=0, deck=deck)  # a bad deck is refused
        self.config = config
        self.say_total = say_total
        self.teacher_controls = teacher_controls
        self.on_change = on_change or (lambda: None)
        self._game: FlapjackState | None = None
        self.controller = TableController(
            state=lambda: self._game, on_change=self.changed,
            on_error=lambda message: setattr(self, "note", (message, "error")),
            schedule=schedule or call_later, bot_delay=float(bot_delay),
            walkthrough=walkthrough)
        self.names = seat_names(self.names_given, config.players)
        self.deal_code: int | str = 0
        self.code_typed = False  # the person at the screen typed the deal code in Settings
        self.show_hands = True  # the teacher's "Show every hand" (counts only in walkthrough)
        self.note: Note | None = None  # the message area's text
        self.selected: str | None = None  # add-or-subtract: the card waiting for + or -
        self.pending: tuple[str, int] | None = None  # say-total: (card key, sign) to check
        self.misses = 0
        self.practice_serial = 0  # one more each time a new total is asked
        self.banner_from = 0
        if code is None:
            code = fresh_code()
        self._deck = deck  # a stacked deck, dealt again only with its first deal code
        self._deck_code = code
        self.first_code = code  # the widget deals it once its widgets are built

    # ----- the game -----------------------------------------------------------------------
    @property
    def state(self) -> FlapjackState:
        """The game being played (for tests and teachers; views never read it)."""
        assert self._game is not None
        return self._game

    def _state_or_none(self) -> FlapjackState | None:
        return self._game

    @property
    def walkthrough(self) -> bool:
        return self.controller.walkthrough

    @property
    def code_open(self) -> bool:
        """May the deal code show during play? In walkthrough, or when the user typed it.

        In self-study the code would let a student recompute the hidden hands (the engine is
        open source), so it shows only once the game is over."""
        return self.controller.walkthrough or self.code_typed

    @property
    def reveal(self) -> bool:
        """Every hand is shown: a teacher's walkthrough with "Show every hand", or the end."""
        return self.state.is_over or (self.teacher_controls and self.controller.walkthrough
                                   and self.show_hands)

    def observation(self, viewer: int = YOU) -> dict[str, Any]:
        """What `viewer` sees: their own view, or every hand when revealed."""
        return self.state.observation(viewer, reveal=self.reveal)

    def changed(self) -> None:
        """After every change: forget a chosen card no longer playable; tell the widget."""
        if self.selected is not None and (not self.my_turn() or
                                          self._own_card(self.selected) is None):
            self.selected = None
        self.on_change()

    def new_game(self, code: int | str | None = None, *, at_once: bool = False) -> None:
        """Deal a new game with the current settings; `code` None = a fresh deal code;
        `at_once`: the computer players' first moves are made now, not paced (the table's
        first deal, made before its page loads: `TableController.run_bots`)."""
        if code is None:
            code = fresh_code()
        deck = self._deck if self._deck is not None and code == self._deck_code else None
        state = make_game("flapjack", self.config).new_state(rng=code, deck=deck)
        c = self.controller
        c.new_generation()
        self._game = state
        c.bots = make_bots({seat: self.opponents[seat - 1]
                            for seat in range(1, self.config.players)}, "flapjack", code)
        self.deal_code = code
        self.selected = None
        self.pending = None
        self.misses = 0
        self.banner_from = 0
        self.note = None
        self.changed()
        c.run_bots(at_once)

    def restart(self) -> Note | None:
        """The same deal again, from the start: a teacher's control (a student who saw the
        other hands could replay the deal knowing them)."""
        if not self.teacher_controls:
            self.note = (_("Restarting a deal is one of the teacher's controls."), "error")
            return self.note
        self.new_game(self.deal_code)
        return None

    def settings_values(self) -> dict[str, Any]:
        """The session's settings, as the settings panel shows them."""
        from widgets.table.deal_codes import format_code

        return {
            "players": self.config.players, "variant": self.config.variant,
            "decks": self.config.decks if self.config.decks <= 4 else 1,
            "colors": self.config.colors.value, "opponents": self.level(),
            "seed": format_code(self.deal_code) if self.code_open else "",
            "say_total": self.say_total,
        }

    def mixed(self) -> bool:
        ops = self.opponents
        return len({str(o) for o in ops}) > 1 or not isinstance(ops[0], str)

    def level(self) -> str:
        return "mixed" if self.mixed() else SPEC_LEVEL.get(self.opponents[0], self.opponents[0])

    def apply_settings(self, values: dict[str, Any]) -> str | None:
        """New settings from the panel (checked there); deals. Returns an error or None."""
        try:
            config = make_game("flapjack", players=values["players"], decks=values["decks"],
                               colors=values["colors"], variant=values["variant"]).config
            level = values["opponents"]
            opponents = self.opponents if level == "mixed" else (level,)
            opponents = check_opponents(
                list(opponents) if len(opponents) == config.players - 1 else opponents[0],
                config.players)
        except ConfigError as e:
            return config_error_text(e)
        if config != self.config:
            self._deck = None
        if config.players != self.config.players:
            self.names_given = None  # given names fit the old number of players (as Hit Me)
        self.config = config
        self.opponents = opponents
        self.names = seat_names(self.names_given, config.players)
        self.say_total = bool(values["say_total"])
        self.code_typed = values["seed"] is not None
        self.new_game(values["seed"])
        return None

    def _commit(self, key: str, sign: int) -> Note | None:
        if self.say_total:
            self.pending = (key, sign)
            self.misses = 0
            self.practice_serial += 1
            self.changed()
            return None
        return self._play(key, sign)

    def _play(self, key: str, sign: int) -> Note | None:
        card = self._own_card(key)
        if card is None:
            return self._say(_("That card is not in your hand."))
        self.banner_from = len(self.state.events)
        self.selected = None
        self.pending = None
        error = self.controller.human_move(Play(card, sign), YOU)
        return None if error is None else (error, "error")

    # ----- say the new total --------------------------------------------------------------
    def expected(self) -> tuple[int, int, int] | None:
        """(total before, the card's change, total after) of the play being asked about."""
        if self.pending is None:
            return None
        key, sign = self.pending
        card = self._own_card(key)
        if card is None:
            return None
        before = self.state.total
        delta = sign * self.config.value(card)
        return before, delta, before + delta

    def _pending_value(self) -> int | None:
        """The value of the card being asked about (its equation shows it: +5 - (-7))."""
        card = self._own_card(self.pending[0]) if self.pending is not None else None
        return None if card is None else self.config.value(card)

    def check_total(self, typed: int | None) -> Feedback:
        from widgets.flapjack.render import direction_hint, play_question

        nums = self.expected()
        if nums is None or not self.my_turn():
            return Feedback(False, _("Choose a card first."), valid=False)
        before, delta, after = nums
        aos = words.plain_totals(self.config)
        value = self._pending_value()
        if typed is None:
            return Feedback(False, _("Type a whole number, such as -5 or 7 (the {minus} key "
                                     "makes it negative).").format(minus=MINUS), valid=False)
        if typed == after:
            self._finish()
            return Feedback(True, _("Right! {math}").format(
                math=words.play_math(before, delta, aos, value)), done=True)
        self.misses += 1
        question = play_question(before, delta, aos, value).rsplit("=", 1)[0].strip()
        hint = direction_hint(before, delta, aos)
        mistake = self.mistake(typed)
        if mistake is not None:  # what the answer shows, then where the total lies
            hint = f"{mistake_feedback(mistake)} {hint}"
        said = words.total_text(typed, aos)
        if self.misses == 1:
            return Feedback(False, _("Not quite: {question} is not {said}. {hint} Try "
                                     "again.").format(question=question, said=said, hint=hint),
                            mistake=mistake)
        return Feedback(False, _("Not yet: {question} is not {said}. {hint} Try once more, or "
                                 "press Show me.").format(question=question, said=said, hint=hint),
                        mistake=mistake, offer_show_me=True)

    def check_shape(self) -> Shape | None:
        """The check being asked as the mistakes module reads it: the total before plus the
        card's change, or, for a card subtracted, the total before minus the card."""
        nums = self.expected()
        if nums is None:
            return None
        before, delta, _after = nums
        if self.pending is not None and self.pending[1] < 0:
            return Shape("difference", (before, -delta))
        return Shape("sum", (before, delta))

    def mistake(self, typed: int) -> str | None:
        """The common mistake the total `typed` shows (engine/mistakes.py), or None."""
        shape = self.check_shape()
        return None if shape is None else classify(shape, typed)

    def show_me(self) -> Feedback:
        nums = self.expected()
        if nums is None or not self.my_turn():
            return Feedback(False, _("Choose a card first."), valid=False)
        if self.misses < 2:  # the button is offered only after a second miss
            return Feedback(False, _("Try to work it out first: Show me comes after two tries."),
                            valid=False, info=True)
        before, delta, after = nums
        aos = words.plain_totals(self.config)
        value = self._pending_value()
        self._finish()
        return Feedback(False, _("Here is the arithmetic: {math}. The new total is "
                                 "{total}.").format(math=words.play_math(before, delta, aos, value),
                                                    total=words.total_text(after, aos)),
                        valid=False, done=True, info=True)

    def _finish(self) -> None:
        assert self.pending is not None
        key, sign = self.pending
        self._play(key, sign)

    # ----- teacher ------------------------------------------------------------------------
    def next_move(self) -> Note | None:
        """Walkthrough "Next move": one computer move."""
        if not self.controller.walkthrough:
            if not self.teacher_controls:
                return self._say(_("Stepping through moves is one of the teacher's controls."))
            return None
        if self._game is None or self.controller.bot_to_move() is None:
            return self._say(_("It is not a computer player's turn."))
        self.banner_from = len(self.state.events)
        self.note = None
        self.controller.step()
        return None

    def set_walkthrough(self, on: bool) -> Note | None:
        if not self.teacher_controls:  # the switch is not on the page: a forged value
            return self._say(_("The walkthrough is one of the teacher's controls."))
        self.controller.walkthrough = on is True
        self.changed()
        if on is not True:
            self.controller.run_bots()
        return None

    def set_show_hands(self, on: bool) -> None:
        self.show_hands = on is True
        self.changed()

    def hint_text(self) -> str:
        return words.hint_sentence(self.hint_lines())

    def hint_lines(self) -> list[Any]:
        """The hint, one sentence (or list) a line (widgets.words.flapjack_hint_lines)."""
        if self.pending is not None:  # the hint names new totals: not while one is asked
            return [_("Work out the new total first; the hint is back after that.")]
        return words.flapjack_hint_lines(self.state.observation(YOU))
