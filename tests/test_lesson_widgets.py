"""The lesson widgets and helpers: worked examples, card explorer, practice, strategy lab.

Widgets are driven as a student would (button.click(), typed values) and checked on what
they show.
"""

from __future__ import annotations

import io
import random
import re
from html import escape

import numpy as np
import pytest
from matplotlib.figure import Figure

from engine.cards import Color, parse_cards
from engine.flapjack import FlapjackConfig
from widgets.lessons import strategy
from widgets.lessons import worked_examples as lt
from widgets.lessons.explorer import MAX_CARDS, CardExplorer, zero_pairs
from widgets.lessons.practice import (
    KINDS,
    SAME,
    AbsoluteValuePractice,
    Question,
    check,
    make_question,
    parse_answer,
)


# ----- worked examples ------------------------------------------------------------------------
def test_hit_me_example_plays_the_stacked_deal() -> None:
    rnd = lt.hit_me_example_round()
    res = rnd.result()
    assert res.sums == (4, -2, -1)  # Ana, Ben, Cam
    assert res.winners == (2,)
    text = lt.hit_me_example()
    assert "Cam wins" in text
    assert "Ana: -10 + (+6) + (+3) + (-5) + (+10) = +4, |+4| = 4" in text
    assert "your" not in text  # private notes are reworded for an onlooker


def test_flapjack_deck_deals_the_given_hands() -> None:
    state = lt.flapjack_example_state(plays=0)
    for seat, hand in enumerate(lt.FLAPJACK_EXAMPLE_HANDS):
        assert [c.code for c in state.hands[seat]] == list(hand)
    assert [c.code for c in state.draw_pile[:3]] == ["7S", "8D", "2S"]
    assert state.current == 1  # left of the dealer leads


def test_flapjack_example_makes_two_flapjacks() -> None:
    state = lt.flapjack_example_state()
    assert [len(t) for t in state.tricks] == [3, 2, 0]
    assert state.flapjacks == [1, 1, 0]
    text = lt.flapjack_example()
    assert "+4 + (+9) = +13" in text and "-5 + (+5) = 0" in text
    assert "the total would be +18, greater than the limit +13" in text


def test_example_pictures() -> None:
    html = lt.hit_me_example_html()
    for text in ("Ben at -2", "Cam at -1", "Ana at +4", "Cam: |-1| = 1", "Cam (wins)"):
        assert text in html
    assert 'aria-label="king of diamonds, value negative 10"' in html  # face-down cards revealed
    html = lt.flapjack_example_html()
    assert "targets -13, 0, +13" in html and "from +4 to +13" in html and "takes 3 cards" in html
    view = lt.example_view("flapjack")._repr_html_()  # plain HTML output, no widget models
    assert '<div class="icg-root icg-example">' in view and "from +4 to +13" in view
    # its Large print switch: a labelled checkbox (keyboard and screen reader), and the rule
    # that makes its text 24 px when it is ticked
    assert '<label class="icg-lp-switch"><input type="checkbox"> Large print</label>' in view
    assert ".icg-root.icg-example:has(> .icg-lp-switch input:checked)" in view
    es = lt.example_view("hit-me", "es")._repr_html_()
    assert '<input type="checkbox"> Letra grande</label>' in es
    assert "<style>" in view and ".icg-card" in view
    with pytest.raises(ValueError):
        lt.example_view("poker")


def test_card_values_table() -> None:
    rows = {line.split()[0]: line.split()[1:] for line in lt.card_values_table().splitlines()[2:]}
    assert rows["J"] == ["+10", "-10", "+11", "-11"]
    assert rows["A"] == ["+1", "-1", "+1", "-1"]
    flipped = {ln.split()[0]: ln.split()[1:]
               for ln in lt.card_values_table("red-positive").splitlines()[2:]}
    assert flipped["K"] == ["-10", "+10", "-13", "+13"]


def test_worked_comparisons() -> None:
    text = lt.worked_comparisons([(-6, 2), (-5, 5)])
    assert "+2 is closer to zero" in text and "same distance" in text


def test_stacking_instructions_list_the_example_deck() -> None:
    text = lt.stacking_instructions()
    for card in parse_cards(lt.HIT_ME_EXAMPLE_DECK):
        assert card.short in text


def test_number_lines_show_distances() -> None:
    html = lt.steps_line([5, -8])
    assert "|-3| = 3" in html and "from +5 to -3" in html
    assert "|-4| = 4" in lt.points_line([-4, 2])


# ----- card explorer --------------------------------------------------------------------------
def test_explorer_builds_a_sum_by_clicks() -> None:
    e = CardExplorer()
    e.rank_buttons[(5, Color.BLACK)].click()
    e.rank_buttons[(8, Color.RED)].click()
    assert e.values == [5, -8] and e.total == -3
    assert "+5 + (-8) = -3" in e.equation.value and "|-3| = 3" in e.equation.value
    assert "from +5 to -3" in e.line.value
    assert e.rank_buttons[(8, Color.RED)].description == "8\u2665 -8"


