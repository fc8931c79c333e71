"""Fixtures for the real-browser tests: Voila on a free loopback port, Debian's Chromium via
Playwright, and a page wrapper that records every problem a student's browser would meet; and
WebKit (Safari's engine: Debian's WebKitWebDriver through Selenium on an Xvfb display,
tests/browser/webkit.py) for the journeys that run in both engines (test_webkit_*.py).

Without Chromium or Playwright (or Xvfb, WebKitWebDriver or Selenium for the WebKit tests) the
tests skip with the reason; under CI=true they fail instead.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from widgets.words import card_name

ROOT = Path(__file__).resolve().parents[2]
LESSONS_DIR = ROOT / "lessons"
FIXTURES_DIR = Path(__file__).resolve().parent / "fixtures"
ARTIFACTS_DIR = ROOT / "tests" / "artifacts"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# No request may leave the machine (a closed school network): every request to another host goes
# to a proxy that is not there (the loopback's discard port) and fails at once; Chromium never
# sends loopback requests through a proxy. A page records each request that tried
# (VoilaPage.external_requests, SitePage.external). Playwright's routing would do the same by
# holding every request for a round trip to the test process, and turns the browser's cache off.
OFFLINE_ARGS = ["--proxy-server=http://127.0.0.1:9"]
# The flags this machine needs (see the environment notes): no sandbox as root, no GPU, and no
# background traffic to Google's hosts (the network is closed; those requests only add noise).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    *OFFLINE_ARGS,
]
# Any widget view; the lab template wraps every rendered widget in .jupyter-widgets.
WIDGET_SELECTOR = ".jupyter-widgets"
LOAD_TIMEOUT_MS = 120_000
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}

# Console messages that are not problems of our pages. Each entry says why.
BENIGN_CONSOLE = [
    # Chrome logs an "error" for every request that the absent proxy (OFFLINE_ARGS) failed
    # because it left the machine; those requests are reported (and fail the test) as external
    # requests.
    re.compile(r"^Failed to load resource: net::ERR_(PROXY|TUNNEL)_CONNECTION_FAILED$"),
]


# Voila 0.5's tree page (upstream, with the lab template as with ours) starts the JupyterLab
# services and widget plugins although it has no kernel: the services poll GET /api/kernels,
# which Voila deliberately does not serve (404), and the three widget-manager plugins fail to
# activate ("The model for kernel id  does not exist"). The page lists the notebooks all the
# same. On a notebook page these messages would be real failures, so only the tree page allows
# them (VoilaPage.allow_tree_page_noise).
TREE_PAGE_NOISE = [
    re.compile(r"^Failed to load resource: the server responded with a status of 404 "
               r"\(Not Found\) \(http://127\.0\.0\.1:\d+/api/kernels\?\d+\)$"),
    re.compile(r"^Plugin '@jupyter-widgets/jupyterlab-manager:[\w.-]+' failed to activate\. "
               r"Error: The model for kernel id  does not exist", re.S),
]


def _missing_browser(reason: str) -> None:
    """Skip locally, fail under CI=true, with the reason."""
    msg = f"browser tests need Playwright and Chromium: {reason} (install: make browsers)"
    if IN_CI:
        pytest.fail(msg, pytrace=False)
    pytest.skip(msg)


# --------------------------------------------------------------------------- Voila
def _voila_server() -> Any:
    """tests/voila_server.py (start_voila/stop_voila with the project's configuration)."""
    tests_dir = str(ROOT / "tests")
    if tests_dir not in sys.path:
        sys.path.insert(0, tests_dir)
    import voila_server

    return voila_server


def _start(root: Path, extra_args: list[str] | None = None, *, env: dict[str, str] | None = None,
           preheat: bool = True) -> tuple[str, subprocess.Popen]:
    try:
        return _voila_server().start_voila(root, extra_args=extra_args or [], env=env,
                                           preheat=preheat)
    except RuntimeError as e:
        if IN_CI:
            raise
        pytest.skip(f"Voila could not start with the project's configuration: {e}")


def _stop(proc: subprocess.Popen) -> None:
    _voila_server().stop_voila(proc)


class VoilaServer:
    """A running Voila: its base URL and process (the kernels are its descendants), and the
    room store its kernels share (None: the server's default)."""

    def __init__(self, url: str, proc: subprocess.Popen, root: Path,
                 rooms_url: str | None = None) -> None:
        self.url = url if url.endswith("/") else url + "/"
        self.proc = proc
        self.root = root
        self.rooms_url = rooms_url

    def page_url(self, notebook: str) -> str:
        """The Voila page of a notebook file inside the served folder."""
        return f"{self.url}voila/render/{notebook}"

    def kernel_processes(self) -> list[Any]:
        """psutil processes of the kernels this server started."""
        return _voila_server().kernel_processes(self.proc.pid)


# The teacher's key of the served lessons (as `make serve` or a deployer sets ICG_TEACHER_KEY).
KEY = "Q7RT-4KXM-9DVB"


@pytest.fixture(scope="session")
def lessons_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """Voila serving lessons/ with the project's configuration (voila.json), as a school runs
    it: a teacher's key (KEY) and a room store (an SQLite file, `rooms_url`) shared by every
    kernel. One server for the whole browser run; its kernels start when a page asks (no
    pool of preheated kernels: tests/test_pool.py covers pooled pages)."""
    if not any(LESSONS_DIR.glob("*.ipynb")):
        pytest.skip("no lessons/*.ipynb yet")
    rooms_url = f"sqlite:///{tmp_path_factory.mktemp('rooms') / 'rooms.sqlite3'}"
    env = {"ICG_TEACHER_KEY": KEY, "ICG_TEACHER_KEY_FILE": "/nonexistent/teacher_key",
           "ICG_ROOMS_URL": rooms_url}
    url, proc = _start(LESSONS_DIR, env=env, preheat=False)
    yield VoilaServer(url, proc, LESSONS_DIR, rooms_url)
    _stop(proc)


@pytest.fixture(scope="session")
def keyed_server(lessons_server: VoilaServer) -> VoilaServer:
    """The lessons' server, named for tests about the teacher's key."""
    return lessons_server


class ClassServer(VoilaServer):
    """`make class`'s server, and the address it printed for the students to type."""

    address: str = ""


@pytest.fixture(scope="session")
def class_server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClassServer]:
    """`make class`'s server (serving/class_server.py, bound to 127.0.0.1 so that nothing goes
    to a network address), with the teacher's key KEY and a room store of its own; the tests
    take it through `class_server`."""
    rooms_url = f"sqlite:///{tmp_path_factory.mktemp('class') / 'rooms.sqlite3'}"
    env = {"ICG_TEACHER_KEY": KEY, "ICG_TEACHER_KEY_FILE": "/nonexistent/teacher_key",
           "ICG_ROOMS_URL": rooms_url}
    try:
        url, proc = _voila_server().start_voila(LESSONS_DIR, module="serving.class_server",
                                                env=env, preheat=False)
    except RuntimeError as e:
        if IN_CI:
            raise
        pytest.skip(f"the class server could not start: {e}")
    try:
        printed = ""
        end = time.monotonic() + 30
        while time.monotonic() < end:
            printed = Path(proc.log_path).read_text(errors="replace")  # type: ignore[attr-defined]
            if "Projector page" in printed:
                break
            time.sleep(0.2)
        found = re.search(r"this computer only \((http://127\.0\.0\.1:\d+)\)", printed)
        assert found, f"the class server printed no address:\n{printed[-2000:]}"
        server = ClassServer(url, proc, LESSONS_DIR, rooms_url)
        server.address = found.group(1) + "/"
        yield server
    finally:
        _stop(proc)


