"""The on-screen keypad types into the box the student last typed into.

ipywidgets' Text has no focus event, so the "Keypad types into" toggle follows the box whose value
last reached the kernel (a box sends its value when it loses focus, e.g. on a keypad tap)."""

from __future__ import annotations

from widgets.components import AnswerEntry


def test_keypad_types_into_the_box_last_typed_into():
    a = AnswerEntry([("sum", "My sum"), ("abs", "Its absolute value |sum|")])
    assert a.target.value == "sum"
    a.boxes["abs"].value = "1"  # the student typed 1 in the |sum| box, then taps the keypad
    assert a.target.value == "abs"
    a.press("3")
    assert a.boxes["abs"].value == "13" and a.boxes["sum"].value == ""
    a.boxes["sum"].value = "-"
    a.press("4")
    assert a.boxes["sum"].value == "-4" and a.boxes["abs"].value == "13"
    a.target.value = "abs"  # the toggle still chooses by hand
    a.press("del")
    assert a.boxes["abs"].value == "1"
    a.reset()
    assert a.target.value == "sum" and all(b.value == "" for b in a.boxes.values())
