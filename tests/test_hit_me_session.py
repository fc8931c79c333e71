"""Hit Me at the session and view level: whole games without ipywidgets."""

from __future__ import annotations

import re
import sys

import pytest

from engine.errors import ConfigError
from engine.hit_me import Phase
from widgets.hit_me.render import announce_feedback, own_values
from widgets.hit_me.session import HitMeSession
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
    code = ("import sys; import widgets.hit_me.session, widgets.hit_me.view, widgets.table.shell; "
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
        assert s.phase is Phase.REVEALED
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
    assert s.phase is Phase.REVEALED and s.game.round.observation(None)["reveal"]


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


# ----- the table's behaviour, at the session and view level -----------------------------------
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
    from widgets.table.render import score_table_html

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
    """The one runner of both tables (widgets.table.controller.TableController): a paced computer
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
    """A peek shows the face-down card, not the sum; "Show my sum" shows it
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


# ----- the table's messages, pacing, settings and deal codes, at the session and view level ---
def nl(v) -> str:
    """The number line as the table draws it from the view
    (widgets.table.render.number_line_svg)."""
    from widgets.table.render import number_line_svg

    return number_line_svg(v.points, v.arrow, v.spans)


def seat_text(v, name: str) -> str:
    m = re.search(rf'aria-label="{re.escape(name)}">(.*?)</div></div>', v.seats_html)
    assert m, name
    return text(m.group(1))


def shown(html_text: str, code: str) -> list[str]:
    from helpers import find_card_text

    from engine.cards import parse_card

    return find_card_text(html_text, parse_card(code))


def scores(s: HitMeSession) -> list[tuple[str, str, str]]:
    from widgets.table.render import score_table_html

    return re.findall(r"<th scope='row'>([\w ]+)</th><td>(\d)</td><td>(\d)</td>",
                      score_table_html(s.names, s.game.wins, s.game.ties))


def test_solo_start_shows_own_cards_only_after_peek():
    s = stacked(BASIC)
    v = table_view(s)
    assert s.phase is Phase.PLAY
    assert "Your turn: hit or hold?" in text(v.status_html)
    assert "turn 1 of 5 for each player" in text(v.status_html)
    assert v.can_hit and v.can_hold and v.can_peek
    you = seat_text(v, "You")
    assert "7 ♥ -7" in you and "5 ♠" not in you and "sum" not in you
    assert 'aria-label="your face-down card (not peeked)"' in v.seats_html
    s.toggle_peek()
    assert table_view(s).peek_label == "Hide my face-down card"
    s.show_sum()
    v = table_view(s)
    you = seat_text(v, "You")
    assert "5 ♠ +5" in you and "sum -2, |-2| = 2" in you
    assert "You (all cards) at -2" in nl(v) and "You: |-2| = 2" in nl(v)
    s.toggle_peek()
    assert "5 ♠" not in seat_text(table_view(s), "You")
    assert table_view(s).peek_label == "Peek at my face-down card"


def test_solo_computer_moves_are_logged_and_face_up_sums_shown():
    s = stacked(BASIC)
    v = table_view(s)
    log = list(reversed(v.log_lines))  # the table's log shows the newest first
    assert log[0] == "Computer 2 holds" and log[1] == "Computer 1 holds"
    assert "You are dealt a face-down card and 7♥ (-7) face up" in log
    assert "Computer 1 (face-up cards) at -3" in nl(v)
    c2 = seat_text(v, "Computer 2")
    assert "held" in c2 and "face-up cards: -9" in c2 and "+9" not in c2


def test_solo_hit_hold_announce_reveal_and_next_round():
    s = stacked(BASIC)
    s.toggle_peek()
    s.show_sum()
    s.hit()
    v = table_view(s)
    you = seat_text(v, "You")
    assert "4 ♣ +4" in you and "sum +2, |+2| = 2" in you
    assert "You: last card +4: from -2 to +2" in nl(v)
    assert v.log_lines[-1].startswith(
        "You say “Hit me!” and get 4♣ (+4). Face-up cards: -7 + (+4) = -3")
    s.hold()
    v = table_view(s)
    assert s.phase is Phase.ANNOUNCE
    assert not v.can_hit and not v.can_hold and v.announcing and v.can_check
    assert "before the cards turn up" in text(v.status_html).lower()
    assert not shown(v.seats_html, "9C")  # still face down before the announce
    assert not v.can_finish
    s.finish_announce()  # refused before the check
    assert s.phase is Phase.ANNOUNCE
    assert s.check_announce({"sum": 2, "abs": 2}) is True
    assert "Right! +5 + (-7) + (+4) = +2, and |+2| = 2." in s.announce_feedback[0]
    v = table_view(s)
    assert not v.can_check and v.can_finish and v.finish_label == "Turn up all the cards"
    assert s.check_announce({"sum": 2, "abs": 2}) is None  # one answer a round
    s.finish_announce()
    assert s.phase is Phase.REVEALED
    v = table_view(s)
    res = text(v.result_html)
    assert "Computer 2 wins the round: |sum| = 0 is the closest to zero." in res
    assert "You: sum +2, |+2| = 2" in res and "Computer 1: sum -1, |-1| = 1" in res
    assert "Next dealer: Computer 2." in res
    assert "9 ♣ +9" in seat_text(v, "Computer 2")
    assert shown(v.seats_html, "9C") == ["nine of clubs"]  # the same search finds it
    assert "Computer 2 (held, winner)" in seat_text(v, "Computer 2")
    line = nl(v)
    for label in ("You: |+2| = 2", "Computer 1: |-1| = 1", "Computer 2: |0| = 0"):
        assert f"<li>{label}</li>" in line
    assert "icg-nl-winner" in line
    assert scores(s) == [("You", "0", "0"), ("Computer 1", "0", "0"), ("Computer 2", "1", "0")]
    assert v.round_over and not v.can_peek and not v.can_hit
    s.toggle_peek()  # refused once every card is up
    s.hit()
    assert s.last_message == ("It is not your turn.", "error")
    s.next_round()
    v = table_view(s)
    assert s.phase is Phase.PLAY and s.round_number == 2
    assert "Round 2, dealer Computer 2" in text(v.status_html)
    assert s.game.round.dealer == 2
    assert not v.round_over and v.result_html == ""
    assert not s.peeked


def test_announce_wrong_then_second_miss_offers_show_me():
    s = stacked(BASIC)
    s.toggle_peek()
    s.hold()  # sum -2
    assert s.check_announce({"sum": 2, "abs": 2}) is False  # wrong sign
    fb = text(s.announce_feedback[0])
    assert "Your sum is not +2. Add the card values again: +5 + (-7) = ?" in fb
    assert not s.show_me_offered
    s.show_me()  # refused: not offered yet
    assert s.announced == {}
    assert s.check_announce({"sum": None, "abs": 2}) is False  # not a number: no miss counted
    assert "Type a whole number" in s.announce_feedback[0]
    assert not s.show_me_offered
    assert s.check_announce({"sum": -2, "abs": 3}) is False  # sum right, |sum| wrong: 2nd miss
    fb = text(s.announce_feedback[0])
    assert "Your sum -2 is right. The absolute value is the distance from zero: |-2| = ?" in fb
    assert s.show_me_offered and not table_view(s).can_finish
    s.show_me()
    assert "Here it is: +5 + (-7) = -2, and |-2| = 2." in s.announce_feedback[0]
    assert table_view(s).can_finish
    s.finish_announce()
    assert s.phase is Phase.REVEALED


def test_ace_variant_switch_until_round_ends():
    s = stacked("2C,9C,AS,3D,9H,KH", ace_eleven=True)  # You: A♠ down, K♥ up: +1 -10 = -9
    assert table_view(s).aces == ()  # the ace is face down and not peeked
    s.toggle_peek()
    (a,) = table_view(s).aces
    assert a.description == "A♠ counts +1: make it +11"
    s.show_sum()
    s.choose_ace(a.card, True)
    v = table_view(s)
    you = seat_text(v, "You")
    assert "sum +1, |+1| = 1" in you and "+11" in you
    (a,) = v.aces
    assert a.description == "A♠ counts +11: make it +1" and v.aces_active
    s.choose_ace(a.card, False)
    assert "sum -9" in seat_text(table_view(s), "You")
    s.choose_ace(table_view(s).aces[0].card, True)  # back to 11
    s.hold()
    assert s.phase is Phase.ANNOUNCE
    v = table_view(s)
    assert v.aces and not v.aces_active
    before = s.game.to_json()
    s.choose_ace(v.aces[0].card, False)  # a forged click: the round is over
    assert s.last_message == ("The round is over: aces stay as they are.", "error")
    assert s.game.to_json() == before
    assert s.check_announce({"sum": 1, "abs": 1}) is True
    assert "Right! +11 + (-10) = +1" in s.announce_feedback[0]
    s.finish_announce()
    v = table_view(s)
    assert "You: sum +1" in text(v.result_html)
    assert v.aces == () or not v.aces_active


def test_pass_device_screens_peeks_and_announces():
    s = stacked(BASIC, mode="pass-device", students=2, opponents=[AlwaysHold()])
    assert s.names == ["Player 1", "Player 2", "Computer 1"]
    # seat 1 (Player 2) plays first
    v = table_view(s)
    assert s.pass_screen and s.viewer is None and v.pass_to == "Player 2"
    assert "Pass the device to Player 2 to take a turn" in text(v.pass_html)
    assert not v.can_hit and not v.can_hold and not v.can_peek
    assert not v.show_actions and not v.show_hint
    assert not shown(v.seats_html, "2C")  # Player 2's own face-down card
    assert "2 ♣" not in text(v.seats_html)
    s.take_device()
    v = table_view(s)
    assert not s.pass_screen and s.viewer == 1 and v.pass_to is None and v.pass_html == ""
    assert not shown(v.seats_html, "2C")  # not peeked yet
    assert "Your turn, Player 2" in text(v.status_html)
    s.toggle_peek()
    v = table_view(s)
    assert "2 ♣ +2" in seat_text(v, "Player 2")
    assert shown(v.seats_html, "2C") == ["two of clubs"]  # the same search finds it
    s.hold()
    # the computer holds, then Player 1 (seat 0) must get the device
    v = table_view(s)
    assert s.pass_screen and "Pass the device to Player 1" in text(v.pass_html)
    assert not shown(v.seats_html, "2C")  # Player 2's card is hidden again
    s.take_device()
    assert not s.peeked
    s.toggle_peek()
    assert "5 ♠ +5" in text(table_view(s).seats_html)
    assert "2 ♣" not in text(table_view(s).seats_html)
    s.hit()
    s.hold()
    # announce: Player 1 still holds the device, then Player 2
    assert s.phase is Phase.ANNOUNCE and s.viewer == 0
    assert s.check_announce({"sum": 2, "abs": 2}) is True
    assert "Right!" in s.announce_feedback[0]
    assert table_view(s).finish_label == "Done: pass to the next student"
    s.finish_announce()
    v = table_view(s)
    assert s.pass_screen and "Player 2 to announce a sum" in text(v.pass_html)
    assert "5 ♠" not in text(v.seats_html)
    s.take_device()
    assert s.announce_feedback is None and table_view(s).can_check  # a fresh check
    s.toggle_peek()
    assert s.check_announce({"sum": -1, "abs": 1}) is True
    assert table_view(s).finish_label == "Turn up all the cards"
    s.finish_announce()
    assert s.phase is Phase.REVEALED
    assert "Computer 1 wins the round" in text(table_view(s).result_html)


def test_walkthrough_steps_reveal_reasons_restart_and_replay():
    s = stacked(BASIC, walkthrough=True)
    v = table_view(s)
    assert s.game.round.current == 1  # the computers wait for "Next move"
    assert v.can_next_move and "press Next move" in text(v.status_html)
    assert "Turn on" in v.reasons_html and "always hold" not in v.reasons_html
    s.next_move()
    assert s.game.round.current == 2
    s.teacher_reveal = True  # the teacher's "Show every hand"
    v = table_view(s)
    assert "2 ♣ +2" in text(v.seats_html) and "9 ♣ +9" in text(v.seats_html)
    assert "Computer 1 chose hold: “I always hold.”" in text(v.reasons_html)
    s.teacher_reveal = False
    assert "9 ♣" not in text(table_view(s).seats_html)
    s.next_move()
    assert not table_view(s).can_next_move  # the student's turn
    s.hit()
    assert len(s.game.round.cards(0)) == 3
    assert s.restart_deal() is True
    assert len(s.game.round.cards(0)) == 2 and s.game.round.current == 1
    assert [c.code for c in s.game.round.cards(0)] == ["5S", "7H"]
    s.new_game(**{**s.settings_args(), "seed": "class-5b", "code_typed": True})  # Replay
    assert s.deal_code == "class-5b"
    first = [c.code for c in s.game.round.all_cards()]
    s.new_game(**s.settings_args())
    assert [c.code for c in s.game.round.all_cards()] == first
    with pytest.raises(ValueError, match="deal code must be"):  # DealCodeError
        s.new_game(**{**s.settings_args(), "seed": "<bad>"})
    assert s.deal_code == "class-5b"


def test_teacher_controls_are_refused_outside_walkthrough():
    s = stacked(BASIC)
    assert not s.teacher_controls
    before = s.game.to_json()
    assert s.restart_deal() is False
    assert s.set_walkthrough(True) is False
    assert s.last_message == ("The walkthrough is one of the teacher's controls.", "error")
    s.teacher_reveal = True  # even set, the reveal needs the walkthrough
    s.next_move()
    assert s.game.to_json() == before and not s.walkthrough
    assert "9 ♣" not in text(table_view(s).seats_html)


def test_the_first_deal_has_the_computer_moves_made_before_the_page_loads():
    """A paced move made while the page loads its widgets was lost by the page (ipywidgets 8):
    the first deal's computer moves are made at once (`at_once=True`), none left waiting."""
    waiting: list = []
    s = HitMeSession(bot_delay=5, schedule=lambda delay, fn: waiting.append((delay, fn)))
    args = {"players": 3, "opponents": [AlwaysHold()] * 2, "seed": 7, "mode": "solo",
            "colors": "black-positive", "turn_order": "round-robin", "ace_eleven": False,
            "students": None, "deck": BASIC}
    s.new_game(**args, at_once=True)
    v = table_view(s)
    assert s.game.round.current == 0 and v.can_hit
    assert len(s.ctl.bot_moves) == 2 and not waiting and not s.ctl._pending
    assert "thinking" not in text(v.status_html)
    s.new_game(**args)  # a later deal is paced
    v = table_view(s)
    assert s.game.round.current == 1 and not v.can_hit and len(waiting) == 1
    assert "Computer 1 is thinking" in text(v.status_html)


def test_paced_computer_moves_on_the_default_timer():
    """Without `schedule`, a paced move waits on the runner's own timer (a thread, or the
    asyncio loop when one runs)."""
    import asyncio
    import time

    def args():
        return {"players": 3, "opponents": [AlwaysHold()] * 2, "seed": 7, "mode": "solo",
                "colors": "black-positive", "turn_order": "round-robin",
                "ace_eleven": False, "students": None, "deck": BASIC}

    s = HitMeSession(bot_delay=0.05)
    s.new_game(**args())
    assert s.game.round.current == 1 and not table_view(s).can_hit
    deadline = time.time() + 5
    while s.game.round.current != 0 and time.time() < deadline:
        time.sleep(0.02)
    assert s.game.round.current == 0 and table_view(s).can_hit

    async def play() -> HitMeSession:
        a = HitMeSession(bot_delay=0.02)
        a.new_game(**args())
        assert a.game.round.current == 1
        for _ in range(200):
            if a.game.round.current == 0:
                break
            await asyncio.sleep(0.01)
        return a

    a = asyncio.run(play())
    assert a.game.round.current == 0 and table_view(a).can_hit


def test_new_deal_cancels_pending_paced_moves():
    waiting: list = []
    s = HitMeSession(bot_delay=0.1, schedule=lambda delay, fn: waiting.append((delay, fn)))
    args = {"players": 3, "opponents": [AlwaysHold()] * 2, "seed": 7, "mode": "solo",
            "colors": "black-positive", "turn_order": "round-robin", "ace_eleven": False,
            "students": None, "deck": BASIC}
    s.new_game(**args)
    old = waiting.pop()[1]
    s.new_game(**{**args, "seed": 99, "deck": None})
    assert s.deal_code == 99
    n = len(s.game.round.events)
    old()  # the old game's timer fires: it does nothing
    assert len(s.game.round.events) == n
    while waiting and s.game.round.current != 0:
        waiting.pop()[1]()
    assert s.game.round.current == 0
    assert len(s.ctl.bot_moves) == 2  # one hold each, the old game's timer did nothing


def test_settings_apply_new_game():
    s = stacked(BASIC)
    values = {**s.settings_values(), "players": 5, "colors": "red-positive",
              "opponents": "easy", "seed": "lesson-1"}
    s.new_game(**s.settings_from(values))
    v = table_view(s)
    assert s.config.players == 5 and s.config.colors.value == "red-positive"
    assert s.deal_code == "lesson-1"
    assert len(s.names) == 5 and v.seats_html.count('class="icg-seat-name"') == 5
    # red positive: hearts show +
    assert re.search(r"[♥♦] \+\d", text(v.seats_html))


def test_settings_bad_value_changes_nothing_and_game_continues():
    s = stacked(BASIC)
    before = s.game.to_json()
    with pytest.raises(ConfigError, match="players must be"):
        s.new_game(**s.settings_from({**s.settings_values(), "players": 99}))
    assert s.game.to_json() == before
    with pytest.raises(ValueError, match="deal code must be"):  # DealCodeError
        s.new_game(**s.settings_from({**s.settings_values(), "seed": "drop table;"}))
    assert s.game.to_json() == before
    s.hit()
    assert len(s.game.round.cards(0)) == 3


def test_settings_students_for_pass_device():
    s = stacked(BASIC)
    values = {**s.settings_values(), "mode": "pass-device", "students": 5}
    with pytest.raises(ValueError, match=r"at most the number of players \(3\); got 5"):
        s.settings_from(values)
    assert s.mode == "solo"
    s.new_game(**s.settings_from({**values, "students": 2}))
    assert s.mode == "pass-device" and s.names == ["Player 1", "Player 2", "Computer 1"]
    assert s.pass_screen


def test_new_game_refuses_bad_settings():
    def new(**kw):
        s = HitMeSession(bot_delay=0, names=kw.pop("names", None))
        args = {"players": 3, "opponents": "easy", "seed": 7, "mode": "solo",
                "colors": "black-positive", "turn_order": "round-robin", "ace_eleven": False,
                "students": None}
        s.new_game(**{**args, **kw})

    with pytest.raises(ConfigError, match="players must be"):
        new(players=9)
    with pytest.raises(ConfigError, match="mode"):
        new(mode="online")
    with pytest.raises(ConfigError, match="opponents"):
        new(opponents="genius")
    with pytest.raises(ConfigError, match="names"):
        new(players=2, names=["Ann"])


def test_hint_explains_from_own_observation():
    s = stacked(BASIC)
    assert "Peek at your face-down card first" in s.hint_text()
    s.toggle_peek()
    hint = text(s.hint_text())
    assert "Show my sum" in hint and "-2" not in hint  # the sum only once asked for
    s.show_sum()
    hint = text(s.hint_text())
    assert "Your sum is -2" in hint and "If you hit" in hint
    assert table_view(s).hint_enabled
    s.hold()
    assert not table_view(s).hint_enabled
    assert s.hint_text() == "Hints are for your own turn."


def test_announce_phase_hides_what_the_reveal_will_show():
    # The engine's own announce step: no view re-hides what the engine revealed.
    from engine.hit_me import ChooseAce, HitMeConfig, HitMeRound, Hold, Reveal
    from widgets.words import card_aria

    rnd = HitMeRound.deal(HitMeConfig(players=3, ace_eleven=True), 1,
                          deck="2C,9C,5S,AD,9H,7H", dealer=0)
    rnd.apply_action(ChooseAce(rnd.face_up[1][0], True), 1)  # seat 1 counts A♦ as -11
    for _ in range(3):
        rnd.apply_action(Hold())
    assert rnd.players_done and rnd.phase == "announce"
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
    seen = rnd.observation(0)
    assert seen["reveal"] and seen["result"] is not None
    assert seen["seats"][1]["face_down"]["code"] == "2C"
    assert seen["seats"][1]["face_up"][0]["value"] == -11


def test_solo_deal_code_hidden_during_play_shown_after_the_round():
    s = stacked(BASIC, seed=987654)
    assert "987654" not in repr(table_view(s)) and s.settings_values()["seed"] == ""
    s.hold()
    assert s.phase is Phase.ANNOUNCE and "987654" not in repr(table_view(s))
    assert s.check_announce({"sum": -2, "abs": 2}) is True
    s.finish_announce()
    assert s.phase is Phase.REVEALED
    assert "Replay this deal: deal code 987654" in text(table_view(s).result_html)
    s.next_round()
    assert "987654" not in repr(table_view(s))


def test_typed_deal_code_and_walkthrough_show_the_code_during_play():
    s = stacked(BASIC)
    s.new_game(**s.settings_from({**s.settings_values(), "seed": "class-5b"}))
    assert s.deal_code == "class-5b" and "deal code class-5b" in text(table_view(s).status_html)
    assert s.settings_values()["seed"] == "class-5b"
    w = stacked(BASIC, seed=4242, walkthrough=True)
    assert "deal code 4242" in text(table_view(w).status_html)
    assert w.settings_values()["seed"] == "4242"
    solo = stacked(BASIC, seed=4242)
    assert "4242" not in text(table_view(solo).status_html)
    assert solo.settings_values()["seed"] == ""


def test_walkthrough_teacher_turns_up_without_typing_and_marks_the_face_down_card():
    """In walkthrough mode the teacher turns every card up at the check
    without typing the sum, and each card that was face down says so."""
    s = stacked(BASIC, walkthrough=True)
    for _ in range(4):
        if s.game.round.current == 0:
            break
        s.next_move()
    s.hold()
    while s.phase is Phase.PLAY and table_view(s).can_next_move:
        s.next_move()
    assert s.phase is Phase.ANNOUNCE
    v = table_view(s)
    assert "was face down" not in v.seats_html
    assert v.can_finish  # no sum typed
    s.finish_announce()
    assert s.phase is Phase.REVEALED
    v = table_view(s)
    assert v.seats_html.count(">was face down<") == 3
    assert "Last move:" in v.last_reason_html
    # outside walkthrough the check comes first
    o = stacked(BASIC)
    o.hold()
    assert o.phase is Phase.ANNOUNCE and not table_view(o).can_finish
    o.finish_announce()
    assert o.phase is Phase.ANNOUNCE


def test_number_line_ends_only_widen_within_a_round():
    """The view's number-line ends stay put within a round (they widen when a
    dot needs it, never narrow back), and start afresh with the next round."""
    # You: 5S down, 7H up (-7); hits KH (-17), QS (-7), JS (+3); the computers hold
    s = stacked("2C,9C,5S,3D,9H,7H,KH,QS,JS")
    ends = [table_view(s).line_ends]
    s.on_change = lambda: ends.append(table_view(s).line_ends)  # as a table refreshes
    for _ in range(3):
        s.hit()
    log = " ".join(table_view(s).log_lines)
    assert "= -17" in log and "= +3" in log
    assert (-20, 20) in ends and ends[-1] == (-20, 20)  # +3 alone would be drawn on -10..+10
    for (lo0, hi0), (lo1, hi1) in zip(ends, ends[1:], strict=False):
        assert lo1 <= lo0 and hi1 >= hi0, ends
    s.hold()
    answer(s)
    s.next_round()
    assert ends[-1] == table_view(s).line_ends == (-10, 10)  # a new round: one card each


def test_the_end_of_round_check_names_the_mistake_it_sees() -> None:
    """A wrong sum or |sum| gets the feedback of the mistake it shows (engine/mistakes.py),
    then the question again; a wrong answer no mistake explains, the question alone."""
    from widgets.hit_me.session import check_answer

    fb = check_answer([-3, 8], {"sum": 11, "abs": 11}, False)  # the sizes added

    ok, said = fb.correct, fb.message
    assert not ok and said.startswith("The signs differ, so the cards pull opposite ways")
    assert said.endswith("Your sum is not +11. Add the card values again: -3 + (+8) = ?")
    fb = check_answer([-3, -5], {"sum": -8, "abs": -8}, False)  # the sum for |sum|
    ok, said = fb.correct, fb.message
    assert not ok and said.startswith("That is the sum. The absolute value asks how far")
    assert "Your sum -8 is right." in said
    fb = check_answer([-3, 8], {"sum": 4, "abs": 4}, False)  # no named mistake
    ok, said = fb.correct, fb.message
    assert said == "Your sum is not +4. Add the card values again: -3 + (+8) = ?"
