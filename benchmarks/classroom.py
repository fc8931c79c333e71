"""A class opens a lesson at once: N students (default 30) load the same Voila page together.

By default (class start) one run measures the lesson served two ways, each by its own Voila
server on 127.0.0.1 with the project's configuration:

* pooled: the lesson's pool of preheated kernels holds N kernels (ClassroomKernelManager's
  pool_lesson/pool_lesson_size, as `make serve POOL_LESSON=... POOL=N` sets them); the wave
  starts once the pool is full and its notebooks have run, as when a teacher starts the server
  before the class;
* on demand: `preheat_kernel` off, each page starts its kernel and runs the notebook when it is
  asked for (the project's serving before pools; one warm-up student first).

The last line printed is `class start: <n>/<n> interactive, p95 <s> s pooled, <s> s on demand,
failures <f>` (the pooled wave's interactive pages, both waves' failures).

With --compare-bare, the earlier comparison instead: one on-demand server serves a lesson and
the bare one-button notebook (tests/fixtures/one_button.ipynb), first on the bare notebook,
then on the lesson (the order alternates when --repeat > 1).

Each student is a websocket client (default) or a page in one headless Chromium (Debian's,
through Playwright), each in its own browser context, all at the same moment. For each wave:

* time until the widgets are interactive: from navigation start until Voila's spinner is gone
  and a widget button is visible and enabled (its model arrived from the kernel); median, p95;
* failures (a page that errors or is not interactive within --timeout);
* memory: RSS (and USS) of every kernel process, the Voila server, and the total;
* how long the kernels take to be freed after every tab closes.

Bounded: N pages per wave, --repeat waves per notebook, each page limited by --timeout and the
whole run by --deadline; it stops by itself. Loopback only. Browser and server share the
machine's cores, so the times include the students' own browser work.

    .venv/bin/python benchmarks/classroom.py                    # 30 students,
                                                                # lessons/03_hit_me.ipynb,
                                                                # pooled and on demand
    .venv/bin/python benchmarks/classroom.py --compare-bare     # on demand: lesson vs bare
    .venv/bin/python benchmarks/classroom.py --students 10 --lesson lessons/05_flapjack.ipynb
    .venv/bin/python benchmarks/classroom.py --compare-bare --lesson lessons/es/03_hit_me.ipynb
                                                                # a Spanish lesson vs bare
    .venv/bin/python benchmarks/classroom.py --write-docs       # also update docs/measurements.md
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    # Every student looks at their own page: no background-tab throttling (it pauses the
    # animation frames that widget views update in, so a page in the background never shows a
    # button becoming enabled).
    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
LOOPBACK = ("http://127.0.0.1", "ws://127.0.0.1", "http://localhost", "ws://localhost")
DOCS = ROOT / "docs" / "measurements.md"
BEGIN, END = "<!-- classroom:begin -->", "<!-- classroom:end -->"  # --compare-bare
CLASS_BEGIN, CLASS_END = "<!-- class-start:begin -->", "<!-- class-start:end -->"
MiB = 1024 * 1024


@dataclass
class Wave:
    """What one wave of simultaneous students measured."""

    notebook: str
    students: int
    times: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    kernel_rss: list[int] = field(default_factory=list)
    kernel_uss: list[int] = field(default_factory=list)
    server_rss: int = 0
    browser_rss: int = 0
    wall: float = 0.0
    freed_after: float | None = None
    kernels_left: int = 0
    load_before: float = 0.0  # 1-minute load average when the wave started (other work)

    def pct(self, q: float) -> float:
        xs = sorted(self.times)
        if not xs:
            return float("nan")
        k = (len(xs) - 1) * q
        lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

    @property
    def median(self) -> float:
        return statistics.median(self.times) if self.times else float("nan")


# ----------------------------------------------------------------------------- server
def _voila_server() -> Any:
    """tests/voila_server.py: Voila with the project's configuration, and its kernels."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import voila_server
    finally:
        sys.path.pop(0)
    return voila_server


ON_DEMAND = ["--VoilaConfiguration.preheat_kernel=False"]


def pooled_args(lesson: Path, size: int) -> list[str]:
    """The lesson's pool holds `size` kernels, every other notebook's none."""
    return [f"--ClassroomKernelManager.pool_lesson={lesson.stem}",
            f"--ClassroomKernelManager.pool_lesson_size={size}",
            '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}}']


