"""The Hit Me table driven like a student would: button.click() and typed values, no browser.

Decks are stacked (top first). With 3 players and seat 0 dealing, the face-down cards go to
seats 1, 2, 0 and then the face-up cards to seats 1, 2, 0; hits come off the top after that.
"""

from __future__ import annotations

import asyncio
import re
import time

import ipywidgets as widgets
import pytest
from helpers import find_card_text
from widget_helpers import AlwaysHold, errors_raise  # noqa: F401 - autouse fixture

from engine.cards import parse_card
from engine.errors import ConfigError
from engine.hit_me import Hold
from widgets import HitMeTable
from widgets.hit_me_table import Phase
from widgets.words import card_aria


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
def test_solo_start_shows_own_cards_only_after_peek():
    t = table(BASIC)
    assert t.phase is Phase.PLAY
    assert "Your turn: hit or hold?" in text(t.status_html.value)
    assert "turn 1 of 5 for each player" in text(t.status_html.value)
    assert not t.hit_button.disabled and not t.hold_button.disabled
    assert not t.peek_button.disabled
    you = seat_text(t, "You")
    assert "7 ♥ -7" in you and "5 ♠" not in you and "sum" not in you
    assert 'aria-label="your face-down card (not peeked)"' in t.seats_html.value
    t.peek_button.click()
    assert t.peek_button.description == "Hide my face-down card"
    t.show_sum_button.click()
    you = seat_text(t, "You")
    assert "5 ♠ +5" in you and "sum -2, |-2| = 2" in you
    assert "You (all cards) at -2" in t.number_line.html.value
    assert "You: |-2| = 2" in t.number_line.html.value
    t.peek_button.click()
    assert "5 ♠" not in seat_text(t, "You")


def test_solo_computer_moves_are_logged_and_face_up_sums_shown():
    t = table(BASIC)
    log = t.move_log.text().splitlines()
    assert log[0] == "Computer 2 holds" and log[1] == "Computer 1 holds"
    assert "You are dealt a face-down card and 7♥ (-7) face up" in log
    assert "Computer 1 (face-up cards) at -3" in t.number_line.html.value
    c2 = seat_text(t, "Computer 2")
    assert "held" in c2 and "face-up cards: -9" in c2 and "+9" not in c2


def test_solo_hit_hold_announce_reveal_and_next_round():
    t = table(BASIC)
    t.peek_button.click()
    t.show_sum_button.click()
    t.hit_button.click()
    you = seat_text(t, "You")
    assert "4 ♣ +4" in you and "sum +2, |+2| = 2" in you
    assert "You: last card +4: from -2 to +2" in t.number_line.html.value
    assert t.move_log.text().splitlines()[0].startswith(
        "You say “Hit me!” and get 4♣ (+4). Face-up cards: -7 + (+4) = -3")
    t.hold_button.click()
    assert t.phase is Phase.ANNOUNCE
    assert t.hit_button.disabled and t.hold_button.disabled
    assert t.announce_box.layout.display is None
    assert "before the cards turn up" in t.announce.prompt.value
    assert not card_shown(t.seats_html.value, "9C")  # still face down before the announce
    assert t.announce_done_button.disabled
    announce(t, 2)
    assert "Right! +5 + (-7) + (+4) = +2, and |+2| = 2." in t.announce.feedback_html.value
    assert t.announce.check_button.disabled
    assert not t.announce_done_button.disabled
    t.announce_done_button.click()
    assert t.phase is Phase.REVEAL
    res = text(t.result_html.value)
    assert "Computer 2 wins the round: |sum| = 0 is the closest to zero." in res
    assert "You: sum +2, |+2| = 2" in res and "Computer 1: sum -1, |-1| = 1" in res
    assert "Next dealer: Computer 2." in res
    assert "9 ♣ +9" in seat_text(t, "Computer 2")
    assert card_shown(t.seats_html.value, "9C") == ["nine of clubs"]  # the same search finds it
    assert "Computer 2 (held, winner)" in seat_text(t, "Computer 2")
    nl = t.number_line.html.value
    for label in ("You: |+2| = 2", "Computer 1: |-1| = 1", "Computer 2: |0| = 0"):
        assert f"<li>{label}</li>" in nl
    assert "icg-nl-winner" in nl
    rows = re.findall(r"<th scope='row'>([\w ]+)</th><td>(\d)</td><td>(\d)</td>",
                      t.scores_html.value)
    assert rows == [("You", "0", "0"), ("Computer 1", "0", "0"), ("Computer 2", "1", "0")]
    assert not t.next_round_button.disabled
    assert t.peek_button.disabled and t.hit_button.disabled
    t.next_round_button.click()
    assert t.phase is Phase.PLAY and t.round_number == 2
    assert "Round 2, dealer Computer 2" in text(t.status_html.value)
    assert t.game.round.dealer == 2
    assert t.next_round_button.disabled
    assert not t.peeked


