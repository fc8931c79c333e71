"""A disabled button ignores a forged click, on every button of every widget.

A page can send a click message for any button model it was sent, enabled or not, and can send
an update that enables it first. The strategy lab's Run button ran on such a click. Here every
Button of every widget the lessons use (the tables in each mode with every part made on first
use built, the explorer, the practice, the strategy lab, the lesson tools, the teacher's key box)
is disabled, then gets a forged `{"disabled": false}` update and a forged click (the comm message
`{"event": "click"}` and `button.click()`); nothing the page can see and nothing in the game may
change (a message saying why is allowed).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import ipywidgets as widgets
import pytest
from widget_helpers import AlwaysHold, all_widgets, errors_raise  # noqa: F401

from widgets import FlapjackTable, HitMeTable
from widgets.lessons.explorer import CardExplorer
from widgets.lessons.practice import AbsoluteValuePractice
from widgets.lessons.strategy import SimulationPanel
from widgets.lessons.worked_examples import deal_later
from widgets.page.teacher_key import teacher_only
from widgets.table.components import GuardedButton, MessageArea
from widgets.table.shell import LazyPart


def build_every_part(root: widgets.Widget) -> list[widgets.Widget]:
    """Make every part a widget makes on first use; return every widget it holds."""
    for cls in type(root).__mro__:
        for name, value in list(vars(cls).items()):
            if isinstance(value, LazyPart):
                getattr(root, name)
    if isinstance(root, HitMeTable):
        root.settings  # noqa: B018 - a property that builds the panel
    found: list[widgets.Widget] = [root]
    for value in vars(root).values():
        items = value if isinstance(value, list | tuple) else [value]
        found += [x for x in items if isinstance(x, widgets.Widget)]
    seen: dict[str, widgets.Widget] = {}
    for w in found:
        for x in all_widgets(w):
            seen.setdefault(x.model_id, x)
    return list(seen.values())


def snapshot(root: widgets.Widget, every: list[widgets.Widget]) -> str:
    """What the page shows (every synced value but messages) and the game's state."""
    parts = [json.dumps(w.get_state(), sort_keys=True, default=str) for w in every
             if not isinstance(w, MessageArea) and w.comm is not None]
    for attr in ("game", "state"):
        game = getattr(root, attr, None) if attr != "state" or isinstance(
            root, FlapjackTable) else None
        if game is not None and hasattr(game, "to_json"):
            parts.append(json.dumps(game.to_json(), sort_keys=True, default=str))
    for attr in ("cards", "index", "score", "figure"):
        if hasattr(root, attr):
            parts.append(repr(getattr(root, attr)))
    return "\n".join(parts)


def forge_clicks_on_every_button(root: widgets.Widget) -> int:
    every = build_every_part(root)
    buttons = [w for w in every if isinstance(w, widgets.Button)]
    assert buttons
    for b in buttons:
        assert isinstance(b, GuardedButton), f"{b.description!r} is not a GuardedButton"
        was = b.disabled
        b.disabled = True
        before = snapshot(root, every)
        b.set_state({"disabled": False, "description": "forged"})  # refused: stays disabled
        assert b.disabled and b.description != "forged"
        b._handle_custom_msg({"event": "click"}, [])
        b.click()
        assert snapshot(root, every) == before, f"a click on disabled {b.description!r} acted"
        b.disabled = was
    return len(buttons)


def _flapjack_choosing() -> FlapjackTable:
    """An add-or-subtract table with a card chosen: the Add / Subtract buttons are up."""
    t = FlapjackTable(players=2, variant="add-or-subtract", say_total=True, seed=3,
                      bot_delay=0)
    key = next(k for k, b in zip(t._hand_keys, t.card_buttons, strict=False)
               if not b.disabled)
    t.click_card(key)
    return t


def _hit_me_aces() -> HitMeTable:
    t = HitMeTable(players=3, seed=11, ace_eleven=True, bot_delay=0,
                   deck="2C,3C,AS,4C,5C,AH")  # your cards: A♠, A♥
    t.peek_button.click()
    assert len(t.ace_row.buttons) == 2
    return t


WIDGETS: dict[str, Callable[[], widgets.Widget]] = {
    "hit-me solo": lambda: HitMeTable(players=3, seed=1, bot_delay=0),
    "hit-me aces": _hit_me_aces,
    "hit-me pass-device": lambda: HitMeTable(players=3, seed=2, mode="pass-device",
                                             bot_delay=0),
    "hit-me walkthrough": lambda: HitMeTable(players=4, seed=3, walkthrough=True, bot_delay=0,
                                             opponents=[AlwaysHold()] * 3),
    "flapjack teacher": lambda: FlapjackTable(players=3, seed=4, walkthrough=True, bot_delay=0),
    "flapjack student": lambda: FlapjackTable(players=2, seed=5, teacher_controls=False,
                                              bot_delay=0),
    "flapjack choosing": _flapjack_choosing,
    "explorer": lambda: CardExplorer(game="hit-me"),
    "practice": lambda: AbsoluteValuePractice(kinds=["abs", "abs-sum"], seed=2024),
    "practice closer": lambda: AbsoluteValuePractice(kinds=["closer"], questions=5, seed=7),
    "strategy lab": lambda: SimulationPanel("hold", players=3, rounds=1_000),
    "deal later": lambda: deal_later(FlapjackTable, "Deal the classic game", players=3,
                                     bot_delay=0),
    "teacher gate": lambda: teacher_only(HitMeTable, players=3, walkthrough=True,
                                         bot_delay=0),
}


@pytest.mark.parametrize("name", list(WIDGETS))
def test_every_disabled_button_ignores_a_forged_click(name: str) -> None:
    assert forge_clicks_on_every_button(WIDGETS[name]()) >= 1


def test_the_strategy_labs_run_button_runs_nothing_while_disabled(monkeypatch, tmp_path):
    """The attack of the report: the Run button ran on a forged click while disabled."""
    monkeypatch.setenv("ICG_CHART_CACHE", str(tmp_path))
    lab = SimulationPanel("hold", players=3, rounds=1_000)
    lab.run_button.disabled = True
    lab.run_button._handle_custom_msg({"event": "click"}, [])
    assert lab.figure is None and lab.status.value == "" and not list(tmp_path.iterdir())
    lab.run_button.disabled = False  # the positive control: enabled, a click runs it
    lab.run_button._handle_custom_msg({"event": "click"}, [])
    assert lab.figure is not None and "Done" in lab.status.value
