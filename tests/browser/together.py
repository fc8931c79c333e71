"""Play together in the browser, the helpers of its two journeys
(test_play_together_hit_me.py, test_play_together_flapjack.py): three students' pages on one
Voila server open a table, join it with its code, click when a button comes on by itself, and
check that no page holds another seat's hidden card or key. The server and browser they share
are fixtures in conftest.py (`rooms_server`, `live_open_page`).

Each click waits for its move to reach the store before the test reads the store again: the
kernel handles a click a moment after the browser sends it, and reading the store at once
shows the turn before the move.
"""

from __future__ import annotations

import re
import time
from typing import Any

TIMEOUT = 30_000
NAMES = ["Ana", "Ben", "Cy"]


def button(page: Any, name: str) -> Any:
    return page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))


def click_when_enabled(page: Any, name: str, timeout: int = TIMEOUT) -> None:
    """Wait for the button to come on by itself (the page updates without a click), then click.
    The locator is looked up again on every try (a redrawn button is a new element)."""
    page.bring_to_front()
    b = button(page, name)
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            if b.count() == 1 and b.is_enabled(timeout=1000):
                break
        except Exception:  # noqa: BLE001 - the element was being redrawn
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"the button {name!r} did not come on in {timeout} ms: "
                                 f"{_diagnose(page, name)}")
        page.wait_for_timeout(100)
    b.click()


_DIAG_JS = """async (name) => {
  const app = window.jupyterapp;
  const wm = app._widgetManager || await app._widgetManagerPromise;
  const models = wm._models;
  const ids = models instanceof Map ? [...models.keys()] : Object.keys(models);
  const out = [];
  for (const id of ids) {
    const m = await (models instanceof Map ? models.get(id) : models[id]);
    if (m.get('description') === name) {
      out.push({id, disabled: m.get('disabled'), views: Object.keys(m.views || {}).length,
                pending: m._pending_msgs, buf: m._msg_buffer,
                echo: m._expectedEchoMsgIds ? [...m._expectedEchoMsgIds.keys()] : null});
    }
  }
  const dom = [...document.querySelectorAll('.widget-button')].filter(b =>
    b.textContent.trim() === name).map(b => ({disabled: b.disabled,
    visible: b.offsetParent !== null}));
  return JSON.stringify({models: out, dom});
}"""


def _diagnose(page: Any, name: str) -> str:
    try:
        return str(page.evaluate(_DIAG_JS, name))
    except Exception as e:  # noqa: BLE001
        return f"(no diagnosis: {e})"


