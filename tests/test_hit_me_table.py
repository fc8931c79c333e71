"""The Hit Me table's widgets driven like a student would: button.click() and typed values, no
browser. What the table shows and the rules behind it are tested without widgets, at the session
and view level (tests/test_hit_me_session.py, tests/test_table_games.py); here: the widgets'
own wiring (clicks reach the session, the view reaches the widgets, the keypad, lazy parts,
large print, synced values).

Decks are stacked (top first). With 3 players and seat 0 dealing, the face-down cards go to
seats 1, 2, 0 and then the face-up cards to seats 1, 2, 0; hits come off the top after that.
"""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest
from helpers import find_card_text
from widget_helpers import AlwaysHold, errors_raise  # noqa: F401 - autouse fixture

from engine.cards import parse_card
from engine.hit_me import Phase
from widgets import HitMeTable
from widgets.hit_me.view import table_view
from widgets.table.render import number_line_svg, score_table_html
from widgets.table.shell import LazyPart


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def table(deck: str | None = None, **kw) -> HitMeTable:
    kw.setdefault("players", 3)
    kw.setdefault("opponents", [AlwaysHold()] * (kw["players"] - 1))
    kw.setdefault("seed", 7)
    kw.setdefault("bot_delay", 0)
    return HitMeTable(deck=deck, **kw)


def type_number(t: HitMeTable, box: str, n: int) -> None:
    """Type with the on-screen keypad (digits then the minus key)."""
    t.announce.target.value = box
    t.announce.clear_key.click()
    for d in str(abs(n)):
        t.announce.press(d)
    if n < 0:
        t.announce.minus_key.click()


def announce(t: HitMeTable, s: int, a: int | None = None) -> None:
    type_number(t, "sum", s)
    type_number(t, "abs", abs(s) if a is None else a)
    t.announce.check_button.click()


def card_shown(html: str, code: str) -> list[str]:
    """The forms of a card in the raw HTML of a widget. A face-up card is drawn as spans for
    rank, suit and value inside an element labelled with its name ('nine of clubs, value
    plus 9'), so its name is what a leak would show; the visible text '9 ♣' is only
    there once the tags are taken out."""
    return find_card_text(html, parse_card(code))


def seat_text(t: HitMeTable, name: str) -> str:
    m = re.search(rf'aria-label="{re.escape(name)}">(.*?)</div></div>', t.seats_html.value)
    assert m, name
    return text(m.group(1))


# deck: seats 1, 2, 0 face down; 1, 2, 0 face up; then hits
BASIC = "2C,9C,5S,3D,9H,7H,4C"  # You 5S -7H = -2 (+4C hit -> +2); C1 +2 -3 = -1; C2 +9 -9 = 0


# ----- solo play ----------------------------------------------------------------------------
def same_as_view(t: HitMeTable) -> None:
    """Every part the table fills from `table_view(session)` shows the view's value now."""
    v = table_view(t.session)
    assert t.seats_html.value == v.seats_html
    assert t.status_html.value == v.status_html
    assert t.result_html.value == v.result_html
    assert t.move_log.lines == list(v.log_lines)
    lo, hi = v.line_ends  # the steady ends (test_hit_me_session.py: ..._ends_only_widen...)
    assert t.number_line.html.value == number_line_svg(
        v.points, v.arrow, v.spans, lo=lo, hi=hi, title=t.number_line.title)
    assert (t.hit_button.disabled, t.hold_button.disabled, t.peek_button.disabled) == \
        (not v.can_hit, not v.can_hold, not v.can_peek)
    assert t.peek_button.description == v.peek_label
    assert t.show_sum_button.disabled is not v.can_show_sum
    assert t.hint.button.disabled is not v.hint_enabled
    assert t.next_round_button.disabled is not v.round_over
    if LazyPart.built(t, "announce_box"):
        assert t.announce.check_button.disabled is not v.can_check
        assert t.announce_done_button.disabled is not v.can_finish
        assert t.announce_done_button.description == v.finish_label
    assert t.scores_html.value == score_table_html(t.session.names, t.session.game.wins,
                                                   t.session.game.ties)


