"""PostgreSQL LISTEN/NOTIFY wakes the seat sessions and the class view (rooms/listen.py)
instead of their polls; SQLite keeps polling. The real PostgreSQL of tests/pg_cluster.py (skips
locally without its binaries, fails under CI=true) and a real asyncio loop.

A session that would poll only every 60 s sees another session's move before its first poll
(within WOKEN, a hang guard under LONG: no duration is asserted, only that nothing but the
notification could have woken it);
the listener reconnects after the server terminates its backend (pg_terminate_backend) and the
page catches up; after the last session closes no listener thread is left."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from helpers import flapjack_config

from engine.flapjack import FlapjackState
from rooms import open_store
from rooms.database import NOTIFY_CHANNEL
from rooms.listen import Listener
from widgets.together.seat import SeatSession

LONG = 60.0  # seconds between polls in these tests: a change seen sooner came by notification
WOKEN = 30.0  # how long a test waits for a notification's wake-up (less than LONG)


def listener_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("icg-listen-")]


async def until(test: Callable[[], Any], timeout: float) -> float | None:
    """Seconds until `test()` is true (None if it never was within `timeout`), on the loop."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if test():
            return time.monotonic() - t0
        await asyncio.sleep(0.005)
    return None


def two_seats(url: str) -> tuple[Any, Any, SeatSession, SeatSession]:
    store = open_store(url)
    host = store.create_room(FlapjackState.deal(flapjack_config(2, "classic"), rng=3))
    a = SeatSession(open_store(url), store.join(host.code, "Ana"), host_secret=host.secret,
                    poll_every=LONG, listen_every=LONG, bot_delay=LONG)
    b = SeatSession(open_store(url), store.join(host.code, "Ben"), poll_every=LONG,
                    listen_every=LONG, bot_delay=LONG)
    a.reload()  # Ben's seat filled the room: it started
    return store, host, a, b


def mover(a: SeatSession, b: SeatSession) -> tuple[SeatSession, SeatSession]:
    """(the seat to move, the other one)."""
    return (a, b) if a.turn() == a.seat else (b, a)


def play_one(s: SeatSession) -> None:
    card = next(c for c in s.state.hands[s.seat] if s.state.why_illegal(s.seat, c, 1) is None)
    assert s.click_card(card.key) is None, s.note


@pytest.fixture
def pg_url(pg_cluster: Any) -> str:
    return pg_cluster.create_db(f"listen_{time.monotonic_ns()}")


def test_a_move_wakes_the_other_session_without_its_poll(pg_url: str) -> None:
    async def main() -> None:
        store, _host, a, b = two_seats(pg_url)
        assert a.status == "playing"
        for s in (a, b):
            s.start_polling()
        assert await until(lambda: a.listening and b.listening, 10) is not None
        await asyncio.sleep(0.1)  # the wake after connecting is done
        polls = b.polls
        for _ in range(4):
            m, other = mover(a, b)
            before = other.version
            play_one(m)
            took = await until(lambda other=other, m=m: other.version == m.version, WOKEN)
            assert took is not None, "not woken before the poll"
            assert other.version > before
        assert b.polls - polls <= 6, "b polled by notifications only (one per move or so)"
        assert b.wakeups >= 2
        for s in (a, b):
            s.stop()
        store.close()
        assert await until(lambda: not listener_threads(), 3) is not None, listener_threads()

    asyncio.run(main())


def test_the_listener_reconnects_after_its_backend_is_terminated(pg_url: str) -> None:
    async def main() -> None:
        store, _host, a, b = two_seats(pg_url)
        for s in (a, b):
            s.start_polling()
        assert await until(lambda: a.listening and b.listening, 10) is not None
        listener = b.subscription.listener
        connections, pid = listener.connections, listener.backend_pid()
        assert pid is not None
        killer = open_store(pg_url)
        with killer._write() as c:  # as an administrator would, or a server restart
            c.one("SELECT pg_terminate_backend(?)", (pid,))
        killer.close()
        back = await until(lambda: listener.connections > connections and b.listening, 10)
        assert back is not None, "no reconnection"
        assert listener.backend_pid() not in (None, pid)
        m, other = mover(a, b)
        play_one(m)
        took = await until(lambda: other.version == m.version, WOKEN)
        assert took is not None, "not woken after the reconnection"
        for s in (a, b):
            s.stop()
        store.close()
        assert await until(lambda: not listener_threads(), 3) is not None

    asyncio.run(main())


