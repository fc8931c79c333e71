"""The practice page in Chromium, on `make class`'s server (serving/class_server.py).

Ana opens lessons/practice.ipynb, names herself and practises adding two integers. She adds
the sizes of two cards of different signs twice (the mistake "added the sizes when the signs
differ"): each time she sees that mistake's feedback, and the next items have cards of
different signs (chosen to practise it). Three right in a row at the first try: mastered. The
teacher's dashboard lists the mistake under its name with "Ana ×2" and her skill mastered;
"Practise this" reaches her page, which switches to that skill and says so.
"""

from __future__ import annotations

import re
import time
from typing import Any

from conftest import KEY, ClassServer, unlock_teacher

from engine.questions import SKILLS
from rooms.answers import open_answers
from widgets.words import _, mistake_feedback, mistake_label, skill_name, speaking

PAGE = "voila/render/practice.ipynb"
NUMBER = re.compile(r"[+\-\u2212]\d+")


def terms(page: Any) -> list[int]:
    """The numbers of the question shown (a sum: '+3 + (-8) = ?')."""
    text = page.locator(".icg-practice p[style*='font-size']").inner_text()
    return [int(t.replace("\u2212", "-")) for t in NUMBER.findall(text)]


def answer(vp: Any, given: int, lang: str = "en") -> str:
    """Type `given`, press Check; the feedback shown."""
    page = vp.page.locator(".icg-practice")
    status = page.locator("p[role=status]").filter(has_text=re.compile("\u2714|\u2717"))
    before = status.first.inner_text() if status.count() else ""
    with speaking(lang):
        label, check = _("Answer:"), _("Check")
    box = page.get_by_label(label)
    box.fill(str(given))
    box.press("Tab")
    vp.wait_synced()
    page.get_by_role("button", name=check, exact=True).click()
    end = time.monotonic() + 30
    while time.monotonic() < end:  # the new feedback (the one before, if any, replaced)
        if status.count() and status.first.inner_text() != before:
            return status.first.inner_text()
        time.sleep(0.1)
    raise AssertionError(f"no new feedback after {given}; still {before!r}")


def next_item(vp: Any, number: int, lang: str = "en", skill: str = "add-2") -> None:
    page = vp.page.locator(".icg-practice")
    with speaking(lang):
        button = _("Next question")
        header = _("{skill}: question {n}").format(skill=skill_name(skill), n=number)
    page.get_by_role("button", name=button).click()
    page.get_by_text(header, exact=False).wait_for(timeout=30_000)


def name_and_master_adding(vp: Any, name: str, lang: str) -> None:
    """`name` names themselves on the practice page, adds the sizes of two numbers of
    different signs twice (each time the mistake's feedback, then the items chosen to
    practise it), then answers 3 right in a row at the first try: mastered."""
    page = vp.page
    with speaking(lang):
        first, me = _("Your first name:"), _("That's me")
        named = _("Answering as {who}. Your teacher sees your answers.").format(who=name)
        skills = [skill_name(s) for s in SKILLS]
        feedback = mistake_feedback("added-abs")
        mastered = _("Mastered! Choose another skill, or keep practising.")
    page.get_by_label(first, exact=True).fill(name)
    page.get_by_label(first, exact=True).press("Tab")
    vp.wait_synced()
    page.get_by_role("button", name=me).click()
    page.get_by_text(named).wait_for(timeout=30_000)
    for skill in skills:  # the picker: a button per skill
        assert page.get_by_role("button", name=skill).count() >= 1, skill

    number = 1
    while len({t > 0 for t in terms(page)}) == 1:  # to an item whose signs differ
        assert "\u2714" in answer(vp, sum(terms(page)), lang)
        number += 1
        next_item(vp, number, lang)
    for _n in range(2):  # the same mistake twice, each on an item where it can be made
        a, b = terms(page)
        assert (a > 0) != (b > 0), (a, b)  # the first by search, the second chosen for it
        assert feedback in answer(vp, abs(a) + abs(b), lang)
        assert "\u2714" in answer(vp, a + b, lang)
        number += 1
        next_item(vp, number, lang)
    for i in range(3):  # the targeted items, then one more: 3 right in a row
        ts = terms(page)
        if i < 2:
            assert len({t > 0 for t in ts}) == 2, ts  # still practising the mistake
        assert "\u2714" in answer(vp, sum(ts), lang)
        if i < 2:
            number += 1
            next_item(vp, number, lang)
    page.get_by_text(mastered).wait_for(timeout=30_000)
    page.get_by_role("button", name="\u2713 " + skills[0]).wait_for(timeout=30_000)


def wrong_first_tries(store: Any, name: str) -> list[tuple[str, bool]]:
    """`name`'s wrong answers in the store, once the two wrong first tries arrived."""
    end = time.monotonic() + 30
    while time.monotonic() < end and sum(
            a.student == name and not a.right for a in store.answers()) < 2:
        time.sleep(0.2)
    return [(a.mistake, a.first_try) for a in store.answers()
            if a.student == name and not a.right]


