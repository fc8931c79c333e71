"""The lessons on the devices a school has: a Chromebook (1366x768 less the browser's
bars: 1366x657), an iPad both ways (768x1024, 1024x768), a phone (390x844), a projector
(1280x720) and 200% zoom (a 1366x657 window at 200%: 683x328 CSS px, device scale 2).

For every lesson page, at every size: nothing scrolls sideways or is cut off, every visible
control is at least 24x24 px (WCAG 2.5.8) and on a phone every control of a table or a
lesson's widget 44x44 px, every text box's text is 16 px or more (Safari zooms in on a smaller
one), no visible text is under 12 px (the computed font size
times the scale of any SVG it is drawn in). A full-page screenshot of each goes to
tests/artifacts/devices-<lesson>-<device>.png for a person to look at.

Each lesson page is loaded once for all of that (the `visited` fixture); the card tables (lessons
03 and 05) are reported on their own (test_table_*), from the same visit, with their first
screen on a Chromebook. Then the number line's text under Chromium's forced dark mode and under
emulated `forced-colors: active`: a contrast of at least 4.5:1, measured in pixels.
"""

from __future__ import annotations

import io
import re
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import KEY, unlock_teacher
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from test_keyboard import _ACTIVE_JS, press_card, tab_to

from widgets.words import card_name

LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
LESSONS = sorted(LESSONS_DIR.glob("*.ipynb"))
DEVICES = {  # name: (width, height, device scale)
    "chromebook": (1366, 657, 1),
    "ipad-portrait": (768, 1024, 1),
    "ipad-landscape": (1024, 768, 1),
    "phone": (390, 844, 1),
    "projector": (1280, 720, 1),
    "zoom200": (683, 328, 2),  # a 1366x657 window at 200% zoom
}
SETTLE_MS = 400
MIN_TARGET = 24  # px, WCAG 2.5.8
# The sizes measured as touch screens: every control of a table or a lesson's widget at least
# 44 x 44 px (style.css: a touch screen or a window 600 px wide or less).
TOUCH = {"phone"}
MIN_TEXT = 12  # px
MIN_CONTRAST = 4.5

# Everything a page shows, sorted by where it is: 'page' (the lesson's own text and widgets),
# 'hitme' or 'flapjack' (inside a card table). Each problem: where, kind, what, number.
AUDIT_JS = """(touch) => {
  // a layout is measured at rest: a "Flapjack!" banner flips in (scaled up to 1.08 for part of
  // a second), and the computer players keep playing while the page is measured
  for (const a of document.getAnimations()) a.finish();
  const W = document.documentElement.clientWidth;
  const out = [];
  const where = el => {
    const root = el.closest && el.closest('.icg-root');
    if (!root) return 'page';
    if (root.classList.contains('icg-flapjack')) return 'flapjack';
    if (root.classList.contains('widget-box') && root.querySelector('.icg-seats'))
      return 'hitme';
    return 'page';
  };
  const name = el => {
    const t = (el.getAttribute && (el.getAttribute('aria-label') || el.getAttribute('title')))
      || (el.innerText || el.textContent || '');
    return (el.tagName || '').toLowerCase() + ' ' + JSON.stringify(t.trim().slice(0, 40));
  };
  const shown = el => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true,
        checkVisibilityCSS: true})) return false;
    const cs = getComputedStyle(el);
    // visually hidden helpers (clip to a 1 px box) are for screen readers only
    if (cs.clip === 'rect(0px, 0px, 0px, 0px)' || cs.clipPath === 'inset(50%)') return false;
    return true;
  };
  const se = document.scrollingElement;
  if (se.scrollWidth > se.clientWidth + 1)
    out.push({where: 'page', kind: 'hscroll', what: 'the page', n: se.scrollWidth - W});
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el)) continue;
    const cs = getComputedStyle(el);
    const ox = cs.overflowX;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      if (ox === 'auto' || ox === 'scroll')
        out.push({where: where(el), kind: 'hscroll', what: name(el),
                  n: el.scrollWidth - el.clientWidth});
      else if ((ox === 'hidden' || ox === 'clip') && (el.innerText || '').trim()
               && !el.closest('svg'))
        out.push({where: where(el), kind: 'cut', what: name(el),
                  n: el.scrollWidth - el.clientWidth});
    }
    const r = el.getBoundingClientRect();
    if ((r.right > W + 1 || r.left < -1) && !el.closest('[style*="overflow"]')
        && (el.innerText || '').trim())
      out.push({where: where(el), kind: 'cut', what: name(el) + ' off the side',
                n: Math.round(Math.max(r.right - W, -r.left))});
  }
  const controls = 'button, input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], [role=checkbox], [role=radio], [role=tab], [role=slider], '
    + '.icg-nav a, .icg-lesson-list a, .classroom-lessons a';
  for (let el of document.querySelectorAll(controls)) {
    if (!shown(el)) continue;
    // a check box inside its label: the label is what a finger taps
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label'))
      el = el.closest('label');
    const r = el.getBoundingClientRect();
    if (r.width < 24 - 0.5 || r.height < 24 - 0.5)
      out.push({where: where(el), kind: 'small-control', what: name(el),
                n: Math.round(Math.min(r.width, r.height) * 10) / 10});
    // on a phone every control of a table or a lesson's widget is a finger's target
    else if (touch && el.closest('.icg-root') && (r.width < 44 - 0.5 || r.height < 44 - 0.5))
      out.push({where: where(el), kind: 'small-touch-target', what: name(el),
                n: Math.round(Math.min(r.width, r.height) * 10) / 10});
    // a box with text under 16 px makes Safari zoom the page in when it takes the focus
    if (el.matches('input:not([type=checkbox]):not([type=radio]):not([type=range]), select, '
                   + 'textarea') && parseFloat(getComputedStyle(el).fontSize) < 16 - 0.05)
      out.push({where: where(el), kind: 'small-input-text', what: name(el),
                n: parseFloat(getComputedStyle(el).fontSize)});
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (!el || seen.has(el) || !t.textContent.trim()) continue;
    seen.add(el);
    if (el.closest('style, script, title, noscript')) continue;
    if (!shown(el)) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM) {
      const m = el.getScreenCTM();
      px *= Math.hypot(m.a, m.b);
    }
    if (px < 12 - 0.05)
      out.push({where: where(el), kind: 'small-text', what: name(el),
                n: Math.round(px * 10) / 10});
  }
  return out;
}"""


