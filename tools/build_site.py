"""Build the static site (site/): every lesson page that needs no shared server, running its
Python in the browser (Pyodide, through Voici), from the package registries only.

    python tools/build_site.py [--teacher] [--out site]
    python tools/build_site.py --relock      # rewrite tools/site/lock.json from the registries

What it takes, all pinned (tools/site/requirements.txt and tools/site/lock.json) and cached in
.site-cache/ (git-ignored), so that a second build fetches nothing:

- the build tools (voici-core, jupyterlite-pyodide-kernel and their dependencies) from PyPI,
  installed into .site-cache/venv;
- the Pyodide runtime from npm (the package `pyodide`, its core files only);
- the pure-Python wheels the kernel and the lessons import (IPython, ipywidgets, ...) from PyPI;
- the project's own engine/ and widgets/ packed into a wheel here;
- Node.js, which runs the Pyodide runtime once to make the snapshot (cached by its inputs).

Python is started once, at build time (Node.js runs tools/site/snapshot.mjs): the packages
loaded, IPython, ipywidgets and the lessons' modules imported, then its memory and its
site-packages saved in one file (static/pyodide/python-snapshot.gz). Every page's kernel starts
through tools/site/start-python.js, which restores that Python instead of starting it and
importing everything again at each visit. Every page's kernel settings point at the local
copies: the site makes no request off the server it is served from. Play together and the
Class view (shared state) are left out. Without --teacher the answer keys are left out of the
teacher guide (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tools" / "site"
REQUIREMENTS = HERE / "requirements.txt"
LOCK = HERE / "lock.json"
CACHE = ROOT / ".site-cache"
VENV = CACHE / "venv"
WHEELS = CACHE / "wheels"
NPM = CACHE / "npm"

# Pages left out of the static site: they share state between devices through the server.
SERVER_ONLY = ("play_together.ipynb", "class_view.ipynb")
# The teacher guide's answers, only in a teacher build: its Markdown cells tagged
# "teacher-only:<part>" (widgets/lessons/teacher_parts.py) and the code cells that show those parts
# or
# compute a key once the teacher's key is typed (a key in a static page is no secret). The
# teacher's tables (every hand shown, one move at a time: the projector walkthrough) hold no
# answer key: both builds show them with no key to type.
TEACHER_TAG = "teacher-only"
TEACHER_CALLS = ("teacher_part(", "teacher_notes(", "answer_key(", "full_answer_key(")


def teacher_only_cell(cell: dict) -> bool:
    """A cell of answers for the teacher: left out of the public site."""
    if cell["cell_type"] == "code":
        return any(k in "".join(cell["source"]) for k in TEACHER_CALLS)
    tags = cell.get("metadata", {}).get("tags") or []
    return any(t == TEACHER_TAG or t.startswith(TEACHER_TAG + ":") for t in tags)


TEACHER_ONLY = re.compile(r"teacher_(?:only|page)\((\w+),\s*")
PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                 "python_stdlib.zip", "package.json")
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
PROJECT_WHEEL = "integer_card_games-0.1.0-py3-none-any.whl"
SNAPSHOT = "python-snapshot.gz"
START_SCRIPT = "start-python.js"
START_URL = f"./static/pyodide/{START_SCRIPT}"
SW_VERSION_SCRIPT = "service-worker-version.js"  # put in every page (the script says why)
STARTING_SCRIPT = "starting.js"  # after the status line below in every lesson page (it says why)
# The status line at the foot of a lesson page while its Python starts, and the rule that keeps
# Voici's panel (#main, empty until every cell ran) from covering the lesson's text meanwhile.
STARTING_NOTE = (
    '<div id="icg-starting" role="status"><span class="icg-starting-spin" aria-hidden="true">'
    "</span><span><strong>{loading}</strong> {first_visit}</span></div>"
    "<style>#main:not(:has(#rendered_cells)){{display:none!important}}"
    "#icg-starting{{position:fixed;left:0;right:0;bottom:0;z-index:100000;display:flex;"
    "align-items:center;gap:.75em;padding:.6em 1em;background:#fff;color:#111;"
    "border-top:2px solid #1d4e89;font:1rem/1.4 sans-serif}}"
    ".icg-starting-spin{{flex:none;width:1.4em;height:1.4em;border:3px solid #ccc;"
    "border-top-color:#1d4e89;border-radius:50%;animation:icg-spin 1s linear infinite}}"
    "@keyframes icg-spin{{to{{transform:rotate(360deg)}}}}"
    "@media (prefers-reduced-motion:reduce){{.icg-starting-spin{{animation:none}}}}</style>")
BODY_TAG = re.compile(r"<body[^>]*>")

# Stand-ins: for two compiled modules of Pyodide's full release (not on npm), since IPython
# imports sqlite3 for its history (off in this kernel) and the kernel's dependencies name ssl;
# and for jedi (below).
SQLITE3_STANDIN = '''"""A stand-in for sqlite3 in the static site's kernel: IPython imports it
for its history, which the kernel keeps off; connecting says so."""
PARSE_DECLTYPES = 1
PARSE_COLNAMES = 2


class Error(Exception):
    pass


class DatabaseError(Error):
    pass


class OperationalError(DatabaseError):
    pass


class Connection:
    pass


def connect(*args, **kwargs):
    raise OperationalError("sqlite3 is not available in the static site's kernel")


def register_converter(*args, **kwargs):
    pass


def register_adapter(*args, **kwargs):
    pass
'''
# jedi (with parso, 2 MB gzipped, thousands of files unpacked at every page's start) only
# completes code as it is typed, which no lesson page offers: the kernel installs it by name,
# and IPython goes without it when its import fails.
JEDI_STANDIN = ('"""A stand-in for jedi in the static site\'s kernel: no page completes code as '
                'it is typed."""\nraise ImportError("jedi is not in the static site\'s kernel")\n')
