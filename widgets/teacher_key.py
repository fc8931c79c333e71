"""The teacher's key: what unlocks the teacher's controls on a page served to a class.

Every lesson page is served to students too, the teacher guide included. Controls that show
what a student must not see, or replay a deal in progress (every hand shown, the step-by-step
walkthrough, dealing a code mid-game, restarting a deal), are built on such a page only after
the teacher's key is typed:

    from widgets import HitMeTable
    from widgets.teacher_key import teacher_only
    teacher_only(HitMeTable, players=3, seed=7, walkthrough=True)

shows a password box; the kernel compares what is typed with the key (`secrets.compare_digest`)
and only then makes the table. A wrong key gets a message, unlocks nothing, and the next try
waits (1, 2, 4 ... up to 60 seconds). The key never goes to a page.

Where the key comes from (the server's configuration; kernels inherit the server's
environment): $ICG_TEACHER_KEY, else the file $ICG_TEACHER_KEY_FILE, else `.teacher_key` at the
top of the project folder (outside lessons/, so Voila never serves it). `make serve` runs
`python -m widgets.teacher_key`, which makes that file with a new random key when no key is set
and prints the key for the teacher. A key shorter than 8 characters is not accepted.

In JupyterLab (a kernel that runs any code anyway) a teacher can make a table with its
controls directly: `HitMeTable(walkthrough=True)`.
"""

from __future__ import annotations

import inspect
import logging
import os
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from widgets.components import MessageArea, guarded, html_widget, make_button, shared_layout
from widgets.deal_codes import ALPHABET
from widgets.page_lang import N_, check_lang, speaks
from widgets.words import _, ngettext

log = logging.getLogger(__name__)

KEY_ENV = "ICG_TEACHER_KEY"
KEY_FILE_ENV = "ICG_TEACHER_KEY_FILE"
DEFAULT_KEY_FILE = Path(__file__).resolve().parent.parent / ".teacher_key"
MIN_KEY = 8
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


def teacher_key() -> str | None:
    """The server's teacher key, or None when none is set (or it is too short to be safe)."""
    key = os.environ.get(KEY_ENV, "")
    where = KEY_ENV
    if not key.strip():
        where = str(key_file())
        try:
            key = key_file().read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    key = key.strip()
    if len(_normal(key)) < MIN_KEY:
        log.warning("the teacher key in %s is shorter than %d characters: not used", where,
                    MIN_KEY)
        return None
    return key


def new_key() -> str:
    """A new random key, easy to type: 12 characters of Crockford's base 32 (60 bits)."""
    text = "".join(secrets.choice(ALPHABET) for _ in range(12))
    return "-".join(text[i:i + 4] for i in range(0, 12, 4))


# One record of wrong tries per kernel (a page has its own kernel).
_tries_lock = threading.Lock()
_misses = 0
_next_try = 0.0


def check_key(typed: Any) -> tuple[bool, str]:
    """(True, "") if `typed` is the teacher's key; else (False, a message saying why, in the
    language in use). After a wrong key the next try must wait: 1 s, then 2, 4 ... up to a
    minute."""
    global _misses, _next_try
    key = teacher_key()
    if key is None:
        return False, _(NO_KEY)
    text = typed if isinstance(typed, str) and len(typed) <= MAX_TYPED else "?"
    if not text.strip():
        return False, _("Type the teacher's key first. Nothing was unlocked.")
    with _tries_lock:
        now = time.monotonic()
        if now < _next_try:
            wait = int(_next_try - now) + 1
            return False, ngettext("Too many tries: wait {n} second, then type the key again. "
                                   "Nothing was unlocked.",
                                   "Too many tries: wait {n} seconds, then type the key again. "
                                   "Nothing was unlocked.", wait).format(n=wait)
        if secrets.compare_digest(_normal(text).encode(), _normal(key).encode()):
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
        self.password = widgets.Password(description=_("Teacher's key"),
                                         placeholder=_("the key"), continuous_update=False,
                                         style={"description_width": "initial"})
        # Enter in the box unlocks (the page sends the key first: the classroom template's
        # static/play-focus.js)
        self.password.on_msg(self._submitted)
        self.unlock_button = make_button(_("Unlock the teacher's controls"), self.unlock,
                                         button_style="primary",
                                         tooltip=_("check the teacher's key and show the table"))
        self.message = MessageArea()
        if teacher_key() is None:
            self.message.show(_(NO_KEY), "info")
        row = widgets.HBox([self.password, self.unlock_button],  # wraps on a phone
                           layout=shared_layout(flex_flow="row wrap"))
        super().__init__([self.note, row, self.message],
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
        try:
            table = self.make(**self.settings)
        except (ValueError, TypeError) as e:  # ConfigError is a ValueError
            self.message.show(_("This table cannot be dealt: {error}").format(error=e), "error")
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


def main(argv: list[str] | None = None) -> int:
    """`make serve`: make sure a key is set (a new one in .teacher_key if none) and print it."""
    if os.environ.get(KEY_ENV, "").strip():
        if teacher_key() is None:
            print(f"{KEY_ENV} is shorter than {MIN_KEY} characters: the teacher's controls stay "
                  "locked. Choose a longer key.", file=sys.stderr)
            return 0
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
