"""The live class's morning in Chromium, on `make class`'s server, driven as the teacher and
the students do it.

The teacher opens the class page, types the key, chooses today's lesson (Hit Me, lesson 3) and
pastes the class list into its box. Three students open the lesson and pick their names from
the list (Cy on a phone: a 390x844 touch screen). The teacher's Pause covers the three pages
with "Eyes on the teacher"; a click the page's widget manager forges under the cover (on the
exit ticket's Check with an answer typed, and on the table's Hit me!) is refused by the kernel:
no answer reaches the store, the hand stays as it was. Resume: the same clicks count. "Open the
exit ticket" shows it on every page. The teacher removes Ben's page: it is told, stays out
after a reload, and comes back with Let back. Ana moves to another device: the old page is
told it moved, the new one says her answer of the day is kept, and her exit ticket goes on at
the next question. In projector mode no student's
name is visible anywhere on the class page, nor in its drop-down lists.
"""

from __future__ import annotations

import re
import time
from typing import Any

from conftest import KEY, ClassServer, close_context, ticket_question, unlock_teacher
from helpers import ticket_answer
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from rooms.answers import open_answers
from rooms.live_class import open_live_class

LESSON = 3
LESSON_PAGE = "voila/render/03_hit_me.ipynb"
NAMES = ("Ana", "Ben", "Cy")
PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True}
COVER = "Eyes on the teacher"

# A click forged with the page's own widget manager on the button `el` (its model's custom
# "click" message, as a button's view sends it), whatever covers the button; resolves once the
# kernel has handled the message (its idle status for it): true, or false when no widget model
# has that element.
FORGED_CLICK_JS = """async (el) => {
  const app = window.jupyterapp;
  const wm = app._widgetManager || await app._widgetManagerPromise;
  const models = wm._models;
  const ids = models instanceof Map ? [...models.keys()] : Object.keys(models);
  for (const id of ids) {
    const m = await (models instanceof Map ? models.get(id) : models[id]);
    for (const view of Object.values(m.views || {})) {
      if ((await view).el !== el) continue;
      return await new Promise((done, fail) => {
        setTimeout(() => fail(new Error('the kernel did not handle the click in 15 s')), 15000);
        m.send({event: 'click'}, {iopub: {status: msg => {
          if (msg.content.execution_state === 'idle') done(true); }}});
      });
    }
  }
  return false;
}"""

# Whether none of the names (given) is a word of the page's visible text.
NO_NAME_JS = r"""names => !names.some(
  n => new RegExp(`\\b${n}\\b`).test(document.body.innerText))"""

# The labels of every option of the drop-down lists the page shows (ipywidgets writes their
# spaces as no-break spaces).
SHOWN_OPTIONS_JS = """() => [...document.querySelectorAll('select')]
  .filter(s => s.checkVisibility())
  .flatMap(s => [...s.options].map(o => o.text.replace(/\u00a0/g, ' ')))"""


def press(vp: Any, target: Any) -> None:
    """A click, or a tap on a touch screen."""
    if vp.page.evaluate("() => navigator.maxTouchPoints > 0"):
        target.tap()
    else:
        target.click()


def start_ticket_and_pick(vp: Any, name: str) -> None:
    """Start the exit ticket and pick `name` from the class list (the class then decides)."""
    page = vp.page
    press(vp, page.locator(".icg-exit-ticket").get_by_role("button",
                                                           name="Start the exit ticket"))
    picker = page.locator(".icg-live-picker").first
    picker.get_by_label("Your name:").select_option(name)
    vp.wait_synced()
    press(vp, picker.get_by_role("button", name="That's me"))


def forge_click(vp: Any, button: Any) -> None:
    """A click on `button` forged by the page (FORGED_CLICK_JS), handled by the kernel, and
    whatever it changed back on the page."""
    assert button.evaluate(FORGED_CLICK_JS) is True, "no widget model for the button"
    vp.wait_synced()


def names_shown(text: str) -> list[str]:
    """The students' names in `text`, as whole words."""
    return [n for n in NAMES if re.search(rf"\b{n}\b", text)]


