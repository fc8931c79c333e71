"""A student's page in the live class (widgets/together/live.py) against a real store (SQLite
and PostgreSQL): the teacher's pause covers the page and the kernel refuses every click (a
forged one too) until Resume; the exit ticket opens on the pages of its lesson; a removed page
is out, after a reload too, until let back; a page whose name moved is told; the roster's
picker with its code; a typed name waits for approval."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from widget_helpers import errors_raise  # noqa: F401

from rooms.live_class import open_live_class
from widgets import HitMeTable
from widgets.lessons.exit_ticket import ExitTicket
from widgets.lessons.student import NameBar, Student
from widgets.together import live
from widgets.words import set_language


@pytest.fixture(autouse=True)
def no_live_page_left() -> Iterator[None]:
    set_language("en")
    yield
    live.deactivate()


def page(url: str, token_grace: float = 0, **kw: object) -> live.LivePage:
    """A student's page of the class (polled by hand: `poll()`)."""
    return live.activate(open_live_class(url), student=Student(), poll=False,
                         token_grace=token_grace, **kw)


def named(url: str, name: str) -> str:
    """A page whose student typed `name` (in the class); returns the token its device keeps."""
    p = page(url)
    bar = NameBar(1, student=p.student)
    bar.first.value = name
    bar.ok_button.click()
    assert p.page_state == "in" and p.token
    return p.token


def test_pause_covers_the_page_and_the_kernel_refuses_even_a_forged_click(
        rooms_url: str) -> None:
    teacher = open_live_class(rooms_url)
    p = page(rooms_url)
    table = HitMeTable(players=2, seed=7, bot_delay=0)
    assert p.box in table.children  # the table shows the page's cover
    before = table.session.game.to_json()
    teacher.pause()
    p.poll()
    assert "Eyes on the teacher" in p.screen.value
    assert not table.hit_button.disabled  # the page may say it is on: the kernel refuses
    table.hit_button._handle_custom_msg({"event": "click"}, [])  # what a forged click sends
    table.hit_button.click()
    assert table.session.game.to_json() == before
    assert p.refused_clicks == 2
    teacher.resume()
    p.poll()
    assert p.screen.value == ""
    table.hit_button.click()
    assert table.session.game.to_json() != before


def test_pause_holds_the_practice_page_and_a_flapjack_hand(rooms_url: str) -> None:
    """The pause holds every kind of page, not only a Hit Me table: the practice page's Check
    and Next, and a Flapjack card (a room's seat draws the same table)."""
    import json

    from widgets.flapjack.table import FlapjackTable
    from widgets.lessons.practice import SkillPractice

    teacher = open_live_class(rooms_url)
    p = page(rooms_url)
    practice = SkillPractice(skills=["add-2"], seed=4, student=p.student)
    table = FlapjackTable(players=2, seed=8, bot_delay=0)
    card = next(b for b in table.hand_box.children if not b.disabled)
    game = json.dumps(table.state.to_json())
    teacher.pause()
    p.poll()
    practice.answer.value = str(practice.shape.answer)
    practice.check_button.click()
    card.click()
    assert practice.attempts == 0 and practice.number == 1
    assert json.dumps(table.state.to_json()) == game
    assert p.refused_clicks == 2
    teacher.resume()
    p.poll()
    practice.check_button.click()
    card.click()
    assert practice.attempts == 1 and json.dumps(table.state.to_json()) != game


