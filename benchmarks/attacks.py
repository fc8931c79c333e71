"""One student against the class: the attacks of docs/security.md on a real local server.

Starts the server as `make class` starts it (`python -m serving.class_server`, the project's
voila.json and voila.py, preheated kernels, listening on every interface, 0.0.0.0), with a
teacher's key set, a room store of its own and a few small notebooks. Each student computer
is told apart by `X-Real-IP`, as nginx sends it from loopback; the attacks on open files also
come from this machine's own network address when it has one (a computer on the network, as
the server sees it: nothing leaves the machine). While the attacks run, a "class" thread opens
pages as students do (each from its own address: the page, its kernel websocket, then the tab
closed with its shutdown beacon) and times each (the other students' p95).

Every attack is a bounded loop that stops by itself; each says whether the server held:

- query sockets: three `/voila/query/<any id>` websockets closed third, first, second, five
  times; held if a page that reads its URL from a preheated kernel still gets its query;
- query socket from a page (through the proxy): held if refused without the request;
- 1000 query sockets for no kernel: held if each is refused before the upgrade (403) and the
  server's open files do not grow;
- websockets to one's own kernel (up to 300), over one's own pages, 40 pages from one
  computer: held if capped (max_websockets_per_kernel, _per_client, max_pages_per_client);
- half-open HTTP connections: 300 through the proxy, 1000 from a network address: held if
  a page is still served, that address holds at most max_connections_per_client, and the
  half-open ones are closed after the header timeout (the open files come back down);
- log flood: 2000 `GET /logout`, 2000 bad `/voila/templates/...` paths, 300 refused kernel
  handshakes: held if no traceback is written and the log grows less than 1 MB;
- name flood: 20,000 name changes from one page (through its kernel websocket, as the page's
  name bar sends them: "Not you? Change", a name typed, "That's me"): held if the store
  holds at most the page's cap of students and the class view's answers panel opens in at
  most 2 s and shows a new student in at most 2 s;
- a page that never reads: 6000 widget-state requests, nothing read: held if the server holds
  the page to its message rate (or cuts it off when its unsent bytes pass their bound) and
  its memory grows at most 20 MiB, at the peak and after the page is gone;
- the projector page (/class): held if it names no path of the server;
- teacher's key from fresh pages (12 pages from one computer, one wrong key each): held if a
  fresh page has to wait (the wait is the computer's, not the page's);
- rooms (on the room store the server's kernels use): a look-alike name, names posing as a
  computer player or a seat, and 50 tables opened from one computer; held if refused;
- a full server (max_kernels reached, after the class thread stops): held if a closed tab's
  beacon frees its kernel at once (204).

The last line: `attacks: N tried, N held, log growth X MB, server RSS growth Y MiB, other
students' p95 Z s` (the server's log and its own memory, kernels not counted, from before the
first attack to after the last; the p95 of the class thread's page loads).
Run: `.venv/bin/python benchmarks/attacks.py` (4-6 minutes).
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
import psutil
import requests
import websocket

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
import voila_server  # noqa: E402
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
    """Students opening pages one after another (each from its own address), timed from the
    page request to its kernel websocket open; a page not served counts as 60 s."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = threading.Event()
        self.tried = self.served = 0
        self.seconds: list[float] = []

    def run(self) -> None:
        n = 0
        while not self.stop.is_set() and self.tried < 200:
            n += 1
            t0 = time.monotonic()
            try:
                page = Page(self.url, "one_button.ipynb", f"10.9.{n // 200}.{n % 200 + 1}",
                            timeout=60)
            except requests.RequestException:
                self.tried += 1
                self.seconds.append(60.0)
                continue
            self.tried += 1
            ok = page.status == 200 and page.handshake == 101
            self.served += ok
            self.seconds.append(time.monotonic() - t0 if ok else 60.0)
            page.close()
            self.stop.wait(2.0)

    def p95(self) -> float:
        if not self.seconds:
            return float("nan")
        ranked = sorted(self.seconds)
        return ranked[min(len(ranked) - 1, int(0.95 * len(ranked)))]


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
    except websocket.WebSocketException:  # refused before the upgrade
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


# --- open files, logs, memory, names (the server as `make class` runs it) -------------------

STATE: dict[str, Any] = {}  # the server's folder and store, set by main()


def _server(process: Any) -> psutil.Process:
    return psutil.Process(process.pid)


def _host_port(url: str) -> tuple[str, int]:
    host, port = url.split("//")[1].rstrip("/").split(":")
    return host, int(port)


