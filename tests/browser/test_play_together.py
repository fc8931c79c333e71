"""Play together in the browser: three Chromium pages (three students) on one Voila server play
a whole Hit Me round and a whole Flapjack game by clicks, through the room store.

Every page updates without a click of its own (each click waits for the button to come on by
itself); no page's served HTML, DOM, widget state or websocket frames ever hold another
student's hidden card before the reveal (the test reads the truth from the store; a positive
control finds the page's own cards, and the others' after the reveal); a student who reloads
with a plain reload of the tab (F5) or with the seat link on another device is back in the same
seat, and no page ever holds another seat's key.

Each click waits for its move to reach the store before the test reads the store again: the
kernel handles a click a moment after the browser sends it, and reading the store at once
showed the turn before the move, so the test waited on the wrong student's page (whose button
was rightly off). That race, not the pages, made this test fail as wip_play_together.py.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from engine.hit_me import HitMeGame

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 30_000
NAMES = ["Ana", "Ben", "Cy"]


def _voila() -> Any:
    tests_dir = str(ROOT / "tests")
    if tests_dir not in sys.path:
        sys.path.insert(0, tests_dir)
    import voila_server

    return voila_server


@pytest.fixture(scope="module")
def rooms_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Voila serving one page with the play-together widget, on a store of its own."""
    import os

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
    try:
        url, proc = _voila().start_voila(served, env={"ICG_ROOMS_URL": store_url})
    except RuntimeError as e:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"Voila could not start: {e}")
    yield f"{url.rstrip('/')}/voila/render/play_together.ipynb", store_url
    _voila().stop_voila(proc)


# Three students' pages are three windows: Chromium would slow the two in the background
# (timers, frames), which a student's own device never does. These flags keep every page live.
LIVE_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows"]


@pytest.fixture(scope="module")
def live_browser(browser: Any) -> Iterator[Any]:
    """A second Chromium (same Playwright) with the background slow-downs off."""
    import os

    b = browser.browser_type.launch(
        executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), headless=True,
        args=LIVE_ARGS)
    yield b
    b.close()


@pytest.fixture
def open_page(live_browser: Any, bt: Any) -> Iterator[Any]:
    """Like the suite's open_page, on the live browser."""
    contexts = []

    def make(name: str = "page") -> Any:
        ctx = live_browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(ctx)
        return bt.VoilaPage(ctx, name)

    yield make
    for ctx in contexts:
        try:
            ctx.close()
        except Exception:  # noqa: BLE001
            pass


# ----- page helpers --------------------------------------------------------------------------
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


# ----- the games -------------------------------------------------------------------------------
def test_three_students_play_a_hit_me_round(rooms_server: tuple[str, str], open_page: Any,
                                            bt: Any) -> None:
    from rooms import open_store

    url, store_url = rooms_server
    store = open_store(store_url)
    pages, code = open_table(rooms_server, open_page, "Hit Me")
    assert store.room(code).status == "playing"  # full: it started by itself
    reloaded = False
    for _ in range(40):
        _, game = store.load(code)
        assert isinstance(game, HitMeGame)
        r = game.round
        if r.phase != "play":
            break
        hidden = {p: [r.face_down[p]] for p in range(3)}
        face_up = {p: list(r.face_up[p]) for p in range(3)}
        no_leak(bt, pages, hidden, face_up, f"move {len(r.events)}")
        seat = r.current
        vp = pages[seat]
        obs = r.observation(seat)["seats"][seat]
        before = store.current_version(code)
        click_when_enabled(vp.page, "Hit me!" if obs["hits"] < 1 else "Hold")
        wait_for_move(store, code, before, vp.page)
        if len(r.events) == 4:  # mid-game: Ben reloads his tab (F5)
            no_key_elsewhere(pages)
            reload_same_tab(pages[1], "Ben", 1)
            reloaded = True
    assert reloaded
    _, game = store.load(code)
    r = game.round
    assert r.phase == "announce"
    hidden = {p: [r.face_down[p]] for p in range(3)}
    for seat, vp in enumerate(pages):
        no_leak(bt, pages, hidden, {}, f"before {NAMES[seat]} announces")
        values = r.observation(seat)["seats"][seat]["values"]
        type_into(vp, "My sum", str(sum(values)))
        type_into(vp, "Its absolute value |sum|", str(abs(sum(values))))
        click_when_enabled(vp.page, "Check my sum")
        # attached, not visible: the last answer turns the cards up at once, which hides the
        # announce box (and its "Right!") a moment later
        vp.page.get_by_text("Right!").first.wait_for(state="attached", timeout=TIMEOUT)
    for vp in pages:  # the last answer turned the cards up on every page (the table's status,
        # which the page's live region also says: the first of the two)
        vp.page.get_by_text("The round is over: every card is face up.").first.wait_for(
            timeout=TIMEOUT)
    all_down = [r.face_down[p] for p in range(3)]
    for vp in pages:
        found = bt.find_cards(vp.everything_received(), all_down)
        assert set(found) == {c.key for c in all_down}, "after the reveal every card shows"
    assert sorted(c["seat"] for c in store.checks(code)) == [0, 1, 2]
    assert all(c["first_try"] for c in store.checks(code))
    for vp in pages:
        assert vp.problems() == []


def test_three_students_play_a_flapjack_game(rooms_server: tuple[str, str], open_page: Any,
                                             bt: Any) -> None:
    from rooms import open_store

    url, store_url = rooms_server
    store = open_store(store_url)
    pages, code = open_table(rooms_server, open_page, "Flapjack")
    assert store.room(code).status == "playing"
    moves = 0
    for _ in range(120):
        if store.room(code).status == "finished":
            break
        _, state = store.load(code)
        if moves % 6 == 0:
            hidden = {p: list(state.hands[p]) for p in range(3)}
            hidden[99] = list(state.draw_pile)  # nobody's: hidden from every page
            no_leak(bt, pages, hidden, {p: list(state.hands[p]) for p in range(3)},
                    f"Flapjack move {moves}")
        seat = state.current
        vp = pages[seat]
        wait_for_hand(vp.page, state, seat)
        card = vp.page.locator(".icg-room-hand button:not([disabled])").first
        card.wait_for(state="visible", timeout=TIMEOUT)
        before = store.current_version(code)
        card.click()
        wait_for_move(store, code, before, vp.page)
        moves += 1
        if moves == 3:  # mid-game: Cy opens the seat link on another device
            new = open_page("room-Flapjack-Cy-2")
            reload_with_link_from(pages[2], new, url, "Cy", 2)
            pages[2].context.close()
            pages[2] = new
    assert store.room(code).status == "finished"
    assert store.move_count(code) >= moves
    assert moves > 3
    no_key_elsewhere(pages)
    for vp in pages:
        vp.page.get_by_text("The game is over.").first.wait_for(timeout=TIMEOUT)
        assert vp.problems() == []