def _context(browser: Any, device: str) -> Any:
    w, h, scale = DEVICES[device]
    return browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=scale)


def _audit_every_device(vp: Any, stem: str) -> dict[str, list[dict]]:
    """Resize the loaded page through every device; audit and screenshot each."""
    found = {}
    for device, (w, h, _scale) in DEVICES.items():
        vp.page.set_viewport_size({"width": w, "height": h})
        vp.page.wait_for_timeout(SETTLE_MS)
        found[device] = vp.page.evaluate(AUDIT_JS, device in TOUCH)
        vp.screenshot(f"devices-{stem}-{device}")
    return found


# A worked example's texts under 24 px, and how far it reaches past the window's right edge.
EXAMPLE_LARGE_JS = """() => { const out = []; let past = 0;
  for (const root of document.querySelectorAll('.icg-example')) {
    past = Math.max(past, root.getBoundingClientRect().right
                          - document.documentElement.clientWidth);
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = w.nextNode(); t; t = w.nextNode()) { const el = t.parentElement;
      if (!t.textContent.trim() || el.closest('svg, style') || !el.checkVisibility()) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < 24 - 0.05) out.push([el.className || el.tagName,
                                    t.textContent.trim().slice(0, 30), px]); } }
  return {small: out, past}; }"""


def _example_in_large_print(vp: Any, stem: str) -> dict | None:
    """A page's worked example at the projector's size with its "Large print" ticked (by
    keyboard: Space on the focused checkbox): its small texts and overflow; None without one."""
    switches = vp.page.locator(".icg-example .icg-lp-switch input")
    if switches.count() == 0:
        return None
    w, h, _scale = DEVICES["projector"]
    vp.page.set_viewport_size({"width": w, "height": h})
    for i in range(switches.count()):
        switches.nth(i).focus()
        vp.page.keyboard.press("Space")
    checked = switches.evaluate_all("els => els.every(e => e.checked)")
    vp.page.locator(".icg-example").first.scroll_into_view_if_needed()
    vp.page.wait_for_timeout(SETTLE_MS)
    vp.screenshot(f"devices-{stem}-example-large-print")
    return {"checked": checked, **vp.page.evaluate(EXAMPLE_LARGE_JS)}


def _report(found: dict[str, list[dict]], keep: Any) -> list[str]:
    return [f"{device}: {p['where']} {p['kind']} {p['what']} ({p['n']})"
            for device, problems in found.items() for p in problems if keep(p)]


@pytest.fixture(scope="module")
def visited(lessons_server: Any, browser: Any, bt: Any) -> Any:
    """`visited(stem)`: the lesson page loaded once for every check made on it at rest (what
    every lesson page must be, test_lesson_pages.py's `check_lesson_page`; its own text and
    widgets, its card table, the table's first screen), then closed: at the Chromebook's size
    first (a table's lesson: the first screen measured and shot, with the table's top at the
    top of the window), then resized through every device, audited and shot at each. Returns
    {"page": what check_lesson_page found wrong or None, "found": {device: problems},
    "first": the first screen or None, "problems": the page's console errors and error
    texts}."""
    from conftest import VoilaPage, close_context
    from test_lesson_pages import check_lesson_page, check_policy_in_force, open_lesson_page

    done: dict[str, dict] = {}

    def visit(stem: str) -> dict:
        if stem not in done:
            w, h, _ = DEVICES["chromebook"]
            ctx = browser.new_context(viewport={"width": w, "height": h})
            try:
                vp = VoilaPage(ctx, stem)
                table = TABLE_OF.get(stem)
                notebook = LESSONS_DIR / f"{stem}.ipynb"
                seconds = open_lesson_page(vp, lessons_server, notebook,
                                           expect_widgets=table is not None)
                page = None
                try:
                    check_lesson_page(vp, notebook, bt, seconds)
                except AssertionError as e:  # reported by test_lesson_page_is_all_it_must_be
                    page = f"{e}" or repr(e)
                first = None
                if table is not None:
                    vp.page.wait_for_timeout(SETTLE_MS)
                    first = vp.page.evaluate(FIRST_SCREEN_JS,
                                             [ROOT_JS[table], NEEDED_JS[table]])
                    vp.page.screenshot(path=str(_artifact(f"devices-first-screen-{table}")))
                found = _audit_every_device(vp, stem)
                done[stem] = {"page": page, "found": found, "first": first,
                              "problems": vp.problems(),
                              "example": _example_in_large_print(vp, stem)}
                if page is None:
                    try:
                        check_policy_in_force(vp)
                    except AssertionError as e:
                        done[stem]["page"] = f"{e}" or repr(e)
            finally:
                close_context(ctx)
        return done[stem]

    return visit


