"""A real JupyterHub on loopback, configured by what deploy/jupyterhub/ ships.

JupyterHub and configurable-http-proxy run deploy/jupyterhub/jupyterhub_config.py (which reads
the Zero to JupyterHub values of config.yaml) with only what a test must change on top: free
loopback ports, a temporary database, and the students' servers as local processes of this
user (SimpleLocalProcessSpawner: the test runs as root, without a system user per student).
The login is config.yaml's shared password. Two students log in through the hub's form in
Chromium, land on the config's default URL, open the Hit Me lesson and play a round; neither
can open the other's server; the lesson page's kernel refuses code sent over its websocket,
while its widgets keep working.

One more user, `control`, gets a server without deploy/jupyterhub/jupyter_server_config.py:
the same attack on that server's page runs the code and reads the face-down cards, so the
refusal on the students' servers is the configuration's doing, not the test's.

Needs `jupyterhub` (pip, the [test] extras) and configurable-http-proxy (`make hub-proxy`,
npm); without them the tests skip locally and fail under CI=true.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HUB_DIR = ROOT / "deploy" / "jupyterhub"
VALUES = yaml.safe_load((HUB_DIR / "config.yaml").read_text())
PASSWORD = VALUES["hub"]["config"]["SharedPasswordAuthenticator"]["user_password"]
DEFAULT_URL = VALUES["singleuser"]["defaultUrl"]
HIT_ME = "/voila/render/lessons/03_hit_me.ipynb"
STUDENTS = ("alice", "bob")
CONTROL = "control"  # a server without the students' server configuration (see the docstring)
START_TIMEOUT = 90  # seconds: the hub, and each student's server (about 10 s here)
TIMEOUT_MS = 120_000
# The kernel websocket protocol needs only what Jupyter's own client sends.
KERNEL_WS_PROTOCOL_VERSION = "5.3"

pytestmark = pytest.mark.timeout(900)


def _unavailable(reason: str) -> None:
    """Skip locally, fail under CI=true (as tests/browser/conftest.py does for Chromium)."""
    msg = f"the JupyterHub test needs {reason}"
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(msg, pytrace=False)
    pytest.skip(msg)


def _hub_config_module() -> Any:
    spec = importlib.util.spec_from_file_location("icg_jupyterhub_config",
                                                  HUB_DIR / "jupyterhub_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Hub:
    """A running JupyterHub: its public URL, process, log and temporary folder."""

    def __init__(self, url: str, proc: subprocess.Popen, root: Path) -> None:
        self.url = url.rstrip("/")
        self.proc = proc
        self.root = root

    def log(self) -> str:
        return (self.root / "hub.log").read_text(errors="replace")

    def user_url(self, name: str, path: str = "") -> str:
        return f"{self.url}/user/{name}{path}"


def _overlay(root: Path, ports: dict[str, int], proxy: list[str]) -> str:
    """The test's jupyterhub_config.py: the deploy file, then only what a test must change."""
    lines = [
        "c = get_config()  # noqa: F821",
        f"load_subconfig({str(HUB_DIR / 'jupyterhub_config.py')!r})  # noqa: F821",
        f"c.JupyterHub.bind_url = 'http://127.0.0.1:{ports['public']}/'",
        f"c.JupyterHub.hub_bind_url = 'http://127.0.0.1:{ports['hub']}'",
        f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{ports['api']}'",
        f"c.ConfigurableHTTPProxy.command = {proxy!r}",
        f"c.ConfigurableHTTPProxy.pid_file = {str(root / 'proxy.pid')!r}",
        f"c.JupyterHub.db_url = 'sqlite:///{root / 'jupyterhub.sqlite'}'",
        f"c.JupyterHub.cookie_secret_file = {str(root / 'cookie_secret')!r}",
        "c.JupyterHub.spawner_class = 'simple'",
        f"c.SimpleLocalProcessSpawner.home_dir_template = {str(root / 'home' / '{username}')!r}",
        # Root runs the servers here; on a real hub each runs as its student or in a container.
        "c.Spawner.args = c.Spawner.args + ['--ServerApp.allow_root=True']",
        f"c.Spawner.start_timeout = {START_TIMEOUT}",
        f"c.Spawner.http_timeout = {START_TIMEOUT}",
        # The control user's server does not get the students' server configuration.
        "_config_path = c.Spawner.environment['JUPYTER_CONFIG_PATH']",
        "c.Spawner.environment = {'JUPYTER_CONFIG_PATH': lambda spawner:"
        f" {str(root / 'no-config')!r} if spawner.user.name == {CONTROL!r} else _config_path,"
        # the test's own room store, not the one beside the project
        f" 'ICG_ROOMS_URL': 'sqlite:///{root / 'rooms.sqlite3'}'}}",
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    if importlib.util.find_spec("jupyterhub") is None:
        _unavailable("the jupyterhub package (pip install -e '.[test]')")
    config = _hub_config_module()
    proxy = config.proxy_command()
    if proxy is None:
        _unavailable("configurable-http-proxy (make hub-proxy: npm into .hub-node/)")
    sys.path.insert(0, str(ROOT / "tests"))
    import psutil
    from voila_server import free_port

    root = tmp_path_factory.mktemp("hub")
    (root / "no-config").mkdir()
    ports = {k: free_port() for k in ("public", "hub", "api")}
    assert len(set(ports.values())) == 3
    (root / "hub_config.py").write_text(_overlay(root, ports, proxy))
    log = open(root / "hub.log", "w")  # noqa: SIM115 - closed below
    jupyterhub = str(Path(sys.executable).with_name("jupyterhub"))
    proc = subprocess.Popen([jupyterhub, "-f", str(root / "hub_config.py")], cwd=root,
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    hub = Hub(f"http://127.0.0.1:{ports['public']}", proc, root)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(hub.url + "/hub/api", timeout=2) as r:  # noqa: S310
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.close()
            pytest.fail("JupyterHub did not start:\n" + hub.log()[-4000:])
        time.sleep(0.5)
    try:
        yield hub
    finally:
        # SIGTERM: the hub stops every student's server (and their kernels) and the proxy.
        children = psutil.Process(proc.pid).children(recursive=True)
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        _gone, alive = psutil.wait_procs(children, timeout=30)
        for p in alive:
            p.kill()
        log.close()
        assert not alive, f"left running after the hub stopped: {[p.pid for p in alive]}"


def _log_in(hub: Hub, vp: Any, name: str) -> None:
    """Send the hub's login form; the hub then starts the student's server (its spawn-pending
    page) and sends the browser on (`_landed`)."""
    page = vp.page
    page.goto(hub.url + "/hub/login", wait_until="domcontentloaded", timeout=TIMEOUT_MS)
    page.fill("#username_input", name)
    page.fill("#password_input", PASSWORD)
    page.click("#login_submit")


def _landed(hub: Hub, vp: Any, name: str) -> str:
    """The URL a student who logged in lands on, once the hub has started their server."""
    vp.page.wait_for_url(re.compile(re.escape(hub.user_url(name)) + r"/voila/"),
                         timeout=START_TIMEOUT * 1000, wait_until="domcontentloaded")
    return vp.page.url


@pytest.fixture(scope="module")
def students(hub: Hub, browser: Any, bt: Any) -> Iterator[dict[str, Any]]:
    """Every user logged in, each in a browser context of their own: name -> (page, URL).
    They log in one after the other, as a class does, and the hub starts their servers side
    by side."""
    contexts, pages = [], {}
    for name in (*STUDENTS, CONTROL):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(ctx)
        pages[name] = bt.VoilaPage(ctx, f"hub-{name}")
        _log_in(hub, pages[name], name)
    out = {name: (vp, _landed(hub, vp, name)) for name, vp in pages.items()}
    yield out
    for ctx in contexts:
        ctx.close()


def _path(url: str) -> str:
    u = urlparse(url)
    return u.path + (f"?{u.query}" if u.query else "")


def test_login_lands_on_the_default_url_in_voila(students: dict, hub: Hub) -> None:
    for name in STUDENTS:
        vp, landed = students[name]
        assert _path(landed) == f"/user/{name}{DEFAULT_URL}", landed
        vp.open(landed, expect_widgets=False)
        assert "Integer Card Games: start here" in vp.page.inner_text("body")
        assert vp.problems() == [], name


def _seat_sum(page: Any) -> int:
    """The student's sum, from their seat's status line ('sum -3, |-3| = 3') after "Show my
    sum" (the table states it only when asked)."""
    status = page.locator('[role="group"][aria-label="You"] .icg-seat-status',
                          has_text=re.compile(r"\bsum ")).first
    status.wait_for(timeout=TIMEOUT_MS)
    m = re.search(r"\bsum ([+\-\u2212]?\d+)", status.inner_text())
    assert m, status.inner_text()
    return int(m.group(1).replace("\u2212", "-").replace("+", ""))


def _button(page: Any, name: str) -> Any:
    return page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))


