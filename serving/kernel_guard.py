"""A kernel websocket connection that checks what a page sends before jupyter_server decodes it.

jupyter_server (2.x, up to at least 2.21) decodes a binary kernel-channel frame by trusting the
part count in its first bytes: for the `v1.kernel.websocket.jupyter.org` protocol it builds one
offset per counted part (`range(count)`) before looking at the frame's length, and for the
legacy binary format it builds a `struct` format string of that many characters. An 8-byte
frame saying 100000000 froze a Voila server for 18 s and grew it by 1.5 GB (docs/security.md).

`GuardedKernelConnection` (a `ZMQChannelsWebsocketConnection`) checks every incoming frame
first: a part count within `MAX_PARTS`, offsets that start right after the offset table, never
go backwards and end exactly at the frame's end, a known channel, a JSON header with a message
type. A frame that fails is dropped, logged, and the websocket is closed (code 1008): the
page's own front end never sends one. A frame larger than the connection's size cap is handled
the same way (tornado's `websocket_max_message_size`, set to the same cap in voila.json,
refuses it before reading it in standalone Voila).

For the kernel of a lesson page (every kernel of a standalone Voila server; on a Jupyter server,
the kernels Voila started for a page) it also:

- drops a `comm_open` from the page to any target but `jupyter.widget.control` (the one target
  ipywidgets 8's front end opens, once per page, to fetch the widget states): a page could
  otherwise create any widget, of any size, in the kernel;
- drops a widget `update` from the page that sets `disabled` (no front end view does; a
  forged one would re-enable a control the lesson disabled);
- caps a message at `PAGE_MAX_MESSAGE_BYTES` (a lesson page sends under 1 KB; a click is
  about 350 bytes) and the number of control comms a connection may open;
- caps a page's messages at `PAGE_MESSAGES_PER_SECOND` on average (a burst of
  `PAGE_MESSAGE_BURST`): the rest are dropped before they queue in the server for the kernel;
- keeps kernel errors off the page: stderr stream output (a widget handler's traceback, with
  the server's paths) is logged on the server instead, and error messages reach the page with
  the traceback replaced, as Voila hides tracebacks of cells (`show_tracebacks: false`).

Set in serving/voila_config.py for standalone Voila (`Voila.kernel_websocket_connection_class`)
and, for Voila as a Jupyter server extension, by this module's own server extension (enabled
by serving/install.py), which makes the same class the server's connection class.
"""

from __future__ import annotations

import json
import logging
import struct
import time
from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import web
from tornado.websocket import WebSocketClosedError

from serving.kernels import client_address
from serving.refusal_log import RefusalLog

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
# header, parent_header, metadata, content, then binary buffers (widgets send a few at most).
MAX_BUFFERS = 16
MAX_PARTS = 4 + MAX_BUFFERS
# Any kernel's message (code cells in JupyterLab included): tornado's own default cap.
MAX_MESSAGE_BYTES = 10 * 1024 * 1024
# A lesson page's message: clicks, a typed deal code, a dropdown choice, the widget-state request.
PAGE_MAX_MESSAGE_BYTES = 64 * 1024
# Channels a page may send on (iopub is the kernel's broadcast; nobody sends on it).
INCOMING_CHANNELS = frozenset({"shell", "control", "stdin"})
# Comm targets a page may open: ipywidgets 8 opens the control comm once to fetch all states.
PAGE_COMM_TARGETS = frozenset({"jupyter.widget.control"})
MAX_COMM_OPENS = 8
# Message ids remembered per connection: a repeated one is dropped before the kernel sees it.
RECENT_MSG_IDS = 4096
# Widget traits a page's front end never sets (ipywidgets 8's views set value, index,
# selected_index, playing, repeat, description, outputs, msg_id, children, _view_count): a
# forged update of `disabled` would re-enable a button the lesson disabled.
PAGE_LOCKED_TRAITS = frozenset({"disabled"})
# Set by Voila's page handler in the environment of every kernel it starts for a page.
VOILA_PAGE_ENV = "VOILA_REQUEST_URL"
# What a page gets instead of a traceback (jupyter_server's own wording for hidden tracebacks).
HIDDEN_TRACEBACK = "An exception occurred at runtime, which is not shown due to security reasons."
POLICY_VIOLATION = 1008
# Open kernel websockets allowed per kernel and per client address when the kernel manager
# does not say (ClassroomKernelManager.max_websockets_per_kernel / _per_client).
MAX_WEBSOCKETS_PER_KERNEL = 4
MAX_WEBSOCKETS_PER_CLIENT = 16
# A lesson page's messages a second, on average, and at once: its front end sends a widget's
# next change only once the kernel has handled the one before, so a page is far below these;
# beyond them a message is dropped (a flood would queue in the server's memory for the kernel).
PAGE_MESSAGES_PER_SECOND = 30.0
PAGE_MESSAGE_BURST = 120
# A handshake under way (the kernel_info reply awaited) counts for this long at most.
HANDSHAKE_SECONDS = 60.0
REFUSALS = RefusalLog(logging.getLogger("serving.kernel_guard"))
# A page can make its kernel fail on purpose, again and again: its errors are logged like refusals.
KERNEL_ERRORS = RefusalLog(logging.getLogger("serving.kernel_guard"), burst=20)


