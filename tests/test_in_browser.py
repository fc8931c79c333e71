"""What the lessons do differently when their kernel runs in the browser (the static site,
widgets/in_browser.py), checked both ways in this (server) kernel."""

from __future__ import annotations

import ipywidgets as w
import pytest
from babel.numbers import format_decimal

import widgets.in_browser as ib
from widgets.course import lesson_links, lesson_nav_html
from widgets.page_lang import grouped, grouped_without_babel, speaking


def test_this_kernel_is_not_the_browsers() -> None:
    assert ib.IN_BROWSER is False
    assert w.Layout(display=None).get_state()["display"] is None


def test_links_follow_the_site(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ib.page_href("03_hit_me.ipynb") == "03_hit_me.ipynb"
    assert ib.page_href("03_hit_me.ipynb", in_browser=True) == "03_hit_me.html"
    assert ib.on_this_site("09_play_together.ipynb")
    assert not ib.on_this_site("10_class_view.ipynb", in_browser=True)
    server = lesson_links().data
    assert "href='03_hit_me.ipynb'" in server and "09_play_together.ipynb" in server
    monkeypatch.setattr(ib, "IN_BROWSER", True)
    static = lesson_links().data
    assert "href='03_hit_me.html'" in static and ".ipynb" not in static
    assert "09_play_together" not in static and "10_class_view" not in static
    nav = lesson_nav_html("03_hit_me.ipynb", "es")
    assert "href='04_flapjack.html'" in nav and "href='00_start_here.html'" in nav


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
    """A kernel without numpy and matplotlib (the browser's): the first experiment (hold or
    hit) is drawn as SVG from plain-Python rounds, every other chart is a note saying where it
    runs, in the page's language; with them the charts are matplotlib images as before."""
    from widgets import strategy

    assert strategy.SIMULATIONS is True
    monkeypatch.setenv(strategy.CACHE_ENV, "off")
    drawn = strategy.hold_chart(players=3, rounds=300, seed=2)
    assert type(drawn) is strategy.Chart and "<img" in drawn._repr_html_()
    monkeypatch.setattr("widgets.strategy.cache.SIMULATIONS", False)
    plain = strategy.hold_chart(players=3, rounds=300, seed=2)
    assert isinstance(plain, strategy.SvgChart)
    page = plain._repr_html_()
    assert "<svg" in page and "<img" not in page and "300 simulated rounds" in page
    assert plain.rows[0].startswith("|sum| 0: hold ") and len(plain.rows) == 21
    note = strategy.players_chart(players=(2, 3), rounds=50, seed=1)
    assert isinstance(note, strategy.NoSimulation)
    assert "numpy" in note._repr_html_() and "<img" not in note._repr_html_()
    panel = strategy.ChartByPlayers("threshold", players=(2, 3), value=2, rounds=50, seed=1)
    assert "numpy" in panel.picture.value
    with speaking("es"):
        assert "navegador" in strategy.players_chart(players=(2, 3), rounds=50)._repr_html_()
        assert "rondas simuladas" in strategy.hold_chart(players=2, rounds=50)._repr_html_()


def test_plain_rounds_agree_with_the_numpy_simulator() -> None:
    """The plain-Python rounds (20,000) give the numpy simulator's chances (100,000 rounds) at
    every |sum| seen often, holding and hitting (seeded: the same figures every run)."""
    from widgets.strategy import hit_table, hold_table
    from widgets.strategy_plain import hold_hit_tables

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
    names each step as widgets/course.py writes it instead of the notebook's heading."""
    from widgets import course

    beside = course.lesson_plan_text()
    monkeypatch.setattr(course, "LESSONS_DIR", tmp_path)
    alone = course.lesson_plan_text()
    assert alone.count("Minute by minute") == beside.count("Minute by minute") > 5
    assert '"' in beside and alone != beside
