"""Voila's pages in WebKit (Safari's engine, tests/browser/webkit.py), as an iPad opens them on
the school's server: a whole Hit Me round by clicks and typed answers (the engine replays the
seeded table, so the test knows the sum and the winner), and lesson 1's exit ticket answered
under a first name (each question's numbers read on the page: the student's own), every answer
reaching the answers store under that name. The same
journeys in Chromium: test_play_hit_me.py and test_class_morning.py.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import _SYNCED_JS, TICKET_QUESTION_JS, VoilaServer
from helpers import ticket_answer
from webkit import WebKitPage

from engine import Hit, Hold
from rooms.answers import open_answers
from widgets.words import card_name

CARD_JS = ("return [...document.querySelectorAll('.icg-card')].some(c =>"
           " (c.getAttribute('aria-label') || '').startsWith(arguments[0] + ','))")
QUESTIONS = 5  # lesson 1's exit ticket


@pytest.fixture(scope="module")
def wk_driver(webkit: Any) -> Iterator[Any]:
    driver = webkit(1280, 900)
    yield driver
    driver.quit()


def synced(wk: WebKitPage) -> None:
    """Every widget's typed value has reached the kernel (conftest's VoilaPage.wait_synced)."""
    wk.wait("return (" + _SYNCED_JS + ")()", what="the widgets' values sent to the kernel")


def open_voila(wk: WebKitPage, url: str) -> None:
    wk.open(url)
    wk.wait("const l = document.getElementById('loading');"
            " return document.readyState === 'complete' && (!l || !l.checkVisibility())"
            " && document.querySelector('.jupyter-widgets')", timeout=120,
            what="every cell run and a widget shown")
    wk.record()


def test_hit_me_round_in_webkit(fixtures_server: VoilaServer, wk_driver: Any, bt: Any) -> None:
    replica = bt.HitMeReplica()
    wk = WebKitPage(wk_driver, fixtures_server.url)
    open_voila(wk, fixtures_server.page_url("hit_me_table.ipynb"))
    wk.wait(CARD_JS, card_name(replica.round.face_up[0][0]), what="the face-up card")
    wk.click("Peek at my face-down card")
    wk.wait(CARD_JS, card_name(replica.round.face_down[0]), what="the face-down card")
    if any(isinstance(a, Hit) for a in replica.round.legal_actions(0)):
        wk.click("Hit me!")
        replica.act(Hit())
        wk.wait(CARD_JS, card_name(replica.round.face_up[0][-1]), what="the new card")
    if not replica.round.players_done and replica.round.current == 0:
        wk.click("Hold")
        replica.act(Hold())
    assert replica.round.players_done
    total = replica.my_sum()
    wk.type_into("My sum", str(total))
    wk.type_into("Its absolute value |sum|", str(abs(total)))
    synced(wk)
    wk.click("Check my sum")
    wk.wait("return document.querySelector('.icg-answer .icg-msg-ok')", what="the sum checked")
    wk.click("Turn up all the cards")
    result = wk.wait("const r = document.querySelector('.icg-msg-celebrate');"
                     " return r && r.innerText", what="the round's result")
    assert replica.winner_text() in result
    for card in replica.hidden_cards():
        assert wk.js(CARD_JS, card_name(card)), f"{card_name(card)} face up after the reveal"
    assert wk.problems() == []


def test_a_named_exit_ticket_in_webkit(lessons_server: VoilaServer, wk_driver: Any) -> None:
    name = "Iris"
    wk = WebKitPage(wk_driver, lessons_server.url)
    open_voila(wk, lessons_server.page_url("01_integers_with_cards.ipynb"))
    wk.click("Start the exit ticket")
    wk.type_into("Your first name:", name)
    synced(wk)
    wk.click("That's me")
    wk.wait("return document.querySelector('.icg-exit-ticket').innerText"
            ".includes(arguments[0])", f"Answering as {name}.", what="the name taken")
    typed = {}  # question -> the typed answer as the store keeps it (Answer.given): signed
    for i in range(QUESTIONS):
        shown = wk.wait(f"return ({TICKET_QUESTION_JS})(null, arguments[0])",
                        f"Question {i + 1} of {QUESTIONS}.", what=f"question {i + 1}")
        given = ticket_answer(shown["prompt"], shown["choices"])
        if shown["choices"]:
            wk.click(given)
        else:
            wk.type_into("Answer:", given)
            synced(wk)
            wk.click("Check")
            typed[i] = f"{int(given):+d}" if int(given) else "0"
        wk.wait("return [...document.querySelectorAll('.icg-exit-ticket p[role=status]')]"
                ".some(p => /Right/.test(p.innerText))", what=f"question {i + 1} marked right")
        wk.click("See my score" if i == QUESTIONS - 1 else "Next question")
    wk.wait("return document.querySelector('.icg-exit-ticket').innerText.includes('Your code:')",
            what="the score and code")
    store = open_answers(lessons_server.rooms_url)
    deadline = time.monotonic() + 30
    while True:
        rows = [a for a in store.answers() if a.student == name]
        if len(rows) >= 5 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(rows) == 5 and all(a.right for a in rows), [(a.given, a.right) for a in rows]
    assert {i: rows[i].given for i in typed} == typed and len(typed) == 3
    assert wk.problems() == []