def test_the_exit_ticket_opens_on_every_page_of_its_lesson(rooms_url: str) -> None:
    teacher = open_live_class(rooms_url)
    lesson3 = page(rooms_url)
    HitMeTable(players=2, seed=7, bot_delay=0)  # a table of the page: the ticket shows there
    ticket = ExitTicket(3, student=lesson3.student)
    lesson3.poll()
    assert lesson3.exit_box.layout.display == "none"
    teacher.open_exit_ticket(3)
    lesson3.poll()
    assert lesson3.exit_box.layout.display is None
    assert "Your teacher opened the exit ticket." in lesson3.exit_box.children[0].value
    assert lesson3.exit_box.children[1] is ticket  # the page's own ticket, on top
    other = page(rooms_url)  # a page of lesson 2
    ExitTicket(2, student=other.student)
    other.poll()
    assert other.exit_box.layout.display == "none"
    teacher.open_exit_ticket(None)
    lesson3.poll()
    assert lesson3.exit_box.layout.display == "none"


def test_a_lesson_page_without_a_table_shows_the_cover_and_the_ticket_on_top(
        rooms_url: str) -> None:
    """Lesson 2 (no table): the re-check at the top of the page shows the cover and the exit
    ticket the teacher opens; a piece further down shows the cover only (one ticket a page).
    Lesson 1: the card explorer shows them."""
    from widgets.lessons.explorer import CardExplorer
    from widgets.lessons.practice import Recheck

    teacher = open_live_class(rooms_url)
    lesson2 = page(rooms_url)
    recheck = Recheck(2, student=lesson2.student)
    later = HitMeTable(players=2, seed=7, bot_delay=0)
    ticket = ExitTicket(2, student=lesson2.student)
    assert lesson2.box in recheck.children and lesson2.exit_box in recheck.children
    assert lesson2.box in later.children and lesson2.exit_box not in later.children
    teacher.open_exit_ticket(2)
    lesson2.poll()
    assert lesson2.exit_box.layout.display is None and lesson2.exit_box.children[1] is ticket
    teacher.pause()
    lesson2.poll()
    assert "Eyes on the teacher" in lesson2.screen.value
    live.deactivate()
    teacher.resume()
    lesson1 = page(rooms_url)
    explorer = CardExplorer()
    assert lesson1.box in explorer.children and lesson1.exit_box in explorer.children


def test_a_typed_name_waits_for_approval_and_is_gated_meanwhile(rooms_url: str) -> None:
    teacher = open_live_class(rooms_url)
    teacher.set_options(approve=True)
    p = page(rooms_url)
    bar = NameBar(1, student=p.student)
    table = HitMeTable(players=2, seed=7, bot_delay=0)
    bar.first.value = "Ben"
    bar.ok_button.click()
    assert p.page_state == "waiting"
    assert "Waiting for your teacher" in p.screen.value
    before = table.session.game.to_json()
    table.hit_button.click()
    assert table.session.game.to_json() == before
    teacher.approve("Ben")
    p.poll()
    assert p.page_state == "in" and p.screen.value == ""
    table.hit_button.click()
    assert table.session.game.to_json() != before


def test_a_removed_page_stays_out_after_a_reload_until_let_back(rooms_url: str) -> None:
    teacher = open_live_class(rooms_url)
    p = page(rooms_url)
    bar = NameBar(1, student=p.student)
    bar.first.value = "Ana"
    bar.ok_button.click()
    assert p.page_state == "in"
    kept = p.keep.value  # what the device keeps (static/live-page.js)
    token = p.token
    assert token and token in kept
    teacher.remove("Ana")
    p.poll()
    assert "You are out of the class" in p.screen.value
    # the reload: a new kernel, the device types its token back
    again = page(rooms_url)
    table = HitMeTable(players=2, seed=7, bot_delay=0)
    again.recall.value = token
    assert again.page_state == "removed"
    before = table.session.game.to_json()
    table.hit_button.click()
    assert table.session.game.to_json() == before
    # a fresh device typing the name is out too
    fresh = page(rooms_url)
    fresh_bar = NameBar(1, student=fresh.student)
    fresh_bar.first.value = "Ana"
    fresh_bar.ok_button.click()
    assert "removed this name" in fresh.screen.value
    teacher.let_back("Ana")
    live.PAGE = again  # the reloaded page's poll
    again.poll()
    assert again.page_state == "in" and again.screen.value == ""


