"""The live class's store (rooms/live_class.py), on SQLite and on a real PostgreSQL: today's
lesson, pause, the exit ticket, lock and late joiners, the roster and its codes, one page a
name, approval, moving to another device, remove and let back."""

from __future__ import annotations

import pytest

from rooms.live_class import (
    LiveRefused,
    open_live_class,
    read_class_list,
)


def test_settings_are_shared_and_each_change_bumps_the_version(rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    other = open_live_class(rooms_url)  # another kernel
    v = live.version()
    live.set_lesson(3, class_size=28)
    live.pause()
    live.open_exit_ticket(3)
    s = other.state()
    assert (s.lesson, s.class_size, s.paused, s.exit_ticket) == (3, 28, True, 3)
    assert s.version == v + 3
    other.resume()
    assert live.state().paused is False
    for bad in ({"lesson": 0}, {"lesson": "3"}, {"lesson": 3, "class_size": 61},
                {"lesson": 3, "class_size": True}):
        with pytest.raises(LiveRefused):
            live.set_lesson(**bad)
    assert live.state().class_size == 28


def test_class_lists_one_a_line_and_google_classroom_csv() -> None:
    assert read_class_list("Ana\n\n ben \nAna\nComputer 3\n") == (["Ana", "ben"],
                                                                   ["Ana", "Computer 3"])
    text = ("\ufeffLast Name,First Name,Email Address\nMora,Ana,a@school\nLopez,Ana,b@school\n"
            "Kim,Ben,c@school\n")
    assert read_class_list(text) == (["Ana M.", "Ana L.", "Ben"], [])
    assert read_class_list("Nombre;Apellido\nLuz;Rey\n") == (["Luz"], [])


def test_a_roster_name_is_picked_by_one_page_and_look_alikes_are_that_name(
        rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    live.set_roster(["Ana", "Ben"])
    with pytest.raises(LiveRefused) as e:
        live.pick("Zoe")
    assert e.value.code == "not-on-roster"
    ana = live.pick("\u0410na")  # a Cyrillic A: Ana's name, spelt as the roster spells it
    assert (ana.state, ana.name) == ("in", "Ana")
    assert live.page(ana.token) == ("in", "Ana")
    # the same page again (a reload with its token): still in, same token
    assert live.pick("Ana", token=ana.token) == ana
    # another device: waits for the teacher, the first page keeps the name
    other = live.pick("ana")
    assert other.state == "waiting"
    assert live.page(ana.token) == ("in", "Ana")
    [moving] = [p for p in live.pages() if p.state == "waiting"]
    assert moving.moving
    live.refuse("Ana")
    assert live.page(other.token)[0] == "freed"
    assert [r.state for r in live.roster()] == ["in", ""]


def test_confirmation_codes_and_their_wait(rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    [ana, _ben] = live.set_roster(["Ana", "Ben"])
    live.set_options(confirm=True)
    for _ in range(2):
        with pytest.raises(LiveRefused) as e:
            live.pick("Ana", code="ZZZZ")
        assert e.value.code == "wrong-code"
    with pytest.raises(LiveRefused):
        live.pick("Ana", code="ZZZZ")  # the third miss: the next try waits
    with pytest.raises(LiveRefused) as e:
        live.pick("Ana", code=ana.code)
    assert e.value.code == "code-wait"
    live2 = open_live_class(rooms_url)
    live2.set_roster(["Ana", "Ben"])  # a new list: new codes, tries counted afresh
    code = {r.name: r.code for r in live2.roster()}["Ana"]
    got = live.pick("Ana", code=code.lower())
    assert got.state == "in"


def test_moving_to_another_device_with_the_code_takes_the_seat_and_tells_the_old_page(
        rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    live.set_roster(["Ana"])
    live.set_options(confirm=True)
    code = live.roster()[0].code
    tablet = live.pick("Ana", code=code)
    assert live.note_seat(tablet.token, "KM7Q4X", 2)
    phone = live.pick("Ana", code=code)
    assert phone.state == "in" and phone.token != tablet.token
    assert live.page(tablet.token) == ("moved", "Ana")
    assert live.seat_of(phone.token) == ("KM7Q4X", 2)
    assert live.seat_of(tablet.token) is None
    assert not live.note_seat(tablet.token, "ZZZZZZ", 0)  # the old page holds nothing now


def test_a_move_without_codes_waits_for_the_teacher(rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    tablet = live.pick("Ana")  # no roster: a typed name
    live.note_seat(tablet.token, "KM7Q4X", 1)
    phone = live.pick("Ana")
    assert phone.state == "waiting"
    assert live.approve("Ana")
    assert live.page(phone.token) == ("in", "Ana")
    assert live.page(tablet.token) == ("moved", "Ana")
    assert live.seat_of(phone.token) == ("KM7Q4X", 1)


def test_approval_of_typed_names(rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    live.set_options(approve=True)
    ben = live.pick("Ben")
    assert ben.state == "waiting"
    assert live.approve("ben")
    assert live.page(ben.token) == ("in", "Ben")
    assert not live.approve("Zoe")


def test_lock_and_late_joiners(rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    ana = live.pick("Ana")
    live.set_options(locked=True, late_join=False)
    with pytest.raises(LiveRefused) as e:
        live.pick("Ben")
    assert e.value.code == "locked"
    assert live.pick("Ana", token=ana.token).state == "in"  # a page already in stays in
    live.set_options(late_join=True)
    assert live.pick("Ben").state == "waiting"
    live.set_options(locked=False)
    assert live.pick("Cy").state == "in"


def test_a_removed_page_stays_out_until_let_back(rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    ana = live.pick("Ana")
    live.remove("Ana")
    assert live.page(ana.token) == ("removed", "Ana")
    for token in (ana.token, None):  # the page reloaded, or a fresh page picking the name
        with pytest.raises(LiveRefused) as e:
            live.pick("Ana", token=token)
        assert e.value.code == "removed"
    with pytest.raises(LiveRefused):
        live.pick("Zed", token=ana.token)  # the removed page taking another name
    live.remove("Ben")  # a name nobody holds yet is kept out too
    with pytest.raises(LiveRefused):
        live.pick("Ben")
    assert live.let_back("Ana") == 1
    assert live.page(ana.token) == ("in", "Ana")
    live.free("Ana")
    assert live.page(ana.token)[0] == "freed"
    assert live.pick("Ana").state == "in"


def test_no_token_is_kept_in_the_database(rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    tokens = [live.pick(n).token for n in ("Ana", "Ben")]
    with live._read() as c:  # every row of every live table
        rows = [r for t in ("icg_live_class", "icg_live_roster", "icg_live_pages")
                for r in c.all(f"SELECT * FROM {t}", ())]
    text = repr(rows)
    assert rows and not any(t in text for t in tokens)


def test_a_page_without_a_name_is_listed_removed_by_its_id_and_let_back(
        rooms_url: str) -> None:
    live = open_live_class(rooms_url)
    token = live.open_page(2, now=1_000.0)
    assert live.page(token) == ("open", None)
    [info] = live.pages()
    assert (info.name, info.state, info.lesson, info.opened) == ("", "open", 2, 1_000.0)
    assert info.page and token not in repr(info)  # the teacher gets its id, not its token
    assert live.remove_page(info.page)
    assert live.page(token) == ("removed", None)
    for name in ("Ana", "Ben"):  # the removed page names itself: still out
        with pytest.raises(LiveRefused) as e:
            live.pick(name, token=token)
        assert e.value.code == "removed"
    assert not live.remove_page(info.page)  # removed already: nothing changes
    assert live.let_back_page(info.page)
    assert live.page(token) == ("open", None)
    ana = live.pick("Ana", token=token)
    assert ana.token == token and live.page(token) == ("in", "Ana")
    [named] = live.pages()
    assert (named.name, named.lesson, named.opened) == ("Ana", 2, 1_000.0)
    assert not live.remove_page(named.page)  # a page with a name is removed by its name
    assert live.page(token) == ("in", "Ana")
    for bad in ("", "x" * 64, token, None, 3):
        with pytest.raises(LiveRefused) as e:
            live.remove_page(bad)  # type: ignore[arg-type]
        assert e.value.code == "no-page"
    with pytest.raises(LiveRefused):
        live.open_page(0)
