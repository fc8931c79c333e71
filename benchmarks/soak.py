"""A school day without a restart: students come and go on one Voila server for a long time.

One Voila server on 127.0.0.1 with the project's configuration (culling shortened so that the
end of the run can check that every kernel is gone). Headless Chromium (Debian's, through
Playwright) plays --students students at once for --minutes; each student again and again:

* opens a lesson page (Hit Me, Flapjack, the card explorer, in turn) in a fresh browser context
  and waits until it is usable (spinner gone, every displayed widget rendered, a button enabled);
* plays: clicks an enabled button of the page every 1-4 s, a human pace;
* sometimes reloads the page (a new kernel; the old one must be freed);
* closes the tab (its kernel must be freed).

Every --kill-every seconds one running kernel is killed on purpose (SIGKILL): its page must
show the "reload the page" alert (also while it is loading); the student reloads, as told. That
page is not a failure.

A failure is a page that does not become usable within --timeout, shows an error, or fetches
anything from off the machine. Each failure is printed with its lesson, its minute of the run,
the load average then, how far the page got (widget views shown of those served, spinner) and
what the server log says of its kernel (taken from the pool, culled, connected too late). The
server's own RSS (not its kernels') is sampled every 5 s; growth compares the mean of the last
quarter of the run with the mean of the first quarter.
After the last tab closes, the run waits for culling (at most --cull-wait seconds) and counts
the kernels still alive that are not waiting in a pool: with voila.json's preheated kernels
each lesson keeps its pool (one kernel each, by design), and an orphan is a kernel that a page
took (or that was started for a page) still alive after its tab closed and culling, or a pool
holding more kernels than its size. Bounded in time, loopback only; it stops by itself. The
last line:

    soak: <pages> pages, failures 0, orphan kernels 0, server RSS growth <percent>%

    .venv/bin/python benchmarks/soak.py                 # 15 minutes, 6 students
    .venv/bin/python benchmarks/soak.py --minutes 2     # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom import CHROMIUM, CHROMIUM_ARGS, LOOPBACK, MiB, _voila_server  # noqa: E402

LESSONS = ["03_hit_me.ipynb", "05_flapjack.ipynb", "01_integers_with_cards.ipynb"]
RELOAD = re.compile(r"reload|refresh", re.IGNORECASE)
USABLE_JS = (
    "n => { const l = document.getElementById('loading');"
    " const done = !l || l.style.display === 'none' || l.offsetParent === null;"
    " const views = [...document.querySelectorAll('.jupyter-widgets')].filter(e =>"
    " !e.parentElement.closest('.jupyter-widgets') && e.offsetParent !== null).length;"
    " return done && views >= n"
    " && !!document.querySelector('.widget-button:not([disabled])'); }"
)
# Usable, or the kernel-death alert is up (a kernel killed while its page was loading).
USABLE_OR_DEAD_JS = (
    "n => (" + USABLE_JS + ")(n) || [...document.querySelectorAll('[role=alert]')].some("
    "e => e.offsetParent !== null && /reload|refresh/i.test(e.textContent))"
)
# How far a page got: spinner, top-level widget views shown, an enabled button.
PROGRESS_JS = (
    "() => { const l = document.getElementById('loading');"
    " const spinner = !!l && l.style.display !== 'none' && l.offsetParent !== null;"
    " const views = [...document.querySelectorAll('.jupyter-widgets')].filter(e =>"
    " !e.parentElement.closest('.jupyter-widgets') && e.offsetParent !== null).length;"
    " return {spinner, views,"
    " button: !!document.querySelector('.widget-button:not([disabled])')}; }"
)
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


@dataclass
class Soak:
    """What the run counted."""

    pages: int = 0
    usable: int = 0
    clicks: int = 0
    reloads: int = 0
    closed: int = 0
    killed: int = 0
    kill_alerts: int = 0
    failures: list[str] = field(default_factory=list)
    failed_kernels: list[str | None] = field(default_factory=list)
    killed_ids: set[str] = field(default_factory=set)
    t0: float = field(default_factory=time.monotonic)
    load_times: list[float] = field(default_factory=list)
    server_rss: list[tuple[float, int]] = field(default_factory=list)
    kernels_seen: list[tuple[float, int]] = field(default_factory=list)


class Student:
    """One student's browser context and page."""

    def __init__(self, browser: Any, base: str, soak: Soak, rng: random.Random,
                 timeout_s: float) -> None:
        self.browser, self.base, self.soak, self.rng = browser, base, soak, rng
        self.timeout_s = timeout_s
        self.ctx: Any = None
        self.page: Any = None
        self.errors: list[str] = []
        self.wanted = 1
        self.lesson = ""
        self.kernel_id: str | None = None

    async def open(self, lesson: str) -> bool:
        """A fresh context on `lesson`; True once the page is usable."""
        self.lesson = lesson
        self.ctx = await self.browser.new_context(viewport={"width": 1366, "height": 657})
        self.page = await self.ctx.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

        async def route(r: Any) -> None:
            if r.request.url.startswith((*LOOPBACK, "data:", "blob:")):
                await r.continue_()
            else:
                self.errors.append(f"request left the machine: {r.request.url}")
                await r.abort()

        await self.page.route("**/*", route)
        return await self._load(lambda: self.page.goto(
            f"{self.base}voila/render/{lesson}", wait_until="commit",
            timeout=self.timeout_s * 1000))

    async def reload(self) -> bool:
        self.soak.reloads += 1
        self.errors = []
        return await self._load(lambda: self.page.reload(
            wait_until="commit", timeout=self.timeout_s * 1000))

    async def _load(self, navigate: Any, again: bool = True) -> bool:
        """Navigate and wait until the page is usable. A page whose kernel was killed on
        purpose while it loaded shows the kernel-death alert: the student reloads (once)."""
        self.soak.pages += 1
        docs: list[Any] = []

        def on_response(r: Any) -> None:
            if r.request.resource_type == "document":
                docs.append(r)

        self.page.on("response", on_response)
        t0 = time.perf_counter()
        try:
            await navigate()
            left = max(1.0, self.timeout_s - (time.perf_counter() - t0))
            for _ in range(int(left * 10)):
                if docs:
                    break
                await asyncio.sleep(0.1)
            html = await docs[-1].text() if docs else ""
            self.wanted = max(1, html.count('"application/vnd.jupyter.widget-view+json"'))
            found = KERNEL_ID.search(html)
            self.kernel_id = found.group(1) if found else None
            left = max(1.0, self.timeout_s - (time.perf_counter() - t0)) * 1000
            await self.page.wait_for_function(USABLE_OR_DEAD_JS, arg=self.wanted, timeout=left,
                                              polling=100)
            if not await self.page.evaluate(USABLE_JS, self.wanted):
                if self.kernel_id in self.soak.killed_ids and again:
                    self.soak.kill_alerts += 1
                    self.page.remove_listener("response", on_response)
                    self.soak.reloads += 1
                    self.errors = []
                    return await self._load(lambda: self.page.reload(
                        wait_until="commit", timeout=self.timeout_s * 1000), again=False)
                self.errors.append("the kernel-death alert, for a kernel not killed on purpose")
            body = await self.page.inner_text("body")
            if "There was an error when executing cell" in body or "Traceback" in body:
                self.errors.append("error text in the page")
        except Exception as e:  # noqa: BLE001 - a timeout or a crash is a failure to report
            self.errors.append(f"{type(e).__name__}: {str(e).splitlines()[0][:120]}")
        finally:
            self.page.remove_listener("response", on_response)
        if self.errors:
            try:
                got = await self.page.evaluate(PROGRESS_JS)
                progress = (f"{got['views']}/{self.wanted} widget views, spinner "
                            f"{'up' if got['spinner'] else 'gone'}, enabled button "
                            f"{'yes' if got['button'] else 'no'}")
            except Exception:  # noqa: BLE001 - a page that crashed or closed
                progress = "page not readable"
            self.soak.failures.append(
                f"{self.lesson} at minute {(time.monotonic() - self.soak.t0) / 60:.1f} "
                f"({time.strftime('%H:%M:%S', time.gmtime())} UTC), load "
                f"{os.getloadavg()[0]:.1f}, after {time.perf_counter() - t0:.0f} s: "
                f"{'; '.join(self.errors)} ({progress}; kernel {self.kernel_id})")
            self.soak.failed_kernels.append(self.kernel_id)
            return False
        self.soak.usable += 1
        self.soak.load_times.append(time.perf_counter() - t0)
        return True

    async def kernel_dead_alert(self) -> bool:
        """The template's 'reload the page' alert is up (the kernel died)."""
        try:
            alerts = self.page.get_by_role("alert").filter(has_text=RELOAD)
            return await alerts.count() > 0 and await alerts.first.is_visible()
        except Exception:  # noqa: BLE001 - a page in the middle of closing
            return False

    async def click_something(self) -> None:
        buttons = self.page.locator(".widget-button:not([disabled]):visible")
        n = await buttons.count()
        if n:
            try:
                await buttons.nth(self.rng.randrange(n)).click(timeout=5000)
                self.soak.clicks += 1
            except Exception:  # noqa: BLE001 - the button went away under the click: fine
                pass

    async def close(self) -> None:
        if self.ctx is not None:
            # Closing the page runs its beforeunload handler, as a closed tab does.
            try:
                await self.page.close(run_before_unload=True)
                await asyncio.sleep(0.5)
            except Exception:  # noqa: BLE001
                pass
            await self.ctx.close()
            self.soak.closed += 1
            self.ctx = self.page = None


