"""The teacher's key: what unlocks the teacher's controls on a page served to a class.

Every lesson page is served to students too, the teacher guide included. Controls that show
what a student must not see, or replay a deal in progress (every hand shown, the step-by-step
walkthrough, dealing a code mid-game, restarting a deal), are built on such a page only after
the teacher's key is typed:

    from widgets import HitMeTable
    from widgets.page.teacher_key import teacher_only
    teacher_only(HitMeTable, players=3, seed=7, walkthrough=True)

shows a password box; the kernel compares what is typed with the key (`secrets.compare_digest`)
and only then makes the table. A wrong key gets a message, unlocks nothing, and the next try
waits (1, 2, 4 ... up to 60 seconds). The wait is counted per computer, not per page: the
server notes which computer each page's kernel belongs to (serving.kernels writes
`<runtime dir>/icg-clients/<kernel id>`), and the kernels of one computer share one record of
wrong tries (`<runtime dir>/icg-teacher-key-tries.sqlite3`, readable by the server's user
only), so opening fresh pages does not start the wait over. Pages from the server's own
machine (no proxy header) keep a record per page. The key never goes to a page, and what is
typed is not sent back to it (the box's value is not echoed).

Where the key comes from (the server's configuration; kernels inherit the server's
environment): $ICG_TEACHER_KEY, else the file $ICG_TEACHER_KEY_FILE, else `.teacher_key` at the
top of the project folder (outside lessons/, so Voila never serves it). `make serve` runs
`python -m widgets.page.teacher_key`, which makes that file with a new random key when no key is set
and prints the key for the teacher. A key shorter than 12 characters, or one a guesser tries
first (widgets/page/common_keys.txt), is refused: `make serve` and the Voila server stop at start
with a message saying so (`weak_key_problem`), and a kernel keeps the controls locked.

In JupyterLab (a kernel that runs any code anyway) a teacher can make a table with its
controls directly: `HitMeTable(walkthrough=True)`.
"""

from __future__ import annotations

import inspect
import logging
import os
import re
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from traitlets import Unicode

from widgets.page.language import N_, check_lang, speaks
from widgets.table.components import (
    MessageArea,
    guarded,
    html_widget,
    make_button,
    shared_layout,
    style_widget,
)
from widgets.table.deal_codes import ALPHABET
from widgets.words import _, config_error_text, ngettext

log = logging.getLogger(__name__)

KEY_ENV = "ICG_TEACHER_KEY"
KEY_FILE_ENV = "ICG_TEACHER_KEY_FILE"
DEFAULT_KEY_FILE = Path(__file__).resolve().parents[2] / ".teacher_key"
MIN_KEY = 12
COMMON_KEYS_FILE = Path(__file__).resolve().parent / "common_keys.txt"
# Where the server notes each kernel's computer, and where the kernels keep the wrong tries,
# both in the Jupyter runtime directory (the kernels' connection files' folder).
CLIENTS_DIR = "icg-clients"
TRIES_FILE = "icg-teacher-key-tries.sqlite3"
MAX_TYPED = 200
MAX_WAIT = 60.0

LABEL = N_("Every hand shown, the computer players' reasons, one move at a time, any deal code, "
         "and a deal replayed: these are for the teacher. Type the teacher's key to show them.")
NO_KEY = N_("The teacher's controls are locked: this server has no teacher's key. Whoever runs "
          "the server sets one (ICG_TEACHER_KEY, or the key `make serve` prints).")


def key_file() -> Path:
    """Where the key is kept when $ICG_TEACHER_KEY is not set."""
    return Path(os.environ.get(KEY_FILE_ENV) or DEFAULT_KEY_FILE)


def _normal(text: str) -> str:
    """A key as compared: case, spaces and dashes do not count ('7k3m q9xd' = '7K3M-Q9XD')."""
    return re.sub(r"[\s\-]", "", text).upper()


def _common_keys() -> frozenset[str]:
    try:
        lines = COMMON_KEYS_FILE.read_text(encoding="utf-8").splitlines()
    except OSError:
        return frozenset()
    return frozenset(_normal(line) for line in lines if line.strip() and
                     not line.startswith("#"))


