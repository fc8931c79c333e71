"""`make class`: the lessons served to the school network, and a page for the projector.

`make serve` listens on 127.0.0.1, so only the teacher's computer can open the lessons.
`make class` runs the same Voila (the same voila.json, template, kernel manager and guards)
listening on every interface (or on HOST=...), and:

- prints the address students type, short (`http://192.168.1.23:8866`), the projector page's
  address and where the teacher's key is;
- serves the projector page at /class: the address in large print, a QR code of it (an inline
  SVG made by segno, in the page: no request leaves the server; its Content-Security-Policy
  allows no script, image or font from anywhere), and where the teacher's key is (never the
  key, nor any path on the server). It looks the address up again on every load, so after
  the computer joins the network a reload shows it.

With no network address (no Wi-Fi, no cable) it says so plainly, in the terminal and on the
page. `network_addresses` chooses the address from the interfaces it is given, so it is tested
with made-up ones (tests/test_class_address.py); `system_interfaces` reads the real ones.

    python -m serving.class_server --no-browser --Voila.ip=0.0.0.0 --port=8866 lessons/
"""

from __future__ import annotations

import html
import io
import ipaddress
import logging
import os
import sys
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import tornado.ioloop
import tornado.web
from traitlets import Float, Int, Unicode
from voila.app import Voila

from serving import log_cap

ANY_HOST = ("", "0.0.0.0", "::", "*")
# Interfaces of containers, virtual machines and VPNs: an address there is not on the school
# network (Docker's 172.17.0.1 is private, but no student's device can reach it).
VIRTUAL = ("docker", "br-", "veth", "virbr", "vnet", "lxcbr", "lxdbr", "cni", "flannel",
           "podman", "vmnet", "vboxnet", "tun", "tap", "wg", "tailscale", "zt", "utun", "lo")
PROJECTOR_PATH = "/class"
CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; "
       "base-uri 'none'; form-action 'none'")


def network_addresses(interfaces: Mapping[str, Iterable[str]],
                      up: Collection[str] | None = None) -> list[str]:
    """The IPv4 addresses of this computer that other devices on its network can type, best
    first: addresses of private networks (10.x, 172.16-31.x, 192.168.x: a school's) before
    others, then in the order the interfaces come. Left out: loopback (127.x), link-local
    (169.254.x: no network answered), interfaces of containers, virtual machines and VPNs,
    interfaces not in `up` (when given), IPv6 (long to type) and anything that is not an
    address. `interfaces`: interface name -> its addresses."""
    ranked = []
    for order, (name, addresses) in enumerate(interfaces.items()):
        if (up is not None and name not in up) or name.lower().startswith(VIRTUAL):
            continue
        for text in addresses:
            try:
                ip = ipaddress.IPv4Address(str(text).strip())
            except ValueError:
                continue
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
                continue
            ranked.append((0 if ip.is_private else 1, order, str(ip)))
    out: list[str] = []
    for _rank, _order, address in sorted(ranked):
        if address not in out:
            out.append(address)
    return out


def system_interfaces() -> tuple[dict[str, list[str]], set[str]]:
    """This computer's interfaces with their IPv4 addresses, and the names of those up."""
    import socket

    import psutil

    interfaces = {name: [a.address for a in addresses if a.family == socket.AF_INET]
                  for name, addresses in psutil.net_if_addrs().items()}
    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    return interfaces, up