@pytest.fixture
def class_server(class_server_process: ClassServer) -> Iterator[ClassServer]:
    """The class server shared by the session, as the next class finds it after each test: no
    student page in the live class, no class list, no pause, lock or exit ticket, no answer or
    name of any day (a test may write answers of earlier days, which the gradebook and the
    re-checks read). A test takes it before `open_page`, so its pages are closed first (a page
    still open could take its name again, and the next test's student of that name would wait
    for the teacher)."""
    yield class_server_process
    from rooms.answers import open_answers
    from rooms.live_class import open_live_class

    live = open_live_class(class_server_process.rooms_url)
    live.end_day()
    live.set_roster([])
    live.set_lesson(None)
    live.set_options(locked=False, late_join=True, approve=False, confirm=False)
    answers = open_answers(class_server_process.rooms_url)
    answers.delete_day()
    answers.expire(now=time.time() + 3650 * 86400)  # every earlier day: all "too old" then


@pytest.fixture(scope="session")
def fixtures_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """Voila serving a copy of tests/browser/fixtures/ (our seeded game notebooks). Each page
    starts its kernel when asked, as the slow-start pages' watchdog test needs (no pool of
    preheated kernels, which would run every fixture once more than the tests open it:
    pooled pages in a browser are the play-together journeys', `rooms_server`)."""
    root = tmp_path_factory.mktemp("voila-fixtures")
    for nb in FIXTURES_DIR.glob("*.ipynb"):
        shutil.copy(nb, root / nb.name)
    url, proc = _start(root, preheat=False)
    yield VoilaServer(url, proc, root)
    _stop(proc)


# ----- play together (test_play_together_*.py) ------------------------------------------------
@pytest.fixture(scope="module")
def rooms_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Voila serving one page with the play-together widget, on a store of its own: the page's
    URL and the store's."""
    import nbformat

    root = tmp_path_factory.mktemp("voila-rooms")
    served = root / "pages"
    served.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                  "name": "python3"}, "title": "Play together fixture"}
    nb.cells = [nbformat.v4.new_code_cell(
        "from widgets.together.lobby import play_together\n\nplay_together(bot_delay=0.2)")]
    nbformat.write(nb, served / "play_together.ipynb")
    store_url = f"sqlite:///{root / 'rooms.sqlite3'}"  # outside the served folder
    url, proc = _start(served, env={"ICG_ROOMS_URL": store_url})
    yield f"{url.rstrip('/')}/voila/render/play_together.ipynb", store_url
    _stop(proc)