@pytest.mark.parametrize("notebook", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_page_is_all_it_must_be(notebook: Path, visited: Any) -> None:
    """test_lesson_pages.py's checks of a lesson page (clean, CSP, accessible, its language,
    no teacher's answer), on this visit of the English page."""
    assert visited(notebook.stem)["page"] is None, visited(notebook.stem)["page"]


@pytest.mark.parametrize("notebook", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_page_fits_every_device(notebook: Path, visited: Any) -> None:
    """The lesson's own text and widgets (the tables are reported on their own below)."""
    seen = visited(notebook.stem)
    problems = _report(seen["found"], lambda p: p["where"] == "page")
    assert not problems, "\n".join(problems)
    assert seen["problems"] == []


@pytest.mark.parametrize("stem", ["03_hit_me", "05_flapjack"])
def test_worked_example_in_large_print_on_a_projector(stem: str, visited: Any) -> None:
    """The worked example's "Large print", ticked from the keyboard on a projector: every text
    of its picture at least 24 px, and the picture within the window."""
    example = visited(stem)["example"]
    assert example is not None, "the page shows no worked example with a Large print switch"
    assert example["checked"] is True
    assert example["small"] == []
    assert example["past"] <= 0.5, example["past"]


def test_zoom_200_is_the_same_at_device_scale_2(lessons_server: Any, browser: Any) -> None:
    """200% zoom with a real device scale of 2 (not only a narrow window): lesson 01."""
    ctx = _context(browser, "zoom200")
    try:
        page = ctx.new_page()
        page.goto(lessons_server.page_url("01_integers_with_cards.ipynb"),
                  wait_until="domcontentloaded", timeout=120_000)
        page.locator(".icg-explorer").first.wait_for(state="visible", timeout=120_000)
        page.wait_for_timeout(SETTLE_MS)
        assert page.evaluate("() => window.devicePixelRatio") == 2
        problems = page.evaluate(AUDIT_JS, False)
        assert [p for p in problems if p["where"] == "page"] == [], problems
        page.screenshot(path=str(_artifact("devices-01-zoom200-dpr2")))
    finally:
        from conftest import close_context
        close_context(ctx)


def _artifact(name: str) -> Path:
    root = Path(__file__).resolve().parents[1] / "artifacts"
    root.mkdir(parents=True, exist_ok=True)
    return root / f"{name}.png"


# ----- the tables ------------------------------------------------------------------------
TABLES = {"hitme": "03_hit_me.ipynb", "flapjack": "05_flapjack.ipynb"}
TABLE_OF = {Path(nb).stem: table for table, nb in TABLES.items()}


def _table_params() -> list[Any]:
    return [pytest.param(table, kind, id=f"{table}-{kind}") for table in TABLES
            for kind in ("hscroll", "cut", "small-control", "small-text", "small-touch-target",
                         "small-input-text")]


@pytest.mark.parametrize("table,kind", _table_params())
def test_table_fits_every_device(table: str, kind: str, visited: Any) -> None:
    """Each table, measured in its lesson's one visit at every size."""
    found = visited(Path(TABLES[table]).stem)["found"]
    problems = _report(found, lambda p: p["where"] == table and p["kind"] == kind)
    assert not problems, "\n".join(problems)


# ----- forced dark mode and forced colours --------------------------------------------------
# Every number-line text shown, with its box in CSS px.
NL_TEXT_JS = """() => [...document.querySelectorAll('svg.icg-nl text')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && t.closest('svg').checkVisibility();
  }).map(t => { const r = t.getBoundingClientRect();
    return {text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height}; })"""


def _luminance(rgb: tuple[int, ...]) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_contrast(png: bytes) -> float:
    """The contrast of a label in a screenshot of its box: the ground is the commonest colour,
    the text the pixel that differs most from it (the core of a stroke; edges are blended)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    colours = img.getcolors(img.width * img.height)
    ground = max(colours)[1]
    return max(contrast(ground, c) for _, c in colours)


def _number_line_contrasts(page: Any, height: int | None = None) -> list[tuple[str, float]]:
    """Each label's contrast (with `height`: only the labels inside a window that tall)."""
    out = []
    for t in page.evaluate(NL_TEXT_JS):
        if height is not None and not (0 <= t["y"] and t["y"] + t["h"] <= height):
            continue
        clip = {"x": t["x"] - 1, "y": t["y"] - 1, "width": t["w"] + 2, "height": t["h"] + 2}
        out.append((t["text"], round(text_contrast(page.screenshot(clip=clip)), 2)))
    return out


def _open_lesson_with_a_line(page: Any, server: Any) -> None:
    """Lesson 01 with three cards picked: the line has points, an arrow, numbers and a span."""
    page.goto(server.page_url("01_integers_with_cards.ipynb"), wait_until="domcontentloaded",
              timeout=120_000)
    page.locator(".icg-explorer").first.wait_for(state="visible", timeout=120_000)
    for name in ("add the seven of spades, value +7", "add the three of hearts, value -3",
                 "add the king of hearts, value -10"):
        page.get_by_title(name, exact=True).click()
    page.get_by_text("Sum: +7 + (-3) + (-10) = -6", exact=False).first.wait_for(timeout=30_000)
    page.wait_for_timeout(SETTLE_MS)


def test_number_line_readable_in_forced_dark_mode(lessons_server: Any, browser: Any) -> None:
    """Chromium's own forced dark mode (the setting a student can turn on): a browser started
    with WebContentsForceDark darkens the page; every label of the line keeps 4.5:1 in lesson
    01's explorer on a Chromebook and, the same page narrowed, on a phone; and on Hit Me's and
    Flapjack's tables on a Chromebook."""
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from PIL import Image

    dark = browser.browser_type.launch(
        executable_path=CHROMIUM, headless=True,
        args=[*CHROMIUM_ARGS, "--force-dark-mode", "--enable-features=WebContentsForceDark"])
    try:
        w, h, _ = DEVICES["chromebook"]
        page = dark.new_page(viewport={"width": w, "height": h})
        _open_lesson_with_a_line(page, lessons_server)
        for device in ("chromebook", "phone"):
            w, h, _ = DEVICES[device]
            if page.viewport_size != {"width": w, "height": h}:
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(SETTLE_MS)
            # the page is really dark: its body text is drawn light on dark
            body = page.screenshot(clip={"x": 0, "y": 0, "width": w, "height": 40})
            ground = max(Image.open(io.BytesIO(body)).convert("RGB").getcolors(w * 40))[1]
            assert _luminance(ground) < 0.2, f"{device}: forced dark mode is not on: {ground}"
            line = page.locator("svg.icg-nl:visible").first
            line.scroll_into_view_if_needed()
            line.screenshot(path=str(_artifact(f"devices-forced-dark-{device}")))
            found = _number_line_contrasts(page)
            assert len(found) >= 5, (device, found)
            low = [(text, c) for text, c in found if c < MIN_CONTRAST]
            assert not low, f"{device}: labels under {MIN_CONTRAST}:1 in forced dark mode: {low}"
        w, h, _ = DEVICES["chromebook"]
        page.set_viewport_size({"width": w, "height": h})
        # the games' lines too: seats, the total, axis numbers
        for game, notebook, least in (("hit-me", "03_hit_me.ipynb", 5),
                                      ("flapjack", "05_flapjack.ipynb", 3)):
            page.goto(lessons_server.page_url(notebook), wait_until="domcontentloaded",
                      timeout=120_000)
            line = page.locator(".icg-game svg.icg-nl:visible").first
            line.wait_for(state="visible", timeout=120_000)
            page.wait_for_timeout(SETTLE_MS)
            line.scroll_into_view_if_needed()
            line.screenshot(path=str(_artifact(f"devices-forced-dark-{game}")))
            found = [f for f in _number_line_contrasts(page, h) if f[0].strip()]
            assert len(found) >= least, (game, found)
            low = [(text, c) for text, c in found if c < MIN_CONTRAST]
            assert not low, f"{game}: labels under {MIN_CONTRAST}:1 in forced dark mode: {low}"
    finally:
        from conftest import close_context
        close_context(dark)


def test_number_line_readable_with_forced_colors(lessons_server: Any, open_page: Any) -> None:
    """`forced-colors: active` (Windows high contrast) with a dark and a light scheme, one
    after the other on the same page: the labels take the system colours; measured both from
    the computed colours and in pixels."""
    vp = open_page("forced-colors", viewport={"width": 1366, "height": 657})
    page = vp.page
    page.emulate_media(color_scheme="dark", forced_colors="active")
    _open_lesson_with_a_line(page, lessons_server)

    def rgb(css: str) -> tuple[int, ...]:
        return tuple(int(float(v)) for v in css[css.index("(") + 1:-1].split(",")[:3])

    grounds = {}
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme, forced_colors="active")
        page.wait_for_timeout(SETTLE_MS)
        styles = page.evaluate("""() => [...document.querySelectorAll('svg.icg-nl')]
          .filter(s => s.checkVisibility()).map(s => ({
            ground: getComputedStyle(s.querySelector('.icg-nl-bg')).fill,
            texts: [...s.querySelectorAll('text')].map(t => getComputedStyle(t).fill)}))""")
        assert styles, scheme
        grounds[scheme] = styles[0]["ground"]
        for svg in styles:
            for fill in svg["texts"]:
                assert contrast(rgb(fill), rgb(svg["ground"])) >= MIN_CONTRAST, (scheme, fill,
                                                                               svg)
        page.locator("svg.icg-nl:visible").first.screenshot(
            path=str(_artifact(f"devices-forced-colors-{scheme}")))
        found = _number_line_contrasts(page)
        assert len(found) >= 5, (scheme, found)
        low = [(text, c) for text, c in found if c < MIN_CONTRAST]
        assert not low, f"{scheme}: labels under {MIN_CONTRAST}:1 with forced colours: {low}"
    # the scheme really changed between the two measures: the line's ground with it
    assert _luminance(rgb(grounds["dark"])) < _luminance(rgb(grounds["light"])), grounds
    assert vp.problems() == []


# ----- the first screen of a table ------------------------------------------------------------
ROOT_JS = {"hitme": "() => [...document.querySelectorAll('.icg-root')].find(r =>"
                    " r.classList.contains('widget-box') && r.querySelector('.icg-seats')"
                    " && !r.classList.contains('icg-flapjack'))",
           "flapjack": "() => document.querySelector('.icg-root.icg-flapjack')"}
# What a student needs without scrolling: their hand and the buttons they press.
NEEDED_JS = {
    "hitme": """root => {
      const mine = [...root.querySelectorAll('.icg-seat')].find(s =>
        (s.querySelector('.icg-seat-name') || {}).textContent.trim().startsWith('You'));
      const buttons = [...root.querySelectorAll('button')].filter(b =>
        ['Hit me!', 'Hold'].includes(b.innerText.trim()) && b.offsetParent !== null);
      return [mine && mine.querySelector('.icg-hand'), ...buttons].filter(Boolean); }""",
    "flapjack": """root => [...root.querySelectorAll('.icg-card-btn')].filter(b =>
      b.offsetParent !== null)""",
}
FIRST_SCREEN_JS = """([rootJs, neededJs]) => {
  const root = eval(rootJs)();
  root.scrollIntoView({block: 'start'});
  const needed = eval(neededJs)(root);
  const top = root.getBoundingClientRect().top;
  return {top, height: innerHeight, found: needed.map(e => {
    const r = e.getBoundingClientRect();
    return {what: (e.innerText || e.getAttribute('aria-label') || '').trim().slice(0, 30),
            top: Math.round(r.top - top), bottom: Math.round(r.bottom - top)}; })};
}"""


@pytest.mark.parametrize("table", ["hitme", "flapjack"])
def test_table_hand_and_buttons_on_the_first_screen(table: str, visited: Any) -> None:
    """On a Chromebook (1366x657), with the table's top at the top of the window, the
    student's hand and the buttons to press are all on screen (measured in the lesson's one
    visit, before it is resized)."""
    seen = visited(Path(TABLES[table]).stem)["first"]
    assert seen["found"], "no hand or button found"
    below = [f for f in seen["found"] if f["bottom"] > seen["height"] - max(seen["top"], 0)]
    assert not below, f"below the first screen ({seen['height']} px): {below}"


def test_walkthrough_controls_stay_in_view_on_a_projector(keyed_server: Any,
                                                          open_page: Any) -> None:
    """The teacher guide's walkthrough at 1280x720: with the table's top at the top of the
    screen, "Next move" and "Show every hand" are on screen, and stay there (no scrolling)
    while the teacher steps through three moves."""
    w, h, _ = DEVICES["projector"]
    vp = open_page("walkthrough-projector", viewport={"width": w, "height": h})
    vp.open(keyed_server.page_url("teacher_guide.ipynb"))
    page = vp.page
    unlock_teacher(vp, KEY)
    step = page.get_by_role("button", name="Next move")
    step.wait_for(timeout=30_000)
    page.evaluate(f"() => ({ROOT_JS['hitme']})().scrollIntoView({{block: 'start'}})")
    page.wait_for_timeout(SETTLE_MS)
    page.screenshot(path=str(_artifact("devices-walkthrough-projector")))

    def on_screen(name: str) -> bool:
        r = page.get_by_role("button", name=name).bounding_box()
        return r is not None and 0 <= r["y"] and r["y"] + r["height"] <= h

    def reason_on_screen() -> bool:
        # The reason line is redrawn after each move: wait for the new one, then measure it
        # until it has settled (a CI run measured it mid-redraw, then found it on screen).
        reason = page.locator(".icg-last-reason")
        deadline = time.monotonic() + 10
        while True:
            reason.wait_for(state="visible", timeout=10_000)
            r = reason.bounding_box()
            if r is not None and 0 <= r["y"] and r["y"] + r["height"] <= h:
                return True
            if time.monotonic() > deadline:
                return False
            page.wait_for_timeout(250)

    for _ in range(3):
        assert on_screen("Next move") and on_screen("Show every hand"), \
            page.get_by_role("button", name="Next move").bounding_box()
        assert reason_on_screen(), page.locator(".icg-last-reason").bounding_box()
        if step.is_disabled():
            break
        try:  # a click, not a scroll: Playwright would scroll. The button may turn disabled
            # between the check above and the click (the student's turn came): then stop.
            step.click(no_wait_after=True, timeout=5_000)
        except PlaywrightTimeoutError:
            assert step.is_disabled(), "Next move is enabled but could not be clicked"
            break
        vp.wait_synced()
    assert vp.problems() == []


# Every text of the first game table shown under 24 px (not the number line's drawing, whose
# labels scale with it: render.py, large print draws a narrower line).
UNDER_24_JS = """() => { const out = []; const root = document.querySelector('.icg-game');
  const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let t = w.nextNode(); t; t = w.nextNode()) { const el = t.parentElement;
    if (!t.textContent.trim() || el.closest('svg, style') || !el.checkVisibility()) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 24 - 0.05) out.push([el.className || el.tagName, t.textContent.trim().slice(0, 30),
                                  px]); }
  return out; }"""


def test_projector_large_print_with_every_hand_shown(keyed_server: Any,
                                                      open_page: Any) -> None:
    """The teacher guide's table at 1280x720 in Large print, "Show every hand" on, stepped
    until a computer player has hit: with the table's top at the top of the screen, "Hit me!",
    Hold and the move log (its title and newest line) are whole on screen together; every text
    of the table is at least 24 px; the last move names the card the hit drew, and so does the
    log's newest line; the log is reached with a few Tabs from Hold."""
    w, h, _ = DEVICES["projector"]
    vp = open_page("projector-every-hand", viewport={"width": w, "height": h})
    vp.open(keyed_server.page_url("teacher_guide.ipynb"))
    page = vp.page
    unlock_teacher(vp, KEY)
    step = page.get_by_role("button", name="Next move")
    step.wait_for(timeout=30_000)
    page.get_by_role("button", name="Show every hand").click()
    said = []
    for _ in range(8):
        if step.is_disabled() or any("chose hit" in x for x in said):
            break
        before = page.locator(".icg-last-reason").inner_text()
        step.click()
        page.wait_for_function(
            "t => (document.querySelector('.icg-last-reason') || {}).innerText !== t",
            arg=before, timeout=30_000)
        vp.wait_synced()
        said.append(page.locator(".icg-last-reason").inner_text())
    page.evaluate(f"() => ({ROOT_JS['hitme']})().scrollIntoView({{block: 'start'}})")
    page.wait_for_timeout(SETTLE_MS)
    page.screenshot(path=str(_artifact("devices-projector-every-hand")))
    hits = [x for x in said if "chose hit" in x]
    assert hits, f"no computer player hit in {len(said)} moves: {said}"
    assert all(re.search(r"chose hit and drew \S+ \([+-]\d+\)", x) for x in hits), said
    for name in ("Hit me!", "Hold"):
        r = page.get_by_role("button", name=name).bounding_box()
        assert r is not None and 0 <= r["y"] and r["y"] + r["height"] <= h, (name, r)
    log = page.evaluate("""() => { const pre = document.querySelector('.icg-game pre.icg-log-text');
      const title = pre.parentElement.querySelector('.icg-log-title');
      const r = document.createRange(); r.selectNodeContents(pre);
      const first = [...r.getClientRects()][0];
      return {title: title.getBoundingClientRect().top,
              first: first && {top: first.top, bottom: first.bottom},
              right: pre.getBoundingClientRect().right,
              newest: pre.textContent.split('\\n')[0]}; }""")
    assert log["first"] and 0 <= log["title"] and log["first"]["bottom"] <= h, log
    assert log["right"] <= w, log
    assert re.search(r"drew \S+ \([+-]\d+\)|\([+-]\d+\)", log["newest"]), log
    assert page.evaluate(UNDER_24_JS) == []
    # the move log is a few Tabs after Hold
    page.get_by_role("button", name="Hold").focus()
    seen = []  # Hold, then the teacher box's Restart, New deal, Large print, then Peek
    for _ in range(6):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("() => document.activeElement.outerHTML.slice(0, 90)"))
        if page.evaluate("() => document.activeElement.matches('pre.icg-log-text')"):
            break
    else:
        raise AssertionError("the move log is not within 6 Tabs of Hold: " + "\n".join(seen))
    assert vp.problems() == []


