"""The Flapjack table driven like a student or a teacher would: button clicks and typed values.

No browser: `Button.click()` runs the same handlers as a click in the page, and every assertion
is on what the page shows (HTML values, button labels, disabled flags).
"""

from __future__ import annotations

import html
import json
import random
import re
import time
from typing import Any

import ipywidgets as widgets
import pytest
from traitlets import TraitError
from widget_helpers import all_widgets, synced_text

from engine.errors import ConfigError
from engine.flapjack import FlapjackConfig, FlapjackState
from widgets.flapjack_table import YOU, FlapjackTable
from widgets.shell import TeacherBox
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
@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_whole_game_by_clicks(variant, players, seed):
    t = FlapjackTable(players=players, variant=variant, seed=seed, bot_delay=0,
                      opponents="hard" if seed % 2 else "easy")
    rng = random.Random(seed)
    moves = 0
    while not t.state.over:
        assert t.state.current == YOU  # computer players moved at once (bot_delay=0)
        assert text(t.status).startswith("Your turn")
        check_hand_buttons(t)
        assert f"Running total: {t.state.total:+d}".replace("+0", "0") in text(t.table_view) \
            or variant == "add-or-subtract"
        assert f"Draw pile: {len(t.state.draw_pile)} card" in text(t.table_view)
        before = t.state.plays
        play_first_legal(t, rng)
        assert t.state.plays > before
        moves += 1
        assert moves < 100
    result = t.state.result()
    banner = text(t.banner)
    assert banner.startswith("Game over") or "Game over" in banner
    why = "every card has been played" if result.reason.value == "all-played" else \
        "no player can play a card"
    assert why in banner
    for w in result.winners:
        assert t.names[w] in banner.split("Game over")[1]
    assert all(b.disabled for b in t.card_buttons)
    assert text(t.status) == "The game is over."
    assert "Game over" in t.move_log.text()


# ----- the hand, reasons, add or subtract -----------------------------------------------------
def test_cards_breaking_the_limit_are_disabled_with_the_reason():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, opponents=[Scripted("3D")])
    assert t.state.total == -3 and t.state.current == YOU
    qd = button_for(t, "Q♦")
    assert qd.disabled
    assert qd.description == "Q♦ -12 (would make -15, less than -13)"
    assert qd.tooltip == ("queen of diamonds, value negative 12: cannot be played now, "
                          "the total would be -15, less than the limit -13")
    assert button_for(t, "J♦").disabled
    ks = button_for(t, "K♠")
    assert not ks.disabled and ks.description == "K♠ +13"
    assert ks.tooltip == "king of spades, value positive 13"
    assert "Running total: -3" in text(t.table_view)
    # A forged click on a disabled card is refused with a message; nothing changes.
    before = json.dumps(t.state.to_json())
    qd.click()
    assert "You cannot play Q♦ now" in text(t.message)
    assert json.dumps(t.state.to_json()) == before
    button_for(t, "5S"[0] + "♠").click()
    assert "You: -3 + (+5) = +2  [5♠]" in t.move_log.text()


# ----- say the new total ---------------------------------------------------------------------
def test_say_total_right_answer():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, say_total=True,
                      opponents=[Scripted("3D")])
    button_for(t, "5♠").click()
    assert t.practice_box.layout.display != "none"
    assert "-3 + (+5) = ?" in t.practice.prompt.value
    assert t.state.plays == 1  # not played until the total is said
    blob = synced_text(t)
    assert "-3 + (+5) = +2" not in blob and "Running total: +2" not in blob
    assert "Running total: -3" in text(t.table_view)
    t.practice.press("2")
    t.practice.check_button.click()
    assert "Right! -3 + (+5) = +2" in text(t.practice.feedback_html)
    assert "You: -3 + (+5) = +2  [5♠]" in t.move_log.text()
    assert t.practice.check_button.disabled


