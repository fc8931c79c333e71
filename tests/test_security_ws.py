"""Attacks on the kernel websocket of a lesson page, over loopback against a real Voila server.

What a student with developer tools (or Python on a laptop) can send on their own page's
kernel websocket, and what serving/kernel_guard.py makes of it (docs/security.md):

- an 8-byte v1 frame, or a 4-byte legacy frame, whose part count says 100000000: upstream
  jupyter_server builds that many offsets before looking at the frame's length (the server
  froze for 18 s and grew by 1.5 GB); here the server still answers another request,
  grows by less than 50 MB, and closes that websocket;
- frames whose offsets do not fit: dropped, websocket closed, server unharmed;
- a comm_open to `jupyter.widget` (a page could make any widget of any size in the kernel):
  no widget is made, and a 9 MB one is refused before the server reads it;
- a bad widget message: the kernel's traceback (with the server's paths) stays in the
  server's log, not on the page.

Each test also shows that the normal path still works on the same server (a kernel_info
reply, the page's own widget states, a click).
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import psutil
import pytest
import requests
import websocket
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)
from voila_server import (
    REPO_ROOT,
    kernel_processes,
    message,
    read_log,
    running_voila,
    start_jupyter_server,
    stop_voila,
)

from serving.kernel_guard import MAX_BUFFERS, RefusedFrame, parse_legacy_frame, parse_v1_frame

pytestmark = pytest.mark.serving  # starts Voila or Jupyter servers

FIXTURES = Path(__file__).resolve().parent / "fixtures"
V1 = "v1.kernel.websocket.jupyter.org"
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
MODEL_ID = re.compile(r'"model_id": "([0-9a-f]{32})"')
HUGE_COUNT = 100_000_000
MB = 1024 * 1024
MAX_GROWTH = 50 * MB
# ipywidgets checks the major version of its protocol in a comm_open's metadata.
WIDGET_PROTOCOL = {"version": "2.1.0"}
WIDGET_STATE = {
    "_model_name": "TextModel",
    "_model_module": "@jupyter-widgets/controls",
    "_model_module_version": "2.0.0",
    "_view_name": "TextView",
    "_view_module": "@jupyter-widgets/controls",
    "_view_module_version": "2.0.0",
}


# --- a page's kernel websocket, spoken by hand --------------------------------------------------


def v1_frame(msg: dict) -> bytes:
    """`msg` in the v1 binary protocol, as @jupyterlab/services serializes it."""
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata",
                                                   "content")]
    channel = msg["channel"] if isinstance(msg["channel"], bytes) else msg["channel"].encode()
    offsets = [8 * (1 + 1 + len(parts) + 1)]  # the count, then len(parts) + 2 offsets
    offsets.append(offsets[-1] + len(channel))
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    head = struct.pack(f"<{len(offsets) + 1}Q", len(offsets), *offsets)
    return head + channel + b"".join(parts)


def v1_decode(frame: bytes) -> dict:
    """A kernel message from the server in the v1 protocol (trusted: it comes from the server)."""
    count = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 * (i + 1): 8 * (i + 2)], "little") for i in range(count)]
    parts = [frame[offsets[i]: offsets[i + 1]] for i in range(1, count - 1)]
    msg = {k: json.loads(p) for k, p in zip(("header", "parent_header", "metadata", "content"),
                                              parts[:4], strict=True)}
    msg["channel"] = frame[offsets[0]: offsets[1]].decode()
    msg["msg_type"] = msg["header"]["msg_type"]
    return msg


class Page:
    """One lesson page's kernel, opened like a browser tab (page GET, then its websocket)."""

    def __init__(self, base_url: str, notebook: str, protocol: str | None = V1,
                 query: str = "") -> None:
        self.base_url = base_url
        self.http = requests.Session()
        response = self.http.get(urljoin(base_url, f"voila/render/{notebook}{query}"),
                                 timeout=120)
        assert response.status_code == 200, response.text[:300]
        self.html = response.text
        self.kernel_id = KERNEL_ID.search(self.html).group(1)
        self.protocol = protocol
        self.session = uuid.uuid4().hex
        self.ws = self.connect()

    def connect(self) -> websocket.WebSocket:
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)
        url = (self.base_url.replace("http://", "ws://")
               + f"api/kernels/{self.kernel_id}/channels?session_id={self.session}")
        ws = websocket.create_connection(
            url, cookie=cookie, timeout=30,
            subprotocols=[self.protocol] if self.protocol else None,
        )
        assert ws.getsubprotocol() == self.protocol
        return ws

    def send(self, msg: dict) -> str:
        if self.protocol == V1:
            self.ws.send_binary(v1_frame(msg))
        else:
            self.ws.send(json.dumps(msg))
        return msg["header"]["msg_id"]

    def recv(self) -> dict:
        data = self.ws.recv()
        if isinstance(data, bytes) and self.protocol == V1:
            return v1_decode(data)
        msg = json.loads(data)
        msg["msg_type"] = msg["header"]["msg_type"]
        return msg

    def collect(self, until: Callable[[dict], bool], seconds: float = 30) -> list[dict]:
        """Messages received until one satisfies `until` (included) or `seconds` pass."""
        seen: list[dict] = []
        deadline = time.monotonic() + seconds
        self.ws.settimeout(1)
        while time.monotonic() < deadline:
            try:
                msg = self.recv()
            except websocket.WebSocketTimeoutException:
                continue
            seen.append(msg)
            if until(msg):
                break
        return seen

    def kernel_info(self) -> dict:
        """A kernel_info reply on this websocket: the connection works end to end."""
        msg_id = self.send(message("kernel_info_request", self.session, {}))
        seen = self.collect(lambda m: m["msg_type"] == "kernel_info_reply"
                            and m["parent_header"].get("msg_id") == msg_id)
        assert seen and seen[-1]["msg_type"] == "kernel_info_reply", "no kernel_info_reply"
        return seen[-1]

    def widget_states(self) -> dict[str, Any]:
        """All widget states in the kernel, fetched as ipywidgets 8's front end does."""
        comm_id = uuid.uuid4().hex
        self.send(message("comm_open", self.session, {
            "comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
            metadata={"version": "1.0.0"},  # ipywidgets' control protocol
        ))
        self.send(message("comm_msg", self.session, {
            "comm_id": comm_id, "data": {"method": "request_states"}}))
        seen = self.collect(lambda m: m["msg_type"] == "comm_msg"
                            and m["content"].get("comm_id") == comm_id)
        assert seen and seen[-1]["content"].get("comm_id") == comm_id, "no widget states"
        self.send(message("comm_close", self.session, {"comm_id": comm_id, "data": {}}))
        return seen[-1]["content"]["data"]["states"]

    def close_code(self, seconds: float = 10) -> int | None:
        """The close code the server sent (None: the websocket is still open)."""
        self.ws.settimeout(seconds)
        try:
            while True:
                opcode, frame = self.ws.recv_data_frame(True)
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    return struct.unpack("!H", frame.data[:2])[0] if frame.data else 1005
        except websocket.WebSocketTimeoutException:
            return None
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            return 1006

    def close(self) -> None:
        self.ws.close()


def server_answers(base_url: str) -> None:
    """The server answers another student's small GET (the timeout only guards against a hang:
    a frozen server never answers; how fast it answers is not a test's business)."""
    response = requests.get(urljoin(base_url, "voila/templates/classroom/static/voila-style.js"),
                            timeout=120)
    assert response.status_code == 200, response.status_code


class PeakRss:
    """The highest RSS of a process while the `with` block runs (sampled every 20 ms)."""

    def __init__(self, process: psutil.Process) -> None:
        self.process = process
        self.rss = process.memory_info().rss
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            self.rss = max(self.rss, self.process.memory_info().rss)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        self.rss = max(self.rss, self.process.memory_info().rss)


def kernel_process(server_pid: int, kernel_id: str) -> psutil.Process:
    found = [p for p in kernel_processes(server_pid) if kernel_id in " ".join(p.cmdline())]
    assert len(found) == 1, f"kernel {kernel_id} not found"
    return found[0]


def settled_rss(process: psutil.Process, seconds: float = 1.5) -> int:
    """RSS once it stops changing for a moment (the kernel finishes what it was sent)."""
    last = process.memory_info().rss
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.25)
        last = max(last, process.memory_info().rss)
    return last


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    root = tmp_path_factory.mktemp("security-ws") / "notebooks"
    root.mkdir()
    for notebook in FIXTURES.glob("*.ipynb"):
        shutil.copy(notebook, root / notebook.name)
    with running_voila(root) as server:
        yield server


