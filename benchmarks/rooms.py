"""A class plays together: 32 students in 8 rooms of 4 on one Voila server.

One Voila server on 127.0.0.1 with the project's configuration and a room store (an SQLite file
by default; with --store postgresql a throwaway PostgreSQL cluster from tests/pg_cluster.py,
when its binaries are there). Each student is a websocket client, not a browser: it loads the
join page as a browser does (Voila starts the kernel and runs the notebook), connects to the
kernel's websocket, asks for the widgets' state as the page's widget manager does, and from then
on keeps every widget model up to date from the kernel's messages. It types the room code and
its name, takes a seat, and whenever its page shows it is its turn (a move button enabled) it
waits a short human-like pause (--think, seconds) and clicks a move, exactly as the page sends a
click (a comm message to the button's model). The rooms are made and started through the store
by the teacher's side (the benchmark process), as the class view or a host would.

Measured:

* move-to-other-pages: from the moment a student's click is sent until each of the other three
  pages of the room has received the kernel's redraw (the first widget update after the click,
  from its own kernel, which learnt of the move by polling the store every 0.1 s on SQLite,
  or from a LISTEN/NOTIFY wake-up on PostgreSQL); p50, p95, max;
* lost and duplicated moves: the store's move log per seat against the clicks each student's
  page accepted (a click refused with "not your turn" / "the table changed" is not a move);
* idle kernel CPU: once every room has ended and every page is still open (the kernels keep
  polling the store: every 0.1 s on SQLite, every 2 s beside the listener on PostgreSQL),
  the CPU time of each student's kernel over --idle seconds, in percent of one core (mean and
  max).

Bounded: --students pages (at most 40), each game at most --moves moves per student, the whole
run at most --deadline seconds; loopback only; the server and its kernels stop at the end. The
last line printed:

    rooms (<store>): <moves> moves, lost 0, duplicated 0, p95 move-to-other-pages <ms> ms,
    idle kernel CPU <percent>% of a core        (one line)

    .venv/bin/python benchmarks/rooms.py                          # 32 students, SQLite
    .venv/bin/python benchmarks/rooms.py --students 8 --rooms 2   # a quick look
    .venv/bin/python benchmarks/rooms.py --store postgresql
    .venv/bin/python benchmarks/rooms.py --check-client           # the client against the
                                                                  # class view page only

`--check-client` needs no seat page: it opens the teacher's class view (lessons/class_view.ipynb)
as one websocket client, unlocks it with the teacher's key, makes moves through the store from
the benchmark process and measures move-to-class-view and the class view kernel's idle CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before benchmarks/ (its engine.py is not the engine)
sys.path.append(str(Path(__file__).resolve().parent))
from classroom import _msg, _voila_server  # noqa: E402

SEAT_PAGE = "play_together.ipynb"
CLASS_PAGE = "class_view.ipynb"
KEY = "BNCH-7KQM-4XRT"
# How the seat page (widgets/together/lobby.py) names its controls: descriptions, placeholders
# or tooltips, case-blind.
CODE_FIELD = re.compile(r"^Room code", re.I)
NAME_FIELD = re.compile(r"^Your name", re.I)  # the join box's and the open-a-table box's
JOIN_BUTTON = re.compile(r"^Join the table", re.I)
MOVE_BUTTON = re.compile(r"\b(ace|king|queen|jack|two|three|four|five|six|seven|eight|nine|ten) "
                         r"of (hearts|diamonds|clubs|spades)", re.I)
REFUSED = re.compile(r"not your turn|table changed|paused|not allowed", re.I)


# ----------------------------------------------------------------------------- the client
@dataclass
class Update:
    at: float
    model: str
    keys: tuple[str, ...]


class WidgetClient:
    """A page without a browser: the kernel websocket, the widget models, clicks and typing."""

    def __init__(self, base: str, name: str) -> None:
        self.base, self.name = base, name
        self.models: dict[str, dict[str, Any]] = {}
        self.updates: list[Update] = []
        self.changed = asyncio.Event()
        self.kernel_id = ""
        self.cookie = ""
        self.session = uuid.uuid4().hex
        self.ws: Any = None
        self.reader: asyncio.Task | None = None
        self.closed = False

    async def open(self, notebook: str, timeout: float) -> float:
        """Load the page and get every widget model's state; returns the seconds it took."""
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest
        from tornado.websocket import websocket_connect

        t0 = time.perf_counter()
        client = AsyncHTTPClient(force_instance=True)
        try:
            resp = await client.fetch(HTTPRequest(f"{self.base}voila/render/{notebook}",
                                                  request_timeout=timeout))
        finally:
            client.close()
        html = resp.body.decode("utf-8", "replace")
        m = re.search(r'"kernelId": "([0-9a-f-]{36})"', html)
        if not m:
            raise RuntimeError(f"{self.name}: no kernel id in the page")
        if "There was an error when executing cell" in html:
            raise RuntimeError(f"{self.name}: error text in the page")
        self.kernel_id = m.group(1)
        for c in resp.headers.get_list("Set-Cookie"):
            if c.startswith("_xsrf="):
                self.cookie = c.split(";", 1)[0]
        ws_base = self.base.rstrip("/").replace("http://", "ws://")
        self.ws = await asyncio.wait_for(websocket_connect(
            f"{ws_base}/api/kernels/{self.kernel_id}/channels?session_id={self.session}",
            max_message_size=64 * 1024 * 1024), timeout)
        control = uuid.uuid4().hex
        self._send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                 "data": {}}, {"version": "1.0.0"})
        self._send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        while True:
            raw = await asyncio.wait_for(self.ws.read_message(), timeout)
            if raw is None:
                raise RuntimeError(f"{self.name}: the kernel websocket closed")
            msg = json.loads(raw) if isinstance(raw, str) else {}
            content = msg.get("content", {})
            if msg.get("msg_type") == "comm_msg" and content.get("comm_id") == control \
                    and content.get("data", {}).get("method") == "update_states":
                for mid, st in content["data"]["states"].items():
                    self.models[mid] = dict(st.get("state", {}),
                                            _model_name=st.get("model_name"))
                break
        self.reader = asyncio.create_task(self._read())
        return time.perf_counter() - t0

    def _send(self, msg_type: str, content: dict[str, Any],
              metadata: dict[str, Any] | None = None) -> None:
        msg = _msg(self.session, msg_type, content, metadata)
        self.ws.write_message(json.dumps(msg))

    async def _read(self) -> None:
        while not self.closed:
            raw = await self.ws.read_message()
            if raw is None:
                return
            if not isinstance(raw, str):
                continue  # binary frames: buffers (none of ours)
            msg = json.loads(raw)
            now = time.perf_counter()
            kind, content = msg.get("msg_type"), msg.get("content", {})
            if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
                data = content.get("data", {})
                self.models[content["comm_id"]] = dict(
                    data.get("state", {}), _model_name=data.get("state", {}).get("_model_name"))
                self.updates.append(Update(now, content["comm_id"], ("open",)))
                self.changed.set()
            elif kind == "comm_msg":
                data = content.get("data", {})
                if data.get("method") == "update" and content.get("comm_id") in self.models:
                    self.models[content["comm_id"]].update(data.get("state", {}))
                    self.updates.append(Update(now, content["comm_id"],
                                               tuple(data.get("state", {}))))
                    self.changed.set()
            elif kind == "comm_close":
                self.models.pop(content.get("comm_id"), None)

    # ----- reading and acting on the page -----------------------------------------------
    def find(self, pattern: re.Pattern[str], model: str | None = None,
             enabled: bool | None = None) -> list[str]:
        out = []
        for mid, st in self.models.items():
            if model and st.get("_model_name") != model:
                continue
            label = " ".join(str(st.get(k) or "") for k in ("description", "placeholder",
                                                           "tooltip"))
            if not pattern.search(label):
                continue
            if enabled is not None and bool(st.get("disabled")) == enabled:
                continue
            out.append(mid)
        return out

    def text(self) -> str:
        return " ".join(str(st.get("value")) for st in self.models.values()
                        if st.get("_model_name") == "HTMLModel")

    def type(self, mid: str, value: str) -> None:
        self.models[mid]["value"] = value
        self._send("comm_msg", {"comm_id": mid, "data": {
            "method": "update", "state": {"value": value}, "buffer_paths": []}})

    def click(self, mid: str) -> float:
        t = time.perf_counter()
        self._send("comm_msg", {"comm_id": mid, "data": {
            "method": "custom", "content": {"event": "click"}}})
        return t

    async def wait_for(self, test: Callable[[], Any], timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            got = test()
            if got:
                return got
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
            except asyncio.TimeoutError:
                pass

    def first_update_after(self, t: float) -> float | None:
        return next((u.at for u in self.updates if u.at > t), None)

    async def close(self) -> None:
        """Close the page as a browser tab does: the Voila shutdown request with the cookie."""
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        self.closed = True
        if self.ws is not None:
            self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        client = AsyncHTTPClient(force_instance=True)
        token = self.cookie.split("=", 1)[1] if self.cookie else ""
        try:
            await client.fetch(HTTPRequest(
                f"{self.base}voila/api/shutdown/{self.kernel_id}", method="POST",
                body=f"_xsrf={token}", headers={"Cookie": self.cookie} if self.cookie else {},
                request_timeout=30), raise_error=False)
        except Exception:  # noqa: BLE001 - counted by the kernels left
            pass
        finally:
            client.close()


# ----------------------------------------------------------------------------- the run
@dataclass
class Run:
    store: str
    students: int = 0
    seated: int = 0
    moves_clicked: dict[tuple[str, int], int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)  # seconds
    failures: list[str] = field(default_factory=list)
    idle_cpu: list[float] = field(default_factory=list)  # percent of a core per kernel
    load_times: list[float] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    logged_moves: int = 0

    def pct(self, q: float) -> float:
        xs = sorted(self.latencies)
        if not xs:
            return float("nan")
        k = (len(xs) - 1) * q
        lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def kernel_of(server: Any, kernel_id: str) -> psutil.Process | None:
    for k in _voila_server().kernel_processes(server.pid):
        try:
            if kernel_id in " ".join(k.cmdline()):
                return k
        except psutil.Error:
            pass
    return None


async def idle_cpu(server: Any, kernel_ids: list[str], seconds: float) -> list[float]:
    """Percent of one core each kernel used over `seconds` while nobody clicks."""
    procs = [p for p in (kernel_of(server, k) for k in kernel_ids) if p is not None]
    before = {}
    for p in procs:
        try:
            t = p.cpu_times()
            before[p.pid] = t.user + t.system
        except psutil.Error:
            pass
    t0 = time.monotonic()
    await asyncio.sleep(seconds)
    wall = time.monotonic() - t0
    out = []
    for p in procs:
        try:
            t = p.cpu_times()
            out.append(100.0 * (t.user + t.system - before[p.pid]) / wall)
        except (psutil.Error, KeyError):
            pass
    return out


async def student(base: str, name: str, code: str, run: Run, rng: random.Random,
                  args: argparse.Namespace, room_pages: list[WidgetClient],
                  done: asyncio.Event, store: Any) -> WidgetClient | None:
    """One student: open the seat page, take a seat in `code`, move on every turn."""
    page = WidgetClient(base, name)
    try:
        run.load_times.append(await page.open(SEAT_PAGE, args.timeout))
        room_pages.append(page)
        code_box = page.find(CODE_FIELD, "TextModel")
        name_boxes = page.find(NAME_FIELD, "TextModel")
        join = page.find(JOIN_BUTTON, "ButtonModel")
        if not (code_box and name_boxes and join):
            raise RuntimeError(f"{name}: no code box, name box and join button on the seat page")
        page.type(code_box[0], code)
        for box in name_boxes:
            page.type(box, name)
        await asyncio.sleep(0.3)  # a person types, then clicks
        page.click(join[0])
        seated = await page.wait_for(lambda: f"You are {name}," in page.text(), args.timeout)
        if not seated:
            raise RuntimeError(f"{name}: not seated within {args.timeout:.0f} s "
                               f"({page.text()[-200:]!r})")
        seat = int(re.search(rf"You are {name}, seat (\d+)", page.text()).group(1)) - 1
        run.seated += 1
        made = 0

        def my_turn() -> Any:
            """The page shows a playable card and the store says it is this seat's turn (the
            benchmark reads the turn from the store only to know when a person would look)."""
            if done.is_set():
                return "stop"
            info = store.room(code)
            if info.status in ("finished", "closed"):
                return "stop"
            buttons = page.find(MOVE_BUTTON, "ButtonModel", enabled=True)
            return buttons if buttons and info.status == "playing" and info.turn == seat \
                else None

        while not done.is_set() and made < args.moves:
            buttons = await page.wait_for(my_turn, args.timeout)
            if buttons is None:
                raise RuntimeError(f"{name}: no turn within {args.timeout:.0f} s")
            if buttons == "stop":
                break
            await asyncio.sleep(rng.uniform(*args.think))
            buttons = page.find(MOVE_BUTTON, "ButtonModel", enabled=True)
            if not buttons:
                continue
            before_text = page.text()
            t = page.click(rng.choice(buttons))
            # the click's own redraw: the move made, or a refusal message
            await page.wait_for(lambda t=t: page.first_update_after(t), args.timeout)
            await asyncio.sleep(0.05)
            if REFUSED.search(page.text()) and not REFUSED.search(before_text):
                continue
            made += 1
            run.moves_clicked[(code, name)] = run.moves_clicked.get((code, name), 0) + 1
            others = [p for p in room_pages if p is not page]
            asyncio.create_task(_latency(others, t, run, args.timeout))
        return page
    except Exception as e:  # noqa: BLE001 - a failure to report, not to crash the class
        run.failures.append(f"{name}: {type(e).__name__}: {str(e)[:160]}")
        return page


async def _latency(others: list[WidgetClient], t: float, run: Run, timeout: float) -> None:
    for p in others:
        got = await p.wait_for(lambda p=p: p.first_update_after(t), timeout)
        if got:
            run.latencies.append(got - t)


async def main_async(args: argparse.Namespace, url: str) -> Run:
    from rooms import open_store
    from rooms.classroom import TEACHER_SEAT

    run = Run(args.store, students=args.students)
    vs = _voila_server()
    env = {"ICG_ROOMS_URL": url, "ICG_TEACHER_KEY": KEY,
           "ICG_TEACHER_KEY_FILE": "/nonexistent/teacher_key"}
    base, server = vs.start_voila(ROOT / "lessons", env=env, timeout=120,
                                  extra_args=["--VoilaConfiguration.preheat_kernel=False"])
    store = open_store(url)
    pages: list[WidgetClient] = []
    try:
        if args.check_client:
            await check_client(base, server, store, run, args)
            return run
        from engine.flapjack import FlapjackConfig, FlapjackState

        per_room = 4
        rooms = []
        for r in range(args.rooms):  # Flapjack, classic: a click on a card plays it
            host = store.create_room(
                FlapjackState.deal(FlapjackConfig(players=per_room, decks=1), rng=1000 + r),
                settings={"variant": "classic"})
            rooms.append(host)
        done = asyncio.Event()
        rng = random.Random(7)
        room_pages: list[list[WidgetClient]] = [[] for _ in rooms]
        tasks = []
        for i in range(args.students):
            r = i % len(rooms)
            tasks.append(asyncio.create_task(student(
                base, f"Student {i + 1}", rooms[r].shown, run, random.Random(rng.random()),
                args, room_pages[r], done, store)))
            await asyncio.sleep(args.arrive)  # students arrive one after another
        deadline = time.monotonic() + args.deadline
        while time.monotonic() < deadline and not all(t.done() for t in tasks):
            await asyncio.sleep(1)
        done.set()
        pages = [p for p in await asyncio.gather(*tasks) if p is not None]
        await asyncio.sleep(1.0)
        run.idle_cpu = await idle_cpu(server, [p.kernel_id for p in pages], args.idle)
        # the store's log against the accepted clicks
        for host in rooms:
            info = store.room(host.code)
            names = {s.seat: s.name for s in info.seats}
            logged: dict[str, int] = {}
            for _v, seat, _a in store.moves(host.code):
                if seat != TEACHER_SEAT and names.get(seat):
                    logged[names[seat]] = logged.get(names[seat], 0) + 1
            run.logged_moves += sum(logged.values())
            for (code, name), clicked in run.moves_clicked.items():
                if code != host.shown:
                    continue
                got = logged.get(name, 0)
                run.lost += max(0, clicked - got)
                run.duplicated += max(0, got - clicked)
    finally:
        for p in pages:
            await p.close()
        store.close()
        vs.stop_voila(server)
    return run


async def check_client(base: str, server: Any, store: Any, run: Run,
                       args: argparse.Namespace) -> None:
    """The client against the class view: unlock it, move through the store, time the redraw."""
    from engine.flapjack import FlapjackConfig, FlapjackState

    host = store.create_room(FlapjackState.deal(FlapjackConfig(players=2), rng=3))
    seats = {t.seat: t for t in (store.join(host.code, "Ana"), store.join(host.code, "Ben"))}
    page = WidgetClient(base, "teacher")
    run.load_times.append(await page.open(CLASS_PAGE, args.timeout))
    page.type(page.find(re.compile("key", re.I), "PasswordModel")[0], KEY)
    await asyncio.sleep(0.3)
    page.click(page.find(re.compile("Unlock", re.I), "ButtonModel")[0])
    if not await page.wait_for(lambda: host.code in page.text(), args.timeout):
        raise RuntimeError("the class view did not show the room")
    rng = random.Random(3)
    for _ in range(args.moves):
        await asyncio.sleep(rng.uniform(*args.think))
        version, state = store.load(host.code)
        if state.is_over:
            break
        cur = state.current
        t = time.perf_counter()
        store.play(host.code, cur, seats[cur].secret, rng.choice(state.legal_actions(cur)),
                   expected_version=version)
        got = await page.wait_for(lambda t=t: page.first_update_after(t), args.timeout)
        if got:
            run.latencies.append(got - t)
        else:
            run.failures.append("a move did not reach the class view")
        run.moves_clicked[(host.shown, "store")] = run.moves_clicked.get(
            (host.shown, "store"), 0) + 1
    run.logged_moves = store.move_count(host.code)
    run.lost = max(0, sum(run.moves_clicked.values()) - run.logged_moves)
    run.duplicated = max(0, run.logged_moves - sum(run.moves_clicked.values()))
    run.students = run.seated = 1
    await asyncio.sleep(1.0)
    run.idle_cpu = await idle_cpu(server, [page.kernel_id], args.idle)
    await page.close()


def pg_url() -> tuple[str, Any] | None:
    """A throwaway PostgreSQL cluster (tests/pg_cluster.py), or None without its binaries."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from pg_cluster import throwaway_database
    finally:
        sys.path.pop(0)
    return throwaway_database("rooms_bench")


def report(run: Run, args: argparse.Namespace, wall: float) -> str:
    lat = [x * 1000 for x in run.latencies]
    lines = [
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end; "
        f"{run.students} students, {run.seated} seated, run {wall:.0f} s",
        f"page ready: median {statistics.median(run.load_times):.1f} s" if run.load_times
        else "page ready: none",
        f"move-to-other-pages: {len(lat)} deliveries, median "
        f"{statistics.median(lat) if lat else float('nan'):.0f} ms, p95 {run.pct(0.95) * 1000:.0f}"
        f" ms, max {max(lat, default=float('nan')):.0f} ms",
        f"idle kernel CPU over {args.idle:.0f} s: mean "
        f"{statistics.mean(run.idle_cpu) if run.idle_cpu else float('nan'):.2f}%, max "
        f"{max(run.idle_cpu, default=float('nan')):.2f}% of a core ({len(run.idle_cpu)} kernels)",
    ]
    lines += [f"failure: {f}" for f in run.failures[:10]]
    what = "move-to-class-view" if args.check_client else "move-to-other-pages"
    lines.append(
        f"rooms ({run.store}): {run.logged_moves} moves, lost {run.lost}, duplicated "
        f"{run.duplicated}, p95 {what} {run.pct(0.95) * 1000:.0f} ms, idle kernel CPU "
        f"{max(run.idle_cpu, default=float('nan')):.2f}% of a core")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=32)
    ap.add_argument("--rooms", type=int, default=8)
    ap.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--moves", type=int, default=40,
                    help="moves per student at most (a student stops when the game ends)")
    ap.add_argument("--think", type=float, nargs=2, default=(0.8, 2.0),
                    help="a student's pause before a move: from, to (seconds)")
    ap.add_argument("--arrive", type=float, default=0.7, help="seconds between arrivals")
    ap.add_argument("--idle", type=float, default=15.0, help="seconds of idle CPU measure")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--deadline", type=float, default=600.0)
    ap.add_argument("--check-client", action="store_true",
                    help="only the class view page (no seat page needed)")
    args = ap.parse_args(argv)
    if not 1 <= args.students <= 40 or not 1 <= args.rooms <= 10:
        ap.error("--students 1..40, --rooms 1..10")
    if not args.check_client and not (ROOT / "lessons" / SEAT_PAGE).exists():
        print(f"rooms: the seat page lessons/{SEAT_PAGE} is not there yet (use "
              "--check-client)", file=sys.stderr)
        return 2
    cluster = None
    if args.store == "postgresql":
        got = pg_url()
        if got is None:
            print("rooms: no PostgreSQL binaries (apt-get install postgresql)", file=sys.stderr)
            return 2
        url, cluster = got
    else:
        url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='rooms-bench-')) / 'rooms.sqlite3'}"
    t0 = time.monotonic()
    try:
        run = asyncio.run(main_async(args, url))
    finally:
        if cluster is not None:
            cluster.cleanup()
    print(report(run, args, time.monotonic() - t0))
    return 0 if not run.failures and run.lost == 0 and run.duplicated == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