def _click_when_enabled(page: Any, name: str) -> None:
    """Click the button once it is enabled. The locator is resolved again at each try: a
    table re-renders its button row (an ace dealt to the student adds a button before Hold),
    and a handle to the old element would stay disabled for ever."""
    enabled = page.locator(".widget-button:visible:enabled",
                           has_text=re.compile(f"^{re.escape(name)}$")).first
    try:
        enabled.wait_for(state="visible", timeout=TIMEOUT_MS)
    except Exception as e:  # noqa: BLE001 - say what the table showed
        status = page.locator('[role="status"]').all_inner_texts()
        log = page.locator(".icg-log").all_inner_texts()
        raise AssertionError(f"{name!r} never enabled; status {status}; log {log}") from e
    enabled.click()


def _text_box(page: Any, label: str) -> Any:
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=re.compile(f"^{re.escape(label)}$"))).locator("input")


def test_each_student_plays_a_round_of_hit_me(students: dict, hub: Hub) -> None:
    """The lesson's own table (3 players, a deal nobody chose): peek, hold, announce the sum,
    turn the cards up, see the winner."""
    for name in STUDENTS:
        vp, _ = students[name]
        vp.open(hub.user_url(name, HIT_ME))
        page = vp.page
        assert vp.rendered_widgets() >= 1
        _click_when_enabled(page, "Peek at my face-down card")
        _click_when_enabled(page, "Show my sum")  # the sum shows only when asked for
        total = _seat_sum(page)  # what the student adds up while playing
        _click_when_enabled(page, "Hold")
        # The computer players move; then the student announces their sum.
        _text_box(page, "My sum").wait_for(state="visible", timeout=TIMEOUT_MS)
        _text_box(page, "My sum").press_sequentially(str(total))
        _text_box(page, "Its absolute value |sum|").press_sequentially(str(abs(total)))
        _click_when_enabled(page, "Check my sum")
        page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=TIMEOUT_MS)
        _click_when_enabled(page, "Turn up all the cards")
        result = page.locator(".icg-msg-celebrate").first
        result.wait_for(timeout=TIMEOUT_MS)
        assert re.search(r"wins? the round|co-winners", result.inner_text()), result.inner_text()
        assert vp.problems() == [], name
        vp.screenshot(f"hub-hit-me-{name}")