def test_say_total_wrong_twice_then_show_me():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, say_total=True,
                      opponents=[Scripted("3D")])
    button_for(t, "9♦").click()  # -3 + (-9) = -12
    t.practice.press("1")
    t.practice.press("2")  # typed 12, forgot the minus
    t.practice.check_button.click()
    fb = text(t.practice.feedback_html)
    assert fb.startswith("Not quite: -3 + (-9) is not +12.")
    assert "move 9 steps to the left (each step is 1 less)" in fb
    assert t.practice.show_me_button.layout.display == "none"
    assert t.state.plays == 1
    t.practice.check_button.click()
    assert "Not yet" in text(t.practice.feedback_html)
    assert t.practice.show_me_button.layout.display != "none"
    assert not t.practice.show_me_button.disabled
    assert t.state.plays == 1 and "-12" not in text(t.table_view)
    t.practice.show_me_button.click()
    fb = text(t.practice.feedback_html)
    assert "Here is the arithmetic: -3 + (-9) = -12. The new total is -12." in fb
    assert "You: -3 + (-9) = -12  [9♦]" in t.move_log.text()


def test_say_total_minus_key_and_garbage():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, say_total=True,
                      opponents=[Scripted("3D")])
    button_for(t, "9♦").click()
    t.practice.boxes["total"].value = "twelve"
    t.practice.check_button.click()
    assert "Type a whole number" in text(t.practice.feedback_html)
    assert t.practice.show_me_button.layout.display == "none"  # garbage is not a miss
    t.practice.press("clear")
    t.practice.press("1")
    t.practice.press("2")
    t.practice.minus_key.click()
    assert t.practice.boxes["total"].value == "-12"
    t.practice.check_button.click()
    assert "Right!" in text(t.practice.feedback_html)


@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
def test_say_total_whole_game(variant):
    t = FlapjackTable(variant=variant, seed=21, bot_delay=0, say_total=True, players=3)
    rng = random.Random(3)
    while not t.state.over:
        play_first_legal(t, rng)
        assert "Right!" in text(t.practice.feedback_html)
    assert "Game over" in text(t.banner)


# ----- pacing and walkthrough --------------------------------------------------------------------
def test_walkthrough_steps_one_move_at_a_time_with_reasons():
    t = FlapjackTable(players=3, seed=8, bot_delay=0, walkthrough=True)
    assert t.state.plays == 0 and t.state.current == 1
    assert "Computer 1's turn: press Next move" in text(t.status)
    assert t.next_button.layout.display != "none" and not t.next_button.disabled
    assert t.reveal_toggle.value is True
    # Every hand is shown to the teacher.
    for c in t.state.hands[1]:
        assert card_name(c) in t.seats.value
    t.next_button.click()
    assert t.state.plays == 1
    reasons = text(t.reasons)
    assert "Why the computer players moved" in reasons and "Computer 1 played" in reasons
    assert t.controller.reasons[1] in reasons
    while t.state.current != YOU and not t.state.over:
        t.next_button.click()
    if not t.state.over:
        assert t.next_button.disabled  # your turn: nothing to step
        before = json.dumps(t.state.to_json())
        t.next_button.click()  # a forged click on the disabled button runs no handler
        assert json.dumps(t.state.to_json()) == before and t.state.current == YOU
    # Hiding the hands hides the reasons too (a reason may name a card in a hand).
    t.reveal_toggle.value = False
    assert "Why the computer players moved" not in t.reasons.value
    assert "Show every hand" in text(t.reasons)
    assert hidden_cards_shown(t) == []


def test_restart_and_replay_deal_from_code():
    t = FlapjackTable(players=3, seed=77, bot_delay=0, walkthrough=True)
    hands = [list(h) for h in t.state.hands]
    t.next_button.click()
    t.next_button.click()
    t.restart_button.click()
    assert t.state.plays == 0 and [list(h) for h in t.state.hands] == hands
    assert "Deal code: 77" in text(t.header)
    t.new_deal_button.click()
    assert t.deal_code != 77
    t.code_field.value = "77"
    t.settings.apply_button.click()
    assert t.deal_code == 77 and [list(h) for h in t.state.hands] == hands
    engine = FlapjackState.deal(FlapjackConfig(players=3), rng=77)
    assert [list(h) for h in engine.hands] == hands


