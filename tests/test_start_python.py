"""How the static site's kernel starts Python (tools/site/start-python.js), with no browser:
Node.js runs the script around stand-ins for the kernel's worker, `fetch` and Pyodide's own
script (tests/fixtures/start_python_harness.mjs). The snapshot file, gzipped or not, read in
pieces of any size, gives Pyodide its memory and the files their bytes, in the kernel's worker
or in a worker of its own (which also compiles Pyodide's WebAssembly for it, gets the memory's
array back once Python is restored, and ends); the loader's settings no longer hold the memory
once Python is restored; without DecompressionStream, or when the memory is refused, Python
starts afresh."""

from __future__ import annotations

import base64
import gzip
import json
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from conftest import IN_CI

ROOT = Path(__file__).resolve().parent.parent
START = ROOT / "tools" / "site" / "start-python.js"
HARNESS = ROOT / "tests" / "fixtures" / "start_python_harness.mjs"

MEMORY = bytes(range(256)) * 40 + b"\0" * 3000
FILES = {"/lib/python3.12/site-packages/engine/__init__.py": b"RULES = 1\n",
         "/lib/python3.12/site-packages/widgets/words/x.mo": bytes(range(200)),
         "/lib/python3.12/site-packages/empty.typed": b"",
         "/home/pyodide/.ipython/profile_default/startup/README": b"startup\n"}
PACKAGES = ["ipython", "integer-card-games"]
RESTORED = "Python restored from the site's snapshot"
INDEX = "https://site.test/static/pyodide/"
SNAPSHOT = INDEX + "python-snapshot.gz"
RUNTIME = INDEX + "pyodide.asm.wasm"
AFRESH = "Python starts afresh"


def snapshot() -> bytes:
    """A snapshot file as tools/site/snapshot.mjs writes it, unpacked."""
    header = json.dumps({"memory": len(MEMORY), "packages": PACKAGES,
                         "dirs": ["/lib/python3.12/site-packages", "/home/pyodide"],
                         "files": [[p, len(d)] for p, d in FILES.items()]})
    while (4 + len(header.encode())) % 16:
        header += " "
    head = header.encode()
    return struct.pack("<I", len(head)) + head + MEMORY + b"".join(FILES.values())


