"""Hit Me at the session and view level: whole games without ipywidgets."""

from __future__ import annotations

import re
import sys

import pytest

from engine.errors import ConfigError
from widgets.hit_me.render import announce_feedback, own_values
from widgets.hit_me.session import HitMeSession, Phase
from widgets.hit_me.view import table_view


def session(**kw):
    s = HitMeSession(bot_delay=0, walkthrough=kw.pop("walkthrough", False))
    args = {"players": 3, "opponents": "easy", "seed": 7, "mode": "solo",
            "colors": "black-positive", "turn_order": "round-robin", "ace_eleven": False,
            "students": None}
    args.update(kw)
    s.new_game(**args)
    return s


def answer(s: HitMeSession) -> None:
    values = own_values(s.game.round.observation(s.viewer)["seats"][s.viewer])
    assert s.check_announce({"sum": sum(values), "abs": abs(sum(values))}) is True
    s.finish_announce()


def test_the_session_needs_no_ipywidgets():
    code = ("import sys; import widgets.hit_me.session, widgets.hit_me.view, widgets.shell; "
            "assert 'ipywidgets' not in sys.modules, sorted(m for m in sys.modules "
            "if m.startswith('ipy'))")
    import subprocess

    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("seed", range(12))
def test_solo_whole_games(seed):
    s = session(seed=seed)
    for rnd in range(3):
        for _ in range(20):
            if s.phase is not Phase.PLAY:
                break
            if not s.peeked:
                s.toggle_peek()
            v = table_view(s)
            (s.hit if v.can_hit and len(table_view(s).log_lines) < 6 else s.hold)()
        assert s.phase is Phase.ANNOUNCE
        v = table_view(s)
        assert v.announcing and v.can_check and not v.can_finish and v.result_html == ""
        answer(s)
        assert s.phase is Phase.REVEAL
        v = table_view(s)
        assert v.round_over
        assert re.search(r"wins? the round|Tie", v.result_html), v.result_html
        s.next_round()
        assert s.round_number == rnd + 2
    assert sum(s.game.wins) + sum(s.game.ties or [0]) >= 3


def test_pass_device_whole_game_and_refused_clicks():
    s = session(players=2, mode="pass-device", opponents="easy", seed=3)
    assert s.pass_screen and s.viewer is None
    v = table_view(s)
    assert not v.can_hit and not v.can_hold and not v.can_peek and v.pass_to == s.names[s.needed()]
    before = s.game.to_json()
    s.hit()  # a forged click behind the pass screen changes nothing
    assert s.last_message == ("It is not your turn.", "error")
    assert s.game.to_json() == before
    for _ in range(40):
        if s.phase is not Phase.PLAY:
            break
        if s.pass_screen:
            s.take_device()
        s.hold()
    assert s.phase is Phase.ANNOUNCE
    while s.phase is Phase.ANNOUNCE:
        if s.pass_screen:
            s.take_device()
        s.finish_announce()  # refused before the check
        assert s.phase is Phase.ANNOUNCE
        answer(s)
    assert s.phase is Phase.REVEAL and s.game.round.observation(None)["reveal"]


def test_wrong_answers_offer_show_me_then_it_locks():
    s = session(seed=11)
    while s.phase is Phase.PLAY:
        s.hold()
    assert s.show_me_offered is False
    s.show_me()  # refused: not offered yet
    assert s.announced == {}
    for _ in range(2):
        assert s.check_announce({"sum": 99, "abs": 99}) is False
    assert s.show_me_offered
    s.show_me()
    assert s.announced == {0: "shown"} and s.announce_feedback[1] == "info"
    assert s.check_announce({"sum": 0, "abs": 0}) is None  # no second try after Show me


def test_bad_settings_change_nothing():
    s = session(seed=5)
    before = s.game.to_json()
    for bad in ({"players": 9}, {"mode": "network"}, {"opponents": "nobody"}):
        with pytest.raises(ConfigError):
            s.new_game(**{**s.settings_args(), **bad})
    assert s.game.to_json() == before


def test_walkthrough_moves_bots_only_on_next_move():
    s = session(walkthrough=True, seed=2)
    while s.phase is Phase.PLAY and s.game.round.current == 0:
        s.hold()
    assert s.phase is Phase.PLAY and s.ctl.bot_to_move() is not None
    assert table_view(s).can_next_move
    n = len(s.game.round.events)
    s.next_move()
    assert len(s.game.round.events) > n