def test_clicks_reach_the_session_and_the_view_reaches_the_widgets():
    """The thin widget layer of a whole round (its rules and words: test_hit_me_session.py)."""
    t = table(BASIC)
    s = t.session
    same_as_view(t)
    assert not t.hit_button.disabled and not t.peek_button.disabled
    t.peek_button.click()
    assert s.peeked
    same_as_view(t)
    t.show_sum_button.click()
    assert s.sum_shown == {0}
    same_as_view(t)
    t.hit_button.click()
    assert len(s.game.round.cards(0)) == 3
    same_as_view(t)
    t.hint.button.click()
    assert t.hint.html.value and "Your sum is +2" in text(t.hint.html.value)
    t.hold_button.click()
    assert s.phase is Phase.ANNOUNCE and t.announce_box.layout.display is None
    assert "before the cards turn up" in t.announce.prompt.value
    same_as_view(t)
    t.announce_done_button.click()  # disabled before the check: a forged click is refused
    assert s.phase is Phase.ANNOUNCE
    announce(t, 3)
    assert s.announce_misses == 1
    assert t.announce.feedback_html.value and "Your sum is not +3" in \
        text(t.announce.feedback_html.value)
    announce(t, 2)
    assert s.announced == {0: "shown"}  # the sum was shown while playing
    assert "Right!" in t.announce.feedback_html.value and t.announce.check_button.disabled
    same_as_view(t)
    t.announce_done_button.click()
    assert s.phase is Phase.REVEALED
    same_as_view(t)
    assert t.peek_button.disabled and t.hit_button.disabled and t.hint.button.disabled
    t.next_round_button.click()
    assert s.phase is Phase.PLAY and s.round_number == 2
    same_as_view(t)
    assert t.result_html.value == "" and t.next_round_button.disabled


def test_show_me_button_appears_after_two_misses_and_reaches_the_session():
    t = table(BASIC)
    t.hold_button.click()
    announce(t, 2)
    assert t.announce.show_me_button.layout.display == "none"
    t.announce.boxes["sum"].value = "lots"  # not a number: no miss counted
    t.announce.check_button.click()
    assert "My sum: Type the number in digits" in t.announce.feedback_html.value
    assert t.session.announce_misses == 1
    assert t.announce.show_me_button.layout.display == "none"
    announce(t, -2, 3)
    assert t.announce.show_me_button.layout.display is None
    assert not t.announce.show_me_button.disabled
    t.announce.show_me_button.click()
    assert t.session.announced == {0: "shown"}
    assert "Here it is: +5 + (-7) = -2, and |-2| = 2." in t.announce.feedback_html.value
    assert not t.announce_done_button.disabled


def test_announce_typed_with_minus_sign_character_and_keyboard():
    t = table(BASIC)
    t.hold_button.click()
    t.announce.boxes["sum"].value = "\u22122"
    t.announce.boxes["abs"].value = " 2 "
    t.announce.check_button.click()
    assert "Right!" in t.announce.feedback_html.value


@pytest.mark.parametrize(("box", "typed", "why"), [
    ("sum", "2-", "The sign goes before the number"),
    ("sum", "--2", "One sign is enough"),
    ("abs", "two", "in digits"),
])
def test_a_typed_text_that_is_no_number_is_told_why_and_not_a_miss(box, typed, why):
    t = table(BASIC)
    t.hold_button.click()
    a = t.announce
    a.boxes["sum"].value, a.boxes["abs"].value = "-2", "2"
    a.boxes[box].value = typed
    a.check_button.click()
    said = a.feedback_html.value
    assert why in said and a.labels[box] in said
    assert t.session.announce_misses == 0 and not t.session.announced
    assert a.show_me_button.layout.display == "none"


def test_keypad_minus_key_toggles_sign_and_delete_clear():
    t = table(BASIC)
    a = t.announce
    a.target.value = "sum"
    a.press("1")
    a.press("2")
    a.minus_key.click()
    assert a.boxes["sum"].value == "-12"
    a.minus_key.click()
    assert a.boxes["sum"].value == "12"
    a.delete_key.click()
    assert a.boxes["sum"].value == "1"
    a.clear_key.click()
    assert a.boxes["sum"].value == ""
    a.target.value = "abs"
    a.press("5")
    assert a.boxes["abs"].value == "5" and a.boxes["sum"].value == ""
    assert [b.description for b in a.keypad.children[2].children] == ["\u2212", "\u232b Delete",
                                                                      "Clear"]


