"""Pure Flapjack render functions: observations (from stacked decks) to HTML and text."""

from __future__ import annotations

import re

import pytest

from engine.cards import parse_card
from engine.flapjack import FlapjackConfig, FlapjackState, Play
from widgets.flapjack import render as rf
from widgets.table.shell import seat_names
from widgets.words import card_name

NAMES = ["You", "Ada"]
# Two players, seat 0 deals, so seat 1 (Ada) gets the first card and leads.
# Ada: KH 3D 2C 4H 6C 7S 10C; You: 5S 8S KS 9D QD AH JD.
CLASSIC_DECK = "KH,5S,3D,8S,2C,KS,4H,9D,6C,QD,7S,AH,10C,JD"


def deal(variant: str = "classic", deck: str = CLASSIC_DECK, players: int = 2,
         seed: int = 1) -> FlapjackState:
    return FlapjackState.deal(FlapjackConfig(players=players, variant=variant), rng=seed,
                              deck=deck)


def play(st: FlapjackState, code: str, sign: int = 1) -> None:
    card = next(c for c in st.hands[st.current] if c.code == code)
    st.apply_action(Play(card, sign))


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


# ----- small text helpers --------------------------------------------------------------------
def test_seat_names_come_from_the_one_policy_of_every_table():
    """Flapjack names its seats as Hit Me does (widgets.table.shell.seat_names), no list of its
    own."""
    assert seat_names(None, 3) == ["You", "Computer 1", "Computer 2"]
    assert seat_names(["Mia", "Tom"], 2) == ["Mia", "Tom (computer)"]
    assert seat_names(None, 8)[7] == "Computer 7"
    assert not hasattr(rf, "seat_names") and not hasattr(rf, "DEFAULT_NAMES")


def test_pass_sentence_speaks_to_you_and_of_the_others():
    from widgets.words import flapjack_pass_sentence

    e = {"kind": "pass", "seat": 0, "reason": "no-legal-card"}
    assert flapjack_pass_sentence(e, NAMES, 0) == "You pass (have no legal card)"
    assert flapjack_pass_sentence({**e, "seat": 1}, NAMES, 0) == "Ada passes (has no legal card)"
    # A student with a given name is spoken of in the third person (not addressed as You).
    assert flapjack_pass_sentence({**e, "reason": "no-cards"}, ["Mia", "Ada"], None) == \
        "Mia passes (has no cards)"


@pytest.mark.parametrize("before,delta,aos,math,question", [
    (-3, 5, False, "-3 + (+5) = +2", "-3 + (+5) = ?"),
    (2, -7, False, "+2 + (-7) = -5", "+2 + (-7) = ?"),
    (0, -13, False, "0 + (-13) = -13", "0 + (-13) = ?"),
    (6, -5, True, "6 - 5 = 1", "6 - 5 = ?"),
    (1, 12, True, "1 + 12 = 13", "1 + 12 = ?"),
])
def test_play_math_and_question(before, delta, aos, math, question):
    assert rf.play_math(before, delta, aos) == math
    assert rf.play_question(before, delta, aos) == question


def test_direction_hint_uses_greater_and_less_never_bigger():
    right = rf.direction_hint(-3, 5)
    left = rf.direction_hint(2, -7)
    assert "right" in right and "greater" in right and "5 steps" in right
    assert "left" in left and "less" in left and "7 steps" in left
    for t in (right, left):
        assert "bigger" not in t and "smaller" not in t
    assert "+2" not in right  # the answer of -3 + 5 is not given away
    assert rf.direction_hint(10, -8, True).startswith("Start at 10 on")


def test_total_text_and_sum_text():
    assert rf.total_text(7) == "+7" and rf.total_text(-7) == "-7" and rf.total_text(0) == "0"
    assert rf.total_text(7, True) == "7"
    cards = [{"added": 5}, {"added": -3}, {"added": 7}]
    assert rf.sum_text(cards) == "+5 + (-3) + (+7) = +9"
    assert rf.sum_text(cards, True) == "5 - 3 + 7 = 9"


