"""Accessibility in a real browser: axe-core (the copy bundled by axe-playwright-python, run
offline) finds no violation of impact "serious" or "critical" on the tree page and both game
tables mid-game (every lesson page: test_lesson_pages.py, with the same checks); its
color-contrast rule checks text contrast (4.5:1 for normal text). Every card face shows its
sign as text, never by colour alone.

No axe rule is excluded.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

TIMEOUT = 30_000
SIGNED = re.compile(r"^[+\-\u2212]\d+$|^0$")

# Every visible card face: its value text, whether that text is visible, and its colours.
_CARD_FACES_JS = """() => [...document.querySelectorAll('.icg-card:not(.icg-back)')]
  .filter(c => c.offsetParent !== null)
  .map(c => {
    const v = c.querySelector('.icg-value');
    const r = v ? v.getBoundingClientRect() : null;
    const s = v ? getComputedStyle(v) : null;
    return {
      label: c.getAttribute('aria-label') || '',
      value: v ? v.innerText.trim() : null,
      shown: !!(v && r.width > 0 && r.height > 0 && s.visibility !== 'hidden'
                && parseFloat(s.opacity) > 0 && parseFloat(s.fontSize) >= 8),
    };
  })"""


def sign_problems(vp: Any) -> list[str]:
    """Card faces whose sign is not written as visible text, and card buttons without it."""
    out = []
    for face in vp.page.evaluate(_CARD_FACES_JS):
        if not face["shown"] or not SIGNED.match(face["value"] or ""):
            out.append(f"card {face['label']!r} shows value text {face['value']!r}")
        elif not re.search(r"value (negative|positive) \d+|value zero|value 0|"
                           r"valor (negativo|positivo) \d+|valor cero|valor 0", face["label"]):
            out.append(f"card {face['label']!r}: its label does not say the signed value")
    for text in vp.page.locator(".icg-card-btn:visible").all_inner_texts():
        if not re.search(r"(^|\s)[+\-\u2212]\d+\b", text):
            out.append(f"card button {text!r} has no signed value")
    return out


def axe_check(vp: Any, bt: Any, what: str) -> None:
    violations = vp.axe_violations()
    assert violations == [], f"{what}: axe violations\n{bt.format_violations(violations)}"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_tree_page(lang: str, lessons_server: Any, open_page: Any, bt: Any) -> None:
    from widgets.lessons import course

    vp = open_page(f"a11y-tree-{lang}")
    vp.open(lessons_server.url + ("" if lang == "en" else f"voila/tree/{lang}"),
            expect_widgets=False)
    start = course.by_file("00_start_here.ipynb", lang).title
    vp.page.get_by_role("link", name=start).first.wait_for(timeout=TIMEOUT)
    assert vp.page.evaluate("() => document.documentElement.lang") == lang
    axe_check(vp, bt, f"tree page ({lang})")


def _button(page: Any, name: str) -> Any:
    return page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))


def test_hit_me_table_mid_game(fixtures_server: Any, open_page: Any, bt: Any) -> None:
    vp = open_page("a11y-hit-me")
    vp.open(fixtures_server.page_url("hit_me_table.ipynb"))
    _button(vp.page, "Peek at my face-down card").click()
    vp.page.locator(".icg-card:not(.icg-back)").nth(2).wait_for(timeout=TIMEOUT)
    axe_check(vp, bt, "Hit Me table, playing")
    assert sign_problems(vp) == []
    # ... and in the announce step (keypad, text boxes, feedback)
    _button(vp.page, "Hold").click()
    vp.page.locator(".icg-answer").first.wait_for(state="visible", timeout=TIMEOUT)
    _button(vp.page, "Check my sum").click()  # empty answer: an error message is shown
    vp.page.locator(".icg-answer .icg-msg").first.wait_for(timeout=TIMEOUT)
    axe_check(vp, bt, "Hit Me table, announcing")


def test_flapjack_table_mid_game(fixtures_server: Any, open_page: Any, bt: Any) -> None:
    replica = bt.FlapjackReplica()
    vp = open_page("a11y-flapjack")
    vp.open(fixtures_server.page_url("flapjack_table.ipynb"))
    play = replica.choose()
    label = replica.label(play.card)
    vp.page.locator(".icg-card-btn:visible",
                    has_text=re.compile(f"^{re.escape(label)}( \\(.*\\))?$")).click()
    bt.wait_total_prompt(vp.page, play.card)
    axe_check(vp, bt, "Flapjack table, saying the total")
    assert sign_problems(vp) == []
