"""The teacher's controls on pages served to a class.

Every lesson page, the teacher guide included, is served to students. No control that reveals
the hidden hands or replays a deal in progress may be reachable there: not built (a built widget
is sent to the page and can be clicked by a forged message even when it is not shown), not
visible, and its handler refuses a forged call. The teacher guide's walkthrough table appears
only after the teacher's key is typed (compared in the kernel); a wrong key unlocks nothing and
makes the next try wait.
"""

from __future__ import annotations

import ast
import html
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import nbformat
import pytest
from helpers import TEACHER_KEY as KEY
from ipywidgets.widgets.widget import _instances
from widget_helpers import all_widgets, errors_raise, synced_text  # noqa: F401

from engine.hit_me import Phase
from widgets import FlapjackTable, HitMeTable
from widgets.page import teacher_key as tk

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb"))

# Labels of the controls that reveal hands or replay/choose a deal in progress.
TEACHER_LABELS = {"Restart this deal", "Show every hand", "Deal this code", "Teacher walkthrough"}



def msg(gate: tk.TeacherGate) -> str:
    return html.unescape(gate.message.text)


def wait_for_next_try() -> None:
    """Let the rate limit of a wrong key pass (it is real time, as on a page)."""
    while tk._next_try > time.monotonic():
        time.sleep(0.05)


def run_cells(nb_path: Path) -> list[Any]:
    """Run a lesson's code cells as its page's kernel does; return what each cell displays.
    The strategy lab's chart cells (images drawn by long simulations, no controls) are
    skipped."""
    shown = []
    ns: dict[str, Any] = {}
    nb = nbformat.read(nb_path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code" or "_chart(" in cell.source:
            continue
        tree = ast.parse(cell.source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, str(nb_path), "exec"), ns)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), str(nb_path), "eval"), ns))
    return shown


def teacher_widgets(made: list[widgets.Widget]) -> list[str]:
    return [w.description for w in made if getattr(w, "description", None) in TEACHER_LABELS]


def tables_in(made: list[widgets.Widget]) -> list[Any]:
    return [w for w in made if isinstance(w, HitMeTable | FlapjackTable)]


def assert_no_teacher_control(table: Any) -> None:
    """Not built, not on the page, and refused when its handler is called (forged)."""
    if isinstance(table, HitMeTable):
        assert not table.ctl.walkthrough and not table.teacher_controls
        assert_no_teacher_part(table)
        before = json.dumps(table.game.to_json())
        table._restart_deal()
        table._replay_code("77")
        table._next_move()
        table._set_walkthrough(True)
        table._set_reveal(True)
        assert json.dumps(table.game.to_json()) == before and not table.ctl.walkthrough
        assert_no_teacher_part(table)
        if table.phase is not Phase.REVEALED:  # the deal is in progress: its code is not shown
            assert tk_code_hidden(table)
    else:
        assert not table.teacher_controls and not table.controller.walkthrough
        assert_no_teacher_part(table)
        page = all_widgets(table)
        assert not teacher_widgets(page)
        before = json.dumps(table.state.to_json())
        table.restart()
        table._next_move()
        table._set_walkthrough(True)
        table._replay_code("77")
        assert json.dumps(table.state.to_json()) == before
        assert not table.controller.walkthrough and "teacher" in table.message.value
        if not table.state.is_over:
            assert tk_code_hidden(table)


def assert_no_teacher_part(table: Any) -> None:
    """The teacher box holds none of the teacher's controls: not made, not even hidden."""
    box = table.teacher_box
    assert box.more is None and all(getattr(box, name) is None for name in box.TEACHER)
    assert [w.description for w in box.controls()] == ["New deal", "Large print"]


def tk_code_hidden(table: Any) -> bool:
    from widgets.table.deal_codes import format_code

    return format_code(table.deal_code) not in synced_text(table)


@pytest.mark.parametrize("nb_path", LESSONS, ids=[p.stem for p in LESSONS])
def test_no_replay_or_reveal_control_on_a_student_page(nb_path: Path, server_key: str) -> None:
    before = set(_instances)
    shown = run_cells(nb_path)
    # what a student can open on the page: the settings, a "deal" button for a second table
    for w in list(shown):
        for x in all_widgets(w) if isinstance(w, widgets.Widget) else []:
            if isinstance(x, widgets.Button) and x.description.startswith("Deal the"):
                x.click()
    made = [_instances[k] for k in set(_instances) - before]
    for t in tables_in(made):
        t.settings_toggle.value = True
    made = [_instances[k] for k in set(_instances) - before]
    assert not teacher_widgets(made), f"{nb_path.name}: {teacher_widgets(made)}"
    for t in tables_in(made):
        assert_no_teacher_control(t)
    if nb_path.name == "teacher_guide.ipynb":  # locked: only the key box is there
        gates = [w for w in shown if isinstance(w, tk.TeacherGate)]
        assert len(gates) == 1 and gates[0].table is None and not tables_in(made)
        assert KEY not in synced_text(gates[0])
    if nb_path.name in ("03_hit_me.ipynb", "05_flapjack.ipynb"):
        assert tables_in(made)  # the walk did look at the tables