async def student_loop(n: int, browser: Any, base: str, soak: Soak, until: float,
                       timeout_s: float) -> None:
    rng = random.Random(n)
    await asyncio.sleep(n * 2.0)  # students arrive over a few seconds
    visit = n
    while time.monotonic() < until:
        s = Student(browser, base, soak, rng, timeout_s)
        lesson = LESSONS[visit % len(LESSONS)]
        visit += 1
        ok = await s.open(lesson)
        stay = time.monotonic() + rng.uniform(30, 90)
        while ok and time.monotonic() < min(stay, until):
            await asyncio.sleep(rng.uniform(1.0, 4.0))
            if await s.kernel_dead_alert():
                soak.kill_alerts += 1
                ok = await s.reload()  # as the alert tells the student
                continue
            if rng.random() < 0.03:
                ok = await s.reload()
                continue
            await s.click_something()
        await s.close()
        await asyncio.sleep(rng.uniform(1.0, 5.0))


async def killer(server: Any, kernels: Any, soak: Soak, until: float, every: float) -> None:
    rng = random.Random(99)
    await asyncio.sleep(every)
    while time.monotonic() < until - every / 2:
        procs = kernels(server)
        if procs:
            victim = rng.choice(procs)
            try:
                found = re.search(r"kernel-([0-9a-f-]{36})", " ".join(victim.cmdline()))
                victim.kill()
                soak.killed += 1
                if found:
                    soak.killed_ids.add(found.group(1))
            except psutil.Error:
                pass
        await asyncio.sleep(every)