def test_a_change_while_the_listener_is_down_is_not_missed(pg_url: str) -> None:
    """The wake after each (re)connection catches up with what changed meanwhile; while down,
    the session polls at its short interval."""
    async def main() -> None:
        store, _host, a, b = two_seats(pg_url)
        m, other = mover(a, b)
        play_one(m)  # before `other` listens
        assert other.version < m.version
        other.poll_every = 0.05
        assert other._next_delay() <= 0.05  # not listening: the short poll
        other.poll_every = LONG
        other.start_polling()
        took = await until(lambda: other.version == m.version, 10)
        assert took is not None and other.listening and other.wakeups >= 1
        assert other._next_delay() == pytest.approx(LONG)
        other.subscription.listener.connected.clear()  # as between a drop and reconnecting
        other.poll_every = 0.05
        assert not other.listening and other._next_delay() <= 0.05
        other.subscription.listener.connected.set()
        other.stop()
        store.close()
        assert await until(lambda: not listener_threads(), 3) is not None

    asyncio.run(main())


def test_the_class_view_is_woken_by_a_notification(pg_url: str) -> None:
    pytest.importorskip("ipywidgets")
    from widgets.together.class_view import ClassView

    async def main() -> None:
        store = open_store(pg_url)
        view = ClassView(open_store(pg_url), interval=LONG, listen_every=LONG)
        assert await until(lambda: view.listening, 10) is not None
        await asyncio.sleep(0.1)
        redraws = view.redraws
        store.create_room(FlapjackState.deal(flapjack_config(2, "classic"), rng=5))
        took = await until(lambda: view.redraws > redraws and len(view.rooms) == 1, WOKEN)
        assert took is not None, "the class view was not woken before its poll"
        view.stop()
        store.close()
        assert await until(lambda: not listener_threads(), 3) is not None

    asyncio.run(main())


def test_sqlite_and_no_loop_keep_polling(tmp_path: Any, pg_url: str) -> None:
    """No notifications on SQLite; without a running loop (no kernel) a PostgreSQL session
    polls too, and no thread starts."""
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    timers: list[float] = []
    for u in (url, pg_url):
        store = open_store(u)
        host = store.create_room(FlapjackState.deal(flapjack_config(2, "classic"), rng=3))
        s = SeatSession(open_store(u), store.join(host.code, "Ana"), poll_every=0.1,
                        schedule=lambda d, fn: timers.append(d))
        s.start_polling()
        assert s.subscription is None and not s.listening
        assert timers[-1] == pytest.approx(0.1)
        s.stop()
        store.close()
    assert not listener_threads()


def test_the_last_close_ends_the_thread_and_a_new_subscriber_starts_one(pg_url: str) -> None:
    store = open_store(pg_url)
    listener = Listener(store._db.connect, NOTIFY_CHANNEL, store._db.errors())
    got: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        sub = listener.subscribe("ABCDEF", lambda: got.append("x"), loop)
        assert await until(lambda: sub.connected, 10) is not None
        assert await until(lambda: got, 1) is not None  # the wake after connecting
        sub.close(wait=True)
        assert not listener.running and not listener_threads()
        sub2 = listener.subscribe(None, lambda: got.append("y"), loop)
        assert await until(lambda: sub2.connected, 10) is not None
        sub2.close()  # no wait: a new subscriber at once gets a thread of its own
        sub3 = listener.subscribe(None, lambda: got.append("z"), loop)
        assert await until(lambda: sub3.connected, 10) is not None
        await asyncio.sleep(1.0)  # the old thread has ended by now: it did not unset this one
        assert sub3.connected and len(listener_threads()) == 1
        sub3.close(wait=True)
        assert not listener_threads()

    asyncio.run(main())
    store.close()