def test_ace_buttons_are_relabelled_in_place_and_reach_the_session():
    t = table("2C,9C,AS,3D,9H,KH", ace_eleven=True)  # You: A♠ down, K♥ up: +1 -10 = -9
    assert t.ace_box.children == ()  # the ace is face down and not peeked
    t.peek_button.click()
    (b,) = t.ace_box.children
    assert b.description == table_view(t.session).aces[0].description
    b.click()
    assert t.session.game.round.observation(0)["seats"][0]["values"][0] == 11
    (b2,) = t.ace_box.children
    assert b2 is b  # relabelled in place, not a new widget on every refresh
    assert b.description == "A♠ counts +11: make it +1" and not b.disabled
    t.hold_button.click()
    assert t.ace_box.children and all(b.disabled for b in t.ace_box.children)


# ----- pass the device ----------------------------------------------------------------------
def test_pass_screen_widgets_and_a_fresh_announce_box_for_each_student():
    t = table(BASIC, mode="pass-device", students=2, opponents=[AlwaysHold()])
    assert t.session.pass_screen
    assert t.pass_button.description == "I am Player 2: show my cards"
    assert t.pass_html.value == table_view(t.session).pass_html
    assert t.hit_button.disabled and t.hold_button.disabled and t.peek_button.disabled
    assert t.actions_box.layout.display == "none" and t.hint.layout.display == "none"
    t.pass_button.click()
    assert t.session.viewer == 1 and t.pass_box.layout.display == "none"
    assert t.pass_button.disabled
    same_as_view(t)
    t.hold_button.click()
    assert t.pass_button.description == "I am Player 1: show my cards"
    t.pass_button.click()
    t.hold_button.click()
    announce(t, -2)
    assert t.announce_done_button.description == "Done: pass to the next student"
    t.announce_done_button.click()
    assert t.pass_box.layout.display is None and t.announce_box.layout.display == "none"
    t.pass_button.click()
    assert t.announce.boxes["sum"].value == "" and t.announce.feedback_html.value == ""
    assert "Player 2</b>, before the cards turn up" in t.announce.prompt.value
    same_as_view(t)


# ----- walkthrough ----------------------------------------------------------------------------
def test_the_teacher_box_reaches_the_session():
    t = table(BASIC, walkthrough=True, seed=4242)
    s = t.session
    assert t.teacher_box.bar in t.children and t.teacher_box.more in t.children
    assert t.code_text.value == "4242"  # the code shows in walkthrough
    assert not t.next_move_button.disabled
    t.next_move_button.click()
    assert s.game.round.current == 2
    t.reveal_toggle.value = True
    assert s.teacher_reveal and "9 ♣ +9" in text(t.seats_html.value)
    same_as_view(t)
    t.reveal_toggle.value = False
    assert "9 ♣" not in text(t.seats_html.value)
    t.next_move_button.click()
    assert t.next_move_button.disabled  # the student's turn
    t.hit_button.click()
    t.restart_button.click()
    assert len(s.game.round.cards(0)) == 2 and s.game.round.current == 1
    assert "The same deal again" in t.message.value
    t.code_text.value = "class-5b"
    t.replay_button.click()
    assert s.deal_code == "class-5b" and s.code_typed
    t.code_text.value = "<bad>"
    t.replay_button.click()
    assert "Deal code" in t.message.value and s.deal_code == "class-5b"
    t.walkthrough_toggle.value = False
    assert not s.walkthrough and s.game.round.current == 0
    same_as_view(t)