def start_server(folder: Path, extra_args: list[str] | None = None
                 ) -> tuple[str, subprocess.Popen, Any]:
    """Voila with the project's configuration, on a free port."""
    vs = _voila_server()
    url, proc = vs.start_voila(folder, extra_args=extra_args or [], timeout=120)
    return url, proc, vs.stop_voila


def wait_pool_ready(server: subprocess.Popen, size: int, seconds: float) -> float:
    """Wait until `size` kernels run and have gone quiet (their notebooks have run)."""
    t0 = time.monotonic()
    while len(kernels(server)) < size:
        if time.monotonic() - t0 > seconds:
            raise RuntimeError(f"the pool did not fill: {len(kernels(server))}/{size} kernels")
        time.sleep(0.5)
    while time.monotonic() - t0 < seconds:
        procs = kernels(server)
        for k in procs:
            try:
                k.cpu_percent(interval=None)
            except psutil.Error:
                pass
        time.sleep(1.0)
        busy = 0.0
        for k in procs:
            try:
                busy += k.cpu_percent(interval=None)
            except psutil.Error:
                pass
        if busy < 15:  # percent of one core, all kernels together
            break
    return time.monotonic() - t0


def kernels(server: subprocess.Popen) -> list[psutil.Process]:
    """The kernel processes started by this server."""
    return _voila_server().kernel_processes(server.pid)


