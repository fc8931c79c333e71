"""The teacher's live-class controls on the class view (widgets/together/live_controls.py),
driven by their own widgets against a real store, and the class view's projector mode: no
name (and no confirmation code) in any panel."""

from __future__ import annotations

import re
import time
from typing import Any

from widget_helpers import errors_raise, synced_text  # noqa: F401

from engine.hit_me import HitMeConfig, HitMeGame
from rooms import open_store
from rooms.answers import Answer, new_answer_id, open_answers
from rooms.live_class import open_live_class
from widgets.together.class_view import ClassView
from widgets.together.live_controls import LiveControls
from widgets.words import speaking

NAMES = ["Amelia", "Bartholomew", "Cordelia", "Desmond"]


def test_every_control_changes_the_class(rooms_url: str) -> None:
    panel = LiveControls(url=rooms_url)
    live = open_live_class(rooms_url)
    panel.lesson_choice.value = 3
    panel.class_size.value = 28
    panel.lesson_button.click()
    assert (live.state().lesson, live.state().class_size, live.state().lang) == (3, 28, "")
    assert "ready for 28 students" in panel.status.value
    live.report_pool(18, 28)  # the server: only 18 kernels fit in the memory free
    panel.poll()
    assert "ready for 18 of 28 students" in panel.status.value
    with speaking("es"):  # the Spanish class view: the Spanish lesson's pages are kept ready
        panel.lesson_button.click()
    assert live.state().lang == "es"
    panel.lesson_button.click()
    assert live.state().lang == ""
    assert panel.resume_button.disabled
    panel.pause_button.click()
    assert live.state().paused and "PAUSED" in panel.status.value
    panel.resume_button.click()
    assert not live.state().paused
    panel.exit_button.click()
    assert live.state().exit_ticket == 3
    panel.exit_close_button.click()
    assert live.state().exit_ticket is None
    for name in ("locked", "approve", "confirm"):
        panel.toggles[name].value = True
        assert getattr(live.state(), name) is True
    panel.toggles["late_join"].value = False
    assert live.state().late_join is False
    # another teacher's page changed it: the next poll redraws this one
    live.set_options(locked=False)
    assert panel.poll() is True and panel.toggles["locked"].value is False


def test_a_class_list_pasted_or_uploaded(rooms_url: str) -> None:
    panel = LiveControls(url=rooms_url)
    panel.roster_text.value = "Ana\nBen\nAna\n"
    panel.roster_button.click()
    assert [r.name for r in panel.store.roster()] == ["Ana", "Ben"]
    assert "2 names" in panel.message.value and "Ana" in panel.message.value
    csv_file = (b"Last Name,First Name,Email Address\r\nMora,Cy,c@school\r\n"
                b"Kim,Dee,d@school\r\n")
    panel.upload.set_state({"value": [{  # what the page sends for a chosen file
        "name": "class.csv", "type": "text/csv", "size": len(csv_file),
        "content": memoryview(csv_file), "last_modified": 0}]})
    assert [r.name for r in panel.store.roster()] == ["Cy", "Dee"]
    panel.roster_text.value = "Computer 3\n"
    assert panel.use_roster() is False
    assert [r.name for r in panel.store.roster()] == ["Cy", "Dee"]  # nothing lost


def test_pages_let_in_removed_let_back_and_freed(rooms_url: str) -> None:
    panel = LiveControls(url=rooms_url)
    live = open_live_class(rooms_url)
    live.set_options(approve=True)
    ben = live.pick("Ben")
    panel.poll()
    assert "waiting for you" in panel.pages_table.value
    panel.name_choice.value = "Ben"
    assert not panel.page_buttons["approve"].disabled
    panel.page_buttons["approve"].click()
    assert live.page(ben.token) == ("in", "Ben")
    panel.page_buttons["remove"].click()
    assert live.page(ben.token)[0] == "removed"
    panel.page_buttons["let_back"].click()
    assert live.page(ben.token)[0] == "in"
    panel.page_buttons["free"].click()
    assert live.page(ben.token)[0] == "freed"


