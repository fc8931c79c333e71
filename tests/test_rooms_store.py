"""The room store (rooms/) on SQLite and on PostgreSQL: codes, seats, secrets, moves
with a version check, presence, faults, restart and expiry, with real Hit Me and Flapjack
states. The PostgreSQL half runs on a throwaway cluster (tests/pg_cluster.py)."""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import flapjack_config

from engine.cards import card_from_json, parse_card
from engine.errors import IllegalActionError
from engine.flapjack import FlapjackState, Play
from engine.hit_me import ChooseAce, Hit, HitMeConfig, HitMeGame, HitMeRound, Hold, Reveal
from rooms import (
    DamagedRoom,
    IllegalMove,
    NameTaken,
    NotAllowed,
    NotPlaying,
    NotYourTurn,
    RoomFull,
    RoomNotFound,
    RoomStore,
    StoreUnavailable,
    TableChanged,
    open_store,
)
from rooms.codes import (
    ALPHABET,
    CodeError,
    clean_name,
    format_code,
    hash_secret,
    new_code,
    new_secret,
    parse_code,
    secret_matches,
)
from rooms.games import GAMES, action_from_json, action_to_json, log_entry, next_round

BOT = {"bot": "careful"}
ROOT = Path(__file__).resolve().parent.parent


# ----- codes, secrets and names (no store) -----------------------------------------------------
def test_room_codes_have_no_ambiguous_characters() -> None:
    assert not set("01OIL") & set(ALPHABET) and "U" not in ALPHABET
    codes = {new_code() for _ in range(2000)}
    assert len(codes) > 1990  # 30**6 codes: collisions in 2000 draws are rare
    for code in list(codes)[:200]:
        assert len(code) == 6 and set(code) <= set(ALPHABET)
        shown = format_code(code)
        assert shown[3] == "-"
        for typed in (shown, shown.lower(), f" {code[:3]} {code[3:]} ", code.lower()):
            assert parse_code(typed) == code


@pytest.mark.parametrize("typed", ["", "ABCDE", "ABCDEFG", "ABC-DE0", "ABC-DEO", "ABC-DE1",
                                   "ABC-DEI", "ABC-DEL", "ABC-DEU", "ABC_DEF", None, 123456,
                                   "A" * 100])
def test_bad_room_codes_are_refused(typed: Any) -> None:
    with pytest.raises(CodeError, match="bad-code"):
        parse_code(typed)


def test_secrets_are_128_bits_and_kept_hashed() -> None:
    secrets_ = {new_secret() for _ in range(500)}
    assert len(secrets_) == 500
    s = next(iter(secrets_))
    assert len(s) == 22  # 16 bytes, URL-safe base 64
    h = hash_secret("ABCDEF", 2, s)
    assert s not in h and len(h) == 64
    assert secret_matches(h, "ABCDEF", 2, s)
    assert not secret_matches(h, "ABCDEF", 3, s)  # bound to its seat
    assert not secret_matches(h, "ABCDEG", 2, s)  # and to its room
    for wrong in (s[:-1], s + "x", "", None, 7, ["x"], "x" * 1000):
        assert not secret_matches(h, "ABCDEF", 2, wrong)
    assert not secret_matches(None, "ABCDEF", 2, s)


def test_names() -> None:
    assert clean_name("  Ana  María ") == ("Ana María", "ana maría")
    assert clean_name("ANA")[1] == clean_name("ana")[1]
    for bad in ("", "   ", "x" * 25, "<b>", "a\x00b", "a\u200bb", None, 5, "Ana;drop"):
        with pytest.raises(CodeError):
            clean_name(bad)


def test_moves_round_trip_as_json() -> None:
    """The move log writes the engine's own action JSON and reads it back; the older form of
    the log (`{"move": ...}`, its card as "card") reads back as the same moves."""
    state = FlapjackState.deal(flapjack_config(3, "add-or-subtract"), rng=4)
    actions = state.legal_actions() + [Hit(), Hold(), Reveal(),
                                       ChooseAce(card_from_json("AS#1"), True)]
    for a in actions:
        assert action_to_json(a) == a.to_json()
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
    old = [({"move": "hit"}, Hit()), ({"move": "reveal"}, Reveal()),
           ({"move": "play", "card": "KS", "sign": -1}, Play(parse_card("KS"), -1)),
           ({"move": "ace", "card": "AD#1", "high": False},
            ChooseAce(card_from_json("AD#1"), False))]
    for entry, action in old:
        assert action_from_json(entry) == action
        assert log_entry(entry) == action.to_json()
    for bad in ({"move": "hit", "x": 1}, {"move": "play", "card": "ks", "sign": 1},
                {"move": "play", "card": "KS", "sign": 2}, {"move": "play", "card": "KS",
                                                            "sign": True}, "hit", None,
                {"kind": "hit", "x": 1}, {"kind": "play", "key": "ks", "sign": 1},
                {"kind": "play", "key": "KS", "sign": True}, {"kind": "ace", "key": "AS",
                                                             "high": 1},
                {"kind": "hit", "move": "hit"}, {"kind": "next-round"}):
        with pytest.raises(IllegalActionError, match="not-an-action"):
            action_from_json(bad)