def test_the_roster_picker_with_codes_and_the_old_page_told_it_moved(rooms_url: str) -> None:
    teacher = open_live_class(rooms_url)
    teacher.set_roster(["Ana", "Ben"])
    teacher.set_options(confirm=True)
    codes = {r.name: r.code for r in teacher.roster()}
    tablet = page(rooms_url)
    bar = NameBar(1, student=tablet.student)
    picker = live.name_picker()
    assert picker is not None and picker in bar.children
    assert bar.entry.layout.display == "none"  # no typing: the list
    assert [v for _label, v in picker.choice.options] == ["", "Ana", "Ben"]
    assert picker.code.layout.display is None
    picker.choice.value = "Ana"
    picker.code.value = "WRONG"
    assert not picker.pick()
    assert "not your code" in picker.message.value
    picker.choice.value = "Ana"
    picker.code.value = codes["Ana"]
    assert picker.pick()
    assert tablet.student.names == ("Ana",)
    teacher.note_seat(tablet.token, "KM7Q4X", 0)
    phone = page(rooms_url)
    NameBar(1, student=phone.student)
    phone_picker = live.name_picker()
    phone_picker.choice.value = "Ana"
    phone_picker.code.value = codes["Ana"]
    assert phone_picker.pick()
    assert phone.page_state == "in" and phone.student.names == ("Ana",)
    assert teacher.seat_of(phone.token) == ("KM7Q4X", 0)
    tablet.poll()
    assert "moved to another device" in tablet.screen.value


def test_a_student_on_another_device_finds_their_seat_hand_and_answers(rooms_url: str) -> None:
    from engine.hit_me import HitMeConfig, HitMeGame
    from rooms import NotAllowed, open_store
    from rooms.answers import Answer, new_answer_id, open_answers
    from widgets.together.lobby import PlayTogether

    rooms = open_store(rooms_url)
    host = rooms.create_room(HitMeGame(HitMeConfig(players=2), seed=3),
                             fill_bot={"bot": "careful"})
    teacher = open_live_class(rooms_url)
    teacher.set_roster(["Ana", "Ben"])
    teacher.set_options(confirm=True)
    code = teacher.roster()[0].code
    # the tablet: Ana picks her name, sits at the table, answers once
    tablet = page(rooms_url)
    tablet_lobby = PlayTogether(store=rooms, schedule=lambda _d, _fn: None)
    assert live.name_picker() in tablet_lobby.children
    assert tablet.pick("Ana", code)
    seat = rooms.join(host.code, "Ana")
    tablet_lobby._sit(seat, None)
    assert teacher.seat_of(tablet.token) == (host.code, seat.seat)
    rooms.start(host.code, host.secret)
    open_answers(rooms_url).record(Answer(new_answer_id(), "Ana", 3, "exit-ticket", "1",
                                          "sum", "3,-8", "-5", True, True, time.time()))
    tablet_lobby.session.reload()
    hand = tablet_lobby.session.observation()
    # the tablet drops; on the phone Ana picks her name on the Play together page
    phone = page(rooms_url)
    phone_lobby = PlayTogether(store=rooms, schedule=lambda _d, _fn: None)
    picker = live.name_picker()
    picker.choice.value = "Ana"
    picker.code.value = code
    assert picker.pick()
    assert phone_lobby.session is not None and phone_lobby.session.seat == seat.seat
    assert phone_lobby.session.observation() == hand  # the same hand, seen from the seat
    assert "your 1 answer of today is kept (1 right)" in phone.screen.value
    with pytest.raises(NotAllowed):
        rooms.touch(host.code, seat.seat, seat.secret)  # the tablet's seat secret is dead
    tablet.poll()
    assert "moved to another device" in tablet.screen.value