def wait_for_move(store: Any, code: str, before: int, page: Any) -> None:
    """Wait until the click's move is in the store (the kernel handles a click a moment after
    the browser sends it: reading the store at once would still show the turn before it)."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while store.current_version(code) == before:
        if time.monotonic() > deadline:
            info = store.room(code)
            now = time.time()
            seats = [f"{s.name}: {s.controller}, seen {now - (s.last_seen or 0):.0f} s ago"
                     for s in info.seats]
            raise AssertionError(f"the click's move did not reach the store (version {before},"
                                 f" {info.status}, turn {info.turn}; {'; '.join(seats)})")
        page.wait_for_timeout(50)


# The hand a seat's page shows: each card button's label ("J♣ +11") and whether it is on.
HAND_JS = """() => [...document.querySelectorAll('.icg-room-hand button')]
  .filter(b => b.offsetParent !== null && b.textContent.trim())
  .map(b => [b.textContent.trim().split(/\\s+/).slice(0, 2).join(' '), !b.disabled])"""


def wait_for_hand(page: Any, state: Any, seat: int) -> None:
    """Wait until the seat's page shows the hand the store holds, its playable cards switched
    on: its kernel has drawn the store's state. A page a moment behind still shows the turn
    before (the same seat leads again after its own Flapjack): its kernel refuses a click on
    a card it has since switched off."""
    from engine.events import card_view
    from widgets.table.components import card_label

    playable = {play.card.key for play in state.legal_actions(seat)}
    want = sorted((card_label(card_view(c, state.config.value(c))), c.key in playable)
                  for c in state.hands[seat])
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        shown = sorted(tuple(x) for x in page.evaluate(HAND_JS))
        if shown == want:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the page did not show the store's hand: {shown} != {want}")
        page.wait_for_timeout(50)


def text_box(page: Any, label: str) -> Any:
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=re.compile(f"^{re.escape(label)}$"))).locator("input")


def type_into(vp: Any, label: str, value: str) -> None:
    box = text_box(vp.page, label)
    box.fill(value)
    box.press("Tab")
    vp.wait_synced()


def choose(vp: Any, label: str, option: str) -> None:
    vp.page.locator(".widget-dropdown", has=vp.page.locator(
        "label", has_text=re.compile(f"^{re.escape(label)}$"))).locator("select") \
        .select_option(label=option)
    vp.wait_synced()


def seats_field(vp: Any, n: int) -> None:
    box = vp.page.locator(".widget-inline-hbox", has=vp.page.locator(
        "label", has_text="Seats (2 to 8)")).locator("input")
    box.fill(str(n))
    box.press("Tab")
    vp.wait_synced()


def open_table(rooms_server: tuple[str, str], open_page: Any, game: str) -> tuple[list[Any], str]:
    """Ana opens a 3-seat table of `game`; Ben and Cy join with the code shown. Returns the
    three pages and the room code."""
    from rooms.codes import parse_code

    url, _ = rooms_server
    pages = [open_page(f"room-{game}-{n}") for n in NAMES]
    for vp in pages:
        vp.open(url)
    ana = pages[0]
    choose(ana, "Game", game)
    seats_field(ana, 3)
    type_into(ana, "Your name (you play too)", "Ana")
    click_when_enabled(ana.page, "Open a table")
    code_el = ana.page.locator(".icg-room-code")
    code_el.wait_for(state="visible", timeout=TIMEOUT)
    shown = code_el.inner_text().strip()
    assert re.fullmatch(r"[2-9A-HJKMNP-TV-Z]{3}-[2-9A-HJKMNP-TV-Z]{3}", shown), shown
    for vp, name in zip(pages[1:], NAMES[1:], strict=True):
        type_into(vp, "Room code", shown.lower())  # read aloud, typed in small letters
        type_into(vp, "Your name", name)
        click_when_enabled(vp.page, "Join the table")
        vp.page.locator(".icg-room-code").wait_for(state="visible", timeout=TIMEOUT)
    return pages, parse_code(shown)


def no_leak(bt: Any, pages: list[Any], hidden: dict[int, list[Any]], own: dict[int, list[Any]],
            when: str) -> None:
    """No page holds another seat's hidden card; each page holds its own visible cards (a page
    that has not drawn the latest move yet is given the time its poll needs)."""
    for seat, vp in enumerate(pages):
        others = [c for s, cards in hidden.items() if s != seat for c in cards]
        wanted = {c.key for c in own.get(seat, [])}
        deadline = time.monotonic() + TIMEOUT / 1000
        while True:
            text = vp.everything_received()
            leaks = bt.find_cards(text, others)
            assert leaks == {}, f"{when}: {NAMES[seat]}'s page holds others' cards: {leaks}"
            mine = bt.find_cards(text, own.get(seat, []))
            if set(mine) == wanted:
                break
            assert time.monotonic() < deadline, \
                f"{when}: positive control: {NAMES[seat]}'s own cards not found: {mine}"
            vp.page.wait_for_timeout(200)


def seat_key(vp: Any) -> str:
    """The seat's secret, from the seat link this page shows."""
    from urllib.parse import parse_qs

    link = vp.page.locator("a.icg-seat-link").get_attribute("href")
    assert link and link.startswith("?room=") and "key=" in link, link
    return parse_qs(link[1:])["key"][0]


def wait_seated(vp: Any, name: str, seat: int) -> None:
    vp.page.locator(".icg-room-code").wait_for(state="visible", timeout=TIMEOUT)
    vp.page.get_by_text(f"You are {name}, seat {seat + 1}.").wait_for(timeout=TIMEOUT)


def reload_same_tab(vp: Any, name: str, seat: int) -> None:
    """A plain reload (F5) of the tab: the student is back in the same seat, with no link or
    PIN typed (the page keeps its own seat link in its address: static/seat-keeper.js)."""
    key = seat_key(vp)
    vp.page.wait_for_function("k => location.search.includes('key=' + k)", arg=key,
                              timeout=TIMEOUT)
    vp.page.reload(wait_until="domcontentloaded", timeout=TIMEOUT * 4)
    vp.page.wait_for_function(
        "() => { const l = document.getElementById('loading');"
        " return !l || l.style.display === 'none' || l.offsetParent === null; }",
        timeout=TIMEOUT * 4)
    wait_seated(vp, name, seat)
    assert seat_key(vp) == key


def reload_with_link_from(old: Any, new: Any, url: str, name: str, seat: int) -> None:
    """The seat link of `old` opened in `new` (another device): back in the same seat."""
    link = old.page.locator("a.icg-seat-link").get_attribute("href")
    assert link and link.startswith("?room=") and "key=" in link
    new.open(url + link)
    wait_seated(new, name, seat)


def no_key_elsewhere(pages: list[Any]) -> None:
    """No page ever received another seat's secret."""
    keys = [seat_key(vp) for vp in pages]
    for seat, vp in enumerate(pages):
        text = vp.everything_received()
        for other, key in enumerate(keys):
            if other != seat:
                assert key not in text, f"{NAMES[seat]}'s page holds {NAMES[other]}'s seat key"
