"""A kernel that dies mid-game must leave the page with a clear message, not a frozen table.

The test kills the page's kernel process (found among the Voila server's children by the
kernel id in the page's websocket URL) and expects a visible alert telling the student to
reload the page.

What Voila 0.5 does on its own (seen with this test): jupyter_server restarts the dead kernel
("Kernel: autorestarting", logged at debug level in the console only), the page reconnects to
a fresh kernel that has none of the table's widgets, and nothing visible changes: the buttons
still look live but every click is lost. So the message has to come from our template (a
script listening to the kernel's status): share/jupyter/voila/templates/classroom/index.html.j2
watches the kernel websocket and shows an alert with a reload button.
"""

from __future__ import annotations

import re
import time
from typing import Any

TIMEOUT = 30_000
RELOAD = re.compile(r"reload|refresh", re.IGNORECASE)


def _kill_kernel(server: Any, kernel_id: str) -> None:
    procs = [p for p in server.kernel_processes() if kernel_id in " ".join(p.cmdline())]
    assert procs, f"no kernel process for {kernel_id}"
    for p in procs:
        p.kill()
        p.wait(timeout=10)


def test_dead_kernel_shows_a_clear_message(
    fixtures_server: Any, open_page: Any, bt: Any
) -> None:
    vp = open_page("kernel-death")
    vp.open(fixtures_server.page_url("hit_me_table.ipynb"))
    page = vp.page
    page.locator(".widget-button:visible", has_text="Peek at my face-down card").click()
    page.wait_for_timeout(500)
    kernel_id = vp.kernel_id()
    assert kernel_id, "the page has no kernel websocket"
    alerts_before = page.get_by_role("alert").filter(has_text=RELOAD).count()
    assert alerts_before == 0

    _kill_kernel(fixtures_server, kernel_id)

    alert = page.get_by_role("alert").filter(has_text=RELOAD)
    try:
        alert.first.wait_for(state="visible", timeout=TIMEOUT)
    finally:
        vp.screenshot("kernel-death")
    assert RELOAD.search(alert.first.inner_text())


def test_a_page_that_is_slow_to_start_says_so_and_offers_a_reload(
    fixtures_server: Any, open_page: Any
) -> None:
    """A page whose kernel cannot start would otherwise show Voila's spinner for ever (seen when
    two kernels were handed the same TCP port). The template's watchdog (shortened here from
    120 s to 2 s) puts up a note with a reload button, and takes it down if the page finishes."""
    vp = open_page("slow-start")
    page = vp.page
    page.add_init_script("window.classroomStartLimitMs = 2000;")
    page.goto(fixtures_server.page_url("slow_start.ipynb"), wait_until="commit")
    note = page.get_by_role("alert").filter(has_text="taking a long time to start")
    note.first.wait_for(state="visible", timeout=TIMEOUT)
    assert note.first.get_by_role("button", name="Reload the page").is_visible()
    page.locator(".widget-button", has_text="Ready").first.wait_for(timeout=60_000)
    note.first.wait_for(state="detached", timeout=10_000)
    assert page.get_by_role("alert").count() == 0


def test_a_closed_tab_frees_its_kernel(fixtures_server: Any, open_page: Any) -> None:
    """Closing a tab shuts its kernel down at once (the beacon Voila's widget manager sends from
    beforeunload, through our CSP and the _xsrf cookie), instead of leaving it to the 10-minute
    idle cull: a class that reloads and closes pages must not fill the server's max_kernels."""
    from conftest import close_context

    vp = open_page("closed-tab")
    vp.open(fixtures_server.page_url("hit_me_table.ipynb"))
    kernel_id = vp.kernel_id()
    assert kernel_id, "the page has no kernel websocket"

    def alive() -> bool:
        return any(kernel_id in " ".join(p.cmdline()) for p in fixtures_server.kernel_processes())

    assert alive()
    beacons: list[str] = []
    vp.context.on("request", lambda r: beacons.append(f"{r.method} {r.url}")
                  if "/api/shutdown/" in r.url else None)
    close_context(vp.context)
    deadline = time.monotonic() + 20
    while alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    from voila_server import read_log

    log = [ln for ln in read_log(fixtures_server.proc).splitlines() if kernel_id[:8] in ln]
    assert not alive(), (f"kernel {kernel_id} still runs 20 s after its tab closed; beacons seen "
                         f"by the browser: {beacons}; server log of the kernel: {log[-12:]}")


# --- the same messages on a Spanish page ------------------------------------------
# A lesson of lessons/es/ says <html lang="es">; the template renders its scripts' words in
# Spanish (widgets/words/page.py, through the icg catalogue) into a JSON data block that
# kernel-watch.js reads. The expected sentences come from the same catalogue.


def test_dead_kernel_on_a_spanish_lesson_says_so_in_spanish(
    lessons_server: Any, open_page: Any
) -> None:
    from widgets.words.page import page_words

    es, en = page_words("es"), page_words("en")
    vp = open_page("kernel-death-es")
    vp.open(lessons_server.page_url("es/03_hit_me.ipynb"))
    page = vp.page
    assert page.evaluate("() => document.documentElement.lang") == "es"
    kernel_id = vp.kernel_id()
    assert kernel_id, "the page has no kernel websocket"
    assert page.get_by_role("alert").count() == 0

    _kill_kernel(lessons_server, kernel_id)

    alert = page.get_by_role("alert").filter(has_text=es["kernelStopped"])
    try:
        alert.first.wait_for(state="visible", timeout=TIMEOUT)
    finally:
        vp.screenshot("kernel-death-es")
    text = alert.first.inner_text()
    assert en["kernelStopped"] not in text and "Reload" not in text, text
    button = alert.first.get_by_role("button", name="Recargar la página")
    assert button.is_visible() and button.is_enabled()
    assert page.evaluate("() => document.activeElement.textContent") == "Recargar la página"


def test_a_slow_spanish_page_says_so_in_spanish(fixtures_server: Any, open_page: Any) -> None:
    """The watchdog's note and the loading note on a page whose notebook says "lang": "es"
    (tests/browser/fixtures/slow_start_es.ipynb, not preheated)."""
    from widgets.words.page import page_words

    es = page_words("es")
    vp = open_page("slow-start-es")
    page = vp.page
    page.add_init_script("window.classroomStartLimitMs = 2000;")
    page.goto(fixtures_server.page_url("slow_start_es.ipynb"), wait_until="commit")
    note = page.get_by_role("alert").filter(has_text=es["slowStart"])
    note.first.wait_for(state="visible", timeout=TIMEOUT)
    assert page.evaluate("() => document.documentElement.lang") == "es"
    assert "taking a long time" not in note.first.inner_text()
    assert note.first.get_by_role("button", name="Recargar la página").is_visible()
    loading = page.locator("#loading_text").inner_text()
    assert re.fullmatch(r"Abriendo la lección\.\.\.|Ejecutando \d+ de \d+", loading), loading
    page.locator(".widget-button", has_text="Listo").first.wait_for(timeout=60_000)
    note.first.wait_for(state="detached", timeout=10_000)
    assert page.get_by_role("alert").count() == 0
