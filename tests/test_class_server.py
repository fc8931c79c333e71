"""`make class`'s server (serving/class_server.py), bound to 127.0.0.1 only: it serves the
lessons like `make serve`, prints where students and the projector go, and serves the projector
page, which can fetch nothing. The address chosen on a school network is tested with made-up
interfaces in tests/test_class_address.py: no test sends anything to a network address."""

from __future__ import annotations

import re
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from voila_server import read_log, start_voila, stop_voila

pytestmark = pytest.mark.serving

ROOT = Path(__file__).resolve().parent.parent
KEY = "CLAS-SKEY-4TST"


@pytest.fixture(scope="module")
def class_server() -> Iterator[tuple[str, subprocess.Popen]]:
    url, proc = start_voila(ROOT / "lessons", module="serving.class_server",
                            env={"ICG_TEACHER_KEY": KEY}, preheat=False)
    yield url, proc
    stop_voila(proc)


def get(url: str) -> tuple[int, dict, str]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, dict(r.headers), r.read().decode("utf-8")


def test_it_prints_where_to_go(class_server: tuple) -> None:
    url, proc = class_server
    deadline = time.monotonic() + 30
    while "Ready: " not in read_log(proc) and time.monotonic() < deadline:
        time.sleep(0.2)
    log = read_log(proc)
    assert f"Projector page (the address in large print and its QR code):  {url}class" in log
    # once ready it says where to go and where the key is again, after Voila's own lines
    ready = log[log.index("Ready: "):]
    assert "Only this computer can open the lessons" in ready
    assert "Teacher's key: the one in ICG_TEACHER_KEY" in ready
    assert "is not trusted" not in log and "Kernel started:" not in log
    # bound to 127.0.0.1: it says plainly that no other device can come in
    assert "served to this computer only" in log and "Students type" not in log
    assert KEY not in log


def test_the_projector_page_is_served_and_fetches_nothing(class_server: tuple) -> None:
    url, _proc = class_server
    status, headers, page = get(url + "class")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert "script-src" not in headers["Content-Security-Policy"]
    assert "served to this computer only" in page and "ICG_TEACHER_KEY" in page
    assert KEY not in page
    assert re.findall(r"(?:src|href)=\"([^\"]*)\"", page) == ["data:,"]
    status, _headers, page = get(url + "class?lang=es")
    assert '<html lang="es">' in page and "Las lecciones se sirven solo" in page


def test_the_lessons_are_served_as_by_make_serve(class_server: tuple) -> None:
    url, _proc = class_server
    status, headers, page = get(url)
    assert status == 200 and "00_start_here.ipynb" in page
    assert "script-src 'self'" in headers["Content-Security-Policy"]  # voila.json's settings


def test_make_class_listens_on_every_interface_or_host() -> None:
    def dry(*args: str) -> str:
        return subprocess.run(["make", "-n", "-o", "venv", "-o", ".venv/.stamp", "class",
                               *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout

    out = dry()
    assert "-m serving.class_server" in out and "--Voila.ip=0.0.0.0" in out
    assert "--Voila.port_retries=0" in out and "--port=8866" in out
    assert "-m widgets.page.teacher_key" in out
    out = dry("HOST=10.1.2.3", "PORT=9000")
    assert "--Voila.ip=10.1.2.3" in out and "--port=9000" in out
