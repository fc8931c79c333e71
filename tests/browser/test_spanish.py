"""A Spanish-speaking student's whole unit in a real browser, by clicks only.

From the landing page (/) the student chooses Español, opens Empieza aquí, and follows the
"Siguiente lección" links through every lesson to the last one and back to the start. On the
way they play a round of Hit Me to its end (peek, hold, type the sum and |sum| read from their
own cards, turn the cards up) and a game of Flapjack (diez sin figuras) to its end. No page shows
English: the visible text contains no sentence of the English catalogue (the msgids of
widgets/locale/) and no common English word, apart from the names the lessons keep (the
games, the credited book and blog). Every Spanish page says <html lang="es">, makes no request
off the server, and axe-core (run offline, from the copy axe-playwright-python bundles) finds
no serious or critical violation on it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import LOAD_TIMEOUT_MS

from widgets.lessons import course

ROOT = Path(__file__).resolve().parents[2]
LESSONS_DIR = ROOT / "lessons"
LOCALE = ROOT / "widgets" / "locale"
TIMEOUT = 30_000
MAX_TURNS = 80

# Names a Spanish page keeps in English: the games (explained in Spanish where they first
# appear), the credited book, blog and author, the standards' codes.
KEPT = ("Hit Me", "Flapjack", "Prealgebra & Geometry: Math Games for Middle School",
        "Let's Play Math", "Lisa in AZ", "Denise Gaskins", "denisegaskins.com")
# Common English words that are not Spanish words too (so not "a", "no", "me", "total",
# "once", "final", "real").
ENGLISH_WORDS = frozenset("""
the and you your yours with what when which who why how this that these those there here
is are was were be been it its of to for from into on at by or not but if then than
card cards sum hand hands deck player players play plays played turn round game games win
wins won winner score scores value values negative positive zero hit hold held deal dealt
dealer next back start check new show try again answer answers right wrong settings lesson
lessons peek face down up left each every all some more less closer greater minus plus
number numbers pass passed click press type box computer student teacher time minutes
""".split())


def spanish(msgid: str) -> str:
    """`msgid` as the Spanish catalogue says it (the widgets' own words)."""
    from widgets.page.language import speaking
    from widgets.words import _

    with speaking("es"):
        return _(msgid)


def english_sentences() -> list[str]:
    """Fragments of every msgid (the English sentences) of the catalogues - the template
    icg.pot when it is there and the Spanish icg.po - that a translation must not leave: the
    text between placeholders and markup, when it has at least two words."""
    from babel.messages.pofile import read_po

    paths = [p for p in (LOCALE / "icg.pot", LOCALE / "es" / "LC_MESSAGES" / "icg.po")
             if p.exists()]
    assert paths, f"no catalogue in {LOCALE}"
    messages = []
    for path in paths:
        with path.open("rb") as f:
            messages += list(read_po(f))
    out = set()
    for message in messages:
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        for text in ids:
            for piece in re.split(r"\{[^{}]*\}|<[^<>]*>|&[a-z#0-9]+;", text or ""):
                piece = piece.strip(" .,:;!?()|\"'-")
                if len(re.findall(r"[A-Za-z]+", piece)) >= 2 and not any(
                        k in piece or piece in k for k in KEPT):
                    out.add(piece)
    return sorted(out)


def english_on_page(vp: Any, sentences: list[str]) -> list[str]:
    text = vp.page.inner_text("body")
    for name in KEPT:
        text = text.replace(name, " ")
    found = [f"sentence {s!r}" for s in sentences
             if s in text and re.search(rf"(?<![^\W\d_]){re.escape(s)}(?![^\W\d_])", text)]
    # Deal codes (339C-HBMB-...-BY8M) are letters and digits, not words.
    text = re.sub(r"\b[0-9A-Z]{4}(?:-[0-9A-Z]{4})+\b", " ", text)
    # Whole words, accented letters included ("allá" is not "all", "BY8M" is not "by").
    for m in re.finditer(r"(?<![\w'])(?:[^\W\d_]|')+(?![\w'])", text):
        if m.group().lower() in ENGLISH_WORDS:
            found.append(f"word {m.group()!r} in {text[max(0, m.start() - 40):m.end() + 40]!r}")
    return found


def check_page(vp: Any, bt: Any, sentences: list[str], what: str,
               seconds: float | None = None) -> list[str]:
    """What is wrong with a Spanish page as a whole: its language, English text, requests off
    the server, console errors, and for a lesson page (`what` its file in lessons/es/, loaded
    in `seconds`) everything test_lesson_pages.py's `check_lesson_page` asks of it (axe-core,
    the Content-Security-Policy, no teacher's answer...), else serious or critical axe-core
    violations (the journey goes on, so that one run reports every page)."""
    from test_lesson_pages import check_lesson_page

    out = []
    lang = vp.page.evaluate("() => document.documentElement.lang")
    if lang != "es":
        out.append(f'{what}: <html lang="{lang}">')
    out += [f"{what}: English: {e}" for e in english_on_page(vp, sentences)]
    if seconds is not None:
        try:
            check_lesson_page(vp, LESSONS_DIR / "es" / what, bt, seconds)
        except AssertionError as e:
            out.append(f"{what}: {e}")
    else:
        violations = vp.axe_violations()
        if violations:
            out.append(f"{what}: axe violations\n{bt.format_violations(violations)}")
    out += [f"{what}: {p}" for p in vp.problems()]
    return out


def label(msgid: str) -> re.Pattern[str]:
    """The control with this msgid: its Spanish words, or the English ones. The journey goes on
    past an untranslated control (check_page reports it as English on the page, and the test
    fails then), so that one run shows every page's problems."""
    return re.compile(f"^({re.escape(spanish(msgid))}|{re.escape(msgid)})$")


def button(page: Any, msgid: str) -> Any:
    return page.locator(".widget-button:visible", has_text=label(msgid))


def wait_enabled(page: Any, name: str) -> Any:
    b = button(page, name)
    b.wait_for(state="visible", timeout=TIMEOUT)
    page.wait_for_function("el => !el.disabled", arg=b.element_handle(), timeout=TIMEOUT)
    return b


def text_box(page: Any, msgid: str) -> Any:
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=label(msgid))).locator("input")


