"""Every refusal of the room store, played in Spanish: a code and its numbers from the store,
one sentence in the page's language from widgets.words, never a developer string.

Each refusal the store can raise (every code written in rooms/, found by reading its
source) is made to happen through the store on SQLite and PostgreSQL
(tests/pg_cluster.py); its sentence in Spanish must be the catalogue's (not the English one),
name what it is about (the room, the seat, the name, the seconds), and hold neither the code
nor the store's developer text (`str(error)`). Two refusals are then seen on a Spanish page.
"""

from __future__ import annotations

import ast
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import flapjack_config

import rooms.errors
import rooms.lifecycle
from engine.flapjack import FlapjackState
from engine.hit_me import ChooseAce, Hit, HitMeConfig, HitMeGame, Hold
from rooms import RoomError, open_store
from rooms.codes import format_code
from widgets import words

BOT = {"bot": "medium"}
STORE_SOURCES = sorted(Path(rooms.errors.__file__).parent.glob("*.py"))


def codes_in_the_store() -> set[str]:
    """Every code the store writes: the first argument of each RoomError class it calls, in
    every module of rooms/."""
    classes = {name for name, obj in vars(rooms.errors).items()
               if isinstance(obj, type) and issubclass(obj, RoomError)}
    found = set()
    for source in STORE_SOURCES:
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in classes and node.args \
                    and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
    return found


@pytest.fixture
def spanish() -> Iterator[None]:
    words.set_language("es")
    yield
    words.set_language("en")


class Plays:
    """The refusals made so far: code -> (error, what its sentence must name)."""

    def __init__(self) -> None:
        self.made: dict[str, tuple[RoomError, list[str]]] = {}

    def expect(self, code: str, attempt: Callable[[], Any], *named: str) -> RoomError:
        with pytest.raises(RoomError) as err:
            attempt()
        assert err.value.code == code, (code, str(err.value))
        self.made.setdefault(code, (err.value, list(named)))
        return err.value


def hit_me(players: int = 3) -> HitMeGame:
    return HitMeGame(HitMeConfig(players=players), seed=3)


