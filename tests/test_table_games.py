"""Both tables at the session and view level: whole games of every variant the tables offer,
several seeds, computer players and pass-the-device, the teacher's reveal, restarting the same
deal and the end-of-round announce check, without a single widget.

Every step asserts on `table_view(...)` values and the session's phases, and that what a viewer
is shown (the whole view, every string in it) never holds another seat's face-down card or hand
before the reveal. The widget tests (tests/test_hit_me_table.py, tests/test_flapjack_table.py)
keep only what needs the widgets: clicks routed, the view applied, forged clicks refused.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from helpers import card_forms, card_tokens, find_card_text

from engine.cards import Card
from engine.hit_me import HitMeGame, Phase
from widgets.flapjack import render as fj_render
from widgets.flapjack.session import YOU, FlapjackSession
from widgets.flapjack.view import table_view as flapjack_view
from widgets.hit_me.render import own_values
from widgets.hit_me.session import HitMeSession
from widgets.hit_me.view import table_view as hit_me_view


def leaked(view: Any, hidden: Iterable[Card], visible: Iterable[Card]) -> list[str]:
    """The hidden cards written anywhere in the view (a twin of a visible card from another
    deck does not count: its forms may appear legitimately)."""
    tokens = card_tokens(repr(view))
    seen = {(c.rank, c.suit) for c in visible}
    return [c.key for c in hidden if (c.rank, c.suit) not in seen
            and any(f in tokens for f in card_forms(c))]


def test_the_leak_check_finds_revealed_cards() -> None:
    """Positive control: with every hand shown, `leaked` finds the other seats' cards."""
    s = hit_me(players=4, seed=12, walkthrough=True)
    s.teacher_reveal = True
    hidden, shown = hit_me_hidden(s)
    assert len(leaked(hit_me_view(s), hidden, shown)) == len(hidden) == 4
    f = FlapjackSession(players=3, seed=6, walkthrough=True, bot_delay=0)
    f.new_game(6)
    st = f.state
    others = [c for p, h in enumerate(st.hands) if p != YOU for c in h]
    assert leaked(flapjack_view(f, YOU), others, st.hands[YOU])


# ----- Hit Me ---------------------------------------------------------------------------------
def hit_me(**kw: Any) -> HitMeSession:
    s = HitMeSession(bot_delay=0, walkthrough=kw.pop("walkthrough", False))
    args = {"players": 3, "opponents": "medium", "seed": 7, "mode": "solo",
            "colors": "black-positive", "turn_order": "round-robin", "ace_eleven": False,
            "students": None}
    args.update(kw)
    s.new_game(**args)
    return s


def hit_me_hidden(s: HitMeSession) -> tuple[list[Card], list[Card]]:
    """(face-down cards the current viewer may not see, cards on show to everyone)."""
    r = s.game.round
    viewer = s.viewer
    hidden = [c for p, c in enumerate(r.face_down) if c is not None
              and (p != viewer or not s.peeked)]
    shown = [c for p in range(s.config.players) for c in r.face_up[p]]
    if viewer is not None and s.peeked and r.face_down[viewer] is not None:
        shown.append(r.face_down[viewer])
    return hidden, shown


def check_hit_me_view(s: HitMeSession) -> Any:
    v = hit_me_view(s)
    assert v.viewer == s.viewer
    if s.phase is not Phase.REVEALED and not (s.walkthrough and s.teacher_reveal):
        hidden, shown = hit_me_hidden(s)
        assert not leaked(v, hidden, shown), (s.phase, s.viewer)
        assert not v.result_html
    if s.pass_screen:  # behind the pass screen nobody's cards are turned up, no button works
        assert v.viewer is None and v.pass_to == s.names[s.needed()]
        assert not (v.can_hit or v.can_hold or v.can_peek or v.can_check or v.can_finish)
    return v


