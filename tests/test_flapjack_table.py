"""The Flapjack table's widgets driven like a student or a teacher would: button clicks and
typed values.

No browser: `Button.click()` runs the same handlers as a click in the page, and every assertion
is on what the page shows (HTML values, button labels, disabled flags). The rules, words and
hidden information behind them are tested without widgets, at the session and view level
(tests/test_flapjack_session.py, tests/test_table_games.py); here: the widgets' own wiring
(clicks reach the session, the view reaches the widgets), the keypad, the teacher box, the
settings panel, large print and what every synced value of the page holds.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import ipywidgets as widgets
import pytest
from traitlets import TraitError
from widget_helpers import all_widgets, synced_text

from widgets.flapjack import render
from widgets.flapjack.session import YOU
from widgets.flapjack.table import FlapjackTable
from widgets.flapjack.view import table_view
from widgets.table.shell import TeacherBox
from widgets.words import card_name

# Two players, seat 0 (you) deals, so Ada (seat 1) gets the first card and leads.
# Ada: KH 3D 2C 4H 6C 7S 10C; you: 5S 8S KS 9D QD AH JD.
DECK = "KH,5S,3D,8S,2C,KS,4H,9D,6C,QD,7S,AH,10C,JD"


from helpers import Scripted  # noqa: E402 - shared with tests/test_flapjack_session.py


def text(w: widgets.HTML) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", w.value))


def visible_cards(t: FlapjackTable) -> list[widgets.Button]:
    return list(t.hand_box.children)


def button_for(t: FlapjackTable, code_short: str) -> widgets.Button:
    for b in visible_cards(t):
        if b.description.startswith(code_short + " "):
            return b
    raise AssertionError(f"no button for {code_short}: {[b.description for b in t.card_buttons]}")


def hidden_cards_shown(t: FlapjackTable) -> list[str]:
    """Cards in other players' hands that appear anywhere in the page's synced values."""
    blob = synced_text(t)
    found = []
    for seat in range(1, t.state.players):
        for c in t.state.hands[seat]:
            if card_name(c) in blob or c.short in blob or re.search(rf"\b{c.code}\b", blob):
                found.append(c.code)
    return found


def play_first_legal(t: FlapjackTable, rng: random.Random | None = None) -> None:
    """Click an enabled card (and a legal sign in add-or-subtract; the right total if asked)."""
    enabled = [b for b in visible_cards(t) if not b.disabled]
    assert enabled, t.status.value
    (rng.choice(enabled) if rng else enabled[0]).click()
    if t.config.add_or_subtract:
        signs = [b for b in (t.add_button, t.subtract_button) if not b.disabled]
        assert signs and t.sign_box.layout.display != "none"
        (rng.choice(signs) if rng else signs[0]).click()
    if t.say_total:
        before, delta, after = t.session.expected()
        t.practice.boxes["total"].value = str(after)
        t.practice.check_button.click()


def check_hand_buttons(t: FlapjackTable) -> None:
    """Enabled card buttons are exactly the legal cards; every disabled one says why."""
    st = t.state
    legal = {a.card.key for a in st.legal_actions(YOU)}
    hand = st.hands[YOU]
    shown = visible_cards(t)
    assert len(shown) == len(hand)
    for b, card in zip(shown, hand, strict=True):
        value = t.config.value(card)
        assert b.description.startswith(f"{card.short} {'+' if value > 0 else ''}{value}")
        assert card_name(card) in b.tooltip
        assert b.disabled == (card.key not in legal)
        if b.disabled:
            assert "(" in b.description and ":" in b.tooltip


# ----- whole games -----------------------------------------------------------------------------
def same_as_view(t: FlapjackTable) -> None:
    """Every part the table fills from `table_view(session, YOU)` shows the view's value now."""
    v = table_view(t.session, YOU)
    assert t.header.value == render.header_html(v.header)
    assert t.banner.value == render.view_banner_html(v)
    assert t.status.value == render.notice_html(v.status, "info")
    assert t.seats.value == render.seats_html(v.obs, v.names, YOU)
    assert t.table_view.value == render.table_html(v.obs)
    assert t.move_log.lines == render.log_lines(v.obs, v.names, YOU)
    assert [b.disabled for b in visible_cards(t)] == [c.reason is not None for c in v.hand]
    assert [b.description.split(" ")[0] for b in visible_cards(t)] == \
        [f"{c.card['label']}{c.card['symbol']}" for c in v.hand]
    assert t.settings_toggle.description == v.settings_label


