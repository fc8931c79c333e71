"""Start a Voila server with the project's configuration, for tests and benchmarks.

`start_voila(notebook_dir)` runs Voila from the repository root, so that it
reads the project's voila.json and voila.py exactly as `make serve` does, on a
free loopback port. `find_external_urls(html)` lists what a served page would
fetch from outside the server.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parent.parent
# The environment's voila script, as `make serve` runs it (not `python -m voila`).
VOILA = Path(sys.executable).with_name("voila")
HOST = "127.0.0.1"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})

# Identifiers that appear in the markup but are never fetched: the XML
# namespaces and RDF metadata of the loading spinner's inline SVG.
NON_FETCHED_IDENTIFIERS = frozenset(
    {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "http://purl.org/dc/elements/1.1/",
        "http://purl.org/dc/dcmitype/StillImage",
        "http://creativecommons.org/ns#",
    }
)


def free_port() -> int:
    """A TCP port that was free on the loopback interface a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((HOST, port)) == 0


def read_log(process: subprocess.Popen) -> str:
    """Everything the server has written so far (stdout and stderr)."""
    path = getattr(process, "log_path", None)
    if path is None or not Path(path).exists():
        return ""
    return Path(path).read_text(encoding="utf-8", errors="replace")


def start_voila(
    notebook_dir: str | os.PathLike[str],
    port: int | None = None,
    extra_args: Sequence[str] = (),
    *,
    timeout: float = 60.0,
    env: dict[str, str] | None = None,
    preheat: bool = True,
    module: str | None = None,
) -> tuple[str, subprocess.Popen]:
    """Start Voila on `notebook_dir` (a directory or one notebook) on 127.0.0.1 (`module`:
    run `python -m module` instead of the `voila` script, e.g. "serving.class_server").

    Voila runs from this interpreter's environment and from the repository
    root, so it loads the project's configuration like `make serve` (voila.json
    at the root; template and voila.py installed by serving/install.py).
    `extra_args` (command-line traitlets, e.g.
    "--MappingKernelManager.cull_idle_timeout=3") override them. Returns
    the server's base URL (ending in "/") and its process, whose output goes
    to the file `process.log_path`. Stop it with `stop_voila(process)`.

    preheat=False turns voila.json's pool of preheated kernels off: each page starts its
    kernel when asked. A server on lessons/ with the pool on runs every lesson notebook at
    start and again after each page taken (about a minute of CPU before the first test on two
    cores); the tests of pooled pages (tests/test_pool.py) keep it on.
    """
    notebook_dir = Path(notebook_dir).resolve()
    prefix = Path(sys.prefix)
    needed = [prefix / "share/jupyter/voila/templates/classroom/index.html.j2",
              prefix / "etc/jupyter/voila.py"]
    if not all(path.exists() for path in needed):
        raise RuntimeError(
            f"the project's Voila template and voila.py are not installed in {prefix}: "
            "run `make venv` (or `python serving/install.py`)"
        )
    attempts = 1 if port is not None else 3
    last_error = ""
    for _ in range(attempts):
        chosen = port if port is not None else free_port()
        log = tempfile.NamedTemporaryFile(  # closed below, kept on disk
            prefix="voila-", suffix=".log", delete=False
        )
        cmd = [
            *([sys.executable, "-m", module] if module else [str(VOILA)]),
            str(notebook_dir),
            "--no-browser",
            f"--Voila.ip={HOST}",
            f"--port={chosen}",
            "--Voila.port_retries=0",
            *([] if preheat else ["--VoilaConfiguration.preheat_kernel=False"]),
            *extra_args,
        ]
        process = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
        log.close()
        process.log_path = log.name  # type: ignore[attr-defined]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            if _port_open(chosen) and "running at" in read_log(process):
                return f"http://{HOST}:{chosen}/", process
            time.sleep(0.2)
        last_error = read_log(process)[-3000:]
        stop_voila(process)
    raise RuntimeError(f"Voila did not start on {notebook_dir}:\n{last_error}")


def start_jupyter_server(root: Path, log: Path, token: str = "class-token",
                         timeout: float = 90.0) -> tuple[str, subprocess.Popen]:
    """`jupyter server` (Voila as a server extension, as in JupyterLab or on a hub) on
    `root`, from the repository root so it loads the project's configuration. Returns its
    base URL and process once the log says it runs and the port answers (a clean-clone CI run
    once got "connection refused" right after the log line). Stop it with `stop_voila`."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).with_name("jupyter")), "server", "--no-browser",
             "--allow-root", f"--ServerApp.ip={HOST}", f"--ServerApp.port={port}",
             "--ServerApp.port_retries=0", f"--ServerApp.token={token}",
             f"--ServerApp.root_dir={root}"],
            cwd=REPO_ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    process.log_path = str(log)  # type: ignore[attr-defined]
    deadline = time.monotonic() + timeout
    while "is running at" not in read_log(process) or not _port_open(port):
        if process.poll() is not None or time.monotonic() > deadline:
            stop_voila(process)
            raise RuntimeError(f"jupyter server did not start:\n{read_log(process)[-3000:]}")
        time.sleep(0.25)
    return f"http://{HOST}:{port}/", process


def kernel_processes(pid: int) -> list:
    """psutil processes of the kernels started by the server with this pid."""
    import psutil

    try:
        kids = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    found = []
    for k in kids:
        try:
            if "ipykernel" in " ".join(k.cmdline()):
                found.append(k)
        except psutil.Error:
            pass
    return found


def stop_voila(process: subprocess.Popen, timeout: float = 20.0) -> None:
    """Stop a server from `start_voila` (SIGTERM, then SIGKILL), kernels included."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=timeout)
    # Kernels run in the server's process group; make sure none is left behind.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


