"""What one page load of a lesson costs the kernel and the server, without a browser.

For each notebook given (default: lessons/03_hit_me.ipynb and the bare one-button notebook,
tests/fixtures/one_button.ipynb), a fresh kernel of this environment runs the notebook's code
cells one by one, as Voila does for a page (from the notebook's folder), and this prints:

* kernel CPU: CPU seconds of the kernel process to run every cell (imports included), and in
  the `--window` seconds after the last cell (paced computer moves, redraws); the least of
  `--repeat` page loads (default 3), since other work on the machine only adds to it;
* imports: from a second kernel started with `python -X importtime`: the seconds spent importing
  modules while the cells ran (sum of the "self" times; the least of the page loads) and how
  many modules, with the largest top-level imports (run `make venv` first: it byte-compiles
  the project, as a class's server has it, and with PYTHONDONTWRITEBYTECODE set an edited
  module is compiled again by every kernel);
* widget models: comm_open messages of widget models while the cells ran (each one a message
  the server reads and an entry in the page's state), and their bytes (JSON of the content plus
  binary buffers);
* state fetch: the bytes of the kernel's reply when the page asks for every widget's state
  (ipywidgets' `request_states` on the `jupyter.widget.control` comm, what the page does once it
  connects), and how many models it holds;
* after load: comm messages and their bytes sent from the kernel to the page in the `--window`
  seconds after the last cell (and the state fetch), e.g. a paced computer move or a redraw;
* outputs: bytes of the cells' display outputs (the page's HTML carries them).

    .venv/bin/python benchmarks/page_load.py                      # Hit Me lesson and bare page
    .venv/bin/python benchmarks/page_load.py lessons/es/03_hit_me.ipynb   # any notebooks
    .venv/bin/python benchmarks/page_load.py -v lessons/03_hit_me.ipynb   # and every message

One kernel at a time, loopback only; every kernel is shut down at the end. The figures are
for one page: a class of 30 multiplies the CPU and the messages by 30 on the same cores.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from ipywidgets._version import __control_protocol_version__ as CONTROL_VERSION
from jupyter_client.kernelspec import KernelSpec
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parent.parent
BARE = ROOT / "tests" / "fixtures" / "one_button.ipynb"
DEFAULT = [ROOT / "lessons" / "03_hit_me.ipynb", BARE]
MARK = "@@icg-page-load-mark@@"
IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)")
COMM = ("comm_open", "comm_msg", "comm_close")


@dataclass
class Load:
    """What one page load of a notebook cost."""

    notebook: str
    cpu_cells: float = 0.0
    cpu_after: float = 0.0
    wall_cells: float = 0.0
    models: int = 0
    model_bytes: int = 0
    comm_during: int = 0
    comm_during_bytes: int = 0
    fetch_bytes: int = 0
    fetch_models: int = 0
    after_msgs: int = 0
    after_bytes: int = 0
    output_bytes: int = 0
    import_s: float = 0.0
    import_modules: int = 0
    top_imports: list[tuple[str, float]] = field(default_factory=list)


def code_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def msg_bytes(msg: dict[str, Any]) -> int:
    """Bytes of a message's content (JSON) and its binary buffers."""
    body = len(json.dumps(msg["content"], separators=(",", ":"), ensure_ascii=False)
               .encode("utf-8"))
    return body + sum(len(memoryview(b).cast("B")) for b in msg.get("buffers") or [])


def ipc_path() -> str:
    """An absolute prefix for the kernel's ipc sockets (a relative one is read from the
    kernel's folder, which is the notebook's)."""
    return os.path.join(tempfile.mkdtemp(prefix="page_load_"), "kernel")


