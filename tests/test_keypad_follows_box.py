"""The on-screen keypad types into the box the student last typed into.

ipywidgets' Text has no focus event, so the "Keypad types into" toggle follows the box whose value
last reached the kernel (a box sends its value when it loses focus, e.g. on a keypad tap)."""

from __future__ import annotations

from widgets.table.components import AnswerEntry


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


def test_a_signed_box_has_a_sign_key_beside_it():
    """A phone's number pad has no minus: the "± Sign" button after a signed box makes its
    number negative, or positive again, whatever box the keypad types into; |sum| has none."""
    a = AnswerEntry([("sum", "My sum"), ("abs", "Its absolute value |sum|")],
                    unsigned=("abs",))
    assert list(a.sign_keys) == ["sum"]
    key = a.sign_keys["sum"]
    assert key.description == "\u00b1 Sign" and "My sum" in key.tooltip
    row = next(r for r in a.children if isinstance(r, type(a.keypad.children[0]))
               and a.boxes["sum"] in r.children)
    assert list(row.children) == [a.boxes["sum"], key]  # right after its box, in tab order
    a.boxes["sum"].value = "12"
    a.target.value = "abs"
    key.click()
    assert a.boxes["sum"].value == "-12" and a.boxes["abs"].value == ""
    key.click()
    assert a.boxes["sum"].value == "12"
    a.boxes["sum"].value = ""
    key.click()
    assert a.boxes["sum"].value == "-"
    assert a.target.value == "sum"  # the keypad follows the box the sign went into
    a.press("7")
    assert a.answers()["sum"] == -7


def test_every_box_of_a_single_answer_is_signed_unless_told():
    a = AnswerEntry([("total", "New total")])
    assert list(a.sign_keys) == ["total"]