def test_announce_wrong_then_second_miss_offers_show_me():
    t = table(BASIC)
    t.peek_button.click()
    t.hold_button.click()  # sum -2
    announce(t, 2)  # wrong sign
    fb = text(t.announce.feedback_html.value)
    assert "Your sum is not +2. Add the card values again: +5 + (-7) = ?" in fb
    assert t.announce.show_me_button.layout.display == "none"
    t.announce.boxes["sum"].value = "lots"  # not a number: no miss counted
    t.announce.check_button.click()
    assert "Type a whole number" in t.announce.feedback_html.value
    assert t.announce.show_me_button.layout.display == "none"
    announce(t, -2, 3)  # sum right, |sum| wrong: the second miss
    fb = text(t.announce.feedback_html.value)
    assert "Your sum -2 is right. The absolute value is the distance from zero: |-2| = ?" in fb
    assert t.announce.show_me_button.layout.display is None
    assert not t.announce.show_me_button.disabled
    assert t.announce_done_button.disabled
    t.announce.show_me_button.click()
    assert "Here it is: +5 + (-7) = -2, and |-2| = 2." in t.announce.feedback_html.value
    t.announce_done_button.click()
    assert t.phase is Phase.REVEAL


def test_announce_typed_with_minus_sign_character_and_keyboard():
    t = table(BASIC)
    t.hold_button.click()
    t.announce.boxes["sum"].value = "\u22122"
    t.announce.boxes["abs"].value = " 2 "
    t.announce.check_button.click()
    assert "Right!" in t.announce.feedback_html.value


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


def test_ace_variant_switch_until_round_ends():
    t = table("2C,9C,AS,3D,9H,KH", ace_eleven=True)  # You: A♠ down, K♥ up: +1 -10 = -9
    assert t.ace_box.children == ()  # the ace is face down and not peeked
    t.peek_button.click()
    (b,) = t.ace_box.children
    assert b.description == "A♠ counts +1: make it +11"
    t.show_sum_button.click()
    b.click()
    you = seat_text(t, "You")
    assert "sum +1, |+1| = 1" in you and "+11" in you
    (b2,) = t.ace_box.children
    assert b2 is b  # relabelled in place, not a new widget on every refresh
    assert b.description == "A♠ counts +11: make it +1"
    b.click()
    assert "sum -9" in seat_text(t, "You")
    t.ace_box.children[0].click()  # back to 11
    t.hold_button.click()
    assert t.phase is Phase.ANNOUNCE
    assert t.ace_box.children and all(b.disabled for b in t.ace_box.children)
    announce(t, 1)
    assert "Right! +11 + (-10) = +1" in t.announce.feedback_html.value
    t.announce_done_button.click()
    assert "You: sum +1" in text(t.result_html.value)
    assert t.ace_box.children == () or all(b.disabled for b in t.ace_box.children)


