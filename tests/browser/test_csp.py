"""The Content-Security-Policy (voila.json) in Chromium: every lesson renders with no violation.

The policy allows scripts from the server only (script-src 'self', plus the hash of the one
fixed inline script Voila's handler may send on a slow cell), no plugins (object-src 'none'),
no <base> from elsewhere, connections to the server only. Each lesson page is opened, its
widgets rendered, and every `securitypolicyviolation` event and CSP console message collected:
there must be none. A positive control per page shows the policy is enforced: an inline script
and an inline event handler added to the page do not run and are reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
# Every lesson in English (lessons/) and in Spanish (lessons/es/: ids "es-03_hit_me").
LESSONS = sorted(LESSONS_DIR.glob("*.ipynb")) + sorted(LESSONS_DIR.glob("es/*.ipynb"))
IDS = ["-".join(p.relative_to(LESSONS_DIR).with_suffix("").parts) for p in LESSONS]

# Recorded from the first script on: every CSP violation event of the page.
_RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__cspViolations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') +
                              ' (' + (e.sourceFile || '') + ':' + (e.lineNumber || 0) + ')');
});
"""

_CONTROL = """() => new Promise(resolve => {
  window.__cspInlineRan = false;
  const before = window.__cspViolations.length;
  const s = document.createElement('script');
  s.textContent = 'window.__cspInlineRan = true;';
  document.body.appendChild(s);
  const img = document.createElement('img');
  img.setAttribute('onerror', 'window.__cspInlineRan = true;');
  img.src = 'data:,not-an-image';
  document.body.appendChild(img);
  setTimeout(() => resolve({ran: window.__cspInlineRan,
                            reported: window.__cspViolations.slice(before)}), 1000);
})"""


@pytest.mark.parametrize("notebook", LESSONS, ids=IDS)
def test_lesson_renders_under_the_csp_with_no_violation(
    lessons_server: Any, open_page: Any, notebook: Path
) -> None:
    name = notebook.relative_to(LESSONS_DIR).as_posix()
    page = open_page("csp-" + "-".join(notebook.relative_to(LESSONS_DIR).with_suffix("").parts))
    page.context.add_init_script(_RECORD_VIOLATIONS)
    page.open(lessons_server.page_url(name), expect_widgets=False)
    # the page's language (lessons/es: Spanish) and its scripts' words, a JSON data block the
    # policy does not need to allow (it is not run)
    lang = "es" if notebook.parent.name == "es" else "en"
    assert page.page.evaluate("() => document.documentElement.lang") == lang
    block = page.page.evaluate(
        "() => JSON.parse(document.getElementById('classroom-words').textContent).lang")
    assert block == lang
    page.page.wait_for_timeout(1500)  # late scripts (widget views, MathJax) have run
    csp = page.documents[-1].headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "object-src 'none'" in csp, csp
    violations = page.page.evaluate("() => window.__cspViolations")
    console = [e for e in page.console_errors if "Content Security Policy" in e]
    assert violations == [], violations
    assert console == [], console
    assert page.problems() == [], page.problems()
    assert page.rendered_widgets() >= page.widget_outputs()

    # Positive control: the policy is in force on this page.
    control = page.page.evaluate(_CONTROL)
    assert control["ran"] is False, "an inline script ran despite the CSP"
    assert any(v.startswith("script-src") for v in control["reported"]), control