def test_projector_mode_hides_every_name_in_every_panel(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(HitMeGame(HitMeConfig(players=3), seed=4),
                             fill_bot={"bot": "careful"})
    seats = [store.join(host.code, n) for n in NAMES[:2]]
    store.start(host.code, host.secret)
    store.record_check(host.code, seats[0].seat, seats[0].secret, 0, False, 1, "abs")
    open_answers(rooms_url).record(Answer(new_answer_id(), NAMES[2], 3, "exit-ticket", "1",
                                          "sum", "3,-8", "+5", False, True, time.time(),
                                          "sign-of-closer"))
    live = open_live_class(rooms_url)
    live.set_roster(NAMES)
    live.set_options(confirm=True)
    live.pick(NAMES[3], code=live.roster()[3].code)
    codes = [r.code for r in live.roster()]
    view = ClassView(store, poll=False)
    try:
        shown = synced_text(view)
        assert all(n in shown for n in NAMES)  # positive control: names are there
        assert all(c in shown for c in codes)
        view.answers_panel.hide_names.value = True  # projector mode
        shown = synced_text(view)
        for text in NAMES + codes:
            assert text not in shown, f"{text!r} on the projector"
        assert "seat 1" in view.table.value and "student 1" in view.checks.value
        view.live.use_roster("\n".join([*NAMES, NAMES[0], "Quentin!!"]))
        shown = synced_text(view)
        assert "2 lines were not taken" in shown and "Quentin" not in shown
        for text in NAMES:
            assert text not in shown, f"{text!r} on the projector"
        view.answers_panel.hide_names.value = False
        view.live.use_roster("\n".join([*NAMES, "Quentin!!"]))
        assert "Quentin!!" in synced_text(view)  # the teacher's own screen says which
        view.answers_panel.hide_names.value = True
        assert "Quentin" not in synced_text(view)
        view.answers_panel.hide_names.value = False
        assert NAMES[0] in synced_text(view)
    finally:
        view.stop()


def _student_page_text(page: Any) -> str:
    return synced_text(page.box) + synced_text(page.picker)


def test_a_student_page_reads_no_code_and_no_other_page(rooms_url: str) -> None:
    from widgets.lessons.student import NameBar, Student
    from widgets.together import live as live_page

    live = open_live_class(rooms_url)
    live.set_roster(NAMES)
    live.set_options(confirm=True)
    other = live.pick(NAMES[1], code=live.roster()[1].code)
    page = live_page.activate(open_live_class(rooms_url), student=Student(), poll=False,
                              token_grace=0)
    try:
        NameBar(1, student=page.student)
        text = _student_page_text(page)
        assert NAMES[0] in text  # the list to pick from
        for r in live.roster():
            assert r.code not in text
        assert other.token not in text
        # the page's own objects offer no teacher change: LivePage has no such method
        for name in ("pause", "resume", "remove", "let_back", "free", "approve",
                     "set_roster", "set_options", "open_exit_ticket", "set_lesson"):
            assert not hasattr(page, name)
    finally:
        live_page.deactivate()


def test_a_page_without_a_name_is_listed_and_removed(rooms_url: str) -> None:
    """The teacher's list shows a page that has not named itself (its lesson, when it opened),
    Remove and Let back work on it, and projector mode still hides every name."""
    live = open_live_class(rooms_url)
    opened = time.time()
    token = live.open_page(2, now=opened)
    live.pick("Amelia")
    panel = LiveControls(url=rooms_url, lessons=[("2. Two", 2)])
    label = "page without a name, lesson 2, opened " + time.strftime(
        "%H:%M", time.localtime(opened))
    assert label in panel.pages_table.value and "Amelia" in panel.pages_table.value
    assert "1 page without a name" in panel.status.value
    choices = dict(panel.name_choice.options)
    panel.name_choice.value = choices[label]
    assert not panel.page_buttons["remove"].disabled
    assert all(panel.page_buttons[k].disabled for k in ("approve", "refuse", "free",
                                                         "let_back"))
    panel.page_buttons["remove"].click()
    assert live.page(token) == ("removed", None)
    assert "That page is out of the class until you let it back." in panel.message.value
    assert panel.page_buttons["remove"].disabled and not panel.page_buttons["let_back"].disabled
    panel.page_buttons["let_back"].click()
    assert live.page(token) == ("open", None)
    panel.set_hide_names(True)  # projector mode: the page's words name nobody
    shown = synced_text(panel)
    assert label in shown and "Amelia" not in shown
    panel.set_hide_names(False)
    live.pick("Bartholomew", token=token)  # it named itself meanwhile: nothing is changed
    panel.name_choice.value = choices[label]
    assert panel.remove() is False
    assert "has a name now" in panel.message.value
    assert live.page(token) == ("in", "Bartholomew")


def _numbers_by_row(table_html: str, words: str) -> list[str]:
    """The "student N" of each row of a drawn table whose page column is `words`."""
    return re.findall(rf"<td>(student \d+)</td><td>{re.escape(words)}</td>", table_html)


def test_projector_mode_gives_a_student_one_number_everywhere(rooms_url: str) -> None:
    """In projector mode a student has the same number in the class list, in the list of
    pages (where a name can have two rows: a page in and one asking to move) and in the
    student chooser: the teacher chooses the number the tables show and acts on that
    student."""
    live = open_live_class(rooms_url)
    live.set_roster(["Desmond", "Amelia", "Bartholomew"])  # the school's order, not A to Z
    for name in ("Amelia", "Bartholomew", "Desmond"):
        live.pick(name)
    live.pick("Amelia")  # Amelia on another device: waits for the teacher
    panel = LiveControls(url=rooms_url, lessons=[])
    panel.set_hide_names(True)
    moving = _numbers_by_row(panel.pages_table.value, "wants to move to another device")
    assert len(moving) == 1
    chooser = dict(panel.name_choice.options)
    assert chooser[moving[0]] == "Amelia"
    roster_rows = _numbers_by_row(panel.roster_table.value, "in the class")
    assert [chooser[n] for n in roster_rows] == ["Desmond", "Amelia", "Bartholomew"]
    in_rows = _numbers_by_row(panel.pages_table.value, "in the class")
    assert sorted(in_rows) == sorted(roster_rows)
    panel.name_choice.value = chooser[moving[0]]
    assert not panel.page_buttons["approve"].disabled
    panel.page_buttons["approve"].click()
    assert {p.name for p in live.pages() if p.state == "in"} == {"Amelia", "Bartholomew",
                                                                 "Desmond"}
    assert "Amelia" not in synced_text(panel)


def test_a_lesson_and_size_being_chosen_stay_while_pages_open(rooms_url: str) -> None:
    """The teacher chooses today's lesson and types the class size while the students' pages
    open (each one a change of the class): the redraws keep what the teacher chose until the
    button; a lesson or size set on another teacher's page is drawn."""
    panel = LiveControls(url=rooms_url, lessons=[("2. Two", 2), ("3. Three", 3)])
    live = open_live_class(rooms_url)
    live.set_lesson(2, 20)
    assert panel.poll() is True
    assert (panel.lesson_choice.value, panel.class_size.value) == (2, 20)
    panel.lesson_choice.value = 3
    panel.class_size.value = 12
    live.open_page(3)  # a student's page opens
    live.pick("Amelia")
    assert panel.poll() is True  # redrawn: the page is listed
    assert (panel.lesson_choice.value, panel.class_size.value) == (3, 12)
    panel.lesson_button.click()
    assert (live.state().lesson, live.state().class_size) == (3, 12)
    live.set_lesson(2, 25)  # another teacher's page
    panel.poll()
    assert (panel.lesson_choice.value, panel.class_size.value) == (2, 25)
