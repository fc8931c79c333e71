"""What the lessons do differently when their kernel runs in the browser (the static site,
widgets/page/in_browser.py), checked both ways in this (server) kernel."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import ipywidgets as w
import pytest
from babel.numbers import format_decimal

import widgets.page.in_browser as ib
from widgets.lessons.course import lesson_links, lesson_nav_html
from widgets.page.language import grouped, grouped_without_babel, speaking


def test_this_kernel_is_not_the_browsers() -> None:
    assert ib.IN_BROWSER is False
    assert w.Layout(display=None).get_state()["display"] is None


def test_links_follow_the_site(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ib.page_href("03_hit_me.ipynb") == "03_hit_me.ipynb"
    assert ib.page_href("03_hit_me.ipynb", in_browser=True) == "03_hit_me.html"
    assert ib.on_this_site("play_together.ipynb")
    assert not ib.on_this_site("class_view.ipynb", in_browser=True)
    server = lesson_links().data
    assert "href='03_hit_me.ipynb'" in server and "play_together.ipynb" in server
    monkeypatch.setattr(ib, "IN_BROWSER", True)
    static = lesson_links().data
    assert "href='03_hit_me.html'" in static and ".ipynb" not in static
    assert "play_together" not in static and "class_view" not in static
    nav = lesson_nav_html("03_hit_me.ipynb", "es")
    assert "href='04_taking_a_card_away.html'" in nav and "href='00_start_here.html'" in nav


def test_layout_none_goes_to_the_page_as_empty() -> None:
    """The browser's kernel drops synced values of None: after install() a shown box is sent
    as display "" (the same for the page: no CSS property), a hidden one as "none"."""
    box = w.VBox(layout=w.Layout(display="none"))
    try:
        assert "display" in ib.install()
        box.layout.display = None
        assert box.layout.get_state()["display"] == ""
        assert box.layout.get_state()["width"] == ""
        box.layout.display = "none"
        assert box.layout.get_state()["display"] == "none"
        assert box.layout.display == "none" and ib.install() != []  # idempotent
    finally:
        ib.uninstall()
    box.layout.display = None
    assert box.layout.get_state()["display"] is None


@pytest.mark.parametrize("n", [0, 7, -9, 999, 1000, 2024, 9999, 10_000, 20_000, 100_000,
                               1_234_567, -20_000])
def test_numbers_grouped_without_babel_as_babel_does(n: int) -> None:
    assert grouped_without_babel(n, "es") == format_decimal(n, locale="es")
    with speaking("es"):
        assert grouped(n) == format_decimal(n, locale="es")
    assert grouped_without_babel(n, "en") == f"{n:,}"


def test_strategy_charts_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel without numpy and matplotlib (the browser's): every chart of the strategy lab
    is drawn as SVG from plain-Python rounds, with its numbers, in the page's language; a chart
    without a plain version would be a note saying where it runs; with numpy and matplotlib the
    charts are matplotlib images as before."""
    from widgets.lessons import strategy

    assert strategy.SIMULATIONS is True
    monkeypatch.setenv(strategy.CACHE_ENV, "off")
    drawn = strategy.hold_chart(players=3, rounds=300, seed=2)
    assert type(drawn) is strategy.Chart and "<img" in drawn._repr_html_()
    monkeypatch.setattr("widgets.lessons.strategy.cache.SIMULATIONS", False)
    for name in ("numpy", "matplotlib", "tqdm", "tqdm.auto"):  # the browser has none of them
        monkeypatch.setitem(sys.modules, name, None)
    plain = strategy.hold_chart(players=3, rounds=300, seed=2)
    assert isinstance(plain, strategy.SvgChart)
    page = plain._repr_html_()
    assert "<svg" in page and "<img" not in page and "300 simulated rounds" in page
    assert plain.rows[0].startswith("|sum| 0: hold ") and len(plain.rows) == 21
    charts = {
        "threshold": strategy.threshold_chart(players=3, rounds=200, seed=1),
        "players": strategy.players_chart(players=(2, 3), rounds=200, seed=1),
        "claim": strategy.claim_chart(players=(2, 3), rounds=200, seed=1),
        "flapjack": strategy.flapjack_chart("classic", games=20, seed=1),
    }
    for name, chart in charts.items():
        assert isinstance(chart, strategy.SvgChart), name
        html = chart._repr_html_()
        assert html.count("<svg") == 1 and "<img" not in html and chart.rows, name
    assert len(charts["threshold"].rows) == 11 and "Best: hold at" in charts["threshold"].alt
    assert charts["players"].rows[0].startswith("2 players: |sum| 0 ")
    assert charts["claim"].rows[1].startswith("3 players: exactly 3 ")
    panel = strategy.ChartByPlayers("threshold", players=(2, 3), value=2, rounds=50, seed=1)
    assert "<svg" in panel.picture.value and "50 rounds per rule" in panel.picture.value
    plain_charts = strategy.PLAIN_CHARTS
    monkeypatch.setattr("widgets.lessons.strategy.cache.PLAIN_CHARTS", {})
    note = strategy.players_chart(players=(2, 3), rounds=50, seed=1)
    assert isinstance(note, strategy.NoSimulation)
    assert "numpy" in note._repr_html_() and "<img" not in note._repr_html_()
    with speaking("es"):
        assert "navegador" in strategy.players_chart(players=(2, 3), rounds=50)._repr_html_()
        monkeypatch.setattr("widgets.lessons.strategy.cache.PLAIN_CHARTS", plain_charts)
        assert "rondas simuladas" in strategy.hold_chart(players=2, rounds=50)._repr_html_()
        assert "por regla" in strategy.threshold_chart(players=2, rounds=50)._repr_html_()