def test_turning_walkthrough_off_lets_the_computers_play():
    t = FlapjackTable(players=3, seed=8, bot_delay=0, walkthrough=True)
    assert t.state.current == 1
    t.walkthrough_toggle.value = False
    assert t.state.current == YOU or t.state.over
    assert t.next_button.layout.display == "none" and t.reveal_toggle.layout.display == "none"
    assert t.reasons.value == ""


def test_the_first_deal_has_the_computer_moves_made_before_the_page_loads():
    """A paced move made while the page loads its widgets was lost by the page (ipywidgets 8):
    the first deal's computer moves are made as the table is made, none is left on a timer."""
    t = FlapjackTable(players=4, seed=8, bot_delay=5)
    assert t.state.current == YOU and t.state.plays >= 3  # the three computers, then the student
    assert not t.session.controller._pending
    assert any(not b.disabled for b in t.card_buttons)


def test_paced_computer_players_move_one_at_a_time():
    t = FlapjackTable(players=4, seed=8, bot_delay=0.15)
    t.new_game(8)  # a new deal once the page is there: paced
    assert t.state.plays == 0 and "Computer 1 is thinking..." in text(t.status)
    assert all(b.disabled for b in t.card_buttons)
    # the reason is in the tooltip, not the label: the row keeps its length (issue 14 item 3)
    assert "not your turn" in t.card_buttons[0].tooltip
    assert all("(" not in b.description for b in t.card_buttons)
    seen = []
    deadline = time.monotonic() + 10
    while t.state.current != YOU and not t.state.over and time.monotonic() < deadline:
        seen.append(t.state.plays)
        time.sleep(0.02)
    assert t.state.current == YOU or t.state.over
    steps = sorted(set(seen))
    assert steps == list(range(steps[0], steps[-1] + 1))  # one play at a time
    assert len(steps) >= 2
    assert text(t.status).startswith("Your turn") or t.state.over


def test_large_print_toggle():
    t = FlapjackTable(seed=1, bot_delay=0, large_print=True)
    assert "icg-large" in t._dom_classes and "icg-root" in t._dom_classes
    t.large_toggle.value = False
    assert "icg-large" not in t._dom_classes


def test_hint_button_shows_a_hint_from_the_students_view():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, opponents=[Scripted("3D")])
    t.hint.button.click()
    shown = text(t.hint.html)
    assert shown
    from widgets.words import flapjack_hint

    assert shown == flapjack_hint(t.state.observation(YOU))
    assert hidden_cards_shown(t) == []


def test_hint_is_off_while_the_computers_play():
    t = FlapjackTable(players=3, seed=8, bot_delay=0, walkthrough=True)
    assert t.state.current != YOU and t.hint.button.disabled
    while t.state.current != YOU and not t.state.over:
        t.next_button.click()
    assert t.state.current == YOU and not t.hint.button.disabled


def test_hint_waits_while_the_new_total_is_asked():
    t = FlapjackTable(deck=DECK, seed=1, bot_delay=0, say_total=True,
                      opponents=[Scripted("3D")])
    button_for(t, "5♠").click()
    assert t.hint.button.disabled
    t.hint.button.click()  # a forged click on the disabled button: no hint at all
    assert text(t.hint.html) == ""
    assert "+2" not in text(t.hint.html) and "new total first" in t.session.hint_text()
    t.practice.boxes["total"].value = "2"
    t.practice.check_button.click()
    assert not t.hint.button.disabled


