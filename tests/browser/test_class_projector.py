"""`make class`'s projector page in Chromium: it makes no request but for itself.

The server runs bound to 127.0.0.1 (serving/class_server.py), so its page says the lessons are
served to this computer only. The page of a school network (the address and its QR code) is
made from a made-up address (`projector_html`) and loaded with every request recorded and
every request off this computer aborted: no test sends anything to a network address.
"""

from __future__ import annotations

from typing import Any

from conftest import format_violations

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
