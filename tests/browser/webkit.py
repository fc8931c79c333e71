"""WebKit (Safari's engine) for the browser tests: Debian's WebKitWebDriver (webkit2gtk-driver)
driven through Selenium, its MiniBrowser drawing on an Xvfb display this module starts.

WebKitGTK is not iOS Safari (memory limits and touch differ), but it is the same engine: layout,
CSS, WebAssembly, web sockets. Its WebDriver has no console or network events (no BiDi), so a
`WebKitPage` records what a page can tell by itself: every resource it loaded (the Resource
Timing entries, all of which must come from the page's own server; a request that failed
before any answer is not listed there, which the Chromium journeys see), and errors and
console errors from the moment it is recorded (`record()`).

Without Xvfb, WebKitWebDriver or Selenium the tests skip with the reason; under CI=true they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlparse

from selenium.common.exceptions import StaleElementReferenceException

DRIVER = os.environ.get("WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
# Waits that only guard against a hang (a test asserts what appears, never how fast): Python in
# WebKit (Pyodide) on a busy two-core CI machine answered a click after more than 120 s and
# drew the strategy lab's charts after more than 180 s, while the other workers ran Chromium.
# A cold start of the static site in WebKit took 4-15 s on a quiet machine.
LOAD_TIMEOUT = 360.0
# A page's answer to a click; a loaded machine takes a minute or more.
TIMEOUT = 300.0

# A click that no click event of the page followed within CLICK_DELIVERY_S (the page's main
# thread runs no Python: a click event comes at once, or never) is sent again (see
# `WebKitPage._delivered`), at most CLICK_ATTEMPTS times in all.
CLICK_DELIVERY_S, CLICK_ATTEMPTS = 20.0, 3

# Records errors and console errors of the page from now on (WebDriver classic has no events).
RECORD_JS = """
if (!window.__icgProblems) {
  window.__icgProblems = [];
  window.addEventListener('error', e => window.__icgProblems.push('pageerror: ' + e.message));
  window.addEventListener('unhandledrejection',
    e => window.__icgProblems.push('unhandled rejection: '
                                   + (e.reason && e.reason.message || e.reason)));
  window.__icgClicks = [];
  document.addEventListener('click', e => {
    window.__icgLastClick = e.target;
    const b = e.target.closest && e.target.closest('button');
    const what = b ? 'button ' + b.textContent.trim().slice(0, 30)
                   : e.target.tagName + ' ' + String(e.target.className).slice(0, 30);
    window.__icgClicks.push(Math.round(performance.now() / 100) / 10 + 's ' + what);
  }, true);
  const error = console.error.bind(console);
  console.error = (...args) => { window.__icgProblems.push('console error: ' + args.join(' '));
                                 error(...args); };
}
"""
# Shown, with a size, and not under Voici's panel (#main covers the page once shown, and the
# lesson's text moves into it when every cell ran).
SEEN_JS = """el => {
  const main = document.getElementById('main');
  const covered = main && main.checkVisibility() && !main.contains(el);
  return el.checkVisibility() && el.getBoundingClientRect().height > 0 && !covered;
}"""
# What a failed test's page shows of its widgets, in few characters: each visible button's text
# (marked "(off)" when disabled), each message shown, and the end of the page's text.
WIDGETS_SUMMARY_JS = """return (() => {
  const seen = el => el.checkVisibility() && el.getBoundingClientRect().height > 0;
  const one = s => s.replace(/\\s+/g, ' ').trim();
  const buttons = [...document.querySelectorAll('.widget-button, .widget-toggle-button')]
    .filter(seen).map(b => one(b.textContent) + (b.disabled ? ' (off)' : ''));
  const messages = [...document.querySelectorAll('[class*="icg-msg"]')].filter(seen)
    .map(m => m.className.match(/icg-msg-\\w+/g) + ': ' + one(m.innerText).slice(0, 200));
  const text = one(document.body.innerText);
  const clicks = (window.__icgClicks || []).slice(-10).join(' | ');
  return 'clicks: ' + clicks + ' (now ' + Math.round(performance.now() / 100) / 10 + 's)\\n'
    + 'buttons: ' + buttons.join(' | ').slice(0, 1500) + '\\nmessages: '
    + messages.join(' / ').slice(0, 800) + '\\ntext (end): ' + text.slice(-1200);
})()"""
RECT_JS = ("const r = arguments[0].getBoundingClientRect();"
           " return [r.left, r.top, r.width, r.height]")
# After a click: "" when it reached the element (or nothing is recorded), else what it reached.
LANDED_JS = """const t = window.__icgLastClick, el = arguments[0];
if (!window.__icgClicks || !t || t === el || el.contains(t)) return '';
return t.tagName + ' ' + String(t.className).slice(0, 60) + ' "'
  + (t.textContent || '').trim().slice(0, 60) + '"';"""
RESOURCES_JS = ("return performance.getEntriesByType('resource').map(e => e.name)"
                ".concat([location.href])")


def missing(reason: str) -> str:
    return (f"WebKit browser tests need Xvfb, WebKitWebDriver and Selenium: {reason} "
            "(install: make browsers; selenium comes with make venv)")


@contextmanager
def xvfb_display() -> Iterator[str]:
    """An Xvfb server on a free display number (it writes the number it took on a pipe)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise FileNotFoundError(missing("no Xvfb on PATH (Debian: xvfb)"))
    read, write = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1920x1200x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        number = b""
        deadline = time.monotonic() + 30
        while not number.endswith(b"\n"):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("Xvfb did not start")
            chunk = os.read(read, 16)
            if not chunk:
                raise RuntimeError("Xvfb did not say its display")
            number += chunk
        yield ":" + number.decode().strip()
    finally:
        os.close(read)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def driver_factory(display: str) -> Callable[..., Any]:
    """A function that starts a WebKit driver on `display` with a window of the given size."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    if not (os.path.isfile(DRIVER) and os.access(DRIVER, os.X_OK)):
        raise FileNotFoundError(missing(f"no executable {DRIVER} (Debian: webkit2gtk-driver)"))

    def start(width: int = 1280, height: int = 900) -> Any:
        env = dict(os.environ, DISPLAY=display)
        d = webdriver.WebKitGTK(options=Options(),
                                service=Service(executable_path=DRIVER, env=env))
        d.set_window_size(width, height)
        d.set_script_timeout(TIMEOUT)
        return d

    return start


OPENED_WINDOWS: list[WebKitPage] = []  # described in a failed test's report (conftest.py)


class WebKitPage:
    """A WebKit window on one server: wait for conditions, click and type like a student."""

    def __init__(self, driver: Any, base_url: str) -> None:
        self.driver = driver
        self.base = base_url
        self.host = urlparse(base_url).netloc
        OPENED_WINDOWS.append(self)

    def describe(self) -> str:
        """What a failed test's window showed: its address, text and problems."""
        try:
            url = self.driver.current_url
            summary = self.driver.execute_script(WIDGETS_SUMMARY_JS)
            problems = self.problems()
        except Exception as e:  # noqa: BLE001 - a window gone or between two documents
            return f"[webkit] unreadable ({e})"
        return f"[webkit] {url}\n{summary}\nproblems: {problems}"

    def open(self, url: str) -> None:
        self.driver.get(url if "://" in url else self.base + url)

    def record(self) -> None:
        self.driver.execute_script(RECORD_JS)
        self.driver.execute_script("performance.setResourceTimingBufferSize(100000)")

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def wait(self, script: str, *args: Any, timeout: float = TIMEOUT, what: str = "") -> Any:
        """Poll `script` (a function body returning a value) until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.driver.execute_script(script, *args)
            except Exception as e:  # noqa: BLE001 - a page between two documents answers late
                value, last = None, e
            else:
                last = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"WebKit: timed out after {timeout:.0f} s waiting for "
                                     f"{what or script[:200]} (last error: {last})")
            time.sleep(0.1)

    def button(self, label: str, timeout: float = TIMEOUT) -> Any:
        """The visible, enabled widget button with exactly this text (waited for)."""
        return self.wait(
            "return [...document.querySelectorAll('.widget-button, button')].find(b => "
            "b.textContent.trim() === arguments[0] && !b.disabled && (" + SEEN_JS + ")(b)) "
            "|| null", label, timeout=timeout,
            what=f"an enabled button {label!r}")

    def click(self, label: str, timeout: float = TIMEOUT) -> None:
        self.click_element(lambda: self.button(label, timeout), f"the button {label!r}")

    def click_element(self, find: Any, what: str) -> None:
        """Scroll the element `find()` returns to the window's middle and click it once it
        stands still (two looks 0.2 s apart agree: the page's text moving into Voici's panel
        moves it for a few frames). A page that draws the element anew meanwhile (a hand of
        cards after a move) is asked for it again, as a locator would be. WebDriver clicks where
        the element was a moment before; the click is checked to have reached it (once
        `record()` ran), so that a page that moved meanwhile fails here, by name, instead of a
        later wait for what the click should have done. `find` may be the element itself."""
        deadline = time.monotonic() + TIMEOUT
        last = None
        el = find() if callable(find) else find
        while True:
            try:
                if last is None:
                    self.driver.execute_script(
                        "arguments[0].scrollIntoView({block: 'center'})", el)
                rect = self.js(RECT_JS, el)
            except StaleElementReferenceException:
                if not callable(find):
                    raise
                el, last = find(), None
                continue
            if rect == last:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"WebKit: {what} kept moving for {TIMEOUT:.0f} s")
            last = rect
            time.sleep(0.2)
        for _attempt in range(CLICK_ATTEMPTS):
            self.js("window.__icgLastClick = null")
            el.click()
            try:
                if self._delivered():
                    landed = self.js(LANDED_JS, el)
                    break
            except StaleElementReferenceException:  # it left the page: what the click did
                landed = ""
                break
        else:
            raise AssertionError(f"WebKit: {CLICK_ATTEMPTS} clicks on {what} never reached "
                                 "the page (no click event in the document)")
        if landed:
            raise AssertionError(f"WebKit: the click on {what} landed on {landed}")

    def _delivered(self) -> bool:
        """Did the click just sent reach the document (any element of it)? True when nothing
        is recorded (`record()` not run). WebKitWebDriver has answered a click on an enabled,
        still, unobscured button without any click event reaching the page (twice in about
        twenty CI runs); a student's tap has no such path, so the click is sent again."""
        deadline = time.monotonic() + CLICK_DELIVERY_S
        while True:
            if self.js("return !window.__icgClicks || window.__icgLastClick !== null"):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)

    def text_box(self, label: str, timeout: float = TIMEOUT) -> Any:
        """The visible ipywidgets Text box whose label is exactly `label`, once it takes
        typing (not disabled)."""
        return self.wait(
            "const w = [...document.querySelectorAll('.widget-text')].find(w => "
            "(" + SEEN_JS + ")(w) && [...w.querySelectorAll('label')].some(l => "
            "l.textContent.trim() === arguments[0])); const i = w && w.querySelector('input');"
            " return i && !i.disabled ? i : null",
            label, timeout=timeout, what=f"a text box {label!r} that takes typing")

    def type_into(self, label: str, text: str) -> None:
        box = self.text_box(label)
        self.click_element(box, f"the text box {label!r}")
        box.send_keys(text)

    def text(self) -> str:
        return self.driver.execute_script("return document.body.innerText")

    def problems(self) -> list[str]:
        """Resources off the page's server, and the errors recorded since `record()`."""
        resources = self.driver.execute_script(RESOURCES_JS)
        off = [f"request off the server: {u}" for u in resources
               if not u.startswith(("data:", "blob:")) and urlparse(u).netloc != self.host]
        recorded = self.driver.execute_script("return window.__icgProblems || []")
        return off + list(recorded)

    def screenshot(self, path: Any) -> None:
        self.driver.save_screenshot(str(path))