def network_address() -> str | None:
    """This machine's own address on a network (as a student's computer reaches it), if any."""
    from serving.class_server import network_addresses, system_interfaces

    interfaces, up = system_interfaces()
    found = network_addresses(interfaces, up)
    if not found:  # a test network (192.0.2.x) is not private, but still another computer
        found = [a for addresses in interfaces.values() for a in addresses
                 if not a.startswith("127.")]
    return found[0] if found else None


def query_socket_flood(url: str, process: Any) -> bool:
    server = _server(process)
    before = server.num_fds()
    statuses: dict[int, int] = {}
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    with requests.Session() as session:
        for _ in range(1000):
            r = session.get(urljoin(url, f"voila/query/{uuid.uuid4()}"), headers=upgrade,
                            timeout=30)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
    after = server.num_fds()
    print(f"  query sockets: {statuses}, server open files {before} -> {after}")
    return statuses.get(403, 0) == 1000 and after <= before + 20


def half_open_from_the_network(url: str, process: Any) -> bool:
    """1000 half-open connections from this machine's network address (a student's computer)
    and 300 more from loopback (the proxy); the network address holds at most its cap, pages
    are still served, the half-open ones are closed after the header timeout."""
    from serving.connections import HEADER_SECONDS, MAX_CONNECTIONS_PER_CLIENT

    address = network_address()
    _host, port = _host_port(url)
    server = _server(process)
    before = server.num_fds()
    held: list[socket.socket] = []
    if address:
        for _ in range(1000):
            try:
                sock = socket.create_connection((address, port), timeout=5)
                sock.sendall(b"GET /voila/render/one_button.ipynb HTTP/1.1\r\nHost: x\r\n")
                held.append(sock)
            except OSError:
                break
    for _ in range(300):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"GET /voila/render/one_button.ipynb HTTP/1.1\r\nHost: x\r\n")
            held.append(sock)
        except OSError:
            break
    time.sleep(1.0)
    peak = server.num_fds()
    # the server's connections from that address (its other open files come and go with the
    # class's pages meanwhile)
    from_network = sum(1 for c in server.net_connections("tcp")
                       if address and c.raddr and c.raddr.ip == address)
    try:
        page = Page(url, "one_button.ipynb", "10.3.0.7", timeout=60)
        served = page.status == 200 and page.handshake == 101
        page.close()
    except requests.RequestException:
        served = False
    time.sleep(HEADER_SECONDS + 4)
    closed = 0
    for sock in held:
        sock.setblocking(False)
        try:
            closed += sock.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    after = server.num_fds()
    print(f"  half-open: {len(held)} opened ({'from ' + address if address else 'loopback'}"
          f" and loopback), server open files {before} -> {peak} -> {after}, connections from "
          f"the network address {from_network}; closed by the server {closed}; page served "
          f"meanwhile: {served}")
    capped = not address or from_network <= MAX_CONNECTIONS_PER_CLIENT + 20
    return served and capped and closed >= len(held) - 5 and after <= before + 40


def log_flood(url: str, process: Any) -> bool:
    before = len(read_log(process).encode())
    with requests.Session() as session:
        for _ in range(2000):
            session.get(urljoin(url, "logout"), timeout=30)
        for i in range(2000):
            session.get(urljoin(url, f"voila/templates/x{i}/y.js"), timeout=30)
    page = Page(url, "one_button.ipynb", None, connect=False)
    held = [kernel_socket(url, page.kernel_id, None)[0] for _ in range(4)]
    refused = sum(kernel_socket(url, page.kernel_id, None)[1] == 429 for _ in range(300))
    for ws in held:
        if ws is not None:
            ws.close()
    page.close()
    grown = read_log(process).encode()[before:]
    print(f"  log flood: 4000 anonymous GETs and {refused} refused handshakes wrote "
          f"{len(grown) / 1e6:.3f} MB, {grown.count(b'Traceback')} tracebacks")
    return refused >= 290 and b"Traceback" not in grown and len(grown) < 1_000_000


def _kernel_done(ws: websocket.WebSocket, session: str, stop: threading.Event) -> None:
    """Read everything the kernel sends until its reply to our last request (a page that
    reads; the attack is what it sends)."""
    while not stop.is_set():
        try:
            m = json.loads(ws.recv())
        except (OSError, websocket.WebSocketException, ValueError):
            return
        if m.get("msg_type") == "kernel_info_reply" and m.get("parent_header", {}).get(
                "msg_id") == STATE.get("last_request"):
            return