def start_kernel(cwd: Path, *python_flags: str) -> tuple[KernelManager, Any, psutil.Process]:
    km = KernelManager(transport="ipc", ip=ipc_path())  # as voila.json
    km._kernel_spec = KernelSpec(  # this environment's Python, as Voila's kernels
        argv=[sys.executable, *python_flags, "-m", "ipykernel_launcher", "-f",
              "{connection_file}"], display_name="python3", language="python")
    km.start_kernel(cwd=str(cwd))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    proc = psutil.Process(km.provisioner.process.pid)
    return km, kc, proc


def cpu(proc: psutil.Process) -> float:
    """CPU seconds of the process: from the scheduler's nanosecond counts of every thread
    (Linux), else psutil's user + system times (clock ticks: 10 ms steps)."""
    try:
        total = 0
        for task in Path(f"/proc/{proc.pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        t = proc.cpu_times()
        return t.user + t.system


def drain(kc: Any, until: float, sink: list[dict[str, Any]],
          stop: Any = None) -> bool:
    """Read iopub messages into `sink` until `until` (monotonic) or `stop(msg)` is true."""
    while True:
        left = until - time.monotonic()
        if left <= 0:
            return False
        try:
            msg = kc.get_iopub_msg(timeout=min(left, 0.2))
        except queue.Empty:
            continue
        sink.append(msg)
        if stop is not None and stop(msg):
            return True


def run_cells(kc: Any, cells: list[str], sink: list[dict[str, Any]]) -> None:
    for code in cells:
        mid = kc.execute(code, store_history=False)

        def done(m: dict[str, Any], mid: str = mid) -> bool:
            return (m["msg_type"] == "status" and m["parent_header"].get("msg_id") == mid
                    and m["content"]["execution_state"] == "idle")

        if not drain(kc, time.monotonic() + 120, sink, done):
            raise RuntimeError(f"a cell did not finish within 120 s: {code[:60]!r}")
        errors = [m for m in sink if m["msg_type"] == "error"
                  and m["parent_header"].get("msg_id") == mid]
        if errors:
            raise RuntimeError("a cell failed: " + " ".join(errors[0]["content"]["traceback"]))


def request_states(kc: Any, sink: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the page's widget manager does on connecting: ask the control comm for every
    model's state; returns the kernel's update_states reply."""
    comm_id = uuid.uuid4().hex
    kc.shell_channel.send(kc.session.msg("comm_open", {
        "comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
        metadata={"version": CONTROL_VERSION}))
    kc.shell_channel.send(kc.session.msg("comm_msg", {
        "comm_id": comm_id, "data": {"method": "request_states"}}))
    found: list[dict[str, Any]] = []

    def reply(m: dict[str, Any]) -> bool:
        if m["msg_type"] == "comm_msg" and m["content"].get("comm_id") == comm_id:
            found.append(m)
            return True
        return False

    drain(kc, time.monotonic() + 30, sink, reply)
    return found[0] if found else None


def measure(path: Path, window: float, verbose: bool = False) -> Load:
    load = Load(load_name(path))
    cells = code_cells(path)
    km, kc, proc = start_kernel(path.parent)
    try:
        time.sleep(0.5)  # the kernel's own start-up work is not the page's
        during: list[dict[str, Any]] = []
        c0, t0 = cpu(proc), time.monotonic()
        run_cells(kc, cells, during)
        load.cpu_cells, load.wall_cells = cpu(proc) - c0, time.monotonic() - t0
        opens = [m for m in during if m["msg_type"] == "comm_open"
                 and m["content"].get("target_name") == "jupyter.widget"]
        load.models = len(opens)
        load.model_bytes = sum(msg_bytes(m) for m in opens)
        comms = [m for m in during if m["msg_type"] in COMM]
        load.comm_during, load.comm_during_bytes = len(comms), sum(msg_bytes(m) for m in comms)
        load.output_bytes = sum(msg_bytes(m) for m in during
                                if m["msg_type"] in ("display_data", "execute_result",
                                                     "stream", "update_display_data"))
        after: list[dict[str, Any]] = []
        c1, t1 = cpu(proc), time.monotonic()
        fetched = request_states(kc, after)
        if fetched is not None:
            load.fetch_bytes = msg_bytes(fetched)
            load.fetch_models = len(fetched["content"]["data"].get("states", {}))
        drain(kc, t1 + window, after)
        load.cpu_after = cpu(proc) - c1
        rest = [m for m in after if m["msg_type"] in COMM and m is not fetched]
        load.after_msgs, load.after_bytes = len(rest), sum(msg_bytes(m) for m in rest)
        if verbose:
            names = {m["content"]["comm_id"]: m["content"]["data"]["state"].get("_model_name")
                     for m in opens}
            for label, msgs in (("while the cells ran", comms), ("after load", rest)):
                for m in msgs:
                    data = m["content"].get("data") or {}
                    keys = sorted((data.get("state") or {}).keys())
                    print(f"    {label}: {m['msg_type']} {names.get(m['content']['comm_id'])} "
                          f"{msg_bytes(m)} bytes {','.join(keys)[:90]}")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    measure_imports(path, cells, load)
    return load


def measure_imports(path: Path, cells: list[str], load: Load) -> None:
    """A second kernel under `-X importtime`: what the cells import, and for how long."""
    log = path.parent / f".page_load_{os.getpid()}.err"
    km = KernelManager(transport="ipc", ip=ipc_path())
    km._kernel_spec = KernelSpec(
        argv=[sys.executable, "-X", "importtime", "-m", "ipykernel_launcher", "-f",
              "{connection_file}"], display_name="python3", language="python")
    with open(log, "w", encoding="utf-8") as err:
        km.start_kernel(cwd=str(path.parent), stderr=err)
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=60)
            sink: list[dict[str, Any]] = []
            run_cells(kc, [f"import os; os.write(2, b'{MARK}\\n')"], sink)
            run_cells(kc, cells, sink)
            run_cells(kc, [f"import os; os.write(2, b'{MARK}\\n')"], sink)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    # ipykernel may forward the kernel's fd 2 to the page as stream messages: read both
    text = log.read_text(encoding="utf-8", errors="replace")
    log.unlink()
    text += "".join(m["content"].get("text", "") for m in sink if m["msg_type"] == "stream")
    parts = text.split(MARK)
    body = parts[1] if len(parts) >= 3 else ""
    self_us, top = 0, []
    for line in body.splitlines():
        m = IMPORT_LINE.search(line)
        if not m:
            continue
        self_us += int(m.group(1))
        load.import_modules += 1
        if not m.group(3).strip(" ") and len(m.group(3)) <= 1:
            top.append((m.group(4), int(m.group(2)) / 1e6))
    load.import_s = self_us / 1e6
    load.top_imports = sorted(top, key=lambda x: -x[1])[:4]


@dataclass
class Served:
    """One page load through a real Voila server (on demand), one student at a time."""

    notebook: str
    server_cpu: list[float] = field(default_factory=list)
    kernel_cpu: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    page_bytes: int = 0


def measure_served(paths: list[Path], repeat: int) -> list[Served]:
    """Each notebook served by Voila with the project's configuration, on demand (as
    `classroom.py --compare-bare`): one student at a time loads the page and fetches the
    widgets' state over the kernel websocket (classroom.student_ws); the Voila process's CPU
    for that page, the kernel's CPU from its start until the state arrived, and the time."""
    import asyncio
    import shutil

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import classroom

    folder = Path(tempfile.mkdtemp(prefix="page_load_served_"))
    for path in paths:
        shutil.copy(path, folder / path.name)
    url, server, stop = classroom.start_server(folder, classroom.ON_DEMAND)
    voila = psutil.Process(server.pid)
    out = {path: Served(load_name(path)) for path in paths}

    def one(path: Path, counted: bool) -> None:
        page = f"{url}voila/render/{path.name}"
        before = {k.pid for k in classroom.kernels(server)}
        wave = classroom.Wave(path.name, 1)
        c0, t0 = cpu(voila), time.monotonic()

        async def load() -> Any:
            go = asyncio.Event()
            go.set()
            return await classroom.student_ws(page, 120, go, wave)

        handle = asyncio.run(load())
        if wave.failures:
            raise RuntimeError(f"{path.name}: {wave.failures[0]}")
        served = out[path]
        if counted:
            served.server_cpu.append(cpu(voila) - c0)
            served.seconds.append(wave.times[0])
            new = [k for k in classroom.kernels(server) if k.pid not in before]
            served.kernel_cpu.append(sum(k.cpu_times().user + k.cpu_times().system
                                         for k in new))
        asyncio.run(classroom.shutdown_ws(url, [handle]))
        t1 = time.monotonic()
        while any(k.pid not in before for k in classroom.kernels(server)) \
                and time.monotonic() - t1 < 30:
            time.sleep(0.2)
        del t0

    try:
        for path in paths:  # warm-up: the server's first imports and caches
            one(path, False)
        for _ in range(max(1, repeat)):
            for path in paths:
                one(path, True)
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    return [out[p] for p in paths]


def load_name(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def report(load: Load, window: float) -> str:
    tops = ", ".join(f"{n} {s:.3f}" for n, s in load.top_imports) or "none"
    return "\n".join([
        f"notebook: {load.notebook}",
        f"  kernel CPU: {load.cpu_cells:.3f} s running the cells ({load.wall_cells:.2f} s wall),"
        f" {load.cpu_after:.3f} s in the {window:g} s after",
        f"  imports: {load.import_s:.3f} s, {load.import_modules} modules (largest: {tops})",
        f"  widget models: {load.models} (comm_open, {load.model_bytes} bytes); comm messages "
        f"while the cells ran: {load.comm_during}, {load.comm_during_bytes} bytes",
        f"  state fetch: {load.fetch_bytes} bytes, {load.fetch_models} models",
        f"  after load ({window:g} s): {load.after_msgs} comm messages, {load.after_bytes} bytes",
        f"  outputs: {load.output_bytes} bytes",
    ])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("notebooks", nargs="*", type=Path, help="default: Hit Me lesson and bare")
    p.add_argument("--window", type=float, default=3.0,
                   help="seconds watched after the last cell (default: %(default)s)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also list every comm message (model, bytes, traits)")
    p.add_argument("--repeat", type=int, default=3,
                   help="page loads per notebook, in turn; the CPU and import times are the "
                        "least of them (other work on the machine only adds), the rest from "
                        "the last (default: %(default)s)")
    p.add_argument("--served", action="store_true",
                   help="also serve each notebook with Voila (on demand) and measure one page "
                        "load at a time: the Voila process's CPU, the kernel's (its start "
                        "included) and the time to interactive")
    args = p.parse_args(argv)
    paths = [n.resolve() for n in args.notebooks] or DEFAULT
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    loads: dict[Path, list[Load]] = {path: [] for path in paths}
    for i in range(max(1, args.repeat)):
        for path in paths:
            loads[path].append(measure(path, args.window, args.verbose and i == 0))
    for path in paths:
        runs = loads[path]
        best = runs[-1]
        best.cpu_cells = min(r.cpu_cells for r in runs)
        best.cpu_after = min(r.cpu_after for r in runs)
        quick = min(runs, key=lambda r: r.import_s)
        best.import_s, best.import_modules = quick.import_s, quick.import_modules
        best.top_imports = quick.top_imports
        print(report(best, args.window), flush=True)
    if args.served:
        for sv in measure_served(paths, args.repeat):
            print(f"served: {sv.notebook}: Voila CPU {min(sv.server_cpu):.3f} s, kernel CPU "
                  f"{min(sv.kernel_cpu):.3f} s (start included), interactive after "
                  f"{min(sv.seconds):.2f} s (least of {len(sv.seconds)}, one student at a time)")
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