def weak_key_problem(key: str) -> str | None:
    """Why `key` is not safe as the teacher's key (None: it is): shorter than MIN_KEY
    characters (spaces and dashes not counted), one of the keys a guesser tries first
    (common_keys.txt) or one of them followed by digits or '!', or few different characters."""
    normal = _normal(key)
    if len(normal) < MIN_KEY:
        return f"shorter than {MIN_KEY} characters (spaces and dashes not counted)"
    stem = normal.rstrip("0123456789!")
    common = _common_keys()
    if normal in common or stem in common:
        return "one of the keys a guesser tries first (widgets/page/common_keys.txt)"
    if len(set(normal)) < 5:
        return "fewer than 5 different characters"
    return None


def teacher_key() -> str | None:
    """The server's teacher key, or None when none is set (or it is not safe:
    `weak_key_problem`)."""
    key = os.environ.get(KEY_ENV, "")
    where = KEY_ENV
    if not key.strip():
        where = str(key_file())
        try:
            key = key_file().read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    key = key.strip()
    problem = weak_key_problem(key)
    if problem:
        log.warning("the teacher key in %s is %s: not used", where, problem)
        return None
    return key


def new_key() -> str:
    """A new random key, easy to type: 12 characters of Crockford's base 32 (60 bits)."""
    text = "".join(secrets.choice(ALPHABET) for _ in range(12))
    return "-".join(text[i:i + 4] for i in range(0, 12, 4))


def runtime_dir() -> Path | None:
    """This kernel's Jupyter runtime directory (where its connection file is), or None
    outside a kernel started by a server."""
    try:
        from ipykernel.connect import get_connection_file

        return Path(get_connection_file()).resolve().parent
    except Exception:  # noqa: BLE001 - not in a kernel (tests, scripts)
        return None


def page_client() -> str | None:
    """The computer this kernel's page came from, as the server noted it (None: the server's
    own machine, or not a served page)."""
    try:
        from ipykernel.connect import get_connection_file

        connection = Path(get_connection_file())
    except Exception:  # noqa: BLE001 - not in a kernel
        return None
    kernel_id = connection.stem.removeprefix("kernel-")
    try:
        text = (connection.parent / CLIENTS_DIR / kernel_id).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text.strip()[:64] or None