# ----- events ------------------------------------------------------------------------------
def test_parse_play_and_last_play_classic():
    st = deal()
    play(st, "3D")  # Ada leads -3
    play(st, "5S")  # you: -3 + (+5) = +2
    obs = st.observation(0)
    last = rf.last_play(obs)
    assert last == rf.LastPlay(0, "5♠", -3, 5, 2, False)
    play(st, "KH")  # Ada: +2 + (-13) = -11
    play(st, "AH")  # you: -11 + (-1) = -12
    play(st, "10C")  # Ada: -12 + 10 = -2
    assert rf.last_play(st.observation(0)).after == -2


def test_last_play_marks_a_flapjack():
    st = deal(deck="KH,5S")  # Ada leads the king of hearts: -13 at once
    play(st, "KH")
    last = rf.last_play(st.observation(0))
    assert last.flapjack and last.after == -13 and last.card == "K♥"
    assert rf.last_play(deal().observation(0)) is None


def test_last_play_add_or_subtract_reads_the_event_data():
    cfg = FlapjackConfig(players=2, variant="add-or-subtract")
    st = FlapjackState.deal(cfg, deck="6H,5S,2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC", rng=0)
    st.apply_action(Play(parse_card("6H")), 1)
    assert rf.last_play(st.observation(0)) == rf.LastPlay(1, "6\u2665", 0, 6, 6, False)
    st.apply_action(Play(parse_card("5S"), -1), 0)
    assert rf.last_play(st.observation(1)) == rf.LastPlay(0, "5\u2660", 6, -5, 1, False)


# ----- the table ----------------------------------------------------------------------------
def test_table_html_shows_cards_values_total_and_pile():
    st = deal()
    play(st, "3D")
    play(st, "5S")
    html = rf.table_html(st.observation(0))
    assert 'aria-label="three of diamonds, value negative 3"' in html
    assert 'aria-label="five of spades, value positive 5"' in html
    assert ">-3<" in html and ">+5<" in html  # signed values as text on the faces
    assert "Running total: +2" in text_of(html)
    assert "-3 + (+5) = +2" in html
    assert f"Draw pile: {len(st.draw_pile)} cards" in html


def test_table_html_can_hide_the_total():
    st = deal()
    play(st, "3D")
    html = rf.table_html(st.observation(0), hide_total=True)
    assert "Running total: ?" in html
    assert "Running total: -3" not in html


def test_empty_table_says_the_next_card_leads():
    html = rf.table_html(deal().observation(0))
    assert "none. The next card played leads" in html
    assert "Running total: 0" in text_of(html)


def test_add_or_subtract_table_notes_how_each_card_counted():
    st = deal("add-or-subtract")
    play(st, "10C")  # Ada has 10C: leads 10
    play(st, "5S", -1)  # you subtract 5: 5
    html = rf.table_html(st.observation(0))
    assert "subtracts 5" in html and "adds 10" in html
    assert "Running total: 5" in text_of(html)
    assert "10 - 5 = 5" in html


# ----- seats ------------------------------------------------------------------------------------
def test_seats_hide_other_hands_unless_revealed():
    st = deal()
    hidden = rf.seats_html(st.observation(0), NAMES, 0)
    shown = rf.seats_html(st.observation(0, reveal=True), NAMES, 0)
    for code in ("KH", "3D", "2C", "4H", "6C", "7S", "10C"):
        name = card_name(parse_card(code))
        assert name not in hidden
        assert name in shown
    assert hidden.count('aria-label="face-down card"') == 7
    assert "Ada (to play)" in hidden and "You (dealer)" in hidden
    assert "7 cards in hand; cards won: 0; Flapjacks: 0" in hidden


def test_seats_mark_the_winner_at_the_end():
    st = deal(deck="KH,5S")
    play(st, "KH")
    while not st.is_over:
        st.apply_action(st.legal_actions()[0])
    html = rf.seats_html(st.observation(0), NAMES, 0)
    for w in st.result().winners:
        assert f"{NAMES[w]} (winner" in html or f"{NAMES[w]} (to play, winner" in html
    assert "icg-winner" in html