# ----- moved here from tests/test_hit_me_table.py (their substance is the session and view) ---
def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


class HitOnce:
    """Hits once, then holds."""

    def choose(self, observation, legal):
        from engine.bots import Decision
        from engine.hit_me import Hit, Hold

        me = observation["seats"][observation["viewer"]]
        if me["hits"] == 0:
            return Decision(next(a for a in legal if isinstance(a, Hit)), "One hit, then hold.")
        return Decision(next(a for a in legal if isinstance(a, Hold)), "I had my hit.")


class AlwaysHold:
    def choose(self, observation, legal):
        from engine.bots import Decision
        from engine.hit_me import Hold

        return Decision(next(a for a in legal if isinstance(a, Hold)), "I always hold.")


def stacked(deck, **kw):
    kw.setdefault("opponents", [AlwaysHold()] * (kw.get("players", 3) - 1))
    return session(deck=deck, **kw)


def test_announce_feedback_pure():
    assert announce_feedback([5, -7], -2, 2) == (True, "Right! +5 + (-7) = -2, and |-2| = 2.")
    ok, msg = announce_feedback([5, -7], None, 2)
    assert not ok and "whole number" in msg


@pytest.mark.parametrize(("order", "expected"), [
    ("round-robin", ["Computer 1 says", "Computer 2 says", "You: ", "Computer 1 holds",
                     "Computer 2 holds"]),
    ("all-at-once", ["Computer 1 says", "Computer 1 holds", "Computer 2 says",
                     "Computer 2 holds", "You: "]),
])
def test_turn_orders(order, expected):
    s = session(deck="2C,9C,5S,3D,9H,7H,4C,2D,3C", turn_order=order,
                opponents=[HitOnce(), HitOnce()])
    s.hit()
    got = []
    for ln in table_view(s).log_lines:
        if "dealt" in ln:
            continue
        if ln.startswith("Computer") and "Hit me" in ln:
            got.append(ln.split(" says")[0] + " says")
        elif ln.startswith("Computer"):
            got.append(ln)
        else:
            got.append("You: ")
    assert got == expected
    assert s.game.round.current == 0
    assert "turn 2 of 5" in text(table_view(s).status_html)


def test_seven_cards_ends_the_turn_without_hold():
    s = session(seed=3, opponents=[AlwaysHold(), AlwaysHold()])
    for _ in range(5):
        assert table_view(s).can_hit
        s.hit()
    assert s.phase is Phase.ANNOUNCE
    assert "7 cards" in text(table_view(s).seats_html)


def test_ace_never_set_counts_closest_to_zero_in_the_announce():
    s = stacked("2C,9C,AS,3D,9H,KH", ace_eleven=True)
    s.hold()
    s.toggle_peek()
    assert "ace counts 11 (not set)" in text(table_view(s).seats_html)
    assert s.check_announce({"sum": 1, "abs": 1}) is True
    assert "Right! +11 + (-10) = +1, and |+1| = 1." in s.announce_feedback[0]


def test_tie_names_co_winners_and_deal_passes_to_least_recent_dealer():
    from widgets.render import score_table_html

    s = stacked("2C,9C,5S,3D,6H,6D")  # You +5 -6 = -1, C1 +2 -3 = -1, C2 +9 -6 = +3
    s.hold()
    assert s.check_announce({"sum": -1, "abs": 1}) is True
    s.finish_announce()
    res = text(table_view(s).result_html)
    assert "Tie: You and Computer 1 are co-winners, each with |sum| = 1." in res
    assert "Next dealer: Computer 1." in res
    rows = re.findall(r"<th scope='row'>([\w ]+)</th><td>(\d)</td><td>(\d)</td>",
                      score_table_html(s.names, s.game.wins, s.game.ties))
    assert rows == [("You", "0", "1"), ("Computer 1", "0", "1"), ("Computer 2", "0", "0")]
    s.next_round()
    assert s.game.round.dealer == 1


def test_paced_computer_players_wait_for_the_injected_schedule():
    """The one runner of both tables (widgets.controller.TableController): a paced computer
    move waits for the session's `schedule(delay, fn)`, one move per tick."""
    waiting: list = []
    s = HitMeSession(bot_delay=0.5, schedule=lambda delay, fn: waiting.append((delay, fn)))
    s.new_game(players=3, opponents="easy", seed=7, mode="solo", colors="black-positive",
               turn_order="round-robin", ace_eleven=False, students=None,
               deck="2C,9C,5S,3D,9H,7H,4C")  # seat 0 deals: the computers (1, 2) go first
    assert s.game.round.current == 1 and len(waiting) == 1
    n = len(s.game.round.events)
    for _ in range(10):
        if s.game.round.current == 0:
            break
        delay, fn = waiting.pop()
        assert delay == 0.5 and not waiting
        fn()
        assert len(s.game.round.events) == n + 1  # one move per tick
        n += 1
    assert s.game.round.current == 0 and not waiting and table_view(s).can_hit