# Three students' pages are three windows: Chromium would slow the two in the background
# (timers, frames), which a student's own device never does. These flags keep every page live.
LIVE_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows", *OFFLINE_ARGS]


@pytest.fixture(scope="module")
def live_browser(browser: Any) -> Iterator[Any]:
    """A second Chromium (same Playwright) with the background slow-downs off."""
    b = browser.browser_type.launch(
        executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), headless=True,
        args=LIVE_ARGS)
    yield b
    b.close()


@pytest.fixture
def live_open_page(live_browser: Any) -> Iterator[Callable[..., VoilaPage]]:
    """Like `open_page`, on the live browser."""
    contexts = []

    def make(name: str = "page") -> VoilaPage:
        ctx = live_browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(ctx)
        return VoilaPage(ctx, name)

    yield make
    for ctx in contexts:
        try:
            ctx.close()
        except Exception:  # noqa: BLE001
            pass


# --------------------------------------------------------------------------- browser
@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright's sync API."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        _missing_browser(f"playwright is not installed ({e})")
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        _missing_browser(f"no executable Chromium at {CHROMIUM}")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    except Exception as e:  # noqa: BLE001 - any launch failure means "no usable browser"
        pw.stop()
        _missing_browser(f"Chromium at {CHROMIUM} did not start: {e}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture(scope="session")
def webkit() -> Iterator[Callable[..., Any]]:
    """WebKit (Safari's engine): a function that opens a WebKitGTK window of a given size
    (tests/browser/webkit.py), all on one Xvfb display started for the session. Each window
    the function opened is closed at the end."""
    try:
        import selenium  # noqa: F401
    except ImportError as e:
        _missing_webkit(f"selenium is not installed ({e})")
    from webkit import driver_factory, xvfb_display

    drivers: list[Any] = []
    try:
        with xvfb_display() as display:
            start = driver_factory(display)

            def open_window(width: int = 1280, height: int = 900) -> Any:
                try:
                    d = start(width, height)
                except Exception as e:  # noqa: BLE001 - any failure means "no usable WebKit"
                    _missing_webkit(f"WebKitWebDriver did not start a window: {e}")
                drivers.append(d)
                return d

            yield open_window
            for d in drivers:
                try:
                    d.quit()
                except Exception:  # noqa: BLE001 - a window gone must not mask the result
                    pass
    except (FileNotFoundError, RuntimeError) as e:
        _missing_webkit(str(e))


def _missing_webkit(reason: str) -> None:
    """Skip locally, fail under CI=true, with the reason."""
    from webkit import missing

    msg = reason if "WebKit" in reason else missing(reason)
    if IN_CI:
        pytest.fail(msg, pytrace=False)
    pytest.skip(msg)


_WIDGET_STATE_JS = """async () => {
  const app = window.jupyterapp;
  if (!app) return null;
  let wm = app._widgetManager;
  if (!wm && app._widgetManagerPromise) wm = await app._widgetManagerPromise;
  if (!wm || !wm._models) return null;
  const models = wm._models;
  const ids = models instanceof Map ? [...models.keys()] : Object.keys(models);
  const out = [];
  for (const id of ids) {
    try {
      const m = await (models instanceof Map ? models.get(id) : models[id]);
      out.push(JSON.stringify(m.get_state(false)));
    } catch (e) { out.push('unreadable model ' + id); }
  }
  return out;
}"""

_SYNCED_JS = """async () => {
  const app = window.jupyterapp;
  const wm = app && (app._widgetManager || await app._widgetManagerPromise);
  if (!wm || !wm._models) return false;
  const models = wm._models;
  const ids = models instanceof Map ? [...models.keys()] : Object.keys(models);
  for (const id of ids) {
    const m = await (models instanceof Map ? models.get(id) : models[id]);
    if (m._msg_buffer !== null && m._msg_buffer !== undefined) return false;
    if ((m._pending_msgs || 0) > 0) return false;
    // ipywidgets 8 echoes each update back: an expected echo means the kernel has not
    // answered our last change yet.
    if (m._expectedEchoMsgIds && m._expectedEchoMsgIds.size > 0) return false;
  }
  return true;
}"""

_PAGE_ERROR_TEXT = re.compile(
    r"Traceback|There was an error when executing cell|Error displaying widget"
    r"|Error rendering|Model not found|[A-Za-z]+Error: ",
)


def _decode_frame(payload: bytes | str) -> str:
    """A websocket frame as text; JSON \\uXXXX escapes are undone so names can be searched."""
    text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
    if "\\u" in text:
        text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
    return text


OPENED_PAGES: list[VoilaPage] = []  # this test's pages, described in its report if it fails


def describe_page(vp: VoilaPage) -> str:
    """What a failed test's page showed: its address, text, problems and the last messages its
    kernel sent (a handler's traceback reaches the page as one)."""
    if vp.page.is_closed():
        return f"[{vp.name}] closed"
    try:
        from webkit import WIDGETS_SUMMARY_JS

        summary = vp.page.evaluate("() => {" + WIDGETS_SUMMARY_JS + "}")
        problems = vp.problems()
    except Exception as e:  # noqa: BLE001 - a page gone mid-navigation says so
        return f"[{vp.name}] {vp.page.url}: unreadable ({e})"
    kinds, said = [], []
    for frame in vp.frames[-40:]:
        kind = re.search(r'"msg_type":\s*"(\w+)"', frame)
        kinds.append(kind.group(1) if kind else "?")
        if kind and kind.group(1) in ("error", "stream"):
            said.append(re.sub(r"[\x00-\x1f]+", " ", frame)[-1500:])
    return "\n".join([f"[{vp.name}] {vp.page.url}", summary,
                      f"problems: {problems}", f"last kernel messages: {' '.join(kinds)}",
                      *said])


class VoilaPage:
    """One student's tab: a Playwright page plus what it logged, received and requested."""

    def __init__(self, context: Any, name: str) -> None:
        self.context = context
        self.page = context.new_page()
        self.name = name
        OPENED_PAGES.append(self)
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.external_requests: list[str] = []
        self.frames: list[str] = []
        self.ws_urls: list[str] = []
        self.documents: list[Any] = []  # responses of the pages loaded (their raw HTML)
        self.benign: list[re.Pattern[str]] = list(BENIGN_CONSOLE)
        self.page.on("response", self._on_response)
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        self.page.on("websocket", self._on_websocket)
        # No request may leave the machine: the browser fails any that tries (OFFLINE_ARGS).
        self.page.on("requestfailed", self._on_request_failed)

    def _on_request_failed(self, request: Any) -> None:
        host = urlparse(request.url).hostname or ""
        if not request.url.startswith(("data:", "blob:")) and host not in LOOPBACK_HOSTS:
            self.external_requests.append(request.url)

    def _on_console(self, msg: Any) -> None:
        if msg.type != "error":
            return
        text = msg.text
        loc = (msg.location or {}).get("url", "")
        host = urlparse(loc).hostname or ""
        if loc and host not in LOOPBACK_HOSTS and loc in self.external_requests:
            return  # reported as an external request
        full = f"{text} ({loc})" if loc else text
        if any(p.search(text) or p.search(full) for p in self.benign):
            return
        self.console_errors.append(full)

    def allow_tree_page_noise(self) -> None:
        """Accept the known console errors of Voila's tree page (see TREE_PAGE_NOISE)."""
        self.benign += TREE_PAGE_NOISE

    def _on_response(self, response: Any) -> None:
        if response.request.resource_type == "document":
            self.documents.append(response)

    def raw_html(self) -> str:
        """The HTML the server sent for the last page loaded (before any script ran)."""
        if not self.documents:
            return ""
        try:
            return self.documents[-1].text()
        except Exception:  # noqa: BLE001 - a response body can be gone after navigation
            return ""

    def widget_outputs(self) -> int:
        """How many widget views the executed notebook displays (counted in the raw HTML)."""
        return self.raw_html().count('"application/vnd.jupyter.widget-view+json"')

    def rendered_widgets(self) -> int:
        """How many top-level widget views are rendered and visible."""
        return self.page.evaluate(
            "() => [...document.querySelectorAll('.jupyter-widgets')].filter(e =>"
            " !e.parentElement.closest('.jupyter-widgets') && e.offsetParent !== null"
            " && e.getBoundingClientRect().height > 0).length"
        )

    def _on_websocket(self, ws: Any) -> None:
        self.ws_urls.append(ws.url)
        ws.on("framereceived", lambda payload: self.frames.append(_decode_frame(payload)))

    # -- navigation
    def open(self, url: str, *, expect_widgets: bool = True,
             timeout_ms: int = LOAD_TIMEOUT_MS) -> float:
        """Load a Voila page; wait until every cell ran and every widget the notebook displays
        is rendered and visible (with `expect_widgets`, at least one).

        Returns the seconds from navigation to that moment.
        """
        t0 = time.monotonic()
        response = self.page.goto(url, wait_until="domcontentloaded", timeout=timeout_ms)
        if response is not None and response.status != 200:
            # a refused page (503 "class is full", 429) has no spinner to wait for: say so
            text = " ".join(self.page.inner_text("body").split())[:300]
            raise AssertionError(f"{url} answered HTTP {response.status}: {text}")
        self.wait_loaded(expect_widgets=expect_widgets, timeout_ms=timeout_ms)
        return time.monotonic() - t0

    def wait_loaded(self, *, expect_widgets: bool = True,
                    timeout_ms: int = LOAD_TIMEOUT_MS) -> None:
        """Wait until the page being loaded (by `open`, or by a link the student clicked) ran
        every cell and shows every widget the notebook displays (with `expect_widgets`, at
        least one)."""
        # Voila hides #loading (its spinner) once every cell has run.
        self.page.wait_for_function(
            "() => { const l = document.getElementById('loading');"
            " return !l || l.style.display === 'none' || l.offsetParent === null; }",
            timeout=timeout_ms,
        )
        if expect_widgets:
            self.page.locator(WIDGET_SELECTOR).first.wait_for(state="visible",
                                                             timeout=timeout_ms)
        wanted = self.widget_outputs()
        if wanted:
            self.page.wait_for_function(
                "n => [...document.querySelectorAll('.jupyter-widgets')].filter(e =>"
                " !e.parentElement.closest('.jupyter-widgets') && e.offsetParent !== null"
                " && e.getBoundingClientRect().height > 0).length >= n",
                arg=wanted, timeout=timeout_ms,
            )

    # -- what the page holds
    def problems(self) -> list[str]:
        """Every console error, page error, off-machine request and error text in the page."""
        out = [f"console error: {e}" for e in self.console_errors]
        out += [f"page error: {e}" for e in self.page_errors]
        out += [f"request left the machine: {u}" for u in self.external_requests]
        body = self.page.inner_text("body")
        out += [f"error text in page: {m.group(0)!r}" for m in _PAGE_ERROR_TEXT.finditer(body)]
        stderr = self.page.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
        out += [f"stderr output: {t[:200]!r}" for t in stderr.all_inner_texts() if t.strip()]
        return out

    def widget_states(self) -> list[str]:
        """JSON of the state of every widget model the page's widget manager holds."""
        states = self.page.evaluate(_WIDGET_STATE_JS)
        assert states is not None, "could not reach Voila's widget manager (window.jupyterapp)"
        return states

    def wait_synced(self, timeout_ms: int = 30_000) -> None:
        """Wait until every widget model has sent its changes and the kernel answered them.

        ipywidgets throttles state updates (one pending message per model; later changes wait
        in a buffer) while a button click is sent at once, so a click right after typing can
        reach the kernel before the typed value does. A person is slower than that; a test
        waits here between typing and clicking.
        """
        self.page.wait_for_function(_SYNCED_JS, timeout=timeout_ms, polling=50)

    def everything_received(self) -> str:
        """The served HTML, the DOM, the widget models' state and every websocket frame
        received, as one text."""
        return "\n".join([self.raw_html(), self.page.content(), *self.widget_states(),
                          *self.frames])

    def kernel_id(self) -> str | None:
        """The id of this page's kernel, from its websocket URL."""
        for u in self.ws_urls:
            m = re.search(r"/api/kernels/([0-9a-f-]{36})", u)
            if m:
                return m.group(1)
        return None

    def screenshot(self, name: str) -> Path:
        """A full-page PNG in tests/artifacts/."""
        ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS_DIR / f"{name}.png"
        # The lab template scrolls inside a container, so a "full page" shot would stop at the
        # viewport: make the viewport as tall as the tallest scrolling content for the shot.
        size = self.page.viewport_size or {"width": 1280, "height": 900}
        height = self.page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))"
        )
        self.page.set_viewport_size({"width": size["width"],
                                     "height": max(size["height"], min(int(height), 6000))})
        try:
            self.page.screenshot(path=str(path), full_page=True)
        finally:
            self.page.set_viewport_size(size)
        return path

    def axe_violations(self, impacts: Sequence[str] = ("serious", "critical")) -> list[dict]:
        """axe-core (bundled by axe-playwright-python, run offline) violations of these impacts."""
        self.page.evaluate(_axe_source())
        res = self.page.evaluate(
            "async () => await axe.run(document, {resultTypes: ['violations']})"
        )
        return [v for v in res["violations"] if v.get("impact") in impacts]