# --- 1. a part count that does not fit the frame --------------------------------------------


@pytest.mark.parametrize(
    ("protocol", "frame"),
    [
        # `new BigUint64Array([100000000n]).buffer` from the page's console.
        pytest.param(V1, HUGE_COUNT.to_bytes(8, "little"), id="v1-8-bytes"),
        # The legacy protocol's binary form: 4 bytes, big-endian.
        pytest.param(None, struct.pack("!i", HUGE_COUNT), id="legacy-4-bytes"),
    ],
)
@pytest.mark.timeout(180)
def test_huge_part_count_does_not_freeze_the_server(
    served: tuple[str, Any], protocol: str | None, frame: bytes
) -> None:
    url, process = served
    page = Page(url, "one_button.ipynb", protocol)
    server = psutil.Process(process.pid)
    try:
        page.kernel_info()
        before = settled_rss(server, 0.5)
        with PeakRss(server) as peak:
            page.ws.send_binary(frame)
            time.sleep(0.3)  # the server has read the frame by now (else the GET could go first)
            server_answers(url)
            time.sleep(0.5)
        grew = peak.rss - before
        code = page.close_code()
        after = Page(url, "one_button.ipynb", protocol)  # another student's page still works
        after.kernel_info()
        after.close()
    finally:
        page.close()
    assert grew < MAX_GROWTH, f"the server grew by {grew / MB:.0f} MB"
    assert code == 1008, f"the websocket was not closed as a policy violation ({code})"
    assert "malformed frame (part count 100000000" in read_log(process)