# ----- pass the device ----------------------------------------------------------------------
def test_pass_device_screens_peeks_and_announces():
    t = table(BASIC, mode="pass-device", students=2, opponents=[AlwaysHold()])
    assert t.names == ["Player 1", "Player 2", "Computer 1"]
    # seat 1 (Player 2) plays first
    assert t.pass_screen and t.viewer is None
    assert "Pass the device to Player 2 to take a turn" in text(t.pass_html.value)
    assert t.pass_button.description == "I am Player 2: show my cards"
    assert t.hit_button.disabled and t.hold_button.disabled and t.peek_button.disabled
    assert t.actions_box.layout.display == "none" and t.hint.layout.display == "none"
    assert not card_shown(t.seats_html.value, "2C")  # Player 2's own face-down card
    assert "2 ♣" not in text(t.seats_html.value)
    t.pass_button.click()
    assert not t.pass_screen and t.viewer == 1
    assert t.pass_box.layout.display == "none"
    assert not card_shown(t.seats_html.value, "2C")  # not peeked yet
    assert "2 ♣" not in text(t.seats_html.value)
    assert "Your turn, Player 2" in text(t.status_html.value)
    t.peek_button.click()
    assert "2 ♣ +2" in seat_text(t, "Player 2")
    assert card_shown(t.seats_html.value, "2C") == ["two of clubs"]  # the same search finds it
    t.hold_button.click()
    # the computer holds, then Player 1 (seat 0) must get the device
    assert t.pass_screen and "Pass the device to Player 1" in text(t.pass_html.value)
    assert not card_shown(t.seats_html.value, "2C")  # Player 2's card is hidden again
    t.pass_button.click()
    assert not t.peeked
    t.peek_button.click()
    assert "5 ♠ +5" in text(t.seats_html.value) and "2 ♣" not in text(t.seats_html.value)
    t.hit_button.click()
    t.hold_button.click()
    # announce: Player 1 still holds the device, then Player 2
    assert t.phase is Phase.ANNOUNCE and t.viewer == 0
    announce(t, 2)
    assert "Right!" in t.announce.feedback_html.value
    assert t.announce_done_button.description == "Done: pass to the next student"
    t.announce_done_button.click()
    assert t.pass_screen and "Player 2 to announce a sum" in text(t.pass_html.value)
    assert "5 ♠" not in text(t.seats_html.value)
    t.pass_button.click()
    assert t.announce.boxes["sum"].value == ""
    assert "Player 2</b>, before the cards turn up" in t.announce.prompt.value
    t.peek_button.click()
    announce(t, -1)
    assert t.announce_done_button.description == "Turn up all the cards"
    t.announce_done_button.click()
    assert t.phase is Phase.REVEAL
    assert "Computer 1 wins the round" in text(t.result_html.value)


# ----- walkthrough ----------------------------------------------------------------------------
def test_walkthrough_steps_reveal_reasons_restart_and_replay():
    t = table(BASIC, walkthrough=True, players=3)
    assert t.teacher_box.bar in t.children and t.teacher_box.more in t.children
    assert t.game.round.current == 1  # the computers wait for "Next move"
    assert not t.next_move_button.disabled
    assert "press Next move" in text(t.status_html.value)
    assert "Turn on" in t.reasons_html.value and "always hold" not in t.reasons_html.value
    t.next_move_button.click()
    assert t.game.round.current == 2
    t.reveal_toggle.value = True
    assert "2 ♣ +2" in text(t.seats_html.value) and "9 ♣ +9" in text(t.seats_html.value)
    assert "Computer 1 chose hold: “I always hold.”" in text(t.reasons_html.value)
    t.reveal_toggle.value = False
    assert "9 ♣" not in text(t.seats_html.value)
    t.next_move_button.click()
    assert t.next_move_button.disabled  # the student's turn
    t.hit_button.click()
    assert len(t.game.round.cards(0)) == 3
    t.restart_button.click()
    assert len(t.game.round.cards(0)) == 2 and t.game.round.current == 1
    assert [c.code for c in t.game.round.cards(0)] == ["5S", "7H"]
    t.code_text.value = "class-5b"
    t.replay_button.click()
    assert t.deal_code == "class-5b"
    first = [c.code for c in t.game.round.all_cards()]
    t.replay_button.click()
    assert [c.code for c in t.game.round.all_cards()] == first
    t.code_text.value = "<bad>"
    t.replay_button.click()
    assert "Deal code" in t.message.value and t.deal_code == "class-5b"


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


def _deal_again(t: HitMeTable) -> None:
    """A new deal once the page is there (Settings, Apply): its computer moves are paced."""
    t.settings.apply_button.click()


def test_paced_computer_moves_on_a_timer_thread():
    t = table(BASIC, bot_delay=0.05)
    _deal_again(t)
    assert t.game.round.current == 1 and t.hit_button.disabled
    assert "Computer 1 is thinking" in text(t.status_html.value)
    deadline = time.time() + 5
    while t.game.round.current != 0 and time.time() < deadline:
        time.sleep(0.02)
    assert t.game.round.current == 0
    time.sleep(0.05)
    assert not t.hit_button.disabled