async def sampler(server: Any, kernels: Any, soak: Soak, until: float) -> None:
    t0 = time.monotonic()
    proc = psutil.Process(server.pid)
    while time.monotonic() < until:
        try:
            soak.server_rss.append((time.monotonic() - t0, proc.memory_info().rss))
        except psutil.Error:
            return
        soak.kernels_seen.append((time.monotonic() - t0, len(kernels(server))))
        await asyncio.sleep(5)


def rss_growth(samples: list[tuple[float, int]]) -> float:
    """Percent growth from the mean of the first quarter of the samples to the last quarter's."""
    if len(samples) < 8:
        return float("nan")
    q = len(samples) // 4
    first = sum(r for _, r in samples[:q]) / q
    last = sum(r for _, r in samples[-q:]) / q
    return 100.0 * (last - first) / first


def kernel_note(log: str, kernel_id: str | None) -> str:
    """What the server log says of a failed page's kernel."""
    if not kernel_id:
        return "no kernel id in the page"
    notes = []
    for line in log.splitlines():
        if "Culling" not in line or kernel_id not in line:
            continue
        when = re.search(r"\d\d:\d\d:\d\d", line)
        kind = ("its page disconnected" if "closed its connection" in line
                else "no page connected" if "no page connected" in line
                else "dead" if "dead kernel" in line
                else "idle" if "inactivity" in line else "")
        notes.append(f"culled ({kind}) at {when.group(0) if when else '?'}")
    if re.search(rf"404 GET /api/kernels/{kernel_id}/channels", log):
        notes.append("its page connected only after that (404)")
    if f"Using pre-heated kernel: {kernel_id}" in log:
        notes.append("taken from the pool")
    return ", ".join(notes) or "nothing logged"