def _offsets_past_the_end() -> bytes:
    frame = bytearray(v1_frame(message("kernel_info_request", "s", {})))
    frame[8 * 6: 8 * 7] = (10 ** 12).to_bytes(8, "little")  # the last of its 6 offsets
    return bytes(frame)


def _offsets_backwards() -> bytes:
    frame = bytearray(v1_frame(message("kernel_info_request", "s", {})))
    frame[8 * 2: 8 * 3] = (0).to_bytes(8, "little")  # the channel ends before it starts
    return bytes(frame)


def _content_not_json() -> bytes:
    header = json.dumps(message("comm_msg", "s", {})["header"]).encode()
    return serialize_msg_to_ws_v1([header, b"{}", b"{}", b"{not json"], "shell")


def _channel(name: str | bytes) -> bytes:
    return v1_frame(message("kernel_info_request", "s", {}, channel=name))


@pytest.mark.parametrize(
    "frame",
    [
        pytest.param(b"\x01\x00", id="shorter-than-the-count"),
        pytest.param((6).to_bytes(8, "little") + b"\x00" * 8, id="table-longer-than-frame"),
        pytest.param(_offsets_past_the_end(), id="offset-past-the-end"),
        pytest.param(_offsets_backwards(), id="offsets-backwards"),
        pytest.param(_channel("iopub"), id="channel-iopub"),
        pytest.param(_channel(b"\xff\xfe"), id="channel-not-utf8"),
        pytest.param("not a binary frame", id="text-frame-on-v1"),
        pytest.param(_content_not_json(), id="comm-msg-content-not-json"),
    ],
)
def test_frames_that_do_not_fit_are_dropped(served: tuple[str, Any], frame: bytes | str) -> None:
    url, process = served
    page = Page(url, "one_button.ipynb")
    try:
        page.kernel_info()
        if isinstance(frame, bytes):
            page.ws.send_binary(frame)
        else:
            page.ws.send(frame)
        code = page.close_code()
    finally:
        page.close()
    assert code == 1008, f"the websocket was not closed as a policy violation ({code})"
    server_answers(url)
    assert "malformed frame" in read_log(process)


def test_well_formed_frames_still_reach_the_kernel(served: tuple[str, Any]) -> None:
    """Positive control for the frame checks: both protocols, as the front ends send them."""
    url, _ = served
    for protocol in (V1, None):
        page = Page(url, "one_button.ipynb", protocol)
        try:
            info = page.kernel_info()
            assert info["content"]["status"] == "ok"
            assert page.close_code(0.5) is None  # still open
        finally:
            page.close()