def test_enter_in_an_answer_box_is_refused_while_paused(rooms_url: str) -> None:
    from widgets.table.components import AnswerEntry

    teacher = open_live_class(rooms_url)
    p = page(rooms_url)
    checked: list[dict] = []
    entry = AnswerEntry([("sum", "Sum")], on_check=checked.append)
    entry.boxes["sum"].value = "-5"
    teacher.pause()
    p.poll()
    entry.boxes["sum"]._handle_custom_msg({"event": "submit"}, [])  # Enter, as the page sends
    assert checked == []
    teacher.resume()
    p.poll()
    entry.boxes["sum"]._handle_custom_msg({"event": "submit"}, [])
    assert checked == [{"sum": -5}]


def test_enter_in_an_exit_ticket_or_practice_box_is_refused_while_paused(
        rooms_url: str) -> None:
    """Their boxes check on Enter without a click (check_on_enter): the pause holds them too."""
    from widgets.lessons.practice import SkillPractice

    teacher = open_live_class(rooms_url)
    p = page(rooms_url)
    ticket = ExitTicket(lesson=1, student=p.student)
    ticket.start()
    assert not ticket.items[0].choices  # its first question is typed
    practice = SkillPractice(("abs",), student=p.student)
    for box, answer in ((ticket.entry, str(ticket.items[0].answer)), (practice.answer, "3")):
        box.value = answer
    teacher.pause()
    p.poll()
    for box in (ticket.entry, practice.answer):
        box._handle_custom_msg({"event": "submit"}, [])  # Enter, as the page sends
    assert ticket.marks == [] and practice.firsts == []
    assert p.refused_clicks == 2
    teacher.resume()
    p.poll()
    ticket.entry._handle_custom_msg({"event": "submit"}, [])
    assert ticket.marks == [True]


def test_a_reloaded_page_whose_token_comes_late_gets_its_name_back(rooms_url: str) -> None:
    teacher = open_live_class(rooms_url)
    token = named(rooms_url, "Ana")
    # the reload: the remembered name arrives first and the page asks for it (waiting: the
    # name is held), then the device's token arrives
    again = page(rooms_url)
    again.student.set_names(("Ana",))
    again.poll()
    assert again.page_state == "waiting"
    again.recall.value = token
    assert again.page_state == "in" and again.token == token
    assert [p.state for p in teacher.pages()] == ["in"]  # the request was dropped
    # the device keeps the token in use again (not the dropped request's)
    assert token in again.keep.value


def test_a_named_page_waits_for_its_device_to_say_which_token_it_kept(
        rooms_url: str) -> None:
    """A reloaded page knows its student's name before its device's script has typed the kept
    token: it takes no name meanwhile (however slow the device), and gets its own back; a
    device that keeps none says so, and the name is taken at once."""
    teacher = open_live_class(rooms_url)
    token = named(rooms_url, "Ana")
    again = page(rooms_url, token_grace=3600)
    again.student.set_names(("Ana",))
    again.poll()
    assert again.page_state is None and again.token is None  # no request, no cover
    assert "Waiting" not in again.screen.value
    again.recall.value = token
    assert again.page_state == "in" and again.token == token
    assert [(p.name, p.state) for p in teacher.pages()] == [("Ana", "in")]
    live.deactivate()
    fresh = page(rooms_url, token_grace=3600)
    fresh.student.set_names(("Ben",))
    assert fresh.page_state is None
    fresh.recall.value = live.NO_TOKEN
    assert fresh.page_state == "in" and fresh.name == "Ben" and fresh.token
    assert sorted(p.name for p in teacher.pages()) == ["Ana", "Ben"]