def name_flood(url: str, process: Any) -> bool:
    from rooms.answers import day_of, open_answers
    from rooms.caps import PAGE_CAPS
    from widgets.together.dashboard import AnswersPanel

    page = Page(url, "names.ipynb", "10.3.1.1")
    if page.ws is None:
        return False
    session, states = _states(page.ws)
    box = next(k for k, v in states.items() if v.get("_model_name") == "TextModel"
               and v.get("description") == "Your first name:")
    button = next(k for k, v in states.items() if v.get("_model_name") == "ButtonModel"
                  and v.get("description") == "That's me")
    change = next(k for k, v in states.items() if v.get("_model_name") == "ButtonModel"
                  and v.get("description") == "Not you? Change")
    letters = "abcdefghijklmnopqrstuvwxyz"
    t0 = time.monotonic()
    last = message("kernel_info_request", session, {})
    STATE["last_request"] = last["header"]["msg_id"]
    stop = threading.Event()
    reader = threading.Thread(target=_kernel_done, args=(page.ws, session, stop), daemon=True)
    reader.start()
    for i in range(20_000):
        name = "Flood" + "".join(letters[i // 26 ** k % 26] for k in range(4))
        page.ws.send(json.dumps(message("comm_msg", session, {"comm_id": change, "data": {
            "method": "custom", "content": {"event": "click"}}})))
        page.ws.send(json.dumps(message("comm_msg", session, {"comm_id": box, "data": {
            "method": "update", "state": {"value": name}, "buffer_paths": []}})))
        page.ws.send(json.dumps(message("comm_msg", session, {"comm_id": button, "data": {
            "method": "custom", "content": {"event": "click"}}})))
    time.sleep(2)  # the server holds a page to its message rate: the last request passes
    page.ws.send(json.dumps(last))
    reader.join(timeout=300)
    stop.set()
    sent = time.monotonic() - t0
    page.close()
    time.sleep(3)  # the outbox's thread
    url_store = STATE["store"]
    day = day_of(time.time())
    students = len(open_answers(url_store).presence(day))
    t0 = time.monotonic()
    panel = AnswersPanel(url=url_store)
    opened = time.monotonic() - t0
    open_answers(url_store).seen("Realstudent", 3)
    t0 = time.monotonic()
    panel.poll()
    shown_at = time.monotonic() - t0
    shown = "Realstudent" in panel.students.value
    print(f"  name flood: 20,000 name changes sent in {sent:.1f} s; students in the store "
          f"{students} (page cap {PAGE_CAPS['name']}); answers panel opened in {opened:.2f} s, "
          f"a new student shown in {shown_at:.2f} s ({len(panel.students.value)} characters)")
    return students <= PAGE_CAPS["name"] + 1 and opened <= 2 and shown and shown_at <= 2


def slow_reader(url: str, process: Any) -> bool:
    server = _server(process)
    page = Page(url, "names.ipynb", "10.3.1.2", connect=False)
    if not page.kernel_id:
        return False
    time.sleep(2)
    before = server.memory_info().rss  # the page served: what its websocket then costs
    ws = websocket.create_connection(
        _ws(url, f"api/kernels/{page.kernel_id}/channels?session_id={uuid.uuid4().hex}"),
        header=["X-Real-IP: 10.3.1.2"], timeout=60,
        sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)])
    session, control = uuid.uuid4().hex, uuid.uuid4().hex
    ws.send(json.dumps(message("comm_open", session, {"comm_id": control,
                                                   "target_name": "jupyter.widget.control",
                                                   "data": {}},
                               metadata={"version": "1.0.0"})))
    sent = 0
    peak = before
    for _ in range(6000):
        try:
            ws.send(json.dumps(message("comm_msg", session, {
                "comm_id": control, "data": {"method": "request_states"}})))
        except (OSError, websocket.WebSocketException):
            break
        sent += 1
        if sent % 200 == 0:
            peak = max(peak, server.memory_info().rss)
    # the kernel answers the requests the server let through (a page is held to its message
    # rate, serving/kernel_guard.py): until the page is cut off, or for a while
    rated = "past 30 a second" in read_log(process)
    deadline = time.monotonic() + (15 if rated else 90)
    while "bytes it did not read" not in read_log(process) and time.monotonic() < deadline:
        peak = max(peak, server.memory_info().rss)
        time.sleep(0.5)
    peak = max(peak, server.memory_info().rss)
    cut = "bytes it did not read" in read_log(process)
    ws.close()
    page.close()
    time.sleep(5)
    after = server.memory_info().rss
    mib = 1024 * 1024
    print(f"  slow reader: {sent} widget-state requests, held to the page's message rate: "
          f"{rated}, cut off by the server: {cut}; server RSS {before / mib:.0f} -> peak "
          f"{peak / mib:.0f} -> {after / mib:.0f} MiB")
    return (cut or rated) and (peak - before) <= 20 * mib and (after - before) <= 20 * mib


