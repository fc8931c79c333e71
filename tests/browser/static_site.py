"""The static site (tools/build_site.py) in Chromium: build it, serve it with
`python -m http.server`, open its pages recording every request off that server and every
console error, and play its tables by clicks. Used by tests/browser/test_site.py and
benchmarks/site.py.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from widgets.words import _, speaking

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60_000
# Interactive means the first table's buttons answer; a cold start loads the runtime (~10 MB)
# and starts Python in the page.
LOAD_TIMEOUT = 180_000


def build(out: Path) -> None:
    """tools/build_site.py into `out` (its downloads cached in .site-cache/)."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(out)],
                   check=True, stdout=subprocess.DEVNULL)


@contextmanager
def static_server(site: Path) -> Iterator[str]:
    """`python -m http.server -d site` on a free loopback port; yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "-d", str(site), "--bind",
                             "127.0.0.1", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the static server did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# Console messages of the site's libraries that are not problems of our pages. Each says why.
BENIGN_CONSOLE = [
    # JupyterLite's document model warns when the page opens the notebook's shared model twice
    # (Voici renders from the notebook file and from its model); nothing is lost.
    re.compile(r"^\[yjs#509\] Not same Y\.Doc"),
    # ipywidgets asks the kernel for every model at once first; the Pyodide kernel answers that
    # request late while it loads, and the page then fetches each model (the same state).
    re.compile(r'^Failed to fetch ipywidgets through the "jupyter\.widget\.control" comm'),
]


class SitePage:
    """A Chromium page on the static site that records requests off the server, failed
    requests and console errors (`problems()`)."""

    def __init__(self, context: Any, base_url: str) -> None:
        self.base = base_url
        self.host = urlparse(base_url).netloc
        self.external: list[str] = []
        self.failed: list[str] = []
        self.console: list[str] = []
        self.said: list[str] = []  # every console message of the page and its workers
        context.on("request", self._request)
        context.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        # Anything off the server is recorded (and fails: the browser's OFFLINE_ARGS).
        self.context = context
        self.page = self._recorded_page()

    def _recorded_page(self) -> Any:
        page = self.context.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        return page

    def next_visit(self) -> None:
        """Close the page and open another in the same browser (its cache kept: a second
        visit)."""
        self.page.close()
        self.page = self._recorded_page()

    def _request(self, request: Any) -> None:
        if request.url.startswith(("data:", "blob:")):
            return
        if urlparse(request.url).netloc != self.host:
            self.external.append(request.url)

    def _console(self, msg: Any) -> None:
        self.said.append(msg.text)
        if msg.type not in ("error", "warning"):
            return
        if any(p.search(msg.text) for p in BENIGN_CONSOLE):
            return
        if msg.type == "error":
            self.console.append(f"console error: {msg.text}")

    def open(self, path: str) -> None:
        self.page.goto(self.base + path)

    def problems(self) -> list[str]:
        return ([f"request off the server: {u}" for u in self.external]
                + [f"failed request: {u}" for u in self.failed] + self.console)


def render_path(lang: str, page: str) -> str:
    """A lesson page's address on the site, in `lang`."""
    from widgets.lessons.course import FOLDERS

    folder = FOLDERS[lang]
    return f"voici/render/{folder + '/' if folder else ''}{page}.html"




def button(page: Any, name: str) -> Any:
    return page.locator(".widget-button:visible",
                        has_text=re.compile(f"^{re.escape(name)}$")).first


def wait_enabled(page: Any, name: str, timeout: int = TIMEOUT) -> Any:
    b = button(page, name)
    b.wait_for(state="visible", timeout=timeout)
    page.wait_for_function("el => !el.disabled", arg=b.element_handle(), timeout=timeout)
    return b


def text_box(page: Any, label: str) -> Any:
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=re.compile(f"^{re.escape(label)}$"))).locator("input").first


def words(lang: str) -> dict[str, str]:
    """The tables' button and box labels in `lang` (from the project's catalogue)."""
    with speaking(lang):
        return {k: _(k) for k in (
            "Peek at my face-down card", "Hide my face-down card", "Hit me!", "Hold",
            "My sum", "Its absolute value |sum|", "Check my sum", "Turn up all the cards")}


# Whether an element is in sight of the student: shown, and not under Voici's panel (#main,
# which covers the page once shown; the lesson's text is moved into it when every cell ran).
SEEN_JS = """el => {
  const main = document.getElementById('main');
  const covered = main && main.checkVisibility() && !main.contains(el);
  return el.checkVisibility() && !covered;
}"""
# An enabled button with this label that the student sees.
ENABLED_BUTTON_JS = ("label => [...document.querySelectorAll('.widget-button')].some(b => "
                     "b.textContent.trim() === label && !b.disabled && (" + SEEN_JS + ")(b))")


