"""The static site (make site) on this machine: its size, and the Hit Me lesson in Chromium
served by `python -m http.server`.

    .venv/bin/python benchmarks/site.py [--site site] [--clicks 10] [--settle 30] [--slow 3]

Builds site/ first when it is missing. Cold: a new browser profile (empty cache) opens the Hit
Me lesson until its table answers; warm: the same profile opens it again. Clicks: Peek / Hide
round trips and the round's clicks (page click to the page's answer). The strategy experiment:
the strategy lab's first chart drawn in the browser ("n/a" when the page cannot draw it).

A slow Chromebook: the lesson opened again (warm cache) with the page's CPU throttled 4x by the
DevTools protocol (Emulation.setCPUThrottlingRate), until its table answers; the median of
--slow such visits, one after the other (a single visit varies by a second or two from run to
run on a shared machine). That throttles the page's own thread only: the Python kernel runs in
a Web Worker, which the protocol does not slow, so Python's own start and each reply run at
this machine's speed (the figure is a lower bound of a 4x slower device). It is taken while
the browser's other tab (the lesson just played) is idle, before the strategy lab opens (a page
still drawing in another tab would slow it).
Tab memory: what the Chromium renderer process that holds the lesson's tab (its page and its
Python worker) adds to the machine's memory in use, once the lesson has been played: its
memory footprint as Chromium counts it (Linux: RssAnon + VmSwap, the "Memory footprint" column
of Chromium's task manager). Its resident memory (RSS) is printed beside it: RSS also counts
the pages of Chromium's own code (some 120-136 MiB), which every Chromium process maps and the
machine holds once, whatever the number of tabs. Both again after --settle seconds with the tab
idle (a line of its own: the garbage of the start and the round goes at the worker's and the
page's next collections); the line "renderers" gives the RSS of every renderer process of the
browser (the closed first visit's process, kept alive by the site's service worker, and
Chromium's spare one).
Next lesson (a line of its own): whether the lesson's "next" link opens in the same tab (a new
tab keeps the first lesson's memory). WebKit: the lesson opened cold in WebKitGTK
(WebKitWebDriver under Xvfb, tests/browser/webkit.py) until its table answers ("n/a" without
WebKit).
Last line:
site: N pages, X MB (Y MB gzip), first lesson interactive cold A s / warm B s, click p50 C ms,
strategy experiment D s, throttled 4x E s, tab memory M MiB, webkit W s
"""

from __future__ import annotations

import argparse
import gzip
import json
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


def throttled(context, url: str, rate: int = 4) -> float:
    """The Hit Me lesson opened in a new tab of `context` with the page's CPU `rate` times
    slower (the DevTools protocol), until its table answers."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    t0 = time.monotonic()
    page.goto(url + "voici/render/03_hit_me.html")
    ss.wait_interactive(page, "en")
    took = time.monotonic() - t0
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    page.close()
    return took


def renderer_rss_mib(browser_pid: int) -> float:
    """The resident memory of Chromium's renderer processes (the open tabs and their workers)."""
    import psutil

    total = 0
    for child in psutil.Process(browser_pid).children(recursive=True):
        try:
            if "--type=renderer" in " ".join(child.cmdline()):
                total += child.memory_info().rss
        except psutil.Error:
            continue
    return total / 2**20


def page_process(browser, page) -> int:
    """The id of the renderer process that holds `page` (the browser names it when it starts
    tracing that page)."""
    browser.start_tracing(page=page, categories=["disabled-by-default-devtools.timeline"])
    page.evaluate("0")
    events = json.loads(browser.stop_tracing())["traceEvents"]
    for e in events:
        if e.get("name") == "TracingStartedInBrowser":
            frames = e["args"]["data"]["frames"]
            return next(f["processId"] for f in frames if f.get("isOutermostMainFrame", True))
    raise RuntimeError("the trace names no process for the page")


def rss_mib(pid: int) -> float:
    import psutil

    return psutil.Process(pid).memory_info().rss / 2**20


def footprint_mib(pid: int) -> float:
    """The process's memory footprint as Chromium computes it on Linux (its task manager's
    "Memory footprint"): its anonymous resident memory and its swap (RssAnon + VmSwap in
    /proc/PID/status), so without the files it maps, Chromium's own code among them."""
    fields = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return sum(int(fields.get(k, "0 kB").split()[0]) for k in ("RssAnon", "VmSwap")) / 1024


