"""The query of the page a kernel serves (`?room=...&seat=...`), however the kernel was started.

A kernel Voila starts for a request finds the page's request in its environment
(`QUERY_STRING`). A preheated kernel (voila.json's `preheat_kernel`) runs its notebook before any
page asked for it; the first call of `page_query` waits there until a page takes the kernel: it
opens the server's `voila/query/<its kernel id>` websocket, where the server sends that page's
request once (serving/query_socket.py guards it), and puts it into the environment, as Voila's
own `voila.utils.get_query_string` does. This module does it without importing `voila`: that
import loads the whole Jupyter server in the kernel (jupyter_server, jupyterlab_server, the
grammar of jupyter_events), about 1.7 s of CPU for every preheated kernel, where tornado's
websocket client, which the kernel has already loaded, does the same in a few milliseconds.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Mapping
from urllib.parse import parse_qsl

log = logging.getLogger(__name__)
CONNECT_TIMEOUT_S = 5.0


def page_query() -> dict[str, str]:
    """The query of the lesson page's URL (`?deal=K7QX&room=...`), as a dict; empty outside
    Voila (JupyterLab, nbval). In a preheated kernel, waits until a page takes the kernel."""
    if os.environ.get("VOILA_PREHEAT") == "True" and "VOILA_KERNEL_ID" in os.environ:
        _wait_for_page_request()
    return dict(parse_qsl(os.environ.get("QUERY_STRING", "")))


def query_socket_url(env: Mapping[str, str] = os.environ) -> str:
    """Where the server sends this kernel its page's request, from the environment Voila gives
    a preheated kernel (the same variables and defaults as Voila's `wait_for_request`)."""
    protocol = env.get("VOILA_WS_PROTOCOL", "ws")
    host = env.get("VOILA_APP_IP", "127.0.0.1")
    port = env.get("VOILA_APP_PORT", "8866")
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{host}:{port}{base}voila/query/{env.get('VOILA_KERNEL_ID', '')}"


def _wait_for_page_request() -> None:
    """Wait for the request of the page that takes this kernel and put it into the environment
    (QUERY_STRING and the rest Voila sends). A server that cannot be reached leaves the
    environment as it is (a warning in the kernel's log): the page then has no query."""
    url = query_socket_url()
    received: list[str] = []

    async def receive() -> None:
        from tornado.websocket import websocket_connect

        conn = await websocket_connect(url, connect_timeout=CONNECT_TIMEOUT_S)
        try:
            message = await conn.read_message()
        finally:
            conn.close()
        if isinstance(message, str):
            received.append(message)

    def run() -> None:
        try:  # an event loop of its own: the kernel's loop is busy running this cell
            asyncio.run(receive())
        except Exception as e:  # noqa: BLE001 - no query, not a dead notebook
            log.warning("the page's request did not come (%s): %s", url, e)

    waiter = threading.Thread(target=run, name="page-query", daemon=True)
    waiter.start()
    waiter.join()
    for key, value in (json.loads(received[0]) if received else {}).items():
        os.environ[str(key)] = str(value)