def _axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def format_violations(violations: list[dict]) -> str:
    """A readable summary of axe violations for assertion messages."""
    lines = []
    for v in violations:
        targets = [n.get("target") for n in v.get("nodes", [])][:5]
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} - {len(v['nodes'])} nodes {targets}")
        for n in v.get("nodes", [])[:2]:
            lines.append(f"    {n.get('failureSummary', '')!s}".replace("\n", " | "))
    return "\n".join(lines)


def unlock_teacher(vp: VoilaPage, key: str,
                   button: str = "Unlock the teacher's controls") -> None:
    """Type `key` in the page's teacher's-key box (a password field), let the value reach the
    kernel, and press "Unlock the teacher's controls" (widgets/page/teacher_key.py; `button` is its
    label in the page's language). The caller waits for what the key should (or should not)
    bring."""
    box = vp.page.locator("input[type=password]")
    box.fill(key)
    box.press("Tab")
    vp.wait_synced()
    vp.page.get_by_role("button", name=button).click()


# The exit ticket's question on the page: its paragraph "Question 2 of 5. ..." and the labels of
# its shown choice buttons (tooltip "answer ..."; none for a typed answer). The same script
# runs in WebKit (tests/browser/webkit.py), where `root` is null and the ticket is looked up.
TICKET_QUESTION_JS = """(root, heading) => {
  root = root || document.querySelector('.icg-exit-ticket');
  const p = [...root.querySelectorAll('p')].find(e => e.innerText.trim().startsWith(heading));
  if (!p) return null;
  const choices = [...root.querySelectorAll('button[title^="answer "]')]
    .filter(b => b.offsetParent !== null).map(b => b.innerText.trim());
  return {prompt: p.innerText.trim(), choices: choices};
}"""


