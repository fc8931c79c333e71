"""The teacher's class view in a real browser on a real Voila server.

The server has a teacher's key and a room store (an SQLite file, ICG_ROOMS_URL). Students'
sessions in the test process (their own store connections, as their kernels would) sit at a
Flapjack table. The class view page shows nothing of the class until the key is typed; then it
shows the room, and when a student moves, the page updates by itself (no click). A click on
Pause pauses the room in the store. No card of any hand reaches the page.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import KEY, format_violations, unlock_teacher

from engine.flapjack import FlapjackConfig, FlapjackState
from rooms import open_store
from widgets.words import card_name


@pytest.fixture
def class_server(lessons_server: Any) -> Any:
    """The lessons' server: a teacher's key and a room store shared by its kernels."""
    return lessons_server


@pytest.fixture
def rooms_url(lessons_server: Any) -> str:
    return lessons_server.rooms_url


def test_the_class_view_updates_without_a_click(class_server: Any, rooms_url: str,
                                                open_page: Any) -> None:
    store = open_store(rooms_url)
    state = FlapjackState.deal(FlapjackConfig(players=2), rng=12)
    host = store.create_room(state)
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    hands = [card_name(c) for hand in state.hands for c in hand]

    vp = open_page("class-view")
    vp.open(class_server.page_url("class_view.ipynb"))
    page = vp.page
    assert host.shown not in page.inner_text("body")
    assert host.shown not in vp.everything_received()  # locked: nothing of the class sent
    unlock_teacher(vp, KEY)
    row = page.locator(f"tr[data-room='{host.code}']")
    row.wait_for(timeout=30_000)
    assert "Ana" in row.inner_text() and "Ben" in row.inner_text()
    violations = vp.axe_violations()  # the unlocked view: table headers, labelled controls
    assert violations == [], format_violations(violations)
    moves = row.locator("td").nth(6)
    assert moves.inner_text().strip() == "0"

    # A student moves (another kernel's store): the page shows it without a click.
    version, now = store.load(host.code)
    cur = now.current
    store.play(host.code, cur, seats[cur].secret, now.legal_actions(cur)[0],
               expected_version=version)
    page.wait_for_function(
        "code => { const r = document.querySelector(`tr[data-room='${code}']`);"
        " return r && r.querySelectorAll('td')[6].innerText.trim() === '1'; }",
        arg=host.code, timeout=15_000)
    whose = ["Ana", "Ben"][store.room(host.code).turn]
    page.wait_for_function(
        "([code, who]) => document.querySelector(`tr[data-room='${code}']`)"
        ".querySelectorAll('td')[4].innerText.trim() === who", arg=[host.code, whose],
        timeout=15_000)

    # The teacher pauses the room by a click: the store refuses moves.
    page.get_by_role("button", name="Pause the room").click()
    page.locator(".icg-msg-ok", has_text="is paused").wait_for(timeout=15_000)
    assert store.room(host.code).status == "paused"
    page.get_by_role("button", name="The room goes on").click()
    # The message, not the button's own label "The room goes on".
    page.locator(".icg-msg-ok", has_text="goes on").wait_for(timeout=15_000)
    assert store.room(host.code).status == "playing"

    received = vp.everything_received()
    assert not [c for c in hands if c in received], "a card of a hand reached the class view"
    assert vp.problems() == []
