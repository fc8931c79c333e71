"""Rooms against one hostile computer (docs/security.md): look-alike names, names that pose as a
computer player or an empty seat, rooms per computer, expiry without a class view, and the
store file's mode."""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

import pytest

from engine.hit_me import HitMeConfig, HitMeGame
from rooms import NameTaken, NotAllowed, open_store
from rooms.codes import CodeError, clean_name
from rooms.names import name_key, poses_as_a_seat
from widgets.words import room_error_text, speaking


def _game(players: int = 3) -> HitMeGame:
    return HitMeGame(HitMeConfig(players=players), seed=11)


@pytest.fixture()
def store(tmp_path: Path):
    return open_store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")


@pytest.fixture()
def either_store(rooms_url: str):
    """SQLite and PostgreSQL (tests/conftest.py's rooms_url)."""
    return open_store(rooms_url)


@pytest.mark.parametrize("look_alike", ["Аna",        # Cyrillic А
                                        "ＡＮＡ",       # full-width
                                        "Ana",   # Greek capital alpha
                                        " ana "])
def test_a_look_alike_name_is_taken(store, look_alike: str) -> None:
    host = store.create_room(_game())
    store.join(host.code, "Ana")
    with pytest.raises(NameTaken):
        store.join(host.code, look_alike)
    store.join(host.code, "Anna")  # a different name still sits


@pytest.mark.parametrize("name", ["Computer 3", "computer3", "Seat 4", "SEAT-4", "Ѕeat 4",
                                  "C0mputer 2", "empty seat", "Computadora 3", "Asiento 4",
                                  "asiento vacío"])
@pytest.mark.parametrize("lang, words", [("en", "computer player or an empty seat"),
                                         ("es", "una computadora o un asiento vacío")])
def test_a_name_posing_as_a_computer_or_a_seat_is_refused(store, name: str, lang: str,
                                                          words: str) -> None:
    assert poses_as_a_seat(name)
    host = store.create_room(_game())
    with pytest.raises(NotAllowed) as refused:
        store.join(host.code, name)
    with pytest.raises(CodeError) as bad:
        clean_name(name)
    for error in (refused.value, bad.value):
        assert error.code == "poses-as-seat"
        with speaking(lang):
            assert re.search(words, room_error_text(error)), room_error_text(error)


@pytest.mark.parametrize("name", ["Ana", "Seth", "Sebastián", "Computer Wiz", "Marta López",
                                  "Li", "Zoë"])
def test_ordinary_names_sit(store, name: str) -> None:
    assert not poses_as_a_seat(name)
    host = store.create_room(_game())
    assert store.join(host.code, name).name == name


def test_name_keys_fold_case_width_and_look_alikes() -> None:
    assert name_key("Аna") == name_key("ana") == name_key("ＡＮＡ")
    assert name_key("Кim") == name_key("kim")
    assert name_key("José") != name_key("Jose")  # an accent is a different name


def test_one_computer_cannot_fill_the_store_with_rooms(either_store) -> None:
    store = either_store
    client = "10.0.0.7"
    made = []
    for _ in range(store.MAX_OPEN_ROOMS_PER_CLIENT):
        made.append(store.create_room(_game(), client=client))
    with pytest.raises(NotAllowed) as refused_open:
        store.create_room(_game(), client=client)
    assert (refused_open.value.code, refused_open.value.data) == (
        "open-tables", {"count": store.MAX_OPEN_ROOMS_PER_CLIENT})
    store.create_room(_game(), client="10.0.0.8")  # another computer opens its table
    # Closing its tables and opening more: at most MAX_NEW_ROOMS_PER_CLIENT_HOUR an hour.
    refused = 0
    for _ in range(100):
        for host in made:
            store.close_room(host.code, host.secret)
        made = []
        try:
            made.append(store.create_room(_game(), client=client))
        except NotAllowed as e:
            assert e.code == "tables-this-hour"
            refused += 1
    assert 100 - refused == store.MAX_NEW_ROOMS_PER_CLIENT_HOUR - store.MAX_OPEN_ROOMS_PER_CLIENT
    assert len(store.rooms()) == store.MAX_NEW_ROOMS_PER_CLIENT_HOUR + 1


def test_rooms_expire_without_a_class_view(either_store) -> None:
    store = either_store
    old = store.create_room(_game())
    now = time.time()
    with store._write() as c:  # a waiting room last changed three hours ago
        c.run("UPDATE icg_rooms SET updated = ? WHERE code = ?", (now - 3 * 3600, old.code))
    store._expired_at = now - 2 * store.EXPIRE_EVERY
    store.create_room(_game())  # no class view: making a room expires the old ones
    with pytest.raises(Exception, match="room"):
        store.room(old.code)


def test_the_store_file_is_the_servers_only(tmp_path: Path) -> None:
    old_umask = os.umask(0o022)
    try:
        path = tmp_path / "rooms.sqlite3"
        store = open_store(f"sqlite:///{path}")
        store.create_room(_game())
        for f in [path, *tmp_path.glob("rooms.sqlite3-*")]:
            assert stat.S_IMODE(f.stat().st_mode) & 0o077 == 0, f
        path2 = tmp_path / "old.sqlite3"
        path2.touch(mode=0o644)
        open_store(f"sqlite:///{path2}")
        assert stat.S_IMODE(path2.stat().st_mode) == 0o600
    finally:
        os.umask(old_umask)