# The game itself, every variant and size: test_flapjack_session.py's whole games.
@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
@pytest.mark.parametrize("players,seed", [(3, 2)])
def test_whole_game_by_clicks(variant, players, seed):
    t = FlapjackTable(players=players, variant=variant, seed=seed, bot_delay=0,
                      opponents="hard" if seed % 2 else "easy")
    rng = random.Random(seed)
    for _ in range(100):
        if t.state.is_over:
            break
        assert t.state.current == YOU  # computer players moved at once (bot_delay=0)
        check_hand_buttons(t)  # each card's label, tooltip and disabled flag
        same_as_view(t)  # what the parts show: the view's (its words: the session tests)
        before = t.state.plays
        play_first_legal(t, rng)
        assert t.state.plays > before
    assert t.state.is_over
    assert all(b.disabled for b in t.card_buttons)
    assert "Game over" in text(t.banner) and text(t.status) == "The game is over."
    same_as_view(t)


def test_a_refused_card_shows_its_reason_and_a_click_on_it_the_message():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, opponents=[Scripted("3D")])
    qd = button_for(t, "Q♦")
    assert qd.disabled
    assert qd.description == "Q♦ -12 (would make -15, less than -13)"
    assert qd.tooltip == ("queen of diamonds, value negative 12: cannot be played now, "
                          "the total would be -15, less than the limit -13")
    t.hint.button.click()
    assert text(t.hint.html) and text(t.hint.html) == t.session.hint_text()
    ks = button_for(t, "K♠")
    assert not ks.disabled and ks.description == "K♠ +13"
    assert ks.tooltip == "king of spades, value positive 13"
    before = json.dumps(t.state.to_json())
    qd.click()  # a forged click on the disabled card: the session's refusal is shown
    assert "You cannot play Q♦ now" in text(t.message)
    assert json.dumps(t.state.to_json()) == before
    button_for(t, "5♠").click()
    assert t.state.plays >= 2 and t.message.value == ""  # played (then Ada again)
    same_as_view(t)


def test_a_card_button_only_ever_plays_the_card_it_shows():
    """A click the page sent while the hand was changing (a quick second tap, a slow network)
    reaches a button that still means the card its label showed: the played card's button is
    off the page and refused, the others play their own card even though their places moved."""
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, opponents=[Scripted("3D", "2C", "4H")])
    five = button_for(t, "5♠")
    later = visible_cards(t)[visible_cards(t).index(five) + 1:]
    five.click()
    assert five not in visible_cards(t) and five.disabled and five.description == ""
    state = json.dumps(t.state.to_json())
    five.click()  # the same button again, sent before the page took it away
    assert json.dumps(t.state.to_json()) == state and text(t.message)
    moved = next(b for b in later if not b.disabled)
    short = moved.description.split()[0]
    assert short in [c.short for c in t.state.hands[YOU]]
    moved.click()
    assert short not in [c.short for c in t.state.hands[YOU]]


# ----- the hand, reasons, add or subtract -----------------------------------------------------


# ----- say the new total ---------------------------------------------------------------------
def test_the_practice_box_asks_and_reaches_the_session():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, say_total=True,
                      opponents=[Scripted("3D")])
    button_for(t, "9♦").click()  # -3 + (-9) = -12
    assert t.practice_box.layout.display != "none"
    assert "-3 + (-9) = ?" in t.practice.prompt.value
    assert t.state.plays == 1 and t.session.pending is not None
    same_as_view(t)
    t.practice.press("1")
    t.practice.press("2")
    t.practice.check_button.click()
    assert text(t.practice.feedback_html).startswith("Not quite: -3 + (-9) is not +12.")
    assert t.practice.show_me_button.layout.display == "none"
    t.practice.check_button.click()
    assert t.session.misses == 2
    assert t.practice.show_me_button.layout.display != "none"
    t.practice.show_me_button.click()
    assert "The new total is -12." in text(t.practice.feedback_html)
    assert "You: -3 + (-9) = -12  [9♦]" in t.move_log.text() and t.session.pending is None
    assert t.practice.check_button.disabled
    same_as_view(t)
    button_for(t, "5♠").click()  # after Ada's next card
    before, _, after = t.session.expected()
    t.practice.boxes["total"].value = str(after)
    t.practice.check_button.click()
    assert f"Right! {before:+d} + (+5) = {after:+d}" in text(t.practice.feedback_html)
    same_as_view(t)



