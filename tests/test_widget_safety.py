"""Hidden information and untrusted input in the Hit Me table.

1. Walk every widget in the table (through every synced trait that holds widgets: children,
   layout, style, ...) and serialize every synced trait (`widget.get_state()`, exactly what the
   page receives). Before the reveal, no face-down card the person at the screen may not see
   (code 'KS', key, short 'K♠' or name 'king of spades') may appear in it. Checked after every
   click and computer move, in solo, pass-the-device and walkthrough modes.
2. Non-interference: two tables whose decks differ only in another player's face-down card
   send exactly the same synced values until the reveal.
3. Forged values: every input widget gets values a page could send (out of range, not in the
   options, garbage text); each is refused or gets a message, never an exception, and the game
   continues unharmed. Forged clicks on disabled buttons change nothing.
"""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as widgets
import pytest
from helpers import find_card_text
from traitlets import TraitError
from widget_helpers import AlwaysHold, all_widgets, errors_raise, synced_text  # noqa: F401

from engine.cards import Card, Suit
from engine.hit_me import Phase
from widgets import HitMeTable
from widgets.words import card_name


def hidden_and_visible(t: HitMeTable) -> tuple[list[Card], list[Card]]:
    """Face-down cards the person at the screen may not see now, and the cards they see."""
    rnd = t.game.round
    if t.phase is Phase.REVEALED:
        return [], rnd.all_cards()
    viewer = t.viewer
    hidden, visible = [], []
    for p in range(rnd.players):
        visible += rnd.face_up[p]
        down = rnd.face_down[p]
        if p == viewer and t.peeked:
            visible.append(down)
        else:
            hidden.append(down)
    return hidden, visible


def assert_no_leak(t: HitMeTable, when: str = "") -> None:
    hidden, visible = hidden_and_visible(t)
    text = synced_text(t)
    seen = {(c.rank, c.suit) for c in visible}
    for card in hidden:
        if (card.rank, card.suit) in seen:
            continue  # a twin from a second deck is face up: its name may appear legitimately
        found = find_card_text(text, card)
        assert not found, f"{card.key} leaked as {found} {when}"


def play_round_checking(t: HitMeTable, rng_hits: int) -> None:
    """Play the students' turns (hit `rng_hits` times, then hold), announcing right; check the
    tree after every step."""
    assert_no_leak(t, "at the start")
    for _ in range(200):
        if t.phase is Phase.REVEALED:
            break
        if t.pass_screen:
            t.pass_button.click()
            assert_no_leak(t, "after taking the device")
            continue
        if t.phase is Phase.PLAY:
            if t.ctl.walkthrough and t.ctl.bot_to_move() is not None:
                t.next_move_button.click()
                assert_no_leak(t, "after a computer move")
                continue
            if not t.peeked:
                t.peek_button.click()
                assert_no_leak(t, "after a peek")
            seat = t.viewer
            if t.game.round.hits(seat) < rng_hits:
                t.hit_button.click()
            else:
                t.hold_button.click()
            assert_no_leak(t, "after a move")
            continue
        # announce
        if not t.peeked:
            t.peek_button.click()
        values = t.game.round.observation(t.viewer)["seats"][t.viewer]["values"]
        t.announce.boxes["sum"].value = str(sum(values))
        t.announce.boxes["abs"].value = "999"
        t.announce.check_button.click()
        assert_no_leak(t, "after a wrong announce")
        t.announce.boxes["abs"].value = str(abs(sum(values)))
        t.announce.check_button.click()
        assert "Right!" in t.announce.feedback_html.value
        assert_no_leak(t, "after announcing")
        t.announce_done_button.click()
        assert_no_leak(t, "after the announce step")
    assert t.phase is Phase.REVEALED