def test_practice_targets_the_mistake_and_reaches_the_teacher(
        class_server: ClassServer, open_page: Any) -> None:
    store = open_answers(class_server.rooms_url)
    vp = open_page("student-Ana")
    vp.open(class_server.address + PAGE)
    page = vp.page
    name_and_master_adding(vp, "Ana", "en")
    page.get_by_role("button", name="Absolute value").click()  # on to another skill
    page.get_by_text(re.compile(r"Absolute value: question")).wait_for(timeout=30_000)

    assert wrong_first_tries(store, "Ana") == [("added-abs", True)] * 2
    assert {a.activity for a in store.answers() if a.student == "Ana"} == {"practice"}

    teacher = open_page("teacher")
    teacher.open(class_server.page_url("class_view.ipynb"))
    unlock_teacher(teacher, KEY)
    tp = teacher.page
    mistake = tp.locator("tr[data-mistake='added-abs']")
    mistake.wait_for(timeout=30_000)
    assert mistake_label("added-abs") in mistake.inner_text()
    assert "Ana \u00d72" in mistake.inner_text()
    skills = tp.locator(".icg-class-skills-table")
    assert re.search(r"Ana\s+mastered", skills.inner_text()), skills.inner_text()
    tp.get_by_label("Mistake:").select_option(label=mistake_label("added-abs"))
    teacher.wait_synced()
    tp.get_by_role("button", name="Practise this").click()
    tp.get_by_text('1 student gets practice on "').wait_for(timeout=30_000)

    # Ana's next item: the skill her teacher asked for, said on her page
    assert "\u2714" in answer(vp, abs(sum(terms(page))))
    page.locator(".icg-practice").get_by_role("button", name="Next question").click()
    page.get_by_text("Your teacher asks you to practise this: Adding two integers.") \
        .wait_for(timeout=30_000)
    page.get_by_text(re.compile(r"Adding two integers: question")).wait_for(timeout=30_000)
    assert vp.problems() == [] and teacher.problems() == []


def test_practice_is_kept_on_the_device_without_a_store(fixtures_server: Any,
                                                        open_page: Any) -> None:
    """With no store (the static site), the first tries are kept in this browser's
    localStorage: a new page of the same device shows the skill mastered."""
    vp = open_page("device")
    vp.open(fixtures_server.page_url("practice_on_device.ipynb"))
    page = vp.page
    page.get_by_text("Absolute value: question 1").wait_for(timeout=30_000)
    for number in (2, 3, 4):
        assert "\u2714" in answer(vp, abs(sum(terms(page))))
        if number < 4:
            next_item(vp, number, skill="abs")
    page.get_by_text("Mastered!").wait_for(timeout=30_000)
    kept = page.evaluate("localStorage.getItem('icg-practice-firsts')")
    assert kept is not None and kept.count('"abs",1') == 3, kept

    vp.open(fixtures_server.page_url("practice_on_device.ipynb"))  # a new page, same device
    page.get_by_role("button", name="\u2713 Absolute value").wait_for(timeout=30_000)
    page.get_by_text("Mastered!").wait_for(timeout=30_000)
    assert vp.problems() == []


def test_practice_in_spanish(class_server: ClassServer, open_page: Any) -> None:
    """The same on the Spanish page: the mistake's feedback, the targeted items and mastery
    in Spanish, and the answers in the store under their mistake."""
    store = open_answers(class_server.rooms_url)
    vp = open_page("student-Bea")
    vp.open(class_server.address + "voila/render/es/practice.ipynb")
    name_and_master_adding(vp, "Bea", "es")
    assert wrong_first_tries(store, "Bea") == [("added-abs", True)] * 2
    assert vp.problems() == []


def test_a_later_lesson_opens_with_the_re_check_of_a_skill_mastered_before(
        class_server: ClassServer, open_page: Any) -> None:
    """Rhea mastered absolute value three days ago. Lesson 3's page shows nothing of it until
    she names herself; then, at the top of the lesson, one question on absolute value: right,
    the skill stays mastered, and the answer reaches the store as practice of lesson 3."""
    from rooms.answers import Answer, new_answer_id

    store = open_answers(class_server.rooms_url)
    before = time.time() - 3 * 86400
    for i in range(3):
        store.record(Answer(answer_id=new_answer_id(), student="Rhea", lesson=0,
                            activity="practice", item=f"abs 99-{i}", kind="abs", terms="-4",
                            given="4", right=True, first_try=True, at=before + i))
    vp = open_page("student-Rhea")
    vp.open(class_server.address + "voila/render/03_hit_me.ipynb")
    page = vp.page
    recheck = page.locator(".icg-recheck")
    assert recheck.count() == 1 and "Re-check" not in recheck.inner_text()  # nobody named
    vp.open(class_server.address + PAGE)  # she names herself once, on the practice page
    page.get_by_label("Your first name:", exact=True).fill("Rhea")
    page.get_by_label("Your first name:", exact=True).press("Tab")
    vp.wait_synced()
    page.get_by_role("button", name="That's me").click()
    page.get_by_text("Answering as Rhea.", exact=False).wait_for(timeout=30_000)
    # the device keeps the name once the kernel's keep widget reached the page (it may come
    # just after the line that says it): then the next page can find it
    page.wait_for_function("() => (localStorage.getItem('icg-student-names') || '')"
                           ".includes('Rhea')", timeout=30_000)
    vp.open(class_server.address + "voila/render/03_hit_me.ipynb")  # her name comes back
    recheck.get_by_text("Re-check: Absolute value").wait_for(timeout=30_000)
    box = recheck.bounding_box()
    assert box is not None and box["y"] < page.locator(".icg-anchor-play").bounding_box()["y"]
    assert "\u2714" in answer(vp, abs(sum(terms(page))))  # |-7| or |+3 + (-8)|
    recheck.get_by_text("Still mastered: well done.").wait_for(timeout=30_000)
    end = time.monotonic() + 30
    while time.monotonic() < end and not [a for a in store.answers() if a.student == "Rhea"]:
        time.sleep(0.2)
    assert [(a.lesson, a.activity, a.item.split()[0], a.first_try, a.right)
            for a in store.answers() if a.student == "Rhea"] == [(3, "practice", "abs", True,
                                                                   True)]
    vp.screenshot("recheck-lesson-3")
    assert vp.problems() == []