def rss_tree(pid: int) -> int:
    """RSS of a process and all its descendants."""
    try:
        p = psutil.Process(pid)
        procs = [p, *p.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for q in procs:
        try:
            total += q.memory_info().rss
        except psutil.Error:
            pass
    return total


# ----------------------------------------------------------------------------- students
async def student(browser: Any, url: str, timeout_s: float, start: asyncio.Event,
                  wave: Wave) -> Any:
    """One student: a fresh context, opens the page when told, waits until it is usable."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))

    async def route(r: Any) -> None:
        if r.request.url.startswith((*LOOPBACK, "data:", "blob:")):
            await r.continue_()
        else:
            errors.append(f"request left the machine: {r.request.url}")
            await r.abort()

    await page.route("**/*", route)
    docs: list[Any] = []
    page.on("response", lambda r: docs.append(r) if r.request.resource_type == "document"
            else None)
    await start.wait()
    t0 = time.perf_counter()
    try:
        await page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        left = max(1.0, timeout_s - (time.perf_counter() - t0)) * 1000
        await page.wait_for_function(
            "() => { const l = document.getElementById('loading');"
            " return !l || l.style.display === 'none' || l.offsetParent === null; }",
            timeout=left, polling=50,
        )
        # Every widget view the notebook displays is rendered (counted in the served HTML),
        # and a button is enabled: its model came from the kernel over the websocket.
        wanted = (await docs[-1].text()).count('"application/vnd.jupyter.widget-view+json"') \
            if docs else 1
        left = max(1.0, timeout_s - (time.perf_counter() - t0)) * 1000
        await page.wait_for_function(
            "n => [...document.querySelectorAll('.jupyter-widgets')].filter(e =>"
            " !e.parentElement.closest('.jupyter-widgets') && e.offsetParent !== null).length"
            " >= n", arg=wanted, timeout=left, polling=50)
        left = max(1.0, timeout_s - (time.perf_counter() - t0)) * 1000
        await page.locator(".widget-button:not([disabled]):visible").first.wait_for(
            state="visible", timeout=left)
        elapsed = time.perf_counter() - t0
        body = await page.inner_text("body")
        if "There was an error when executing cell" in body or "Traceback" in body:
            errors.append("error text in the page")
        if errors:
            wave.failures.append("; ".join(errors))
        else:
            wave.times.append(elapsed)
    except Exception as e:  # noqa: BLE001 - a timeout or crash is a failure to report
        wave.failures.append(f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")
    return ctx


def _msg(session: str, msg_type: str, content: dict[str, Any],
         metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """A kernel message in jupyter_server's JSON websocket form."""
    return {
        "header": {"msg_id": uuid.uuid4().hex, "username": "student", "session": session,
                   "msg_type": msg_type, "version": "5.3",
                   "date": datetime.now(timezone.utc).isoformat()},
        "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell",
        "buffers": [],
    }


async def student_ws(url: str, timeout_s: float, start: asyncio.Event, wave: Wave) -> Any:
    """One student without a browser: load the page as a browser does (Voila starts the kernel
    and runs the notebook while it streams the HTML), then connect to the kernel's websocket and
    ask for the widgets' state the way the page's widget manager does (a comm to
    'jupyter.widget.control', 'request_states'). Interactive = every widget model's state has
    arrived and there is a button among them. Returns (kernel id, xsrf cookie) for shutdown."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    await start.wait()
    t0 = time.perf_counter()
    client = AsyncHTTPClient(force_instance=True)
    try:
        resp = await client.fetch(HTTPRequest(url, request_timeout=timeout_s))
        html = resp.body.decode("utf-8", "replace")
        m = re.search(r'"kernelId": "([0-9a-f-]{36})"', html)
        if not m:
            raise RuntimeError("no kernel id in the page")
        kernel_id = m.group(1)
        cookie = ""
        for c in resp.headers.get_list("Set-Cookie"):
            if c.startswith("_xsrf="):
                cookie = c.split(";", 1)[0]
        if "There was an error when executing cell" in html:
            raise RuntimeError("error text in the page")
        expected = html.count('"application/vnd.jupyter.widget-view+json"')
        if not expected:  # a page without widgets (the landing page) is usable once served
            wave.times.append(time.perf_counter() - t0)
            return kernel_id, cookie
        session = uuid.uuid4().hex
        base = url.split("/voila/")[0].replace("http://", "ws://")
        left = max(1.0, timeout_s - (time.perf_counter() - t0))
        ws = await asyncio.wait_for(websocket_connect(
            f"{base}/api/kernels/{kernel_id}/channels?session_id={session}"), left)
        comm_id = uuid.uuid4().hex
        ws.write_message(json.dumps(_msg(session, "comm_open", {
            "comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            {"version": "1.0.0"})))  # ipywidgets 8's control protocol
        ws.write_message(json.dumps(_msg(session, "comm_msg", {
            "comm_id": comm_id, "data": {"method": "request_states"}})))
        states: dict[str, Any] = {}
        while True:
            left = max(1.0, timeout_s - (time.perf_counter() - t0))
            raw = await asyncio.wait_for(ws.read_message(), left)
            if raw is None:
                raise RuntimeError("the kernel websocket closed")
            msg = json.loads(raw) if isinstance(raw, str) else {}
            content = msg.get("content", {})
            if msg.get("msg_type") == "comm_msg" and content.get("comm_id") == comm_id \
                    and content.get("data", {}).get("method") == "update_states":
                states = content["data"]["states"]
                break
        ws.close()
        elapsed = time.perf_counter() - t0
        names = [st.get("model_name") for st in states.values()]
        if expected and "ButtonModel" not in names:
            raise RuntimeError(f"no button among {len(states)} widget models")
        wave.times.append(elapsed)
        return kernel_id, cookie
    except Exception as e:  # noqa: BLE001 - a timeout or error is a failure to report
        first = str(e).splitlines()[0][:160] if str(e) else ""
        wave.failures.append(f"{type(e).__name__}: {first}")
        return None
    finally:
        client.close()


async def shutdown_ws(url: str, handles: list[Any]) -> None:
    """Close each student's page as the browser does on beforeunload: POST the Voila shutdown
    endpoint with the XSRF cookie the page received."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    base = url.split("/voila/")[0]
    client = AsyncHTTPClient(force_instance=True)
    try:
        for h in handles:
            if not h:
                continue
            kernel_id, cookie = h
            token = cookie.split("=", 1)[1] if cookie else ""
            try:
                await client.fetch(HTTPRequest(
                    f"{base}/voila/api/shutdown/{kernel_id}", method="POST",
                    body=f"_xsrf={token}", headers={"Cookie": cookie} if cookie else {},
                    request_timeout=30), raise_error=False)
            except Exception:  # noqa: BLE001 - counted by the kernels-left figure
                pass
    finally:
        client.close()


async def run_wave(browser: Any, browser_pid: int | None, server: subprocess.Popen, url: str,
                   name: str, n: int, timeout_s: float) -> Wave:
    """N students open `url` at the same moment; measure, then close every tab.
    `browser` None: websocket clients instead of browser pages."""
    wave = Wave(name, n)
    wave.load_before = os.getloadavg()[0]
    before = {k.pid for k in kernels(server)}
    go = asyncio.Event()
    if browser is None:
        tasks = [asyncio.create_task(student_ws(url, timeout_s, go, wave)) for _ in range(n)]
    else:
        tasks = [asyncio.create_task(student(browser, url, timeout_s, go, wave))
                 for _ in range(n)]
    await asyncio.sleep(0.5)  # every context is ready and waiting
    t0 = time.perf_counter()
    go.set()
    contexts = await asyncio.gather(*tasks)
    wave.wall = time.perf_counter() - t0
    await asyncio.sleep(1.0)  # let the last comm messages settle
    taken = {h[0] for h in contexts if isinstance(h, tuple)} if browser is None else set()

    def mine(k: psutil.Process) -> bool:
        """A kernel of this wave: one a student's page got (pooled kernels were running
        before the wave), or else one started during it."""
        if taken:
            try:
                return any(kid in " ".join(k.cmdline()) for kid in taken)
            except psutil.Error:
                return False
        return k.pid not in before

    for k in kernels(server):
        if not mine(k):
            continue  # an earlier wave's kernel, not yet freed, or the pool's
        try:
            wave.kernel_rss.append(k.memory_info().rss)
            wave.kernel_uss.append(k.memory_full_info().uss)
        except psutil.Error:
            pass
    wave.server_rss = psutil.Process(server.pid).memory_info().rss
    wave.browser_rss = rss_tree(browser_pid) if browser_pid and browser is not None else 0
    # Close each tab as a student would (beforeunload runs: Voila asks the server to shut the
    # kernel down), then the context.
    t1 = time.perf_counter()
    if browser is None:
        await shutdown_ws(url, contexts)
    else:
        for ctx in contexts:
            for page in ctx.pages:
                await page.close(run_before_unload=True)
        await asyncio.sleep(0.5)
        for ctx in contexts:
            await ctx.close()
    while time.perf_counter() - t1 < 90:
        if not any(mine(k) for k in kernels(server)):
            wave.freed_after = time.perf_counter() - t1
            break
        await asyncio.sleep(0.5)
    wave.kernels_left = sum(1 for k in kernels(server) if mine(k))
    return wave


def chromium_pid() -> int | None:
    """The newest Chromium browser process that we started (our child)."""
    me = psutil.Process()
    found = [p for p in me.children(recursive=True)
             if "chrom" in p.name().lower() and "--type=" not in " ".join(p.cmdline())]
    return found[-1].pid if found else None


async def main_async(args: argparse.Namespace) -> list[Wave]:
    from playwright.async_api import async_playwright

    deadline = time.monotonic() + args.deadline
    # The strategy lab's chart cache starts empty (the warm-up student fills it, as the first
    # student or the teacher's preview does in a class).
    os.environ["ICG_CHART_CACHE"] = str(Path(tempfile.mkdtemp(prefix="classroom-charts-")))
    # As `make serve` does (make venv): the project byte-compiled, so kernels do not compile it.
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "rooms", "widgets",
                    "serving"],
                   cwd=ROOT, check=True)
    folder = Path(tempfile.mkdtemp(prefix="classroom-"))
    lesson, baseline = Path(args.lesson), Path(args.baseline)
    shutil.copy(lesson, folder / lesson.name)
    if args.compare_bare:
        shutil.copy(baseline, folder / baseline.name)
    waves: list[Wave] = []
    try:
        async with async_playwright() as pw:
            browser = bpid = None
            if args.client == "browser":
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                bpid = chromium_pid()
            if args.compare_bare:
                await _compare_bare(args, browser, bpid, folder, lesson, baseline, deadline,
                                    waves)
            else:
                await _class_start(args, browser, bpid, folder, lesson, waves)
            if browser is not None:
                await browser.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return waves