# On a phone: the words of the move log split across two lines, the settings boxes narrower
# than 6em, and the dropdowns narrower than their chosen value.
PHONE_TEXT_JS = """() => {
  const split = [];
  for (const pre of document.querySelectorAll('.icg-game pre.icg-log-text')) {
    const node = pre.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(c => Math.round(c.top)));
      if (tops.size > 1) split.push(m[0]);
    }
  }
  const narrow = [], cut = [];
  const em = parseFloat(getComputedStyle(document.querySelector('.icg-game')).fontSize);
  for (const el of document.querySelectorAll('.icg-game .icg-settings input, '
                                             + '.icg-game .icg-settings select')) {
    if (!el.checkVisibility() || el.type === 'checkbox') continue;
    const w = el.getBoundingClientRect().width;
    if (w < 6 * em) narrow.push([el.closest('.widget-inline-hbox').innerText.slice(0, 30), w]);
    if (el.tagName === 'SELECT') {
      const span = document.createElement('span');
      span.style.font = getComputedStyle(el).font;
      span.style.whiteSpace = 'pre';
      span.textContent = el.options[el.selectedIndex].text;
      document.body.appendChild(span);
      const need = span.getBoundingClientRect().width;
      span.remove();
      if (need > el.clientWidth - 16) cut.push([span.textContent, need, el.clientWidth]);
    }
  }
  return {split, narrow, cut};
}"""