@pytest.mark.parametrize(("kw", "hits"), [
    ({"players": 3, "opponents": "medium", "seed": 1}, 1),
    ({"players": 4, "opponents": "hard", "seed": 2, "ace_eleven": True}, 2),
    ({"players": 2, "opponents": "easy", "seed": 3, "turn_order": "all-at-once"}, 3),
    ({"players": 8, "opponents": "medium", "seed": 4}, 0),  # two decks: twins
    ({"players": 3, "mode": "pass-device", "seed": 5}, 1),
    ({"players": 5, "mode": "pass-device", "students": 3, "seed": 6, "ace_eleven": True}, 1),
    ({"players": 4, "walkthrough": True, "seed": 7}, 1),
    ({"players": 3, "walkthrough": True, "mode": "pass-device", "students": 2, "seed": 8}, 2),
])
def test_no_hidden_card_in_any_synced_value(kw, hits):
    t = HitMeTable(bot_delay=0, **kw)
    t.settings_toggle.value = True  # the settings panel is built when opened: walk it too
    for _ in range(2):  # two rounds: the second has another dealer
        play_round_checking(t, hits)
        t.next_round_button.click()


def test_walker_finds_a_planted_card():
    """The walk reaches nested widgets and tooltips: a planted card name is found."""
    t = HitMeTable(players=3, seed=1, bot_delay=0, opponents=[AlwaysHold()] * 2)
    hidden, _ = hidden_and_visible(t)
    card = hidden[0]
    t.settings.apply_button.tooltip = f"psst: {card_name(card)}"
    with pytest.raises(AssertionError, match="leaked"):
        assert_no_leak(t)
    t.settings.apply_button.tooltip = "Apply"
    t.settings.rows.children[0].layout.grid_area = card.code
    with pytest.raises(AssertionError, match="leaked"):
        assert_no_leak(t)


# ----- non-interference ---------------------------------------------------------------------
def normalized(t: HitMeTable) -> str:
    return re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL", synced_text(t))


def tree_shape(t: HitMeTable) -> list[str]:
    return [type(w).__name__ for w in all_widgets(t)]


@pytest.mark.parametrize("kw", [
    {"mode": "solo"},
    {"mode": "solo", "ace_eleven": True},
    {"mode": "pass-device", "students": 1},
])
def test_other_players_face_down_card_changes_nothing_shown(kw):
    # seats 1, 2, 0 face down; 1, 2, 0 face up; then the student's hits
    a = HitMeTable(players=3, seed=5, bot_delay=0, opponents=[AlwaysHold()] * 2,
                   deck="2C,9C,5S,3D,9H,7H,4C,2D", **kw)
    b = HitMeTable(players=3, seed=5, bot_delay=0, opponents=[AlwaysHold()] * 2,
                   deck="AH,KD,5S,3D,9H,7H,4C,2D", **kw)
    for t in (a, b):
        t.settings_toggle.value = True  # the settings panel is built when opened
    steps = [
        lambda t: t.pass_button.click() if t.pass_screen else None,
        lambda t: t.peek_button.click(),
        lambda t: t.hit_button.click(),
        lambda t: t.hold_button.click(),
        lambda t: t.peek_button.click(),
        lambda t: t.peek_button.click(),
        lambda t: setattr(t.announce.boxes["sum"], "value", "6"),
        lambda t: t.announce.check_button.click(),
        lambda t: t.hint.button.click(),
    ]
    assert normalized(a) == normalized(b)
    for step in steps:
        step(a)
        step(b)
        assert tree_shape(a) == tree_shape(b)
        assert normalized(a) == normalized(b)
    assert a.phase is Phase.ANNOUNCE
    a.announce.boxes["abs"].value = b.announce.boxes["abs"].value = "2"
    a.announce.boxes["sum"].value = b.announce.boxes["sum"].value = "2"  # +5 -7 +4
    a.announce.check_button.click()
    b.announce.check_button.click()
    assert normalized(a) == normalized(b)
    a.announce_done_button.click()
    b.announce_done_button.click()
    assert normalized(a) != normalized(b)  # the reveal shows the different cards