# --- the frame checks themselves, without a server --------------------------------------------


def _upstream_v1(buffers: list[bytes]) -> bytes:
    msg = message("comm_msg", "s", {"comm_id": "c", "data": {"method": "update"}})
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata",
                                                   "content")]
    return serialize_msg_to_ws_v1(parts + buffers, "shell")


def _upstream_legacy(buffers: list[bytes]) -> bytes:
    msg = message("comm_msg", "s", {"comm_id": "c", "data": {"method": "update"}})
    return serialize_binary_message({**msg, "buffers": buffers})


@pytest.mark.parametrize("count", [0, 1, 3, MAX_BUFFERS])
def test_frames_written_by_jupyter_are_accepted(count: int) -> None:
    """What jupyter_server's own serializers write (the front ends write the same) parses."""
    buffers = [bytes([i]) * (i + 1) for i in range(count)]
    frame = _upstream_v1(buffers)
    channel, parts = parse_v1_frame(frame)
    assert channel == "shell" and parts[4:] == buffers
    assert parse_v1_frame(v1_frame(message("kernel_info_request", "s", {})))[0] == "shell"
    legacy = parse_legacy_frame(_upstream_legacy(buffers))
    assert legacy["header"]["msg_type"] == "comm_msg"
    # Upstream's own decoder agrees with the checked frames.
    assert deserialize_msg_from_ws_v1(frame) == (channel, parts)


def test_too_many_buffers_are_refused() -> None:
    buffers = [b"x"] * (MAX_BUFFERS + 1)
    with pytest.raises(RefusedFrame, match="part count"):
        parse_v1_frame(_upstream_v1(buffers))
    with pytest.raises(RefusedFrame, match="part count"):
        parse_legacy_frame(_upstream_legacy(buffers))


@settings(max_examples=300, deadline=200, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=300), cut=st.integers(0, 300), flip=st.integers(0, 299))
def test_any_bytes_are_parsed_or_refused_quickly(data: bytes, cut: int, flip: int) -> None:
    """Random frames, and well-formed ones cut short or with one byte changed: either a parse
    or RefusedFrame, never another exception, never more work than the frame's size."""
    good = _upstream_v1([b"buf"])
    damaged = bytearray(good[:cut] if cut < len(good) else good)
    if damaged:
        damaged[flip % len(damaged)] ^= 0xFF
    for frame in (data, bytes(damaged), HUGE_COUNT.to_bytes(8, "little") + data):
        for parse in (parse_v1_frame, parse_legacy_frame):
            try:
                parse(frame)
            except RefusedFrame:
                pass


# --- 5. widgets made by the page ------------------------------------------------------------


def test_comm_open_to_a_widget_target_is_refused(served: tuple[str, Any]) -> None:
    """A forged comm_open to jupyter.widget makes no widget; the page's own states still load."""
    url, process = served
    page = Page(url, "one_button.ipynb")
    try:
        page.kernel_info()
        forged = uuid.uuid4().hex
        page.send(message("comm_open", page.session, {
            "comm_id": forged, "target_name": "jupyter.widget",
            "data": {"state": {**WIDGET_STATE, "value": "FORGED-5e1b"}, "buffer_paths": []},
        }, metadata=WIDGET_PROTOCOL))
        info = page.send(message("kernel_info_request", page.session, {}))
        # Upstream, the kernel makes the widget and echoes its state back on iopub, before the
        # idle status that ends its handling of the next request.
        answers = page.collect(lambda m: m["parent_header"].get("msg_id") == info
                               and m["msg_type"] == "status"
                               and m["content"]["execution_state"] == "idle")
        echoed = [m["msg_type"] for m in answers if m["content"].get("comm_id") == forged]
        assert echoed == [], f"the kernel made the forged widget: {echoed}"
        assert answers[-1]["msg_type"] == "status"
        states = page.widget_states()  # after the forged comm_open, on the same websocket
        assert page.close_code(0.5) is None  # a refused comm_open is dropped, not fatal
    finally:
        page.close()
    assert forged not in states
    assert "FORGED-5e1b" not in json.dumps(states)
    # Positive control: the page's own button is among the states the front end fetches.
    button = MODEL_ID.search(page.html).group(1)
    assert states[button]["state"]["description"] == "Press me"
    assert "comm_open to target 'jupyter.widget' from a page refused" in read_log(process)