def test_explorer_opposites_and_zero_pairs() -> None:
    e = CardExplorer(game="flapjack")
    e.rank_buttons[(12, Color.RED)].click()
    e.rank_buttons[(3, Color.BLACK)].click()
    assert e.cancel_button.disabled
    e.opposite_button.click()  # the opposite of +3 is a red 3
    assert e.values == [-12, 3, -3]
    assert "Zero pairs" in e.pairs.value and not e.cancel_button.disabled
    e.cancel_button.click()
    assert e.values == [-12] and "still -12" in e.equation.value


def test_explorer_undo_clear_limit_and_colours() -> None:
    e = CardExplorer()
    for _ in range(MAX_CARDS + 2):
        e.rank_buttons[(1, Color.BLACK)].click()
    assert len(e.cards) == MAX_CARDS
    assert all(b.disabled for b in e.rank_buttons.values())
    e.undo_button.click()
    assert len(e.cards) == MAX_CARDS - 1
    e.color_toggle.value = "red-positive"
    assert e.total == -(MAX_CARDS - 1)
    e.clear_button.click()
    assert e.cards == [] and e.undo_button.disabled
    with pytest.raises(ValueError):
        CardExplorer(game="poker")


def test_zero_pairs_use_each_card_once() -> None:
    assert zero_pairs([3, -3, -3, 3, 5]) == [(0, 1), (2, 3)]
    assert zero_pairs([4, 4, -4]) == [(0, 2)]


# ----- practice -------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_generated_questions_have_right_answers(kind: str) -> None:
    rng = random.Random(11)
    for _ in range(300):
        q = make_question(rng, kind)
        if kind == "closer":
            a, b = q.numbers
            assert a != b
            want = SAME if abs(a) == abs(b) else (0 if abs(a) < abs(b) else 1)
            assert q.answer == want
            assert check(q, want).correct
        else:
            assert q.answer == abs(sum(q.numbers)) >= 0
            assert check(q, str(q.answer)).correct
            assert not check(q, str(q.answer + 1)).correct


def test_questions_repeat_with_the_same_code() -> None:
    a = [make_question(random.Random(5), k).prompt for k in KINDS]
    b = [make_question(random.Random(5), k).prompt for k in KINDS]
    assert a == b


@pytest.mark.parametrize("text", ["", "abc", "1e3", "--4", "4.5", "\u0663", "9999999", None, 7])
def test_parse_answer_refuses_nonsense(text: object) -> None:
    assert parse_answer(text) is None


def test_parse_answer_reads_signs() -> None:
    assert parse_answer(" -8 ") == -8 and parse_answer("+8") == 8 and parse_answer("\u22128") == -8


def test_feedback_names_the_misconception() -> None:
    q = Question("abs", "What is |-8|?", (-8,), 8)
    fb = check(q, "-8")
    assert not fb.correct and "never negative" in fb.message
    fb = check(q, "hello")
    assert not fb.valid and "in digits" in fb.message
    for typed, why in [("8-", "The sign goes before the number"), ("--8", "One sign is enough"),
                       ("8.5", "whole number")]:
        fb = check(q, typed)
        assert not fb.valid and why in fb.message, (typed, fb.message)
    hand = Question("abs-sum", "", (5, -3), 2)
    fb = check(Question("abs-sum", "", (-5, 3), 2), "-2")
    assert fb.mistake == "abs-kept-sign" and "drop the sign" in fb.message
    fb = check(hand, "8")
    assert fb.mistake == "added-abs" and "zero pairs" in fb.message
    assert check(hand, "3").mistake is None and "Count the steps" in check(hand, "3").message
    closer = Question("closer", "", (-9, 2), 1)
    fb = check(closer, 0)
    assert fb.mistake == "lesser-is-closer" and "not which number is less" in fb.message
    assert not check(closer, 5).valid


def test_practice_widget_correct_answer() -> None:
    p = AbsoluteValuePractice(kinds=["abs"], seed=3, questions=3)
    assert "Question 1 of 3" in p.header.value and p.next_button.disabled
    assert p.show_button.disabled  # show me comes after a first try
    p.answer.value = str(p.question.answer)
    p.check_button.click()
    assert "Yes!" in p.feedback.value and p.correct == 1
    assert not p.next_button.disabled and p.check_button.disabled
    assert "icg-numberline" in p.picture.value


def test_practice_widget_wrong_try_again_show_me() -> None:
    p = AbsoluteValuePractice(kinds=["abs-sum"], seed=4, questions=2)
    q = p.question
    p.answer.value = str(q.answer + 3)
    p.check_button.click()
    assert "\u2717" in p.feedback.value and not p.try_button.disabled
    assert not p.show_button.disabled
    p.try_button.click()
    assert p.answer.value == "" and p.feedback.value == ""
    p.show_button.click()
    assert "Here is how" in p.feedback.value and p.correct == 0
    assert p.check_button.disabled and not p.next_button.disabled
    p.next_button.click()
    assert "Question 2 of 2" in p.header.value
    p.show_me()
    p.next_button.click()
    assert "Set finished: 0 of 2" in p.prompt.value and p.next_button.disabled