def play_hit_me_turn(s: HitMeSession, rng: random.Random) -> None:
    """The student at the screen does what the view offers: peek, perhaps show the sum,
    perhaps switch an ace, then hit or hold."""
    v = check_hit_me_view(s)
    if s.pass_screen:
        s.take_device()
        return
    assert v.can_peek
    if not s.peeked:
        s.toggle_peek()
        v = check_hit_me_view(s)
    if v.can_show_sum and rng.random() < 0.3:
        s.show_sum()
        v = check_hit_me_view(s)
        assert not v.can_show_sum and s.viewer in s.sum_shown
    if v.aces and rng.random() < 0.5:
        ace = rng.choice(v.aces)
        before = sum(own_values(s.game.round.observation(s.viewer)["seats"][s.viewer]))
        s.choose_ace(ace.card, abs(ace.card["value"]) != 11)
        after = sum(own_values(s.game.round.observation(s.viewer)["seats"][s.viewer]))
        assert abs(after - before) == 10
        v = check_hit_me_view(s)
    assert v.can_hit or v.can_hold, v.status_html
    (s.hit if v.can_hit and rng.random() < 0.5 else s.hold)()


def answer_hit_me(s: HitMeSession, rng: random.Random) -> None:
    """The announce check: right at once, or wrong twice then Show me."""
    v = check_hit_me_view(s)
    if s.pass_screen:
        s.take_device()
        v = check_hit_me_view(s)
    assert v.announcing and v.can_check and not v.can_finish
    values = own_values(s.game.round.observation(s.viewer)["seats"][s.viewer])
    total = sum(values)
    before = s.game.to_json()
    s.finish_announce()  # refused before the check: nothing turns up
    assert s.phase is Phase.ANNOUNCE and s.game.to_json() == before
    if rng.random() < 0.5:
        assert s.check_announce({"sum": total, "abs": abs(total)}) is True
        assert s.announce_feedback[1] == "ok"
        assert s.announced[s.viewer] == ("shown" if s.viewer in s.sum_shown else "right")
    else:
        for _ in range(2):
            assert s.check_announce({"sum": total + 1, "abs": abs(total + 1)}) is False
        assert s.show_me_offered and s.announce_feedback[1] == "error"
        s.show_me()
        assert s.announced[s.viewer] == "shown" and str(total).lstrip("-") in \
            s.announce_feedback[0]
    v = check_hit_me_view(s)
    assert v.can_finish and not v.can_check
    s.finish_announce()


def play_hit_me_round(s: HitMeSession, rng: random.Random) -> None:
    for _ in range(200):
        if s.phase is not Phase.PLAY:
            break
        play_hit_me_turn(s, rng)
    assert s.phase is Phase.ANNOUNCE and s.game.round.players_done
    v = check_hit_me_view(s)
    assert v.status_html and not v.can_hit and not v.can_hold
    for _ in range(2 * len(s.students) + 2):
        if s.phase is not Phase.ANNOUNCE:
            break
        answer_hit_me(s, rng)
    assert s.phase is Phase.REVEALED
    v = check_hit_me_view(s)
    assert v.round_over and v.result_html and not v.can_peek
    every_down = [c for c in s.game.round.face_down if c is not None]
    assert all(find_card_text(v.seats_html, c) for c in every_down)  # every card turned up