def test_paced_computer_moves_on_the_asyncio_loop():
    async def play() -> HitMeTable:
        t = table(BASIC, bot_delay=0.02)
        _deal_again(t)
        assert t.game.round.current == 1
        for _ in range(200):
            if t.game.round.current == 0:
                break
            await asyncio.sleep(0.01)
        return t

    t = asyncio.run(play())
    assert t.game.round.current == 0 and not t.hit_button.disabled


def test_new_deal_cancels_pending_paced_moves():
    t = table(BASIC, bot_delay=0.1)
    t.settings.fields["seed"][0].value = "99"
    t.settings.apply_button.click()
    time.sleep(0.05)
    assert t.deal_code == 99
    deadline = time.time() + 5
    while t.game.round.current != 0 and time.time() < deadline:
        time.sleep(0.02)
    assert len(t.ctl.bot_moves) == 2  # one hold each, the old game's timer did nothing


# ----- settings -------------------------------------------------------------------------------
def test_settings_apply_new_game():
    t = table(BASIC)
    f = t.settings.fields
    f["players"][0].value = 5
    f["colors"][0].value = "red-positive"
    f["opponents"][0].value = "easy"
    f["seed"][0].value = "lesson-1"
    t.settings.apply_button.click()
    assert "Settings applied" in t.settings.message.value
    assert t.config.players == 5 and t.config.colors.value == "red-positive"
    assert t.deal_code == "lesson-1"
    assert len(t.names) == 5 and t.seats_html.value.count('class="icg-seat-name"') == 5
    # red positive: hearts show +
    assert re.search(r"[♥♦] \+\d", text(t.seats_html.value))


def test_settings_bad_value_gets_message_and_game_continues():
    t = table(BASIC)
    before = t.game.to_json()
    f = t.settings.fields
    f["players"][0].value = 99
    assert "Players (2 to 8): players must be a whole number from 2 to 8" in \
        text(t.settings.message.value)
    t.settings.apply_button.click()
    assert "players must be" in t.settings.message.value
    assert t.game.to_json() == before
    f["players"][0].value = 3
    f["seed"][0].value = "drop table;"
    t.settings.apply_button.click()
    assert "deal code must be" in t.settings.message.value
    assert t.game.to_json() == before
    t.hit_button.click()
    assert len(t.game.round.cards(0)) == 3


def test_settings_students_for_pass_device():
    t = table(BASIC)
    f = t.settings.fields
    f["mode"][0].value = "pass-device"
    f["students"][0].value = 5
    t.settings.apply_button.click()
    assert "at most the number of players (3); got 5" in t.settings.message.value
    assert t.mode == "solo"
    f["students"][0].value = 2
    t.settings.apply_button.click()
    assert t.mode == "pass-device" and t.names == ["Player 1", "Player 2", "Computer 1"]
    assert t.pass_screen


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


def test_constructor_refuses_bad_settings():
    with pytest.raises(ConfigError, match="players must be 2 to 8"):
        HitMeTable(players=9)
    with pytest.raises(ConfigError, match="mode"):
        HitMeTable(mode="online")
    with pytest.raises(ConfigError, match="opponents"):
        HitMeTable(opponents="genius")
    with pytest.raises(ConfigError, match="names"):
        HitMeTable(players=2, names=["Ann"])


def test_hint_button_explains_from_own_observation():
    t = table(BASIC)
    t.hint.button.click()
    assert "Peek at your face-down card first" in t.hint.html.value
    t.peek_button.click()
    t.hint.button.click()
    hint = text(t.hint.html.value)
    assert "Show my sum" in hint and "-2" not in hint  # the sum only once asked for
    t.show_sum_button.click()
    t.hint.button.click()
    hint = text(t.hint.html.value)
    assert "Your sum is -2" in hint and "If you hit" in hint
    t.hold_button.click()
    assert t.hint.button.disabled