def student_url(address: str, port: int) -> str:
    """What students type: short, no path, no trailing slash ('http://192.168.1.23:8866')."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{int(port)}"


@dataclass(frozen=True)
class ClassAddress:
    """Where the students' devices find the lessons. `url` is None when no device can:
    `local_only` when the server listens on this computer only, else no network address."""

    url: str | None
    local: str
    others: list[str] = field(default_factory=list)
    local_only: bool = False


def class_address(host: str, port: int, interfaces: Mapping[str, Iterable[str]],
                  up: Collection[str] | None = None) -> ClassAddress:
    """The address for the students of a server listening on `host`:`port`: on every
    interface (`host` '' or 0.0.0.0), the best network address (`network_addresses`); on one
    address, that address; on a loopback address, none (this computer only)."""
    local = student_url("127.0.0.1", port)
    host = (host or "").strip()
    if host in ANY_HOST:
        found = network_addresses(interfaces, up)
        if not found:
            return ClassAddress(None, local)
        return ClassAddress(student_url(found[0], port), local,
                            [student_url(a, port) for a in found[1:]])
    if host == "localhost" or _is_loopback(host):
        return ClassAddress(None, local, local_only=True)
    return ClassAddress(student_url(host, port), local)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def qr_svg(url: str, title: str = "") -> str:
    """A QR code of `url` as an inline SVG: black on a white ground drawn in the SVG itself (a
    forced dark mode leaves it readable), a viewBox and no fixed size (it scales to the width
    the page gives it), and a title read by screen readers."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=10, border=4, dark="#000000",
                                    light="#ffffff", xmldecl=False, svgns=True,
                                    title=title or url, svgclass="icg-qr", lineclass=None,
                                    omitsize=True)
    return out.getvalue().decode("utf-8")


def key_note(words: Mapping[str, str]) -> str:
    """Where the teacher's key is, for the projector (never the key itself, nor a path on the
    server: every device in the room reads this page; the terminal's banner has the path)."""
    from widgets.page import teacher_key as tk

    if os.environ.get(tk.KEY_ENV, "").strip():
        return words["key_env"].format(env=tk.KEY_ENV)
    if tk.teacher_key() is None:
        return words["key_none"].format(env=tk.KEY_ENV)
    return words["key_file"].format(where=tk.key_file().name)


def projector_html(where: ClassAddress, lang: str = "en") -> str:
    """The projector page: the address, its QR code and where the teacher's key is."""
    from widgets.words.page import projector_words

    w = projector_words(lang)
    e = html.escape
    if where.url:
        body = (f'<p class="say">{e(w["type"])}</p><p class="address">{e(where.url)}</p>'
                f'<p class="say">{e(w["scan"])}</p>'
                f'<div class="qr">{qr_svg(where.url, w["qr"].format(address=where.url))}</div>'
                f'<p>{e(w["then"])}</p>')
        if where.others:
            body += f'<p class="small">{e(w["others"].format(others=", ".join(where.others)))}</p>'
        body += f'<p class="small">{e(w["apart"])}</p>'
        refresh = ""
    else:
        said = w["loopback" if where.local_only else "none"].format(local=where.local)
        body = f'<p class="none" role="alert">{e(said)}</p>'
        refresh = "" if where.local_only else '<meta http-equiv="refresh" content="15">'
    return (f'<!DOCTYPE html><html lang="{e(w["lang"])}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">{refresh}'
            f'<link rel="icon" href="data:,"><title>{e(w["title"])}</title><style>'
            f"{projector_css(len(where.url or ''))}</style></head><body><main>"
            f'<h1>{e(w["title"])}</h1>{body}</main><footer><p>{e(key_note(w))}</p></footer>'
            "</body></html>")


# Monospace characters are 0.6 em wide (DejaVu Sans Mono, Liberation Mono): an address of n
# characters at font size f takes 0.6 * n * f; 0.64 leaves room for a wider font.
MONO_WIDTH = 0.64


def projector_css(address_chars: int) -> str:
    """The projector page's style: the address on one line, as large as the width allows (at
    most 4.2 rem), and the QR code as large as the height left under it allows, so that both
    are on the first screen of a 1024x768, 1280x720 or 1920x1080 projector."""
    n = max(address_chars, 10)
    address_size = f"min(4.2rem, calc((min(100vw, 60rem) - 2.5rem) / {MONO_WIDTH * n:.2f}))"
    return ("body{font-family:sans-serif;margin:0 auto;max-width:60rem;padding:0 1rem;"
            "background:#fff;color:#000;text-align:center;font-size:1.6rem;line-height:1.4}"
            "h1{font-size:2rem;margin:.6rem 0 .3rem;line-height:1.2}.say{margin:.3rem 0}"
            f".address{{font-size:{address_size};font-weight:bold;margin:.2rem 0;"
            "white-space:nowrap;line-height:1.15;font-family:monospace}"
            ".qr svg{display:block;margin:.3rem auto;width:max(12rem,min(60vh,90vw,"
            "calc(100vh - 16rem)));height:auto}.small{font-size:1.1rem}.none{font-size:2rem}"
            "footer{margin-top:2rem;font-size:1.1rem;border-top:2px solid #000;"
            "padding-top:1rem}")