def _lab_chart_calls(notebook: Path) -> list[tuple[str, dict]]:
    """The strategy lab notebook's charts as the plain charts' arguments (progress aside): each
    chart function called in a cell, and ChartByPlayers as the chart it shows first."""
    import ast
    import inspect

    from widgets.lessons.strategy import PLAIN_CHARTS

    calls = []
    for cell in json.loads(notebook.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and (node.func.id in PLAIN_CHARTS or node.func.id == "ChartByPlayers")):
                continue
            args = [ast.literal_eval(a) for a in node.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            name = node.func.id
            if name == "ChartByPlayers":
                name = f"{args.pop(0)}_chart"
                kwargs["players"] = kwargs.pop("value")
            if name in PLAIN_CHARTS:
                bound = inspect.signature(PLAIN_CHARTS[name]).bind(*args, **kwargs).arguments
                calls.append((name, {k: v for k, v in bound.items() if k != "progress"}))
    return calls


@pytest.mark.parametrize("folder", ["", "es"])
def test_the_snapshot_plays_the_strategy_labs_first_charts(folder: str) -> None:
    """The rounds the static site's snapshot plays (lab_defaults.LAB_CHARTS, run when it is
    made) are those of every chart the strategy lab page draws when it opens, in English and
    in Spanish: the page reads them from the snapshot's caches, it plays none."""
    from widgets.lessons.strategy.lab_defaults import LAB_CHARTS

    notebook = Path(__file__).resolve().parents[1] / "lessons" / folder / "06_strategy_lab.ipynb"
    calls = _lab_chart_calls(notebook)
    assert len(calls) == 5, calls
    assert calls == list(LAB_CHARTS)


def test_plain_charts_give_the_lessons_figures() -> None:
    """The strategy lab's statements hold for the charts drawn in the browser (its seeds, the
    browser's rounds): the best holding rule is 2 or less with 2 to 4 players and 1 or less
    with 5 or 6; holding with |sum| 3 or more wins about 30% with 2 players, 10% with 3 and 3%
    with 4, exactly 3 about 45% with 2 players."""
    from widgets.lessons.strategy.plain import (
        BROWSER_ROUNDS_PER_LINE,
        BROWSER_RULE_ROUNDS,
        hold_hit_tables,
        threshold_shares,
    )

    for players, best in ((2, 2), (3, 2), (4, 2), (5, 1), (6, 1)):
        rates = threshold_shares(players, tuple(range(11)), 3, BROWSER_RULE_ROUNDS, seed=1)
        assert max(rates, key=rates.get) == best, players
    more = {}
    for players in (2, 3, 4):
        table = hold_hit_tables(players, 3, BROWSER_ROUNDS_PER_LINE, 1)[0]
        more[players] = sum(table.wins[3:]) / sum(table.count[3:])
        if players == 2:
            assert abs(table.chance[3] - 0.45) < 0.04
    assert abs(more[2] - 0.30) < 0.04 and abs(more[3] - 0.10) < 0.03
    assert abs(more[4] - 0.03) < 0.02


def test_plain_rounds_agree_with_the_numpy_simulator() -> None:
    """The plain-Python rounds (20,000) give the numpy simulator's chances (100,000 rounds) at
    every |sum| seen often, holding and hitting (seeded: the same figures every run)."""
    from widgets.lessons.strategy import hit_table, hold_table
    from widgets.lessons.strategy.plain import hold_hit_tables

    hold, hit = hold_hit_tables(4, 3, 20_000, seed=1)
    assert sum(hold.count) == 20_000
    held = hold_table(4, 3, 100_000, seed=1, progress=False)
    hitting = hit_table(4, 3, 100_000, seed=1, progress=False)
    for k in range(21):
        if hold.count[k] >= 400:
            assert abs(hold.chance[k] - float(held.chance[k])) < 0.05, k
            assert abs(hit.chance[k] - float(hitting.chance[k])) < 0.05, k
    # the lesson's figures: holding at 0 wins most rounds, at 3 or more hitting does better
    assert hold.chance[0] > 0.75
    assert all(hit.chance[k] > hold.chance[k] for k in range(3, 21) if hold.count[k])


def test_hit_me_levels_without_numpy() -> None:
    """The hard computer players (the expert computes with numpy) are offered only where
    numpy is."""
    from widgets.hit_me.settings import offered_levels

    assert ib.NUMPY is True and offered_levels() == ("easy", "medium", "hard")
    assert offered_levels(numpy=False) == ("easy", "medium")


def test_the_lesson_plan_is_written_where_the_notebooks_are_not(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: object) -> None:
    """The static site's kernel has the code but not the notebooks beside it: the guide's plan
    names each step as widgets/lessons/course.py writes it instead of the notebook's heading."""
    from widgets.lessons import course

    beside = course.lesson_plan_text()
    monkeypatch.setattr(course, "LESSONS_DIR", tmp_path)
    alone = course.lesson_plan_text()
    assert alone.count("Minute by minute") == beside.count("Minute by minute") > 5
    assert '"' in beside and alone != beside


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_lesson_plan_names_the_headings_shipped_without_the_notebooks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str) -> None:
    """The static site's kernel reads the notebooks' headings from the file the build ships
    (course.HEADINGS_FILE): its plan is the one written beside the notebooks, in each language
    (the Spanish plan names the Spanish headings)."""
    from widgets.lessons import course

    beside = course.lesson_plan_text(lang)
    shipped = tmp_path / "lesson_headings.json"
    found = course.all_headings()
    shipped.write_text(json.dumps(found), encoding="utf-8")
    monkeypatch.setattr(course, "LESSONS_DIR", tmp_path / "no-lessons")
    monkeypatch.setattr(course, "HEADINGS_FILE", shipped)
    assert course.lesson_plan_text(lang) == beside
    first = course.student_lessons("en")[0].file
    es = found["es"][first]
    assert es and es != found["en"][first]
    if lang == "es":
        assert any(f'"{h}"' in beside for h in es)


def test_the_answer_key_reads_the_lessons_beside_the_page(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """The static site's kernel (a teacher's build) has no lessons/ beside the code: the answer
    key reads the lessons in the page's own folder, where that kernel runs."""
    from widgets.lessons import course

    beside = course.full_answer_key(lang="en").data
    assert beside.count("<tr><td>") > 20
    monkeypatch.setattr(course, "LESSONS_DIR", tmp_path / "no-lessons")
    monkeypatch.chdir(Path(__file__).resolve().parent.parent / "lessons")
    assert course.full_answer_key(lang="en").data == beside
