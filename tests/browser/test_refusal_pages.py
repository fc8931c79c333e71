"""The server's "class is full" (503) page in Chromium, in the language of the lesson asked for:
a student who opens a Spanish lesson when every place is taken reads why in
Spanish, on a page that says <html lang="es">, with a real link to try again (its accessible
name in Spanish) and no serious or critical axe-core violation. An English lesson's refusal
stays English. The words: widgets/words/page.py refusal_words; the pages: the classroom
template's 503.html and 429.html (429 in Spanish over HTTP: tests/test_page_words.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 30_000


@pytest.fixture(scope="module")
def full_server() -> Any:
    """Voila on lessons/ with room for one kernel (no pool: a page starts its own)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from voila_server import running_voila
    finally:
        sys.path.pop(0)
    args = ["--VoilaConfiguration.preheat_kernel=False",
            "--ClassroomKernelManager.max_kernels=1"]
    with running_voila(ROOT / "lessons", extra_args=args) as (url, process):
        yield url


def test_a_full_class_is_told_in_the_lesson_language(full_server: str, open_page: Any,
                                                     bt: Any) -> None:
    from widgets.words.page import refusal_words

    es, en = refusal_words(503, "es"), refusal_words(503, "en")
    first = open_page("refusal-first")
    first.open(full_server + "voila/render/es/00_start_here.ipynb", expect_widgets=False)

    vp = open_page("refusal-es")
    response = vp.page.goto(full_server + "voila/render/es/03_hit_me.ipynb",
                            wait_until="domcontentloaded", timeout=TIMEOUT)
    assert response is not None and response.status == 503
    page = vp.page
    assert page.evaluate("() => document.documentElement.lang") == "es"
    assert page.title().strip() == es["heading"]
    page.get_by_role("heading", name=es["heading"], level=1).wait_for(timeout=TIMEOUT)
    body = re.sub(r"\s+", " ", page.inner_text("body"))
    assert es["message"] in body
    assert es["auto"] in body and "También puedes intentarlo ahora." in body
    assert re.search(r"\b(the|class|page|again|requires)\b", body, re.I) is None, body
    link = page.get_by_role("link", name=es["tryAgain"])
    assert link.is_visible()
    violations = vp.axe_violations()  # its meta-refresh rule: no reload the student cannot stop
    assert violations == [], bt.format_violations(violations)
    # the timed retry (static/retry.js) stops at the student's word, named in Spanish
    stop = page.get_by_role("button", name=es["stop"])
    stop.click()
    page.locator("#classroom-retry").wait_for(state="detached", timeout=TIMEOUT)
    assert link.is_visible()

    english = open_page("refusal-en")
    english.page.add_init_script("window.classroomRetryMs = 4000;")  # 60 s in a class
    response = english.page.goto(full_server + "voila/render/03_hit_me.ipynb",
                                 wait_until="domcontentloaded", timeout=TIMEOUT)
    assert response is not None and response.status == 503
    assert english.page.evaluate("() => document.documentElement.lang") == "en"
    english.page.get_by_role("heading", name=en["heading"], level=1).wait_for(timeout=TIMEOUT)
    assert english.page.get_by_role("link", name=en["tryAgain"]).is_visible()
    # ... and it tries the lesson again by itself (still full here: 503 again)
    with english.page.expect_response(lambda r: r.url.endswith("/voila/render/03_hit_me.ipynb"),
                                      timeout=TIMEOUT) as again:
        pass
    assert again.value.status == 503