# piplite installs packages from an index at run time (through micropip, which reaches into
# the page's JavaScript and cannot be in the snapshot); the site's pages install nothing. The
# kernel sets its two settings at its start, and `%pip` says why it does nothing.
PIPLITE_STANDIN = {
    "piplite/__init__.py": ('"""A stand-in for piplite in the static site\'s kernel: its pages '
                            'install no package."""\nfrom .piplite import install\n'),
    "piplite/piplite.py": ('_PIPLITE_URLS = []\n_PIPLITE_DISABLE_PYPI = True\n\n\n'
                           'async def install(*args, **kwargs):\n'
                           '    raise RuntimeError("this site installs no package")\n'),
    "piplite/cli.py": ('async def get_transformed_code(argv):\n'
                       '    return \'raise RuntimeError("this site installs no package")\'\n'),
}
STANDINS = {"sqlite3": {"sqlite3/__init__.py": SQLITE3_STANDIN},
            "ssl": {"ssl/__init__.py": '"""A stand-in for ssl: nothing here opens a socket."""\n'},
            "jedi": {"jedi/__init__.py": JEDI_STANDIN},
            "piplite": PIPLITE_STANDIN}


def log(msg: str) -> None:
    print(f"[site] {msg}", flush=True)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], **kw) -> None:
    subprocess.run(cmd, check=True, **kw)


# ---------------------------------------------------------------- build tools (PyPI)

def build_venv() -> Path:
    """.site-cache/venv with exactly the pinned build tools (reinstalled when the pins change)."""
    want = sha256(REQUIREMENTS)
    stamp = VENV / ".requirements-sha256"
    if stamp.exists() and stamp.read_text() == want:
        return VENV
    log("installing the build tools into .site-cache/venv")
    shutil.rmtree(VENV, ignore_errors=True)
    run([sys.executable, "-m", "venv", str(VENV)])
    run([str(VENV / "bin" / "pip"), "install", "-q", "--disable-pip-version-check",
         "--no-deps", "-r", str(REQUIREMENTS)])
    stamp.write_text(want)
    return VENV


# ---------------------------------------------------------------- Pyodide runtime (npm)

