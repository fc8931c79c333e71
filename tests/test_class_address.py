"""`make class`: the address students type, its QR code and the projector page
(serving/class_server.py), from made-up interfaces: no test sends anything to a network
address."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from serving import class_server as cs
from widgets.page import teacher_key as tk

SCHOOL = {"lo": ["127.0.0.1"], "docker0": ["172.17.0.1"], "wlan0": ["192.168.1.23"],
          "eth0": ["169.254.10.3"]}


def test_the_school_address_is_chosen_and_short() -> None:
    where = cs.class_address("0.0.0.0", 8866, SCHOOL)
    assert where.url == "http://192.168.1.23:8866" and where.others == []
    assert cs.class_address("", 9000, SCHOOL).url == "http://192.168.1.23:9000"


@pytest.mark.parametrize(("interfaces", "up", "expected"), [
    # loopback, link-local (no network answered), Docker's bridge: nobody can reach them
    ({"lo": ["127.0.0.1"], "eth0": ["169.254.7.7"], "docker0": ["172.17.0.1"]}, None, []),
    # a private network before a public one; both kept, in that order
    ({"eth0": ["81.2.69.160"], "wlan0": ["10.4.0.12"]}, None, ["10.4.0.12", "81.2.69.160"]),
    # interfaces in their order among private ones; the same address once
    ({"wlan0": ["192.168.1.23"], "eth0": ["10.0.0.5", "192.168.1.23"]}, None,
     ["192.168.1.23", "10.0.0.5"]),
    # an interface that is down, IPv6, VPNs and virtual machines, junk
    ({"eth0": ["10.0.0.5"], "wlan0": ["fe80::1", "2001:db8::5", "not an address"],
      "tailscale0": ["100.101.1.2"], "virbr0": ["192.168.122.1"], "wg0": ["10.8.0.2"],
      "vboxnet0": ["192.168.56.1"]}, {"wlan0", "tailscale0", "virbr0"}, []),
    ({"enp3s0": ["10.0.0.5"]}, {"enp3s0"}, ["10.0.0.5"]),
])
def test_network_addresses(interfaces: dict, up: set | None, expected: list) -> None:
    assert cs.network_addresses(interfaces, up) == expected


def test_no_network_address_is_said_plainly() -> None:
    where = cs.class_address("0.0.0.0", 8866, {"lo": ["127.0.0.1"]}, {"lo"})
    assert where.url is None and not where.local_only
    page = cs.projector_html(where)
    assert "no network address that other devices can reach" in page
    assert "http://127.0.0.1:8866" in page and "<svg" not in page
    assert 'http-equiv="refresh"' in page  # it looks again once the computer joins
    text = cs.banner(where, "http://127.0.0.1:8866/class")
    assert "no network address" in text and "Students type" not in text


def test_a_chosen_host_is_the_address() -> None:
    assert cs.class_address("10.1.2.3", 8866, {}).url == "http://10.1.2.3:8866"
    for host in ("127.0.0.1", "localhost", "::1"):
        where = cs.class_address(host, 8866, SCHOOL)
        assert where.url is None and where.local_only
        assert "HOST=127.0.0.1" in cs.banner(where, "x")
    assert cs.student_url("fd00::7", 8866) == "http://[fd00::7]:8866"


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.attrs: list[tuple[str, str, str | None]] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_projector_page(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    key = "PROJ-ECTO-RKEY"
    monkeypatch.setenv(tk.KEY_ENV, key)
    where = cs.class_address("0.0.0.0", 8866, {**SCHOOL, "eth1": ["10.9.9.9"]})
    page = cs.projector_html(where, lang)
    assert ">http://192.168.1.23:8866<" in page and "http://10.9.9.9:8866" in page
    assert key not in page and tk.KEY_ENV in page  # where the key is, never the key
    parsed = Tags()
    parsed.feed(page)
    assert "script" not in parsed.tags and "img" not in parsed.tags and "svg" in parsed.tags
    # nothing it could fetch: no src, no link but the empty icon, no url() in its style
    fetches = [(t, k, v) for t, k, v in parsed.attrs if k in ("src", "href", "srcset", "data")]
    assert fetches == [("link", "href", "data:,")]
    assert "url(" not in page and "@import" not in page
    assert re.findall(r"https?://[^\s\"'<]+", page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")) == [
        "http://192.168.1.23:8866", "http://192.168.1.23:8866", "http://10.9.9.9:8866"]
    assert f'<html lang="{lang}">' in page
    if lang == "es":
        assert "Escribe esta dirección" in page


def test_the_qr_code_is_an_svg_of_the_address() -> None:
    import segno

    svg = cs.qr_svg("http://192.168.1.23:8866", "QR code of the address")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<title>QR code of the address</title>" in svg and 'fill="#fff"' in svg
    # the same modules as segno's own code of that text, in the smallest size that holds it
    code = segno.make("http://192.168.1.23:8866", error="m")
    assert code.designator == "2-M" and f'viewBox="0 0 {code.symbol_size()[0] * 10} ' in svg
    assert cs.qr_svg("http://10.0.0.5:8866") != svg


def test_where_the_key_is(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    words = {"key_env": "env {env}", "key_file": "file {where}", "key_none": "none {env}"}
    monkeypatch.delenv(tk.KEY_ENV, raising=False)
    monkeypatch.setenv(tk.KEY_FILE_ENV, str(tmp_path / "key"))
    assert cs.key_note(words) == f"none {tk.KEY_ENV}"
    assert "stay locked" in cs.banner(cs.class_address("", 1, SCHOOL), "p")
    (tmp_path / "key").write_text("ABCD-EFGH-JKLM\n")
    # the projector's page names the file, not where it is on the server
    assert cs.key_note(words) == "file key" and str(tmp_path) not in cs.key_note(words)
    assert f"kept in {tmp_path / 'key'}" in cs.banner(cs.class_address("", 1, SCHOOL), "p")
    monkeypatch.setenv(tk.KEY_ENV, "ABCD-EFGH-JKLM")
    assert cs.key_note(words) == f"env {tk.KEY_ENV}"
    text = cs.banner(cs.class_address("", 1, SCHOOL), "p")
    assert f"the one in {tk.KEY_ENV}" in text and "ABCD-EFGH-JKLM" not in text