def test_say_total_minus_key_and_garbage():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, say_total=True,
                      opponents=[Scripted("3D")])
    button_for(t, "9♦").click()
    t.practice.boxes["total"].value = "twelve"
    t.practice.check_button.click()
    said = text(t.practice.feedback_html)
    assert said.startswith(t.practice.labels["total"] + ":") and "in digits" in said
    assert t.practice.show_me_button.layout.display == "none"  # garbage is not a miss
    t.practice.press("clear")
    t.practice.press("1")
    t.practice.press("2")
    t.practice.minus_key.click()
    assert t.practice.boxes["total"].value == "-12"
    t.practice.check_button.click()
    assert "Right!" in text(t.practice.feedback_html)


# ----- pacing and walkthrough --------------------------------------------------------------------
def test_the_teacher_box_reaches_the_session():
    t = FlapjackTable(players=3, seed=77, bot_delay=0, walkthrough=True)
    s = t.session
    hands = [list(h) for h in t.state.hands]
    assert t.reveal_toggle.value is True and s.show_hands
    assert t.next_button.layout.display != "none" and not t.next_button.disabled
    assert t.code_field.value == "77"
    t.next_button.click()
    assert t.state.plays == 1
    assert "Computer 1 played" in text(t.reasons)
    same_as_view(t)
    t.reveal_toggle.value = False
    assert not s.show_hands and "Why the computer players moved" not in t.reasons.value
    t.restart_button.click()
    assert t.state.plays == 0 and [list(h) for h in t.state.hands] == hands
    t.new_deal_button.click()
    assert t.deal_code != 77
    t.code_field.value = "77"
    t.settings.apply_button.click()
    assert t.deal_code == 77 and [list(h) for h in t.state.hands] == hands
    same_as_view(t)
    t.walkthrough_toggle.value = False
    assert not s.walkthrough and (t.state.current == YOU or t.state.is_over)
    assert t.next_button.layout.display == "none" and t.reveal_toggle.layout.display == "none"
    assert t.reasons.value == "" and t.code_field.value == "77"  # typed: it stays
    same_as_view(t)


def test_the_settings_panel_shows_the_sessions_refusal_and_applies():
    t = FlapjackTable(seed=4, bot_delay=0)
    before = json.dumps(t.state.to_json())
    t.players_field.value = 8
    t.decks_field.value = 1
    t.settings.apply_button.click()
    assert "not enough to deal 7 cards to each of 8 players (56 are needed)" in \
        text(t.settings.message)
    assert json.dumps(t.state.to_json()) == before
    t.decks_field.value = 2
    t.variant_field.value = "add-or-subtract"
    t.say_field.value = True
    t.code_field.value = "42"
    t.settings.apply_button.click()
    assert "Settings applied" in text(t.settings.message)
    s = t.session
    assert (s.state.players, s.config.decks, s.deal_code, s.say_total) == (8, 2, 42, True)
    assert s.config.add_or_subtract
    same_as_view(t)



def test_the_first_deal_has_the_computer_moves_made_before_the_page_loads():
    """A paced move made while the page loads its widgets was lost by the page (ipywidgets 8):
    the first deal's computer moves are made as the table is made, none is left on a timer."""
    t = FlapjackTable(players=4, seed=8, bot_delay=5)
    assert t.state.current == YOU and t.state.plays >= 3  # the three computers, then the student
    assert not t.session.controller._pending
    assert any(not b.disabled for b in t.card_buttons)


def test_large_print_toggle():
    t = FlapjackTable(seed=1, bot_delay=0, large_print=True)
    assert "icg-large" in t._dom_classes and "icg-root" in t._dom_classes
    t.large_toggle.value = False
    assert "icg-large" not in t._dom_classes


