"""The static site (make site) on this machine: its size, and the Hit Me lesson in Chromium
served by `python -m http.server`.

    .venv/bin/python benchmarks/site.py [--site site] [--rounds 10]

Builds site/ first when it is missing. Cold: a new browser profile (empty cache) opens the Hit
Me lesson until its table answers; warm: the same profile opens it again. Clicks: Peek / Hide
round trips and the round's clicks (page click to the page's answer). The strategy experiment:
the strategy lab's first chart drawn in the browser ("n/a" when the page cannot draw it).
Last line:
site: N pages, X MB (Y MB gzip), first lesson interactive cold A s / warm B s, click p50 C ms,
strategy experiment D s
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

import static_site as ss  # noqa: E402

from widgets.lessons.course import FOLDERS  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--disable-background-networking", "--disable-component-update"]


def sizes(site: Path) -> tuple[int, float, float]:
    """Pages (lessons and landing pages), megabytes, megabytes gzipped file by file."""
    pages = list(site.glob("voici/render/**/*.html")) + [
        site / folder / "index.html" for folder in FOLDERS.values()]
    raw = packed = 0
    for f in site.rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, 6))
    return sum(p.is_file() for p in pages), raw / 1e6, packed / 1e6


def interactive(sp: ss.SitePage, path: str) -> float:
    t0 = time.monotonic()
    sp.open(path)
    ss.wait_interactive(sp.page, "en")
    return time.monotonic() - t0


def peek_clicks(page, n: int) -> list[float]:
    w = ss.words("en")
    out = []
    for i in range(n):
        name, answer = ((w["Peek at my face-down card"], w["Hide my face-down card"]) if i % 2 == 0
                        else (w["Hide my face-down card"], w["Peek at my face-down card"]))
        b = ss.wait_enabled(page, name)
        t0 = time.monotonic()
        b.click()
        ss.button(page, answer).wait_for(timeout=ss.TIMEOUT)
        out.append((time.monotonic() - t0) * 1000)
    return out


STRATEGY_CHART = "svg.icg-chart-svg"


def strategy_experiment(sp: ss.SitePage) -> float | None:
    """The strategy lab's first chart in a warm browser: page opened to chart shown, the
    kernel's start included (None when an error shows first or nothing comes in 3 minutes).
    Checked at every frame of the page."""
    t0 = time.monotonic()
    sp.open("voici/render/06_strategy_lab.html")
    shown = sp.page.wait_for_function(STRATEGY_SHOWN_JS, arg=STRATEGY_CHART, polling="raf",
                                      timeout=180_000).json_value()
    return time.monotonic() - t0 if shown == "chart" else None


STRATEGY_SHOWN_JS = ("chart => { const c = document.querySelector(chart); return c && ("
                     + ss.SEEN_JS + """)(c) ? "chart"
    : (document.querySelector(".jp-OutputArea-output[data-mime-type*='error']")
       || document.body.textContent.includes("Traceback")) ? "error" : false; }""")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "site")
    ap.add_argument("--clicks", type=int, default=10)
    args = ap.parse_args()
    if not (args.site / "build.json").is_file():
        ss.build(args.site)
    print("load average at the start: " + " / ".join(f"{x:.1f}" for x in os.getloadavg()))
    n_pages, mb, gz = sizes(args.site)
    print(f"pages {n_pages}, {mb:.1f} MB, gzip {gz:.1f} MB")
    from playwright.sync_api import sync_playwright

    with ss.static_server(args.site) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=ss_chromium(), headless=True,
                                     args=CHROMIUM_ARGS)
        context = browser.new_context()
        sp = ss.SitePage(context, url)
        cold = interactive(sp, "voici/render/03_hit_me.html")
        print(f"cold {cold:.1f} s")
        sp.next_visit()
        warm = interactive(sp, "voici/render/03_hit_me.html")
        print(f"warm {warm:.1f} s")
        clicks = peek_clicks(sp.page, args.clicks)
        clicks += ss.play_hit_me_round(sp.page, "en")["clicks_ms"]
        print("clicks ms:", " ".join(f"{c:.0f}" for c in clicks))
        strategy = strategy_experiment(sp)
        problems = sp.problems()
        browser.close()
    if problems:
        print("problems:", *problems[:10], sep="\n  ")
    print("load average at the end: " + " / ".join(f"{x:.1f}" for x in os.getloadavg()))
    strat = "n/a" if strategy is None else f"{strategy:.1f} s"
    print(f"site: {n_pages} pages, {mb:.1f} MB ({gz:.1f} MB gzip), first lesson interactive "
          f"cold {cold:.1f} s / warm {warm:.1f} s, click p50 {statistics.median(clicks):.0f} ms, "
          f"strategy experiment {strat}")


def ss_chromium() -> str:
    return os.environ.get("CHROMIUM", "/usr/bin/chromium")


if __name__ == "__main__":
    main()
