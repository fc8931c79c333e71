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


# ----- moved here from tests/test_flapjack_table.py (their substance is the session and view) -
from helpers import Scripted  # noqa: E402 - the scripted player shared with the table tests


def text(html_text: str) -> str:
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", html_text))


def choice(s: FlapjackSession, short: str):
    """The viewer's card whose face is `short` ('K♠')."""
    return next(c for c in table_view(s, YOU).hand
                if f"{c.card['label']}{c.card['symbol']}" == short)


def play_first(s: FlapjackSession, rng: random.Random | None = None) -> None:
    """Play a playable card (a legal sign too), the way the view offers them."""
    playable = [c for c in table_view(s, YOU).hand if c.reason is None]
    assert s.click_card((rng.choice(playable) if rng else playable[0]).key) is None
    if s.config.add_or_subtract:
        signs = [b.sign for b in table_view(s, YOU).signs.buttons if not b.disabled]
        assert s.choose_sign(rng.choice(signs) if rng else signs[0]) is None
    if s.say_total:
        assert s.check_total(s.expected()[2]).done


def test_simple_ten_has_no_face_cards_and_limits_ten() -> None:
    s = FlapjackSession(variant="simple-ten", seed=5, bot_delay=0)
    s.new_game(5)
    seen = set()
    while not s.state.over:
        seen |= {c.card["label"] for c in table_view(s, YOU).hand}
        play_first(s)
    assert not seen & {"J", "Q", "K"}
    v = table_view(s, YOU)
    assert (v.header.low, v.header.high) == (-10, 10)
    assert "within -10 to +10" in text(render.header_html(v.header))
    assert "limits -10 to +10" in render.number_line_html(v.obs)


def test_passes_are_announced() -> None:
    announced = 0
    for seed in range(1, 40):
        s = FlapjackSession(players=3, seed=seed, bot_delay=0, opponents="easy")
        s.new_game(seed)
        rng = random.Random(seed)
        while not s.state.over:
            start = len(s.state.events)
            play_first(s, rng)
            passes = [e for e in s.state.events[start:] if e.kind.value == "pass"]
            banner = text(render.view_banner_html(table_view(s, YOU)))
            for e in passes:
                who = s.names[e.player]
                said = f"{who} pass" if e.player == YOU else f"{who} passes"
                assert said in banner
                announced += 1
        if announced >= 3:
            break
    assert announced >= 3


def test_add_or_subtract_offers_only_legal_signs() -> None:
    s = FlapjackSession(variant="add-or-subtract", deck=DECK, seed=1, bot_delay=0,
                        opponents=[Scripted("10C")])
    s.new_game(1)
    assert s.state.total == 10 and table_view(s, YOU).signs is None
    ks = choice(s, "K♠")  # 10 + 13 = 23 is too much; 10 - 13 = -3 too little
    assert ks.short == "would make 23 or -3, outside 0 to 13"
    assert "adding: the total would be 23, greater than the limit 13" in ks.reason
    assert "subtracting: the total would be -3" in ks.reason
    text_, kind = s.click_card(ks.key)
    assert kind == "error" and "You cannot play K♠ now" in text_
    assert table_view(s, YOU).signs is None  # a card with no legal sign is never chosen
    assert s.click_card(choice(s, "5♠").key) is None
    v = table_view(s, YOU)
    assert "add it or subtract it" in v.status and choice(s, "5♠").chosen
    add, sub = v.signs.buttons
    assert add.disabled and "the total would be 15, greater than the limit 13" in \
        add.description
    assert not sub.disabled and sub.description == "\u2212 Subtract 5"
    assert s.choose_sign(1)[1] == "error"  # a forged click on the disabled Add
    assert s.state.plays == 1  # nothing played yet
    assert s.choose_sign(-1) is None
    assert "You: 10 - 5 = 5  [5♠]" in render.log_lines(s.observation(YOU), s.names, YOU)
    assert table_view(s, YOU).signs is None


def test_add_or_subtract_lead_can_only_add() -> None:
    # Ada leads 10; you add 3 for a Flapjack (13), then you lead.
    deck = "10C,3S,2C,KS,4H,9D,6C,QD,7S,AH,10H,JD,KH,5S"
    s = FlapjackSession(variant="add-or-subtract", deck=deck, seed=1, bot_delay=0,
                        opponents=[Scripted("10C")])
    s.new_game(1)
    s.click_card(choice(s, "3♠").key)
    assert not any(b.disabled for b in table_view(s, YOU).signs.buttons)  # 13 or 7
    s.choose_sign(1)
    assert "Flapjack! You make the total exactly 13" in \
        text(render.view_banner_html(table_view(s, YOU)))
    assert s.state.current == YOU and not s.state.table
    s.click_card(choice(s, "K♠").key)
    add, sub = table_view(s, YOU).signs.buttons
    assert sub.disabled and sub.description == "\u2212 Subtract 13 (a lead can only add)"
    assert not add.disabled and add.description == "+ Add 13"


def test_choose_another_card_puts_it_back() -> None:
    s = FlapjackSession(variant="add-or-subtract", deck=DECK, seed=1, bot_delay=0,
                        opponents=[Scripted("10C")])
    s.new_game(1)
    s.click_card(choice(s, "5♠").key)
    assert choice(s, "5♠").chosen
    s.cancel()
    assert table_view(s, YOU).signs is None and not choice(s, "5♠").chosen
    assert s.state.plays == 1