def ticket_question(ticket: Any, number: int, total: int = 5) -> tuple[str, list[str]]:
    """Question `number` of the exit ticket `ticket` (a locator of `.icg-exit-ticket`) as the
    student reads it, once it is shown: its words and its buttons' labels (none for a typed
    answer). tests/helpers.py's `ticket_answer` works out its answer."""
    heading = f"Question {number} of {total}."
    ticket.get_by_text(heading).wait_for(timeout=30_000)
    got = ticket.evaluate(TICKET_QUESTION_JS, heading)
    assert got, f"no {heading!r} on the page"
    return got["prompt"], got["choices"]


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., VoilaPage]]:
    """Factory: a fresh browser context and page per call, closed after the test. `options`:
    more of the context's settings (a phone's `has_touch=True, is_mobile=True`)."""
    contexts = []

    def make(name: str = "page", viewport: dict | None = None, **options: Any) -> VoilaPage:
        ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                  **options)
        contexts.append(ctx)
        return VoilaPage(ctx, name)

    yield make
    for ctx in contexts:
        close_context(ctx)


# A Voila page's kernel, from the page's own settings (the shutdown beacon names it too).
# The page's kernel, and whether Voila's widget manager is active (it adds the beforeunload
# handler that sends the shutdown beacon as it starts).
KERNEL_JS = """() => { const c = document.getElementById('jupyter-config-data');
  if (!c) return null;
  try { const d = JSON.parse(c.textContent);
        const app = window.jupyterapp;
        return d.kernelId ? {id: d.kernelId, base: location.origin + (d.baseUrl || '/'),
                             beacon: !!(app && (app.widgetManager || app._widgetManager))}
                          : null;
  } catch (e) { return null; } }"""