@contextlib.contextmanager
def running_voila(
    notebook_dir: str | os.PathLike[str],
    port: int | None = None,
    extra_args: Sequence[str] = (),
    **kwargs: object,
) -> Iterator[tuple[str, subprocess.Popen]]:
    """`start_voila` as a context manager that always stops the server."""
    url, process = start_voila(notebook_dir, port, extra_args, **kwargs)  # type: ignore[arg-type]
    try:
        yield url, process
    finally:
        stop_voila(process)


# Attributes through which a browser fetches something. The href of <a> and
# <area> is a link the reader may follow, not a request the page makes.
_URL_ATTRIBUTES = frozenset(
    {"src", "href", "srcset", "action", "formaction", "poster", "data", "background",
     "xlink:href", "manifest", "ping", "imagesrcset"}
)
_NAVIGATION_TAGS = frozenset({"a", "area"})
_ABSOLUTE_URL = re.compile(r"""(?i)\b(?:https?|wss?|ftp)://[^\s"'<>()\\`]+""")
_CSS_OR_JS_FETCH = re.compile(
    r"""(?ix)(?:url\(\s*|@import\s+|import\(\s*|fetch\(\s*)['"]?((?:https?:)?//[^\s"'()]+)"""
)


class _ResourceCollector(HTMLParser):
    """Collects fetching attribute values and the text of <script> and <style> elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: list[str] = []
        self.code: list[str] = []
        self._in_code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._in_code += 1
        for name, value in attrs:
            if value is None:
                continue
            if name == "ping" or (name in _URL_ATTRIBUTES and tag not in _NAVIGATION_TAGS):
                self.values.extend(part.strip().split(" ")[0] for part in value.split(","))
            elif name == "style":
                self.code.append(value)
            elif tag == "meta" and name == "content" and "url=" in value.lower():
                self.values.append(value.lower().split("url=", 1)[1].strip())

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._in_code:
            self._in_code -= 1

    def handle_data(self, data: str) -> None:
        if self._in_code:
            self.code.append(data)


def _is_external(url: str) -> bool:
    url = url.strip().strip("'\"")
    if url.startswith("//"):
        url = "http:" + url
    parts = urlsplit(url)
    if parts.scheme.lower() not in {"http", "https", "ws", "wss", "ftp"}:
        return False  # relative, data:, javascript:, #fragment...
    host = (parts.hostname or "").lower()
    return host not in LOOPBACK_HOSTS and f"[{host}]" not in LOOPBACK_HOSTS


def find_external_urls(html: str, allowed: Iterable[str] = NON_FETCHED_IDENTIFIERS) -> list[str]:
    """Every URL that `html` would fetch from outside the local server, sorted, no repeats.

    Looks at fetching attributes (src, href of <link>, srcset, action...), CSS
    url()/@import, JavaScript import()/fetch(), and any absolute http(s)/ws URL
    inside <script> and <style> (page config, scripts, cell outputs). Links the
    reader may follow (<a href>) and URLs in the visible text are not requests.
    Loopback URLs and the never-fetched identifiers in `allowed` pass.
    """
    allowed = set(allowed)
    collector = _ResourceCollector()
    collector.feed(html)
    collector.close()
    code = "\n".join(collector.code)
    candidates = list(collector.values)
    candidates += [m.group(1) for m in _CSS_OR_JS_FETCH.finditer(code)]
    candidates += [m.group(0) for m in _ABSOLUTE_URL.finditer(code)]
    return sorted({url for url in candidates if url not in allowed and _is_external(url)})


def ws_url(url: str, path: str) -> str:
    """The websocket URL of `path` on the server at `url`."""
    return url.replace("http://", "ws://") + path


def query_sockets_closed_out_of_order(url: str, kernel_id: str) -> int:
    """The page-query attack: three websockets to /voila/query/<kernel_id> (any id), closed in
    the order 3rd, 1st, 2nd (upstream Voila's bookkeeping then dropped another page's waiter).
    Returns how many the server let open (a refused handshake is as good)."""
    import websocket

    opened = []
    for _ in range(3):
        try:
            opened.append(websocket.create_connection(ws_url(url, f"voila/query/{kernel_id}"),
                                                      timeout=10))
        except (OSError, websocket.WebSocketException):
            pass
    for i in (2, 0, 1):
        if i < len(opened):
            opened[i].close()
    return len(opened)


def message(msg_type: str, session: str, content: dict, channel: str | bytes = "shell",
            metadata: dict | None = None) -> dict:
    """A Jupyter message as a page's front end builds it (for the attack tests and
    benchmarks/attacks.py)."""
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "username": "student",
            "session": session,
            "msg_type": msg_type,
            "version": "5.3",
            "date": _dt.datetime.now(_dt.timezone.utc).isoformat(),
        },
        "parent_header": {},
        "metadata": metadata or {},
        "content": content,
        "channel": channel,
        "buffers": [],
    }