def test_picking_name_after_name_is_capped_before_the_class_is_asked(rooms_url: str) -> None:
    """A page that picks one class-list name after another (the name flood, by the picker):
    each pick that changes the page's name counts against the page's cap before the class's
    store is asked; past the cap the page is told, the store is not written, and the page's
    name stays the one the class holds for it."""
    from rooms import caps

    teacher = open_live_class(rooms_url)
    letters = "abcdefghjkmnpqrstuvwxyz"  # the class reads i, l, 1 and o, 0 alike
    roster = [f"Kid{letters[i // 23]}{letters[i % 23]}"
              for i in range(caps.PAGE_CAPS["name"] + 5)]
    teacher.set_roster(roster)
    p = page(rooms_url)
    for name in roster[:caps.PAGE_CAPS["name"]]:
        assert p.pick(name) is True and p.student.names == (name,)
    version = teacher.version()
    held = p.student.names
    for name in roster[caps.PAGE_CAPS["name"]:]:
        assert p.pick(name) is False
        assert "Too many name changes" in p.refusal
    assert teacher.version() == version  # nothing written past the cap
    assert p.student.names == held and p.name == held[0]
    assert [(i.name, i.state) for i in teacher.pages() if i.state == "in"] == [(held[0], "in")]


def page_sends(widget: Any, **state: Any) -> None:
    """An `update` message from the page for `widget`, as its comm delivers it to the kernel
    (a box's value typed, a choice made, a slider slid, a toggle pressed)."""
    widget.comm.handle_msg({"content": {"data": {"method": "update", "state": state,
                                                 "buffer_paths": []}}, "buffers": []})


def answers_stored(url: str, student: Student) -> list[tuple[str, str]]:
    from rooms.answers import day_of, open_answers

    assert student.outbox.flush() == 0
    return [(a.student, a.item) for a in open_answers(url).answers(day_of(time.time()))]


def answering_page(url: str) -> live.LivePage:
    """A page whose student's answers go to the class's store at `url`, with one answer given
    before the student names themselves."""
    from engine.questions import Question
    from rooms.answers import Outbox, open_answers

    p = page(url)
    p.student.outbox = Outbox(lambda: open_answers(url), thread=False)
    p.student.record(question=Question("sum", (6, -9), 3, "hit-me 1 1 sum"), activity="check",
                     given="+3", right=False, first_try=True, mistake="sign-of-closer")
    return p


def test_a_typed_name_is_not_the_pages_until_the_teacher_lets_it_in(rooms_url: str) -> None:
    """Approval on: the typed name waits for the teacher; nothing is recorded under it and the
    page does not answer as it; once let in, the answers given before go with it."""
    teacher = open_live_class(rooms_url)
    teacher.set_options(approve=True)
    p = answering_page(rooms_url)
    bar = NameBar(1, student=p.student)
    bar.first.value = "Ben"
    bar.ok_button.click()
    assert p.page_state == "waiting"
    assert p.student.names == () and p.student.pending == ("Ben",)
    assert "Answering as" not in bar.line.value
    assert "Waiting for your teacher to let you in as Ben" in bar.line.value
    assert "Ben" not in bar.keep.value  # the device keeps no name the class has not let in
    assert answers_stored(rooms_url, p.student) == []
    assert len(p.student.waiting) == 1  # kept on the page
    # while waiting, only the name's own controls take what the page sends
    page_sends(bar.first, value="Bo")
    assert bar.first.value == "Bo"
    teacher.approve("Ben")
    p.poll()
    assert p.student.names == ("Ben",) and p.student.pending == ()
    assert "Answering as Ben" in bar.line.value and "Ben" in bar.keep.value
    assert answers_stored(rooms_url, p.student) == [("Ben", "hit-me 1 1 sum")]