def test_practice_widget_closer_choices() -> None:
    p = AbsoluteValuePractice(kinds=["closer"], seed=8, questions=4)
    q = p.question
    assert [b.description for b in p.choice_buttons] == list(q.choices)
    assert p.typed_row.layout.display == "none"
    index = 2 if q.answer == SAME else q.answer
    p.choice_buttons[index].click()
    assert p.correct == 1 and "Yes!" in p.feedback.value


def test_practice_widget_forged_values() -> None:
    p = AbsoluteValuePractice(kinds=["abs"], seed=1)
    p.answer.value = "<script>alert(1)</script>"
    p.check_button.click()
    assert "whole number" in p.feedback.value and "<script>" not in p.feedback.value
    assert p.attempts == 0 and p.show_button.disabled  # nonsense is not counted as a try
    p.answer.value = "7"
    p.sign_button.click()
    assert p.answer.value == "-7"
    p.sign_button.click()
    assert p.answer.value == "7"
    with pytest.raises(ValueError):
        AbsoluteValuePractice(kinds=["division"])


# ----- strategy lab ---------------------------------------------------------------------------
def test_hold_table_counts_every_round() -> None:
    table = strategy.hold_table(players=4, rounds=20_000, seed=2, progress=False)
    assert table.count.sum() == 20_000
    chance = np.nan_to_num(table.chance)
    assert ((0 <= chance) & (chance <= 1)).all()
    assert chance[0] > 0.6 > chance[2] > chance[5]  # closer to zero wins more often
    assert table.chance_at_least(3) < 0.15
    again = strategy.hold_table(players=4, rounds=20_000, seed=2, progress=False)
    assert (again.wins == table.wins).all()


def test_more_players_make_a_three_worse() -> None:
    rates = strategy.claim_rates(players=(2, 4, 6), rounds=20_000, seed=1, progress=False)
    assert rates[2] > rates[4] > rates[6]
    assert rates[2] > 0.2 and rates[6] < 0.05


def test_threshold_win_rates_peak_near_zero() -> None:
    rates = strategy.threshold_win_rates(players=4, holds=(0, 2, 8), rounds=20_000, seed=1,
                                         progress=False)
    assert rates[2] > rates[0] and rates[2] > rates[8]
    assert all(0 <= r <= 1 for r in rates.values())


def test_flapjack_chances_are_exact() -> None:
    rows = {r.total: r for r in strategy.flapjack_chances("classic")}
    assert set(rows) == set(range(-12, 13))
    assert rows[5].flapjack == 4 and rows[5].legal == 42 and rows[5].deck == 52
    assert rows[0].legal == 52 and rows[0].flapjack == 4  # a lead: only kings
    ten = {r.total: r for r in strategy.flapjack_chances("simple-ten")}
    assert ten[0].deck == 40 and ten[0].flapjack == 4 and ten[9].legal == 22
    sub = {r.total: r for r in strategy.flapjack_chances("add-or-subtract")}
    assert sub[0].flapjack == 4 and sub[1].flapjack == 8 and sub[1].legal == 48
    text = strategy.flapjack_table_text(totals=[5])
    assert "+5" in text and "9.5%" in text


def test_flapjack_hand_rates_from_simulated_games() -> None:
    rates = strategy.flapjack_hand_rates("simple-ten", games=30, seed=4, progress=False)
    cfg = FlapjackConfig(variant="simple-ten")
    assert rates and all(cfg.low <= t <= cfg.high for t in rates)
    assert all(0 <= k <= n for n, k in rates.values())
    assert rates == strategy.flapjack_hand_rates("simple-ten", games=30, seed=4, progress=False)


@pytest.mark.parametrize("chart, kwargs", [
    (strategy.hold_chart, {"players": 3, "rounds": 2_000}),
    (strategy.threshold_chart, {"players": 3, "rounds": 1_000}),
    (strategy.players_chart, {"players": (2, 5), "rounds": 2_000}),
    (strategy.claim_chart, {"players": (2, 3), "rounds": 2_000}),
    (strategy.flapjack_chart, {"games": 10}),
])
def test_charts_return_figures(chart, kwargs) -> None:
    result = chart(progress=False, **kwargs)
    assert isinstance(result, strategy.Chart) and isinstance(result.figure, Figure)
    ax = result.axes[0]  # Figure attributes pass through
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    html = result._repr_html_()
    assert 'src="data:image/png;base64,' in html  # no request leaves the page
    assert f'alt="{escape(result.alt)}"' in html
    assert result.alt.endswith(".") and "%" in result.alt
    assert html.count("<li>") == len(result.rows) > 0


def test_charts_refuse_bad_settings() -> None:
    with pytest.raises(ValueError):
        strategy.hold_chart(players=1, rounds=100, progress=False)
    with pytest.raises(ValueError):
        strategy.hold_table(players=3, rounds=0, progress=False)


def test_simulation_panel_runs_and_refuses_bad_codes() -> None:
    panel = strategy.SimulationPanel("hold", players=3, rounds=1_000)
    panel.seed.value = "not a number"
    assert panel.run() is None and "deal code" in panel.status.value
    panel.seed.value = "12"
    panel.rounds.value = 1_000
    panel.run_button.click()
    assert isinstance(panel.figure, strategy.Chart) and "Done: 1,000 rounds" in panel.status.value
    assert not panel.run_button.disabled
    with pytest.raises(ValueError):
        strategy.SimulationPanel("nonsense")


