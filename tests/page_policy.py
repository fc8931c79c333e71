"""The Content-Security-Policy every lesson page is served with (voila.json), and the page's
own HTML holding no inline script that policy would have to allow.

`check_policy(csp, html, name)` is asserted on one page over plain HTTP
(tests/test_security_http.py) and on every lesson page, English and Spanish, where the browser
tier loads it (tests/browser/test_lesson_pages.py's `check_lesson_page`, which also checks
that the browser enforces the policy).
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path


class _Scripts(HTMLParser):
    """Inline scripts a browser would run (not JSON data blocks), and inline event handlers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self._open: dict | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attrs = dict(attrs)
        self.handlers += [f"{tag} {k}" for k in attrs if k.startswith("on")]
        if tag == "script" and "src" not in attrs and attrs.get("type", "text/javascript") in (
            "", "text/javascript", "module", "application/javascript"
        ):
            self._open = {"text": ""}

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._open is not None:
            self.inline.append(self._open["text"])
            self._open = None


def directives(csp: str) -> dict[str, list[str]]:
    out = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@cache
def heartbeat() -> str:
    """Voila's heartbeat, the one inline script a page may hold: sent on a cell slower than
    http_keep_alive_timeout (voila/handler.py; the strategy lab's charts when they are not drawn
    yet). Read from the Voila that serves the pages, so that its hash in script-src is checked
    against what this Voila sends."""
    import voila.handler

    source = Path(voila.handler.__file__).read_text()
    (script,) = re.findall(r'"<script>(.*?)</script>\\n"', source)
    return script


def check_policy(csp: str, html: str, name: str) -> None:
    """script-src 'self' and the heartbeat's hash only (no 'unsafe-inline', no 'unsafe-eval'),
    object-src 'none', base-uri 'self', connect-src 'self', frame-ancestors 'self'; and the
    page's HTML has no inline script but the heartbeat and no inline event handler."""
    digest = base64.b64encode(hashlib.sha256(heartbeat().encode()).digest()).decode()
    policy = directives(csp)
    assert policy.get("script-src", [""])[0] == "'self'", (name, policy)
    assert not {"'unsafe-inline'", "'unsafe-eval'", "*", "data:", "blob:"} & set(
        policy["script-src"]), (name, policy)
    assert policy.get("object-src") == ["'none'"], (name, policy)
    assert policy.get("base-uri") == ["'self'"], (name, policy)
    assert policy.get("connect-src") == ["'self'"], (name, policy)
    assert policy.get("frame-ancestors") == ["'self'"], (name, policy)
    assert policy["script-src"][1:] == [f"'sha256-{digest}'"], (name, policy)
    scripts = _Scripts()
    scripts.feed(html)
    others = [s for s in scripts.inline if s != heartbeat()]
    assert others == [], (name, [s.strip()[:80] for s in others])
    assert scripts.handlers == [], (name, scripts.handlers)