def orphans_of(kernel_ids: dict[str, psutil.Process], log: str, pools: dict[str, int]
               ) -> tuple[list[str], int]:
    """(orphan kernel ids, kernels waiting in pools) among the kernels still alive.

    A kernel is waiting in a pool when it was started for a pool (VOILA_PREHEAT in its
    environment) and no page took it ("Using pre-heated kernel: <id>" never logged); each
    notebook's pool may hold at most its size. Every other kernel alive is an orphan."""
    waiting_by_nb: dict[str, list[str]] = {}
    orphans = []
    for kid, proc in kernel_ids.items():
        try:
            preheat = proc.environ().get("VOILA_PREHEAT") == "True"
        except psutil.Error:
            continue
        if not preheat or f"Using pre-heated kernel: {kid}" in log:
            orphans.append(kid)
            continue
        # which notebook's pool: the log line of the pool fill does not name kernels, so
        # count them together against the pools' total
        waiting_by_nb.setdefault("*", []).append(kid)
    waiting = waiting_by_nb.get("*", [])
    extra = max(0, len(waiting) - sum(pools.values()))
    return orphans + waiting[:extra], len(waiting) - extra


async def main_async(args: argparse.Namespace) -> tuple[Soak, int]:
    from playwright.async_api import async_playwright

    vs = _voila_server()
    base, server = vs.start_voila(
        ROOT / "lessons",
        extra_args=[f"--MappingKernelManager.cull_idle_timeout={args.cull}",
                    "--MappingKernelManager.cull_interval=10"])
    soak = Soak()

    def kernels(srv: Any) -> list[psutil.Process]:
        return vs.kernel_processes(srv.pid)

    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            until = time.monotonic() + args.minutes * 60
            tasks = [student_loop(i, browser, base, soak, until, args.timeout)
                     for i in range(args.students)]
            tasks.append(sampler(server, kernels, soak, until))
            if args.kill_every > 0:
                tasks.append(killer(server, kernels, soak, until, args.kill_every))
            await asyncio.wait_for(asyncio.gather(*tasks),
                                   timeout=args.minutes * 60 + args.timeout * 3 + 120)
            await browser.close()
        pools = pool_sizes(ROOT / "lessons")

        def alive() -> dict[str, psutil.Process]:
            found = {}
            for proc in kernels(server):
                try:
                    m = re.search(r"kernel-([0-9a-f-]{36})", " ".join(proc.cmdline()))
                except psutil.Error:
                    continue
                if m:
                    found[m.group(1)] = proc
            return found

        deadline = time.monotonic() + args.cull_wait
        while time.monotonic() < deadline:
            orphan_ids, waiting = orphans_of(alive(), vs.read_log(server), pools)
            if not orphan_ids:
                break
            await asyncio.sleep(2)
        log = vs.read_log(server)
        orphan_ids, waiting = orphans_of(alive(), log, pools)
        print(f"after the last tab closed and culling: {waiting} kernels waiting in the pools "
              f"(sizes: {sum(pools.values())} kernels for {len(pools)} notebooks), "
              f"{len(orphan_ids)} orphans {orphan_ids}")
        soak.failures = [f"{f} [server log: {kernel_note(log, k)}]"
                         for f, k in zip(soak.failures, soak.failed_kernels, strict=True)]
    finally:
        vs.stop_voila(server)
    return soak, len(orphan_ids)