@pytest.mark.slow
def test_a_chart_of_100000_rounds_is_drawn_with_every_round_counted() -> None:
    """The lesson's size (its time: benchmarks/strategy_charts.py)."""
    chart = strategy.hold_chart(players=4, rounds=100_000, seed=5, progress=False)
    png = io.BytesIO()
    chart.figure.savefig(png, format="png")
    assert png.getvalue().startswith(b"\x89PNG")
    assert "100,000 simulated rounds" in chart.figure.axes[0].get_title()
    counted = [int(re.search(r"\(([\d,]+) rounds?\)", row).group(1).replace(",", ""))
               for row in chart.rows if re.search(r"\(([\d,]+) rounds?\)", row)]
    assert len(counted) == strategy.MAX_ABS + 1 and 0 < sum(counted) <= 100_000


def test_deal_later_makes_the_table_when_pressed() -> None:
    from widgets import FlapjackTable

    box = lt.deal_later(FlapjackTable, "Deal the classic game", players=3, variant="classic",
                        say_total=True, teacher_controls=False, bot_delay=0)
    button = box.children[0]
    assert button.description == "Deal the classic game" and not button.disabled
    assert not any(isinstance(c, FlapjackTable) for c in box.children)
    button.click()
    (table,) = box.children
    assert isinstance(table, FlapjackTable)
    assert table.config.players == 3 and table.say_total and not table.teacher_controls


def test_deal_later_checks_names_now_and_values_when_pressed() -> None:
    from widgets import FlapjackTable, HitMeTable

    with pytest.raises(TypeError, match="plyers"):
        lt.deal_later(FlapjackTable, "Deal", plyers=3)
    box = lt.deal_later(HitMeTable, "Deal", players=99)
    button, message = box.children
    button.click()
    assert box.children == (button, message)  # no table, the page keeps working
    assert "cannot be dealt" in message.value and "players" in message.value


