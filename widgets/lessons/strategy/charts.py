"""What every strategy chart shares: `Chart` (a figure with its words for a screen reader),
`SvgChart`, the batch and progress helpers, the computer players' holding rule."""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy, matplotlib and tqdm are imported when a chart is drawn; a page whose
    # charts all come from the cache imports none of them
    from matplotlib.figure import Figure

from widgets.page.language import grouped, language
from widgets.words import _, ngettext

MEDIUM_HOLD = 3  # the 'medium' computer players hold at |sum| 3 or less (threshold 4)


MAX_ABS = 20  # two Hit Me cards are at most 20 from zero


BATCHES = 10


# ----- helpers ------------------------------------------------------------------------------
def progress_bar(items: Iterable[Any], total: int, desc: str, progress: bool) -> Iterable[Any]:
    # leave=True: a finished bar stays on the page (a closed bar widget shows an error in Voila)
    # plain words instead of tqdm's timing and "it/s" (noise for a student); without a bar,
    # tqdm is not imported (the browser's kernel has none)
    if not progress:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, total=total, desc=_("Simulating: {what}").format(what=desc), leave=True,
                bar_format=_("{desc} {bar} {n_fmt} of {total_fmt} done"))


def new_figure(width: float = 7.5, height: float = 4.2) -> tuple[Figure, Any]:
    """A new figure that pyplot does not keep (returned objects display once in a notebook)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height))
    plt.close(fig)
    return fig, ax


class Chart:
    """A matplotlib figure with a text description. In a notebook or Voila page it shows as
    an image with alternative text and its numbers in a fold-out list (for screen readers and
    for reading exact values); every Figure attribute (axes, savefig...) passes through.

    A chart read from the cache (see `cached_chart`) has its image but no figure until one is
    asked for: `rebuild` then draws it again."""

    #: the rounds a run really played, when fewer than asked (the browser's plain Python plays
    #: at most its own share); None: as many as asked
    rounds: int | None = None

    def __init__(self, figure: Figure | None, alt: str, rows: Sequence[str] = (), *,
                 png: bytes | None = None, rebuild: Callable[[], Chart] | None = None) -> None:
        self._figure = figure
        self.alt = alt
        self.rows = list(rows)
        self._png = png
        self._rebuild = rebuild
        self.numbers_label = _("The numbers")  # in the language the chart was drawn in

    @property
    def figure(self) -> Figure:
        if self._figure is None:
            assert self._rebuild is not None, "a chart needs a figure or a way to draw one"
            self._figure = self._rebuild().figure
        return self._figure

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.figure, name)

    def png(self) -> bytes:
        if self._png is None:
            buf = io.BytesIO()
            self.figure.savefig(buf, format="png", dpi=100)
            self._png = buf.getvalue()
        return self._png

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.png()).decode("ascii")
        items = "".join(f"<li>{html.escape(r)}</li>" for r in self.rows)
        numbers = (f"<details><summary>{html.escape(self.numbers_label)}</summary>"
                   f"<ul>{items}</ul></details>" if items else "")
        return (f'<figure class="icg-chart" style="margin:0">'
                f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt)}" '
                f'style="max-width:100%;height:auto"/>{numbers}</figure>')

    def __repr__(self) -> str:
        return f"<Chart: {self.alt}>"


# how a language writes a percentage with one decimal: its decimal mark, and the sign after a
# space or not (Spanish 82,9 %, beside 7.611 rondas; English 82.9%)
DECIMAL_PERCENT = {"es": (",", "\u00a0%")}


def percent_text(x: float) -> str:
    """A share as a percentage with one decimal, as the language in use writes it."""
    if math.isnan(x):
        return _("no rounds")
    mark, sign = DECIMAL_PERCENT.get(language(), (".", "%"))
    return f"{100 * x:.1f}".replace(".", mark) + sign


def players_words(n: int) -> str:
    """'4 players'."""
    return ngettext("{n} player", "{n} players", n).format(n=n)


def rounds_words(n: int) -> str:
    """'100,000 rounds'."""
    return ngettext("{rounds} round", "{rounds} rounds", n).format(rounds=grouped(n))


def batch_seeds(seed: int, n: int) -> list[int]:
    return [seed * 1000 + i for i in range(n)]


def batch_sizes(rounds: int, n: int = BATCHES) -> list[int]:
    n = max(1, min(n, rounds))
    return [rounds // n + (1 if i < rounds % n else 0) for i in range(n)]


def check_sizes(players: int, rounds: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise ValueError(f"players must be 2 to 8; got {players!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 2_000_000:
        raise ValueError(f"rounds must be 1 to 2,000,000; got {rounds!r}")


def played(chart: Chart, rounds: int) -> Chart:
    """`chart`, saying it was made from `rounds` rounds a run."""
    chart.rounds = rounds
    return chart


class SvgChart(Chart):
    """A chart drawn as SVG (no matplotlib): shown inline with its numbers."""

    def __init__(self, svg: str, alt: str, rows: Sequence[str] = ()) -> None:
        super().__init__(None, alt, rows)
        self.svg = svg

    def png(self) -> bytes:
        raise RuntimeError("an SVG chart has no PNG")

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(r)}</li>" for r in self.rows)
        numbers = (f"<details><summary>{html.escape(self.numbers_label)}</summary>"
                   f"<ul>{items}</ul></details>" if items else "")
        return f'<figure class="icg-chart" style="margin:0">{self.svg}{numbers}</figure>'
