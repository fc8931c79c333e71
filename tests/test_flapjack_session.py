"""The Flapjack session and view without widgets: whole games by the session's methods, what the
view shows each viewer (their own observation only), and refused clicks that change nothing."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine.flapjack import FlapjackState
from widgets.flapjack import render
from widgets.flapjack.session import YOU, FlapjackSession
from widgets.flapjack.view import TableView, table_view

# Two players, seat 0 (you) deals, so Ada (seat 1) gets the first card and leads.
# Ada: KH 3D 2C 4H 6C 7S 10C; you: 5S 8S KS 9D QD AH JD.
DECK = "KH,5S,3D,8S,2C,KS,4H,9D,6C,QD,7S,AH,10C,JD"


def saved(s: FlapjackSession) -> str:
    return json.dumps(s.state.to_json(), sort_keys=True)


def hidden_codes(s: FlapjackSession, viewer: int = YOU) -> set[str]:
    """Codes of the cards in other players' hands (face down for viewer until revealed)."""
    return {c.code for p, h in enumerate(s.state.hands) if p != viewer for c in h}


def play_one(s: FlapjackSession, rng: random.Random) -> None:
    """The student plays a random playable card the way the view offers it."""
    v = table_view(s, YOU)
    playable = [c for c in v.hand if c.reason is None]
    assert playable, v.status
    assert s.click_card(rng.choice(playable).key) is None
    if s.config.add_or_subtract:
        v = table_view(s, YOU)
        assert v.signs is not None
        sign = rng.choice([b.sign for b in v.signs.buttons if not b.disabled])
        assert s.choose_sign(sign) is None
    if s.say_total:
        before, delta, after = s.expected()
        assert s.check_total(after + 1).done is False
        fb = s.check_total(after)
        assert fb.done and fb.kind == "ok"


@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
@pytest.mark.parametrize("say_total", [False, True])
def test_whole_games_through_the_session(variant: str, say_total: bool) -> None:
    for seed in range(3):
        s = FlapjackSession(players=3, variant=variant, seed=seed, bot_delay=0,
                            say_total=say_total, opponents="hard")
        s.new_game(seed)
        rng = random.Random(seed)
        while not s.state.over:
            assert s.state.current == YOU  # bot_delay 0: the computer players moved at once
            v = table_view(s, YOU)
            shown = repr(v.hand) + repr(v.obs["seats"][1:])
            assert not [c for c in hidden_codes(s) if f"'code': '{c}'" in shown]
            assert all(seat["hand"] is None for seat in v.obs["seats"][1:])
            play_one(s, rng)
        v = table_view(s, YOU)
        assert v.over and v.replay_code is not None and "Replay this deal" in \
            render.view_banner_html(v)
        assert v.hand == () or all(c.reason for c in v.hand)


def test_the_view_reads_only_the_viewers_observation() -> None:
    s = FlapjackSession(players=2, deck=DECK, seed=1, bot_delay=0)
    s.new_game(1)
    v = table_view(s, YOU)
    assert isinstance(v, TableView)
    assert v.obs == s.state.observation(YOU)  # no more than the student's observation
    assert {c.card["code"] for c in v.hand} == {c.code for c in s.state.hands[YOU]}
    assert not any(f"'{c}'" in repr(v) for c in hidden_codes(s))
    # why each card is refused comes as data for the viewer's own cards only
    assert set(s.card_whys(YOU)) == {c.key for c in s.state.hands[YOU]}


def test_a_limit_breaking_card_is_disabled_with_a_short_reason() -> None:
    s = FlapjackSession(players=2, deck=DECK, seed=1, bot_delay=0, opponents="easy")
    s.new_game(1)
    total = s.state.total
    v = table_view(s, YOU)
    for c in v.hand:
        legal = -13 <= total + int(c.card["value"]) <= 13
        assert (c.reason is None) == legal, (c, total)
        if not legal:
            assert c.short and c.short != c.reason or "would make" in c.short