@pytest.mark.parametrize("notebook", ["es/03_hit_me.ipynb", "es/05_flapjack.ipynb"])
def test_log_and_settings_on_a_phone(notebook: str, lessons_server: Any,
                                     open_page: Any) -> None:
    """The Spanish tables at 390x844 after a few moves: no word of the move log broken
    across two lines ("Car/tas", "(-8)"); with Ajustes open, every box at least 6em wide and
    every dropdown as wide as its chosen value."""
    w, h, _ = DEVICES["phone"]
    vp = open_page("phone-log-settings", viewport={"width": w, "height": h})
    vp.open(lessons_server.page_url(notebook))
    page = vp.page
    play = page.locator(".icg-game .jupyter-button.mod-success:visible, "
                        ".icg-game .icg-card-btn:not([disabled]):visible")
    for _ in range(4):
        if play.count() and play.first.is_enabled():
            play.first.click()
            vp.wait_synced()
            page.wait_for_timeout(2 * SETTLE_MS)
    page.locator(".icg-game .widget-toggle-button", has_text="Ajustes").first.click()
    page.locator(".icg-game .icg-settings").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(SETTLE_MS)
    vp.screenshot(f"devices-phone-{notebook.replace('/', '-').removesuffix('.ipynb')}")
    found = page.evaluate(PHONE_TEXT_JS)
    assert found == {"split": [], "narrow": [], "cut": []}
    assert vp.problems() == []