# ----- safety ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
def test_no_other_hand_appears_in_any_synced_value(variant):
    t = FlapjackTable(players=4, variant=variant, seed=31, bot_delay=0, say_total=True)
    rng = random.Random(5)
    steps = 0
    while not t.state.is_over:
        assert hidden_cards_shown(t) == []
        t.hint.button.click()
        enabled = [b for b in visible_cards(t) if not b.disabled]
        rng.choice(enabled).click()
        if t.config.add_or_subtract:
            [b for b in (t.add_button, t.subtract_button) if not b.disabled][0].click()
        assert hidden_cards_shown(t) == []  # while the total is being asked
        plays = t.state.plays
        t.practice.show_me_button.click()  # a forged click before two misses does nothing
        assert t.state.plays == plays
        t.practice.boxes["total"].value = str(t.session.expected()[2])
        t.practice.check_button.click()
        steps += 1
    assert steps > 3


def test_the_leak_detector_finds_revealed_hands():
    """A positive control: with the teacher's reveal on, the detector must see the hands."""
    t = FlapjackTable(players=3, seed=31, bot_delay=0, walkthrough=True)
    assert t.reveal_toggle.value
    assert len(hidden_cards_shown(t)) == 14
    t.reveal_toggle.value = False
    assert hidden_cards_shown(t) == []


def test_without_teacher_controls_no_switch_can_turn_the_hands_up():
    t = FlapjackTable(players=3, seed=12, bot_delay=0, teacher_controls=False)
    page = all_widgets(t)
    assert t.large_toggle in page and t.new_deal_button in page
    # no replay of a deal in progress either (the other hands may have been seen)
    assert not any(getattr(w, "description", "") == "Restart this deal" for w in page)
    # the teacher's controls are not made at all (not even hidden: a synced model)
    assert all(getattr(t.teacher_box, name) is None for name in TeacherBox.TEACHER)
    hands = json.dumps(t.state.to_json())
    t._restart_deal()  # what a click would run: refused
    assert "teacher's controls" in text(t.message) and json.dumps(t.state.to_json()) == hands
    t._set_walkthrough(True)  # the switches' handlers, called anyway: refused
    t._set_reveal(True)
    t._replay_code("77")
    assert hidden_cards_shown(t) == [] and not t.controller.walkthrough
    assert json.dumps(t.state.to_json()) == hands
    play_first_legal(t)
    assert hidden_cards_shown(t) == []


def test_walkthrough_without_reveal_shows_no_hand():
    t = FlapjackTable(players=3, seed=12, bot_delay=0, walkthrough=True)
    t.reveal_toggle.value = False
    while not t.state.is_over:
        assert hidden_cards_shown(t) == []
        if t.state.current == YOU:
            play_first_legal(t)
        else:
            t.next_button.click()


def input_widgets(t: FlapjackTable) -> list[widgets.Widget]:
    return [w for w in all_widgets(t)
            if isinstance(w, widgets.Text | widgets.Dropdown | widgets.Checkbox |
                          widgets.ToggleButton | widgets.ToggleButtons)]


FORGED = ["", " ", "-", "--5", "1e9", "99999999999999999999", "<script>alert(1)</script>",
          "KS,KS", "\u2212", "ｓｅｖｅｎ", "x" * 5000, "None", "null", "{'a': 1}"]


def test_forged_values_on_every_input_leave_the_game_intact():
    t = FlapjackTable(players=3, deck=None, seed=4, bot_delay=0, say_total=True)
    t.settings_toggle.value = True  # the parts made on first use have inputs too
    assert t.settings in t.children and t.practice_box in t.children
    inputs = input_widgets(t)
    kinds = {type(w).__name__ for w in inputs}
    assert {"Text", "Dropdown", "Checkbox", "ToggleButton"} <= kinds
    before = json.dumps(t.state.to_json())
    code = t.deal_code
    for w in inputs:
        if w in (t.walkthrough_toggle, t.reveal_toggle, t.large_toggle):
            forged: list[Any] = ["yes", 2, None]
        elif isinstance(w, widgets.Dropdown | widgets.ToggleButtons):
            forged = [*FORGED, 99, -1, 3.5, True, None]
        else:
            forged = [*FORGED, 7, None]
        for value in forged:
            for attr in ("value", "index"):
                if not hasattr(w, attr):
                    continue
                try:
                    setattr(w, attr, value)
                except (TraitError, TypeError, ValueError):
                    pass  # refused by the widget itself, as from the page
    assert json.dumps(t.state.to_json()) == before
    # The settings panel now holds forged text: Apply refuses with a message.
    t.code_field.value = "<script>alert(1)</script>"
    assert "deal code must be" in text(t.settings.message)
    assert not t.settings.apply()
    assert json.dumps(t.state.to_json()) == before and t.deal_code == code
    assert "<script>" not in "".join(w.value for w in all_widgets(t)
                                     if isinstance(w, widgets.HTML))
    for dd in (t.players_field, t.variant_field, t.decks_field, t.colors_field, t.level_field):
        dd.index = 0
        dd.index = None  # "no choice" is a value a page can send
        assert "must be one of" in text(t.settings.message)
        assert not t.settings.apply()
        dd.index = 0
    assert json.dumps(t.state.to_json()) == before
    # The game goes on: a typed total in the practice box, then a legal play.
    t.practice.boxes["total"].value = "x" * 5000
    t.practice.check_button.click()
    assert json.dumps(t.state.to_json()) == before
    t.code_field.value = str(code)
    t.practice.reset()
    play_first_legal(t)
    assert t.state.plays > json.loads(before)["plays"]