def _report(w: Wave) -> None:
    print(f"  {w.notebook}: {len(w.times)}/{w.students} interactive, "
          f"median {w.median:.2f} s, p95 {w.pct(0.95):.2f} s, "
          f"failures {len(w.failures)}, load {w.load_before:.2f}", file=sys.stderr)


async def _class_start(args: argparse.Namespace, browser: Any, bpid: int | None, folder: Path,
                       lesson: Path, waves: list[Wave]) -> None:
    """The lesson pooled (N preheated kernels), then on demand: one wave of N each."""
    url, server, stop = start_server(folder, pooled_args(lesson, args.students))
    try:
        ready = await asyncio.to_thread(wait_pool_ready, server, args.students, args.timeout)
        print(f"  pool of {args.students} ready after {ready:.0f} s", file=sys.stderr)
        w = await run_wave(browser, bpid, server, f"{url}voila/render/{lesson.name}",
                           f"{lesson.name} (pooled)", args.students, args.timeout)
        waves.append(w)
        _report(w)
    finally:
        stop(server)
    url, server, stop = start_server(folder, ON_DEMAND)
    try:
        # Warm-up: one student (first imports, caches), not counted.
        await run_wave(browser, bpid, server, f"{url}voila/render/{lesson.name}", lesson.name,
                       1, args.timeout)
        w = await run_wave(browser, bpid, server, f"{url}voila/render/{lesson.name}",
                           f"{lesson.name} (on demand)", args.students, args.timeout)
        waves.append(w)
        _report(w)
    finally:
        stop(server)