def test_a_refused_name_is_never_used(rooms_url: str) -> None:
    """The teacher refuses the typed name: the page is told, nothing was ever recorded under
    it, and the answers given before go with the name the teacher lets in."""
    teacher = open_live_class(rooms_url)
    teacher.set_options(approve=True)
    p = answering_page(rooms_url)
    bar = NameBar(1, student=p.student)
    bar.first.value = "Cy"
    bar.ok_button.click()
    teacher.refuse("Cy")
    p.poll()
    assert p.student.names == () and p.student.pending == ()
    assert "did not let in the name Cy" in p.screen.value
    assert "Answering as" not in bar.line.value and bar.entry.layout.display is None
    assert p.refuses(HitMeTable(players=2, seed=7, bot_delay=0).hit_button)  # name first
    bar.first.value = "Dee"
    bar.ok_button.click()
    assert p.student.pending == ("Dee",)
    teacher.approve("Dee")
    p.poll()
    assert p.student.names == ("Dee",)
    assert answers_stored(rooms_url, p.student) == [("Dee", "hit-me 1 1 sum")]


def test_a_locked_class_or_a_roster_decides_before_the_name_is_set(rooms_url: str) -> None:
    from widgets.lessons.student import keep_value, today

    teacher = open_live_class(rooms_url)
    teacher.set_options(locked=True, late_join=True)
    late = page(rooms_url)
    late_bar = NameBar(1, student=late.student)
    late_bar.first.value = "Eve"
    late_bar.ok_button.click()
    assert late.page_state == "waiting" and late.student.names == ()
    live.deactivate()
    teacher.set_options(late_join=False)
    shut = page(rooms_url)
    shut_bar = NameBar(1, student=shut.student)
    shut_bar.first.value = "Fay"
    assert shut_bar.name_me() is False
    assert "The class is locked" in shut_bar.message.value
    assert shut.student.names == () and shut.student.pending == ()
    assert shut_bar.first.value == "Fay"  # kept: the student may try again
    live.deactivate()
    teacher.set_options(locked=False)
    teacher.set_roster(["Ana"])
    listed = page(rooms_url)
    listed_bar = NameBar(1, student=listed.student)
    listed_bar.recall.value = keep_value(("Zed",), today())  # a name the device remembered
    assert listed.student.names == () and "not on the class list" in listed.screen.value


def test_while_paused_no_value_the_page_sends_reaches_the_lesson(rooms_url: str) -> None:
    """A text box, a choice, a toggle, a slider: each `update` the page sends while the class
    is paused sets nothing and runs no handler, and the page gets the kernel's value back; the
    boxes the page's device types its kept token and name into still work. After Resume the
    same messages act."""
    import ipywidgets as widgets

    from widgets.lessons.explorer import CardExplorer
    from widgets.lessons.practice import SkillPractice
    from widgets.lessons.student import keep_value, today

    teacher = open_live_class(rooms_url)
    p = page(rooms_url, token_grace=3600)
    bar = NameBar(1, student=p.student)
    explorer = CardExplorer(take_away=True)
    practice = SkillPractice(skills=["add-2"], seed=4, student=p.student)
    table = HitMeTable(players=2, seed=7, bot_delay=0)
    table.settings_toggle.value = True  # the settings panel: its choices
    colors = table.settings.fields["colors"][0]
    slider = widgets.IntSlider(min=0, max=10)  # a lesson's own widget, with its own handler
    slid: list[int] = []
    slider.observe(lambda ch: slid.append(ch["new"]), names="value")
    sent: list[dict] = []
    slider._send = lambda msg, buffers=None: sent.append(msg)  # what goes back to the page
    teacher.pause()
    p.poll()
    sends = [(explorer.color_toggle, {"index": 1}), (explorer.mode_toggle, {"index": 1}),
             (practice.answer, {"value": "7"}), (table.large_print_toggle, {"value": True}),
             (colors, {"index": 1}), (slider, {"value": 7})]
    for widget, state in sends:
        page_sends(widget, **state)
    assert explorer.colors.value == "black-positive" and explorer.mode == "add"
    assert practice.answer.value == "" and table.large_print_toggle.value is False
    assert colors.index == 0 and slider.value == 0 and slid == []
    assert p.refused_changes == len(sends)
    assert {"method": "update", "state": {"value": 0}, "buffer_paths": []} in sent
    # what the page needs under the cover: the device's token and remembered name
    page_sends(p.recall, value=live.NO_TOKEN)
    page_sends(bar.recall, value=keep_value(("Ana",), today()))
    assert p.student.names == ("Ana",) and p.page_state == "in"
    assert "Eyes on the teacher" in p.screen.value
    teacher.resume()
    p.poll()
    for widget, state in sends:
        page_sends(widget, **state)
    assert explorer.colors.value == "red-positive" and explorer.mode == "take"
    assert practice.answer.value == "7" and table.large_print_toggle.value is True
    assert colors.index == 1 and slider.value == 7 and slid == [7]
    assert p.refused_changes == len(sends)