def close_context(ctx: Any) -> None:
    """Close a browser context as a student closes tabs: each page first runs its beforeunload
    handlers, where Voila's widget manager sends the beacon (`voila/api/shutdown/<kernel>`) that
    shuts the page's kernel down. A bare `ctx.close()` skips them, so every page a test opened
    kept its kernel until the 10-minute idle cull, and late in the browser run the lessons
    server reached `max_kernels` and answered pages with 503 "class is full".

    Closing the context at once can cancel the beacon on its way (a CI run kept a closed tab's
    kernel 20 s), and Playwright reports no answer to a closed page's beacon (on a loaded
    machine, not even the request): so the server is asked (`GET api/kernels/<id>`, in the
    context, with its cookies) until each closed page's kernel is gone (404), for at most 10 s,
    or 1 s for a page whose widget manager never started (no beacon handler) and whose beacon
    was not seen."""
    for inner in list(getattr(ctx, "contexts", [])):  # a whole browser: each of its contexts
        close_context(inner)
    kernels: list[dict] = []
    beacons: list[str] = []
    try:
        if hasattr(ctx, "pages"):
            ctx.on("request", lambda r: beacons.append(r.url)
                   if "/api/shutdown/" in r.url else None)
        for page in list(getattr(ctx, "pages", [])):
            if page.is_closed():
                continue
            try:
                kernel = page.evaluate(KERNEL_JS)
            except Exception:  # noqa: BLE001 - a page gone or not a Voila page: no kernel
                kernel = None
            if kernel:
                kernels.append(kernel)
            with page.expect_event("close", timeout=10_000):
                page.close(run_before_unload=True)
        t0 = time.monotonic()
        for k in kernels:
            url = f"{k['base'].rstrip('/')}/api/kernels/{k['id']}"
            while time.monotonic() < t0 + 10:
                if ctx.request.get(url, timeout=5_000, max_redirects=0).status != 200:
                    break  # 404: shut down (any other answer: nothing to wait for)
                if (time.monotonic() > t0 + 1 and not k.get("beacon")
                        and not any(k["id"] in u for u in beacons)):
                    break  # the page sent no beacon: its kernel is left to the idle cull
                time.sleep(0.1)
    except Exception:  # noqa: BLE001 - closing a dead page must not mask the test's result
        pass
    try:
        ctx.close()
    except Exception:  # noqa: BLE001 - closing a dead context must not mask the result
        pass


def card_forms(card: Any) -> list[str]:
    """Every way the engine writes a card: code ('7H'), key ('7H#1'), short ('7♥'), name."""
    return sorted({card.code, card.key, card.short, card_name(card)})


