"""Questions as data and the one parser of typed numbers (engine/questions.py), with the words
for a text that is not a number (widgets/words/questions.py)."""

from __future__ import annotations

import pytest

from engine.questions import (
    EMPTY,
    NO_DIGITS,
    NOT_A_NUMBER,
    SIGN_AFTER,
    TOO_LONG,
    TWO_SIGNS,
    NumberRefused,
    Question,
    SumCheck,
    parse_number,
    read_number,
    terms_of,
    terms_text,
)
from widgets.lessons.practice import parse_answer
from widgets.table.components import parse_int_answer
from widgets.words import number_refused_text, speaking, sum_math, sum_terms


@pytest.mark.parametrize(("text", "n"), [
    ("8", 8), ("-8", -8), ("+8", 8), ("\u22128", -8), (" - 8 ", -8), ("+ 12", 12), ("0", 0),
    ("007", 7), ("\u20138", -8)])
def test_a_whole_number_is_read(text: str, n: int) -> None:
    assert parse_number(text) == n
    # one parser: the tables' boxes and the practice read the same
    assert parse_int_answer(text) == parse_answer(text) == read_number(text) == n


@pytest.mark.parametrize(("text", "code"), [
    ("", EMPTY), ("   ", EMPTY), (None, EMPTY), ("5-", SIGN_AFTER), ("--5", TWO_SIGNS),
    ("+-5", TWO_SIGNS), ("five", NO_DIGITS), ("-", NO_DIGITS), ("9" * 20, TOO_LONG),
    ("1e3", NOT_A_NUMBER), ("5 5", NOT_A_NUMBER), ("1,000", NOT_A_NUMBER),
    ("\u0665", NOT_A_NUMBER)])
def test_what_is_not_a_number_is_refused_with_its_reason(text: object, code: str) -> None:
    with pytest.raises(NumberRefused) as e:
        parse_number(text)
    assert e.value.code == code
    assert read_number(text) is None and parse_int_answer(text) is None


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_reason_has_words(lang: str) -> None:
    with speaking(lang):
        texts = {c: number_refused_text(c) for c in (SIGN_AFTER, TWO_SIGNS, NO_DIGITS, TOO_LONG)}
    assert len(set(texts.values())) == 4
    assert "5-" in texts[SIGN_AFTER] and "--5" in texts[TWO_SIGNS]


def test_a_sum_is_written_one_way() -> None:
    assert sum_terms((3, 5)) == "+3 + (+5)" and sum_terms((-3, -4, 3)) == "-3 + (-4) + (+3)"
    assert sum_math((3, -8)) == "+3 + (-8) = -5"


def test_a_question_is_data_and_refuses_what_it_is_not() -> None:
    q = Question("sum", (3, -8), 1, "4")
    assert terms_of(terms_text(q.terms)) == q.terms and terms_of("") == ()
    for bad in ({"kind": "product"}, {"terms": (1, "2")}, {"lesson": 100}, {"item": ""},
                {"variant": -1}):
        fields = {"kind": "sum", "terms": (1, 2), "lesson": 1, "item": "1"} | bad
        with pytest.raises(ValueError):
            Question(**fields)


def test_a_table_reports_a_sum_or_a_difference_of_two() -> None:
    assert SumCheck("flapjack 1 1", (-3, -9), 6, None, True, "difference").kind == "difference"
    assert SumCheck("hit-me 1 1", (1, 2, 3), 6, 6, True).kind == "sum"
    for bad in [{"kind": "product"}, {"kind": "difference", "terms": (1, 2, 3)},
                {"kind": "difference", "given_abs": 3}]:
        fields = {"item": "x", "terms": (1, 2), "given_sum": 3, "given_abs": None,
                  "first_try": True, **bad}
        with pytest.raises(ValueError, match="a check of a sum"):
            SumCheck(**fields)
