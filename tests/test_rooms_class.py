"""The teacher's side of the rooms: the store's class-management methods (SQLite and PostgreSQL)
and the class view widget (widgets/together/class_view.py) behind the teacher's key."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from helpers import flapjack_config

from engine.flapjack import FlapjackState
from engine.hit_me import HitMeConfig, HitMeGame, HitMeRound, Hold
from rooms import NotAllowed, NotPlaying, RoomStore, open_store
from rooms.games import GAMES

BOT = {"bot": "careful"}


def hit_me_game(players: int = 3, seed: int = 5) -> HitMeGame:
    return HitMeGame(HitMeConfig(players=players), seed=seed)


def flapjack(players: int = 3, seed: int = 5) -> FlapjackState:
    return FlapjackState.deal(flapjack_config(players, "add-or-subtract"), rng=seed)


def table(store: RoomStore, state: Any, names: list[str], **kw: Any) -> tuple[Any, dict]:
    host = store.create_room(state, **kw)
    seats = {t.seat: t for t in (store.join(host.code, n) for n in names)}
    return host, seats


def one_move(store: RoomStore, code: str, seats: dict) -> int:
    version, state = store.load(code)
    rnd = state.round if isinstance(state, HitMeGame) else state
    cur = GAMES[store.room(code).game].current(state)
    action = Hold() if isinstance(rnd, HitMeRound) else rnd.legal_actions(cur)[0]
    return store.play(code, cur, seats[cur].secret, action, expected_version=version)


def play_round_out(store: RoomStore, code: str, seats: dict) -> None:
    """Every seat holds: the round ends (announce step, cards still face down)."""
    for _ in range(10):
        _v, state = store.load(code)
        rnd = state.round if isinstance(state, HitMeGame) else state
        if rnd.players_done:
            return
        one_move(store, code, seats)
    raise AssertionError("the round did not end")


# ----- the store ------------------------------------------------------------------------------
def test_class_rooms_lists_players_turn_scores_and_last_move(rooms_url: str) -> None:
    store = open_store(rooms_url)
    fj, fj_seats = table(store, flapjack(2, 3), ["Ana", "Ben"])
    hm, _ = table(store, hit_me_game(3), ["Cleo"], fill_bot=BOT)
    rooms = {r.info.code: r for r in store.class_rooms(now=1e12 - 1)}
    assert set(rooms) == {fj.code, hm.code}
    f = rooms[fj.code]
    assert f.info.status == "playing" and [s.name for s in f.info.seats] == ["Ana", "Ben"]
    assert f.turn_name == ["Ana", "Ben"][f.info.turn]
    assert f.scores == (0, 0) and f.score_kind == "cards won" and f.moves == 0
    assert f.last_move is None and f.shown == f"{fj.code[:3]}-{fj.code[3:]}"
    h = rooms[hm.code]
    assert h.info.status == "waiting" and not h.stuck  # only a playing room is stuck
    assert h.scores == (0, 0, 0) and h.score_kind == "rounds won" and h.phase == "play"
    v = one_move(store, fj.code, fj_seats)
    f = next(r for r in store.class_rooms() if r.info.code == fj.code)
    assert f.moves == 1 and f.info.version == v and f.last_move is not None and not f.stuck


def test_stuck_after_a_configurable_time_without_a_move(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, seats = table(store, flapjack(2, 4), ["Ana", "Ben"])
    one_move(store, host.code, seats)
    last = store.class_rooms()[0].last_move
    assert not store.class_rooms(stuck_after=60, now=last + 59)[0].stuck
    assert store.class_rooms(stuck_after=60, now=last + 61)[0].stuck
    store.class_pause(host.code, now=last + 100)
    assert not store.class_rooms(stuck_after=60, now=last + 500)[0].stuck  # paused
    store.class_resume(host.code, now=last + 600)  # the clock starts again at the resume
    assert not store.class_rooms(stuck_after=60, now=last + 650)[0].stuck
    assert store.class_rooms(stuck_after=60, now=last + 661)[0].stuck


def test_start_fills_empty_seats_and_refuses_without_computer_players(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, _ = table(store, hit_me_game(3), ["Ana"], fill_bot=BOT)
    v = store.class_start(host.code)
    room = store.room(host.code)
    assert room.status == "playing" and room.version == v
    assert [s.controller for s in room.seats] == ["human", "computer", "computer"]
    with pytest.raises(NotAllowed, match="already-started"):
        store.class_start(host.code)
    bare, _ = table(store, flapjack(3), ["Ben"])  # no fill_bot
    with pytest.raises(NotAllowed, match="empty-seats.*count=2"):
        store.class_start(bare.code)
    assert store.room(bare.code).status == "waiting"
    assert [a for _t, a, _s, _v in store.class_log(host.code)] == ["start"]


def test_a_paused_room_refuses_moves_with_its_reason(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, seats = table(store, flapjack(2, 6), ["Ana", "Ben"])
    before = store.class_pause(host.code)
    version, state = store.load(host.code)
    assert version == before
    cur = state.current
    with pytest.raises(NotPlaying, match="paused"):
        store.play(host.code, cur, seats[cur].secret, state.legal_actions(cur)[0])
    assert store.current_version(host.code) == before and store.move_count(host.code) == 0
    with pytest.raises(NotAllowed, match="cannot-change.*paused.*pause"):
        store.class_pause(host.code)
    store.class_resume(host.code)
    one_move(store, host.code, seats)
    with pytest.raises(NotAllowed, match="cannot-change.*resume"):
        store.class_resume(host.code)


def test_replace_an_absent_player_and_the_student_comes_back(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, seats = table(store, hit_me_game(3), ["Ana", "Ben", "Cleo"], fill_bot=BOT)
    store.class_replace(host.code, 1)
    room = store.room(host.code)
    assert room.seats[1].controller == "computer" and room.seats[1].away
    with pytest.raises(NotAllowed, match="computer-already"):
        store.class_replace(host.code, 1)
    for bad in (5, -1, "1", None):
        with pytest.raises(NotAllowed):
            store.class_replace(host.code, bad)
    store.rejoin(host.code, 1, seats[1].secret)
    assert store.room(host.code).seats[1].controller == "human"


def test_reveal_at_the_end_of_a_hit_me_round(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, seats = table(store, HitMeRound.deal(HitMeConfig(players=2), rng=3), ["Ana", "Ben"])
    with pytest.raises(NotAllowed, match="not-all-done"):
        store.class_reveal(host.code)
    play_round_out(store, host.code, seats)
    room = store.class_rooms()[0]
    assert room.phase == "announce" and room.can_reveal and room.scores is None  # still hidden
    moves = store.move_count(host.code)
    v = store.class_reveal(host.code)
    _v, state = store.load(host.code)
    assert state.revealed and _v == v and store.move_count(host.code) == moves + 1
    assert store.moves(host.code)[-1] == (v, -1, {"kind": "reveal"})
    room = store.class_rooms()[0]
    assert room.phase == "revealed" and room.scores == state.result().scores
    with pytest.raises(NotAllowed, match="face-up"):
        store.class_reveal(host.code)
    fj, _ = table(store, flapjack(2), ["Ana", "Ben"])
    with pytest.raises(NotAllowed, match="flapjack-shows-hands"):
        store.class_reveal(fj.code)


def test_reveal_in_a_game_of_rounds_counts_the_win(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, seats = table(store, hit_me_game(2, 9), ["Ana", "Ben"])
    play_round_out(store, host.code, seats)
    assert store.class_rooms()[0].scores == (0, 0)
    store.class_reveal(host.code)
    _v, state = store.load(host.code)
    res = state.round.result()
    wins = [0, 0]
    if not res.tie:
        wins[res.winners[0]] += 1
    assert store.class_rooms()[0].scores == tuple(wins)


def test_close_any_room_and_no_more_moves(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, seats = table(store, flapjack(2, 7), ["Ana", "Ben"])
    store.class_close(host.code)
    version, state = store.load(host.code)
    with pytest.raises(NotPlaying, match="closed"):
        store.play(host.code, state.current, seats[state.current].secret,
                   state.legal_actions(state.current)[0])
    with pytest.raises(NotAllowed, match="closed"):
        store.class_close(host.code)
    assert store.current_version(host.code) == version
    assert [a for _t, a, _s, _v in store.class_log(host.code)] == ["close"]
    assert store.expire(finished_after=0, abandoned_after=1e9, now=1e12) == [host.code]
    assert store.class_rooms() == []


def test_a_refused_class_action_changes_no_row(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, _ = table(store, flapjack(2, 7), ["Ana"])
    before = _rows(rooms_url)
    for action in (store.class_pause, store.class_resume, store.class_reveal):
        with pytest.raises(NotAllowed):
            action(host.code)
    with pytest.raises(NotAllowed):
        store.class_replace(host.code, 1)
    assert _rows(rooms_url) == before


def test_class_stamp_changes_with_every_room_change(rooms_url: str) -> None:
    store = open_store(rooms_url)
    s0 = store.class_stamp()
    host, seats = table(store, flapjack(2, 2), ["Ana", "Ben"])
    s1 = store.class_stamp()
    one_move(store, host.code, seats)
    s2 = store.class_stamp()
    store.class_pause(host.code)
    assert len({s0, s1, s2, store.class_stamp()}) == 4


def test_class_checks_per_student(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host, seats = table(store, hit_me_game(2), ["Ana", "Ben"])
    assert store.class_checks() == []
    record_checks(rooms_url, store, host.code, seats, [
        (0, 0, True, 0, None), (1, 0, False, 2, "sum"), (1, 1, False, 1, "abs"),
        (0, 1, True, 0, None)])
    got = {c.name: c for c in store.class_checks()}
    assert (got["Ana"].checks, got["Ana"].first_try, got["Ana"].misses) == (2, 2, 0)
    assert got["Ana"].mistakes == () and got["Ana"].shown == host.shown
    assert (got["Ben"].checks, got["Ben"].first_try, got["Ben"].misses) == (2, 0, 3)
    assert dict(got["Ben"].mistakes) == {"sum": 1, "abs": 1}


# ----- helpers --------------------------------------------------------------------------------
def record_checks(url: str, store: RoomStore, code: str, seats: dict,
                  rows: list[tuple[int, int, bool, int, str | None]]) -> None:
    """(seat, round, first try right, misses, first mistake) rows: through the store's
    record_check when the seats' sessions (branch rooms-seat) are merged, else into the table
    it writes, with its columns (rooms.database.CHECKS_TABLE)."""
    record = getattr(store, "record_check", None)
    if record is not None:
        for seat, rnd, first, misses, mistake in rows:
            record(code, seat, seats[seat].secret, rnd, first, misses, mistake)
        return
    sql = ["CREATE TABLE IF NOT EXISTS icg_checks (code TEXT NOT NULL, seat INTEGER NOT NULL, "
           "round INTEGER NOT NULL, name TEXT NOT NULL, first_try INTEGER NOT NULL, "
           "misses INTEGER NOT NULL, mistake TEXT, at REAL NOT NULL, "
           "PRIMARY KEY (code, seat, round))"]
    for i, (seat, rnd, first, misses, mistake) in enumerate(rows):
        sql.append(("INSERT INTO icg_checks VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (code, seat, rnd, seats[seat].name, int(first), misses, mistake,
                     float(i))))
    _execute(url, sql)


def _execute(url: str, statements: list[Any]) -> None:
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url[len("sqlite:///"):])
        for st in statements:
            conn.execute(*(st if isinstance(st, tuple) else (st,)))
        conn.commit()
        conn.close()
        return
    import psycopg

    with psycopg.connect(url) as conn:
        for st in statements:
            if isinstance(st, tuple):
                conn.execute(st[0].replace("?", "%s"), st[1])
            else:
                conn.execute(st.replace("REAL", "DOUBLE PRECISION"))


def _rows(url: str) -> list[Any]:
    tables = ("icg_rooms", "icg_seats", "icg_moves", "icg_class_log")
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url[len("sqlite:///"):])
        out = [r for t in tables for r in conn.execute(f"SELECT * FROM {t}").fetchall()]
        conn.close()
        return out
    import psycopg

    with psycopg.connect(url) as conn:
        return [r for t in tables for r in conn.execute(f"SELECT * FROM {t}").fetchall()]


# ----- the class view widget ------------------------------------------------------------------
from helpers import TEACHER_KEY as KEY  # noqa: E402


def click(button: Any) -> None:
    """A click as the page sends it (the kernel runs the handler only if enabled)."""
    button._handle_custom_msg({"event": "click"}, [])


def test_the_class_view_page_refuses_without_the_key(server_key: str, tmp_path: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from ipywidgets.widgets.widget import _instances
    from test_teacher_key import run_cells, wait_for_next_try
    from widget_helpers import synced_text

    from widgets.page import teacher_key as tk
    from widgets.together.class_view import ClassView

    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    monkeypatch.setenv("ICG_ROOMS_URL", url)
    store = open_store(url)
    host, _ = table(store, flapjack(2, 3), ["Ana", "Ben"])
    wait_for_next_try()
    before = set(_instances)
    root = tk.DEFAULT_KEY_FILE.parent
    gate = next(w for w in run_cells(root / "lessons" / "class_view.ipynb")
                if isinstance(w, tk.TeacherGate))
    gate.password.set_state({"value": "not-the-key"})
    click(gate.unlock_button)
    made = [_instances[k] for k in set(_instances) - before]
    assert gate.table is None and not any(isinstance(w, ClassView) for w in made)
    assert host.shown not in synced_text(gate) and "Ana" not in synced_text(gate)
    wait_for_next_try()
    gate.password.set_state({"value": KEY})
    click(gate.unlock_button)
    view = gate.table
    assert isinstance(view, ClassView)
    view.stop()
    assert host.shown in synced_text(gate) and "Ana" in view.table.value
    assert KEY not in synced_text(gate)


def test_the_class_view_shows_rooms_and_updates_without_a_click(tmp_path: Any) -> None:
    from widget_helpers import synced_text

    from widgets.together.class_view import ClassView

    store = open_store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    host, seats = table(store, flapjack(2, 3), ["Ana", "Ben"])
    timers: list[Any] = []
    view = ClassView(store, stuck_after=60, schedule=lambda d, fn: timers.append((d, fn)))
    assert len(timers) == 1 and timers[0][0] == 0.25  # polls on the kernel's loop
    text = view.table.value
    assert host.shown in text and "Ana" in text and "Ben" in text and "playing" in text
    assert "cards won" in text and "none yet" in text
    # another kernel (a second store) moves: the next poll redraws
    other = open_store(store.url)
    one_move(other, host.code, seats)
    _d, tick = timers.pop()
    tick()
    assert view.redraws == 2 and ">1<" in view.table.value  # one move
    assert timers, "the poll goes on"
    assert not view.poll()  # nothing changed: no redraw
    assert "No check yet" in view.checks.value
    hm, hm_seats = table(store, hit_me_game(2), ["Cleo", "Dan"])
    record_checks(store.url, other, hm.code, hm_seats,
                  [(0, 0, True, 0, None), (1, 0, False, 2, "abs")])
    tick = timers.pop()[1]
    tick()
    checks = view.checks.value
    assert "Cleo" in checks and "Dan" in checks and "the absolute value \u00d71" in checks
    assert checks.index("Dan") < checks.index("Cleo")  # who needs help first
    # nothing hidden: no card of any hand reaches the page
    _v, state = store.load(host.code)
    page = synced_text(view)
    for hand in state.hands:
        for card in hand:
            assert f'"{card.code}"' not in page
    view.stop()


def test_each_action_of_the_class_view(tmp_path: Any) -> None:
    from widgets.together.class_view import ClassView

    store = open_store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    hm, hm_seats = table(store, HitMeRound.deal(HitMeConfig(players=3), rng=4), ["Ana", "Ben"],
                         fill_bot=BOT)
    view = ClassView(store, poll=False)
    b = view.buttons
    assert view.room_choice.value == hm.code
    assert not b["start"].disabled and b["pause"].disabled and b["reveal"].disabled
    click(b["pause"])  # disabled: a forged click does nothing
    assert store.room(hm.code).status == "waiting"
    click(b["start"])
    assert store.room(hm.code).status == "playing" and "has started" in view.message.text
    click(b["pause"])
    assert store.room(hm.code).status == "paused" and not b["resume"].disabled
    click(b["resume"])
    assert store.room(hm.code).status == "playing"
    view.seat_choice.value = 1
    click(b["replace"])
    assert store.room(hm.code).seats[1].controller == "computer"
    assert [o[1] for o in view.seat_choice.options] == [0]
    # the round ends (everyone holds; seat 1 and 2 are computer seats: the host's key moves)
    for _ in range(3):
        version, state = store.load(hm.code)
        cur = state.current
        secret = hm_seats[cur].secret if cur == 0 else hm.secret
        store.play(hm.code, cur, secret, Hold(), expected_version=version)
    view.refresh()
    assert not b["reveal"].disabled and "face down" in view.table.value
    click(b["reveal"])
    assert store.load(hm.code)[1].revealed and "distance from zero" in view.table.value
    click(b["close"])
    assert store.room(hm.code).status == "closed" and view.room_choice.options == ()
    assert all(x.disabled for x in b.values())
    # a refused action is a message, nothing changes
    fj, _ = table(store, flapjack(2), ["Cleo"])
    view.refresh()
    view.room_choice.value = fj.code
    assert view.start() is False and "no computer players" in view.message.text
    assert store.room(fj.code).status == "waiting"


def test_the_class_view_clears_old_rooms_now_and_then(tmp_path: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.together import class_view as classview

    store = open_store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    host, _ = table(store, flapjack(2), ["Ana", "Ben"])
    store.class_close(host.code)
    view = classview.ClassView(store, poll=False)
    calls: list[Any] = []
    monkeypatch.setattr(store, "expire", lambda: calls.append(1) or [])
    view.poll()
    assert calls == []
    view.expired_at -= classview.EXPIRE_EVERY
    view.poll()
    assert calls == [1]