@pytest.mark.timeout(300)
def test_big_widgets_from_the_page_do_not_grow_the_kernel(served: tuple[str, Any]) -> None:
    """20 text widgets of 9 MB (+214 MiB upstream) are refused before the server reads them."""
    url, process = served
    page = Page(url, "one_button.ipynb")
    kernel = kernel_process(process.pid, page.kernel_id)
    server = psutil.Process(process.pid)
    try:
        page.kernel_info()
        kernel_before, server_before = settled_rss(kernel), settled_rss(server, 0.5)
        sent = 0
        for _ in range(20):
            try:
                page.send(message("comm_open", page.session, {
                    "comm_id": uuid.uuid4().hex, "target_name": "jupyter.widget",
                    "data": {"state": {**WIDGET_STATE, "value": "x" * (9 * MB)},
                             "buffer_paths": []},
                }, metadata=WIDGET_PROTOCOL))
            except (websocket.WebSocketConnectionClosedException, OSError):
                break
            sent += 1
        code = page.close_code()
        kernel_growth = settled_rss(kernel, 5) - kernel_before
        server_growth = server.memory_info().rss - server_before
    finally:
        page.close()
    assert kernel_growth < 20 * MB, f"the kernel grew by {kernel_growth / MB:.0f} MB"
    assert server_growth < MAX_GROWTH, f"the server grew by {server_growth / MB:.0f} MB"
    # tornado sends 1009 ("message too big") and drops the connection at once: the client,
    # still writing, may see the drop (1006) before the close frame.
    assert code in (1009, 1006), f"the server did not close the websocket ({code})"
    assert sent < 20
    server_answers(url)


def test_page_cannot_set_disabled(served: tuple[str, Any]) -> None:
    """No front-end view sets `disabled`: a forged update of it (which could re-enable a control
    the lesson disabled) is dropped; other updates pass."""
    url, process = served
    page = Page(url, "one_button.ipynb")
    button = MODEL_ID.search(page.html).group(1)
    try:
        page.kernel_info()
        for state in ({"disabled": True}, {"description": "Changed by the page"}):
            page.send(message("comm_msg", page.session, {
                "comm_id": button,
                "data": {"method": "update", "state": state, "buffer_paths": []}}))
        states = page.widget_states()
    finally:
        page.close()
    assert states[button]["state"]["disabled"] is False
    # Positive control: an update of a trait the front end does set still reaches the kernel.
    assert states[button]["state"]["description"] == "Changed by the page"
    assert "widget update of disabled from a page refused" in read_log(process)


def test_a_page_flooding_messages_is_held_to_its_rate(served: tuple[str, Any]) -> None:
    """2,000 widget updates sent at once: the kernel gets the first PAGE_MESSAGE_BURST and
    then PAGE_MESSAGES_PER_SECOND a second (counted by the updates it echoes), the rest are
    dropped before they queue in the server (logged through the refusal log); a moment later
    the page's messages pass again."""
    from serving.kernel_guard import PAGE_MESSAGE_BURST, PAGE_MESSAGES_PER_SECOND

    url, process = served
    page = Page(url, "one_button.ipynb")
    button = MODEL_ID.search(page.html).group(1)
    try:
        page.kernel_info()
        start = time.monotonic()
        for i in range(2000):
            page.send(message("comm_msg", page.session, {
                "comm_id": button,
                "data": {"method": "update", "state": {"description": f"flood {i}"},
                         "buffer_paths": []}}))
        time.sleep(1.5)  # the page's rate allows a few messages again
        info_id = page.send(message("kernel_info_request", page.session, {}))
        seen = page.collect(lambda m: m["msg_type"] == "kernel_info_reply"
                            and m["parent_header"].get("msg_id") == info_id, seconds=60)
        window = time.monotonic() - start  # the server read the flood within it
        reached = sum(1 for m in seen if m["msg_type"] == "comm_msg"
                      and m["content"].get("data", {}).get("method") == "echo_update")
        page.send(message("comm_msg", page.session, {
            "comm_id": button, "data": {"method": "update",
                                        "state": {"description": "after the flood"},
                                        "buffer_paths": []}}))
        after = page.widget_states()[button]["state"]["description"]
    finally:
        page.close()
    most = PAGE_MESSAGE_BURST + PAGE_MESSAGES_PER_SECOND * window
    assert PAGE_MESSAGE_BURST <= reached <= min(most, 1000), (reached, window)
    assert after == "after the flood"
    assert "past 30 a second" in read_log(process)