class SharedTries:
    """The wrong tries of each computer, shared by all the kernels of a server (SQLite, one
    row per computer; a check and its update in one transaction)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.close(fd)
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.execute("CREATE TABLE IF NOT EXISTS tries (client TEXT PRIMARY KEY, "
                   "misses INTEGER NOT NULL, next_try REAL NOT NULL)")
        return db

    def attempt(self, client: str, correct: Callable[[], bool],
                now: float) -> tuple[str, float, int]:
        """("wait", seconds left, misses) while the computer must wait; else check with
        `correct()`: ("ok", 0, 0), or ("miss", seconds to wait now, misses in a row)."""
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT misses, next_try FROM tries WHERE client = ?",
                             (client,)).fetchone()
            misses, next_try = row if row else (0, 0.0)
            if now < next_try:
                db.execute("COMMIT")
                return "wait", next_try - now, misses
            if correct():
                db.execute("DELETE FROM tries WHERE client = ?", (client,))
                db.execute("COMMIT")
                return "ok", 0.0, 0
            misses += 1
            wait = min(2.0 ** (misses - 1), MAX_WAIT)
            db.execute("INSERT OR REPLACE INTO tries VALUES (?, ?, ?)",
                       (client, misses, now + wait))
            db.execute("COMMIT")
            return "miss", wait, misses
        finally:
            db.close()


# One record of wrong tries per kernel, for pages from the server's own machine.
_tries_lock = threading.Lock()
_misses = 0
_next_try = 0.0
_clock = time.time  # the shared record's clock (all kernels'): wall time


def _too_soon(wait: float) -> str:
    n = int(wait) + 1
    return ngettext("Too many tries: wait {n} second, then type the key again. "
                    "Nothing was unlocked.",
                    "Too many tries: wait {n} seconds, then type the key again. "
                    "Nothing was unlocked.", n).format(n=n)


_ASK = object()


def check_key(typed: Any, client: Any = _ASK, tries: SharedTries | None = None
              ) -> tuple[bool, str]:
    """(True, "") if `typed` is the teacher's key; else (False, a message saying why, in the
    language in use). After a wrong key the next try must wait: 1 s, then 2, 4 ... up to a
    minute, counted for the page's computer (`client`, by default `page_client()`) in the
    server's shared record (`tries`, by default the runtime directory's), or for this page
    when the computer is not known."""
    global _misses, _next_try
    key = teacher_key()
    if key is None:
        return False, _(NO_KEY)
    text = typed if isinstance(typed, str) and len(typed) <= MAX_TYPED else "?"
    if not text.strip():
        return False, _("Type the teacher's key first. Nothing was unlocked.")

    def correct() -> bool:
        return secrets.compare_digest(_normal(text).encode(), _normal(key).encode())

    if client is _ASK:
        client = page_client()
    if tries is None and client:
        where = runtime_dir()
        tries = SharedTries(where / TRIES_FILE) if where else None
    if client and tries is not None:
        try:
            outcome, wait, misses = tries.attempt(client, correct, _clock())
        except sqlite3.Error as e:  # a broken record: locked rather than unlimited
            log.warning("the teacher key's record of tries cannot be used: %s", e)
            return False, _too_soon(MAX_WAIT)
        if outcome == "wait":
            return False, _too_soon(wait)
        if outcome == "ok":
            return True, ""
        log.warning("a wrong teacher key was typed from %s (%d in a row)", client, misses)
        return False, ngettext("That is not the teacher's key: nothing was unlocked. Check "
                               "it and try again in {n} second.",
                               "That is not the teacher's key: nothing was unlocked. Check "
                               "it and try again in {n} seconds.", int(wait)).format(n=int(wait))
    with _tries_lock:
        now = time.monotonic()
        if now < _next_try:
            return False, _too_soon(_next_try - now)
        if correct():
            _misses, _next_try = 0, 0.0
            return True, ""
        _misses += 1
        wait = min(2.0 ** (_misses - 1), MAX_WAIT)
        _next_try = now + wait
        misses = _misses
    log.warning("a wrong teacher key was typed (%d in a row)", misses)
    return False, ngettext("That is not the teacher's key: nothing was unlocked. Check it and "
                           "try again in {n} second.",
                           "That is not the teacher's key: nothing was unlocked. Check it and "
                           "try again in {n} seconds.", int(wait)).format(n=int(wait))


class KeyBox(widgets.Password):
    """A password box whose typed value the kernel does not echo back to the page
    (ipywidgets 8 sends every value a page sets back to all its views: the typed key went
    back over the websocket)."""

    value = Unicode(help="String value").tag(sync=True, echo_update=False)


class TeacherGate(widgets.VBox):
    """A password box and an Unlock button; with the teacher's key, `make(**settings)` (a table
    with the teacher's controls) takes their place. Without it nothing of the table exists."""

    @speaks
    def __init__(self, make: Callable[..., widgets.Widget], label: str = "", *,
                 lang: str | None = None, **settings: Any) -> None:
        try:
            inspect.signature(make).bind(**settings)
        except TypeError as e:  # a typo in the lesson fails when the cell runs
            raise TypeError(f"teacher_only({getattr(make, '__name__', make)}): {e}") from None
        self.lang = check_lang(lang)
        self.make = make
        self.settings = settings
        if lang is not None and _accepts_lang(make):
            self.settings = {**settings, "lang": lang}  # the table speaks the gate's language
        self.table: widgets.Widget | None = None
        title = _("Teacher's controls")
        self.note = html_widget(
            f'<div class="icg-title">{title}</div><div>{label or _(LABEL)}</div>')
        self.password = KeyBox(description=_("Teacher's key"),
                                         placeholder=_("the key"), continuous_update=False,
                                         style={"description_width": "initial"})
        # Enter in the box unlocks (the page sends the key first: the classroom template's
        # static/play-focus.js)
        self.password.on_msg(self._submitted)
        self.password.icg_always = True  # the teacher types the key even while the class pauses
        self.unlock_button = make_button(_("Unlock the teacher's controls"), self.unlock,
                                         button_style="primary",
                                         tooltip=_("check the teacher's key and show the table"))
        self.unlock_button.icg_always = True  # the teacher unlocks even while the class pauses
        self.message = MessageArea()
        if teacher_key() is None:
            self.message.show(_(NO_KEY), "info")
        row = widgets.HBox([self.password, self.unlock_button],  # wraps on a phone
                           layout=shared_layout(flex_flow="row wrap"))
        super().__init__([style_widget(), self.note, row, self.message],
                         _dom_classes=("icg-root", "icg-teacher-gate"))

    def _submitted(self, _box: Any, content: Any, _buffers: Any = None) -> None:
        if isinstance(content, dict) and content.get("event") == "submit" \
                and not self.unlock_button.disabled:
            guarded(self.unlock)

    @speaks
    def unlock(self) -> bool:
        """Check the typed key; on success make the table. True if unlocked."""
        if self.table is not None:
            return True
        typed = self.password.value
        self.password.value = ""  # the typed text does not stay in the page
        ok, text = check_key(typed)
        if not ok:
            self.message.show(text, "error")
            return False
        from widgets.page.live_gate import teacher_page

        teacher_page()  # the teacher's page: the live class never pauses it
        try:
            table = self.make(**self.settings)
        except (ValueError, TypeError) as e:  # ConfigError is a ValueError
            self.message.show(_("This table cannot be dealt: {error}").format(
                error=config_error_text(e)), "error")
            return False
        self.table = table
        for w in (self.password, self.unlock_button):
            w.disabled = True
        self.children = [table]
        return True



