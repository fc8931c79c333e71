"""`make class`'s projector page in Chromium: it makes no request but for itself.

The server runs bound to 127.0.0.1 (serving/class_server.py), so its page says the lessons are
served to this computer only. The page of a school network (the address and its QR code) is
made from a made-up address (`projector_html`) and loaded with every request recorded and
every request off this computer aborted: no test sends anything to a network address.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS_DIR, IN_CI, format_violations

from serving import class_server as cs


def requests_of(vp: Any) -> list[str]:
    seen: list[str] = []
    vp.page.on("request", lambda r: seen.append(r.url))
    return seen


def test_the_served_projector_page_requests_nothing_else(class_server: Any,
                                                         open_page: Any) -> None:
    vp = open_page("projector-served")
    seen = requests_of(vp)
    vp.open(class_server.url + "class", expect_widgets=False)
    vp.page.get_by_role("alert").wait_for()
    assert "this computer only" in vp.page.inner_text("body")
    assert seen == [class_server.url + "class"]
    assert vp.problems() == []


def test_the_school_network_page_requests_nothing(open_page: Any) -> None:
    where = cs.class_address("0.0.0.0", 8866, {"wlan0": ["192.168.1.23"]})
    vp = open_page("projector-network")
    seen = requests_of(vp)
    vp.page.set_content(cs.projector_html(where))
    vp.page.wait_for_load_state("load")
    assert vp.page.get_by_text("http://192.168.1.23:8866", exact=True).is_visible()
    qr = vp.page.locator("svg.icg-qr")
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 250 and box["height"] == box["width"]
    assert qr.get_attribute("class") == "icg-qr"
    assert seen == [] and vp.external_requests == []
    violations = vp.axe_violations()
    assert violations == [], format_violations(violations)
    assert vp.problems() == []


# Projectors' sizes (CSS pixels), and addresses of the school network: a short one and the
# longest an IPv4 address and a port can make.
PROJECTORS = [(1024, 768), (1280, 720), (1920, 1080)]
ADDRESSES = [{"wlan0": ["192.168.1.23"]}, {"eth0": ["192.168.100.200"]}]
ADDRESS_BOX_JS = """() => {
  const a = document.querySelector('.address');
  const r = document.createRange(); r.selectNodeContents(a);
  const lines = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
  const box = a.getBoundingClientRect();
  return {lines: lines.size, left: box.left, right: box.right, top: box.top,
          bottom: box.bottom, overflow: a.scrollWidth - a.clientWidth,
          font: parseFloat(getComputedStyle(a).fontSize)};
}"""


def decode_qr(png: Path) -> list[str]:
    """What zbarimg (zbar-tools) reads in a picture: one line a code."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        message = "the projector's QR test needs zbarimg (Debian: zbar-tools; make browsers)"
        if IN_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    done = subprocess.run([zbarimg, "--quiet", "--raw", str(png)], capture_output=True,
                          text=True, timeout=60)
    return done.stdout.split()


@pytest.mark.parametrize("interfaces", ADDRESSES, ids=lambda i: next(iter(i.values()))[0])
def test_the_address_and_its_qr_code_fit_every_projector(open_page: Any, tmp_path: Path,
                                                          interfaces: dict) -> None:
    """At each projector size the address is on one line inside the screen, and the QR code
    is whole on the first screen under it, large enough to scan (and it reads as the
    address)."""
    where = cs.class_address("0.0.0.0", 65535 if "eth0" in interfaces else 8866, interfaces)
    vp = open_page("projector-sizes")
    vp.page.set_content(cs.projector_html(where))
    for width, height in PROJECTORS:
        vp.page.set_viewport_size({"width": width, "height": height})
        box = vp.page.evaluate(ADDRESS_BOX_JS)
        size = f"{width}x{height}"
        assert box["lines"] == 1 and box["overflow"] <= 0, (size, box)
        assert 0 <= box["left"] and box["right"] <= width and box["bottom"] <= height, (size, box)
        assert box["font"] >= 40, (size, box)  # read from the back of the room
        qr = vp.page.locator("svg.icg-qr").bounding_box()
        assert qr is not None and qr["y"] >= box["bottom"], (size, qr)
        assert qr["y"] + qr["height"] <= height and qr["x"] >= 0 \
            and qr["x"] + qr["width"] <= width, (size, qr)
        assert qr["width"] >= 250, (size, qr)
        shot = tmp_path / f"qr-{size}.png"
        vp.page.screenshot(path=str(shot))  # the first screen, as the room sees it
        assert decode_qr(shot) == [where.url], size
        if interfaces is ADDRESSES[0]:
            ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, ARTIFACTS_DIR / f"class-projector-{size}.png")
    assert vp.problems() == []