def signed_value(text: str) -> int:
    return int(text.strip().replace("\u2212", "-").replace("+", ""))


def play_hit_me_round(vp: Any) -> None:
    """Peek, hold, then type the sum of one's own cards (the only seat without a face-down
    back) and its absolute value, check, and turn the cards up: the round ends with a winner."""
    page = vp.page
    wait_enabled(page, "Peek at my face-down card").click()
    wait_enabled(page, "Hold").click()
    box = text_box(page, "My sum")
    box.wait_for(state="visible", timeout=TIMEOUT)
    table = page.locator(".icg-root", has=page.locator(".icg-answer")).first
    mine = table.locator(".icg-seat:visible", has_not=page.locator(".icg-back"))
    assert mine.count() == 1, "after the peek, only the student's own seat has no card back"
    values = [signed_value(t) for t in mine.locator(".icg-value").all_inner_texts()]
    assert len(values) >= 2, values
    box.press_sequentially(str(sum(values)))
    text_box(page, "Its absolute value |sum|").press_sequentially(str(abs(sum(values))))
    vp.wait_synced()
    wait_enabled(page, "Check my sum").click()
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=TIMEOUT)
    wait_enabled(page, "Turn up all the cards").click()
    page.locator(".icg-msg-celebrate").first.wait_for(timeout=TIMEOUT)
    assert table.locator(".icg-back:visible").count() == 0, "every card is face up at the end"