def test_the_teacher_guide_unlocks_with_the_key_only(server_key: str) -> None:
    wait_for_next_try()
    gate = next(w for w in run_cells(ROOT / "lessons" / "teacher_guide.ipynb")
                if isinstance(w, tk.TeacherGate))
    before = set(_instances)
    # The page sends what was typed, then a click (as a browser does over the comm).
    gate.password.set_state({"value": "not-the-key"})
    gate.unlock_button._handle_custom_msg({"event": "click"}, [])
    assert "not the teacher's key" in msg(gate) and gate.table is None
    assert gate.password.value == ""  # the typed text does not stay
    made = [_instances[k] for k in set(_instances) - before]
    assert not tables_in(made) and not teacher_widgets(made)
    # The right key at once: the wrong one made the next try wait.
    gate.password.set_state({"value": KEY})
    gate.unlock_button._handle_custom_msg({"event": "click"}, [])
    assert "Too many tries" in msg(gate) and gate.table is None
    wait_for_next_try()
    gate.password.set_state({"value": KEY.lower().replace("-", " ")})  # case, spaces: the same
    gate.unlock_button._handle_custom_msg({"event": "click"}, [])
    table = gate.table
    assert isinstance(table, HitMeTable) and gate.children == (table,)
    assert KEY not in synced_text(gate) and KEY.lower() not in synced_text(gate)
    # The teacher's controls are there, visible and working.
    assert table.ctl.walkthrough and table.teacher_box.bar in table.children
    assert table.teacher_box.more in table.children
    page = all_widgets(gate)
    assert {"Restart this deal", "Show every hand", "Deal this code"} <= set(
        teacher_widgets(page))
    deal = json.dumps(table.game.to_json())
    table.reveal_toggle.value = True
    assert "Computer players' reasons" in table.reasons_html.value or \
        "No computer moves yet" in table.reasons_html.value
    while table.ctl.bot_to_move() is not None:
        table.next_move_button.click()
    assert json.dumps(table.game.to_json()) != deal
    table.restart_button.click()
    assert json.dumps(table.game.to_json()) == deal


def test_wrong_keys_wait_longer_each_time(server_key: str) -> None:
    wait_for_next_try()
    ok, text = tk.check_key("wrong-key-1")
    assert not ok and "try again in 1 second" in text
    wait_for_next_try()
    ok, text = tk.check_key("wrong-key-2")
    assert not ok and "in 2 seconds" in text
    ok, text = tk.check_key(KEY)  # too soon, even with the right key
    assert not ok and "Too many tries" in text
    wait_for_next_try()
    assert tk.check_key(KEY) == (True, "")
    assert tk._misses == 0
    for junk in ("", "   ", None, 12, "x" * 10_000):
        ok, text = tk.check_key(junk)
        assert not ok and "Nothing was unlocked" in text or "nothing was unlocked" in text
        wait_for_next_try()


def test_no_key_on_the_server_keeps_them_locked(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv(tk.KEY_ENV, raising=False)
    monkeypatch.setenv(tk.KEY_FILE_ENV, str(tmp_path / "absent"))
    gate = tk.teacher_only(HitMeTable, players=3, seed=7, walkthrough=True)
    assert "no teacher's key" in msg(gate)
    gate.password.value = "anything-at-all"
    gate.unlock_button.click()
    assert gate.table is None and "no teacher's key" in msg(gate)
    monkeypatch.setenv(tk.KEY_ENV, "short")  # too short to be safe: not used
    assert tk.teacher_key() is None


def test_key_from_the_file_make_serve_writes(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv(tk.KEY_ENV, raising=False)
    path = tmp_path / "teacher_key"
    env = {**os.environ, tk.KEY_FILE_ENV: str(path)}
    env.pop(tk.KEY_ENV, None)
    runs = [subprocess.run([sys.executable, "-m", "widgets.page.teacher_key"], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True).stdout for _ in range(2)]
    key = path.read_text().strip()
    assert len(key) == 14 and key in runs[0] and runs[0] == runs[1]  # made once, then kept
    assert path.stat().st_mode & 0o077 == 0  # readable by the server's user only
    monkeypatch.setenv(tk.KEY_FILE_ENV, str(path))
    wait_for_next_try()
    gate = tk.teacher_only(FlapjackTable, players=3, walkthrough=True, bot_delay=0)
    gate.password.value = key
    gate.unlock_button.click()
    assert isinstance(gate.table, FlapjackTable) and gate.table.teacher_controls
    assert gate.table.restart_button in all_widgets(gate)


def test_a_typo_in_the_lesson_fails_when_the_cell_runs() -> None:
    with pytest.raises(TypeError, match="teacher_only"):
        tk.teacher_only(HitMeTable, player=3)


def test_enter_in_the_key_box_unlocks(server_key: str) -> None:
    """Enter in the box: the page sends the key, then ipywidgets' submit event (the classroom
    template's play-focus.js sends the value first); the key is checked as on a click."""
    wait_for_next_try()
    gate = tk.TeacherGate(HitMeTable, players=2)
    gate.password.set_state({"value": KEY})
    gate.password._handle_custom_msg({"event": "submit"}, [])
    assert isinstance(gate.table, HitMeTable) and gate.password.value == ""
    gate.password._handle_custom_msg({"event": "submit"}, [])  # unlocked: nothing more
    assert gate.children == (gate.table,)