class RefusedFrame(ValueError):
    """A frame from a page that does not fit the kernel websocket protocol."""


def _json_object(raw: bytes | str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise RefusedFrame(f"{what} is not JSON") from e
    if not isinstance(value, dict):
        raise RefusedFrame(f"{what} is not a JSON object")
    return value


def _checked_offsets(frame: bytes, count: int, width: int, max_count: int) -> list[int]:
    """The offset table after a part count of `width` bytes, checked against the frame."""
    if not 1 <= count <= max_count:
        raise RefusedFrame(f"part count {count} outside 1..{max_count}")
    table_end = width * (count + 1)
    if table_end > len(frame):
        raise RefusedFrame(f"offset table for {count} parts is longer than the frame")
    fmt = {4: "!%dI", 8: "<%dQ"}[width] % count
    offsets = list(struct.unpack(fmt, frame[width:table_end]))
    if offsets[0] != table_end:
        raise RefusedFrame("first part does not start after the offset table")
    if any(b < a for a, b in zip(offsets, offsets[1:], strict=False)) or offsets[-1] > len(frame):
        raise RefusedFrame("offsets go backwards or past the end of the frame")
    return offsets


def parse_v1_frame(frame: bytes | str, max_parts: int = MAX_PARTS) -> tuple[str, list[bytes]]:
    """(channel, [header, parent_header, metadata, content, *buffers]) of a v1 binary frame.

    Raises RefusedFrame unless the frame is exactly what the protocol describes: an 8-byte
    little-endian count n, n offsets (channel start, then the end of the channel and of each
    part), the channel name and the parts, the last offset being the frame's length.
    """
    if not isinstance(frame, bytes):
        raise RefusedFrame("text frame on the binary v1 protocol")
    if len(frame) < 8:
        raise RefusedFrame("frame shorter than its part count")
    count = int.from_bytes(frame[:8], "little")
    # channel start + channel end + one end per part; at least the four message parts.
    if count < 6:
        raise RefusedFrame(f"part count {count} below the 4 message parts")
    offsets = _checked_offsets(frame, count, 8, max_parts + 2)
    if offsets[-1] != len(frame):
        raise RefusedFrame("last part does not end at the frame's end")
    try:
        channel = frame[offsets[0] : offsets[1]].decode("utf-8")
    except UnicodeDecodeError as e:
        raise RefusedFrame("channel name is not UTF-8") from e
    parts = [frame[offsets[i] : offsets[i + 1]] for i in range(1, count - 1)]
    return channel, parts


def parse_legacy_frame(frame: bytes | str, max_parts: int = MAX_PARTS) -> dict[str, Any]:
    """The message dict of a legacy frame (JSON text, or the binary form with buffers).

    The binary form: a 4-byte big-endian count n, n offsets (the JSON message, then each
    buffer), then the data; checked like `parse_v1_frame`.
    """
    if isinstance(frame, str):
        msg = _json_object(frame, "message")
    else:
        if len(frame) < 4:
            raise RefusedFrame("frame shorter than its part count")
        (count,) = struct.unpack("!i", frame[:4])
        offsets = _checked_offsets(frame, count, 4, max_parts - 3)
        msg = _json_object(frame[offsets[0] : offsets[1] if count > 1 else None], "message")
    for key in ("header", "parent_header", "content"):
        if not isinstance(msg.get(key, {}), dict):
            raise RefusedFrame(f"{key} is not a JSON object")
    if "header" not in msg:
        raise RefusedFrame("no header")
    return msg


class GuardedKernelConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel websocket connection, with every incoming frame checked first.

    See the module docstring for what is checked and what a page's kernel is refused.
    """

    # Standalone Voila serves nothing but lesson pages: every kernel is a page's.
    all_kernels_are_pages = False
    # Every kernel websocket open or in its handshake, for the per-kernel and per-computer
    # limits: id(connection) -> (connection, kernel id, client address, when it began).
    _live: dict[int, tuple[Any, str, str | None, float]] = {}

    # --- limits on websockets --------------------------------------------------------------

    async def prepare(self) -> None:
        """Refuse the handshake (HTTP 429) beyond the websockets allowed per kernel or per
        computer (a lesson page's kernel: JupyterLab's own are left alone), then prepare as
        jupyter_server does."""
        if self.is_page_kernel:
            self._check_limits()
        try:
            await super().prepare()
        except BaseException:
            GuardedKernelConnection._live.pop(id(self), None)
            raise

    def _check_limits(self) -> None:
        manager = self.multi_kernel_manager
        header = getattr(manager, "client_address_header", "X-Real-IP")
        client = client_address(self.websocket_handler.request, header)
        per_kernel = getattr(manager, "max_websockets_per_kernel", MAX_WEBSOCKETS_PER_KERNEL)
        per_client = getattr(manager, "max_websockets_per_client", MAX_WEBSOCKETS_PER_CLIENT)
        on_kernel = on_client = 0
        for key, (conn, kernel_id, other, began) in list(self._live.items()):
            if not _still_open(conn, began):
                GuardedKernelConnection._live.pop(key, None)
                continue
            on_kernel += kernel_id == self.kernel_id
            on_client += client is not None and other == client
        if per_kernel > 0 and on_kernel >= per_kernel:
            REFUSALS.refused("websockets per kernel", client, "Refused (websockets per "
                             "kernel) from %s: kernel %s has %d open "
                             "(max_websockets_per_kernel = %d)", client or "this machine",
                             self.kernel_id, on_kernel, per_kernel)
            raise web.HTTPError(429, reason="Too Many Connections")
        if client is not None and per_client > 0 and on_client >= per_client:
            REFUSALS.refused("websockets per computer", client, "Refused (websockets per "
                             "computer) from %s: %d open (max_websockets_per_client = %d)",
                             client, on_client, per_client)
            raise web.HTTPError(429, reason="Too Many Connections")
        GuardedKernelConnection._live[id(self)] = (self, self.kernel_id, client, time.monotonic())

    def disconnect(self) -> None:
        GuardedKernelConnection._live.pop(id(self), None)
        super().disconnect()

    @property
    def is_page_kernel(self) -> bool:
        """True for the kernel of a Voila page (page rules apply), False for a notebook's."""
        if self.all_kernels_are_pages:
            return True
        cached = getattr(self, "_is_page_kernel", None)
        if cached is None:
            launch = getattr(self.kernel_manager, "_launch_args", None) or {}
            env = launch.get("env") or {}
            cached = self._is_page_kernel = VOILA_PAGE_ENV in env
        return cached

    @property
    def max_message_bytes(self) -> int:
        return PAGE_MAX_MESSAGE_BYTES if self.is_page_kernel else MAX_MESSAGE_BYTES

    # --- page -> kernel -------------------------------------------------------------------

    def handle_incoming_message(self, incoming_msg: str) -> None:
        """Check the frame, apply the page's rules, then hand it to jupyter_server."""
        if getattr(self, "_refused", False):
            return
        try:
            msg_type, content = self._check_frame(incoming_msg)
            refusal = self._too_fast() or self._repeated() or (
                self._page_refusal(msg_type, content) if self.is_page_kernel else None)
        except RefusedFrame as e:
            self._refuse(f"malformed frame ({e})")
            return
        if refusal:
            client = self.websocket_handler.request.remote_ip
            REFUSALS.refused("page message", client, "Kernel %s: %s from a page refused",
                             self.kernel_id, refusal)
            return
        try:
            super().handle_incoming_message(incoming_msg)
        except Exception as e:  # whatever upstream trips on, the page's frame is the cause
            self._refuse(f"message jupyter_server could not handle ({type(e).__name__}: {e})")

    def _too_fast(self) -> str | None:
        """A page's message past its rate (PAGE_MESSAGES_PER_SECOND on average, a burst of
        PAGE_MESSAGE_BURST): a token bucket per connection. Other kernels' messages (a
        notebook's code cells) are not limited."""
        if not self.is_page_kernel:
            return None
        now = time.monotonic()
        tokens, then = getattr(self, "_tokens", (float(PAGE_MESSAGE_BURST), now))
        tokens = min(float(PAGE_MESSAGE_BURST), tokens + (now - then) * PAGE_MESSAGES_PER_SECOND)
        if tokens < 1.0:
            self._tokens = (tokens, now)
            return f"message past {PAGE_MESSAGES_PER_SECOND:.0f} a second"
        self._tokens = (tokens - 1.0, now)
        return None

    def _repeated(self) -> str | None:
        """A message id this connection sent already (the frame's header, `_check_frame`):
        the kernel would refuse its repeated signature and log a traceback for each one, to
        the server's terminal, outside any rate limit (6000 copies wrote 5244 tracebacks)."""
        msg_id = self._frame_msg_id
        if not isinstance(msg_id, str) or not msg_id:
            return None
        ids = getattr(self, "_msg_ids", None)
        if ids is None:
            ids = self._msg_ids = {}  # insertion-ordered: the oldest goes first
        if msg_id in ids:
            return f"message id {msg_id!r:.60} sent again"
        ids[msg_id] = None
        if len(ids) > RECENT_MSG_IDS:
            del ids[next(iter(ids))]
        return None

    def _page_refusal(self, msg_type: str, content: Any) -> str | None:
        """Why a page's kernel must not get this message (None: it may)."""
        if msg_type == "comm_open":
            target = content().get("target_name")
            if target not in PAGE_COMM_TARGETS:
                return f"comm_open to target {target!r:.80}"
            opened = getattr(self, "_comm_opens", 0)
            if opened >= MAX_COMM_OPENS:
                return f"comm_open number {opened + 1} (at most {MAX_COMM_OPENS})"
            self._comm_opens = opened + 1
        elif msg_type == "comm_msg":
            data = content().get("data")
            state = data.get("state") if isinstance(data, dict) else None
            if (isinstance(state, dict) and data.get("method") == "update"
                    and not PAGE_LOCKED_TRAITS.isdisjoint(state)):
                return f"widget update of {', '.join(sorted(PAGE_LOCKED_TRAITS & set(state)))}"
        return None

    def _check_frame(self, frame: bytes | str) -> tuple[str, Any]:
        """(msg_type, a function returning the content) of a frame that passed the checks."""
        if len(frame) > self.max_message_bytes:
            raise RefusedFrame(f"{len(frame)} bytes, more than {self.max_message_bytes}")
        if self.subprotocol == V1_PROTOCOL:
            channel, parts = parse_v1_frame(frame)
            header = _json_object(parts[0], "header")

            def content() -> dict[str, Any]:
                return _json_object(parts[3], "content")
        else:
            msg = parse_legacy_frame(frame)
            channel, header = msg.get("channel", "shell"), msg["header"]

            def content() -> dict[str, Any]:
                return msg.get("content", {})
        if channel not in INCOMING_CHANNELS:
            raise RefusedFrame(f"channel {channel!r:.40}")
        msg_type = header.get("msg_type")
        self._frame_msg_id = header.get("msg_id")
        if not isinstance(msg_type, str):
            raise RefusedFrame("header has no message type")
        if msg_type == "comm_open" and not isinstance(content().get("target_name"), str):
            raise RefusedFrame("comm_open without a target name")
        return msg_type, content

    def _refuse(self, reason: str) -> None:
        """Log, drop the frame and close the websocket: a page's front end never sends this."""
        self._refused = True
        client = self.websocket_handler.request.remote_ip
        REFUSALS.refused("malformed frame", client, "Kernel %s: %s from %s; closing the "
                         "websocket", self.kernel_id, reason, client)
        self.websocket_handler.close(POLICY_VIOLATION, "malformed kernel message")

    # --- kernel -> page -------------------------------------------------------------------

    def handle_outgoing_message(self, stream: Any, outgoing_msg: list[Any]) -> None:
        """Keep a page's kernel's stderr on the server; the rest goes on as usual."""
        if self.is_page_kernel and self._is_stderr(stream, outgoing_msg):
            return
        try:
            super().handle_outgoing_message(stream, outgoing_msg)
        except WebSocketClosedError:
            pass  # the page left, or was cut off for not reading (serving/connections.py)

    def _is_stderr(self, stream: Any, outgoing_msg: list[Any]) -> bool:
        channel = getattr(self.channels.get(stream) if isinstance(stream, str) else stream,
                          "channel", None)
        if channel != "iopub":
            return False
        try:
            _, parts = self.session.feed_identities(outgoing_msg)
            header = self.session.unpack(parts[1])
            if header.get("msg_type") != "stream":
                return False
            content = self.session.unpack(parts[4])
        except Exception:  # not ours to judge; upstream handles it
            return False
        if content.get("name") != "stderr":
            return False
        KERNEL_ERRORS.refused("kernel stderr", None, "Kernel %s stderr (not sent to the "
                              "page): %.2000s", self.kernel_id, content.get("text", ""))
        return True

    def _on_error(self, channel: Any, msg: dict[str, Any], msg_list: list[Any]) -> None:
        """A page gets no traceback of a kernel error, whatever allow_tracebacks says."""
        if not self.is_page_kernel or channel != "iopub":
            return super()._on_error(channel, msg, msg_list)
        msg["header"] = self.get_part("header", msg["header"], msg_list)
        if msg["header"]["msg_type"] != "error":
            return None
        msg["content"] = self.get_part("content", msg["content"], msg_list)
        KERNEL_ERRORS.refused("kernel error", None, "Kernel %s error (traceback not sent to "
                              "the page): %s: %.500s", self.kernel_id,
                              msg["content"].get("ename"), msg["content"].get("evalue"))
        msg["content"] = {**msg["content"], "ename": "Error", "evalue": "",
                          "traceback": [HIDDEN_TRACEBACK]}
        if self.subprotocol == V1_PROTOCOL:
            msg_list[3] = self.session.pack(msg["content"])
        return None


def _still_open(conn: Any, began: float) -> bool:
    """Whether a counted connection's websocket is open, or its handshake still under way."""
    handler = getattr(conn, "websocket_handler", None)
    if handler is None:
        return False
    ws = getattr(handler, "ws_connection", None)
    if ws is not None:
        return not ws.is_closing()
    # No websocket yet: a handshake in progress, unless the request already ended (a refused
    # or failed upgrade answers with an HTTP error and never calls on_close).
    return not getattr(handler, "_finished", False) and time.monotonic() - began < HANDSHAKE_SECONDS


class VoilaPageConnection(GuardedKernelConnection):
    """For standalone Voila, where every kernel belongs to a lesson page."""

    all_kernels_are_pages = True


# --- Jupyter server extension: the same guard when Voila runs inside a Jupyter server --------


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "serving.kernel_guard"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Make GuardedKernelConnection the server's kernel websocket connection class.

    Page rules apply to the kernels Voila starts for its pages; a JupyterLab notebook's kernel
    gets only the frame checks. A deployer's own connection class is left alone (logged).
    """
    from serving import query_socket
    from serving.kernels import install_page_transform
    from widgets.words.page import TEMPLATE_FILTERS

    query_socket.install()

    # Voila pages get the `_xsrf` cookie that lets a closing tab free its kernel.
    install_page_transform(serverapp.web_app)
    # The classroom template's words in the page's language (widgets/words/page.py): Voila's
    # exporter reads the server's config here, not voila.py.
    filters = dict(serverapp.config.VoilaExporter.get("filters") or {})
    serverapp.config.VoilaExporter.filters = {**TEMPLATE_FILTERS, **filters}
    settings = serverapp.web_app.settings
    current = settings.get("kernel_websocket_connection_class")
    if isinstance(current, type) and issubclass(current, GuardedKernelConnection):
        serverapp.log.info("integer-card-games: kernel websocket frames are checked (%s, "
                           "set in the server's config)", current.__qualname__)
        return
    if current is not ZMQChannelsWebsocketConnection:
        serverapp.log.warning("integer-card-games: kernel websocket connection class %r kept; "
                              "the kernel frame guard is not installed", current)
        return
    settings["kernel_websocket_connection_class"] = GuardedKernelConnection
    serverapp.log.info("integer-card-games: kernel websocket frames are checked (%s)",
                       GuardedKernelConnection.__qualname__)