def test_walkthrough_reasons_hidden_until_every_hand_is_shown():
    a = HitMeTable(players=3, seed=5, bot_delay=0, walkthrough=True, opponents="hard",
                   deck="2C,9C,5S,3D,9H,7H")
    b = HitMeTable(players=3, seed=5, bot_delay=0, walkthrough=True, opponents="hard",
                   deck="2C,KD,5S,3D,9H,7H")
    assert normalized(a) == normalized(b)
    a.next_move_button.click()  # computer 1 has the same cards in both: same move
    b.next_move_button.click()
    assert normalized(a) == normalized(b)
    assert "chose" not in a.reasons_html.value
    king = Card(13, Suit.DIAMONDS)  # computer 2's face-down card in b only (9C in a)
    assert not find_card_text(b.seats_html.value, king)
    a.reveal_toggle.value = True
    assert "chose" in a.reasons_html.value
    b.reveal_toggle.value = True  # the same search finds b's king once every hand is shown
    assert find_card_text(b.seats_html.value, king) == ["king of diamonds"]
    assert find_card_text(a.seats_html.value, Card(9, Suit.CLUBS)) == ["nine of clubs"]


# ----- forged values ------------------------------------------------------------------------
FORGED: list[Any] = [99, -5, 0, 10**12, 3.7, "garbage", "", "<script>alert(1)</script>",
                     None, True, "x" * 5000, ["a"], {"k": 1}, "\x00\n", "\u0663", "-0",
                     "black-positive", "expert"]

INPUTS = (widgets.Text, widgets.IntText, widgets.Dropdown, widgets.Checkbox,
          widgets.ToggleButton, widgets.ToggleButtons)


def input_widgets(t: HitMeTable) -> list[widgets.Widget]:
    return [w for w in all_widgets(t) if isinstance(w, INPUTS)]


def forge(w: widgets.Widget, value: Any) -> None:
    """Set a value as Python code would and as a page would (set_state); refusals are fine."""
    try:
        w.value = value
    except (TraitError, TypeError, ValueError):
        pass
    for state in ({"value": value}, {"index": value}):
        if state.keys() <= set(w.keys):
            try:
                w.set_state(state)
            except (TraitError, TypeError, ValueError, KeyError, IndexError):
                pass


def still_playable(t: HitMeTable) -> None:
    """The table goes on: the student can finish the round."""
    for _ in range(100):
        if t.phase is Phase.REVEALED:
            return
        if t.pass_screen:
            t.pass_button.click()
        elif t.phase is Phase.PLAY and t.ctl.bot_to_move() is not None:
            t.next_move_button.click()  # walkthrough: computers wait for "Next move"
        elif t.phase is Phase.PLAY:
            t.hold_button.click()
        else:
            t.peek_button.click() if not t.peeked else None
            values = t.game.round.observation(t.viewer)["seats"][t.viewer]["values"]
            t.announce.boxes["sum"].value = str(sum(values))
            t.announce.boxes["abs"].value = str(abs(sum(values)))
            t.announce.target.value = "sum"
            t.announce.check_button.click()
            t.announce_done_button.click()
    assert t.phase is Phase.REVEALED