# Text that is never game data but is full of short upper-case tokens ('AS IS' in licence
# comments, '%2C' in URL-encoded option values, 'H' commands in SVG paths of data: URIs).
_NOISE = [
    re.compile(r"<style\b.*?</style>", re.S | re.I),
    re.compile(r"/\*.*?\*/", re.S),
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"data:[a-z]+/[^\s\"')]+", re.I),
    re.compile(r"\bd=\"[^\"]*\""),  # SVG path data
]
# A card code ('7H', 'AS', '10C', 'KS#1') stands alone: not inside a number, a word, a %-escape.
_BEFORE = r"(?<![0-9A-Za-z%.#&])"
_AFTER = r"(?![0-9A-Za-z%])"


@functools.lru_cache(maxsize=8)  # a leak check searches one page's text twice or more
def searchable(text: str) -> str:
    """`text` without the parts that can hold no game data (styles, comments, data: URIs)."""
    for pat in _NOISE:
        text = pat.sub(" ", text)
    return text


def find_cards(text: str, cards: Sequence[Any]) -> dict[str, list[str]]:
    """Which of `cards` occur in `text` (whole tokens; names case-insensitively), by card key."""
    text = searchable(text)
    lowered = text.lower()
    found: dict[str, list[str]] = {}
    for card in cards:
        for form in card_forms(card):
            name = " " in form
            # most forms are nowhere in the text: a plain substring search rules them out
            if (form.lower() not in lowered) if name else (form not in text):
                continue
            flags = re.IGNORECASE if name else 0
            if re.search(_BEFORE + re.escape(form) + _AFTER, text, flags):
                found.setdefault(card.key, []).append(form)
    return found


# --------------------------------------------------------------------------- game replicas
class HitMeReplica:
    """The first round of tests/browser/fixtures/hit_me_table.ipynb, replayed from the engine.

    Same settings, deal code and computer players as the table (HitMeGame(config, seed) deals
    round 1; the table seeds its bots with "<code>/round1"), so the test knows every hidden card
    and the result without asking the page. The student is seat 0 (and the first dealer).
    """

    def __init__(self, players: int = 2, opponents: str = "random", seed: int = 3) -> None:
        from engine import HitMeConfig, HitMeGame
        from widgets.table.controller import make_bots

        self.config = HitMeConfig(players=players)
        self.game = HitMeGame(self.config, seed=seed)
        self.round = self.game.round
        self.bots = make_bots(dict.fromkeys(range(1, players), opponents), "hit-me",
                              f"{seed}/round1")
        self.names = ["You"] + [f"Computer {i}" for i in range(1, players)]
        self.run_bots()

    def run_bots(self) -> None:
        r = self.round
        while not r.players_done and r.current in self.bots:
            seat = r.current
            d = self.bots[seat].choose(r.observation(seat), r.legal_actions(seat))
            r.apply_action(d.action, seat)

    def act(self, action: Any) -> None:
        """The student's move, then the computer players' replies."""
        self.round.apply_action(action, 0)
        self.run_bots()

    def hidden_cards(self) -> list[Any]:
        """Every opponent's face-down card (hidden until the reveal)."""
        return [self.round.face_down[s] for s in range(1, self.config.players)]

    def my_cards(self) -> list[Any]:
        return self.round.cards(0)

    def my_sum(self) -> int:
        return self.round.final_sum(0)

    def winner_text(self) -> str:
        """The start of the page's result line for this round."""
        res = self.round.result()
        assert res is not None
        if len(res.winners) == 1 and res.winners[0] == 0 and self.names[0] == "You":
            return "You win the round"
        if len(res.winners) == 1:
            return f"{self.names[res.winners[0]]} wins the round"
        return "co-winners"