def run(cases: list[dict], tmp_path: Path) -> dict[str, dict]:
    node = shutil.which("node")
    if node is None:
        if IN_CI:
            pytest.fail("Node.js (node) is needed: the static site's build needs it too")
        pytest.skip("no Node.js")
    defaults = {"file": base64.b64encode(gzip.compress(snapshot())).decode(), "status": 200,
                "piece": 0, "decompression": True, "worker": False, "refuseWorker": False,
                "afresh": False, "workerCompile": True, "noModuleClone": False}
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([defaults | c for c in cases]))
    out = subprocess.run([node, str(HARNESS), str(START), str(path)], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    return {r["name"]: r for r in map(json.loads, out.splitlines())}


def restored_files(result: dict) -> dict[str, bytes]:
    return {p: base64.b64decode(d) for p, d in result["files"].items()}


def test_the_snapshot_restores_however_it_is_served(tmp_path: Path) -> None:
    """Gzipped or already unpacked by the web host (Content-Encoding: gzip), whole or in
    pieces of a few bytes (every boundary between the header, the memory and the files), in
    the kernel's worker or in a worker of its own: Pyodide gets the memory, every file its
    bytes (each file its slice of the files' array, no copy), and the packages are marked
    loaded; the loader's settings no longer hold the memory."""
    plain = base64.b64encode(snapshot()).decode()
    cases = [{"name": "gzipped"}, {"name": "unpacked by the host", "file": plain},
             {"name": "in pieces", "piece": 7}, {"name": "unpacked in pieces", "file": plain,
                                                  "piece": 5},
             {"name": "in a worker", "worker": True, "piece": 3},
             {"name": "worker refused", "worker": True, "refuseWorker": True}]
    results = run(cases, tmp_path)
    for case in cases:
        r = results[case["name"]]
        assert "error" not in r, (case["name"], r["error"])
        assert len(r["loads"]) == 1 and "_loadSnapshot" in r["loads"][0]["keys"]
        assert "packages" not in r["loads"][0]["keys"]  # every package is in the snapshot
        assert base64.b64decode(r["loads"][0]["memory"]) == MEMORY, case["name"]
        assert restored_files(r) == {p: d for p, d in FILES.items() if p.startswith("/lib/")}
        assert all(r["owned"])
        assert sorted(r["packages"]) == sorted(PACKAGES)
        assert "_loadSnapshot" not in r["configKeys"]
        assert "_snapshotDeserializer" not in r["configKeys"]
        assert ["info", RESTORED] in r["console"]
        assert r["python"] == ["import random; random.seed()"]
    # The unpacking worker fetches and compiles Pyodide's WebAssembly too: the kernel's worker
    # fetches nothing and instantiates that module. It gets the memory's array back once Python
    # is restored (moved, not copied: the kernel's worker holds none of it), then ends; it
    # fetches nothing more when that message reaches it. A refused worker: this one unpacks
    # the file, and Pyodide fetches and compiles its WebAssembly itself.
    r = results["in a worker"]
    assert r["toWorker"] == [["object", []], ["null", [len(MEMORY)]]]
    assert r["memoryLeft"] == 0
    assert r["workers"] == [1, 1]
    assert sorted(f for f in r["fetches"] if f[1] != "http://[") == [
        ["kernel", INDEX + "pyodide-lock.json"], ["worker", RUNTIME], ["worker", SNAPSHOT]]
    assert r["loads"][0]["runtime"] == "worker"
    assert (r["loads"][0]["lock"], r["loads"][0]["badAddress"]) == (200, "refused")
    for name in ("gzipped", "worker refused"):
        assert [f for f in sorted(results[name]["fetches"]) if f[1] in (RUNTIME, SNAPSHOT)] == [
            ["kernel", RUNTIME], ["kernel", SNAPSHOT]]
        assert results[name]["loads"][0]["runtime"] == "kernel"
    assert results["worker refused"]["workers"] == [0, 0]
    assert results["worker refused"]["toWorker"] == []


def test_pyodide_compiles_its_webassembly_when_the_worker_cannot(tmp_path: Path) -> None:
    """A worker without WebAssembly.compileStreaming, or a browser that cannot post a compiled
    module to another worker: the snapshot still comes from that worker (and goes back to it),
    and Pyodide fetches and compiles its WebAssembly in the kernel's worker, once."""
    results = run([{"name": "no compiling", "worker": True, "workerCompile": False},
                   {"name": "no module posted", "worker": True, "noModuleClone": True}], tmp_path)
    for r in results.values():
        assert "error" not in r, r["error"]
        assert ["info", RESTORED] in r["console"]
        assert r["loads"][0]["runtime"] == "kernel"
        assert [f for f in r["fetches"] if f == ["kernel", RUNTIME]] == [["kernel", RUNTIME]]
        assert ["worker", SNAPSHOT] in r["fetches"]
        assert r["toWorker"] == [["object", []], ["null", [len(MEMORY)]]]
        assert r["workers"] == [1, 1]


def test_python_starts_afresh_when_it_cannot_restore(tmp_path: Path) -> None:
    """No DecompressionStream (Safari before 16.4): Python starts afresh and unpacks the file
    itself; the memory refused by the runtime: Python starts afresh with the snapshot's files.
    Either way every file is written."""
    results = run([{"name": "no DecompressionStream", "decompression": False},
                   {"name": "refused", "afresh": True},
                   {"name": "refused in a worker", "afresh": True, "worker": True}], tmp_path)
    wanted = {p: d for p, d in FILES.items() if p.startswith("/lib/")}
    r = results["no DecompressionStream"]
    assert "error" not in r, r["error"]
    assert [c["keys"] for c in r["loads"]] == [["env", "indexURL"]]
    assert any(level == "warn" and m.startswith(AFRESH) for level, m in r["console"])
    assert any("gzip.open" in line or line.startswith("import gzip") for line in r["python"])
    assert restored_files(r) == wanted
    # the memory refused still goes back to the worker that unpacked it
    assert results["refused in a worker"]["toWorker"][1:] == [["null", [len(MEMORY)]]]
    for name in ("refused", "refused in a worker"):
        r = results[name]
        assert "error" not in r, r["error"]
        assert len(r["loads"]) == 2 and "_loadSnapshot" not in r["loads"][1]["keys"]
        assert any(m.startswith(f"{AFRESH}: the site's snapshot did not restore")
                   for _level, m in r["console"])
        assert restored_files(r) == wanted


def test_a_snapshot_that_cannot_be_fetched_stops_the_start(tmp_path: Path) -> None:
    """The file missing on the server (HTTP 404), or cut short: the kernel's start fails with
    the reason, in the kernel's worker as in a worker of its own."""
    short = base64.b64encode(gzip.compress(snapshot()[:-20])).decode()
    results = run([{"name": "missing", "status": 404}, {"name": "missing, worker", "status": 404,
                                                        "worker": True},
                   {"name": "cut short", "file": short}], tmp_path)
    assert "HTTP 404" in results["missing"]["error"]
    assert "HTTP 404" in results["missing, worker"]["error"]
    assert "ends early" in results["cut short"]["error"]
