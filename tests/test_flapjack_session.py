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
        assert fb.done and fb.tone == "ok"


@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
@pytest.mark.parametrize("say_total", [False, True])
def test_whole_games_through_the_session(variant: str, say_total: bool) -> None:
    for seed in range(3):
        s = FlapjackSession(players=3, variant=variant, seed=seed, bot_delay=0,
                            say_total=say_total, opponents="hard")
        s.new_game(seed)
        rng = random.Random(seed)
        while not s.state.is_over:
            assert s.state.current == YOU  # bot_delay 0: the computer players moved at once
            v = table_view(s, YOU)
            shown = repr(v.hand) + repr(v.obs["seats"][1:])
            assert not [c for c in hidden_codes(s) if f"'code': '{c}'" in shown]
            assert all(seat["hand"] is None for seat in v.obs["seats"][1:])
            play_one(s, rng)
        v = table_view(s, YOU)
        assert v.is_over and v.replay_code is not None and "Replay this deal" in \
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
    assert s.check_total(3).message == "Choose a card first."
    assert s.show_me().message == "Choose a card first."
    assert s.restart() is not None and "teacher" in s.note[0]
    assert s.set_walkthrough(True) is not None and not s.walkthrough
    assert s.next_move() is not None
    assert saved(s) == before


def test_a_card_switched_off_only_while_the_table_changed_is_asked_again() -> None:
    """A click on a card that was off when it came (the page a moment behind), while that card
    may be played now: nothing is played, and the student is asked to press it again, not told
    that it cannot be played."""
    s = FlapjackSession(players=2, deck=DECK, seed=1, bot_delay=0)
    s.new_game(1)
    playable = next(c for c in table_view(s, YOU).hand if c.reason is None)
    before = saved(s)
    text, kind = s.refused_card(playable.key)
    assert kind == "info" and "again" in text and "cannot" not in text
    assert saved(s) == before
    assert s.refused_card("no-such-card") == ("That card cannot be played now.", "error")


def test_show_me_only_after_two_misses() -> None:
    s = FlapjackSession(players=2, deck=DECK, seed=1, bot_delay=0, say_total=True)
    s.new_game(1)
    key = next(c.key for c in table_view(s, YOU).hand if c.reason is None)
    s.click_card(key)
    before = saved(s)
    assert s.show_me().tone == "info" and saved(s) == before  # not yet
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


# ----- the table's behaviour, at the session and view level ---------------------------------
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
    while not s.state.is_over:
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
        while not s.state.is_over:
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
    assert fb.message == ("Not quite: 10 - 5 is not 15. Subtracting a positive number means adding "
                       "its opposite: on the number line you move left, and the first number "
                       "keeps its sign. Start at 10 on the number line and move 5 steps to the "
                       "left (each step is 1 less). Try again.")  # the mistake named, then where
    assert s.check_total(5).message == "Right! 10 - 5 = 5"


def test_signed_add_or_subtract_subtracts_a_negative_card() -> None:
    """Signed add or subtract: a red card keeps its sign, subtracting it moves the total up,
    and the buttons, the say-the-total check and the move log write the equation."""
    s = FlapjackSession(variant="signed-add-or-subtract", deck=DECK, seed=1, bot_delay=0,
                        say_total=True, opponents=[Scripted("4H")])
    s.new_game(1)
    assert s.state.total == -4
    header = text(render.header_html(table_view(s, YOU).header))
    assert "Black cards are positive, red cards negative." in header
    assert "subtracting a negative card moves the total up" in header
    assert "-13 to +13" in header and "+13" in header
    assert s.click_card(choice(s, "Q♦").key) is None
    add, sub = table_view(s, YOU).signs.buttons
    assert add.disabled and "the total would be -16, less than the limit -13" in add.description
    assert not sub.disabled and sub.description == "− Subtract -12"
    assert s.choose_sign(-1) is None
    key, sign = s.pending
    prompt = text(render.practice_prompt_html(s.state.total, choice(s, "Q♦").card, sign,
                                              True, False))
    assert "-4 - (-12) = ?" in prompt and "subtract -12" in prompt
    fb = s.check_total(-16)
    assert fb.message == ("Not quite: -4 - (-12) is not -16. Subtracting a negative number means "
                       "adding its opposite: on the number line you move right, not left. Start "
                       "at -4 on the number line and move 12 steps to the right (each step is 1 "
                       "greater). Try again.")
    assert s.check_total(-15).message == ("Not yet: -4 - (-12) is not -15. Start at -4 on the "
                                       "number line and move 12 steps to the right (each step "
                                       "is 1 greater). Try once more, or press Show me.")
    assert s.check_total(8).message == "Right! -4 - (-12) = +8"  # (then Ada plays at once)
    assert "You: -4 - (-12) = +8  [Q♦]" in render.log_lines(s.observation(YOU), s.names,
                                                                 YOU)
    assert "subtracts (-12)" in text(render.table_html(s.observation(YOU)))