def test_a_student_cannot_open_another_students_server(students: dict, hub: Hub) -> None:
    """Alice's cookies on Bob's running server: the hub refuses her (403), for his pages
    (through the hub's OAuth step) and his server's API alike."""
    alice, _ = students["alice"]
    for path in ("/", HIT_ME, "/api/kernels", "/api/contents/lessons"):
        r = alice.context.request.get(hub.user_url("bob", path), timeout=TIMEOUT_MS)
        assert r.status == 403, (path, r.status, r.url)
        assert "icg-" not in r.text(), f"bob's lesson was served to alice ({path})"
    # Her own server answers her (the refusal is not a broken login).
    r = alice.context.request.get(hub.user_url("alice", "/api/status"), timeout=TIMEOUT_MS)
    assert r.status == 200, r.status


def test_students_get_no_jupyterlab_terminal_or_file_writes(students: dict, hub: Hub) -> None:
    """No JupyterLab, terminal or file upload for students (a notebook they wrote would run
    as a Voila page); the control server has all three, so these checks can fail."""
    upload = f"lessons/hub-test-{uuid.uuid4().hex[:8]}.ipynb"
    notebook = {"type": "notebook", "content": {"cells": [], "metadata": {}, "nbformat": 4,
                                                 "nbformat_minor": 5}}
    try:
        for name in (*STUDENTS, CONTROL):
            vp, _ = students[name]
            req = vp.context.request
            xsrf = next((c["value"] for c in vp.context.cookies()
                         if c["name"] == "_xsrf" and c["path"] == f"/user/{name}/"), "")
            status = {path: req.get(hub.user_url(name, path), timeout=TIMEOUT_MS).status
                      for path in ("/lab", "/lab/tree/lessons", "/api/terminals")}
            put = req.put(hub.user_url(name, f"/api/contents/{upload}"),
                          data=json.dumps(notebook), timeout=TIMEOUT_MS,
                          headers={"X-XSRFToken": xsrf, "Content-Type": "application/json"})
            if name == CONTROL:
                assert set(status.values()) == {200}, status
                assert put.status == 201, put.status
                assert (ROOT / upload).is_file()
            else:
                assert set(status.values()) == {404}, (name, status)
                assert put.status == 403, (name, put.status, put.text())
                assert not (ROOT / upload).exists()
    finally:
        (ROOT / upload).unlink(missing_ok=True)