@pytest.mark.parametrize("kw", [
    {"mode": "solo"},
    {"mode": "pass-device", "students": 2, "ace_eleven": True},
    {"mode": "solo", "walkthrough": True},
])
def test_forged_values_get_messages_and_the_game_continues(kw):
    t = HitMeTable(players=3, seed=9, bot_delay=0, opponents="medium", **kw)
    t.settings_toggle.value = True  # the settings panel (built when opened) has inputs too
    assert t.announce_box in t.children  # so has the answer box (built when a round ends)
    inputs = input_widgets(t)
    names = {type(w).__name__ for w in inputs}
    assert {"Text", "IntText", "Dropdown", "Checkbox", "ToggleButtons"} <= names
    for w in inputs:
        for value in FORGED:
            before = t.game.to_json()
            forge(w, value)
            if w in [f[0] for f in t.settings.fields.values()]:
                try:
                    t.settings.values()
                    valid = True
                except ValueError:
                    valid = False
                t.settings.apply_button.click()
                msg = t.settings.message.value
                if valid:
                    assert "Settings applied" in msg
                else:
                    assert "icg-msg-error" in msg and t.game.to_json() == before, (w, value)
                    assert "Traceback" not in msg
            if w in t.announce.boxes.values():
                t.announce.check_button.click()
            if t.ctl.walkthrough and w is t.reveal_toggle:
                t.reveal_toggle.value = False  # the teacher's own switch: it may reveal
        assert_no_leak(t, f"after forging values on {type(w).__name__} {w.description!r}")
    # the settings fields may now hold junk; the game still works
    still_playable(t)


def test_players_99_refused_with_message():
    t = HitMeTable(players=3, seed=9, bot_delay=0)
    before = t.game.to_json()
    t.settings.fields["players"][0].set_state({"value": 99})
    assert "players must be a whole number from 2 to 8" in t.settings.message.value
    t.settings.apply_button.click()
    assert "players must be a whole number from 2 to 8" in t.settings.message.value
    assert t.game.to_json() == before
    dd = t.settings.fields["colors"][0]
    with pytest.raises(TraitError):
        dd.value = "green-positive"
    with pytest.raises(TraitError):
        dd.set_state({"index": 7})
    assert dd.value in ("black-positive", "red-positive")


def test_forged_clicks_on_disabled_buttons_change_nothing():
    for kw in ({"mode": "solo"}, {"mode": "pass-device", "students": 2},
               {"mode": "solo", "ace_eleven": True, "deck": "2C,9C,AS,3D,9H,KH"}):
        bots = 1 if kw["mode"] == "pass-device" else 2
        t = HitMeTable(players=3, seed=4, bot_delay=0, opponents=[AlwaysHold()] * bots, **kw)
        for phase_step in range(3):
            before = t.game.to_json()
            shown = normalized(t)
            for w in all_widgets(t):
                if isinstance(w, widgets.Button) and w.disabled:
                    w._handle_button_msg(None, {"event": "click"}, [])
                    assert t.game.to_json() == before, w.description
            assert_no_leak(t, "after forged clicks")
            if phase_step == 0:  # move on: play, then announce, then reveal
                if t.pass_screen:
                    t.pass_button.click()
                t.peek_button.click()
                if kw.get("ace_eleven"):
                    t.ace_box.children[0].click()
                still_playing = t.phase is Phase.PLAY
                t.hold_button.click() if still_playing else None
                while t.phase is Phase.PLAY:
                    if t.pass_screen:
                        t.pass_button.click()
                    t.hold_button.click()
            elif phase_step == 1:
                assert shown  # (rendered before the forged clicks)
                still_playable(t)


def test_typed_boxes_send_their_value_once_when_left() -> None:
    """Every text box of every widget syncs on leaving the box (or Enter), not per keystroke:
    per-keystroke updates are held back while one is in flight, so a Check / Apply click could
    reach the kernel before the last digits did."""
    from widgets import FlapjackTable
    from widgets.lessons.practice import AbsoluteValuePractice
    from widgets.lessons.strategy import SimulationPanel

    hit_me = HitMeTable(players=3, seed=2, bot_delay=0, walkthrough=True)
    flapjack = FlapjackTable(players=2, seed=2, bot_delay=0, say_total=True)
    roots = [hit_me, hit_me.announce_box, hit_me.settings, flapjack, flapjack.settings,
             flapjack.practice_box, AbsoluteValuePractice(seed=1), SimulationPanel()]
    boxes = [x for r in roots for x in all_widgets(r) if isinstance(x, widgets.Text)]
    assert len(boxes) >= 8
    assert all(b.continuous_update is False for b in boxes), \
        [b.description for b in boxes if b.continuous_update]
