"""Hit Me at the session and view level: whole games without ipywidgets."""

from __future__ import annotations

import sys

import pytest

from engine.errors import ConfigError
from widgets.hit_me.render import own_values
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
        assert v.round_over and "wins the round" in v.result_html or "Tie" in v.result_html
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