def test_a_move_log_stored_in_the_older_form_still_reads_and_replays(rooms_url: str) -> None:
    """Rows written by the store before it wrote the engine's action JSON: read back in the
    engine's form, and the replay gives the stored state."""
    store = open_store(rooms_url)
    state = hit_me_game(2, 4)
    initial = json.loads(json.dumps(state.to_json()))
    host = store.create_room(state, fill_bot=BOT)
    ana = store.join(host.code, "Ana")
    store.start(host.code, host.secret)
    version, game = store.load(host.code)
    rows = []
    for seat in (1, 0):  # seat 1 plays first (left of the dealer)
        version = store.play(host.code, seat, ana.secret if seat == 0 else host.secret, Hold(),
                             expected_version=version)
        rows.append((version, seat))
    # the same two moves written over in the older form, as an older store wrote them
    with store._write() as c:
        for v, _seat in rows:
            c.run("UPDATE icg_moves SET action = ? WHERE code = ? AND version = ?",
                  (json.dumps({"move": "hold"}), host.code, v))
    log = store.moves(host.code)
    assert [a for _, _, a in log] == [{"kind": "hold"}, {"kind": "hold"}]
    replay = GAMES["hit-me"].load(initial)
    for _, seat, action in log:
        replay.round.apply_action(action_from_json(action), seat)
    assert replay.to_json() == store.load(host.code)[1].to_json()


# ----- helpers ---------------------------------------------------------------------------------
def hit_me_game(players: int = 3, seed: int = 5) -> HitMeGame:
    return HitMeGame(HitMeConfig(players=players), seed=seed)


def flapjack(players: int = 3, seed: int = 5) -> FlapjackState:
    return FlapjackState.deal(flapjack_config(players, "add-or-subtract"), rng=seed)


def current_of(store: RoomStore, code: str) -> tuple[int, Any, int | None]:
    version, state = store.load(code)
    room = store.room(code)
    return version, state, GAMES[room.game].current(state)


def round_of(state: Any) -> Any:
    return state.round if isinstance(state, HitMeGame) else state


def raw_rows(url: str) -> list[tuple[Any, ...]]:
    """Every row of every table of the store, read without the store's code."""
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url[len("sqlite:///"):])
        out = []
        for t in ("icg_rooms", "icg_seats", "icg_moves"):
            out += conn.execute(f"SELECT * FROM {t}").fetchall()  # noqa: S608
        conn.close()
        return out
    import psycopg

    with psycopg.connect(url) as conn:
        return [r for t in ("icg_rooms", "icg_seats", "icg_moves")
                for r in conn.execute(f"SELECT * FROM {t}").fetchall()]


def raw_execute(url: str, sql: str, params: tuple[Any, ...]) -> None:
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url[len("sqlite:///"):])
        conn.execute(sql, params)
        conn.commit()
        conn.close()
        return
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute(sql.replace("?", "%s"), params)


