"""A widget that changes while its page loads is shown as it is (widgets/page/late_updates.py).

ipywidgets 8's page takes one snapshot of every widget's state, then makes the models one at a
time; an update sent in between was dropped, and the model kept the snapshot's state. In the
soak a Hit Me and a Flapjack page showed every widget with every button disabled for 90 s: the
computer player's move that enabled them was made while the page loaded.

The fixture enables its button 0.05 s after the kernel answers the page's snapshot request,
as a computer move on the kernel's timer does.
"""

from __future__ import annotations

from typing import Any


def test_an_update_made_while_the_page_loads_reaches_the_page(
    fixtures_server: Any, open_page: Any
) -> None:
    vp = open_page("late-update")
    vp.open(fixtures_server.page_url("late_update.ipynb"))
    button = vp.page.locator(".widget-button", has_text="Play")
    button.first.wait_for(state="visible", timeout=30_000)
    vp.page.wait_for_function(
        "() => !!document.querySelector('.widget-button:not([disabled])')", timeout=15_000)
    assert button.first.is_enabled()