def pyodide_runtime(lock: dict) -> Path:
    """The npm package `pyodide` unpacked in .site-cache/npm (checked against the lock)."""
    spec = lock["pyodide"]
    tgz = NPM / f"pyodide-{spec['version']}.tgz"
    unpacked = NPM / f"pyodide-{spec['version']}"
    if not tgz.exists():
        log(f"fetching pyodide@{spec['version']} from npm")
        NPM.mkdir(parents=True, exist_ok=True)
        run(["npm", "pack", "--silent", f"pyodide@{spec['version']}", "--pack-destination",
             str(NPM)], stdout=subprocess.DEVNULL)
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tgz.read_bytes()).digest()).decode()
    if digest != spec["integrity"]:
        tgz.unlink()
        raise SystemExit(f"{tgz.name}: integrity {digest} is not the lock's {spec['integrity']}")
    if not (unpacked / "package" / "pyodide-lock.json").exists():
        shutil.rmtree(unpacked, ignore_errors=True)
        with tarfile.open(tgz) as tar:
            tar.extractall(unpacked, filter="data")
    return unpacked / "package"


# ---------------------------------------------------------------- wheels (PyPI)

def pip_download(pip: Path, specs: list[str]) -> None:
    run([str(pip), "download", "-q", "--disable-pip-version-check", "--no-deps",
         "--only-binary=:all:", "--platform", "any", "--python-version", "3.12",
         "--implementation", "py", "--abi", "none", "-d", str(WHEELS), *specs])


def wheels(lock: dict, pip: Path) -> None:
    """Every wheel of the lock in .site-cache/wheels, checked against its sha256."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    missing = [w for w in lock["wheels"] if not (WHEELS / w["file"]).exists()]
    if missing:
        log(f"fetching {len(missing)} wheels from PyPI")
        pip_download(pip, [f"{w['name']}=={w['version']}" for w in missing])
    for w in lock["wheels"]:
        got = sha256(WHEELS / w["file"])
        if got != w["sha256"]:
            (WHEELS / w["file"]).unlink()
            raise SystemExit(f"{w['file']}: sha256 {got} is not the lock's {w['sha256']}")


def relock() -> None:
    """Rewrite tools/site/lock.json: the pinned names and versions it lists, with the digests
    of the files the registries serve for them now."""
    lock = json.loads(LOCK.read_text())
    pip = build_venv() / "bin" / "pip"
    shutil.rmtree(WHEELS, ignore_errors=True)
    WHEELS.mkdir(parents=True)
    pip_download(pip, [f"{w['name']}=={w['version']}" for w in lock["wheels"]])
    norm = lambda s: re.sub(r"[-_.]+", "_", s).lower()  # noqa: E731
    for w in lock["wheels"]:
        found = [p for p in WHEELS.glob("*.whl")
                 if norm(p.name.split("-")[0]) == norm(w["name"])
                 and p.name.split("-")[1] == w["version"]]
        w["file"], w["sha256"] = found[0].name, sha256(found[0])
    spec = lock["pyodide"]
    out = subprocess.run(["npm", "view", f"pyodide@{spec['version']}", "dist.integrity"],
                         check=True, capture_output=True, text=True).stdout.strip()
    spec["integrity"] = out
    LOCK.write_text(json.dumps(lock, indent=1) + "\n")
    log(f"wrote {LOCK.relative_to(ROOT)}")


# ---------------------------------------------------------------- the project's wheel

def wheel_record(files: dict[str, bytes], dist_info: str) -> bytes:
    lines = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}")
    lines.append(f"{dist_info}RECORD,,")
    return ("\n".join(lines) + "\n").encode()


def write_wheel(path: Path, name: str, version: str, files: dict[str, bytes]) -> None:
    dist_info = f"{name}-{version}.dist-info/"
    files = dict(files)
    files[dist_info + "METADATA"] = (f"Metadata-Version: 2.1\nName: {name}\n"
                                     f"Version: {version}\n").encode()
    files[dist_info + "WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: tools/build_site.py\n"
                                  b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = wheel_record(files, dist_info)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for fn, data in sorted(files.items()):
            info = zipfile.ZipInfo(fn, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
        z.writestr(zipfile.ZipInfo(dist_info + "RECORD", date_time=(2020, 1, 1, 0, 0, 0)), record)


def project_wheel(dest: Path) -> Path:
    """engine/ and widgets/ (Python, styles, scripts, catalogues compiled to .mo) as a wheel;
    the rooms (shared play, the class view) stay on the server."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    files: dict[str, bytes] = {}
    for pkg in ("engine", "widgets"):
        for p in sorted((ROOT / pkg).rglob("*")):
            rel = p.relative_to(ROOT).as_posix()
            if not p.is_file() or "__pycache__" in rel or rel.startswith("widgets/together/"):
                continue
            if p.suffix in (".py", ".css", ".js", ".svg", ".png", ".json"):
                files[rel] = p.read_bytes()
            elif p.suffix == ".po":
                with p.open("rb") as f:
                    catalog = read_po(f)
                buf = io.BytesIO()
                write_mo(buf, catalog)
                files[rel[:-3] + ".mo"] = buf.getvalue()
    # the lessons' headings, for the guide's plan in a kernel without the notebooks
    sys.path.insert(0, str(ROOT))
    from widgets.lessons.course import HEADINGS_FILE, all_headings

    files[HEADINGS_FILE.relative_to(ROOT).as_posix()] = json.dumps(
        all_headings(), ensure_ascii=False).encode()
    path = dest / PROJECT_WHEEL
    write_wheel(path, "integer_card_games", "0.1.0", files)
    return path