# ----- status, banner, end --------------------------------------------------------------------
def test_status_text():
    st = deal()
    obs = st.observation(0)
    assert rf.status_text(obs, NAMES, 0) == "Ada is thinking..."
    assert "press Next move" in rf.status_text(obs, NAMES, 0, walkthrough=True)
    play(st, "3D")
    assert rf.status_text(st.observation(0), NAMES, 0).startswith("Your turn")
    assert rf.status_text(st.observation(0), NAMES, 0, choosing="Pick + or -") == "Pick + or -"


def test_banner_celebrates_a_flapjack_and_announces_passes():
    events = [
        {"kind": "flapjack", "seat": 1, "after": -13, "count": 3},
        {"kind": "pass", "seat": 0, "reason": "no-legal-card"},
        {"kind": "flapjack", "seat": 0, "after": 0, "count": 1},
    ]
    html = rf.banner_html(events, NAMES, 0)
    assert html.count('class="icg-fj-flapjack"') == 2
    assert "Flapjack!</span> Ada makes the total exactly -13 and takes 3 cards." in html
    assert "You make the total exactly 0 and take 1 card." in html
    assert "You pass (have no legal card)." in html
    assert rf.banner_html([{"kind": "draw", "seat": 1}], NAMES) == ""
    assert "@keyframes" in rf.FLAPJACK_CSS and "prefers-reduced-motion" in rf.FLAPJACK_CSS


def _ended(reason: str, won: list[int], winners: list[int]) -> dict:
    return {"is_over": True, "seats": [{"hand_count": 0}] * len(won), "table": [],
            "result": {"reason": reason, "cards_won": won, "winners": winners,
                       "tie": len(winners) > 1}}


def test_end_text_names_winner_and_why():
    t = rf.end_text(_ended("all-played", [20, 32], [1]), NAMES, 0)
    assert t == ("Game over: every card has been played. Ada wins with 32 cards. "
                 "Cards won: You 20, Ada 32.")
    t = rf.end_text(_ended("blocked", [30, 12], [0]), NAMES, 0)
    assert "no player can play a card that keeps the total within the limits" in t
    assert "You win with 30 cards." in t
    t = rf.end_text(_ended("blocked", [30, 12], [0]), ["Mia", "Ada"], 0)
    assert "Mia wins with 30 cards." in t
    t = rf.end_text(_ended("blocked", [10, 10, 3], [0, 1]), ["You", "Ada", "Ben"], 0)
    assert "A tie: You and Ada each won 10 cards." in t
    assert rf.end_text({"is_over": False, "result": None}, NAMES) == ""


def test_end_html_counts_cards_won_by_no_one():
    obs = _ended("blocked", [10, 12], [1])
    obs["seats"] = [{"hand_count": 2}, {"hand_count": 1}]
    obs["table"] = [{}]
    assert "4 cards still in hands or in play are won by no one." in rf.end_html(obs, NAMES)


# ----- log -------------------------------------------------------------------------------------
def test_log_lines_are_equations_with_names_and_private_draws_only_for_you():
    st = deal()
    play(st, "3D")
    play(st, "5S")
    mine = rf.log_lines(st.observation(0), NAMES, 0)
    assert "Ada: 0 + (-3) = -3  [3♦]" in mine
    assert "You: -3 + (+5) = +2  [5♠]" in mine
    drew = [line for line in mine if "drew" in line]
    assert len(drew) == 1 and drew[0].startswith("You drew ")
    assert drew[0].endswith("(only you see this)")
    theirs = rf.log_lines(st.observation(1), NAMES, 1)
    assert not any(line.startswith("You drew") for line in theirs)
    assert any(line.startswith("Ada drew") for line in theirs)
    revealed = rf.log_lines(st.observation(0, reveal=True), NAMES, 0)
    assert any(line.startswith("Ada drew") and "revealed" in line for line in revealed)
    assert mine[0].startswith("You deal 7 cards")


def test_log_lines_flapjack_and_add_or_subtract():
    st = deal("add-or-subtract", deck="KH,5S")
    play(st, "KH")
    lines = rf.log_lines(st.observation(0), NAMES, 0)
    assert "Ada: 0 + 13 = 13  [K♥]" in lines
    assert "Ada: Flapjack! The total is exactly 13; Ada takes 1 card" in lines