def _accepts_lang(make: Callable[..., Any]) -> bool:
    try:
        return "lang" in inspect.signature(make).parameters
    except (TypeError, ValueError):
        return False


def teacher_only(make: Callable[..., widgets.Widget], label: str = "", *,
                 lang: str | None = None, **settings: Any) -> TeacherGate:
    """`make(**settings)` (a table with the teacher's controls) behind the teacher's key; with
    `lang=` the box speaks that language and passes it on to the table."""
    return TeacherGate(make, label, lang=lang, **settings)


def chosen_key_refusal() -> str | None:
    """The message that stops a server at start when $ICG_TEACHER_KEY is set to an unsafe key
    (None: it is not set, or safe)."""
    chosen = os.environ.get(KEY_ENV, "")
    if not chosen.strip():
        return None
    problem = weak_key_problem(chosen.strip())
    if problem is None:
        return None
    return (f"{KEY_ENV} is {problem}: a student could guess it. Choose a key of at least "
            f"{MIN_KEY} characters that is not a common password, or unset {KEY_ENV} and let "
            "`make serve` make a random one. The server was not started.")


def main(argv: list[str] | None = None) -> int:
    """`make serve`: make sure a key is set (a new one in .teacher_key if none) and print it.
    An unsafe $ICG_TEACHER_KEY stops it (exit status 2) with a message saying why."""
    refusal = chosen_key_refusal()
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    if os.environ.get(KEY_ENV, "").strip():
        print(f"Teacher's key: the one in {KEY_ENV} (type it on the Teacher guide page to "
              "unlock the teacher's controls).")
        return 0
    path = key_file()
    key = teacher_key()
    if key is None:
        key = new_key()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(key + "\n")
        except OSError as e:
            print(f"Cannot write the teacher's key to {path} ({e}): the teacher's controls stay "
                  f"locked. Set {KEY_ENV} instead.", file=sys.stderr)
            return 0
    print(f"Teacher's key: {key}  (kept in {path}; type it on the Teacher guide page to unlock "
          f"the teacher's controls; never show it to students; set {KEY_ENV} to choose your own)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
