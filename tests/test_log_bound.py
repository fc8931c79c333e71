"""The server's log is bounded in size whatever a student sends (serving/log_cap.py): a real
`make class` server (serving/class_server.py) hammered with refused requests of several kinds
grows its log by no more than its caps allow, and still writes its ordinary lines; a rotating
log file never holds more than its files' sizes."""

from __future__ import annotations

import logging
import re
import shutil
import time
import uuid
from pathlib import Path
from urllib.parse import urljoin

import pytest
import requests
import websocket
from voila_server import REPO_ROOT, read_log, running_voila

from serving import log_cap

PER_KIND, PER_WINDOW, WINDOW_S, LINE_CHARS = 3, 40, 4.0, 600
# What one window may add: PER_WINDOW lines (each at most LINE_CHARS characters, plus a
# newline), and a summary line for each kind that lost lines.
SUMMARY_CHARS = 300


def test_a_rotating_file_holds_at_most_its_files(tmp_path: Path) -> None:
    now = [0.0]
    cap = log_cap.LogCap(per_kind=50, per_minute=200, window=60, clock=lambda: now[0])
    path = tmp_path / "class.log"
    target = log_cap.rotating_file(str(path), file_bytes=20_000, files=3)
    target.setFormatter(logging.Formatter("%(name)s %(message)s"))
    app_log = logging.Logger("test.app")
    root = logging.getLogger()
    saved = list(root.handlers)
    try:
        log_cap.bound_logs(app_log, cap, target)
        noisy = logging.getLogger("test.noisy")
        for minute in range(30):
            now[0] = minute * 61.0
            for i in range(400):
                noisy.warning("Refused %s from %s", "x" * 50, f"10.0.0.{i % 250}")
                try:
                    raise ValueError("y" * 10_000)
                except ValueError:
                    noisy.exception("Uncaught exception %d", i)
        now[0] += 61.0
        app_log.warning("Ordinary line after the flood")
    finally:
        for h in list(root.handlers):
            root.removeHandler(h)
        for h in saved:
            root.addHandler(h)
        target.close()
    files = sorted(tmp_path.iterdir())
    assert len(files) <= 3
    assert all(f.stat().st_size <= 20_000 + log_cap.MAX_RECORD_CHARS * 4 for f in files)
    text = path.read_text(encoding="utf-8")
    assert "Ordinary line after the flood" in text
    assert "more like this in the last 60 s" in text
    assert "characters left out" in (text + "".join(f.read_text() for f in files))
    assert cap.skipped > 0


@pytest.mark.serving
@pytest.mark.timeout(240)
def test_a_hammered_class_server_grows_its_log_by_the_bound_only(tmp_path: Path) -> None:
    shutil.copy(REPO_ROOT / "tests" / "fixtures" / "one_button.ipynb", tmp_path)
    args = ["--ClassroomKernelManager.max_websockets_per_kernel=1",
            f"--ClassVoila.log_lines_per_kind={PER_KIND}",
            f"--ClassVoila.log_lines_per_window={PER_WINDOW}",
            f"--ClassVoila.log_window_s={WINDOW_S}",
            f"--ClassVoila.log_line_chars={LINE_CHARS}"]
    with running_voila(tmp_path, extra_args=args, preheat=False,
                       module="serving.class_server") as (url, process):
        r = requests.get(urljoin(url, "voila/render/one_button.ipynb"), timeout=120)
        assert r.status_code == 200
        kernel_id = r.text.split('"kernelId": "', 1)[1][:36]
        ws_url = url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
        held = websocket.create_connection(f"{ws_url}?session_id={uuid.uuid4().hex}",
                                           timeout=60)
        time.sleep(1)
        before = len(read_log(process))
        started = time.monotonic()
        try:
            with requests.Session() as s:
                for i in range(150):
                    s.get(urljoin(url, "logout"), timeout=30)
                    s.get(urljoin(url, f"voila/templates/nothing/{i}.js"), timeout=30)
                    s.get(urljoin(url, f"api/kernels/{uuid.uuid4()}"), timeout=30)
                    s.post(urljoin(url, f"voila/api/shutdown/{uuid.uuid4()}"), timeout=30)
            for _ in range(30):
                with pytest.raises(websocket.WebSocketBadStatusException):
                    websocket.create_connection(f"{ws_url}?session_id={uuid.uuid4().hex}",
                                                timeout=60)
        finally:
            held.close()
        windows = int((time.monotonic() - started) // WINDOW_S) + 2
        time.sleep(WINDOW_S + 11)  # the window ends; the timer writes its summaries
        grown = read_log(process)[before:]
        kinds = 20  # generous: the kinds of line these requests make
        bound = windows * (PER_WINDOW * (LINE_CHARS + 1) + kinds * SUMMARY_CHARS)
        assert len(grown) <= bound, grown[-3000:]
        assert "more like this in the last" in grown  # the caps held lines back
        # Ordinary lines still appear: the first of each kind, and a kind again once its
        # window is over.
        assert re.search(r"Refused \(websockets per kernel\) from [^:]+: kernel [0-9a-f-]{36}",
                         grown)
        missing = uuid.uuid4()
        requests.get(urljoin(url, f"api/kernels/{missing}"), timeout=30)
        time.sleep(1)
        assert f"Kernel does not exist: {missing}" in read_log(process)[before + len(grown):]