# ----- seats -----------------------------------------------------------------------------------
def test_join_start_and_seats(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(hit_me_game(4), settings={"variant": "classic"}, fill_bot=BOT)
    assert len(host.code) == 6 and parse_code(host.shown) == host.code
    info = store.room(host.code)
    assert info.status == "waiting" and info.settings == {"variant": "classic"}
    assert [s.controller for s in info.seats] == ["empty"] * 4
    ana = store.join(host.shown.lower(), "Ana")
    ben = store.join(host.code, "Ben")
    assert (ana.seat, ben.seat) == (0, 1) and ana.secret != ben.secret
    for same in ("ana", " ANA ", "Ana"):
        with pytest.raises(NameTaken, match="taken"):
            store.join(host.code, same)
    with pytest.raises(RoomNotFound):
        store.join("ZZZ-ZZZ", "Cleo")
    with pytest.raises(RoomNotFound, match="bad-code"):
        store.join("ABC-DE0", "Cleo")
    with pytest.raises(NotAllowed, match="name"):
        store.join(host.code, "<script>")
    with pytest.raises(NotAllowed, match="host"):
        store.start(host.code, ana.secret)  # a student is not the host
    v = store.start(host.code, host.secret)
    info = store.room(host.code)
    assert info.status == "playing" and info.version == v
    assert [s.controller for s in info.seats] == ["human", "human", "computer", "computer"]
    assert info.seats[2].bot == BOT
    with pytest.raises(NotAllowed, match="started"):
        store.join(host.code, "Cleo")
    # Back to one's own seat with its secret only.
    assert store.rejoin(host.code, 0, ana.secret) == v
    for seat, secret in ((0, ben.secret), (1, ana.secret), (2, ana.secret), (0, host.secret),
                         (0, "x"), (9, ana.secret), ("0", ana.secret)):
        with pytest.raises(NotAllowed):
            store.rejoin(host.code, seat, secret)
    # Nothing in the store holds a secret as written.
    text = repr(raw_rows(rooms_url))
    for secret in (host.secret, ana.secret, ben.secret):
        assert secret not in text
    assert ana.secret[:8] not in text


def test_room_starts_when_full_and_refuses_extra_seats(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(flapjack(3), bots={2: BOT})
    store.join(host.code, "Ana")
    assert store.room(host.code).status == "waiting"
    store.join(host.code, "Ben")
    assert store.room(host.code).status == "playing"  # two students + one computer: full
    with pytest.raises(NotAllowed):
        store.join(host.code, "Cleo")
    host2 = store.create_room(flapjack(2))
    store.join(host2.code, "Ana")
    with pytest.raises(NotAllowed, match="empty"):
        store.start(host2.code, host2.secret)  # no computer players to fill the seat
    store.join(host2.code, "Ben")
    with pytest.raises((RoomFull, NotAllowed)):
        store.join(host2.code, "Cleo")


# ----- moves -----------------------------------------------------------------------------------
def play_to_end(store: RoomStore, code: str, secrets_: dict[int, str], host_secret: str,
                rng: random.Random, max_moves: int = 400) -> int:
    """Random legal moves through the store until the room is finished (or, for a game of Hit
    Me rounds, two rounds are over). Returns the moves made."""
    made = 0
    while store.room(code).status == "playing" and made < max_moves:
        version, state, cur = current_of(store, code)
        if cur is None:  # a Hit Me round is over
            if len(state.history) >= 1:
                break
            store.move(code, 0, secrets_[0], next_round, action={"kind": "next-round"},
                       expected_version=version)
            made += 1
            continue
        action = rng.choice(round_of(state).legal_actions(cur))
        secret = secrets_.get(cur, host_secret)  # the host's kernel plays the computer seats
        new = store.play(code, cur, secret, action, expected_version=version)
        assert new == version + 1
        made += 1
    return made


@pytest.mark.parametrize("game", ["hit-me", "hit-me-round", "flapjack"])
def test_whole_games_through_the_store(rooms_url: str, game: str) -> None:
    store = open_store(rooms_url)
    state = {"hit-me": hit_me_game(3, 11), "hit-me-round":
             HitMeRound.deal(HitMeConfig(players=3), rng=11), "flapjack": flapjack(3, 11)}[game]
    initial = json.loads(json.dumps(state.to_json()))
    host = store.create_room(state, fill_bot=BOT)
    ana, ben = store.join(host.code, "Ana"), store.join(host.code, "Ben")
    store.start(host.code, host.secret)
    v0 = store.current_version(host.code)
    made = play_to_end(store, host.code, {0: ana.secret, 1: ben.secret}, host.secret,
                       random.Random(game))
    assert made > 3
    assert store.move_count(host.code) == made == store.current_version(host.code) - v0
    # The move log replayed on the initial state gives exactly the stored state.
    replay = GAMES[game].load(initial)
    log = store.moves(host.code)
    assert [v for v, _, _ in log] == list(range(v0 + 1, v0 + made + 1))
    for _, seat, action in log:
        if action == {"kind": "next-round"}:
            replay.next_round()
        else:
            round_of(replay).apply_action(action_from_json(action), seat)
    _, stored = store.load(host.code)
    assert replay.to_json() == stored.to_json()
    if game != "hit-me":
        assert store.room(host.code).status == "finished"
        with pytest.raises(NotPlaying, match="finished"):
            store.play(host.code, 0, ana.secret, Hit())


def test_refused_moves_change_nothing(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(flapjack(2, 3))
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    version, state, cur = current_of(store, host.code)
    other = 1 - cur
    before = raw_rows(rooms_url)
    with pytest.raises(NotYourTurn, match="not-your-turn"):
        store.play(host.code, other, seats[other].secret,
                   Play(state.hands[other][0]), expected_version=version)
    with pytest.raises(IllegalMove, match="illegal-move"):
        store.play(host.code, cur, seats[cur].secret, Hit(), expected_version=version)
    with pytest.raises(TableChanged, match="changed"):
        store.play(host.code, cur, seats[cur].secret, state.legal_actions(cur)[0],
                   expected_version=version - 1)
    with pytest.raises(NotAllowed):  # another student's secret for this seat
        store.play(host.code, cur, seats[other].secret, state.legal_actions(cur)[0])
    with pytest.raises(NotAllowed):  # the host does not play a student's seat
        store.play(host.code, cur, host.secret, state.legal_actions(cur)[0])
    with pytest.raises(NotAllowed):
        store.play(host.code, 5, seats[cur].secret, state.legal_actions(cur)[0])
    with pytest.raises(IllegalMove, match="other-game"):
        store.move(host.code, cur, seats[cur].secret, lambda s, p: hit_me_game(2))

    def boom(state: Any, seat: int) -> Any:
        state.apply_action(state.legal_actions(seat)[0], seat)
        raise RuntimeError("a bug after the state changed in memory")

    with pytest.raises(RuntimeError):
        store.move(host.code, cur, seats[cur].secret, boom)
    assert raw_rows(rooms_url) == before
    assert store.move_count(host.code) == 0
    store.play(host.code, cur, seats[cur].secret, state.legal_actions(cur)[0],
               expected_version=version)
    assert store.move_count(host.code) == 1


def test_a_forged_stored_state_is_refused(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(flapjack(2, 8))
    ana = store.join(host.code, "Ana")
    store.join(host.code, "Ben")
    _, state = store.load(host.code)
    data = state.to_json()
    data["hands"][0][0] = data["hands"][1][0]  # one card twice, one lost
    raw_execute(rooms_url, "UPDATE icg_rooms SET state = ? WHERE code = ?",
                (json.dumps(data), host.code))
    with pytest.raises(DamagedRoom, match="damaged"):
        store.load(host.code)
    version = store.current_version(host.code)
    with pytest.raises(DamagedRoom):
        store.play(host.code, 0, ana.secret, Play(state.hands[0][0]))
    assert store.current_version(host.code) == version and store.move_count(host.code) == 0


def test_joins_at_the_same_moment(rooms_url: str) -> None:
    """Six kernels (own connections, threads) join a room of six at once, three of them as
    'Ana' in other spellings: one Ana, four seats taken, the two other Anas told the name is
    taken."""
    store = open_store(rooms_url)
    host = store.create_room(hit_me_game(6))
    names = ["Ana", "ana", " ANA ", "Ben", "Cleo", "Dev"]
    stores = [open_store(rooms_url) for _ in names]
    barrier = threading.Barrier(len(names))
    got: dict[int, Any] = {}

    def join(i: int) -> None:
        barrier.wait(timeout=30)
        try:
            got[i] = stores[i].join(host.code, names[i])
        except (NameTaken, RoomFull, NotAllowed) as e:
            got[i] = e

    threads = [threading.Thread(target=join, args=(i,)) for i in range(len(names))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    tickets = [g for g in got.values() if not isinstance(g, Exception)]
    assert len(got) == 6 and len(tickets) == 4
    assert sorted(t.seat for t in tickets) == [0, 1, 2, 3]
    assert sum(t.name.casefold() == "ana" for t in tickets) == 1
    assert sum(isinstance(got[i], NameTaken) for i in range(3)) == 2
    info = store.room(host.code)
    assert info.status == "waiting"
    assert sorted(s.name for s in info.seats if s.name) == sorted(t.name for t in tickets)


# ----- presence --------------------------------------------------------------------------------
def test_absent_students_get_a_computer_player_and_come_back(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(hit_me_game(3), fill_bot=BOT)
    ana, ben, cleo = (store.join(host.code, n) for n in ("Ana", "Ben", "Cleo"))
    assert store.room(host.code).status == "playing"
    store.touch(host.code, 0, ana.secret)
    with pytest.raises(NotAllowed):
        store.touch(host.code, 0, ben.secret)
    time.sleep(0.3)
    store.touch(host.code, 1, ben.secret)
    store.touch(host.code, 2, cleo.secret)
    version = store.current_version(host.code)
    assert store.mark_absent(host.code, absent_after=0.2) == [0]
    assert store.mark_absent(host.code, absent_after=0.2) == []  # once
    info = store.room(host.code)
    assert info.version == version + 1
    assert info.seats[0].controller == "computer" and info.seats[0].away
    assert info.seats[0].bot == BOT and info.seats[0].name == "Ana"
    # While away, the computer plays the seat: a seated student's kernel (or the host's) may
    # move for it, Ana's own secret may not until she is back.
    _, state, cur = current_of(store, host.code)
    if cur == 0:
        with pytest.raises(NotAllowed):
            store.play(host.code, 0, ana.secret, Hold())
        store.play(host.code, 0, ben.secret, Hold())
    v = store.rejoin(host.code, 0, ana.secret)
    info = store.room(host.code)
    assert info.version == v and info.seats[0].controller == "human"
    # The host may hand a seat to the computer at once.
    with pytest.raises(NotAllowed):
        store.replace_seat(host.code, ana.secret, 1)
    store.replace_seat(host.code, host.secret, 1)
    assert store.room(host.code).seats[1].controller == "computer"
    store.rejoin(host.code, 1, ben.secret)
    assert store.room(host.code).seats[1].controller == "human"


def test_pause_resume_close(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(flapjack(2))
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    store.pause(host.code, host.secret)
    _, state, cur = current_of(store, host.code)
    with pytest.raises(NotPlaying, match="paused"):
        store.play(host.code, cur, seats[cur].secret, state.legal_actions(cur)[0])
    with pytest.raises(NotAllowed):
        store.resume(host.code, seats[0].secret)
    # one transaction serves the host and the class view: no value a page sends is taken for
    # the teacher (who needs no host secret)
    for forged in (None, "", 0, object()):
        with pytest.raises(NotAllowed, match="host"):
            store.resume(host.code, forged)
    assert store.room(host.code).status == "paused" and store.class_log(host.code) == []
    store.resume(host.code, host.secret)
    store.play(host.code, cur, seats[cur].secret, state.legal_actions(cur)[0])
    store.close_room(host.code, host.secret)
    assert store.room(host.code).status == "closed"


# ----- reading, polling, notification ----------------------------------------------------------
def test_version_poll_is_one_indexed_read(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(flapjack(2))
    if rooms_url.startswith("sqlite"):
        conn = sqlite3.connect(rooms_url[len("sqlite:///"):])
        plan = conn.execute("EXPLAIN QUERY PLAN SELECT version FROM icg_rooms WHERE code = ?",
                            (host.code,)).fetchall()
        conn.close()
        assert "USING INDEX" in repr(plan) or "PRIMARY KEY" in repr(plan), plan
    else:
        import psycopg

        with psycopg.connect(rooms_url) as conn:
            conn.execute("SET enable_seqscan = off")
            plan = conn.execute("EXPLAIN SELECT version FROM icg_rooms WHERE code = %s",
                                (host.code,)).fetchall()
        assert "Index" in repr(plan) and "icg_rooms_pkey" in repr(plan), plan
    assert store.current_version(host.code) == 1
    with pytest.raises(RoomNotFound):
        store.current_version("ZZZ-ZZZ")


@pytest.mark.parametrize("listen", [True, False])
def test_wait_for_change_wakes_on_a_move_from_another_kernel(rooms_url: str,
                                                             listen: bool) -> None:
    """On PostgreSQL by LISTEN/NOTIFY (listen=True) or by polling; on SQLite always polling."""
    store, other = open_store(rooms_url), open_store(rooms_url)
    host = store.create_room(flapjack(2))
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    version, state, cur = current_of(store, host.code)
    # Nothing changes: the wait ends at its timeout with the same version.
    assert store.wait_for_change(host.code, version, timeout=0.3, interval=0.05,
                                 listen=listen) == version

    def later() -> None:
        time.sleep(0.3)
        other.play(host.code, cur, seats[cur].secret, state.legal_actions(cur)[0])

    # The move comes while the wait runs: the wait returns its version (a wait that ended
    # before the move, or never saw it, returns the old one after its timeout).
    thread = threading.Thread(target=later)
    thread.start()
    got = store.wait_for_change(host.code, version, timeout=60, interval=0.05, listen=listen)
    thread.join()
    assert got == version + 1


# ----- faults, restart, expiry -----------------------------------------------------------------
def test_rooms_survive_a_restart(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(flapjack(2, 9))
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    version, state, cur = current_of(store, host.code)
    store.play(host.code, cur, seats[cur].secret, state.legal_actions(cur)[0])
    _, before = store.load(host.code)
    store.close()
    again = RoomStore(rooms_url)
    v, after = again.load(host.code)
    assert v == version + 1 and after.to_json() == before.to_json()
    assert again.rejoin(host.code, 0, seats[0].secret) == v
    store.current_version(host.code)  # a closed store opens its connection again


def test_a_locked_sqlite_store_gives_a_clear_error_and_loses_nothing(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    store = RoomStore(url, busy_timeout=0.2)
    host = store.create_room(flapjack(2, 4))
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    version, state, cur = current_of(store, host.code)
    action = state.legal_actions(cur)[0]
    blocker = sqlite3.connect(tmp_path / "rooms.sqlite3", isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreUnavailable, match="busy"):
        store.play(host.code, cur, seats[cur].secret, action, expected_version=version)
    blocker.execute("ROLLBACK")
    blocker.close()
    assert store.play(host.code, cur, seats[cur].secret, action,
                      expected_version=version) == version + 1
    assert store.move_count(host.code) == 1


def test_an_unreachable_store_gives_a_clear_error(tmp_path: Any) -> None:
    with pytest.raises(StoreUnavailable, match="unavailable"):
        RoomStore(f"sqlite:///{tmp_path / 'no-such-folder' / 'rooms.sqlite3'}")
    with pytest.raises(StoreUnavailable, match="unavailable"):
        RoomStore(f"postgresql:///x?host={tmp_path}&connect_timeout=2")


def test_postgresql_down_and_back(pg_cluster: Any) -> None:
    """The server stops in the middle of a game: a clear error, nothing lost; when it is back
    the same store object goes on."""
    url = pg_cluster.create_db(f"down_{id(pg_cluster) % 10000}")
    store = open_store(url)
    host = store.create_room(flapjack(2, 6))
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    version, state, cur = current_of(store, host.code)
    action = state.legal_actions(cur)[0]
    pg_cluster.stop()
    try:
        with pytest.raises(StoreUnavailable, match="unavailable"):
            store.play(host.code, cur, seats[cur].secret, action, expected_version=version)
        with pytest.raises(StoreUnavailable):
            store.current_version(host.code)
    finally:
        pg_cluster.start_again()
    assert store.current_version(host.code) == version
    assert store.play(host.code, cur, seats[cur].secret, action,
                      expected_version=version) == version + 1


def test_finished_and_abandoned_rooms_expire(rooms_url: str) -> None:
    store = open_store(rooms_url)
    done = store.create_room(flapjack(2))
    store.join(done.code, "Ana")
    store.join(done.code, "Ben")
    store.close_room(done.code, done.secret)
    waiting = store.create_room(flapjack(2))
    time.sleep(0.4)
    live = store.create_room(flapjack(2))
    assert store.expire(finished_after=0.2, abandoned_after=3600) == [done.code]
    with pytest.raises(RoomNotFound):
        store.room(done.code)
    assert store.room(waiting.code).status == "waiting"
    assert store.expire(finished_after=0.2, abandoned_after=0.3) == [waiting.code]
    assert [r.code for r in store.rooms()] == [live.code]
    remaining = repr(raw_rows(rooms_url))
    assert done.code not in remaining and waiting.code not in remaining


def test_the_rooms_package_imports_no_widgets() -> None:
    """Every module of rooms/ imported (and a name checked, which reads the catalogues): no
    ipywidgets and nothing of widgets/ is loaded."""
    import subprocess

    modules = sorted(f"rooms.{p.stem}" for p in (ROOT / "rooms").glob("*.py")
                     if p.stem != "__init__")
    assert {"rooms.store", "rooms.codes", "rooms.names", "rooms.listen"} <= set(modules)
    code = (f"import sys, rooms, {', '.join(modules)}; "
            "from rooms.codes import clean_name; clean_name('Ana'); "
            "print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('ipywidgets', 'widgets')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
    # the positive control: a widget module does load them
    out = subprocess.run([sys.executable, "-c", "import sys, widgets.together.class_view; "
                          "print('ipywidgets' in sys.modules)"], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "True"