def test_signed_add_or_subtract_log_sum_and_arrow_write_the_subtraction():
    st = deal("signed-add-or-subtract")
    play(st, "4H")  # Ada leads -4
    play(st, "QD", -1)  # you subtract -12: -4 - (-12) = +8
    obs = st.observation(0)
    assert "You: -4 - (-12) = +8  [Q♦]" in rf.log_lines(obs, NAMES, 0)
    assert "-4 - (-12) = +8" in rf.table_html(obs) and "Running total: +8" in \
        text_of(rf.table_html(obs))
    args = rf.number_line_args(obs)
    assert (args["lo"], args["hi"]) == (-13, 13) and args["marks"] == (-13, 0, 13)
    assert (args["arrow"].start, args["arrow"].end) == (-4, 8)
    assert args["arrow"].label == "Q♦ -(-12)"
    play(st, "2C")  # Ada adds +2: +10
    assert rf.sum_text(st.observation(0)["table"]) == "-4 - (-12) + (+2) = +10"


# ----- number line -----------------------------------------------------------------------------
def test_number_line_marks_targets_limits_and_last_card():
    st = deal()
    play(st, "3D")
    play(st, "5S")
    args = rf.number_line_args(st.observation(0))
    assert args["marks"] == (-13, 0, 13) and args["limits"] == (-13, 13)
    assert (args["lo"], args["hi"]) == (-13, 13)
    assert args["arrow"].start == -3 and args["arrow"].end == 2
    assert args["arrow"].label == "5♠ +5"
    assert [p.value for p in args["points"]] == [2]
    html = rf.number_line_html(st.observation(0))
    assert "targets -13, 0, +13" in html and "limits -13 to +13" in html
    assert "5♠ +5: from -3 to +2" in html and "total at +2" in html


def test_number_line_after_a_flapjack_and_for_other_variants():
    st = deal(deck="KH,5S")
    play(st, "KH")
    args = rf.number_line_args(st.observation(0))
    assert args["arrow"].end == -13 and "Flapjack!" in args["arrow"].label
    assert {p.value for p in args["points"]} == {0, -13}
    ten = rf.number_line_args(deal("simple-ten", deck="").observation(0))
    assert ten["marks"] == (-10, 0, 10) and ten["limits"] == (-10, 10)
    aos = rf.number_line_args(deal("add-or-subtract", deck="").observation(0))
    assert aos["marks"] == (0, 13) and (aos["lo"], aos["hi"]) == (0, 13)
    hidden = rf.number_line_args(st.observation(0), hide_total=True)
    assert "points" not in hidden and "arrow" not in hidden


# ----- practice and reasons ---------------------------------------------------------------------
def test_practice_prompt_asks_without_giving_the_answer():
    st = deal()
    play(st, "3D")
    card = next(c for c in st.observation(0)["seats"][0]["hand"] if c["code"] == "5S")
    html = rf.practice_prompt_html(st.total, card, 1)
    assert "The total is -3" in html and "-3 + (+5) = ?" in html
    assert "+2" not in text_of(html)
    assert 'aria-label="five of spades, value positive 5"' in html
    aos = rf.practice_prompt_html(6, dict(card, value=5, value_text="+5"), -1, True)
    assert "subtract 5" in aos and "6 - 5 = ?" in aos and "= 1" not in aos


def test_reasons_html_newest_first_and_escaped():
    html = rf.reasons_html([("Ada", "played 5♠", "first <reason>"), ("Ben", "played K♥", "b")])
    assert html.index("Ben") < html.index("Ada")
    assert "&lt;reason&gt;" in html and "<reason>" not in html
    assert rf.reasons_html([]) == ""


def test_render_language_never_says_bigger_or_smaller():
    st = deal(players=3, deck="", seed=11)
    while not st.is_over:
        st.apply_action(st.legal_actions()[0])
    obs = st.observation(0)
    names = seat_names(None, 3)
    text = " ".join([rf.table_html(obs), rf.seats_html(obs, names), rf.end_html(obs, names),
                     rf.banner_html(obs["events"], names), " ".join(rf.log_lines(obs, names)),
                     rf.number_line_html(obs), rf.direction_hint(3, -4)]).lower()
    assert "bigger" not in text and "smaller" not in text