def test_solo_deal_code_hidden_until_the_game_is_over():
    t = FlapjackTable(players=2, seed=424242, bot_delay=0, opponents="easy")
    synced = lambda: "\n".join(str(getattr(w, k, "")) for w in all_widgets(t)  # noqa: E731
                               for k in ("value", "placeholder", "description", "tooltip"))
    assert "424242" not in synced()
    assert t.settings.values()["seed"] is None
    rng = random.Random(3)
    for _ in range(200):
        if t.state.is_over:
            break
        b = rng.choice([b for b in visible_cards(t) if not b.disabled])
        b.click()
        if t.sign_box.layout.display != "none":
            next(x for x in t.sign_box.children if not x.disabled).click()
        if not t.state.is_over:
            assert "424242" not in synced()
    assert t.state.is_over
    assert "Replay this deal: deal code 424242" in text(t.banner)


def test_the_sign_buttons_apply_the_view_and_route_clicks():
    """The thin widget layer of add or subtract (the choices themselves are tested at the
    session level, tests/test_flapjack_session.py): the buttons show the view's SignChoices,
    a click reaches the session, Choose another card puts the card back."""
    from widgets.flapjack.view import table_view

    t = FlapjackTable(variant="add-or-subtract", deck=DECK, seed=1, bot_delay=0,
                      opponents=[Scripted("10C")])
    assert t.sign_box.layout.display == "none"
    button_for(t, "5♠").click()
    assert "(chosen)" in button_for(t, "5♠").description
    signs = table_view(t.session, YOU).signs
    assert t.sign_box.layout.display != "none" and "You chose" in t.sign_prompt.value
    for b, s in zip((t.add_button, t.subtract_button), signs.buttons, strict=True):
        assert (b.description, b.tooltip, b.disabled) == (s.description, s.tooltip, s.disabled)
    t.cancel_sign_button.click()
    assert t.sign_box.layout.display == "none"
    assert "(chosen)" not in button_for(t, "5♠").description
    button_for(t, "5♠").click()
    t.add_button.click()  # disabled (10 + 5 > 13): a forged click is refused, nothing changes
    assert t.state.plays == 1 and t.sign_box.layout.display != "none"
    t.subtract_button.click()
    assert "You: 10 - 5 = 5  [5♠]" in t.move_log.text()
    assert t.sign_box.layout.display == "none"


def test_a_flapjack_banner_goes_once_a_later_card_is_played() -> None:
    """"Flapjack! The total is exactly ..." shows only until the next card is played (the
    total has moved on); the move log keeps it. Games played to the end: banners seen, and
    none ever after a later play."""
    seen = 0
    for seed in range(1, 30):
        t = FlapjackTable(players=3, seed=seed, bot_delay=0, opponents="easy")
        for _turn in range(40):
            kinds = [e["kind"] for e in t.observation()["events"]]
            last_play = len(kinds) - 1 - kinds[::-1].index("play") if "play" in kinds else 0
            shown = "Flapjack!" in t.banner.value
            assert shown == ("flapjack" in kinds[last_play:]), kinds[-6:]
            seen += shown
            playable = [b for b in t.hand.buttons[:len(t.hand.keys)] if not b.disabled]
            if t.state.is_over or not playable:
                break
            playable[0].click()
        if seen >= 3:
            break
    assert seen >= 3