async def _compare_bare(args: argparse.Namespace, browser: Any, bpid: int | None, folder: Path,
                        lesson: Path, baseline: Path, deadline: float,
                        waves: list[Wave]) -> None:
    """On demand: the bare notebook and the lesson, alternating."""
    url, server, stop = start_server(folder, ON_DEMAND)
    try:
        # Warm-up: one student per notebook (first imports, caches), not counted.
        for nb in (baseline, lesson):
            await run_wave(browser, bpid, server, f"{url}voila/render/{nb.name}", nb.name,
                           1, args.timeout)
        order = [baseline, lesson]
        for r in range(args.repeat):
            for nb in order if r % 2 == 0 else order[::-1]:
                if time.monotonic() > deadline:
                    print(f"deadline reached, skipping {nb.name}", file=sys.stderr)
                    continue
                w = await run_wave(browser, bpid, server, f"{url}voila/render/{nb.name}",
                                   nb.name, args.students, args.timeout)
                waves.append(w)
                _report(w)
    finally:
        stop(server)


def summarize(waves: list[Wave], args: argparse.Namespace, command: str) -> str:
    """A Markdown report of the waves."""
    lines = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} "
        f"cores, {psutil.virtual_memory().total / 2**30:.0f} GiB, Python "
        f"{platform.python_version()}; {args.students} students per wave against one Voila on "
        "127.0.0.1; " + ("each student a page in one Chromium (its own context)."
                         if args.client == "browser" else
                         "each student a websocket client (page load + widget-state request, "
                         "as the page's widget manager does; no browser)."),
        "",
        f"Command: `{command}`",
        "",
        "| notebook | interactive | failures | median s | p95 s | max s | wave wall s "
        "| kernel RSS MiB (mean) | kernel USS MiB (mean) | kernels RSS total MiB "
        "| Voila RSS MiB | server total MiB | tabs closed: kernels freed after s "
        "| load avg before |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for w in waves:
        krss = statistics.mean(w.kernel_rss) / MiB if w.kernel_rss else float("nan")
        kuss = statistics.mean(w.kernel_uss) / MiB if w.kernel_uss else float("nan")
        total_k = sum(w.kernel_rss) / MiB
        freed = f"{w.freed_after:.1f}" if w.freed_after is not None else \
            f"not in 90 s ({w.kernels_left} left)"
        lines.append(
            f"| {w.notebook} | {len(w.times)}/{w.students} | {len(w.failures)} | {w.median:.2f} "
            f"| {w.pct(0.95):.2f} | {max(w.times, default=float('nan')):.2f} | {w.wall:.1f} "
            f"| {krss:.0f} ({len(w.kernel_rss)} kernels) | {kuss:.0f} | {total_k:.0f} "
            f"| {w.server_rss / MiB:.0f} | {(sum(w.kernel_rss) + w.server_rss) / MiB:.0f} "
            f"| {freed} | {w.load_before:.1f} |"
        )
    base = [w for w in waves if w.notebook == Path(args.baseline).name and w.times]
    less = [w for w in waves if w.notebook == Path(args.lesson).name and w.times]
    if base and less:
        bp95 = statistics.mean(w.pct(0.95) for w in base)
        lp95 = statistics.mean(w.pct(0.95) for w in less)
        ratio = lp95 / bp95
        ok = "meets" if ratio <= 1.3 and not any(w.failures for w in waves) else "misses"
        lines += ["", f"p95 lesson / p95 bare notebook = {lp95:.2f} / {bp95:.2f} = "
                      f"**{ratio:.2f}x** ({ok} the goal: no failure, at most 1.3x)."]
    browser = max((w.browser_rss for w in waves), default=0)
    if browser:
        lines += ["", f"Client side, for scale: the one Chromium with {args.students} tabs "
                      f"open used up to {browser / MiB:.0f} MiB RSS (all its processes)."]
    fails = [f"- {w.notebook}: {f}" for w in waves for f in w.failures]
    if fails:
        lines += ["", "Failures:", *fails[:20]]
    load = os.getloadavg()
    lines += ["", f"Load average at the end (1, 5, 15 min; the machine is shared): "
                  f"{load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}."]
    pooled = [w for w in waves if w.notebook.endswith("(pooled)")]
    demand = [w for w in waves if w.notebook.endswith("(on demand)")]
    if pooled and demand:
        p, d = pooled[0], demand[0]
        lines += ["", f"class start: {len(p.times)}/{p.students} interactive, "
                      f"p95 {p.pct(0.95):.2f} s pooled, {d.pct(0.95):.2f} s on demand, "
                      f"failures {sum(len(w.failures) for w in waves)}"]
    return "\n".join(lines)