class ProjectorHandler(tornado.web.RequestHandler):
    """GET /class: the projector page, with the address as it is now."""

    def initialize(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    def get(self) -> None:
        from widgets.words.page import page_language, request_language

        lang = self.get_argument("lang", "") or request_language(
            "", self.request.headers.get("Accept-Language", ""))
        interfaces, up = system_interfaces()
        page = projector_html(class_address(self.host, self.port, interfaces, up),
                              page_language(lang))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", CSP)
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.finish(page)


def banner(where: ClassAddress, projector: str) -> str:
    """What `make class` prints once the server listens."""
    lines = [""]
    if where.url:
        lines.append(f"Students type this address:  {where.url}")
        if where.others:
            lines.append(f"  (if it does not open, another address of this computer: "
                         f"{', '.join(where.others)})")
    elif where.local_only:
        lines.append(f"The lessons are served to this computer only ({where.local}): run "
                     "make class without HOST=127.0.0.1 to let the students' devices in.")
    else:
        lines.append("This computer has no network address that other devices can reach, so "
                     f"only this computer can open the lessons ({where.local}).")
        lines.append("Connect it to the school network (Wi-Fi or cable); the projector page "
                     "then shows the address (reload it).")
    lines.append(f"Projector page (the address in large print and its QR code):  {projector}")
    lines.append(f"Teacher's key: {key_place()}; type it on the Teacher guide or Class view "
                 "page, never project it.")
    lines.append("When the school Wi-Fi keeps devices apart: docs/deploy.md, \"When the Wi-Fi "
                 "keeps devices apart\".")
    return "\n".join(lines) + "\n"


def key_place() -> str:
    """Where the teacher's key is, for the terminal (never the key itself)."""
    from widgets.page import teacher_key as tk

    if os.environ.get(tk.KEY_ENV, "").strip():
        return f"the one in {tk.KEY_ENV}"
    if tk.teacher_key() is None:
        return f"none is set, so the teacher's parts stay locked (set {tk.KEY_ENV})"
    return f"printed above, kept in {tk.key_file()}"


# Log lines a teacher cannot act on, left out of `make class`'s terminal so that the address
# stays in sight: Voila warns that each notebook "is not trusted" (the lessons are served as the
# project ships them, never trusted by hand), and says every kernel started, shut down or
# preheated (one line a student's page, and one a preheated lesson).
QUIET = ("is not trusted", "Kernel started:", "Kernel shutdown:", "Kernel pool of ",
         "Culling kernels with idle durations")
# How often the server looks whether its preheated kernels are all up, and for how long.
READY_POLL_S = 0.5
READY_WAIT_S = 600.0


class QuietFilter(logging.Filter):
    """Drops the log records of QUIET (warnings and errors of any other kind pass)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        message = record.getMessage()
        return not any(q in message for q in QUIET)


def ready_banner(where: ClassAddress, started: int) -> str:
    """What `make class` prints again once every preheated kernel is up."""
    lines = ["", f"Ready: the class can come in ({started} lesson kernel(s) started ahead)."]
    if where.url:
        lines.append(f"Students type this address:  {where.url}")
    else:
        lines.append(f"Only this computer can open the lessons ({where.local}).")
    lines.append(f"Teacher's key: {key_place()}.")
    return "\n".join(lines) + "\n"


class ClassVoila(Voila):
    """Voila with the projector page, printing the students' address once it listens, and
    again once its preheated kernels are up, with the log lines of QUIET left out and the log
    bounded in size (serving/log_cap.py)."""

    log_file = Unicode("", config=True, help=(
        "Write the server's log to this file, rotated (log_files files of log_file_mb MB), "
        "instead of the terminal."))
    log_file_mb = Float(log_cap.LOG_FILE_BYTES / 2**20, config=True,
                        help="Size of each log file, in MB (2**20 bytes).")
    log_files = Int(log_cap.LOG_FILES, config=True,
                    help="Log files kept: the one written and the older ones.")
    log_lines_per_kind = Int(log_cap.PER_KIND, config=True, help=(
        "Log lines of one kind (logger, level, message template) written each window; the "
        "rest are counted in one line at the window's end."))
    log_lines_per_window = Int(log_cap.PER_MINUTE, config=True,
                               help="Log lines of all kinds written each window.")
    log_window_s = Float(log_cap.WINDOW_S, config=True,
                         help="The window of the log's caps, in seconds.")
    log_line_chars = Int(log_cap.MAX_RECORD_CHARS, config=True,
                         help="Characters of one log line (its traceback included).")

    def init_handlers(self) -> list:
        from jupyter_server.utils import url_path_join

        handlers = super().init_handlers()
        route = url_path_join(self.server_url or self.base_url or "/", PROJECTOR_PATH)
        handlers.insert(0, (route, ProjectorHandler, {"host": self.ip, "port": self.port}))
        return handlers

    def start(self) -> None:
        quiet = QuietFilter()
        self.log.addFilter(quiet)
        for handler in self.log.handlers:
            handler.addFilter(quiet)
        self._bound_log()
        tornado.ioloop.IOLoop.current().add_callback(self._announce)
        super().start()

    def _bound_log(self) -> None:
        """Every log line through a `log_cap.LogCap`, to the terminal or to a rotating file;
        a timer writes the summary of a window that ended with no line after it."""
        cap = log_cap.LogCap(per_kind=self.log_lines_per_kind,
                             per_minute=self.log_lines_per_window, window=self.log_window_s,
                             max_chars=self.log_line_chars)
        target = None
        if self.log_file:
            target = log_cap.rotating_file(self.log_file, int(self.log_file_mb * 2**20),
                                           self.log_files)
            print(f"The server's log is written to {self.log_file} (at most {self.log_files} "
                  f"files of {self.log_file_mb:g} MB).", flush=True)
        for handler in log_cap.bound_logs(self.log, cap, target):
            handler.addFilter(QuietFilter())
        self._log_timer = tornado.ioloop.PeriodicCallback(
            lambda: log_cap.write(cap.flush()), 1000 * min(self.log_window_s, 10.0))
        self._log_timer.start()

    def _where(self) -> ClassAddress:
        interfaces, up = system_interfaces()
        return class_address(self.ip, self.port, interfaces, up)

    def _announce(self) -> None:
        where = self._where()
        projector = where.local + (self.base_url or "/").rstrip("/") + PROJECTOR_PATH
        print(banner(where, projector), flush=True)
        self._ready_deadline = time.monotonic() + READY_WAIT_S
        tornado.ioloop.IOLoop.current().call_later(READY_POLL_S, self._announce_when_ready)

    def _preheating(self) -> tuple[int, int]:
        """The preheated kernels started and the ones still starting (Voila's pools)."""
        pools = getattr(getattr(self, "kernel_manager", None), "_pools", {}) or {}
        tasks = [t for pool in pools.values() for t in pool if hasattr(t, "done")]
        done = sum(1 for t in tasks if t.done())
        return done, len(tasks) - done

    def _announce_when_ready(self) -> None:
        started, starting = self._preheating()
        if starting and time.monotonic() < self._ready_deadline:
            tornado.ioloop.IOLoop.current().call_later(READY_POLL_S, self._announce_when_ready)
            return
        print(ready_banner(self._where(), started), flush=True)


def main(argv: list[str] | None = None) -> Any:
    return ClassVoila.launch_instance(argv)


if __name__ == "__main__":
    sys.exit(main())