@pytest.mark.parametrize("turn_order", ["round-robin", "all-at-once"])
@pytest.mark.parametrize("ace_eleven", [False, True])
@pytest.mark.parametrize("colors", ["black-positive", "red-positive"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hit_me_solo_whole_games(turn_order: str, ace_eleven: bool, colors: str,
                                 seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed
    s = hit_me(players=players, seed=seed, turn_order=turn_order, ace_eleven=ace_eleven,
               colors=colors, opponents=["easy", "medium", "hard"][seed])
    assert s.viewer == 0 and not s.pass_screen
    for rnd in range(2):
        play_hit_me_round(s, rng)
        assert s.round_number == rnd + 1
        s.next_round()
    assert s.phase is Phase.PLAY and s.round_number == 3
    assert s.game.rounds_played == 2


@pytest.mark.parametrize(("players", "students", "seed"), [(2, None, 1), (3, 2, 4), (4, 4, 5),
                                                           (5, 3, 6)])
def test_hit_me_pass_the_device_whole_games(players: int, students: int | None,
                                            seed: int) -> None:
    rng = random.Random(seed)
    s = hit_me(players=players, students=students, mode="pass-device", seed=seed,
               ace_eleven=seed % 2 == 1, opponents="hard")
    assert s.students == list(range(students or players))
    for _ in range(2):
        play_hit_me_round(s, rng)
        s.next_round()
    assert s.game.rounds_played == 2


def test_hit_me_forged_clicks_at_the_wrong_moment_change_nothing() -> None:
    s = hit_me(players=3, mode="pass-device", students=3, seed=9)
    assert s.pass_screen
    before = s.game.to_json()
    s.hit()
    s.hold()
    s.toggle_peek()
    s.show_sum()
    s.next_move()
    assert s.restart_deal() is False
    s.show_me()
    s.finish_announce()
    s.next_round()
    assert s.game.to_json() == before and not s.peeked and s.pass_screen
    assert s.check_announce({"sum": 0, "abs": 0}) is None


def test_hit_me_teacher_reveal_shows_every_hand_only_in_walkthrough() -> None:
    s = hit_me(players=4, seed=12, walkthrough=True)
    down = [c for c in s.game.round.face_down if c is not None]
    s.teacher_reveal = False
    v = check_hit_me_view(s)
    assert "Turn on" in v.reasons_html
    s.teacher_reveal = True
    v = hit_me_view(s)
    assert all(find_card_text(v.seats_html, c) for c in down)
    # outside walkthrough the same switch shows nothing (a student cannot set it by a forged
    # message: the widget has no toggle then, and the session ignores it)
    t = hit_me(players=4, seed=12)
    t.teacher_reveal = True
    check_hit_me_view(t)


def test_hit_me_walkthrough_restart_the_same_deal() -> None:
    rng = random.Random(3)
    s = hit_me(players=3, seed=21, walkthrough=True)
    deal = [[c.code for c in s.game.round.cards(p)] for p in range(3)]
    for _ in range(30):  # step the computers, play the student's turns
        if s.phase is not Phase.PLAY:
            break
        if hit_me_view(s).can_next_move:
            n = len(s.game.round.events)
            s.next_move()
            assert len(s.game.round.events) > n
        else:
            play_hit_me_turn(s, rng)
    assert s.restart_deal() is True
    assert s.phase is Phase.PLAY and not s.peeked and s.announced == {}
    assert [[c.code for c in s.game.round.cards(p)] for p in range(3)] == deal
    again = hit_me(players=3, seed=21, walkthrough=True)
    assert s.game.to_json() == again.game.to_json()


def test_hit_me_solo_deal_code_only_after_the_round() -> None:
    rng = random.Random(8)
    s = hit_me(seed=987654)
    assert "987654" not in repr(hit_me_view(s))
    play_hit_me_round(s, rng)
    assert "Replay this deal: deal code <b>987654</b>" in hit_me_view(s).result_html
    s.next_round()
    assert "987654" not in repr(hit_me_view(s))


def test_hit_me_later_solo_rounds_are_not_predictable_from_the_shown_code() -> None:
    """Moved from tests/test_hit_me_table.py: round 1 is the code's deal (the code shown at
    its end replays it); every later round is a fresh shuffle, not the code's second round."""
    decks = set()
    for _ in range(3):
        s = hit_me(players=3, opponents="easy", seed=55)
        assert s.game.round.face_down == HitMeGame(s.config, seed=55).round.face_down
        while s.phase is Phase.PLAY:
            s.hold()
        s.announce_misses = 2
        s.show_me()
        s.finish_announce()
        s.next_round()
        decks.add(tuple(c.code for c in s.game.round.deck))
    assert len(decks) == 3


# ----- Flapjack -------------------------------------------------------------------------------
def flapjack_check(s: FlapjackSession, viewer: int = YOU) -> Any:
    v = flapjack_view(s, viewer)
    st = s.state
    assert v.obs == s.observation(viewer)
    assert {c.card["code"] for c in v.hand} == {c.code for c in st.hands[viewer]}
    if not s.reveal:
        hidden = [c for p, h in enumerate(st.hands) if p != viewer for c in h]
        visible = list(st.hands[viewer]) + [c for c, _ in st.table] + list(st.played_cards())
        assert not leaked(v, hidden, visible), viewer
        assert all(seat["hand"] is None for p, seat in enumerate(v.obs["seats"]) if p != viewer)
        assert not v.bot_moves
    return v


def play_flapjack_turn(s: FlapjackSession, rng: random.Random) -> None:
    v = flapjack_check(s)
    playable = [c for c in v.hand if c.reason is None]
    assert playable, v.status
    for c in v.hand:
        if c.reason is not None:  # a disabled card refuses a click with its reason
            before = s.state.to_json()
            text, kind = s.click_card(c.key)
            assert kind == "error" and s.state.to_json() == before
    assert s.click_card(rng.choice(playable).key) is None
    if s.config.add_or_subtract:
        v = flapjack_check(s)
        assert v.signs is not None
        allowed = [b.sign for b in v.signs.buttons if not b.disabled]
        for b in v.signs.buttons:
            if b.disabled:
                assert s.choose_sign(b.sign)[1] == "error"
        assert s.choose_sign(rng.choice(allowed)) is None
    if s.say_total:
        v = flapjack_check(s)
        assert v.asking_total
        before, delta, after = s.expected()
        if rng.random() < 0.5:
            assert s.check_total(after).done
        else:
            assert not s.check_total(after + 1).done
            assert s.check_total(after - 1).offer_show_me
            assert s.show_me().done


@pytest.mark.parametrize("variant", ["classic", "simple-ten", "add-or-subtract"])
@pytest.mark.parametrize(("players", "decks", "colors", "level"), [
    (2, 1, "black-positive", "easy"), (3, 1, "red-positive", "hard"),
    (4, 2, "black-positive", "medium"), (6, 2, "red-positive", "expert")])
def test_flapjack_whole_games(variant: str, players: int, decks: int, colors: str,
                              level: str) -> None:
    for seed in (players, players + 10):
        rng = random.Random(seed)
        s = FlapjackSession(players=players, variant=variant, decks=decks, colors=colors,
                            opponents=level, seed=seed, bot_delay=0, say_total=seed % 2 == 0)
        s.new_game(seed)
        for _ in range(200):
            if s.state.is_over:
                break
            assert s.state.current == YOU  # bot_delay 0: the computers moved at once
            for other in range(1, players):  # every other seat's view holds only its hand
                flapjack_check(s, other)
            play_flapjack_turn(s, rng)
        assert s.state.is_over
        v = flapjack_view(s, YOU)
        assert v.is_over and v.replay_code is not None
        assert "Replay this deal" in fj_render.view_banner_html(v)
        assert v.hand == () or all(c.reason for c in v.hand)


def test_flapjack_teacher_reveal_steps_a_whole_game_and_restarts_the_deal() -> None:
    rng = random.Random(5)
    s = FlapjackSession(players=3, seed=17, walkthrough=True, bot_delay=0,
                        variant="add-or-subtract")
    s.new_game(17)
    start = s.state.to_json()
    assert s.reveal
    v = flapjack_view(s, YOU)
    assert all(seat["hand"] is not None for seat in v.obs["seats"])
    s.set_show_hands(False)
    flapjack_check(s)
    for _ in range(300):
        if s.state.is_over:
            break
        v = flapjack_check(s)
        if v.next_enabled:
            plays = s.state.plays
            assert s.next_move() is None and s.state.plays == plays + 1
        else:
            assert s.next_move() is not None  # not a computer's turn: refused
            play_flapjack_turn(s, rng)
    assert s.state.is_over
    assert s.restart() is None
    assert s.state.to_json() == start and not s.state.is_over
    s.set_show_hands(True)
    v = flapjack_view(s, YOU)
    assert v.show_reasons and all(seat["hand"] is not None for seat in v.obs["seats"])


def test_flapjack_same_code_same_game() -> None:
    def run() -> list[Any]:
        s = FlapjackSession(players=3, seed="class-5b", bot_delay=0, opponents="hard")
        s.new_game("class-5b")
        rng = random.Random(1)
        while not s.state.is_over:
            play_flapjack_turn(s, rng)
        return [repr(e) for e in s.state.events]

    assert run() == run()


# ----- one teacher policy and one name policy for both tables -------------
def test_both_sessions_take_the_teacher_controls_by_one_policy() -> None:
    """teacher_controls follows walkthrough unless given; a walkthrough needs them; without
    them the walkthrough switch and "Restart this deal" are refused and change nothing."""
    from engine.errors import ConfigError

    for walk, given, want in ((False, None, False), (True, None, True), (False, True, True)):
        h = HitMeSession(bot_delay=0, walkthrough=walk, teacher_controls=given)
        f = FlapjackSession(bot_delay=0, walkthrough=walk, teacher_controls=given)
        assert h.teacher_controls is f.teacher_controls is want
    for bad in ({"walkthrough": True, "teacher_controls": False},
                {"teacher_controls": "yes"}, {"walkthrough": 1}):
        with pytest.raises(ConfigError, match="walkthrough|teacher_controls"):
            HitMeSession(bot_delay=0, **bad)
        with pytest.raises(ConfigError, match="walkthrough|teacher_controls"):
            FlapjackSession(bot_delay=0, **bad)
    s = hit_me(players=3, seed=7)  # a student's session
    before = s.game.to_json()
    assert s.set_walkthrough(True) is False and not s.walkthrough
    assert s.restart_deal() is False and s.game.to_json() == before
    assert "teacher's controls" in (s.last_message[0] or "")
    f = FlapjackSession(players=3, seed=7, bot_delay=0)
    f.new_game(7)
    before = f.state.to_json()
    assert f.set_walkthrough(True) is not None and not f.walkthrough
    assert f.restart() is not None and f.state.to_json() == before


def test_hit_me_walkthrough_switch_pauses_and_resumes_the_computers() -> None:
    """The teacher box's walkthrough switch on Hit Me (Flapjack's already had one): off, the
    computer players play by themselves; on, they wait for Next move."""
    s = HitMeSession(bot_delay=0, teacher_controls=True)
    s.new_game(players=3, opponents="medium", seed=7, mode="solo", colors="black-positive",
               turn_order="round-robin", ace_eleven=False, students=None)
    assert not s.walkthrough and s.game.round.current == 0  # seat 1 dealt: you play first
    assert s.set_walkthrough(True) and s.walkthrough
    s.toggle_peek()
    s.hold()
    assert s.game.round.current == 1 and hit_me_view(s).can_next_move  # waiting
    assert "deal code 7" in hit_me_view(s).status_html  # the code shows in walkthrough
    assert s.set_walkthrough(False) and not s.walkthrough
    assert s.game.round.current != 1 or s.game.round.players_done  # the computers played on
    assert s.restart_deal() and s.phase is Phase.PLAY  # a teacher restarts, walkthrough or not


def test_both_sessions_name_their_seats_by_one_policy() -> None:
    """One default (You, then Computer 1, 2...), one length limit, one "(computer)" mark for a
    computer seat given a name of its own (widgets.table.shell.seat_names)."""
    h = hit_me(players=4, seed=3)
    f = FlapjackSession(players=4, decks=2, bot_delay=0)
    assert h.names == f.names == ["You", "Computer 1", "Computer 2", "Computer 3"]
    given = ["Mia", "Ben", "Robo computer"]
    h = HitMeSession(bot_delay=0, names=given)
    h.new_game(players=3, opponents="easy", seed=1, mode="solo", colors="black-positive",
               turn_order="round-robin", ace_eleven=False, students=None)
    f = FlapjackSession(players=3, names=given, bot_delay=0)
    assert h.names == f.names == ["Mia", "Ben (computer)", "Robo computer"]
    p = hit_me(players=3, mode="pass-device", students=2)
    assert p.names == ["Player 1", "Player 2", "Computer 1"]
    # a new number of players drops the given names on both tables (they fitted the old one)
    f.apply_settings({**f.settings_values(), "players": 2, "seed": None})
    assert f.names == ["You", "Computer 1"]