def test_refused_clicks_change_nothing() -> None:
    s = FlapjackSession(players=2, deck=DECK, seed=1, bot_delay=0, teacher_controls=False)
    s.new_game(1)
    before = saved(s)
    opponent_card = next(iter(s.state.hands[1])).key
    assert s.click_card(opponent_card) == ("That card is not in your hand.", "error")
    assert s.click_card("no-such-card")[1] == "error"
    assert s.choose_sign(-1) == ("Choose a card first.", "error")
    assert s.check_total(3).text == "Choose a card first."
    assert s.show_me().text == "Choose a card first."
    assert s.restart() is not None and "teacher" in s.note[0]
    assert s.set_walkthrough(True) is not None and not s.walkthrough
    assert s.next_move() is not None
    assert saved(s) == before


def test_show_me_only_after_two_misses() -> None:
    s = FlapjackSession(players=2, deck=DECK, seed=1, bot_delay=0, say_total=True)
    s.new_game(1)
    key = next(c.key for c in table_view(s, YOU).hand if c.reason is None)
    s.click_card(key)
    before = saved(s)
    assert s.show_me().kind == "info" and saved(s) == before  # not yet
    _, _, after = s.expected()
    assert not s.check_total(after + 1).offer_show_me
    assert s.check_total(after + 2).offer_show_me
    fb = s.show_me()
    assert fb.done and saved(s) != before and s.pending is None


def test_walkthrough_steps_one_move_and_hides_reasons_until_hands_show() -> None:
    s = FlapjackSession(players=3, seed=4, walkthrough=True, bot_delay=0)
    s.new_game(4)
    assert s.state.current == 1
    v = table_view(s, YOU)
    assert v.next_enabled and v.show_reasons  # "Show every hand" is on by default
    plays = s.state.plays
    assert s.next_move() is None and s.state.plays == plays + 1
    assert table_view(s, YOU).bot_moves
    s.set_show_hands(False)
    v = table_view(s, YOU)
    assert not v.show_reasons and v.bot_moves == ()
    assert all(seat["hand"] is None for seat in v.obs["seats"][1:])
    assert "Show every hand" in render.view_reasons_html(v)


def test_paced_computer_players_wait_for_the_schedule() -> None:
    waiting: list = []
    s = FlapjackSession(players=2, deck=DECK, seed=1, bot_delay=0.5,
                        schedule=lambda delay, fn: waiting.append((delay, fn)))
    s.new_game(1)
    assert s.state.current == 1 and len(waiting) == 1  # Ada leads after a pause
    plays = s.state.plays
    for _ in range(20):
        if s.state.current == YOU:
            break
        delay, fn = waiting.pop()
        assert delay == 0.5 and not waiting
        fn()
        assert s.state.plays == plays + 1  # one move per tick
        plays += 1
    assert s.state.current == YOU and not waiting


def test_the_session_view_and_render_need_no_ipywidgets() -> None:
    code = ("import sys, widgets.flapjack.session, widgets.flapjack.view, "
            "widgets.flapjack.render; print('ipywidgets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_state_is_for_tests_only() -> None:
    s = FlapjackSession(players=2, seed=3, bot_delay=0)
    s.new_game(3)
    assert isinstance(s.state, FlapjackState)


def test_another_viewer_sees_only_their_own_hand() -> None:
    s = FlapjackSession(players=3, seed=6, bot_delay=0)
    s.new_game(6)
    v = table_view(s, 2)
    assert {c.card["code"] for c in v.hand} == {c.code for c in s.state.hands[2]}
    assert v.obs["seats"][0]["hand"] is None and v.obs["seats"][1]["hand"] is None
    assert not any(f"'{c}'" in repr(v) for c in hidden_codes(s, 2))
    assert all(c.reason for c in v.hand)  # not seat 2's turn: every card refused, with why