# ----- safety ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
def test_no_other_hand_appears_in_any_synced_value(variant):
    t = FlapjackTable(players=4, variant=variant, seed=31, bot_delay=0, say_total=True)
    rng = random.Random(5)
    steps = 0
    while not t.state.over:
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
    while not t.state.over:
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


def test_settings_refuse_an_impossible_table_and_keep_playing():
    t = FlapjackTable(seed=4, bot_delay=0)
    before = json.dumps(t.state.to_json())
    t.players_field.value = 8
    t.decks_field.value = 1
    t.settings.apply_button.click()
    msg = text(t.settings.message)
    assert "decks must be enough to deal 7 cards to each of 8 players" in msg
    assert json.dumps(t.state.to_json()) == before and t.state.players == 2
    t.decks_field.value = 2
    t.variant_field.value = "add-or-subtract"
    t.colors_field.value = "red-positive"
    t.level_field.value = "easy"
    t.say_field.value = True
    t.code_field.value = "42"
    t.settings.apply_button.click()
    assert "Settings applied" in text(t.settings.message)
    assert t.state.players == 8 and t.config.decks == 2 and t.deal_code == 42
    assert t.config.add_or_subtract and t.say_total
    assert len(t.names) == 8 and "Computer 7" in text(t.seats)
    assert "Add or subtract" in text(t.header)


def test_bad_constructor_settings_are_refused_clearly():
    with pytest.raises(ConfigError, match="players"):
        FlapjackTable(players=1, bot_delay=0)
    with pytest.raises(ConfigError, match="variant must be one of"):
        FlapjackTable(variant="triple", bot_delay=0)
    with pytest.raises(ConfigError, match="opponents must be one of"):
        FlapjackTable(opponents="genius", bot_delay=0)
    with pytest.raises(ConfigError, match="deal code"):
        FlapjackTable(seed="<b>", bot_delay=0)
    with pytest.raises(ConfigError, match="names"):
        FlapjackTable(names=["Mia"], bot_delay=0)
    with pytest.raises(ConfigError, match="bot_delay"):
        FlapjackTable(bot_delay=-1)
    with pytest.raises(ConfigError, match="decks must be enough"):
        FlapjackTable(players=8, bot_delay=0)
    with pytest.raises(ConfigError, match="teacher_controls"):
        FlapjackTable(teacher_controls="no", bot_delay=0)
    with pytest.raises(ConfigError, match="deck"):
        FlapjackTable(deck="KS,KS", bot_delay=0)


def test_solo_deal_code_hidden_until_the_game_is_over():
    t = FlapjackTable(players=2, seed=424242, bot_delay=0, opponents="easy")
    synced = lambda: "\n".join(str(getattr(w, k, "")) for w in all_widgets(t)  # noqa: E731
                               for k in ("value", "placeholder", "description", "tooltip"))
    assert "424242" not in synced()
    assert t.settings.values()["seed"] is None
    rng = random.Random(3)
    for _ in range(200):
        if t.state.over:
            break
        b = rng.choice([b for b in visible_cards(t) if not b.disabled])
        b.click()
        if t.sign_box.layout.display != "none":
            next(x for x in t.sign_box.children if not x.disabled).click()
        if not t.state.over:
            assert "424242" not in synced()
    assert t.state.over
    assert "Replay this deal: deal code 424242" in text(t.banner)


def test_deal_code_shown_in_walkthrough_or_when_typed():
    t = FlapjackTable(players=2, seed=5150, bot_delay=0, teacher_controls=True)
    assert "5150" not in text(t.header)
    t.walkthrough_toggle.value = True
    assert "Deal code: 5150" in text(t.header) and t.code_field.value == "5150"
    t.walkthrough_toggle.value = False
    assert "5150" not in text(t.header) and t.code_field.value == ""
    t.code_field.value = "class-7b"
    t.settings.apply_button.click()
    assert t.deal_code == "class-7b" and "Deal code: class-7b" in text(t.header)
    assert t.code_field.value == "class-7b"




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