def test_say_total_add_or_subtract_feedback() -> None:
    s = FlapjackSession(variant="add-or-subtract", deck=DECK, seed=1, bot_delay=0,
                        say_total=True, opponents=[Scripted("10C")])
    s.new_game(1)
    s.click_card(choice(s, "5♠").key)
    s.choose_sign(-1)
    key, sign = s.pending
    prompt = render.practice_prompt_html(s.state.total, choice(s, "5♠").card, sign, True)
    assert "10 - 5 = ?" in prompt and "subtract 5" in prompt
    fb = s.check_total(15)
    assert fb.text == ("Not quite: 10 - 5 is not 15. Start at 10 on the number line and move "
                       "5 steps to the left (each step is 1 less). Try again.")
    assert s.check_total(5).text == "Right! 10 - 5 = 5"


def test_same_code_same_game_with_same_choices() -> None:
    def run() -> list[str]:
        s = FlapjackSession(players=3, seed="class-7B", bot_delay=0, opponents="hard")
        s.new_game("class-7B")
        while not s.state.over:
            play_first(s)
        return render.log_lines(s.observation(YOU), s.names, YOU)

    assert run() == run()


def test_names_appear_in_seats_log_and_announcements() -> None:
    s = FlapjackSession(players=2, names=["Mia", "Robo"], deck=DECK, seed=1, bot_delay=0,
                        opponents=[Scripted("3D")])
    s.new_game(1)
    v = table_view(s, YOU)
    # the one name policy marks a computer seat's given name (widgets.shell.seat_names)
    assert "Robo (computer): 0 + (-3) = -3  [3♦]" in render.log_lines(v.obs, v.names, YOU)
    assert "Mia (to play, dealer)" in text(render.seats_html(v.obs, v.names, YOU))


def test_one_name_policy_for_every_table() -> None:
    """Flapjack and Hit Me take names by one policy (widgets/shell.py): 1 to MAX_NAME (24)
    characters, all different."""
    from engine.errors import ConfigError
    from widgets.hit_me.session import HitMeSession
    from widgets.shell import MAX_NAME

    def hit_me(names):
        s = HitMeSession(bot_delay=0, names=names)
        s.new_game(players=2, opponents="easy", seed=1, mode="solo", colors="black-positive",
                   turn_order="round-robin", ace_eleven=False, students=None)
        return s

    ok = "x" * MAX_NAME
    assert FlapjackSession(names=[ok, "Ada"], bot_delay=0).names[0] == ok
    assert hit_me([ok, "Ada"]).names[0] == ok
    for bad in (["x" * (MAX_NAME + 1), "Ada"], ["Ada", "Ada"], ["", "Ada"]):
        with pytest.raises(ConfigError, match=f"names: give 2 different names of 1 to {MAX_NAME}"):
            FlapjackSession(names=bad, bot_delay=0)
        with pytest.raises(ConfigError, match=f"names: give 2 different names of 1 to {MAX_NAME}"):
            hit_me(bad)


def test_one_opponents_check_for_every_table() -> None:
    """Both tables check their computer players with widgets.shell.check_opponent_specs: one
    spec for all (alone or in a list of one) or one per computer seat, names stripped and
    lower-cased, a wrong count or name refused before anything changes."""
    from engine.errors import ConfigError
    from widgets.hit_me.session import HitMeSession

    def hit_me(opponents):
        s = HitMeSession(bot_delay=0)
        s.new_game(players=3, opponents=opponents, seed=1, mode="solo", colors="black-positive",
                   turn_order="round-robin", ace_eleven=False, students=None)
        return s

    assert FlapjackSession(players=3, opponents=[" Hard "], bot_delay=0).opponents == \
        ("hard", "hard")
    assert hit_me(["Easy"]).opponent_specs == ["easy", "easy"]
    for bad in (["easy", "easy", "easy"], []):
        with pytest.raises(ConfigError, match=r"one per computer player \(2\); got"):
            FlapjackSession(players=3, opponents=bad, bot_delay=0)
        with pytest.raises(ConfigError, match=r"one per computer player \(2\); got"):
            hit_me(bad)
    with pytest.raises(ConfigError, match="opponents must be one of"):
        FlapjackSession(players=3, opponents="genius", bot_delay=0)
    with pytest.raises(ConfigError, match="opponents"):
        hit_me("genius")


def test_flapjack_is_celebrated() -> None:
    # Ada: 3D 2C 4H 6C 7S 10C KH; you: 3S KS 9D QD AH JD 5S. Ada leads -3, you make 0.
    deck = "3D,3S,2C,KS,4H,9D,6C,QD,7S,AH,10C,JD,KH,5S"
    s = FlapjackSession(deck=deck, seed=1, bot_delay=0, opponents=[Scripted("3D", "2C")])
    s.new_game(1)
    assert s.state.total == -3
    assert s.click_card(choice(s, "3♠").key) is None  # -3 + (+3) = 0: Flapjack!
    v = table_view(s, YOU)
    banner = render.view_banner_html(v)
    assert 'class="icg-fj-flapjack"' in banner
    assert "Flapjack! You make the total exactly 0 and take 2 cards." in text(banner)
    assert "cards won: 2; Flapjacks: 1" in text(render.seats_html(v.obs, v.names, YOU))
    assert "Flapjack! at 0" in render.number_line_html(v.obs)  # the number line's caption
    assert "@keyframes" in render.FLAPJACK_CSS  # the banner's animation (the table's style)
    # You lead next, on an empty table.
    assert s.state.current == YOU and not s.state.table
    assert "lead" in v.status
    assert "none. The next card played leads" in text(render.table_html(v.obs))


def test_red_positive_colours_change_the_signs() -> None:
    s = FlapjackSession(deck=DECK, seed=1, bot_delay=0, colors="red-positive",
                        opponents=[Scripted("3D")])
    s.new_game(1)
    assert s.state.total == 3
    v = table_view(s, YOU)
    assert choice(s, "K♠").card["value"] == -13 and choice(s, "K♠").card["value_text"] == "-13"
    assert "Red cards are positive, black cards negative." in text(render.header_html(v.header))