# --- 8a. a bad widget message shows no traceback --------------------------------------------


@pytest.mark.parametrize("protocol", [V1, None], ids=["v1", "legacy"])
def test_bad_widget_message_sends_no_traceback_to_the_page(
    served: tuple[str, Any], protocol: str | None
) -> None:
    url, process = served
    page = Page(url, "one_button.ipynb", protocol)
    button = MODEL_ID.search(page.html).group(1)
    try:
        page.kernel_info()
        # A description must be text: the kernel's comm handler raises a TraitError.
        bad = page.send(message("comm_msg", page.session, {
            "comm_id": button,
            "data": {"method": "update", "state": {"description": 12345}, "buffer_paths": []},
        }))
        seen = page.collect(lambda m: m["msg_type"] == "status"
                            and m["parent_header"].get("msg_id") == bad
                            and m["content"]["execution_state"] == "idle")
        # Positive control: the same socket still works, and a click reaches the handler.
        page.send(message("comm_msg", page.session, {
            "comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}}))
        page.kernel_info()
    finally:
        page.close()
    assert seen and seen[-1]["msg_type"] == "status", "the kernel never finished the message"
    sent_to_page = json.dumps([m["content"] for m in seen])
    for leak in ("Traceback", "TraitError", "site-packages", "/ipywidgets/", str(REPO_ROOT)):
        assert leak not in sent_to_page, leak
    assert not [m for m in seen if m["msg_type"] == "stream"
                and m["content"].get("name") == "stderr"]
    # The server's log keeps it for whoever runs the server.
    assert "TraitError" in read_log(process)


# --- the same guard when Voila runs inside a Jupyter server (JupyterLab, JupyterHub) --------


@pytest.mark.timeout(300)
def test_server_extension_mode_checks_frames_and_page_rules(tmp_path: Path) -> None:
    """`jupyter server` from the root, as JupyterLab or a hub's single-user server runs it."""
    root = tmp_path / "notebooks"
    root.mkdir()
    shutil.copy(FIXTURES / "one_button.ipynb", root / "one_button.ipynb")
    url, process = start_jupyter_server(root, tmp_path / "jupyter_server.log")
    try:
        assert "kernel websocket frames are checked" in read_log(process)
        page = Page(url, "one_button.ipynb", query="?token=class-token")
        try:
            page.kernel_info()
            states = page.widget_states()
            button = MODEL_ID.search(page.html).group(1)
            assert states[button]["state"]["description"] == "Press me"
            page.send(message("comm_open", page.session, {
                "comm_id": uuid.uuid4().hex, "target_name": "jupyter.widget",
                "data": {"state": {**WIDGET_STATE, "value": "FORGED-5e1b"},
                         "buffer_paths": []}}, metadata=WIDGET_PROTOCOL))
            page.kernel_info()
            page.ws.send_binary(HUGE_COUNT.to_bytes(8, "little"))
            server_answers(url)
            code = page.close_code()
        finally:
            page.close()
            assert code == 1008
        assert "comm_open to target 'jupyter.widget' from a page refused" in read_log(process)
    finally:
        stop_voila(process)


def test_tornado_refuses_a_page_message_over_the_guard_cap_before_reading_it() -> None:
    """voila.json's tornado cap is the guard's: a dict set in voila_config.py would be replaced
    by voila.json's Voila.tornado_settings (JSON config is read last), so it lives there."""
    from serving.kernel_guard import PAGE_MAX_MESSAGE_BYTES

    root = Path(__file__).resolve().parent.parent
    settings = json.loads((root / "voila.json").read_text())["Voila"]["tornado_settings"]
    assert settings["websocket_max_message_size"] == PAGE_MAX_MESSAGE_BYTES
    assert "c.Voila.tornado_settings" not in (root / "serving/voila_config.py").read_text()
