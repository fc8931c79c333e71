"""widgets.page.query: the page's query in a kernel Voila started for the request and in a
preheated one, which waits on the server's `voila/query/<kernel id>` websocket for the page
that takes it (end to end with Voila's pool: tests/test_pool.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from widgets.page.query import query_socket_url

# A kernel's process: a websocket server standing in for Voila's (it sends the page's request
# once, after a moment, as the server does when a page takes the kernel), then page_query().
KERNEL = r"""
import asyncio, json, os, sys, threading, time
import tornado.httpserver, tornado.netutil, tornado.web, tornado.websocket

opened = []

class Query(tornado.websocket.WebSocketHandler):
    async def open(self, kernel_id):
        opened.append(kernel_id)
        await asyncio.sleep(0.3)
        self.write_message(json.dumps({"QUERY_STRING": "room=ZQ93&seat=1", "SERVER_PORT": "8866"}))

ready = threading.Event()
port = []

def serve():
    async def main():
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        port.append(sockets[0].getsockname()[1])
        server = tornado.httpserver.HTTPServer(
            tornado.web.Application([(r"/base/voila/query/(.*)", Query)]))
        server.add_sockets(sockets)
        ready.set()
        await asyncio.Event().wait()
    asyncio.run(main())

threading.Thread(target=serve, daemon=True).start()
ready.wait(10)
os.environ.update({"VOILA_PREHEAT": "True", "VOILA_KERNEL_ID": "k-123", "VOILA_APP_PORT":
                   str(port[0]), "VOILA_SERVER_URL": "/base/"})
from widgets.page.query import page_query
t0 = time.monotonic()
query = page_query()
print(json.dumps({"query": query, "opened": opened, "waited": time.monotonic() - t0,
                  "port_env": os.environ.get("SERVER_PORT"),
                  "loaded": sorted(m for m in ("voila", "jupyter_server", "jupyterlab_server",
                                               "jupyter_events") if m in sys.modules)}))
"""


def test_a_preheated_kernel_waits_for_its_page_and_loads_no_server() -> None:
    """The preheated kernel connects to its own kernel id's socket at the server's address,
    waits for the page's request, takes its query and the rest of it into the environment,
    and loads none of the Jupyter server (about 1.7 s of CPU a kernel through voila.utils)."""
    out = subprocess.run([sys.executable, "-c", KERNEL], capture_output=True, text=True,
                         timeout=60, check=True)
    got = json.loads(out.stdout)
    assert got["query"] == {"room": "ZQ93", "seat": "1"}
    assert got["opened"] == ["k-123"]
    assert got["waited"] >= 0.3  # it waited for the page
    assert got["port_env"] == "8866"
    assert got["loaded"] == []


def test_a_kernel_started_for_its_page_reads_the_environment(monkeypatch) -> None:
    from widgets.page.query import page_query

    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("QUERY_STRING", "deal=K7QX&lang=es")
    assert page_query() == {"deal": "K7QX", "lang": "es"}
    monkeypatch.delenv("QUERY_STRING")
    assert page_query() == {}  # JupyterLab, nbval: no page, no query


def test_the_socket_address_follows_voilas_variables() -> None:
    assert query_socket_url({"VOILA_KERNEL_ID": "abc"}) == \
        "ws://127.0.0.1:8866/voila/query/abc"
    assert query_socket_url({"VOILA_KERNEL_ID": "abc", "VOILA_WS_PROTOCOL": "wss",
                             "VOILA_APP_IP": "10.0.0.2", "VOILA_APP_PORT": "9000",
                             "VOILA_SERVER_URL": "/user/ana/", "VOILA_WS_BASE_URL": "/hub/"}) \
        == "wss://10.0.0.2:9000/hub/voila/query/abc"
    assert query_socket_url({"VOILA_KERNEL_ID": "abc", "VOILA_SERVER_URL": "/user/ana/"}) == \
        "ws://127.0.0.1:8866/user/ana/voila/query/abc"


def test_an_unreachable_server_leaves_the_page_without_a_query() -> None:
    """No server at the address (a kernel whose server went away): a warning, no query, no
    hang."""
    code = ("import os, socket, json\n"
            "s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()\n"
            "os.environ.update({'VOILA_PREHEAT': 'True', 'VOILA_KERNEL_ID': 'k',"
            " 'VOILA_APP_PORT': str(port)})\n"
            "from widgets.page.query import page_query\n"
            "print(json.dumps(page_query()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    assert json.loads(out.stdout) == {}
    assert "did not come" in out.stderr