def stored(answers: Any, timeout: float = 15) -> list[Any]:
    """The store's answers once it has any: a page's answers reach the store from a thread of
    its kernel after the page shows the verdict (the page never waits for the store)."""
    deadline = time.monotonic() + timeout
    while not (got := answers.answers()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return got


def test_the_live_class_morning(class_server: ClassServer, open_page: Any) -> None:
    live = open_live_class(class_server.rooms_url)
    answers = open_answers(class_server.rooms_url)
    pages: dict[str, Any] = {}
    try:
        # The teacher opens the class page, types the key, gets today's lesson ready for three
        # students and pastes the class list.
        teacher = open_page("teacher")
        teacher.open(class_server.page_url("class_view.ipynb"))
        unlock_teacher(teacher, KEY)
        tp = teacher.page
        controls = tp.locator(".icg-live-controls")
        controls.wait_for(timeout=30_000)
        status = controls.locator(".icg-live-status")
        controls.get_by_label("Today's lesson").select_option(label=f"{LESSON}. Hit Me")
        size = controls.get_by_label("Students:")
        size.fill("3")
        size.press("Tab")
        teacher.wait_synced()
        controls.get_by_role("button", name="Get today's lesson ready").click()
        status.get_by_text(f"today's lesson: {LESSON}, ready for 3 students").wait_for(
            timeout=15_000)
        roster_box = controls.get_by_role("textbox", name="Class list")
        roster_box.fill("\n".join(NAMES))
        roster_box.press("Tab")
        teacher.wait_synced()
        controls.get_by_role("button", name="Use this class list").click()
        controls.get_by_text("The class list has 3 names.").wait_for(timeout=15_000)
        assert live.roster_names() == list(NAMES)
        expect(roster_box).to_have_value("", timeout=5_000)  # taken: the box is emptied

        # Three students open today's lesson and pick their names (Cy on a phone).
        for name in NAMES:
            vp = (open_page(f"live-{name}", viewport=PHONE, **TOUCH) if name == "Cy"
                  else open_page(f"live-{name}"))
            vp.open(class_server.address + LESSON_PAGE)
            start_ticket_and_pick(vp, name)
            vp.page.get_by_text(f"Answering as {name}.").first.wait_for(timeout=30_000)
            pages[name] = vp
        status.get_by_text("3 students in the class").wait_for(timeout=15_000)
        listed = controls.locator(".icg-live-pages-table")
        for name in NAMES:
            listed.locator("tr[data-state='in']", has_text=name).wait_for(timeout=5_000)
        assert {p.name for p in live.pages() if p.state == "in"} == set(NAMES)
        assert pages["Cy"].page.evaluate("() => innerWidth") == PHONE["width"]

        # Ana types her first answer; her table is ready.
        ana_vp = pages["Ana"]
        ana = ana_vp.page
        ticket = ana.locator(".icg-exit-ticket").first
        prompt, choices = ticket_question(ticket, 1)
        assert not choices
        answer_box = ticket.get_by_label("Answer:")
        answer_box.fill(ticket_answer(prompt, choices))
        answer_box.press("Tab")
        ana_vp.wait_synced()
        check = ticket.get_by_role("button", name="Check")
        verdict = ticket.locator("p[role=status]").filter(has_text=re.compile(
            "Right|Not this time"))
        table = ana.locator(".icg-game").filter(
            has=ana.get_by_role("button", name="Hit me!")).first
        hit = table.get_by_role("button", name="Hit me!")
        hand = table.locator(".icg-seats-box")
        before = hand.inner_text()

        # Pause: the three pages are covered.
        t0 = time.monotonic()
        controls.get_by_role("button", name="Pause", exact=True).click()
        for vp in pages.values():
            vp.page.get_by_text(COVER).first.wait_for(timeout=5_000)
        reached = time.monotonic() - t0
        print(f"the pause covered the three pages in {reached:.2f} s")
        assert reached < 5, reached
        status.get_by_text("PAUSED").wait_for(timeout=5_000)
        # clicks forged under the cover: the kernel handles each and refuses it
        forge_click(ana_vp, check)
        forge_click(ana_vp, hit)
        assert answers.answers() == [], "a forged click under the cover recorded an answer"
        assert verdict.count() == 0
        assert hand.inner_text() == before, "a forged click under the cover changed the hand"
        assert ana.get_by_text(COVER).first.is_visible()

        # Resume: the covers go, and the same clicks count.
        controls.get_by_role("button", name="Resume", exact=True).click()
        for vp in pages.values():
            vp.page.get_by_text(COVER).first.wait_for(state="hidden", timeout=5_000)
        check.click()
        verdict.filter(has_text="Right").wait_for(timeout=15_000)
        # the page's outbox sends in order, so an answer the forged clicks had made would be
        # stored before this one
        assert [(a.student, a.right) for a in stored(answers)] == [("Ana", True)]
        hit.click()
        ana.wait_for_function("([el, was]) => el.innerText !== was",
                              arg=[hand.element_handle(), before], timeout=15_000)

        # "Open the exit ticket": on every page of the lesson; then closed again.
        controls.get_by_role("button", name="Open the exit ticket").click()
        for vp in pages.values():
            opened = vp.page.locator(".icg-live-exit")
            opened.get_by_text("Your teacher opened the exit ticket.").wait_for(timeout=5_000)
            opened.locator(".icg-exit-ticket").wait_for(timeout=5_000)
        controls.get_by_role("button", name="Close the exit ticket").click()
        for vp in pages.values():
            vp.page.locator(".icg-live-exit").wait_for(state="hidden", timeout=5_000)

        # The teacher removes Ben's page: it is told, and stays out after a reload.
        student = controls.get_by_label("Student", exact=True)
        student.select_option("Ben")
        teacher.wait_synced()
        controls.get_by_role("button", name="Remove from the class").click()
        ben = pages["Ben"]
        ben.page.get_by_text("You are out of the class").first.wait_for(timeout=5_000)
        listed.locator("tr[data-state='removed']", has_text="Ben").wait_for(timeout=5_000)
        ben.open(class_server.address + LESSON_PAGE)  # a reload: the device's token comes back
        ben.page.get_by_text("You are out of the class").first.wait_for(timeout=30_000)
        controls.get_by_role("button", name="Let back").click()
        ben.page.get_by_text("You are out of the class").first.wait_for(state="hidden",
                                                                        timeout=5_000)
        listed.locator("tr[data-state='in']", has_text="Ben").wait_for(timeout=5_000)

        # Ana moves to another device: she picks her name there, the teacher lets her in.
        tablet = open_page("live-Ana-tablet")
        tablet.open(class_server.address + LESSON_PAGE)
        start_ticket_and_pick(tablet, "Ana")
        tablet.page.get_by_text("Waiting for your teacher").first.wait_for(timeout=15_000)
        listed.get_by_text("wants to move to another device").wait_for(timeout=5_000)
        student.select_option("Ana")
        teacher.wait_synced()
        controls.get_by_role("button", name="Let in").click()
        ana.get_by_text("This page moved to another device").first.wait_for(timeout=5_000)
        tablet.page.get_by_text("Answering as Ana.").first.wait_for(timeout=15_000)
        tablet.page.get_by_text("Welcome, Ana: your 1 answer of today is kept (1 right)."
                                ).first.wait_for(timeout=5_000)
        # her exit ticket goes on at the question after the one she answered
        tablet.page.get_by_text("Welcome back: your answer to question 1 is kept."
                                ).first.wait_for(timeout=5_000)
        tablet.page.locator(".icg-exit-ticket").get_by_text("Question 2 of 5.").wait_for(
            timeout=5_000)
        assert not tablet.page.get_by_text("Waiting for your teacher").first.is_visible()
        pages["Ana on the tablet"] = tablet

        # Projector mode: no student's name anywhere on the class page.
        tp.get_by_role("button", name="Projector: hide names").click()
        controls.locator(".icg-live-roster").get_by_text("student 1").wait_for(
            timeout=15_000)
        tp.get_by_text("names hidden").first.wait_for(timeout=15_000)
        try:  # every panel redrawn
            tp.wait_for_function(NO_NAME_JS, arg=list(NAMES), timeout=15_000)
        except PlaywrightTimeout:
            pass  # the assertion says which
        assert names_shown(tp.inner_text("body")) == []
        options = tp.evaluate(SHOWN_OPTIONS_JS)
        assert "student 1" in options  # the teacher's list of students, by number
        assert names_shown("\n".join(options)) == []
        assert teacher.problems() == []
    finally:
        # the pages first: a page still open could take its name again after the day ends,
        # and the next test's student of the same name would wait for the teacher
        for vp in pages.values():
            close_context(vp.context)
        live.resume()
        live.open_exit_ticket(None)
        live.set_roster([])
        live.set_lesson(None)
        live.end_day()
        answers.delete_day()  # the server is shared: no student of this test stays among
        # today's
