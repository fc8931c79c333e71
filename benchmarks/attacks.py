"""One student against the class: the attacks of docs/security.md on a real local Voila.

Starts Voila with the project's configuration (voila.json and voila.py, preheated kernels, as
`make serve`) on 127.0.0.1 only, with a teacher's key set, and a few small notebooks. Each
student computer is told apart by `X-Real-IP`, as nginx sends it from loopback. While the
attacks run, a "class" thread opens pages as students do (each from its own address: the page,
its kernel websocket, then the tab closed with its shutdown beacon) and counts those served.

Every attack is a bounded loop that stops by itself; each says whether the server held:

- query sockets: three `/voila/query/<any id>` websockets closed third, first, second, five
  times; held if a page that reads its URL from a preheated kernel still gets its query;
- query socket from a page (through the proxy): held if it is closed without the request;
- websockets to one's own kernel (up to 300): held if at most max_websockets_per_kernel open
  and another page's kernel handshake still succeeds;
- websockets over one's own pages: held if at most max_websockets_per_client open;
- pages from one computer (40, each connected): held if refused beyond max_pages_per_client
  and another computer's page is served;
- half-open HTTP connections (300 requests never finished): held if a page is still served;
- teacher's key from fresh pages (12 pages from one computer, one wrong key each): held if a
  fresh page has to wait (the wait is the computer's, not the page's);
- rooms (on the room store the server's kernels use): a look-alike name, names posing as a
  computer player or a seat, and 50 tables opened from one computer; held if refused;
- a full server (max_kernels reached, after the class thread stops): held if a closed tab's
  beacon frees its kernel at once (204).

The last line: `attacks: N tried, held N, class pages served during attacks X of Y`.
Run: `.venv/bin/python benchmarks/attacks.py` (2-4 minutes).
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import socket
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import nbformat
import requests
import websocket

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from voila_server import (  # noqa: E402
    kernel_processes,
    message,
    query_sockets_closed_out_of_order,
    read_log,
    start_voila,
    stop_voila,
)

KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
MAX_KERNELS = 20
TEACHER_KEY = "-".join(secrets.token_hex(2).upper() for _ in range(4))


def _ws(url: str, path: str) -> str:
    return url.replace("http://", "ws://") + path


def _headers(client: str | None) -> dict[str, str]:
    return {"X-Real-IP": client} if client else {}


class Page:
    """A lesson page as a browser holds it: the HTML, its kernel, its websocket."""

    def __init__(self, url: str, notebook: str, client: str | None, query: str = "",
                 connect: bool = True, timeout: float = 120) -> None:
        self.url, self.client = url, client
        self.session = requests.Session()
        self.response = self.session.get(urljoin(url, f"voila/render/{notebook}{query}"),
                                         headers=_headers(client), timeout=timeout)
        self.status = self.response.status_code
        found = KERNEL_ID.search(self.response.text) if self.status == 200 else None
        self.kernel_id = found.group(1) if found else None
        self.ws: websocket.WebSocket | None = None
        self.handshake = 0
        if connect and self.kernel_id:
            self.ws, self.handshake = kernel_socket(url, self.kernel_id, client)

    def close(self) -> int:
        """Close the tab: the websocket, then the shutdown beacon (its status)."""
        if self.ws is not None:
            self.ws.close()
        if not self.kernel_id:
            return 0
        xsrf = self.session.cookies.get("_xsrf") or ""
        try:
            return self.session.post(
                urljoin(self.url, f"voila/api/shutdown/{self.kernel_id}"),
                files={"_xsrf": (None, xsrf)}, headers={"Origin": self.url.rstrip("/"),
                                                        **_headers(self.client)},
                timeout=30).status_code
        except requests.RequestException:
            return 0


def kernel_socket(url: str, kernel_id: str, client: str | None
                  ) -> tuple[websocket.WebSocket | None, int]:
    """(the open websocket or None, 101 or the handshake's HTTP status)."""
    try:
        ws = websocket.create_connection(
            _ws(url, f"api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"),
            header=[f"X-Real-IP: {client}"] if client else [], timeout=60)
        return ws, 101
    except websocket.WebSocketBadStatusException as e:
        return None, e.status_code
    except (OSError, websocket.WebSocketException):
        return None, 0


# --- the class: students opening pages while the attacks run --------------------------------


class Class(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = threading.Event()
        self.tried = self.served = 0

    def run(self) -> None:
        n = 0
        while not self.stop.is_set() and self.tried < 200:
            n += 1
            try:
                page = Page(self.url, "one_button.ipynb", f"10.9.{n // 200}.{n % 200 + 1}",
                            timeout=60)
            except requests.RequestException:
                self.tried += 1
                continue
            self.tried += 1
            self.served += page.status == 200 and page.handshake == 101
            page.close()
            self.stop.wait(1.0)


# --- the attacks ----------------------------------------------------------------------------


def query_sockets(url: str, process: Any) -> bool:
    for _ in range(5):
        query_sockets_closed_out_of_order(url, str(uuid.uuid4()))
    deal = secrets.token_hex(3)
    try:
        page = Page(url, "query_echo.ipynb", None, f"?deal={deal}", connect=False, timeout=60)
    except requests.RequestException:
        return False
    page.close()
    return f"deal from the URL: {deal}" in page.response.text


def query_socket_from_a_page(url: str, process: Any) -> bool:
    page = Page(url, "one_button.ipynb", "10.3.0.1", connect=False)
    if not page.kernel_id:
        return False
    try:
        ws = websocket.create_connection(_ws(url, f"voila/query/{page.kernel_id}"),
                                         header=["X-Real-IP: 10.3.0.1"], timeout=10)
        try:
            got = ws.recv()
        except (OSError, websocket.WebSocketException):
            got = ""
        ws.close()
    except websocket.WebSocketException:
        got = ""
    page.close()
    return not got


def websockets_to_own_kernel(url: str, process: Any) -> bool:
    page = Page(url, "one_button.ipynb", "10.3.0.2", connect=False)
    held, refused = [], 0
    for _ in range(300):
        ws, status = kernel_socket(url, page.kernel_id, "10.3.0.2")
        if ws is not None:
            held.append(ws)
        else:
            refused += 1
            if refused >= 50:
                break
    other = Page(url, "one_button.ipynb", "10.3.0.3")
    ok = len(held) <= 4 and other.handshake == 101
    for ws in held:
        ws.close()
    other.close()
    page.close()
    return ok


def websockets_over_own_pages(url: str, process: Any) -> bool:
    pages = [Page(url, "one_button.ipynb", "10.3.0.4", connect=False) for _ in range(6)]
    held = []
    for page in pages:
        for _ in range(4):
            if page.kernel_id:
                ws, _status = kernel_socket(url, page.kernel_id, "10.3.0.4")
                if ws is not None:
                    held.append(ws)
    ok = len(held) <= 16
    for ws in held:
        ws.close()
    for page in pages:
        page.close()
    return ok


def pages_from_one_computer(url: str, process: Any) -> bool:
    pages, refused = [], 0
    for _ in range(40):
        page = Page(url, "one_button.ipynb", "10.3.0.5")
        if page.status == 429:
            refused += 1
        pages.append(page)
    other = Page(url, "one_button.ipynb", "10.3.0.6")
    ok = refused >= 40 - 8 and other.status == 200
    for page in [*pages, other]:
        page.close()
    return ok


def half_open_connections(url: str, process: Any) -> bool:
    host, port = url.split("//")[1].rstrip("/").split(":")
    held = []
    for _ in range(300):
        try:
            s = socket.create_connection((host, int(port)), timeout=5)
            s.sendall(b"GET /voila/render/one_button.ipynb HTTP/1.1\r\nHost: x\r\n")
            held.append(s)
        except OSError:
            break
    try:
        page = Page(url, "one_button.ipynb", "10.3.0.7", timeout=60)
        ok = page.status == 200 and page.handshake == 101
        page.close()
    except requests.RequestException:
        ok = False
    for s in held:
        s.close()
    return ok


def _states(ws: websocket.WebSocket) -> tuple[str, dict[str, dict]]:
    session, control = uuid.uuid4().hex, uuid.uuid4().hex
    ws.send(json.dumps(message("comm_open", session, {"comm_id": control,
                                                   "target_name": "jupyter.widget.control",
                                                   "data": {}},
                               metadata={"version": "1.0.0"})))
    ws.send(json.dumps(message("comm_msg", session, {"comm_id": control,
                                                  "data": {"method": "request_states"}})))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m = json.loads(ws.recv())
        c = m.get("content", {})
        if m.get("msg_type") == "comm_msg" and c.get("comm_id") == control:
            return session, {k: v["state"] for k, v in c["data"]["states"].items()}
    return session, {}



def _guess(page: Page, guess: str) -> str:
    """Type `guess` in the page's key box and press Unlock; the gate's answer."""
    ws = page.ws
    session, states = _states(ws)
    box = next(k for k, s in states.items() if s.get("_model_name") == "PasswordModel")
    button = next(k for k, s in states.items() if s.get("_model_name") == "ButtonModel")
    ws.send(json.dumps(message("comm_msg", session, {"comm_id": box, "data": {
        "method": "update", "state": {"value": guess}, "buffer_paths": []}})))
    ws.send(json.dumps(message("comm_msg", session, {"comm_id": button, "data": {
        "method": "custom", "content": {"event": "click"}}})))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        m = json.loads(ws.recv())
        text = json.dumps(m.get("content", {}))
        if "nothing was unlocked" in text.lower():
            return "wait" if "Too many tries" in text else "guess"
    return ""


def teacher_key_from_fresh_pages(url: str, process: Any) -> bool:
    answers = []
    for i in range(12):
        page = Page(url, "gate.ipynb", "10.3.0.8")
        if page.ws is None:
            page.close()
            continue
        try:
            answers.append(_guess(page, f"WRONG-{i:04d}-GUESS"))
        except (OSError, websocket.WebSocketException, StopIteration, ValueError):
            answers.append("")
        page.close()
    print(f"  teacher's key: {answers.count('guess')} real guesses, "
          f"{answers.count('wait')} told to wait, of {len(answers)} fresh pages")
    return "wait" in answers and answers.count("guess") < len(answers)


def rooms(url: str, process: Any) -> bool:
    from engine.hit_me import HitMeConfig, HitMeGame
    from rooms import NameTaken, NotAllowed, open_store

    folder = Path(tempfile.mkdtemp(prefix="icg-attack-rooms-"))
    store = open_store(f"sqlite:///{folder / 'rooms.sqlite3'}")
    refused = 0
    host = store.create_room(HitMeGame(HitMeConfig(players=4), seed=3), client="10.3.0.9")
    store.join(host.code, "Ana")
    for name in ("Аna", "Computer 3", "Seat 4", "Asiento 2"):
        try:
            store.join(host.code, name)
        except (NameTaken, NotAllowed):
            refused += 1
    made = 0
    for _ in range(50):
        try:
            store.create_room(HitMeGame(HitMeConfig(players=2), seed=3), client="10.3.0.9")
            made += 1
        except NotAllowed:
            pass
    mode = (folder / "rooms.sqlite3").stat().st_mode & 0o077
    shutil.rmtree(folder, ignore_errors=True)
    print(f"  rooms: {refused} of 4 posing names refused, {made + 1} of 51 tables made, "
          f"store file group/other bits {oct(mode)}")
    return refused == 4 and made < 3 and mode == 0


def full_server_beacon(url: str, process: Any) -> bool:
    pages = []
    full = None
    for n in range(MAX_KERNELS + 5):
        page = Page(url, "one_button.ipynb", f"10.4.0.{n // 2 + 1}")
        if page.status == 503:
            full = page
            break
        pages.append(page)
    if full is None or not pages:
        for page in pages:
            page.close()
        return False
    victim = pages[-1]
    status = victim.close()
    deadline = time.monotonic() + 30
    gone = False
    while time.monotonic() < deadline:
        ids = {m.group(1) for p in kernel_processes(process.pid)
               for m in [re.search(r"kernel-([0-9a-f-]{36})", " ".join(p.cmdline()))] if m}
        if victim.kernel_id not in ids:
            gone = True
            break
        time.sleep(0.3)
    for page in pages[:-1]:
        page.close()
    print(f"  full server: beacon {status}, kernel freed: {gone}")
    return status == 204 and gone


ATTACKS: list[tuple[str, Callable[[str, Any], bool]]] = [
    ("query sockets closed out of order", query_sockets),
    ("query socket opened by a page", query_socket_from_a_page),
    ("300 websockets to one's own kernel", websockets_to_own_kernel),
    ("websockets over one's own pages", websockets_over_own_pages),
    ("40 connected pages from one computer", pages_from_one_computer),
    ("300 half-open HTTP connections", half_open_connections),
    ("teacher's key from fresh pages", teacher_key_from_fresh_pages),
    ("rooms: look-alike and posing names, table flood", rooms),
]


def _notebooks(folder: Path) -> None:
    fixtures = ROOT / "tests" / "fixtures"
    shutil.copy(fixtures / "one_button.ipynb", folder)
    shutil.copy(fixtures / "pool" / "query_echo.ipynb", folder)
    gate = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from widgets import HitMeTable\nfrom widgets.page.teacher_key import teacher_only\n\n"
        "teacher_only(HitMeTable, players=3, seed=7, walkthrough=True)")])
    nbformat.write(gate, folder / "gate.ipynb")


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="icg-attacks-"))
    _notebooks(folder)
    args = [f"--ClassroomKernelManager.max_kernels={MAX_KERNELS}",
            "--VoilaKernelManager.fill_delay=0.5"]
    url, process = start_voila(folder, extra_args=args, env={"ICG_TEACHER_KEY": TEACHER_KEY},
                               timeout=120)
    tried = held = 0
    students = Class(url)
    try:
        deadline = time.monotonic() + 120
        while len(kernel_processes(process.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(3)  # query_echo's preheated kernel reaches its page-query socket
        students.start()
        for name, attack in ATTACKS:
            tried += 1
            try:
                ok = attack(url, process)
            except Exception as e:  # noqa: BLE001 - an attack that breaks the bench is not held
                print(f"  {name}: {type(e).__name__}: {e}")
                ok = False
            held += ok
            print(f"{'held  ' if ok else 'BROKE '} {name}")
        students.stop.set()
        students.join(timeout=120)
        tried += 1
        ok = full_server_beacon(url, process)
        held += ok
        print(f"{'held  ' if ok else 'BROKE '} a full server frees a closed tab's kernel")
        log = read_log(process)
        print(f"server log: {len(log.encode()) // 1024} KiB, "
              f"{log.count('Refused (')} refusal lines")
    finally:
        stop_voila(process)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"attacks: {tried} tried, held {held}, class pages served during attacks "
          f"{students.served} of {students.tried}")
    return 0 if held == tried else 1


if __name__ == "__main__":
    sys.exit(main())