def play_flapjack_game(vp: Any) -> str:
    """Play the first card the table allows, turn after turn, until the game is over; the end
    banner's text. (A card is enabled only on the student's turn and when it keeps the total
    within the limits; the computer's moves in between are paced, so a card can be switched
    off just as it is clicked: then the next turn is awaited.)"""
    page = vp.page
    table = page.locator(".icg-root.icg-flapjack").first
    table.wait_for(timeout=TIMEOUT)
    end = table.locator(".icg-fj-end")
    clicks = 0
    while not end.count():
        assert clicks < MAX_TURNS, "the game did not end"
        page.wait_for_function(
            "t => t.querySelector('.icg-fj-end') || [...t.querySelectorAll('.icg-card-btn')]"
            ".some(b => !b.disabled && b.offsetParent !== null)",
            arg=table.element_handle(), timeout=60_000)
        if end.count():
            break
        before = table.inner_text()
        try:
            table.locator(".icg-card-btn:visible:enabled").first.click(timeout=3_000)
        except Exception:  # noqa: BLE001 - switched off as it was clicked: wait again
            continue
        clicks += 1
        page.wait_for_function("([t, before]) => t.innerText !== before",
                               arg=[table.element_handle(), before], timeout=60_000)
    return end.first.inner_text()


def next_link(page: Any) -> Any:
    return page.locator("nav.icg-nav a", has_text=re.compile(
        "^" + re.escape(spanish("Next lesson: {title}").split("{title}")[0])))


@pytest.mark.timeout(1800)
def test_a_spanish_student_goes_through_every_lesson(lessons_server: Any, open_page: Any,
                                                     bt: Any) -> None:
    from test_lesson_pages import RECORD_VIOLATIONS

    sentences = english_sentences()
    vp = open_page("es-journey")
    vp.context.add_init_script(RECORD_VIOLATIONS)  # on every page of the journey
    page = vp.page
    vp.open(lessons_server.url, expect_widgets=False)
    assert page.evaluate("() => document.documentElement.lang") == "en"
    page.get_by_role("link", name=course.LANGUAGES["es"]).click()
    page.wait_for_url("**/voila/tree/es", timeout=TIMEOUT)
    wrong = check_page(vp, bt, sentences, "the Spanish landing page")

    start = course.by_file("00_start_here.ipynb", "es")
    page.get_by_role("link", name=start.title).click()
    t0 = time.monotonic()
    # a lesson's page is streamed while its cells run: as long as a page load may take (the
    # strategy lab's charts are drawn the first time it is served)
    page.wait_for_url("**/voila/render/es/00_start_here.ipynb", timeout=LOAD_TIMEOUT_MS,
                      wait_until="domcontentloaded")
    vp.wait_loaded(expect_widgets=False)
    wrong += check_page(vp, bt, sentences, start.file, time.monotonic() - t0)

    visited = []
    link = page.locator(".icg-lesson-list a").first  # the first lesson, from the start page
    for lesson in course.student_lessons("es"):
        assert link.inner_text().strip().endswith(course.display_name(lesson)), \
            (link.inner_text(), lesson.title)
        t0 = time.monotonic()
        link.click()
        page.wait_for_url(f"**/voila/render/es/{lesson.file}", timeout=LOAD_TIMEOUT_MS,
                          wait_until="domcontentloaded")
        vp.wait_loaded(expect_widgets=True)
        seconds = time.monotonic() - t0
        visited.append(lesson.file)
        if lesson.file == "03_hit_me.ipynb":
            play_hit_me_round(vp)
            vp.screenshot("es-hit-me-end")
        if lesson.file == "05_flapjack.ipynb":
            text = play_flapjack_game(vp)
            assert text.strip(), "the game's end is announced"
            vp.screenshot("es-flapjack-end")
        wrong += check_page(vp, bt, sentences, lesson.file, seconds)
        hrefs = page.eval_on_selector_all(
            "a[href]", "els => els.map(e => e.getAttribute('href'))")
        for href in hrefs:  # a Spanish page links Spanish pages only (or the credited site)
            assert not re.match(r"^/voila/render/(?!es/)", href), href
        link = next_link(page)
        if lesson.file == course.student_lessons("es")[-1].file:
            assert link.count() == 0
            link = page.get_by_role("link", name=spanish("Back to start"))
    assert visited == [lesson.file for lesson in course.student_lessons("es")]
    link.click()
    page.wait_for_url("**/voila/render/es/00_start_here.ipynb", timeout=TIMEOUT)
    assert wrong == [], "\n".join(wrong)
