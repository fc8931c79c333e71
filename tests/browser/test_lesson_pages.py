"""Every lesson page, in English (lessons/) and in Spanish (lessons/es/), opened once in a real
browser and checked for everything a page must be (`check_lesson_page`: the Spanish guide, kit,
practice, class view and play-together pages here, the Spanish lessons on test_spanish.py's
journey through them, the English pages on test_devices.py's one visit of each page, before its
device sizes):

- it loads cleanly: its widgets visible and live (a kernel websocket), no console error, no
  page error, no request leaving the machine, no error text in the page;
- under the Content-Security-Policy (voila.json): scripts from the server only (script-src
  'self', plus the hash of the one fixed inline script Voila's handler may send on a slow
  cell), no plugins (object-src 'none'), no <base> from elsewhere, connections to the server
  only (tests/page_policy.py), and no inline script or event handler in the page's HTML.
  Every `securitypolicyviolation` event and CSP console message is collected from the first
  script on: there must be none. A positive control shows the policy is enforced: an
  inline script and an inline event handler added to the page do not run and are reported;
- accessible: axe-core (the copy bundled by axe-playwright-python, run offline, no rule
  excluded) finds no violation of impact "serious" or "critical" (its button-name and label
  rules: every control has a name; color-contrast: 4.5:1 for normal text), and every card face
  shows its signed value as text, never by colour alone;
- its widgets drawn however late the kernel's widgets arrive: ipywidgets' manager, asked for a
  widget the page does not have yet, looks every 100 ms for 2 s, but not again after its last
  sleep; a widget that arrives during that sleep on a busy device was "Error displaying widget:
  model not found" for good (seen on a loaded CI machine). The classroom's labextension
  (share/jupyter/voila/labextensions/icg-widget-restore) looks once more: checked on lesson 1's
  page by replaying that timing with a clock the test moves;
- in its language: <html lang> and the scripts' words block say "es" on a Spanish page;
- no answer for the teacher only: none of the answer-key strings is in the page's HTML, DOM,
  widget state or websocket frames (the teacher guide is searched, locked and unlocked, in
  test_answers_for_the_teacher.py).

The tree pages and the tables mid-game are in test_a11y.py, the landing page and links in
test_pages.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from page_policy import check_policy
from test_a11y import axe_check, sign_problems
from test_answers_for_the_teacher import answer_key_strings_on

from widgets.lessons import course

LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
# The Spanish pages (lessons/es/: ids "es-03_hit_me") a student does not reach by the lessons'
# links: those (the start page and every student lesson) are checked on the way by
# test_spanish.py's journey, the English pages (lessons/) by test_devices.py, on its one visit
# of each page.
JOURNEY = {"00_start_here.ipynb", *(lesson.file for lesson in course.student_lessons("es"))}
SPANISH = sorted(p for p in LESSONS_DIR.glob("es/*.ipynb") if p.name not in JOURNEY)
IDS = ["-".join(p.relative_to(LESSONS_DIR).with_suffix("").parts) for p in SPANISH]
# Errors raised a moment after the widgets appear (a failing callback, a late script) count.
SETTLE_MS = 1500

RECORD_VIOLATIONS = """
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


# The manager asked for a widget it does not have: it looks and sleeps; the widget arrives
# during a sleep, and the clock says the 2 s are over when the manager wakes.
_LATE_WIDGET = """async () => {
  const manager = window.jupyterapp && window.jupyterapp.widgetManager;
  if (!manager) return 'no widget manager';
  const id = 'icg-late-widget';
  const clock = Date.now;
  let now = clock.call(Date);
  Date.now = () => now;
  try {
    const asked = manager.get_model(id).then(() => 'drawn', e => 'error: ' + e.message);
    await new Promise(resolve => setTimeout(resolve, 250));
    manager._models[id] = Promise.resolve({});
    now += 5000;
    return await asked;
  } finally {
    Date.now = clock;
    delete manager._models[id];
  }
}"""