def test_announce_phase_hides_what_the_reveal_will_show():
    # The engine's own announce step: no view re-hides what the engine revealed.
    from engine.hit_me import ChooseAce, HitMeConfig, HitMeRound, Reveal

    rnd = HitMeRound.deal(HitMeConfig(players=3, ace_eleven=True), 0, 1,
                          deck="2C,9C,5S,AD,9H,7H")
    rnd.apply_action(ChooseAce(rnd.face_up[1][0], True), 1)  # seat 1 counts A♦ as -11
    for _ in range(3):
        rnd.apply_action(Hold())
    assert rnd.over and rnd.phase == "announce"
    obs = rnd.observation(0)
    assert obs["result"] is None and not obs["reveal"] and obs["phase"] == "announce"
    assert {e["kind"] for e in obs["events"]} <= {"deal", "hold", "ace"}
    assert obs["seats"][0]["face_down"]["code"] == "5S" and obs["seats"][0]["sum"] == -2
    for p in (1, 2):
        assert obs["seats"][p]["face_down"] == {"hidden": True}
        assert obs["seats"][p]["sum"] is None and obs["seats"][p]["abs"] is None
    ace = obs["seats"][1]["face_up"][0]
    assert ace["value"] == -1 and ace["value_text"] == "-1" and "ace_high" not in ace
    assert card_aria(ace) == "ace of diamonds, value negative 1"
    dumped = repr(obs)
    assert "2C" not in dumped and "9C" not in dumped and "-11" not in dumped
    rnd.apply_action(Reveal())
    shown = rnd.observation(0)
    assert shown["reveal"] and shown["result"] is not None
    assert shown["seats"][1]["face_down"]["code"] == "2C"
    assert shown["seats"][1]["face_up"][0]["value"] == -11


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
    assert t.phase is Phase.REVEAL
    assert "Replay this deal: deal code 987654" in text(t.result_html.value)
    t.next_round_button.click()
    assert "987654" not in _all_synced_text(t)


def test_typed_deal_code_and_walkthrough_show_the_code_during_play():
    t = table(BASIC)
    t.settings.set_values({"seed": "class-5b"})
    t.settings.apply_button.click()
    assert t.deal_code == "class-5b" and "deal code class-5b" in text(t.status_html.value)
    assert t.settings.values()["seed"] == "class-5b"
    w = table(BASIC, seed=4242, walkthrough=True)
    assert "deal code 4242" in text(w.status_html.value) and w.code_text.value == "4242"
    solo = table(BASIC, seed=4242)
    assert "4242" not in text(solo.status_html.value) and solo.code_text is None
    assert solo.settings.values()["seed"] is None


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


def test_walkthrough_teacher_turns_up_without_typing_and_marks_the_face_down_card():
    """Issue 14 item 2: in walkthrough mode the teacher turns every card up at the check
    without typing the sum, and each card that was face down says so."""
    t = table(BASIC, walkthrough=True)
    for _ in range(4):
        if t.game.round.current == 0:
            break
        t.next_move_button.click()
    t.hold_button.click()
    while t.phase is Phase.PLAY and not t.next_move_button.disabled:
        t.next_move_button.click()
    assert t.phase is Phase.ANNOUNCE
    assert "was face down" not in t.seats_html.value
    assert not t.announce_done_button.disabled  # no sum typed
    t.announce_done_button.click()
    assert t.phase is Phase.REVEAL
    assert t.seats_html.value.count(">was face down<") == 3
    assert "Last move:" in t.last_reason_html.value
    # outside walkthrough the check comes first
    s = table(BASIC)
    s.hold_button.click()
    assert s.phase is Phase.ANNOUNCE and s.announce_done_button.disabled
    s.announce_done_button.click()
    assert s.phase is Phase.ANNOUNCE


def test_number_line_scale_only_widens_within_a_round():
    """Issue 14 item 8: the line's ends stay put within a round (they widen when a dot needs
    it, never narrow back), and start afresh with the next round."""
    # You: 5S down, 7H up (-7); hits KH (-17), QS (-7), JS (+3); the computers hold
    t = table("2C,9C,5S,3D,9H,7H,KH,QS,JS")
    ends = []
    show = t.number_line.show

    def spy(*args, **kw):
        ends.append((kw["lo"], kw["hi"]))
        show(*args, **kw)

    t.number_line.show = spy
    for _ in range(3):
        t.hit_button.click()
    assert "= -17" in t.move_log.text() and "= +3" in t.move_log.text()
    assert (-20, 20) in ends and ends[-1] == (-20, 20)  # +3 alone would be drawn on -10..+10
    for (lo0, hi0), (lo1, hi1) in zip(ends, ends[1:], strict=False):
        assert lo1 <= lo0 and hi1 >= hi0, ends
    t.hold_button.click()
    t.announce.boxes["sum"].value = "8"
    t.announce.boxes["abs"].value = "8"
    t.announce.check_button.click()
    t.announce_done_button.click()
    t.next_round_button.click()
    assert ends[-1] == (-10, 10)  # a new round: one face-up card each, drawn on -10..+10