def test_large_print_and_teacher_controls_only_in_walkthrough():
    t = table(BASIC, large_print=True)
    assert "icg-large" in t._dom_classes
    t.large_print_toggle.value = False  # "Large print" is for everyone (the teacher box)
    assert "icg-large" not in t._dom_classes
    # a student's page: only "New deal" and "Large print", no teacher's control at all
    assert [w.description for w in t.teacher_box.controls()] == ["New deal", "Large print"]
    assert t.teacher_box.bar in t.children and t.teacher_box.more is None
    assert t.restart_button is None and t.reveal_toggle is None and t.code_text is None
    before = t.game.to_json()
    t._restart_deal()  # what the teacher's buttons would run, called anyway: refused
    t._set_reveal(True)
    t._next_move()
    t._set_walkthrough(True)
    t._replay_code("77")
    assert t.game.to_json() == before and not t.ctl.walkthrough
    assert "9 ♣" not in text(t.seats_html.value)


# ----- pacing -----------------------------------------------------------------------------------
def test_the_first_deal_has_the_computer_moves_made_before_the_page_loads():
    """A paced move made while the page loads its widgets was lost by the page (ipywidgets 8):
    the first deal's computer moves are made as the table is made, none is left on a timer."""
    t = table(BASIC, bot_delay=5)
    assert t.game.round.current == 0 and not t.hit_button.disabled
    assert len(t.ctl.bot_moves) == 2 and not t.ctl._pending
    assert "thinking" not in text(t.status_html.value)


# ----- settings -------------------------------------------------------------------------------
def test_settings_panel_checks_values_and_applies_through_the_session():
    t = table(BASIC)
    before = t.game.to_json()
    f = t.settings.fields
    f["players"][0].value = 99
    assert "Players (2 to 8): players must be a whole number from 2 to 8" in \
        text(t.settings.message.value)
    t.settings.apply_button.click()
    assert "players must be" in t.settings.message.value and t.game.to_json() == before
    f["players"][0].value = 3
    f["seed"][0].value = "drop table;"
    t.settings.apply_button.click()
    assert "deal code must be" in t.settings.message.value and t.game.to_json() == before
    f["mode"][0].value = "pass-device"
    f["students"][0].value = 5
    f["seed"][0].value = ""
    t.settings.apply_button.click()
    assert "at most the number of players (3); got 5" in t.settings.message.value
    assert t.mode == "solo" and t.game.to_json() == before
    f["students"][0].value = 1
    f["players"][0].value = 5
    f["colors"][0].value = "red-positive"
    f["seed"][0].value = "lesson-1"
    t.settings.apply_button.click()
    assert "Settings applied" in t.settings.message.value
    s = t.session
    assert (s.config.players, s.config.colors.value, s.mode, s.deal_code, s.code_typed) == \
        (5, "red-positive", "pass-device", "lesson-1", True)
    assert t.settings.values()["seed"] == "lesson-1"
    same_as_view(t)
    assert t.pass_button.description == "I am Player 1: show my cards"



def test_every_button_has_a_readable_label():
    t = table(BASIC, walkthrough=True, ace_eleven=True)
    assert t.announce_box and t.pass_box and t.settings  # parts made on first use: build them
    seen = []

    def walk(w):
        if isinstance(w, widgets.Button | widgets.ToggleButton):
            seen.append(w)
        for c in getattr(w, "children", ()):
            walk(c)

    walk(t)
    assert len(seen) > 20
    for b in seen:
        assert len(b.description.strip()) >= 1 and b.tooltip, b


def _all_synced_text(t: HitMeTable) -> str:
    """Every string value of every widget the table holds (what a page could read)."""
    out = []
    seen = set()

    def walk(w):
        if id(w) in seen:
            return
        seen.add(id(w))
        for name in w.keys:
            v = getattr(w, name, None)
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, widgets.Widget):
                walk(v)
            elif isinstance(v, list | tuple):
                for x in v:
                    if isinstance(x, widgets.Widget):
                        walk(x)
    walk(t)
    for name in ("code_text", "settings"):
        if getattr(t, name) is not None:
            walk(getattr(t, name))
    return "\n".join(out)


def test_solo_deal_code_hidden_during_play_shown_after_the_round():
    t = table(BASIC, seed=987654)
    assert "987654" not in _all_synced_text(t)
    t.hold_button.click()
    assert t.phase is Phase.ANNOUNCE and "987654" not in _all_synced_text(t)
    t.announce.boxes["sum"].value = "-2"
    t.announce.boxes["abs"].value = "2"
    t.announce.check_button.click()
    t.announce_done_button.click()
    assert t.phase is Phase.REVEALED
    assert "Replay this deal: deal code 987654" in text(t.result_html.value)
    t.next_round_button.click()
    assert "987654" not in _all_synced_text(t)