# ---------------------------------------------------------------- the site's sources

def python_for(version: str) -> str | None:
    """A CPython of the runtime's minor version (Pyodide 0.27: 3.12) to byte-compile the wheels:
    $SITE_PYTHON, python3.12 on the PATH (not pyenv's shim), or one of pyenv's; None when there
    is none."""
    minor = ".".join(version.split(".")[:2])
    pyenv = sorted(Path.home().glob(f".pyenv/versions/{minor}.*/bin/python{minor}"))
    on_path = shutil.which(f"python{minor}")
    if on_path and "/shims/" in on_path:  # pyenv's shim runs another version unless selected
        on_path = None
    return os.environ.get("SITE_PYTHON") or on_path or (str(pyenv[-1]) if pyenv else None)


def compiled(whl: Path, python: str | None, work: Path, keep: bool = True) -> Path:
    """The wheel with every module byte-compiled for the runtime's Python (unchecked-hash .pyc
    files beside the sources): a page imports them without compiling IPython, ipywidgets and
    the lessons' code in the browser each time it opens. The wheel itself when `python` is
    None. `keep`: kept in .site-cache/compiled (not the project's wheel, new at every edit)."""
    if python is None:
        return whl
    # kept by the source wheel's digest: a second build compiles only the project's wheel
    out = (CACHE / "compiled" / sha256(whl)[:24] if keep else work / "compiled") / whl.name
    if keep and out.is_file():
        return out
    tree = work / "compile" / whl.stem
    shutil.rmtree(tree, ignore_errors=True)
    with zipfile.ZipFile(whl) as z:
        z.extractall(tree)
    run([python, "-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "unchecked-hash",
         str(tree)], stdout=subprocess.DEVNULL)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(tree.rglob("*")):
            if f.is_file():
                info = zipfile.ZipInfo(f.relative_to(tree).as_posix(),
                                       date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, f.read_bytes())
    os.replace(tmp, out)
    return out


# Files of the wheels that no page loads, left out of the site (smaller, and fewer files for
# the runtime to unpack at every page's start): pygments's lexers but Python's (IPython colours
# a traceback as Python; the pages' own code shows no other language).
KEPT_LEXERS = ("__init__", "_mapping", "python")


def unused_file(path: str) -> bool:
    """A file of a wheel that the site leaves out."""
    parts = path.split("/")
    return (parts[:2] == ["pygments", "lexers"] and len(parts) > 2
            and parts[-1].split(".")[0] not in KEPT_LEXERS)


def stripped(whl: Path, work: Path) -> Path:
    """The wheel without its unused files (the wheel itself when it has none)."""
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        if not any(unused_file(n) for n in names):
            return whl
        out = work / "stripped" / whl.name
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
            for info in z.infolist():
                if not unused_file(info.filename):
                    dest.writestr(info, z.read(info))
    return out


def lock_entry(name: str, whl: Path, version: str, depends: list[str],
               imports: list[str]) -> dict:
    return {"name": name, "version": version, "file_name": whl.name, "install_dir": "site",
            "sha256": sha256(whl), "package_type": "package", "imports": imports,
            "depends": depends, "unvendored_tests": False}