def write_docs(report: str, class_start: bool = False) -> None:
    """Replace the classroom (or class start) section of docs/measurements.md with `report`."""
    begin, end = (CLASS_BEGIN, CLASS_END) if class_start else (BEGIN, END)
    text = DOCS.read_text() if DOCS.exists() else "# Measurements\n"
    block = f"{begin}\n{report}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip() + "\n\n## Classroom load (benchmarks/classroom.py)\n\n" + block + "\n"
    DOCS.parent.mkdir(parents=True, exist_ok=True)
    DOCS.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30, help="pages opened at once (default 30)")
    ap.add_argument("--lesson", default=str(ROOT / "lessons" / "03_hit_me.ipynb"))
    ap.add_argument("--baseline", default=str(ROOT / "tests" / "fixtures" / "one_button.ipynb"))
    ap.add_argument("--repeat", type=int, default=1, help="waves per notebook (default 1)")
    ap.add_argument("--timeout", type=float, default=180.0,
                    help="seconds a student waits before counting a failure (default 180)")
    ap.add_argument("--deadline", type=float, default=900.0,
                    help="no new wave starts after this many seconds (default 900)")
    ap.add_argument("--client", choices=("ws", "browser"), default="ws",
                    help="ws (default): each student is a websocket client that loads the page "
                    "and fetches the widget state as the page does; browser: each student is a "
                    "Chromium page (30 pages on 2 cores mostly measure Chromium itself)")
    ap.add_argument("--compare-bare", action="store_true",
                    help="the earlier comparison: on demand, the lesson against the bare "
                    "one-button notebook (default: the lesson pooled, then on demand)")
    ap.add_argument("--write-docs", action="store_true", help="update docs/measurements.md")
    args = ap.parse_args(argv)
    if not (1 <= args.students <= 60):
        ap.error("--students must be 1..60 (one 2-core machine)")
    if not Path(CHROMIUM).exists():
        print(f"no Chromium at {CHROMIUM} (make browsers)", file=sys.stderr)
        return 2
    for p in (args.lesson, args.baseline):
        if not Path(p).exists():
            print(f"missing notebook {p}", file=sys.stderr)
            return 2
    shown = [a.replace(str(ROOT) + "/", "") for a in (argv if argv is not None else sys.argv[1:])]
    command = " ".join([".venv/bin/python benchmarks/classroom.py", *shown])
    # A TERM (e.g. from `timeout`) unwinds like Ctrl+C, so the server and its kernels stop.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    waves = asyncio.run(main_async(args))
    report = summarize(waves, args, command)
    print(report)
    if args.write_docs:
        write_docs(report, class_start=not args.compare_bare)
        print(f"\nwritten to {DOCS.relative_to(ROOT)}", file=sys.stderr)
    return 1 if any(w.failures for w in waves) else 0


if __name__ == "__main__":
    sys.exit(main())
