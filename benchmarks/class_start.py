"""The morning of a live class: the teacher picks today's lesson, 30 students open it, the
teacher pauses the class.

One Voila server on 127.0.0.1 with the project's configuration (preheat on, every pool empty
at start: no lesson is pooled until the teacher chooses one) and a room store of its own
(SQLite in a temporary folder, $ICG_ROOMS_URL). Then:

1. the teacher chooses lesson 3 (Hit Me) for a class of N (rooms.live_class: what the class
   page's "Get today's lesson ready" does); the server's TodaysLesson sizes its pool
   (serving/todays_lesson.py); we wait until the pool's kernels have run the lesson;
2. N students open the lesson at the same moment, each a websocket client as in
   benchmarks/classroom.py: the page is loaded, the kernel's websocket connected, the
   widgets' states asked for; ready = every model arrived and a button among them;
3. with every page open, the teacher pauses the class; each page's time is until its
   kernel sends the cover's update ("Eyes on the teacher") over its websocket;
4. the teacher resumes, the pages close.

Failures: a page not ready within --timeout, a page that never shows the pause within
--pause-timeout. The last line is
`live class: N students, today's lesson p95 X s, pause reaches all in Y s, failures F`.

    .venv/bin/python benchmarks/class_start.py               # 30 students
    .venv/bin/python benchmarks/class_start.py --students 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))  # before benchmarks/: its rooms.py is not the rooms package

import classroom as cr  # noqa: E402  (benchmarks/classroom.py: server, kernels, messages)

LESSON = ROOT / "lessons" / "03_hit_me.ipynb"
OTHER = ROOT / "lessons" / "02_absolute_value.ipynb"  # a lesson not chosen
COVER = "Eyes on the teacher"


class Page:
    """One student's open page: its kernel's websocket, kept open after it was ready."""

    def __init__(self) -> None:
        self.ready: float | None = None
        self.paused_at: float | None = None
        self.failure = ""
        self.kernel_id = ""
        self.cookie = ""
        self.ws: Any = None


async def open_page(url: str, timeout_s: float, go: asyncio.Event, page: Page) -> None:
    """Load the page, connect to its kernel, ask for the widgets' states (as
    benchmarks/classroom.py's student_ws does); the websocket stays open."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    await go.wait()
    t0 = time.perf_counter()
    client = AsyncHTTPClient(force_instance=True)
    try:
        resp = await client.fetch(HTTPRequest(url, request_timeout=timeout_s))
        text = resp.body.decode("utf-8", "replace")
        m = re.search(r'"kernelId": "([0-9a-f-]{36})"', text)
        if not m:
            raise RuntimeError("no kernel id in the page")
        page.kernel_id = m.group(1)
        for c in resp.headers.get_list("Set-Cookie"):
            if c.startswith("_xsrf="):
                page.cookie = c.split(";", 1)[0]
        if "There was an error when executing cell" in text:
            raise RuntimeError("error text in the page")
        session = uuid.uuid4().hex
        base = url.split("/voila/")[0].replace("http://", "ws://")
        left = max(1.0, timeout_s - (time.perf_counter() - t0))
        page.ws = await asyncio.wait_for(websocket_connect(
            f"{base}/api/kernels/{page.kernel_id}/channels?session_id={session}"), left)
        comm_id = uuid.uuid4().hex
        page.ws.write_message(json.dumps(cr._msg(session, "comm_open", {
            "comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            {"version": "1.0.0"})))
        page.ws.write_message(json.dumps(cr._msg(session, "comm_msg", {
            "comm_id": comm_id, "data": {"method": "request_states"}})))
        while True:
            left = max(1.0, timeout_s - (time.perf_counter() - t0))
            raw = await asyncio.wait_for(page.ws.read_message(), left)
            if raw is None:
                raise RuntimeError("the kernel websocket closed")
            msg = json.loads(raw) if isinstance(raw, str) else {}
            content = msg.get("content", {})
            if msg.get("msg_type") == "comm_msg" and content.get("comm_id") == comm_id \
                    and content.get("data", {}).get("method") == "update_states":
                states = content["data"]["states"]
                break
        names = [st.get("model_name") for st in states.values()]
        if "ButtonModel" not in names:
            raise RuntimeError(f"no button among {len(states)} widget models")
        if not any("icg-live-screen" in json.dumps(st) for st in states.values()):
            raise RuntimeError("the page has no live-class cover")
        page.ready = time.perf_counter() - t0
    except Exception as e:  # noqa: BLE001 - reported as a failure
        page.failure = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
    finally:
        client.close()


async def wait_pause(page: Page, t_pause: float, timeout_s: float) -> None:
    """Read the page's websocket until its kernel sends the cover's "Eyes on the teacher"."""
    try:
        while True:
            left = timeout_s - (time.perf_counter() - t_pause)
            if left <= 0:
                raise TimeoutError("the pause did not reach the page")
            raw = await asyncio.wait_for(page.ws.read_message(), left)
            if raw is None:
                raise RuntimeError("the kernel websocket closed")
            if isinstance(raw, str) and COVER in raw and '"comm_msg"' in raw:
                page.paused_at = time.perf_counter() - t_pause
                return
    except Exception as e:  # noqa: BLE001 - reported as a failure
        page.failure = page.failure or f"pause: {type(e).__name__}: {e}"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


async def run(args: argparse.Namespace) -> tuple[list[Page], float]:
    from rooms.live_class import open_live_class

    work = Path(tempfile.mkdtemp(prefix="class-start-"))
    folder = work / "lessons"
    folder.mkdir()
    shutil.copy(LESSON, folder / LESSON.name)
    shutil.copy(OTHER, folder / OTHER.name)
    url_store = f"sqlite:///{work / 'rooms.sqlite3'}"
    os.environ["ICG_ROOMS_URL"] = url_store
    os.environ["ICG_CHART_CACHE"] = str(work / "charts")
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "rooms", "widgets",
                    "serving"],
                   cwd=ROOT, check=True)
    teacher = open_live_class(url_store)
    url, server, stop = cr.start_server(folder, [
        '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}}',
        f"--ClassroomKernelManager.max_kernels={args.students + 10}"])
    pages = [Page() for _ in range(args.students)]
    try:
        t0 = time.monotonic()
        teacher.set_lesson(3, class_size=args.students)  # "Get today's lesson ready"
        ready_in = await asyncio.to_thread(cr.wait_pool_ready, server, args.students,
                                           args.timeout * 4)
        print(f"  today's lesson ready: {args.students} kernels after {ready_in:.0f} s "
              f"(chosen {time.monotonic() - t0:.0f} s ago; pool_ready="
              f"{teacher.state().pool_ready})", file=sys.stderr)
        go = asyncio.Event()
        lesson_url = f"{url}voila/render/{LESSON.name}"
        tasks = [asyncio.create_task(open_page(lesson_url, args.timeout, go, p))
                 for p in pages]
        await asyncio.sleep(0.5)
        go.set()
        await asyncio.gather(*tasks)
        await asyncio.sleep(2.0)  # the pages' first polls of the live class
        t_pause = time.perf_counter()
        teacher.pause()
        await asyncio.gather(*(wait_pause(p, t_pause, args.pause_timeout) for p in pages
                               if p.ws is not None and not p.failure))
        teacher.resume()
        for p in pages:
            if p.ws is not None:
                p.ws.close()
        await cr.shutdown_ws(lesson_url, [(p.kernel_id, p.cookie) for p in pages
                                          if p.kernel_id])
        return pages, ready_in
    finally:
        teacher.set_lesson(None)
        stop(server)
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a page may take")
    ap.add_argument("--pause-timeout", type=float, default=10.0,
                    help="seconds the pause may take to reach a page")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    pages, _ready_in = asyncio.run(run(args))
    ready = [p.ready for p in pages if p.ready is not None]
    paused = [p.paused_at for p in pages if p.paused_at is not None]
    failures = [p.failure for p in pages if p.failure]
    print(f"  load average before: {load:.1f}; pages ready {len(ready)}/{len(pages)}, "
          f"median {pct(ready, 0.5):.2f} s, p95 {pct(ready, 0.95):.2f} s; pause reached "
          f"{len(paused)}/{len(pages)}, median {pct(paused, 0.5):.2f} s, max "
          f"{max(paused) if paused else float('nan'):.2f} s", file=sys.stderr)
    for f in sorted(set(failures)):
        print(f"  failure: {f} (x{failures.count(f)})", file=sys.stderr)
    all_paused = max(paused) if len(paused) == len(pages) else float("nan")
    print(f"live class: {len(pages)} students, today's lesson p95 {pct(ready, 0.95):.2f} s, "
          f"pause reaches all in {all_paused:.2f} s, failures {len(failures)}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