def test_large_print_draws_the_number_line_larger():
    t = table(BASIC, large_print=True)
    assert 'viewBox="0 0 440 ' in t.number_line.html.value
    w = table(BASIC, walkthrough=True)
    assert 'viewBox="0 0 640 ' in w.number_line.html.value
    w.large_print_toggle.value = True
    assert 'viewBox="0 0 440 ' in w.number_line.html.value
    w.peek_button.click()  # later renders keep the large drawing
    w.show_sum_button.click()
    assert 'viewBox="0 0 440 ' in w.number_line.html.value and "You (all cards) at -2" in \
        w.number_line.html.value


# ----- playing by keyboard and on a tablet ----------------------------------------------------
def test_a_hint_on_screen_stops_asking_for_a_peek_once_peeked() -> None:
    t = table(BASIC)
    t.hint.button.click()
    assert "Peek at your face-down card first" in text(t.hint.html.value)
    t.peek_button.click()
    assert t.hint.html.value and "Peek at your face-down card" not in text(t.hint.html.value)
    t.show_sum_button.click()
    assert "Show my sum" not in text(t.hint.html.value)


def submit(box: widgets.Text) -> None:
    """What ipywidgets' page sends when Enter is pressed in a box."""
    box._handle_custom_msg({"event": "submit"}, [])


def test_enter_in_an_answer_box_checks_and_check_comes_before_the_keypad() -> None:
    t = table(BASIC)
    t.peek_button.click()
    t.hold_button.click()
    entry = t.announce
    order = list(entry.children)
    check_row = next(i for i, w in enumerate(order) if entry.check_button in
                     getattr(w, "children", ()))
    assert check_row < order.index(entry.keypad) and check_row < order.index(entry.target)
    submit(entry.boxes["sum"])  # empty boxes: checked, and told to type a whole number
    assert t.session.announce_feedback is not None and 0 not in t.session.announced
    entry.boxes["sum"].value = "-2"  # 5S -7H, held at once
    entry.boxes["abs"].value = "2"
    submit(entry.boxes["abs"])
    assert t.session.announced.get(0) == "right"
    entry.boxes["abs"].value = "5"
    submit(entry.boxes["abs"])  # after the answer is settled (Check disabled): nothing
    assert t.session.announced.get(0) == "right"



def test_only_a_submit_message_checks() -> None:
    t = table(BASIC)
    t.peek_button.click()
    t.hold_button.click()
    t.announce.boxes["sum"]._handle_custom_msg({"event": "other"}, [])
    assert t.session.announce_feedback is None


def test_a_table_with_an_anchor_names_it_in_a_class() -> None:
    from engine.errors import ConfigError

    assert "icg-anchor-play" in table(BASIC, anchor="play")._dom_classes
    assert "icg-game" in table(BASIC)._dom_classes
    for bad in ("Play me", "<x>", "", 3):
        with pytest.raises(ConfigError, match="anchor"):
            table(BASIC, anchor=bad)


def test_the_last_move_names_the_card_a_hit_drew_never_a_face_down_one() -> None:
    """The teacher's bar: "Computer 1 chose hit and drew A♣ (+1)" (the hit card is face up);
    a hold names no card, and nothing names a computer's face-down card."""
    t = table(players=3, opponents="medium", seed=7, walkthrough=True)
    t.peek_button.click()
    said = []
    while not t.next_move_button.disabled:
        t.next_move_button.click()
        said.append(text(t.last_reason_html.value))
    hits = [x for x in said if "chose hit" in x]
    assert hits and all(re.search(r"chose hit and drew \S+ \([+-]\d+\)$", x) for x in hits)
    assert all("drew" not in x for x in said if "chose hold" in x)
    from engine.events import card_view

    for card in t.session.game.round.face_down[1:]:
        v = card_view(card, 0)
        assert all(f"{v['label']}{v['symbol']}" not in x for x in said), (card, said)