def runtime(src: Path, npm_pkg: Path, lock: dict, venv: Path, work: Path) -> None:
    """static/pyodide: the runtime's core files, the start script, and the snapshot of Python
    started with every package; its pyodide-lock.json lists no package (they are all in the
    snapshot's files)."""
    full = work / "runtime"  # the runtime with every wheel, which the snapshot is made from
    full.mkdir()
    for f in PYODIDE_FILES:
        shutil.copy(npm_pkg / f, full / f)
    plock = json.loads((npm_pkg / "pyodide-lock.json").read_text())
    packages = {}
    python = python_for(plock["info"]["python"])
    log(f"byte-compiling the wheels with {python}" if python else
        "no CPython of the runtime's version: the wheels stay uncompiled (slower pages)")

    def add(name, whl, version, depends, imports, keep=True):
        whl = stripped(compiled(whl, python, work, keep), work)
        shutil.copy(whl, full / whl.name)
        packages[name] = lock_entry(name, full / whl.name, version, depends, imports)

    for w in lock["wheels"]:
        add(w["name"], WHEELS / w["file"], w["version"], w["depends"], w["imports"])
    for name, files in STANDINS.items():
        whl = work / f"{name}-1.0.0-py3-none-any.whl"
        write_wheel(whl, name, "1.0.0", {k: v.encode() for k, v in files.items()})
        add(name, whl, "1.0.0", [], [name])
    ext_pypi = (venv / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/"
                "static/pypi")
    add("widgetsnbextension", ext_pypi / "widgetsnbextension-4.0.999-py3-none-any.whl",
        "4.0.999", [], ["widgetsnbextension"])
    # the kernel's own wheels (its piplite is the stand-in above)
    for name, depends in (("ipykernel", []), ("pyodide_kernel", ["ipykernel", "comm", "ipython"])):
        whl = next(ext_pypi.glob(f"{name}-*-py3-none-any.whl"))
        add(name.replace("_", "-"), whl, whl.name.split("-")[1], depends, [name])
    add("integer-card-games", project_wheel(work), "0.1.0", ["ipywidgets"],
        ["engine", "widgets"], keep=False)
    plock["packages"] = packages
    (full / "pyodide-lock.json").write_text(json.dumps(plock, indent=1))

    pyo = src / "static" / "pyodide"
    pyo.mkdir(parents=True)
    for f in PYODIDE_FILES:
        shutil.copy(full / f, pyo / f)
    shutil.copy(HERE / START_SCRIPT, pyo / START_SCRIPT)
    shutil.copy(snapshot(full, packages, work), pyo / SNAPSHOT)
    plock["packages"] = {}
    (pyo / "pyodide-lock.json").write_text(json.dumps(plock, indent=1))


# What the snapshot imports once the packages are loaded: IPython, the widgets, the kernel
# and every module of the lessons that the browser's kernel can import (not the server's rooms,
# not numpy's simulations); then the strategy lab's first charts are played
# (widgets/lessons/strategy/lab_defaults.py). Its last line gives the byte-code files those
# imports read, which no page reads again.
SNAPSHOT_IMPORTS = """
import importlib, json, pkgutil, sys
import IPython, comm, ipywidgets, traitlets
import engine, widgets

# the kernel itself (its shell made, its piplite the stand-in): the page's kernel finds it
# imported (it holds Pyodide's API object and one of its functions: snapshot.mjs names them)
import piplite.piplite, pyodide_kernel

for package in (engine, widgets):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(info.name)
        except ModuleNotFoundError as e:
            if e.name not in ("numpy", "rooms"):
                raise

# the strategy lab page's first charts: their rounds played here, kept in the snapshot
from widgets.lessons.strategy.lab_defaults import play_lab_defaults
play_lab_defaults()
import gc
gc.collect()
json.dumps([m.__cached__ for m in list(sys.modules.values())
            if isinstance(getattr(m, "__cached__", None), str)])
"""


