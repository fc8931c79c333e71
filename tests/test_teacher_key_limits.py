"""Guessing the teacher's key from one computer (docs/security.md).

The wait after a wrong key was kept per page: a student who opened a fresh page started it over
(122 guesses in 92 s from one computer). Now the kernels of one computer share one record of
wrong tries (`SharedTries`), the server refuses a chosen key a student could guess, and what
is typed is not echoed back to the page.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import TEACHER_KEY as KEY

from widgets import HitMeTable
from widgets.page import teacher_key as tk

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(tk, "_clock", c)
    return c


def fresh_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new page's kernel starts with: its own record empty."""
    monkeypatch.setattr(tk, "_misses", 0)
    monkeypatch.setattr(tk, "_next_try", 0.0)


def test_fresh_pages_from_one_computer_do_not_start_the_wait_over(
        server_key: str, clock: Clock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tries = tk.SharedTries(tmp_path / tk.TRIES_FILE)
    guesses = 0
    for i in range(120):  # a fresh page for every guess, as fast as they load
        fresh_page(monkeypatch)
        ok, text = tk.check_key(f"guess-{i:04d}-xxxx", client="10.0.0.7", tries=tries)
        assert not ok
        guesses += "not the teacher's key" in text
        clock.now += 0.5
    # 60 s of guessing: 1 + 2 + 4 + 8 + 16 + 32 s of waits leave room for 6 real guesses
    assert guesses <= 7
    fresh_page(monkeypatch)
    ok, text = tk.check_key(KEY, client="10.0.0.7", tries=tries)
    assert not ok and "Too many tries" in text  # the right key waits too
    ok, text = tk.check_key("another-guess-here", client="10.0.0.8", tries=tries)
    assert not ok and "not the teacher's key" in text  # another computer is not held up
    clock.now += tk.MAX_WAIT
    fresh_page(monkeypatch)
    assert tk.check_key(KEY, client="10.0.0.7", tries=tries) == (True, "")
    assert (tmp_path / tk.TRIES_FILE).stat().st_mode & 0o077 == 0


def test_a_kernel_reads_its_computer_from_the_servers_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ipykernel.connect

    kernel_id = "0f0f0f0f-1111-2222-3333-444444444444"
    connection = tmp_path / f"kernel-{kernel_id}.json"
    monkeypatch.setattr(ipykernel.connect, "get_connection_file", lambda: str(connection))
    assert tk.page_client() is None
    (tmp_path / tk.CLIENTS_DIR).mkdir()
    (tmp_path / tk.CLIENTS_DIR / kernel_id).write_text("10.0.0.7")
    assert tk.page_client() == "10.0.0.7"
    assert tk.runtime_dir() == tmp_path.resolve()


@pytest.mark.parametrize("key", ["short-key", "password1234", "Password-1234!",
                                 "TEACHER KEY", "integer-card-games", "aaaa-aaaa-aaaa-aaaa",
                                 "qwertyuiop123", "correct horse battery staple"])
def test_a_key_a_student_could_guess_is_refused(key: str, monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    assert tk.weak_key_problem(key)
    monkeypatch.setenv(tk.KEY_ENV, key)
    monkeypatch.setenv(tk.KEY_FILE_ENV, str(tmp_path / "absent"))
    assert tk.teacher_key() is None
    env = {**os.environ, tk.KEY_ENV: key}
    run = subprocess.run([sys.executable, "-m", "widgets.page.teacher_key"], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert tk.KEY_ENV in run.stderr and "not started" in run.stderr


@pytest.mark.parametrize("key", [KEY, "a long sentence only I would say", None])
def test_a_safe_key_is_accepted(key: str | None) -> None:
    key = key or tk.new_key()
    assert tk.weak_key_problem(key) is None


def test_the_typed_key_is_not_echoed_to_the_page(server_key: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fresh_page(monkeypatch)
    gate = tk.teacher_only(HitMeTable, players=3, seed=7, walkthrough=True)
    sent: list[Any] = []
    monkeypatch.setattr(gate.password, "_send", lambda msg, buffers=None: sent.append(msg))
    gate.password.set_state({"value": "wrong-key-typed-here"})  # what the page sends
    assert not any("wrong-key-typed-here" in repr(m) for m in sent)
    gate.unlock()
    assert gate.table is None and gate.password.value == ""
    assert not any("wrong-key-typed-here" in repr(m) for m in sent)