def open_lesson_page(vp: Any, lessons_server: Any, notebook: Path, *,
                     expect_widgets: bool = False) -> float:
    """Open a lesson page in `vp` (a fresh context), recording every CSP violation from the
    first script on; the seconds it took to load."""
    vp.context.add_init_script(RECORD_VIOLATIONS)
    # open() waits until every widget view the executed notebook displays is rendered.
    return vp.open(lessons_server.page_url(notebook.relative_to(LESSONS_DIR).as_posix()),
                   expect_widgets=expect_widgets)


def check_lesson_page(vp: Any, notebook: Path, bt: Any, seconds: float) -> None:
    """Everything a lesson page must be (the module's text), on the page `open_lesson_page`
    loaded, but the policy's positive control (`check_policy_in_force`, done last)."""
    name = notebook.relative_to(LESSONS_DIR).as_posix()
    ident = "-".join(notebook.relative_to(LESSONS_DIR).with_suffix("").parts)
    vp.page.wait_for_timeout(SETTLE_MS)
    vp.screenshot(f"lesson-{ident}")

    # Loads cleanly, widgets visible and live.
    assert vp.problems() == [], f"{name} (loaded in {seconds:.1f} s)"
    # Some content was rendered (sources are stripped, so outputs and Markdown only).
    assert vp.page.locator(".jp-Cell").count() > 0
    wanted = vp.widget_outputs()
    if bt.notebook_has_widgets(notebook):
        assert wanted > 0, f"{name} imports widgets but displays none"
    if wanted:
        assert vp.rendered_widgets() >= wanted, f"{name}: a widget is not visible"
        assert vp.kernel_id(), f"{name}: no kernel websocket"

    # Its language: the page's, and its scripts' words (a JSON data block the policy does not
    # need to allow: it is not run).
    lang = "es" if notebook.parent.name == "es" else "en"
    assert vp.page.evaluate("() => document.documentElement.lang") == lang
    block = vp.page.evaluate(
        "() => JSON.parse(document.getElementById('classroom-words').textContent).lang")
    assert block == lang

    # A Spanish page links Spanish pages only (or the credited site).
    if lang == "es":
        hrefs = vp.page.eval_on_selector_all(
            "a[href]", "els => els.map(e => e.getAttribute('href'))")
        assert [h for h in hrefs if re.match(r"^/voila/render/(?!es/)", h)] == []

    # No answer meant for the teacher only.
    if notebook.name != "teacher_guide.ipynb":
        assert answer_key_strings_on(vp, notebook.name, lang) == []

    # No CSP violation while it loaded and ran.
    html = vp.raw_html()
    assert "</html>" in html, f"{name}: the page's HTML was not kept"
    check_policy(vp.documents[-1].headers.get("content-security-policy", ""), html, name)
    violations = vp.page.evaluate("() => window.__cspViolations")
    assert violations == [], violations
    assert [e for e in vp.console_errors if "Content Security Policy" in e] == []

    # Accessible, every card's sign written.
    axe_check(vp, bt, name)
    assert sign_problems(vp) == []

    # A widget that arrives late is drawn (lesson 1's page; the others load the same script).
    if name == "01_integers_with_cards.ipynb":
        assert vp.page.evaluate(_LATE_WIDGET) == "drawn"


def check_policy_in_force(vp: Any) -> None:
    """The positive control, the last thing done on a page (it adds a script and an image
    to it, and their refusals are console errors): the policy is in force on this page."""
    control = vp.page.evaluate(_CONTROL)
    assert control["ran"] is False, "an inline script ran despite the CSP"
    assert any(v.startswith("script-src") for v in control["reported"]), control


@pytest.mark.parametrize("notebook", SPANISH, ids=IDS)
def test_lesson_page(notebook: Path, lessons_server: Any, open_page: Any, bt: Any) -> None:
    """A Spanish page the lessons' links do not lead to (see SPANISH)."""
    vp = open_page("-".join(notebook.relative_to(LESSONS_DIR).with_suffix("").parts))
    check_lesson_page(vp, notebook, bt, open_lesson_page(vp, lessons_server, notebook))
    check_policy_in_force(vp)