def test_a_page_without_a_name_is_listed_and_stays_out_after_a_reload(rooms_url: str) -> None:
    from widgets.lessons.practice import Recheck

    teacher = open_live_class(rooms_url)
    p = page(rooms_url, token_grace=3600)
    Recheck(2, student=p.student)  # the top of lesson 2's page
    assert teacher.pages() == []  # the device has not said which token it kept
    p.recall.value = live.NO_TOKEN  # it keeps none: the page is listed
    [info] = teacher.pages()
    assert (info.name, info.state, info.lesson) == ("", "open", 2)
    token = p.token
    assert token and token in p.keep.value  # the device keeps it
    assert teacher.remove_page(info.page)
    p.poll()
    assert "You are out of the class" in p.screen.value
    # the reload: a new kernel, the device types its token back
    again = page(rooms_url, token_grace=3600)
    table = HitMeTable(players=2, seed=7, bot_delay=0)
    bar = NameBar(2, student=again.student)
    again.recall.value = token
    assert again.page_state == "removed" and "You are out of the class" in again.screen.value
    before = table.session.game.to_json()
    table.hit_button.click()
    assert table.session.game.to_json() == before
    bar.first.value = "Ana"
    assert bar.name_me() is False and again.student.names == ()
    assert [(i.name, i.state) for i in teacher.pages()] == [("", "removed")]
    assert teacher.let_back_page(info.page)
    again.poll()
    assert again.page_state == "open" and again.screen.value == ""
    assert bar.name_me() is True and again.student.names == ("Ana",)
    assert [(i.name, i.state) for i in teacher.pages()] == [("Ana", "in")]


def test_a_page_closed_before_it_had_a_name_leaves_the_list(rooms_url: str) -> None:
    """When a page's kernel stops (its tab closed: the server shuts the kernel down), a page
    without a name, or one waiting for the teacher, leaves the teacher's list; a page that
    holds its name or was removed stays (a reload brings it back). Checked in a kernel of its
    own that ends as a culled kernel does (a normal exit)."""
    import subprocess
    import sys
    import textwrap

    teacher = open_live_class(rooms_url)
    script = textwrap.dedent(f"""
        from rooms.live_class import open_live_class
        from widgets.lessons.student import Student
        from widgets.together import live
        p = live.activate(open_live_class({rooms_url!r}), student=Student(), poll=False,
                          token_grace=3600)
        p.recall.value = live.NO_TOKEN  # the device keeps no token: the page is listed
        assert p.page_state == "open", p.page_state
        assert [i.state for i in open_live_class({rooms_url!r}).pages()] == ["open"]
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=str(Path(__file__).resolve().parents[1]))
    assert done.returncode == 0, done.stderr
    assert teacher.pages() == []  # listed while it ran, gone with its kernel
    # a named page stays; a removed nameless page stays removed
    ana = named(rooms_url, "Ana")
    assert ana
    p = page(rooms_url, token_grace=3600)
    p.recall.value = live.NO_TOKEN
    [_ana, open_] = teacher.pages()
    assert open_.state == "open"
    teacher.remove_page(open_.page)
    p.poll()
    live.kernel_ends()
    assert [(i.name, i.state) for i in teacher.pages()] == [("Ana", "in"), ("", "removed")]