# ----- Hit Me's end-of-round check (items 1 and 6, inside the table) -------------------------
def _play_hit_me_to_the_check(vp: Any, server: Any, bt: Any) -> Any:
    """tests/browser/fixtures/hit_me_table.ipynb: peek, hold, and the round ends at the check
    (My sum and |sum| to type). Returns the engine's replica of the round."""
    from engine import Hold

    replica = bt.HitMeReplica()
    vp.open(server.page_url("hit_me_table.ipynb"))
    page = vp.page

    def button(name: str) -> Any:
        b = page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))
        b.wait_for(state="visible", timeout=30_000)
        page.wait_for_function("el => !el.disabled", arg=b.element_handle(), timeout=30_000)
        return b

    button("Peek at my face-down card").click()
    page.locator(f'.icg-card[aria-label^="{card_name(replica.round.face_down[0])},"]').first.wait_for(
        timeout=30_000)
    button("Hold").click()
    replica.act(Hold())
    assert replica.round.players_done
    page.locator(".icg-answer input").first.wait_for(state="visible", timeout=30_000)
    vp.wait_synced()
    return replica


def _sum_statements(total: int) -> list[str]:
    """The ways the table states the student's sum or |sum|."""
    from engine.cards import signed

    s = signed(total)
    return [f"sum {s}", f"|{s}| = {abs(total)}", f"You {s}", f"You at {s}"]