def memory_line(pid: int) -> tuple[float, str]:
    """The tab's footprint, and how it reads with its RSS beside it."""
    footprint = footprint_mib(pid)
    return footprint, f"{footprint:.0f} MiB (RSS {rss_mib(pid):.0f} MiB)"


def chromium_pid(exe: str) -> int:
    """The newest Chromium browser process (not a helper) of ours: started from `exe` (Debian's
    /usr/bin/chromium is a script that runs /usr/lib/chromium/chromium)."""
    import psutil

    name = Path(os.path.realpath(exe)).name
    ours = [p for p in psutil.Process(os.getpid()).children(recursive=True)
            if _cmdline(p) and Path(_cmdline(p)[0]).name in (name, "chromium")]
    browsers = [p for p in ours if "--type=" not in " ".join(_cmdline(p))]
    return max(browsers, key=lambda p: p.create_time()).pid


def _cmdline(p) -> list[str]:
    import psutil

    try:
        return p.cmdline()
    except psutil.Error:
        return []


def next_lesson_tab(sp: ss.SitePage) -> str:
    """'same tab' or 'new tab': where the lesson's link to the next lesson opens."""
    link = sp.page.locator(".icg-nav a").first
    before = len(sp.context.pages)
    link.click()
    sp.page.wait_for_timeout(1500)
    opened = len(sp.context.pages) - before
    for extra in sp.context.pages[before:]:
        extra.close()
    return "new tab" if opened > 0 else "same tab"


def webkit_interactive(site: Path) -> float | None:
    """The Hit Me lesson opened cold in WebKitGTK until Peek answers (None without WebKit)."""
    try:
        import webkit as wk
    except ImportError:
        return None
    try:
        with ss.static_server(site) as url, wk.xvfb_display() as display:
            driver = wk.driver_factory(display)(1366, 768)
            try:
                page = wk.WebKitPage(driver, url)
                t0 = time.monotonic()
                page.open("voici/render/03_hit_me.html")
                page.button(ss.words("en")["Peek at my face-down card"],
                            timeout=wk.LOAD_TIMEOUT)
                return time.monotonic() - t0
            finally:
                driver.quit()
    except (FileNotFoundError, RuntimeError) as e:
        print(f"webkit: {e}")
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "site")
    ap.add_argument("--clicks", type=int, default=10)
    ap.add_argument("--slow", type=int, default=3, help="throttled visits (their median counts)")
    ap.add_argument("--settle", type=float, default=30,
                    help="seconds the played lesson stays idle before its memory is read again")
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
        tab_pid = page_process(browser, sp.page)
        memory, said = memory_line(tab_pid)
        print(f"tab memory {said}")
        print(f"renderers {renderer_rss_mib(chromium_pid(ss_chromium())):.0f} MiB (RSS)")
        if args.settle > 0:
            sp.page.wait_for_timeout(args.settle * 1000)
            print(f"tab memory after {args.settle:.0f} s idle {memory_line(tab_pid)[1]}")
        slows = [throttled(context, url) for _ in range(max(1, args.slow))]
        slow = statistics.median(slows)
        print("throttled 4x " + " ".join(f"{t:.1f}" for t in slows) + f" s, median {slow:.1f} s")
        tab = next_lesson_tab(sp)
        print(f"next lesson: {tab}")
        strategy = strategy_experiment(sp)
        problems = sp.problems()
        browser.close()
    webkit_s = webkit_interactive(args.site)
    print("webkit " + ("n/a" if webkit_s is None else f"{webkit_s:.1f} s"))
    if problems:
        print("problems:", *problems[:10], sep="\n  ")
    print("load average at the end: " + " / ".join(f"{x:.1f}" for x in os.getloadavg()))
    strat = "n/a" if strategy is None else f"{strategy:.1f} s"
    print(f"site: {n_pages} pages, {mb:.1f} MB ({gz:.1f} MB gzip), first lesson interactive "
          f"cold {cold:.1f} s / warm {warm:.1f} s, click p50 {statistics.median(clicks):.0f} ms, "
          f"strategy experiment {strat}, throttled 4x {slow:.1f} s, tab memory {memory:.0f} MiB, "
          "webkit " + ("n/a" if webkit_s is None else f"{webkit_s:.1f} s"))


def ss_chromium() -> str:
    return os.environ.get("CHROMIUM", "/usr/bin/chromium")


if __name__ == "__main__":
    main()
