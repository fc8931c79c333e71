"""The strategy lab's panels for Voila pages: a chart by number of players, and a panel that
runs a simulation."""

from __future__ import annotations

import html
import inspect
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as w

if TYPE_CHECKING:  # numpy, matplotlib and tqdm are imported when a chart is drawn; a page whose
    # charts all come from the cache imports none of them
    pass

from widgets.lessons.strategy.charts import MEDIUM_HOLD, Chart, players_words, rounds_words
from widgets.lessons.strategy.hit_me_charts import (
    claim_chart,
    hold_chart,
    players_chart,
    threshold_chart,
)
from widgets.page.language import N_, check_lang, grouped, speaks
from widgets.table.components import make_button
from widgets.words import _

# ----- a panel for Voila pages ----------------------------------------------------------------
CHARTS: dict[str, Callable[..., Chart]] = {
    "hold": hold_chart,
    "threshold": threshold_chart,
    "players": players_chart,
    "claim": claim_chart,
}


ROUND_CHOICES = (1_000, 10_000, 100_000)


# the experiments the panel can switch between (both take a number of players)
PANEL_CHARTS = (("hold", N_("Hold or hit at each |sum|")),
                ("threshold", N_("Which holding rule wins most")))


class ChartByPlayers(w.VBox):
    """One chart with a button for each number of players: the student picks, the chart for
    that many players replaces the one shown (charts come from the cache when they can).

    Light at load: one HTML widget and a row of buttons sharing their layout and style."""

    @speaks
    def __init__(self, chart: str = "threshold", players: Sequence[int] = (2, 3, 4, 5, 6),
                 value: int = 4, *, lang: str | None = None, **settings: Any) -> None:
        from widgets.table.components import html_widget, make_button, shared_layout

        self.lang = check_lang(lang)
        if chart not in ("hold", "threshold"):
            raise ValueError(f"chart must be 'hold' or 'threshold'; got {chart!r}")
        self.choices = tuple(players)
        if not self.choices or any(not isinstance(p, int) or isinstance(p, bool)
                                   or not 2 <= p <= 8 for p in self.choices):
            raise ValueError(f"players must be numbers from 2 to 8; got {players!r}")
        if value not in self.choices:
            raise ValueError(f"value must be one of {self.choices}; got {value!r}")
        inspect.signature(CHARTS[chart]).bind(players=value, **settings)  # a typo fails now
        self.chart = chart
        self.settings = settings
        self.players = value
        self.figure: Chart | None = None
        self.buttons = {p: make_button(players_words(p), lambda p=p: self.choose(p),
                                       tooltip=_("show the chart for {players}").format(
                                           players=players_words(p)))
                        for p in self.choices}
        self.status = html_widget()
        self.picture = html_widget()
        # the row wraps on a phone instead of cutting the buttons' labels
        label = html.escape(_("Number of players:"))
        super().__init__([w.HBox([html_widget(f"<b>{label}</b>"),
                                  *self.buttons.values()],
                                 layout=shared_layout(flex_flow="row wrap")),
                          self.status, self.picture])
        self.choose(value)

    @speaks
    def choose(self, players: Any) -> Chart | None:
        """Show the chart for `players` (a value the page sends is checked first)."""
        if players not in self.choices or isinstance(players, bool):
            text = _("Choose one of {choices} players.").format(
                choices=", ".join(map(str, self.choices)))
            self.status.value = f"<p role='status'>{html.escape(text)}</p>"
            return None
        self.players = players
        text = _("Showing the chart for {players}.").format(players=players_words(players))
        self.status.value = f"<p role='status'>{html.escape(text)}</p>"
        self.figure = CHARTS[self.chart](players=players, progress=False, **self.settings)
        self.picture.value = self.figure._repr_html_()
        for p, b in self.buttons.items():
            b.disabled = p == players
        return self.figure


class SimulationPanel(w.VBox):
    """Controls for one chart (players, opponents, rounds, deal code) and a Run button.

    The figure appears below; the time the simulation took is shown with it."""

    @speaks
    def __init__(self, chart: str = "hold", players: int = 4, rounds: int = 100_000,
                 seed: int = 1, *, lang: str | None = None) -> None:
        self.lang = check_lang(lang)
        if chart not in CHARTS:
            raise ValueError(f"chart must be one of {', '.join(CHARTS)}; got {chart!r}")
        self.chart = chart
        self.figure: Chart | None = None
        self.experiment = w.Dropdown(options=[(_(label), name) for name, label in PANEL_CHARTS],
                                     value=chart if chart in dict(PANEL_CHARTS) else "hold",
                                     description=_("Chart:"),
                                     disabled=chart not in dict(PANEL_CHARTS),
                                     layout=w.Layout(width="28em"))
        self.players = w.Dropdown(options=list(range(2, 9)),
                                  value=players if players in range(2, 9) else 4,
                                  description=_("Players:"),
                                  disabled=chart in ("players", "claim"))
        self.opponents = w.Dropdown(
            options=[(_("hold at {hold} or less").format(hold=h), h) for h in range(0, 9)],
            value=MEDIUM_HOLD, description=_("Others:"))
        self.rounds = w.Dropdown(options=[(grouped(r), r) for r in ROUND_CHOICES],
                                 value=rounds if rounds in ROUND_CHOICES else 100_000,
                                 description=_("Rounds:"))
        self.seed = w.Text(value=str(seed), description=_("Deal code:"),
                           layout=w.Layout(width="14em"), continuous_update=False)
        self.run_button = make_button(_("Run the simulation"), self.run, button_style="primary")
        self.status = w.HTML()
        self.output = w.Output()
        super().__init__([self.experiment, w.HBox([self.players, self.opponents]),
                          w.HBox([self.rounds, self.seed, self.run_button]),
                          self.status, self.output])

    @speaks
    def run(self) -> Chart | None:
        """Run the chart with the chosen settings; a bad setting gets a message."""
        try:
            seed = int(str(self.seed.value).strip())
            if not 0 <= seed < 10**9:
                raise ValueError
        except ValueError:
            text = _("The deal code must be a whole number (0 or more).")
            self.status.value = f"<p>{html.escape(text)}</p>"
            return None
        if self.chart in dict(PANEL_CHARTS):
            chosen = self.experiment.value
            self.chart = chosen if chosen in dict(PANEL_CHARTS) else self.chart
        players = self.players.value if isinstance(self.players.value, int) else 4
        players = min(8, max(2, players))
        rounds = self.rounds.value if self.rounds.value in ROUND_CHOICES else 10_000
        hold = self.opponents.value if self.opponents.value in range(0, 9) else MEDIUM_HOLD
        self.run_button.disabled = True
        self.status.value = "<p>" + html.escape(_("Simulating\u2026")) + "</p>"
        start = time.perf_counter()
        kwargs: dict[str, Any] = {"opponent_hold": hold, "rounds": rounds, "seed": seed}
        if self.chart in ("hold", "threshold"):
            kwargs["players"] = players
        with self.output:
            self.output.clear_output(wait=True)
            fig = CHARTS[self.chart](**kwargs)
            try:
                from IPython.display import display
                display(fig)
            except ImportError:  # pragma: no cover - IPython comes with ipywidgets
                pass
        seconds = time.perf_counter() - start
        self.figure = fig
        ran = fig.rounds if isinstance(getattr(fig, "rounds", None), int) else rounds
        done = _("Done: {rounds} a run, in {seconds} seconds.").format(
            rounds=rounds_words(ran), seconds=f"{seconds:.1f}")
        self.status.value = f"<p>{html.escape(done)}</p>"
        self.run_button.disabled = False
        return fig