# Where the check's list of the student's own cards is, with its text and the window's height.
OWN_CARDS_JS = """() => { const el = document.querySelector('.icg-answer .icg-own-cards');
  if (!el || !el.checkVisibility()) return null;
  const r = el.getBoundingClientRect();
  return {text: el.innerText, top: r.top, bottom: r.bottom, height: window.innerHeight}; }"""


def _own_cards_in_view_at_zoom_200(vp: Any, replica: Any, bt: Any) -> None:
    """At 200% zoom (683x328), with the "My sum" box focused from the top of the page (the
    browser scrolls the box in), the student's own cards are in the window as text, each with
    its signed value; no other seat's face-down card is named in the page."""
    from engine.cards import signed

    w, h, _scale = DEVICES["zoom200"]
    page = vp.page
    page.set_viewport_size({"width": w, "height": h})
    page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
    box = page.locator(".icg-answer input").nth(0)
    box.focus()
    page.wait_for_function("el => document.activeElement === el", arg=box.element_handle())
    page.screenshot(path=str(_artifact("devices-zoom200-hit-me-check")))
    own = page.evaluate(OWN_CARDS_JS)
    assert own is not None, "no list of the student's own cards at the check"
    assert 0 <= own["top"] and own["bottom"] <= own["height"] + 0.5, own
    values = [signed(v) for v in replica.round.card_values(0)]
    listed = re.findall(r"\(([+-]\d+)\)", own["text"])
    assert listed == values, (own["text"], values)
    assert bt.find_cards(own["text"], replica.my_cards()).keys() == {
        c.key for c in replica.my_cards()}, own["text"]
    assert bt.find_cards(vp.everything_received(), replica.hidden_cards()) == {}


def test_hit_me_check_does_not_give_its_answer_away(fixtures_server: Any, open_page: Any,
                                                    bt: Any) -> None:
    """At the check, nothing in the page (DOM, widget state, frames received) states the
    student's sum or |sum|; after they answer, it is there (the positive control). On the
    same page at 200% zoom, the student's own cards stay in view with the box focused."""
    vp = open_page("hit-me-check")
    replica = _play_hit_me_to_the_check(vp, fixtures_server, bt)
    total = replica.my_sum()
    everything = vp.everything_received()
    shown = [s for s in _sum_statements(total) if s in everything]
    placeholder = vp.page.locator(".icg-answer input").nth(1).get_attribute("placeholder")
    assert not shown and "-" not in (placeholder or ""), (shown, placeholder)
    boxes = vp.page.locator(".icg-answer input")
    _own_cards_in_view_at_zoom_200(vp, replica, bt)
    boxes.nth(0).fill(str(total))
    boxes.nth(1).fill(str(abs(total)))
    boxes.nth(1).press("Tab")
    vp.wait_synced()
    vp.page.get_by_role("button", name="Check my sum").click()
    vp.page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=30_000)
    assert any(s in vp.everything_received() for s in _sum_statements(total))