# --------------------------------------------------------------------------- code injection
def _kernel_message(msg_type: str, content: dict) -> dict:
    return {
        "header": {"msg_id": uuid.uuid4().hex, "username": "student", "session": uuid.uuid4().hex,
                   "msg_type": msg_type, "version": KERNEL_WS_PROTOCOL_VERSION, "date": ""},
        "parent_header": {}, "metadata": {}, "content": content, "channel": "shell",
        "buffers": [],
    }


def _attack(hub: Hub, vp: Any, name: str, marker: Path) -> tuple[list[str], dict]:
    """Open the page's own kernel websocket with the student's cookies and send an
    execute_request that writes the face-down cards to `marker`, then a kernel_info_request.

    Returns the types of the messages answering the execute_request, and the kernel_info_reply.
    """
    import websocket

    # The kernel of the page open now (the last one the tab connected to).
    ids = [m.group(1) for u in vp.ws_urls
           if (m := re.search(r"/api/kernels/([0-9a-f-]{36})/channels", u))]
    assert ids, "the page opened no kernel websocket"
    kernel_id = ids[-1]
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in vp.context.cookies()
                        if c["path"] in ("/", f"/user/{name}/"))
    ws_url = hub.user_url(name, f"/api/kernels/{kernel_id}/channels").replace("http", "ws", 1)
    ws = websocket.create_connection(f"{ws_url}?session_id={uuid.uuid4().hex}",
                                     header=[f"Cookie: {cookies}"], origin=hub.url, timeout=20)
    code = (
        "import gc\nfrom widgets.hit_me.table import HitMeTable\n"
        "t = [o for o in gc.get_objects() if isinstance(o, HitMeTable)][0]\n"
        f"open({str(marker)!r}, 'w').write(' '.join(c.code for c in t.game.round.face_down))\n"
    )
    execute = _kernel_message("execute_request", {
        "code": code, "silent": False, "store_history": False, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True})
    info = _kernel_message("kernel_info_request", {})
    try:
        ws.send(json.dumps(execute))
        ws.send(json.dumps(info))
        answers, reply = [], None
        deadline = time.monotonic() + 30
        # The shell channel answers in order: the kernel_info_reply comes after whatever the
        # execute_request caused, so everything it caused has arrived by then.
        while reply is None and time.monotonic() < deadline:
            frame = ws.recv()
            if isinstance(frame, bytes):
                continue
            msg = json.loads(frame)
            parent = msg.get("parent_header", {}).get("msg_id")
            if parent == execute["header"]["msg_id"]:
                answers.append(msg["msg_type"])
            elif parent == info["header"]["msg_id"] and msg["msg_type"] == "kernel_info_reply":
                reply = msg
    finally:
        ws.close()
    assert reply is not None, "the kernel did not answer kernel_info_request"
    return answers, reply


def test_the_lesson_kernel_refuses_code_from_the_page(students: dict, hub: Hub,
                                                      tmp_path: Path) -> None:
    # The control server runs it: the attack reads the face-down cards there.
    vp, _ = students[CONTROL]
    vp.open(hub.user_url(CONTROL, HIT_ME))
    marker = tmp_path / "control-cards"
    answers, _ = _attack(hub, vp, CONTROL, marker)
    assert "execute_reply" in answers, answers
    assert re.fullmatch(r"(\w+ ?)+", marker.read_text()), marker.read_text()

    for name in STUDENTS:
        vp, _ = students[name]
        vp.open(hub.user_url(name, HIT_ME))
        marker = tmp_path / f"{name}-cards"
        answers, reply = _attack(hub, vp, name, marker)
        assert answers == [], (name, answers)
        assert reply["content"]["status"] == "ok"
        assert not marker.exists(), f"{name}'s kernel ran the code"
        # The page's widgets still work after the attempt.
        _click_when_enabled(vp.page, "Peek at my face-down card")
        _button(vp.page, "Hide my face-down card").wait_for(timeout=TIMEOUT_MS)
        assert vp.problems() == [], name
    assert 'Received message of type "execute_request", which is not allowed' in hub.log()