def projector_page(url: str, process: Any) -> bool:
    page = requests.get(urljoin(url, "class"), timeout=30).text
    paths = [str(STATE["folder"]), str(ROOT), "/tmp/", "/home/", "/root/"]
    found = [p for p in paths if p in page]
    print(f"  projector page: server paths named: {found or 'none'}")
    return not found and ".teacher_key" in page


ATTACKS: list[tuple[str, Callable[[str, Any], bool]]] = [
    ("query sockets closed out of order", query_sockets),
    ("query socket opened by a page", query_socket_from_a_page),
    ("300 websockets to one's own kernel", websockets_to_own_kernel),
    ("websockets over one's own pages", websockets_over_own_pages),
    ("40 connected pages from one computer", pages_from_one_computer),
    ("300 half-open HTTP connections", half_open_connections),
    ("1000 query sockets for no kernel", query_socket_flood),
    ("1300 half-open connections, 1000 from one network address", half_open_from_the_network),
    ("log flood: /logout, bad template paths, refused handshakes", log_flood),
    ("20,000 name changes from one page", name_flood),
    ("a page that never reads its websocket", slow_reader),
    ("the projector page names no server path", projector_page),
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
    names = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from widgets.lessons.student import NameBar\n\nNameBar(2)")])
    nbformat.write(names, folder / "names.ipynb")


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="icg-attacks-"))
    _notebooks(folder)
    key_file = folder / ".teacher_key"
    key_file.write_text(TEACHER_KEY + "\n")
    key_file.chmod(0o600)
    STATE.update(folder=folder, store=f"sqlite:///{folder / 'rooms.sqlite3'}")
    env = {"ICG_TEACHER_KEY": "", "ICG_TEACHER_KEY_FILE": str(key_file),
           "ICG_ROOMS_URL": STATE["store"], "ICG_ANSWERS_WAITING": str(folder / "waiting")}
    # as `make class` starts it: serving.class_server on every interface
    # with the lesson the class opens preheated, as `make class POOL_LESSON=... POOL=...`
    args = [f"--ClassroomKernelManager.max_kernels={MAX_KERNELS}",
            "--VoilaKernelManager.fill_delay=0.5",
            "--ClassroomKernelManager.pool_lesson=one_button",
            "--ClassroomKernelManager.pool_lesson_size=3"]
    voila_server.HOST = "0.0.0.0"
    url, process = start_voila(folder, extra_args=args, env=env, timeout=120,
                               module="serving.class_server")
    url = url.replace("0.0.0.0", "127.0.0.1")
    tried = held = 0
    students = Class(url)
    try:
        deadline = time.monotonic() + 120
        while len(kernel_processes(process.pid)) < 4 and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(3)  # query_echo's preheated kernel reaches its page-query socket
        log_before = len(read_log(process).encode())
        rss_before = _server(process).memory_info().rss
        students.start()
        for name, attack in ATTACKS:
            tried += 1
            try:
                ok = attack(url, process)
            except Exception as e:  # noqa: BLE001 - an attack that breaks the bench is not held
                print(f"  {name}: {type(e).__name__}: {e}")
                ok = False
            held += ok
            rss = _server(process).memory_info().rss / 1024 / 1024
            print(f"{'held  ' if ok else 'BROKE '} {name} (server RSS {rss:.0f} MiB)",
                  flush=True)
        students.stop.set()
        students.join(timeout=120)
        tried += 1
        ok = full_server_beacon(url, process)
        held += ok
        print(f"{'held  ' if ok else 'BROKE '} a full server frees a closed tab's kernel")
        time.sleep(3)
        rss_after = _server(process).memory_info().rss
        log = read_log(process)
        log_growth = (len(log.encode()) - log_before) / 1e6
        print(f"server log: {len(log.encode()) // 1024} KiB, "
              f"{log.count('Refused (')} refusal lines, {log.count('Traceback')} tracebacks; "
              f"class pages served during attacks {students.served} of {students.tried}")
    finally:
        stop_voila(process)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"attacks: {tried} tried, {held} held, log growth {log_growth:.2f} MB, server RSS "
          f"growth {(rss_after - rss_before) / 1024 / 1024:.0f} MiB, other students' p95 "
          f"{students.p95():.2f} s")
    return 0 if held == tried else 1


if __name__ == "__main__":
    sys.exit(main())