def pool_sizes(folder: Path) -> dict[str, int]:
    """Each notebook's pool size as voila.json configures it (no pool_lesson here), by its
    path under `folder` (Voila's pool names: es/03_hit_me.ipynb)."""
    import json

    conf = json.loads((ROOT / "voila.json").read_text())
    if not conf.get("VoilaConfiguration", {}).get("preheat_kernel"):
        return {}
    pools = conf.get("VoilaKernelManager", {}).get("kernel_pools_config", {})
    default = pools.get("default", {}).get(
        "pool_size", conf["VoilaConfiguration"].get("default_pool_size", 1))
    # Every notebook under the folder, the translated lessons (lessons/es/) included: Voila
    # preheats them all (the soak counted only the top folder's 11 and reported the 11
    # Spanish pool kernels as orphans).
    names = [nb.relative_to(folder).as_posix() for nb in sorted(folder.rglob("*.ipynb"))
             if not any(part.startswith(".") for part in nb.relative_to(folder).parts)]
    return {name: pools.get(name, {}).get("pool_size", default) for name in names}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--students", type=int, default=6)
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds for a page")
    parser.add_argument("--kill-every", type=float, default=150.0,
                        help="seconds between kernels killed on purpose (0: none)")
    parser.add_argument("--cull", type=int, default=60,
                        help="idle seconds before an unconnected kernel is culled")
    parser.add_argument("--cull-wait", type=float, default=150.0,
                        help="seconds to wait for culling after the last tab closes")
    args = parser.parse_args(argv)
    if not 0 < args.minutes <= 8 * 60 or not 1 <= args.students <= 40:
        parser.error("--minutes must be in (0, 480] and --students in 1..40")
    if not Path(CHROMIUM).exists():
        print(f"soak: Chromium not found at {CHROMIUM} (make browsers)", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{load:.1f} at start; {args.students} students for {args.minutes:g} min")
    started = time.monotonic()
    soak, orphans = asyncio.run(main_async(args))
    growth = rss_growth(soak.server_rss)
    times = sorted(soak.load_times)
    p95 = times[int(0.95 * (len(times) - 1))] if times else float("nan")
    rss = [r for _, r in soak.server_rss]
    print(f"{soak.usable} usable pages of {soak.pages}, {soak.reloads} reloads, "
          f"{soak.closed} tabs closed, {soak.clicks} clicks; page ready p95 {p95:.1f} s")
    print(f"kernels killed on purpose: {soak.killed}, 'reload' alerts seen: {soak.kill_alerts}")
    if rss:
        print(f"server RSS: first {rss[0] / MiB:.0f} MiB, max {max(rss) / MiB:.0f} MiB, "
              f"last {rss[-1] / MiB:.0f} MiB ({len(rss)} samples); most kernels at once: "
              f"{max(k for _, k in soak.kernels_seen)}")
        q = max(1, len(rss) // 4)
        quarters = [rss[i * q:(i + 1) * q] for i in range(4)]
        print("server RSS by quarter of the run (mean MiB): " + ", ".join(
            f"{sum(part) / len(part) / MiB:.0f}" for part in quarters if part))
    for f in soak.failures[:20]:
        print(f"failure: {f}")
    print(f"run took {time.monotonic() - started:.0f} s")
    print(f"soak: {soak.pages} pages, failures {len(soak.failures)}, orphan kernels {orphans}, "
          f"server RSS growth {growth:.1f}%")
    return 0 if not soak.failures and orphans == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