def test_same_code_same_game_with_same_choices() -> None:
    def run() -> list[str]:
        s = FlapjackSession(players=3, seed="class-7B", bot_delay=0, opponents="hard")
        s.new_game("class-7B")
        while not s.state.is_over:
            play_first(s)
        return render.log_lines(s.observation(YOU), s.names, YOU)

    assert run() == run()


def test_names_appear_in_seats_log_and_announcements() -> None:
    s = FlapjackSession(players=2, names=["Mia", "Robo"], deck=DECK, seed=1, bot_delay=0,
                        opponents=[Scripted("3D")])
    s.new_game(1)
    v = table_view(s, YOU)
    # the one name policy marks a computer seat's given name (widgets.table.shell.seat_names)
    assert "Robo (computer): 0 + (-3) = -3  [3♦]" in render.log_lines(v.obs, v.names, YOU)
    assert "Mia (to play, dealer)" in text(render.seats_html(v.obs, v.names, YOU))


def test_one_name_policy_for_every_table() -> None:
    """Flapjack and Hit Me take names by one policy (widgets/table/shell.py): 1 to MAX_NAME (24)
    characters, all different."""
    from engine.errors import ConfigError
    from widgets.hit_me.session import HitMeSession
    from widgets.table.shell import MAX_NAME

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
    """Both tables check their computer players with widgets.table.shell.check_opponent_specs: one
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


# ----- the table's messages, pacing, settings and deal codes, at the session and view level -
def new(**kw) -> FlapjackSession:
    """A session dealt as a table deals its first game (the computers' moves at once)."""
    kw.setdefault("bot_delay", 0)
    s = FlapjackSession(**kw)
    s.new_game(s.first_code, at_once=True)
    return s


def check_hand(s: FlapjackSession) -> None:
    """The playable cards are exactly the legal ones; every other one says why."""
    st = s.state
    legal = {a.card.key for a in st.legal_actions(YOU)}
    hand = table_view(s, YOU).hand
    assert [c.key for c in hand] == [c.key for c in st.hands[YOU]]
    for c, card in zip(hand, st.hands[YOU], strict=True):
        assert c.card["value"] == s.config.value(card)
        assert (c.reason is None) == (card.key in legal)
        if c.reason is not None:
            assert c.short and c.short in c.reason or "would make" in c.short


@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_whole_game_through_the_view(variant, players, seed):
    s = new(players=players, variant=variant, seed=seed,
            opponents="hard" if seed % 2 else "easy")
    rng = random.Random(seed)
    moves = 0
    while not s.state.is_over:
        assert s.state.current == YOU  # computer players moved at once (bot_delay=0)
        v = table_view(s, YOU)
        assert v.status.startswith("Your turn")
        check_hand(s)
        table = text(render.table_html(v.obs))
        assert f"Running total: {s.state.total:+d}".replace("+0", "0") in table \
            or variant == "add-or-subtract"
        assert f"Draw pile: {len(s.state.draw_pile)} card" in table
        before = s.state.plays
        play_first(s, rng)
        assert s.state.plays > before
        moves += 1
        assert moves < 100
    result = s.state.result()
    v = table_view(s, YOU)
    banner = text(render.view_banner_html(v))
    assert "Game over" in banner
    why = "every card has been played" if result.reason.value == "all-played" else \
        "no player can play a card"
    assert why in banner
    for w in result.winners:
        assert s.names[w] in banner.split("Game over")[1]
    assert all(c.reason for c in v.hand)
    assert v.status == "The game is over."
    assert "Game over" in "\n".join(render.log_lines(v.obs, v.names, YOU))


def test_cards_breaking_the_limit_are_refused_with_the_reason():
    s = new(deck=DECK, seed=1, opponents=[Scripted("3D")])
    assert s.state.total == -3 and s.state.current == YOU
    qd = choice(s, "Q♦")
    assert qd.short == "would make -15, less than -13"
    assert qd.reason == "the total would be -15, less than the limit -13"
    assert choice(s, "J♦").reason is not None
    ks = choice(s, "K♠")
    assert ks.reason is None and ks.short == "" and ks.card["value_text"] == "+13"
    assert "Running total: -3" in text(render.table_html(table_view(s, YOU).obs))
    # A forged click on a refused card is refused with a message; nothing changes.
    before = saved(s)
    note = s.click_card(qd.key)
    assert note[1] == "error" and "You cannot play Q♦ now" in note[0]
    assert saved(s) == before
    assert s.click_card(choice(s, "5♠").key) is None
    assert "You: -3 + (+5) = +2  [5♠]" in render.log_lines(s.observation(YOU), s.names, YOU)


def test_say_total_right_answer():
    s = new(deck=DECK, seed=1, say_total=True, opponents=[Scripted("3D")])
    assert s.click_card(choice(s, "5♠").key) is None
    v = table_view(s, YOU)
    assert v.asking_total and v.status == "Type the new total, then press Check."
    prompt = render.practice_prompt_html(int(v.obs["total"]), choice(s, "5♠").card, 1, False)
    assert "-3 + (+5) = ?" in prompt
    assert s.state.plays == 1  # not played until the total is said
    shown = repr(v) + render.table_html(v.obs) + render.view_banner_html(v)
    assert "-3 + (+5) = +2" not in shown and "Running total: +2" not in text(shown)
    assert "Running total: -3" in text(render.table_html(v.obs))
    assert s.hint_text() == "Work out the new total first; the hint is back after that."
    fb = s.check_total(2)
    assert fb.done and fb.tone == "ok" and "Right! -3 + (+5) = +2" in fb.message
    assert "You: -3 + (+5) = +2  [5♠]" in render.log_lines(s.observation(YOU), s.names, YOU)
    assert s.pending is None and not table_view(s, YOU).asking_total
    assert s.check_total(2).message == "Choose a card first."  # the check is over


def test_say_total_wrong_twice_then_show_me():
    s = new(deck=DECK, seed=1, say_total=True, opponents=[Scripted("3D")])
    s.click_card(choice(s, "9♦").key)  # -3 + (-9) = -12
    fb = s.check_total(12)  # typed 12, forgot the minus
    assert fb.message.startswith("Not quite: -3 + (-9) is not +12.")
    assert "move 9 steps to the left (each step is 1 less)" in fb.message
    assert not fb.offer_show_me and not fb.done
    assert s.check_total(None).tone == "error" and s.misses == 1  # not a number: not a miss
    assert s.state.plays == 1
    fb = s.check_total(12)
    assert "Not yet" in fb.message and fb.offer_show_me
    assert s.state.plays == 1 and "-12" not in text(render.table_html(s.observation(YOU)))
    fb = s.show_me()
    assert fb.done
    assert "Here is the arithmetic: -3 + (-9) = -12. The new total is -12." in fb.message
    assert "You: -3 + (-9) = -12  [9♦]" in render.log_lines(s.observation(YOU), s.names, YOU)


@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
def test_say_total_whole_game(variant):
    s = new(variant=variant, seed=21, say_total=True, players=3)
    rng = random.Random(3)
    while not s.state.is_over:
        playable = [c for c in table_view(s, YOU).hand if c.reason is None]
        assert s.click_card(rng.choice(playable).key) is None
        if s.config.add_or_subtract:
            signs = [b.sign for b in table_view(s, YOU).signs.buttons if not b.disabled]
            assert s.choose_sign(rng.choice(signs)) is None
        assert table_view(s, YOU).asking_total
        fb = s.check_total(s.expected()[2])
        assert fb.done and "Right!" in fb.message
    assert "Game over" in text(render.view_banner_html(table_view(s, YOU)))


def test_walkthrough_steps_one_move_at_a_time_with_reasons():
    s = new(players=3, seed=8, walkthrough=True)
    assert s.state.plays == 0 and s.state.current == 1
    v = table_view(s, YOU)
    assert "Computer 1's turn: press Next move" in v.status
    assert v.next_enabled and s.show_hands
    # Every hand is shown to the teacher.
    seats = render.seats_html(v.obs, v.names, YOU)
    from widgets.words import card_name

    for c in s.state.hands[1]:
        assert card_name(c) in seats
    assert s.next_move() is None
    assert s.state.plays == 1
    reasons = text(render.view_reasons_html(table_view(s, YOU)))
    assert "Why the computer players moved" in reasons and "Computer 1 played" in reasons
    assert s.controller.reasons[1] in reasons
    while s.state.current != YOU and not s.state.is_over:
        s.next_move()
    if not s.state.is_over:
        assert not table_view(s, YOU).next_enabled  # your turn: nothing to step
        before = saved(s)
        assert s.next_move() == ("It is not a computer player's turn.", "error")
        assert saved(s) == before and s.state.current == YOU
    # Hiding the hands hides the reasons too (a reason may name a card in a hand).
    s.set_show_hands(False)
    v = table_view(s, YOU)
    assert "Why the computer players moved" not in render.view_reasons_html(v)
    assert "Show every hand" in text(render.view_reasons_html(v))
    assert v.last_move is None or v.last_move[2] == ""
    assert not [c for c in hidden_codes(s) if c in repr(v)]


def test_restart_and_replay_deal_from_code():
    s = new(players=3, seed=77, walkthrough=True)
    hands = [list(h) for h in s.state.hands]
    s.next_move()
    s.next_move()
    assert s.restart() is None
    assert s.state.plays == 0 and [list(h) for h in s.state.hands] == hands
    v = table_view(s, YOU)
    assert v.header.code == "77" and "Deal code: 77" in text(render.header_html(v.header))
    s.new_game()  # New deal
    assert s.deal_code != 77
    s.new_game(77)  # the teacher's code box
    assert s.deal_code == 77 and [list(h) for h in s.state.hands] == hands
    from engine.flapjack import FlapjackConfig

    engine = FlapjackState.deal(FlapjackConfig(players=3), rng=77)
    assert [list(h) for h in engine.hands] == hands


def test_turning_walkthrough_off_lets_the_computers_play():
    s = new(players=3, seed=8, walkthrough=True)
    assert s.state.current == 1
    assert s.set_walkthrough(False) is None
    assert s.state.current == YOU or s.state.is_over
    v = table_view(s, YOU)
    assert not v.walkthrough and not v.next_enabled and not v.show_reasons
    assert v.bot_moves == () and v.last_move is None
    assert render.view_reasons_html(v) == ""
    assert not [c for c in hidden_codes(s) if c in repr(v)]


def test_the_first_deal_has_the_computer_moves_made_at_once():
    """A paced move made while the page loads its widgets was lost by the page (ipywidgets 8):
    the first deal's computer moves are made at once (`at_once=True`), none left waiting."""
    waiting: list = []
    s = FlapjackSession(players=4, seed=8, bot_delay=5,
                        schedule=lambda delay, fn: waiting.append((delay, fn)))
    s.new_game(8, at_once=True)
    assert s.state.current == YOU and s.state.plays >= 3  # the three computers, then you
    assert not waiting and not s.controller._pending
    assert any(c.reason is None for c in table_view(s, YOU).hand)


def test_paced_computer_players_move_one_at_a_time():
    waiting: list = []
    s = FlapjackSession(players=4, seed=8, bot_delay=0.15,
                        schedule=lambda delay, fn: waiting.append((delay, fn)))
    s.new_game(8)  # a new deal once the page is there: paced
    v = table_view(s, YOU)
    assert s.state.plays == 0 and v.status == "Computer 1 is thinking..."
    assert all(c.reason for c in v.hand)
    # the reason of the moment is not on the card's label: the row keeps its length
    assert all("not your turn" in c.reason and c.short == "" for c in v.hand)
    plays = 0
    while s.state.current != YOU and not s.state.is_over:
        delay, fn = waiting.pop()
        assert delay == 0.15 and not waiting
        fn()
        assert s.state.plays == plays + 1  # one play at a time
        plays += 1
    assert plays >= 3 and table_view(s, YOU).status.startswith("Your turn")


def test_hint_is_from_the_students_view():
    from widgets.words import flapjack_hint

    s = new(deck=DECK, seed=1, opponents=[Scripted("3D")])
    hint = s.hint_text()
    assert hint and hint == flapjack_hint(s.state.observation(YOU))
    assert not [c for c in hidden_codes(s) if c in hint]


def test_settings_refuse_an_impossible_table_and_keep_playing():
    s = new(seed=4)
    before = saved(s)
    values = {**s.settings_values(), "players": 8, "decks": 1, "seed": None}
    english = s.apply_settings(values)
    assert english == ("1 deck holds 52 cards: not enough to deal 7 cards to each of 8 players "
                       "(56 are needed). Choose more decks or fewer players.")
    assert saved(s) == before and s.state.players == 2
    from widgets import words

    with words.speaking("es"):  # the page's language, never the engine's developer message
        spanish = s.apply_settings(values)
    assert spanish != english and "jugadores" in spanish
    assert all(n in spanish for n in ("52", "56", "8")) and "deck(s)" not in spanish
    assert saved(s) == before
    values.update(decks=2, variant="add-or-subtract", colors="red-positive",
                  opponents="easy", say_total=True, seed=42)
    assert s.apply_settings(values) is None
    assert s.state.players == 8 and s.config.decks == 2 and s.deal_code == 42
    assert s.config.add_or_subtract and s.say_total and s.opponents == ("easy",) * 7
    v = table_view(s, YOU)
    assert len(s.names) == 8 and "Computer 7" in text(render.seats_html(v.obs, v.names, YOU))
    assert "Add or subtract" in text(render.header_html(v.header))


def test_bad_settings_are_refused_clearly():
    from engine.errors import ConfigError

    for kw, match in (({"players": 1}, "players"),
                      ({"variant": "triple"}, "variant must be one of"),
                      ({"opponents": "genius"}, "opponents must be one of"),
                      ({"seed": "<b>"}, "deal code"),
                      ({"names": ["Mia"]}, "names"),
                      ({"bot_delay": -1}, "bot_delay"),
                      ({"players": 8}, "decks must be enough"),
                      ({"teacher_controls": "no"}, "teacher_controls"),
                      ({"deck": "KS,KS"}, "deck")):
        with pytest.raises(ConfigError, match=match):
            FlapjackSession(**{"bot_delay": 0, **kw})


def test_solo_deal_code_hidden_until_the_game_is_over():
    s = new(players=2, seed=424242, opponents="easy")
    assert s.settings_values()["seed"] == ""

    def shown() -> str:
        v = table_view(s, YOU)
        return (repr(v) + render.header_html(v.header) + render.view_banner_html(v)
                + v.settings_label)

    assert "424242" not in shown()
    rng = random.Random(3)
    for _ in range(200):
        if s.state.is_over:
            break
        play_first(s, rng)
        if not s.state.is_over:
            assert "424242" not in shown()
    assert s.state.is_over
    v = table_view(s, YOU)
    assert v.replay_code == "424242" and v.header.code is None
    assert "Replay this deal: deal code 424242" in text(render.view_banner_html(v))


def test_deal_code_shown_in_walkthrough_or_when_typed():
    s = new(players=2, seed=5150, teacher_controls=True)
    assert table_view(s, YOU).header.code is None and s.settings_values()["seed"] == ""
    s.set_walkthrough(True)
    v = table_view(s, YOU)
    assert "Deal code: 5150" in text(render.header_html(v.header))
    assert s.settings_values()["seed"] == "5150"
    s.set_walkthrough(False)
    assert "5150" not in text(render.header_html(table_view(s, YOU).header))
    assert s.settings_values()["seed"] == ""
    assert s.apply_settings({**s.settings_values(), "seed": "class-7b"}) is None
    v = table_view(s, YOU)
    assert s.deal_code == "class-7b" and "Deal code: class-7b" in text(render.header_html(v.header))
    assert s.settings_values()["seed"] == "class-7b"


def test_hint_is_off_while_the_computers_play() -> None:
    """The hint is for the student's own turn: the view's hint_enabled."""
    s = new(players=3, seed=8, walkthrough=True)
    assert s.state.current != YOU and not table_view(s, YOU).hint_enabled
    while s.state.current != YOU and not s.state.is_over:
        assert not table_view(s, YOU).hint_enabled
        assert s.next_move() is None
    assert s.state.current == YOU and table_view(s, YOU).hint_enabled


def test_hint_waits_while_the_new_total_is_asked() -> None:
    s = new(deck=DECK, seed=1, say_total=True, opponents=[Scripted("3D")])
    assert table_view(s, YOU).hint_enabled
    assert s.click_card(choice(s, "5♠").key) is None
    v = table_view(s, YOU)
    assert v.asking_total and not v.hint_enabled
    assert "+2" not in s.hint_text() and "new total first" in s.hint_text()
    assert s.check_total(2).done
    assert table_view(s, YOU).hint_enabled