# deck: seats 1, 2, 0 face down; 1, 2, 0 face up; then hits
BASIC = "2C,9C,5S,3D,9H,7H,4C"  # You 5S -7H = -2 (+4C hit -> +2); C1 +2 -3 = -1; C2 +9 -9 = 0


def test_pass_device_all_students():
    s = session(mode="pass-device", opponents=[], deck=BASIC)
    assert s.names == ["Player 1", "Player 2", "Player 3"]
    assert s.ctl.bots == {}
    for seat in (1, 2, 0):
        assert s.pass_screen and s.needed() == seat
        s.take_device()
        s.hold()
    assert s.phase is Phase.ANNOUNCE


class Broken:
    def choose(self, observation, legal):
        raise RuntimeError("this bot is broken")


def test_a_failing_computer_player_does_not_stall_the_table():
    s = session(deck=BASIC, opponents=[Broken(), AlwaysHold()])
    assert s.game.round.current == 0  # the broken bot made the fallback move (hold)
    assert s.game.round.held[1]
    assert s.ctl.reasons[1] == "(made a fallback move)"


def test_named_players_and_levels_play_whole_rounds():
    for level in ("easy", "medium", "hard"):
        s = HitMeSession(bot_delay=0, names=["Mia", "Ben", "Ann", "Raj"])
        s.new_game(players=4, opponents=level, seed=11, mode="solo", colors="black-positive",
                   turn_order="round-robin", ace_eleven=False, students=None)
        for _ in range(3):
            while s.phase is Phase.PLAY:
                assert s.game.round.current == 0
                if not s.peeked:
                    s.toggle_peek()
                (s.hold if s.game.round.hits(0) >= 1 else s.hit)()
            values = s.game.round.observation(0)["seats"][0]["values"]
            assert s.check_announce({"sum": sum(values), "abs": abs(sum(values))}) is True
            assert "Right!" in s.announce_feedback[0]
            s.finish_announce()
            winners = s.game.round.result().winners
            res = text(table_view(s).result_html)
            assert all(s.names[w] in res.split(".")[0] for w in winners)
            s.next_round()
        assert sum(s.game.wins) + (1 if any(s.game.ties) else 0) >= 1
        assert s.game.rounds_played == 3


def test_show_my_sum_while_playing_and_the_check_records_it():
    """Issue 14 item 1: a peek shows the face-down card, not the sum; "Show my sum" shows it
    (seat, number line, log) and the end-of-round check records that it was shown."""
    s = session(deck=BASIC, opponents=[AlwaysHold(), AlwaysHold()])
    assert not table_view(s).can_show_sum  # nothing to add up before a peek
    s.show_sum()  # a forged click: refused
    assert s.sum_shown == set()
    s.toggle_peek()
    v = table_view(s)
    assert "5 ♠ +5" in text(v.seats_html) and "sum -2" not in text(v.seats_html)
    assert not any("all cards" in p.label for p in v.points if "You" in p.label)
    assert not any("your sum" in ln for ln in v.log_lines)
    s.show_sum()
    v = table_view(s)
    assert "sum -2, |-2| = 2" in text(v.seats_html)
    assert any(p.label.startswith("You (all cards)") and p.value == -2 for p in v.points)
    assert any("your sum is 5 + (-7) = -2" in ln.replace("+5", "5") for ln in v.log_lines)
    assert not v.show_sum_visible
    s.hold()
    assert s.phase is Phase.ANNOUNCE
    assert s.check_announce({"sum": -2, "abs": 2}) is True
    assert s.announced[0] == "shown" and "Show my sum" in s.announce_feedback[0]


def test_hint_is_off_while_the_computers_play():
    s = session(deck=BASIC, walkthrough=True, opponents=[AlwaysHold(), AlwaysHold()])
    assert s.phase is Phase.PLAY and s.game.round.current != 0
    assert not table_view(s).hint_enabled
    for _ in range(4):
        if s.game.round.current == 0:
            break
        s.next_move()
    assert s.game.round.current == 0 and table_view(s).hint_enabled