def snapshot(full: Path, packages: dict, work: Path) -> Path:
    """The snapshot of `full`'s Python with every package loaded and the lessons' modules
    imported (tools/site/snapshot.mjs), kept in .site-cache/snapshots by its inputs' digest."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("the static site needs Node.js (node) to make its Python snapshot")
    script = HERE / "snapshot.mjs"
    inputs = [script.read_bytes(), SNAPSHOT_IMPORTS.encode()]
    inputs += [(full / f).read_bytes() for f in ("pyodide.asm.wasm", "python_stdlib.zip")]
    inputs += [f"{k}={v['sha256']}".encode() for k, v in sorted(packages.items())]
    key = hashlib.sha256(b"\0".join(inputs)).hexdigest()[:24]
    kept = CACHE / "snapshots" / f"{key}.gz"
    if kept.is_file():
        return kept
    imports = work / "snapshot_imports.py"
    imports.write_text(SNAPSHOT_IMPORTS)
    log("starting Python once to make its snapshot (Node.js)")
    out = kept.with_suffix(f".{os.getpid()}.tmp")
    kept.parent.mkdir(parents=True, exist_ok=True)
    run([node, str(script), str(full), str(imports), str(out), *sorted(packages)],
        stdout=subprocess.DEVNULL)
    for old in kept.parent.glob("*.gz"):  # the cache keeps the newest snapshot only
        old.unlink()
    os.replace(out, kept)
    return kept


def notebooks(src: Path, teacher: bool) -> list[str]:
    """files/: the lessons (English at the top, each language in its folder), without the
    server-only pages, and without the answer keys unless `teacher`."""
    pages = []
    for nb_path in sorted(ROOT.glob("lessons/*.ipynb")) + sorted(ROOT.glob("lessons/*/*.ipynb")):
        if nb_path.name in SERVER_ONLY:
            continue
        rel = nb_path.relative_to(ROOT / "lessons")
        nb = json.loads(nb_path.read_text())
        if not teacher:
            kept = [c for c in nb["cells"] if not teacher_only_cell(c)]
            if nb_path.name == "teacher_guide.ipynb" and len(kept) == len(nb["cells"]):
                raise SystemExit(f"{rel}: no cell of answers for the teacher was found "
                                 f"(tools/build_site.py teacher_only_cell)")
            nb["cells"] = kept
        else:  # a teacher's copy: no key to type; the answers' Markdown shows as it is
            nb["cells"] = [c for c in nb["cells"] if not (
                c["cell_type"] == "code" and "teacher_notes(" in "".join(c["source"]))]
            for c in nb["cells"]:  # untagged: the classroom template leaves tagged cells out
                tags = c.get("metadata", {}).get("tags")
                if tags:
                    c["metadata"]["tags"] = [t for t in tags if not (
                        t == TEACHER_TAG or t.startswith(TEACHER_TAG + ":"))]
        for c in nb["cells"]:
            if c["cell_type"] == "code":
                # the teacher's tables (the projector walkthrough) open with no key in both
                # builds: a key in a static page is no secret, and they show no answer key
                source = TEACHER_ONLY.sub(r"\1(", "".join(c["source"]))
                if teacher and "teacher_part(" in source:
                    source = ("from widgets.lessons.teacher_parts import open_without_key\n"
                              "open_without_key()\n" + source)
                c["source"] = source
        for c in nb["cells"]:
            if c["cell_type"] == "code":
                c["outputs"], c["execution_count"] = [], None
        dest = src / "files" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(json.dumps(nb, indent=1))
        pages.append(rel.as_posix())
    return pages


# The packages the kernel is told the runtime loads at its start, so that it installs none of
# its own (micropip, piplite, ssl ... ipython) itself: start-python.js has them all from the
# snapshot (micropip, the kernel's installer, is not needed: its piplite is a stand-in).
PRELOAD = ["micropip", "piplite", "ssl", "sqlite3", "ipykernel", "comm", "traitlets",
           "pyodide_kernel", "jedi", "ipython", "ipywidgets", "jupyterlab-widgets",
           "widgetsnbextension", "integer-card-games"]


def lite_config(src: Path) -> None:
    cfg = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "litePluginSettings": {KERNEL_PLUGIN: {
            "pyodideUrl": START_URL, "disablePyPIFallback": True,
            "loadPyodideOptions": {"packages": PRELOAD}}}}}
    (src / "jupyter-lite.json").write_text(json.dumps(cfg, indent=1))


# ---------------------------------------------------------------- after Voici

CONFIG_RE = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)'
                       r"(</script>)", re.S)
CDN_LINK = re.compile(r'\s*<link[^>]+href="https?://[^"]*"[^>]*>')
# What a page loads by itself (scripts, images, styles); a link a reader follows is not a load.
EXTERNAL = re.compile(r"""(?:\ssrc=["']https?://|<link[^>]+href=["']https?://)""")


def postprocess(out: Path) -> None:
    """Every page's kernel settings relative to the page (the kernel resolves them against the
    page's folder) and starting Python through the start script (Voici's build points the
    kernel at pyodide.js when it finds the runtime in static/), a "Starting the lesson..." note
    in every lesson page until its cells show, and no stylesheet link off the site."""
    if str(ROOT) not in sys.path:  # the project's words and course list
        sys.path.insert(0, str(ROOT))
    lite = out / "jupyter-lite.json"
    cfg = json.loads(lite.read_text())
    cfg["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]["pyodideUrl"] = START_URL
    lite.write_text(json.dumps(cfg, indent=2))
    def rel(url: str) -> str:  # a site address from the page (its config's baseUrl)
        return base + url[2:] if url.startswith("./") else url

    for html in out.rglob("*.html"):
        text = html.read_text()
        m = CONFIG_RE.search(text)
        base = "./"
        if m:
            cfg = json.loads(m.group(2))
            base = cfg.get("baseUrl", "./")
            s = cfg.get("litePluginSettings", {}).get(KERNEL_PLUGIN)
            if s:
                s["pyodideUrl"] = rel(START_URL)
                s["pipliteUrls"] = [rel(u) for u in s.get("pipliteUrls", [])]
                s["disablePyPIFallback"] = True
            text = (text[:m.start(2)] + json.dumps(cfg) + m.group(3) + "\n<script>"
                    + (HERE / SW_VERSION_SCRIPT).read_text() + "</script>" + text[m.end(3):])
        text = CDN_LINK.sub("", text)
        lang = page_language(html.relative_to(out))
        if lang is not None and m:
            text = starting_note(text, lang)
        if EXTERNAL.search(text):
            raise SystemExit(f"{html.relative_to(out)}: a link off the site is left")
        text = IPYNB_LINK.sub(page_link, text)
        html.write_text(text)
    drop_lab_app(out)
    landing_pages(out)


def page_language(rel: Path) -> str | None:
    """The language of a lesson page of the site (voici/render/<folder>/<page>.html), None for
    any other page."""
    from widgets.lessons.course import language_of_folder

    parts = rel.parts
    if parts[:2] != ("voici", "render") or len(parts) not in (3, 4):
        return None
    return language_of_folder(parts[2] if len(parts) == 4 else "")


def starting_note(text: str, lang: str) -> str:
    """The page with its "Starting the lesson..." note, in `lang`, first in its body."""
    from html import escape

    from widgets.words.page import page_words

    words = page_words(lang)
    body = BODY_TAG.search(text)
    if body is None:
        raise SystemExit("a lesson page without a <body> tag")
    note = STARTING_NOTE.format(loading=escape(words["loading"]),
                                first_visit=escape(words["firstVisit"]))
    return (text[:body.end()] + note + "<script>" + (HERE / STARTING_SCRIPT).read_text()
            + "</script>" + text[body.end():])


def drop_lab_app(out: Path) -> None:
    """build/ holds JupyterLite's lab application too (its scripts and fonts, 5 MB gzipped),
    which no page of the site opens: only the settings' schemas and the themes that the Voici
    pages read are kept, with the licences."""
    for f in (out / "build").iterdir():
        if f.is_file() and f.suffix not in (".txt", ".json"):
            f.unlink()


IPYNB_LINK = re.compile(r'<a href="([\w-]+)\.ipynb"([^>]*)>(.*?)</a>', re.S)


def page_link(m: re.Match) -> str:
    """A lesson's Markdown link as the site serves it; a link to a server-only page becomes its
    text."""
    if f"{m.group(1)}.ipynb" in SERVER_ONLY:
        return m.group(3)
    return f'<a href="{m.group(1)}.html"{m.group(2)}>{m.group(3)}</a>'


def landing_pages(out: Path) -> None:
    """index.html in every language's folder (es/index.html ...): the lessons in the unit's
    order, the language choice; plain HTML, no kernel."""
    from html import escape

    sys.path.insert(0, str(ROOT))
    from widgets.lessons.course import FOLDERS, landing_page

    for code, folder in FOLDERS.items():
        page = landing_page(folder)
        t = page["classroomText"]
        up = "../" if folder else ""
        render = f"{up}voici/render/{folder + '/' if folder else ''}"
        langs = " ".join(
            f'<a href="{up}{lang["path"] + "/" if lang["path"] else ""}index.html"'
            f' lang="{lang["code"]}"'
            + (' aria-current="page"' if lang["code"] == code else "")
            + f">{escape(lang['name'])}</a>"
            for lang in page["classroomLanguages"])
        rows = "".join(
            f'<li><a href="{render}{escape(les["file"][:-6])}.html">{escape(les["name"])}</a>'
            f' <span>{escape(les["summary"])}</span> <span>({les["minutes"]} min)</span></li>'
            for les in page["classroomLessons"] if les["file"] not in SERVER_ONLY)
        doc = (f'<!DOCTYPE html>\n<html lang="{code}"><head><meta charset="utf-8">'
               '<meta name="viewport" content="width=device-width, initial-scale=1">'
               # no icon, as the lesson pages: the browser asks for no /favicon.ico (a 404)
               '<link rel="icon" href="data:;base64,=">'
               f"<title>{escape(t['page_title'])}</title><style>"
               "body{font-family:sans-serif;max-width:50em;margin:2em auto;padding:0 1em;"
               "line-height:1.5}a{font-size:1.15em;display:inline-block;min-height:24px}"
               "li{margin:.6em 0}nav a{margin-right:1em}</style></head><body>"
               f"<h1>{escape(t['title'])}</h1>"
               f'<nav aria-label="{escape(t["languages"])}">{langs}</nav>'
               f"<p>{escape(t['opening'])}</p>"
               f'<h2>{escape(t["lesson_list"])}</h2><ul class="icg-lesson-list">{rows}</ul>'
               "</body></html>\n")
        dest = out / folder / "index.html" if folder else out / "index.html"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(doc)


def build(out: Path, teacher: bool) -> None:
    t0 = time.monotonic()
    lock = json.loads(LOCK.read_text())
    venv = build_venv()
    npm_pkg = pyodide_runtime(lock)
    wheels(lock, venv / "bin" / "pip")
    # the site's sources in a folder of this build's own (two builds may run at once)
    with tempfile.TemporaryDirectory(dir=CACHE, prefix="build-") as tmp:
        src, work = Path(tmp) / "src", Path(tmp) / "work"
        src.mkdir()
        work.mkdir()
        assemble(src, work, out, npm_pkg, lock, venv, teacher)
    log(f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} "
        f"in {time.monotonic() - t0:.0f} s")


def assemble(src: Path, work: Path, out: Path, npm_pkg: Path, lock: dict, venv: Path,
             teacher: bool) -> None:
    runtime(src, npm_pkg, lock, venv, work)
    pages = notebooks(src, teacher)
    lite_config(src)
    shutil.rmtree(out, ignore_errors=True)
    log(f"voici build: {len(pages)} pages ({'teacher' if teacher else 'public'} build)")
    env = dict(os.environ, JUPYTER_PATH=str(ROOT / "share" / "jupyter"))
    env.pop("JUPYTER_CONFIG_DIR", None)
    run([str(venv / "bin" / "voici"), "build", "--contents", "files", "--output-dir",
         str(out), "--no-sourcemaps", "--template", "classroom"], cwd=src, env=env,
        stdout=subprocess.DEVNULL)
    postprocess(out)
    (out / "build.json").write_text(json.dumps(
        {"teacher": teacher, "pages": pages, "pyodide": lock["pyodide"]["version"]}, indent=1))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "site")
    ap.add_argument("--teacher", action="store_true",
                    help="a teacher's copy: the answer keys included (never publish it)")
    ap.add_argument("--relock", action="store_true",
                    help="rewrite tools/site/lock.json's digests from the registries")
    args = ap.parse_args(argv)
    if args.relock:
        relock()
    else:
        build(args.out.resolve(), args.teacher)


if __name__ == "__main__":
    main()
