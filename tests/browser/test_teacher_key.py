"""Teacher's controls and forged clicks in a real browser, on a real Voila server.

The server has a teacher's key (ICG_TEACHER_KEY, as `make serve` or a deployer sets it). A
student's lesson pages hold no reveal or replay control, not even as a widget model the page
could click by a forged message; the teacher guide's walkthrough appears only after the key is
typed, and the key is never sent to the page. A page that forges an update enabling a disabled
button, then a click, changes nothing: the kernel sends the button back disabled.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import KEY, unlock_teacher

TEACHER_LABELS = ("Restart this deal", "Show every hand", "Deal this code",
                  "Teacher walkthrough")

_MODEL_JS = """async (description) => {
  const app = window.jupyterapp;
  const wm = app._widgetManager || await app._widgetManagerPromise;
  const models = wm._models;
  const ids = models instanceof Map ? [...models.keys()] : Object.keys(models);
  for (const id of ids) {
    const m = await (models instanceof Map ? models.get(id) : models[id]);
    if (m.get('description') === description) { window.__forged = m; return true; }
  }
  return false;
}"""


def teacher_models(vp: Any) -> list[str]:
    return [s for s in vp.widget_states() if any(f'"description":"{label}"' in s.replace(
        '": "', '":"') for label in TEACHER_LABELS)]


def no_teacher_control(vp: Any) -> None:
    """No reveal or replay control on the page, not even as a model a forged message could
    click, and the key never sent to it."""
    for label in TEACHER_LABELS:
        assert vp.page.get_by_role("button", name=label).count() == 0, label
    assert teacher_models(vp) == []
    assert KEY not in vp.everything_received()


@pytest.mark.parametrize("lesson", ["03_hit_me", "05_flapjack"])
def test_no_reveal_or_replay_control_on_a_student_page(
        lesson: str, keyed_server: Any, open_page: Any) -> None:
    """(The teacher guide before its key is typed: the next test.)"""
    vp = open_page(f"student-{lesson}")
    vp.open(keyed_server.page_url(f"{lesson}.ipynb"))
    page = vp.page
    if lesson == "05_flapjack":  # the second table too
        page.get_by_role("button", name="Deal the classic game").click()
        page.get_by_role("button", name="Settings (Classic, 3 players)").wait_for(
            timeout=60_000)
    no_teacher_control(vp)
    assert vp.problems() == []


def test_the_teacher_guide_unlocks_with_the_key_only(keyed_server: Any,
                                                     open_page: Any) -> None:
    """A student's view of the guide first (no teacher's control before the key), then a
    wrong key (the Unlock button), then the key in lower case (Enter in the box)."""
    vp = open_page("teacher-guide-key")
    vp.open(keyed_server.page_url("teacher_guide.ipynb"))
    page = vp.page
    no_teacher_control(vp)
    assert vp.problems() == []
    unlock_teacher(vp, "not-the-key")
    page.get_by_text("That is not the teacher's key").wait_for(timeout=30_000)
    assert page.get_by_role("button", name="Show every hand").count() == 0
    assert teacher_models(vp) == [] and KEY not in vp.everything_received()
    page.wait_for_timeout(1200)  # the wait after a wrong key
    box = page.locator("input[type=password]")  # the key in lower case, and Enter unlocks
    box.fill(KEY.lower())
    box.press("Enter")
    show = page.get_by_role("button", name="Show every hand")
    show.wait_for(timeout=30_000)
    assert page.get_by_role("button", name="Restart this deal").is_visible()
    assert page.get_by_role("button", name="Deal this code").is_visible()
    show.click()
    page.get_by_text("Computer players' reasons").or_(
        page.get_by_text("No computer moves yet")).first.wait_for(timeout=30_000)
    assert vp.problems() == []


def test_a_forged_enable_and_click_on_a_disabled_button_change_nothing(
        keyed_server: Any, open_page: Any) -> None:
    """Lesson 1's explorer: Undo is disabled while there is no card. The page forges an
    update that enables it and a click. Two defences meet here: the server's websocket guard
    drops a page update that sets `disabled` (serving/kernel_guard.py), and the kernel's
    GuardedButton runs no handler while disabled. Either way nothing changes in the kernel:
    no card appears in the hand, and the page reports no problem. The positive control: a real
    click on a card adds it. (Undo with no card would change nothing even if it ran: that every
    disabled button's handler is refused is shown by tests/test_disabled_clicks.py, which fails
    with the guard off, and that the page cannot enable one by tests/test_security_ws.py.)"""
    vp = open_page("forged-click")
    vp.open(keyed_server.page_url("01_integers_with_cards.ipynb"))
    page = vp.page
    assert page.evaluate(_MODEL_JS, "Undo")
    assert page.evaluate("() => window.__forged.get('disabled')") is True
    hand = page.locator(".icg-hand")
    assert hand.count() == 0
    page.evaluate("() => { const m = window.__forged; m.set('disabled', false);"
                  " m.save_changes(); m.send({event: 'click'}, {}); }")
    vp.wait_synced()
    page.wait_for_timeout(1500)
    assert hand.count() == 0, "the forged click changed the explorer"
    # positive control: a real click on an enabled card button works
    page.locator(".icg-card-btn").first.click()
    hand.first.wait_for(timeout=30_000)
    assert vp.problems() == []