def play_every_refusal(url: str, monkeypatch: pytest.MonkeyPatch) -> Plays:
    p = Plays()
    store = open_store(url)
    # ----- rooms, codes and names
    p.expect("bad-code", lambda: store.join("??", "Ana"))
    p.expect("no-room", lambda: store.join("KM7Q4X", "Ana"), "KM7-Q4X")
    host = store.create_room(hit_me(3), fill_bot=BOT)
    code, shown = host.code, format_code(host.code)
    p.expect("bad-name", lambda: store.join(code, "<b>"), "24")
    ana = store.join(code, "Ana")
    p.expect("name-taken", lambda: store.join(code, " ANA "), "ANA")
    p.expect("host-only", lambda: store.start(code, "not the key"))
    p.expect("cannot-change", lambda: store.pause(code, host.secret))
    p.expect("not-playing", lambda: store.play(code, 1, ana.secret, Hit()))
    p.expect("no-student", lambda: store.replace_seat(code, host.secret, 2), "3")
    store.start(code, host.secret)
    p.expect("started", lambda: store.join(code, "Ben"))
    p.expect("already-started", lambda: store.start(code, host.secret))
    p.expect("bad-link", lambda: store.rejoin(code, 0, "x" * 22))
    # ----- moves
    version, game = store.load(code)
    turn = game.round.current
    other = (turn + 1) % 3
    p.expect("not-your-turn", lambda: store.play(code, other, host.secret, Hit(),
                                                 expected_version=version))
    ace = game.round.cards(turn)[0]
    p.expect("illegal-move", lambda: store.play(code, turn, host.secret, ChooseAce(ace, True),
                                                expected_version=version), "1")
    p.expect("table-changed", lambda: store.play(code, turn, host.secret, Hold(),
                                                 expected_version=version - 1))
    p.expect("no-seat", lambda: store.play(code, 9, host.secret, Hit()))
    p.expect("other-game", lambda: store.move(
        code, turn, host.secret, lambda s, seat: FlapjackState.deal(flapjack_config(3, "classic"),
                                                                    rng=1)))
    with store._write() as c:  # a move that found the room changed under it
        p.expect("moved-first", lambda: store._bump(c, code, version - 1, 0.0))
    # Ana's seat (her student is here) played with a secret that is not hers
    p.expect("not-this-seat", lambda: store.play(code, 0, "x" * 22, Hold()))
    # ----- seat PINs
    store.first_pin(code, 0, ana.secret)
    at = time.time()  # (one moment for every try: the wait said does not hang on the clock)
    for _ in range(3):
        p.expect("wrong-pin", lambda: store.rejoin_pin(code, "Ana", "abc", now=at))
    p.expect("pin-wait", lambda: store.rejoin_pin(code, "Ana", "abc", now=at), "3")
    # ----- the class view
    p.expect("no-student", lambda: store.class_replace(code, 1), "2", shown)
    store.class_replace(code, 0)
    p.expect("computer-already", lambda: store.class_replace(code, 0), "Ana")
    p.expect("not-all-done", lambda: store.class_reveal(code), shown)
    p.expect("cannot-change", lambda: store.class_resume(code), shown)
    fj = store.create_room(FlapjackState.deal(flapjack_config(2, "classic"), rng=2),
                           fill_bot=BOT)
    p.expect("flapjack-shows-hands", lambda: store.class_reveal(fj.code))
    done = store.create_room(HitMeGame(HitMeConfig(players=2), seed=1), bots={0: BOT, 1: BOT})
    if store.room(done.code).status == "waiting":
        store.start(done.code, done.secret)
    v, g = store.load(done.code)
    while g.round.current is not None:
        v = store.play(done.code, g.round.current, done.secret, Hold(), expected_version=v)
        v, g = store.load(done.code)
    store.class_reveal(done.code)
    p.expect("face-up", lambda: store.class_reveal(done.code), format_code(done.code))
    store.class_close(done.code)
    p.expect("room-status", lambda: store.class_replace(done.code, 0), format_code(done.code))
    p.expect("room-status", lambda: store.class_reveal(done.code), format_code(done.code))
    # ----- starting with empty seats, a full room, a damaged room
    empty = store.create_room(hit_me(3))
    p.expect("empty-seats", lambda: store.start(empty.code, empty.secret), "3")
    full = store.create_room(hit_me(2))
    store.join(full.code, "Cy")
    store.join(full.code, "Di")  # every seat taken: it starts by itself
    with store._write() as c:  # as if two students had joined at the same moment
        c.run("UPDATE icg_rooms SET status = 'waiting' WHERE code = ?", (full.code,))
    p.expect("room-full", lambda: store.join(full.code, "Eva"))
    with store._write() as c:
        c.run("UPDATE icg_rooms SET state = ? WHERE code = ?",
              (json.dumps({"game": "flapjack", "cheat": True}), full.code))
    p.expect("damaged", lambda: store.load(full.code), format_code(full.code))
    # ----- the store itself
    with monkeypatch.context() as m:
        m.setattr(rooms.lifecycle, "new_code", lambda: code)  # every code already taken
        p.expect("no-free-code", lambda: store.create_room(hit_me(2)))
    p.expect("busy", lambda: (_ for _ in ()).throw(
        store._unavailable(sqlite3.OperationalError("database is locked"))))
    nowhere = ("sqlite:////nonexistent-dir/rooms.sqlite3" if url.startswith("sqlite") else
               "postgresql:///nowhere?host=/nonexistent-dir&user=postgres")
    p.expect("unavailable", lambda: open_store(nowhere).room(code))
    # ----- tables per computer: so many open, so many an hour
    limits = open_store(url)
    client = "198.51.100.7"
    opened = [limits.create_room(hit_me(2), client=client)
              for _ in range(limits.MAX_OPEN_ROOMS_PER_CLIENT)]
    n_open = str(limits.MAX_OPEN_ROOMS_PER_CLIENT)
    p.expect("open-tables", lambda: limits.create_room(hit_me(2), client=client), n_open)
    for room in opened:
        limits.close_room(room.code, room.secret)
    for _ in range(limits.MAX_NEW_ROOMS_PER_CLIENT_HOUR - limits.MAX_OPEN_ROOMS_PER_CLIENT):
        room = limits.create_room(hit_me(2), client=client)
        limits.close_room(room.code, room.secret)
    p.expect("tables-this-hour", lambda: limits.create_room(hit_me(2), client=client),
             str(limits.MAX_NEW_ROOMS_PER_CLIENT_HOUR))
    return p


def test_every_refusal_of_the_store_is_a_sentence_in_spanish(
        rooms_url: str, monkeypatch: pytest.MonkeyPatch, spanish: None) -> None:
    plays = play_every_refusal(rooms_url, monkeypatch)
    assert codes_in_the_store() <= set(plays.made), \
        f"not played: {sorted(codes_in_the_store() - set(plays.made))}"
    for code, (error, named) in plays.made.items():
        text = words.room_error_text(error)
        with words.speaking("en"):
            english = words.room_error_text(error)
        assert text and text != english, (code, text)
        assert code not in text and str(error) not in text and "=" not in text, (code, text)
        assert not any(k in text for k in ("error", "None", "{", "}")), (code, text)
        for part in named:
            assert part in text, (code, part, text)
            assert part in english, (code, part, english)


def test_a_spanish_page_says_the_store_refusals_in_spanish(rooms_url: str,
                                                          spanish: None) -> None:
    from widgets.together.lobby import PlayTogether

    store = open_store(rooms_url)
    host = store.create_room(hit_me(3), fill_bot=BOT)
    store.join(host.code, "Ana")
    page = PlayTogether(store=open_store(rooms_url))
    page.join_code.value, page.join_name.value = "KM7-Q4X", "Ben"
    page.join()
    assert "No hay ninguna sala KM7-Q4X" in page.message.value
    page.backoff.ok()
    page.join_code.value, page.join_name.value, page.join_pin.value = host.code, "Ana", "1"
    page.come_back()
    assert "Ese nombre y ese PIN no corresponden" in page.message.value
    assert "wrong-pin" not in page.message.value