def test_keypad_and_sign_key_on_a_phone(fixtures_server: Any, open_page: Any, bt: Any) -> None:
    """Hit Me's check on a phone (390x844). The keypad types into the box tapped. Both boxes
    ask for the number pad (inputmode="numeric"), which on an iPhone has no minus: the "My sum"
    box has a "± Sign" button right after it (the next Tab, whole on screen, level with the
    box) that makes the number typed negative, or positive again; the |sum| box has none (one
    Tab from it reaches Check). The sum typed as digits and signed with the key is right."""
    w, h, _ = DEVICES["phone"]
    vp = open_page("hit-me-keypad", viewport={"width": w, "height": h})
    replica = _play_hit_me_to_the_check(vp, fixtures_server, bt)
    page = vp.page
    boxes = page.locator(".icg-answer input")
    boxes.nth(1).click()  # the |sum| box
    page.locator(".icg-keypad .widget-button", has_text=re.compile("^3$")).click()
    vp.wait_synced()
    page.wait_for_timeout(SETTLE_MS)
    assert boxes.nth(1).input_value() == "3" and boxes.nth(0).input_value() == ""
    assert [boxes.nth(i).get_attribute("inputmode") for i in range(2)] == ["numeric"] * 2
    sign = page.get_by_role("button", name="\u00b1 Sign")
    assert sign.count() == 1
    boxes.nth(0).focus()
    page.keyboard.press("Tab")
    assert page.evaluate(_ACTIVE_JS)["text"] == "\u00b1 Sign", "the sign key is not after My sum"
    key, box = sign.bounding_box(), boxes.nth(0).bounding_box()
    assert key is not None and box is not None
    assert 0 <= key["x"] and key["x"] + key["width"] <= w, key
    assert abs((key["y"] + key["height"]) - (box["y"] + box["height"])) < 12, (key, box)

    def value_is(text: str) -> None:
        page.wait_for_function(
            "v => document.querySelectorAll('.icg-answer input')[0].value === v", arg=text,
            timeout=30_000)

    total = replica.my_sum()
    boxes.nth(0).click()
    page.keyboard.type(str(abs(total)))  # a number pad: digits only
    sign.click()
    value_is(f"-{abs(total)}")
    if total >= 0:
        sign.click()
        value_is(str(total))
    boxes.nth(1).fill(str(abs(total)))
    boxes.nth(1).press("Tab")
    assert page.evaluate(_ACTIVE_JS)["text"] == "Check my sum", "one Tab from |sum| reaches Check"
    vp.page.screenshot(path=str(_artifact("devices-phone-sign-key")))
    page.keyboard.press("Enter")
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=30_000)
    assert vp.problems() == []


# Whether the focus is on an enabled button of a next step (Add / Subtract).
ON_NEXT_STEP_JS = """() => { const e = document.activeElement;
  return !!(e && e.closest('.icg-game .icg-next-step') && !e.disabled); }"""


def test_flapjack_focus_follows_a_chosen_card(fixtures_server: Any, open_page: Any,
                                              bt: Any) -> None:
    """Flapjack's add-or-subtract game by keyboard on a phone (390x844): a card chosen with
    Enter takes the focus to the first enabled of Add / Subtract, and the live region says
    the prompt ("You chose ..."); the sign pressed plays the card and the focus goes back to
    the hand (an enabled card button) once it is the student's turn, never to the page body."""
    replica = bt.FlapjackReplica(variant="add-or-subtract")
    w, h, _ = DEVICES["phone"]
    vp = open_page("focus-flapjack-signs", viewport={"width": w, "height": h})
    vp.open(fixtures_server.page_url("flapjack_signs.ipynb"))
    page = vp.page
    play = press_card(page, replica)
    try:
        page.wait_for_function(ON_NEXT_STEP_JS, timeout=30_000)
    except PlaywrightTimeoutError:
        page.screenshot(path=str(_artifact("devices-phone-flapjack-signs")))
        raise AssertionError(f"the focus stayed on {page.evaluate(_ACTIVE_JS)}") from None
    page.screenshot(path=str(_artifact("devices-phone-flapjack-signs")))
    assert page.locator("#icg-live").text_content().startswith("You chose"), \
        page.locator("#icg-live").text_content()
    want = "+ " if play.sign > 0 else "\u2212 "
    tab_to(page, lambda i: i["tag"] == "BUTTON" and i["text"].startswith(want), want)
    page.keyboard.press("Enter")
    replica.play(play)
    assert replica.my_turn(), "the fixture's game should go on after the first card"
    try:
        page.wait_for_function(
            "() => { const e = document.activeElement; return !!(e && !e.disabled"
            " && e.matches('.icg-game .icg-card-btn')); }", timeout=30_000)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the focus is not on the hand: {page.evaluate(_ACTIVE_JS)}") \
            from None
    assert vp.problems() == []