def wait_interactive(page: Any, lang: str, timeout: int = LOAD_TIMEOUT) -> None:
    """The Hit Me lesson's table answers where the student sees it: its Peek button is shown
    and enabled. Checked at every frame of the page: the time this wait takes is the page's,
    not Playwright's polling interval (which grows to 0.5 s)."""
    page.wait_for_function(ENABLED_BUTTON_JS, arg=words(lang)["Peek at my face-down card"],
                           polling="raf", timeout=timeout)


# The table's seats (the lesson's worked example before it has seats too); the student's first.
MY_SEAT_VALUES_JS = """() => [...[...document.querySelectorAll('.icg-seats')].pop()
    .querySelector('.icg-seat').querySelectorAll('.icg-hand .icg-value')]
    .map(e => e.textContent)"""


def play_hit_me_round(page: Any, lang: str) -> dict[str, Any]:
    """Peek, hold, announce the sum read off the student's seat, check it, turn up the cards.
    Returns the sum and the round's result text; the times of the clicks in `clicks_ms`."""
    w = words(lang)
    clicks: list[float] = []
    peek = wait_enabled(page, w["Peek at my face-down card"])
    t = time.monotonic()
    peek.click()
    button(page, w["Hide my face-down card"]).wait_for(timeout=TIMEOUT)
    clicks.append((time.monotonic() - t) * 1000)
    hold = wait_enabled(page, w["Hold"])
    t = time.monotonic()
    hold.click()
    text_box(page, w["My sum"]).wait_for(state="visible", timeout=TIMEOUT)
    clicks.append((time.monotonic() - t) * 1000)
    values = page.evaluate(MY_SEAT_VALUES_JS)
    total = sum(int(v.replace("\u2212", "-")) for v in values)
    text_box(page, w["My sum"]).press_sequentially(str(total))
    text_box(page, w["Its absolute value |sum|"]).press_sequentially(str(abs(total)))
    t = time.monotonic()
    wait_enabled(page, w["Check my sum"]).click()
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=TIMEOUT)
    clicks.append((time.monotonic() - t) * 1000)
    wait_enabled(page, w["Turn up all the cards"]).click()
    result = page.locator(".icg-msg-celebrate").first
    result.wait_for(timeout=TIMEOUT)
    return {"sum": total, "cards": values, "result": result.inner_text(), "clicks_ms": clicks}


FLAPJACK_STEP_JS = """() => {
  const shown = el => el.offsetParent !== null;
  const end = [...document.querySelectorAll('.icg-fj-end')].find(shown);
  if (end) return {end: end.innerText};
  const sign = [...document.querySelectorAll('.widget-button')]
    .find(b => shown(b) && !b.disabled && /^[+\u2212] /.test(b.innerText));
  if (sign) return {sign: sign.innerText};
  const cards = [...document.querySelectorAll('.icg-card-btn')].filter(b => shown(b));
  const card = cards.find(b => !b.disabled);
  return card ? {card: card.innerText} : {};
}"""


def play_flapjack_game(page: Any, max_plays: int = 80) -> dict[str, Any]:
    """The lesson's first Flapjack table (two players, simple ten) played to the end: on every
    turn of the student, the first card the table allows (and the first sign it offers)."""
    page.locator(".icg-card-btn:visible").first.wait_for(timeout=LOAD_TIMEOUT)
    plays = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        step = page.evaluate(FLAPJACK_STEP_JS)
        if "end" in step:
            return {"end": step["end"], "plays": plays}
        if "sign" in step:
            button(page, step["sign"]).click()
        elif "card" in step:
            label = step["card"]
            page.locator(".icg-card-btn:visible", has_text=label).first.click()
            plays += 1
            if plays > max_plays:
                break
            # the card leaves the hand (or a sign choice comes) before the next step
            page.wait_for_function(
                """label => ![...document.querySelectorAll('.icg-card-btn')]
                   .some(b => b.offsetParent !== null && !b.disabled && b.innerText === label)
                   || [...document.querySelectorAll('.widget-button')]
                   .some(b => b.offsetParent !== null && /^[+\u2212] /.test(b.innerText))""",
                arg=label, timeout=TIMEOUT)
        page.wait_for_timeout(100)
    raise AssertionError(f"the Flapjack game did not end ({plays} plays)")