# ----- the strategy lab's chart cache -------------------------------------------------------
def _count_hold_tables(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = strategy.hold_table

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("widgets.lessons.strategy.hit_me_charts.hold_table", counted)
    return calls


def test_chart_cache_draws_once_then_reads(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    calls = _count_hold_tables(monkeypatch)
    first = strategy.hold_chart(players=3, rounds=2_000, seed=4, progress=False)
    again = strategy.hold_chart(players=3, rounds=2_000, seed=4)  # progress is not in the key
    assert len(calls) == 1 and again._figure is None  # read from the cache, nothing drawn
    assert again._repr_html_() == first._repr_html_() and again.rows == first.rows
    assert isinstance(again.axes[0].get_title(), str) and len(calls) == 2  # drawn when asked
    strategy.hold_chart(players=3, rounds=2_000, seed=5, progress=False)  # other arguments
    assert len(calls) == 3 and len(list(tmp_path.glob("hold_chart-*.json"))) == 2
    with pytest.raises(ValueError):  # bad settings are refused as before, nothing kept
        strategy.hold_chart(players=1, rounds=2_000, progress=False)


def test_chart_cache_one_draws_while_the_others_wait(monkeypatch, tmp_path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    calls = _count_hold_tables(monkeypatch)
    with ThreadPoolExecutor(4) as pool:
        charts = list(pool.map(lambda _: strategy.hold_chart(
            players=4, rounds=3_000, seed=2, progress=False), range(4)))
    assert len(calls) == 1
    assert len({c._repr_html_() for c in charts}) == 1


def test_chart_cache_off_or_unwritable_still_draws(monkeypatch, tmp_path) -> None:
    calls = _count_hold_tables(monkeypatch)
    monkeypatch.setenv(strategy.CACHE_ENV, "off")
    strategy.hold_chart(players=3, rounds=1_000, progress=False)
    strategy.hold_chart(players=3, rounds=1_000, progress=False)
    assert len(calls) == 2
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(strategy.CACHE_ENV, str(blocker / "charts"))
    chart = strategy.hold_chart(players=3, rounds=1_000, progress=False)
    assert len(calls) == 3 and "<img" in chart._repr_html_()


def test_a_cached_chart_needs_no_matplotlib(tmp_path) -> None:
    import subprocess
    import sys

    code = ("import sys\nfrom widgets.lessons.strategy import hold_chart\n"
            "html = hold_chart(players=4, rounds=2_000, seed=1, progress=False)._repr_html_()\n"
            "print('matplotlib' in sys.modules, len(html) > 1000)")
    env = {**__import__("os").environ, strategy.CACHE_ENV: str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    assert runs == [["True", "True"], ["False", "True"]]


def _count_rounds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every deal the simulator makes to play rounds (("deal", players)), and every table of
    a seat holding on two cards asked of it (("hold", players))."""
    import engine.vector_sim as sim

    calls: list[tuple[str, int]] = []
    deal, hold = sim.deal_values, sim.hold_win_chance

    def dealt(n, players, *args, **kwargs):
        calls.append(("deal", players))
        return deal(n, players, *args, **kwargs)

    def held(players, *args, **kwargs):
        calls.append(("hold", players))
        return hold(players, *args, **kwargs)

    monkeypatch.setattr(sim, "deal_values", dealt)
    monkeypatch.setattr(sim, "hold_win_chance", held)
    return calls


def test_a_chart_in_another_language_plays_no_round_again(monkeypatch, tmp_path) -> None:
    """The rounds are kept apart from the words: the Spanish chart after the English one (and
    the claim chart after the players chart, the same tables) draws without playing."""
    from widgets.words import speaking

    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    calls = _count_rounds(monkeypatch)
    english = strategy.hold_chart(players=3, rounds=2_000, seed=4, progress=False)
    assert ("hold", 3) in calls and ("deal", 3) in calls
    calls.clear()
    with speaking("es"):
        spanish = strategy.hold_chart(players=3, rounds=2_000, seed=4, progress=False)
        assert calls == [] and spanish.alt != english.alt and "gana" in spanish.alt.lower()
        strategy.threshold_chart(players=3, rounds=1_000, seed=4, progress=False)
    assert calls and set(calls) == {("deal", 3)}
    calls.clear()
    strategy.threshold_chart(players=3, rounds=1_000, seed=4, progress=False)
    strategy.players_chart(players=(2, 3), rounds=2_000, seed=4, progress=False)
    assert calls and {players for _, players in calls} == {2}  # 3 players' table was kept
    calls.clear()
    strategy.claim_chart(players=(2, 3), rounds=2_000, seed=4, progress=False)
    assert calls == []
    kept = list((tmp_path / "numbers").glob("*.json"))
    assert {p.name.split("-")[0] for p in kept} == {"hold_table", "hit_table",
                                                   "threshold_win_rates"}


def test_kept_numbers_are_the_numbers_played(monkeypatch, tmp_path) -> None:
    """A table, rates and hand rates read back from the cache equal the ones played, exactly;
    a damaged entry is played again, a bad setting is refused and nothing is kept."""
    monkeypatch.setenv(strategy.CACHE_ENV, "off")
    plain = (strategy.hold_table(players=3, rounds=3_000, seed=2, progress=False),
             strategy.threshold_win_rates(players=3, holds=(1, 2, 5), rounds=1_000, seed=2,
                                          progress=False),
             strategy.flapjack_hand_rates("simple-ten", games=20, seed=3, progress=False))
    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    calls = _count_rounds(monkeypatch)
    for again in range(3):
        table = strategy.hold_table(players=3, rounds=3_000, seed=2, progress=False)
        rates = strategy.threshold_win_rates(players=3, holds=(1, 2, 5), rounds=1_000, seed=2,
                                             progress=False)
        hands = strategy.flapjack_hand_rates("simple-ten", games=20, seed=3, progress=False)
        assert np.array_equal(table.count, plain[0].count)
        assert np.array_equal(table.wins, plain[0].wins)
        assert np.array_equal(table.abs_sum, plain[0].abs_sum)
        assert rates == plain[1] and list(rates) == [1, 2, 5] and hands == plain[2]
        assert bool(calls) == (again in (0, 2)), again  # played, read, played again
        calls.clear()
        if again == 1:
            for entry in (tmp_path / "numbers").glob("hold_table-*.json"):
                entry.write_text('{"count": [1, 2], "wins": [0, 1]}')  # damaged
    with pytest.raises(ValueError):
        strategy.hold_table(players=1, rounds=1_000, progress=False)
    assert len(list((tmp_path / "numbers").glob("*.json"))) == 3


def test_a_kernel_without_numpy_keeps_no_numbers_on_disk(monkeypatch, tmp_path) -> None:
    """The browser's kernel (no numpy, no matplotlib, a file system in memory, a `fcntl`
    without `flock`) plays the plain chart's Flapjack games and keeps nothing on disk."""
    import types

    from widgets.lessons.strategy import cache

    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(cache, "SIMULATIONS", False)
    monkeypatch.setitem(__import__("sys").modules, "fcntl", types.ModuleType("fcntl"))
    rates = strategy.flapjack_hand_rates("simple-ten", games=10, seed=5, progress=False)
    assert rates and list(tmp_path.iterdir()) == []
    chart = strategy.flapjack_chart("simple-ten", games=10, seed=5, progress=False)
    assert "<svg" in chart._repr_html_() and list(tmp_path.iterdir()) == []


def test_the_cache_key_follows_the_code_that_plays_the_rounds() -> None:
    """Every kept function's module is in the code version: editing how a table is played
    makes it played again, not read stale."""
    from widgets.lessons.strategy import cache

    for fn in (strategy.hold_table, strategy.hit_table, strategy.threshold_win_rates,
               strategy.flapjack_hand_rates, strategy.hold_chart, strategy.threshold_chart,
               strategy.players_chart, strategy.claim_chart, strategy.flapjack_chart):
        assert fn.__module__ in cache.NUMBERS_CODE, fn.__name__
    assert cache._code_version(chart=False) != cache._code_version(chart=True)


# ----- corrections checked against the simulator and the engine ---------
def test_hold_chart_colours_each_bar_by_the_fair_share() -> None:
    """A bar is green exactly when holding there wins at least the fair share: with 4 players
    |sum| 2 is below it (red), whatever a fixed cut at 3 would say."""
    from matplotlib.colors import to_hex

    players = 4
    chart = strategy.hold_chart(players=players, rounds=100_000, seed=1, progress=False)
    table = strategy.hold_table(players=players, rounds=100_000, seed=1, progress=False)
    bars = chart.axes[0].patches
    assert len(bars) == len(table.abs_sum)
    for k, bar in enumerate(bars):
        above = not np.isnan(table.chance[k]) and table.chance[k] >= 1 / players
        assert to_hex(bar.get_facecolor()) == (strategy.HOLD_GOOD if above
                                               else strategy.HOLD_BAD), k
    assert table.chance[2] < 1 / players  # the lesson's figure (seed 1): |sum| 2 is below
    assert strategy.hold_colors([0.5, 0.25, 0.2, float("nan")], 4) == [
        strategy.HOLD_GOOD, strategy.HOLD_GOOD, strategy.HOLD_BAD, strategy.HOLD_BAD]
    assert "hit" in chart.alt and "hold" in chart.rows[3]


def test_below_the_fair_share_is_not_you_should_hit() -> None:
    """The figures the lesson and the guide state: with 4 players, holding at |sum| 2 wins
    less than the fair share and still about as often as hitting; at 3 hitting wins far more;
    with 2 players |sum| 3 wins well under half."""
    four_hold = strategy.hold_table(players=4, rounds=100_000, seed=1, progress=False)
    four_hit = strategy.hit_table(players=4, rounds=100_000, seed=1, progress=False)
    assert four_hit.count.sum() == 100_000
    assert 0.22 < four_hold.chance[2] < 0.25
    assert abs(four_hold.chance[2] - four_hit.chance[2]) < 0.03
    assert four_hold.chance[3] < 0.12 and four_hit.chance[3] > 0.2
    assert four_hold.chance[0] > 0.8 > four_hit.chance[0]
    two = strategy.hold_table(players=2, rounds=100_000, seed=1, progress=False)
    assert 0.40 < two.chance[3] < 0.47  # "about 44%", under the 50% fair share
    both = strategy.claim_rates_both(players=(2, 4), rounds=100_000, seed=1, progress=False)
    assert 0.27 < both[2][1] < 0.33 and both[2][0] > both[2][1]  # exactly 3 beats "3 or more"


def test_claim_chart_shows_exactly_three_beside_three_or_more() -> None:
    chart = strategy.claim_chart(players=(2, 3), rounds=2_000, progress=False)
    assert len(chart.axes[0].patches) == 4
    assert "exactly 3" in chart.rows[0] and "3 or more" in chart.rows[0]


def test_chart_by_players_lets_the_student_choose() -> None:
    picker = strategy.ChartByPlayers("threshold", players=(2, 4), value=4, rounds=1_000)
    assert "4 players" in picker.figure.axes[0].get_title()
    assert picker.buttons[4].disabled and not picker.buttons[2].disabled
    picker.buttons[2].click()
    assert picker.players == 2 and "2 players" in picker.figure.axes[0].get_title()
    assert "data:image/png;base64," in picker.picture.value
    assert picker.choose(9) is None and "Choose one of 2, 4 players" in picker.status.value
    assert picker.choose("4") is None and picker.players == 2  # forged values change nothing
    with pytest.raises(ValueError):
        strategy.ChartByPlayers("claim")
    with pytest.raises(TypeError):
        strategy.ChartByPlayers("threshold", roundz=10)


def test_simulation_panel_switches_experiment() -> None:
    panel = strategy.SimulationPanel("hold", players=3, rounds=1_000)
    panel.experiment.value = "threshold"
    panel.players.value = 2
    panel.run()
    assert "Which holding rule" in panel.figure.axes[0].get_title()
    assert "2 players" in panel.figure.axes[0].get_title()


def test_a_king_makes_a_flapjack_only_when_led() -> None:
    """Lesson 5: a led king is a Flapjack at once; onto any running total a player can face,
    a king never makes -13, 0 or +13 (checked with the engine's rules)."""
    from engine.flapjack import FlapjackState, Play

    hands = (("KS", "2C", "3C", "4C", "5C", "6C", "7C"), ("KH", "2D", "3D", "4D", "5D", "6D", "7D"))
    state = FlapjackState.deal(FlapjackConfig(players=2), rng=0,
                               deck=lt.flapjack_deck(hands, "8S,8D,9S"))
    leader = state.current
    king = state.hands[leader][0]
    assert king.rank == 13
    state.apply_action(Play(king), player=leader)
    assert state.flapjacks[leader] == 1 and len(state.tricks[leader]) == 1 and not state.table
    cfg = FlapjackConfig(players=2)
    faced = [r.total for r in strategy.flapjack_chances("classic") if r.total != 0]
    for total in faced:
        for value in (13, -13):
            end = total + value
            assert not (cfg.low <= end <= cfg.high and end in cfg.targets), total


def test_explorer_pairs_opposite_values_as_lesson_1_says() -> None:
    """Opposites are opposite values: in Hit Me a black jack and a red king make zero."""
    e = CardExplorer(game="hit-me")
    e.add(11, Color.BLACK)
    e.add(13, Color.RED)
    assert e.total == 0 and zero_pairs(e.values) == [(0, 1)]
    f = CardExplorer(game="flapjack")
    f.add(11, Color.BLACK)
    f.add(13, Color.RED)
    assert f.total == -2 and zero_pairs(f.values) == []


def test_figures_stated_in_the_teacher_guide() -> None:
    """Experiment 2's best rules (deal code 1) and the Flapjack counts from +12."""
    best = {}
    for players in (2, 4, 6):
        rates = strategy.threshold_win_rates(players, rounds=20_000, seed=1, progress=False)
        best[players] = max(rates, key=rates.get)
    assert best == {2: 2, 4: 2, 6: 1}
    rows = {r.total: r for r in strategy.flapjack_chances("classic")}
    assert (rows[12].legal, rows[12].flapjack) == (28, 4)
    assert (rows[0].legal, rows[0].flapjack) == (52, 4)


# ----- honest checks -------------------------------------------------------
def _pick_positive_score(questions: list[Question]) -> int:
    """The score of a student who always picks the positive number (or the first one)."""
    score = 0
    for q in questions:
        pick = 0 if q.numbers[0] > 0 else 1 if q.numbers[1] > 0 else 0
        score += q.answer == pick
    return score


def test_closer_questions_are_balanced() -> None:
    """In mixed-sign questions the negative number is the closer one at least 40% of the time,
    and some questions are the same distance: "pick the positive one" does not pass."""
    rng = random.Random(2026)
    questions = [make_question(rng, "closer") for _ in range(4000)]
    mixed = [q for q in questions if min(q.numbers) < 0 < max(q.numbers)]
    negative_closer = [q for q in mixed if q.answer != SAME and q.numbers[q.answer] < 0]
    same = [q for q in mixed if q.answer == SAME]
    assert len(negative_closer) >= 0.4 * len(mixed)
    assert 0.1 * len(mixed) <= len(same) <= 0.25 * len(mixed)
    assert _pick_positive_score(questions) < 0.5 * len(questions)
    for q in questions:  # and every answer is right
        a, b = q.numbers
        assert q.answer == (SAME if abs(a) == abs(b) else 0 if abs(a) < abs(b) else 1)


def test_lesson_2_check_set_cannot_be_passed_by_picking_the_positive_one() -> None:
    """The five questions of lesson 2's check (practice code 9)."""
    p = AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9)
    seen = []
    while not p.done or p.number < 5:
        seen.append(p.question)
        p.show_me()
        if p.number == 5:
            break
        p.next_question()
    assert len(seen) == 5
    assert _pick_positive_score(seen) <= 2
    assert any(q.answer == SAME for q in seen)
    assert sum(q.answer != SAME and q.numbers[q.answer] < 0 for q in seen) >= 2


def test_lesson_2_check_scores_the_first_try() -> None:
    """Lesson 2's check counts a question only when its first answer is right: pressing every
    button in turn (Try again between) scores 0 of 5, not 5 of 5; a practice set still counts
    an answer found on a later try."""
    check = AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9, first_try=True)
    practice = AbsoluteValuePractice(kinds=["closer"], questions=5, seed=9)
    for widget in (check, practice):
        for _n in range(5):
            q = widget.question
            right = 2 if q.answer == SAME else q.answer
            for index in [i for i in range(3) if i != right] + [right]:
                if widget.done:
                    break
                widget.choice_buttons[index].click()
                if not widget.done:
                    widget.try_button.click()
            widget.next_button.click()
    assert check.correct == 0 and "0 of 5 right at the first try" in check.prompt.value
    assert practice.correct == 5 and "5 of 5 correct" in practice.prompt.value
    first = AbsoluteValuePractice(kinds=["closer"], questions=1, seed=9, first_try=True)
    q = first.question
    first.choose(2 if q.answer == SAME else q.answer)
    assert first.correct == 1 and "right at the first try: 1" in first.header.value
    # the same set started again (its code typed back): seen questions, scored as practice
    first.next_button.click()
    first.code_box.value = "9"
    first.code_button.click()
    assert first.repeated and first.question == q and "correct so far: 0" in first.header.value
    first.choose([i for i in range(3) if i != (2 if q.answer == SAME else q.answer)][0])
    first.try_button.click()
    first.choose(2 if q.answer == SAME else q.answer)
    first.next_button.click()
    assert "1 of 1 correct" in first.prompt.value and "first try" not in first.prompt.value
    first.new_button.click()  # a new set is scored by first tries again
    assert not first.repeated and "right at the first try: 0" in first.header.value


def test_practice_new_set_and_practice_code_box() -> None:
    p = AbsoluteValuePractice(kinds=["abs"], questions=2, seed=2024)
    first = p.question
    for _ in range(2):
        p.answer.value = str(p.question.answer)
        p.check_button.click()
        p.next_button.click()
    assert "Set finished" in p.prompt.value and "New set" in p.prompt.value
    assert "cell" not in p.prompt.value.lower()  # nothing a Voila page cannot do
    p.new_button.click()
    assert p.seed != 2024 and p.number == 1 and not p.done
    assert f"practice code: {p.seed}" in p.header.value
    p.code_box.value = "2024"
    p.code_button.click()
    assert p.seed == 2024 and p.question == first and p.correct == 0
    for bad in ("abc", "-5", "12.5", "9" * 12, "\uff11\uff12"):
        p.code_box.value = bad
        p.code_button.click()
        assert "A practice code is a whole number" in p.code_message.value
        assert p.seed == 2024 and p.question == first  # nothing lost


def test_explorer_takes_a_card_away_like_adding_its_opposite() -> None:
    """Taking away -3 moves the sum 3 to the right, exactly as adding +3 does."""
    e = CardExplorer(take_away=True)
    e.add(2, Color.BLACK)
    e.add(3, Color.RED)
    e.add(4, Color.BLACK)
    assert e.total == 3
    e.mode_toggle.value = "take"
    assert e.rank_buttons[(3, Color.RED)].disabled is False
    assert e.rank_buttons[(9, Color.RED)].disabled is False  # not in the hand: a zero pair
    assert "add a zero pair" in e.rank_buttons[(9, Color.RED)].tooltip
    e.rank_buttons[(3, Color.RED)].click()
    assert e.values == [2, 4] and e.total == 6
    assert "+3 \u2212 (-3) = +6" in e.equation.value
    assert "+3 + (+3) = +6" in e.equation.value
    assert "from +3 to +6" in e.line.value
    added = CardExplorer()  # the same hand, and a +3 added instead
    for rank, color in ((2, Color.BLACK), (3, Color.RED), (4, Color.BLACK), (3, Color.BLACK)):
        added.add(rank, color)
    assert added.total == e.total == 6
    # forged clicks: nonsense ranks and colours, a forged mode
    e.click(99, "red")
    assert "Choose one of the card buttons" in e.equation.value and e.values == [2, 4]
    e.mode_toggle.value = "add"
    e.rank_buttons[(5, Color.RED)].click()
    assert e.values == [2, 4, -5]
    assert "Click a card to add it" not in "".join(getattr(c, "value", "") for c in e.children)
    plain = CardExplorer()
    assert plain.mode_toggle is None and plain.mode == "add"


def test_explorer_takes_away_a_card_not_in_the_hand_with_a_zero_pair() -> None:
    """-3 - (-7): the hand holds only 3\u2665 (-3). Taking away 7\u2665 puts in the zero pair
    7\u2660 and 7\u2665 (the sum stays -3), then takes the 7\u2665 out: +4, the same as adding
    +7; the hand keeps the 7\u2660."""
    e = CardExplorer(take_away=True)
    e.add(3, Color.RED)
    e.mode_toggle.value = "take"
    e.rank_buttons[(7, Color.RED)].click()
    assert e.values == [-3, 7] and e.total == -3 - (-7) == 4
    text = e.equation.value
    assert "zero pair" in text and "the sum is still -3" in text
    assert "-3 \u2212 (-7) = +4" in text and "-3 + (+7) = +4" in text
    assert "from -3 to +4" in e.line.value
    # +3 - (-5), the warm-up: from an empty hand's +3 to +8
    w2 = CardExplorer(take_away=True)
    w2.add(3, Color.BLACK)
    w2.mode_toggle.value = "take"
    w2.click(5, Color.RED)
    assert w2.total == 3 - (-5) == 8
    # at the card limit the zero-pair move is refused with a message, nothing changes
    full = CardExplorer(take_away=True)
    for _n in range(12):
        full.add(1, Color.BLACK)
    full.mode_toggle.value = "take"
    assert full.rank_buttons[(9, Color.RED)].disabled
    full.take_away(9, Color.RED)
    assert len(full.cards) == 12 and "12 cards" in full.equation.value


def test_the_simulation_panel_opens_on_request() -> None:
    """Lesson 6 loads one button for its panel (the page stays light); pressed, the panel
    appears and runs."""
    box = lt.deal_later(strategy.SimulationPanel, "Open the simulation panel", chart="hold",
                        players=3)
    assert [c.description for c in box.children[:1]] == ["Open the simulation panel"]
    box.children[0].click()
    panel = box.children[0]
    assert isinstance(panel, strategy.SimulationPanel) and panel.players.value == 3
    panel.rounds.value = 1_000
    assert isinstance(panel.run(), strategy.Chart)


def test_the_simulation_panel_says_the_rounds_it_really_ran(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The browser's plain-Python chart plays at most its own share of rounds: the panel says
    that number, not the one chosen."""
    from widgets.lessons.strategy import hit_me_charts, panel, plain

    monkeypatch.setattr(plain, "BROWSER_ROUNDS", 500)
    monkeypatch.setitem(panel.CHARTS, "hold", hit_me_charts.hold_chart_plain)
    sim = strategy.SimulationPanel("hold", players=3, rounds=1_000)
    sim.run_button.click()
    assert "Done: 500 rounds a run" in sim.status.value, sim.status.value
    assert sim.figure is not None and sim.figure.rounds == 500


def test_the_card_explorer_has_large_print_for_the_projector() -> None:
    explorer = CardExplorer()
    assert "icg-large" not in explorer._dom_classes
    explorer.large_print_toggle.value = True
    assert "icg-large" in explorer._dom_classes
    explorer.large_print_toggle.value = False
    assert "icg-large" not in explorer._dom_classes