class FlapjackReplica:
    """tests/browser/fixtures/flapjack_table.ipynb's game, replayed from the engine in step
    with the student's clicks (FlapjackState.deal(config, rng=code); bots seeded by the code).
    The student is seat 0; seat 1 leads."""

    def __init__(self, players: int = 2, opponents: str = "random", variant: str = "classic",
                 seed: int = 5) -> None:
        from engine import FlapjackConfig, FlapjackState
        from widgets.table.controller import make_bots

        self.config = FlapjackConfig(players=players, variant=variant)
        self.state = FlapjackState.deal(self.config, rng=seed)
        self.bots = make_bots(dict.fromkeys(range(1, players), opponents), "flapjack", seed)
        from widgets.table.shell import seat_names

        self.names = seat_names(None, players)  # the one name policy: You, Computer 1, ...
        self.run_bots()

    def run_bots(self) -> None:
        st = self.state
        while not st.is_over and st.current in self.bots:
            seat = st.current
            d = self.bots[seat].choose(st.observation(seat), st.legal_actions(seat))
            st.apply_action(d.action, seat)

    def my_turn(self) -> bool:
        return not self.state.is_over and self.state.current == 0

    def choose(self) -> Any:
        """The student's next play: the first legal one in hand order."""
        legal = self.state.legal_actions(0)
        assert legal, "the student has no legal play on their turn"
        order = {c.key: i for i, c in enumerate(self.state.hands[0])}
        return min(legal, key=lambda a: order[a.card.key])

    def play(self, action: Any) -> None:
        self.state.apply_action(action, 0)
        self.run_bots()

    def label(self, card: Any) -> str:
        """A hand button's text for a card: '7♦ -7' (rank, suit symbol, signed value)."""
        from engine.cards import signed

        return f"{card.label}{card.suit.symbol} {signed(self.config.value(card))}"

    def hand_labels(self) -> list[str]:
        return [self.label(c) for c in self.state.hands[0]]

    def hidden_cards(self) -> list[Any]:
        """Cards no student may see now: opponents' hands and the draw pile."""
        st = self.state
        return [c for s in range(1, self.config.players) for c in st.hands[s]] + \
            list(st.draw_pile)

    def verdict(self) -> str:
        """The winner part of the end banner."""
        res = self.state.result()
        assert res is not None
        if len(res.winners) == 1:
            w = res.winners[0]
            n = res.cards_won[w]
            who = "You win" if w == 0 else f"{self.names[w]} wins"
            return f"{who} with {n} card{'s' if n != 1 else ''}"
        return "A tie"


def wait_total_prompt(page: Any, card: Any, timeout_ms: int = 30_000) -> None:
    """Flapjack "say the new total": wait until the prompt is about `card` and Check is enabled.

    The answer box stays on screen after a play (locked), so "visible" is not enough: typing
    before the kernel has reset the box for the new card would be overwritten by that reset.
    """
    page.locator(f'.icg-answer [aria-label^="{card_name(card)},"]').first.wait_for(
        state="visible", timeout=timeout_ms)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.icg-answer button')].some(b =>"
        " b.offsetParent !== null && b.innerText.trim() === 'Check the new total'"
        " && !b.disabled)", timeout=timeout_ms)


@pytest.fixture(scope="session")
def bt() -> Any:
    """Helpers for the browser tests (test modules cannot import this conftest by name)."""

    class Helpers:
        format_violations = staticmethod(format_violations)
        notebook_has_widgets = staticmethod(notebook_has_widgets)
        find_cards = staticmethod(find_cards)
        card_forms = staticmethod(card_forms)
        wait_total_prompt = staticmethod(wait_total_prompt)
        HitMeReplica = globals()["HitMeReplica"]
        FlapjackReplica = globals()["FlapjackReplica"]
        VoilaPage = globals()["VoilaPage"]
        lessons_dir = LESSONS_DIR
        fixtures_dir = FIXTURES_DIR
        artifacts_dir = ARTIFACTS_DIR
        in_ci = IN_CI
        widget_selector = WIDGET_SELECTOR

    return Helpers


def notebook_has_widgets(path: Path) -> bool:
    """Whether a notebook's code shows a table or an interactive widget (a class from our
    widgets package, or ipywidgets)."""
    nb = json.loads(path.read_text())
    src = "\n".join(
        "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
    )
    return bool(re.search(r"\bimport ipywidgets\b|\bfrom widgets\b.*\bimport [A-Z]", src))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed browser test's report carries what each of its open pages showed."""
    outcome = yield
    report = outcome.get_result()
    webkit = sys.modules.get("webkit")
    if call.when == "call" and report.failed and webkit and webkit.OPENED_WINDOWS:
        report.sections.append(("WebKit windows when the test failed", "\n\n".join(
            wk.describe() for wk in webkit.OPENED_WINDOWS[-2:])))
    if call.when == "call" and report.failed and OPENED_PAGES:
        report.sections.append(("pages when the test failed",
                                "\n\n".join(describe_page(vp) for vp in OPENED_PAGES)))
    elif call.when == "teardown":
        OPENED_PAGES.clear()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/browser/ carries the `browser` marker."""
    here = Path(__file__).resolve().parent
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(here):
            item.add_marker(pytest.mark.browser)


# ----- the static site (tests/browser/test_site*.py) ---------------------------------------------
@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site `make test` built in its site stage (ICG_SITE_DIR), or one built now."""
    from static_site import build

    made = os.environ.get("ICG_SITE_DIR")
    if made:
        if not (Path(made) / "build.json").is_file():
            pytest.fail(f"ICG_SITE_DIR={made} holds no built site (make site)", pytrace=False)
        return Path(made)
    out = tmp_path_factory.mktemp("static-site") / "site"
    build(out)
    return out


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    from static_site import static_server

    with static_server(site_dir) as url:
        yield url


@pytest.fixture
def site_page(browser: Any, site_url: str) -> Iterator[Any]:
    """A recorded page (static_site.SitePage) on the static site, in a context of its own."""
    from static_site import SitePage

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield SitePage(context, site_url)
    context.close()
