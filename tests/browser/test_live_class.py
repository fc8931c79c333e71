"""The live class's morning in Chromium, on `make class`'s server: the class list is set,
three students pick their names on the Hit Me lesson (one on a phone), a pause covers the
three pages and a click forged under the cover changes nothing, the exit ticket opens on every
page, a removed page is still out after a reload."""

from __future__ import annotations

import time
from typing import Any

from conftest import ClassServer, close_context

from rooms.answers import open_answers
from rooms.live_class import open_live_class

LESSON_PAGE = "voila/render/03_hit_me.ipynb"
PHONE = {"width": 390, "height": 844}


def pick_name(vp: Any, name: str) -> None:
    page = vp.page
    page.locator(".icg-exit-ticket").get_by_role("button",
                                                 name="Start the exit ticket").click()
    picker = page.locator(".icg-live-picker").first
    picker.get_by_label("Your name:").select_option(name)
    vp.wait_synced()
    picker.get_by_role("button", name="That's me").click()
    page.get_by_text(f"Answering as {name}.").first.wait_for(timeout=30_000)


def test_the_live_class_morning(class_server: ClassServer, open_page: Any) -> None:
    live = open_live_class(class_server.rooms_url)
    live.set_roster(["Ana", "Ben", "Cy"])
    pages: dict[str, Any] = {}
    try:
        for name in ("Ana", "Ben", "Cy"):
            vp = open_page(f"live-{name}", viewport=PHONE if name == "Cy" else None)
            vp.open(class_server.address + LESSON_PAGE)
            pick_name(vp, name)
            pages[name] = vp
        assert {p.name for p in live.pages() if p.state == "in"} == {"Ana", "Ben", "Cy"}

        ana = pages["Ana"].page
        table = ana.locator(".icg-game").filter(
            has=ana.get_by_role("button", name="Hit me!")).first
        hand = table.locator(".icg-seats-box")
        before = hand.inner_text()
        t0 = time.monotonic()
        live.pause()
        for vp in pages.values():
            vp.page.get_by_text("Eyes on the teacher").first.wait_for(timeout=5_000)
        reached = time.monotonic() - t0
        assert reached < 5, reached
        # a click forged under the cover: the element's own click() reaches the kernel, which
        # refuses it
        table.get_by_role("button", name="Hit me!").evaluate("b => b.click()")
        ana.wait_for_timeout(1500)
        assert hand.inner_text() == before
        live.resume()
        for vp in pages.values():
            vp.page.get_by_text("Eyes on the teacher").first.wait_for(state="hidden",
                                                                      timeout=5_000)
        table.get_by_role("button", name="Hit me!").evaluate("b => b.click()")  # now it counts
        end = time.monotonic() + 10
        while hand.inner_text() == before and time.monotonic() < end:
            ana.wait_for_timeout(200)
        assert hand.inner_text() != before

        live.open_exit_ticket(3)
        for vp in pages.values():
            vp.page.get_by_text("Your teacher opened the exit ticket.").first.wait_for(
                timeout=5_000)
        live.open_exit_ticket(None)

        live.remove("Ben")
        ben = pages["Ben"]
        ben.page.get_by_text("You are out of the class").first.wait_for(timeout=5_000)
        ben.open(class_server.address + LESSON_PAGE)  # a reload: the device's token comes back
        ben.page.get_by_text("You are out of the class").first.wait_for(timeout=30_000)
        live.let_back("Ben")
        ben.page.get_by_text("You are out of the class").first.wait_for(state="hidden",
                                                                        timeout=5_000)
    finally:
        # the pages first: a page still open could take its name again after the day ends,
        # and the next test's student of the same name would wait for the teacher
        for vp in pages.values():
            close_context(vp.context)
        live.resume()
        live.open_exit_ticket(None)
        live.set_roster([])
        live.end_day()
        open_answers(class_server.rooms_url).delete_day()  # the server is shared: no student
        # of this test stays among today's
