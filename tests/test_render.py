"""The pure render functions (observation pieces -> HTML), tested without any widget."""

from __future__ import annotations

import re

import pytest

from engine.cards import Convention, parse_card
from engine.events import HIDDEN_CARD, card_view
from engine.hit_me import HitMeConfig
from widgets.table.components import parse_deal_code, parse_int_answer, parse_int_setting
from widgets.table.render import (
    CHAR,
    Arrow,
    Point,
    Span,
    abs_text,
    card_back_html,
    card_face_html,
    card_html,
    hand_html,
    message_html,
    move_log_html,
    number_line_svg,
    score_table_html,
    signed,
)

BLACK = HitMeConfig(players=2)
RED = HitMeConfig(players=2, colors=Convention.RED_POSITIVE)


def view(code: str, config: HitMeConfig = BLACK) -> dict:
    c = parse_card(code)
    return card_view(c, config.value(c))


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize(("code", "config", "value_text", "aria", "color"), [
    ("7H", BLACK, "-7", "seven of hearts, value negative 7", "icg-red"),
    ("7H", RED, "+7", "seven of hearts, value positive 7", "icg-red"),
    ("KS", BLACK, "+10", "king of spades, value positive 10", "icg-black"),
    ("AC", RED, "-1", "ace of clubs, value negative 1", "icg-black"),
])
def test_card_face_has_signed_value_text_and_aria(code, config, value_text, aria, color):
    html = card_face_html(view(code, config))
    assert f'aria-label="{aria}"' in html
    assert f'<span class="icg-value" aria-hidden="true">{value_text}</span>' in html
    assert color in html
    assert "icg-neg" in html if value_text.startswith("-") else "icg-pos" in html
    label = parse_card(code).label
    symbol = parse_card(code).suit.symbol
    assert text_of(html) == f"{label}{symbol}{value_text}"


def test_card_face_note_goes_into_label():
    html = card_face_html(view("AH"), note="ace counts 11")
    assert "ace counts 11" in text_of(html)
    assert 'aria-label="ace of hearts, value negative 1, ace counts 11"' in html


def test_card_back_has_no_value_rank_or_suit():
    html = card_back_html()
    assert 'aria-label="face-down card"' in html
    assert text_of(html) == ""
    assert not re.search(r"[+-]\d|[♠♥♦♣]|value", html)
    assert card_html(dict(HIDDEN_CARD)) == card_back_html("face-down card")


def test_card_html_dispatches_and_hand_groups():
    html = hand_html([view("7H"), dict(HIDDEN_CARD)], label="Ben's cards")
    assert html.count("icg-card ") == 2 and "icg-back" in html and "-7" in html
    assert 'role="group" aria-label="Ben&#x27;s cards"' in html


def test_escaping_in_labels():
    html = hand_html([], label='<script>alert("x")</script>')
    assert "<script>" not in html


def test_abs_text():
    assert abs_text(-3) == "|-3| = 3"
    assert abs_text(4) == "|+4| = 4"
    assert abs_text(0) == "|0| = 0"


def test_number_line_points_arrow_span_in_svg_and_caption():
    html = number_line_svg([Point(-3, "Ben"), Point(5, "Ann", "me")],
                           Arrow(-8, -3, "Ben: last card +5"), [Span(-3)])
    assert html.startswith('<figure class="icg-numberline"><svg')
    wide, narrow = re.findall(r"<svg .*?</svg>", html)
    assert 'class="icg-nl icg-nl-wide" viewBox="0 0 640 ' in wide
    assert 'class="icg-nl icg-nl-narrow" viewBox="0 0 300 ' in narrow
    assert 'aria-hidden="true"' in narrow and "role=" not in narrow  # a copy, read out once
    for svg in (wide, narrow):
        assert svg.count("<circle") == 2
        assert "icg-nl-me" in svg
        assert svg.count('class="icg-nl-head"') == 1 and "marker" not in svg
        assert ">|-3| = 3</text>" in svg
    items = re.findall(r"<li>(.*?)</li>", html)
    assert items == ["Ben at -3", "Ann at +5", "Ben: last card +5: from -8 to -3",
                     "distance from zero |-3| = 3"]
    assert 'role="img"' in html and "Ben at -3" in re.search(r'aria-label="([^"]*)"', html)[1]


def test_number_line_span_goes_from_zero_to_the_value():
    html = number_line_svg(spans=[Span(-3)], lo=-10, hi=10, width=640)
    # axis from x=24 to x=616 for -10..10: 0 at 320, -3 at 231.2
    assert '<line class="icg-nl-span" x1="320.0" y1="' in html
    assert 'x2="231.2"' in html


def test_number_line_marks_limits_and_range():
    html = number_line_svg([Point(4, "total", "total")], marks=[-13, 0, 13], limits=(-13, 13),
                           lo=-13, hi=13)
    assert html.count('class="icg-nl-mark"') == 3 * 2  # in the wide and the narrow drawing
    assert "<li>targets -13, 0, +13</li>" in html
    assert "<li>limits -13 to +13</li>" in html
    nums = re.findall(r'class="icg-nl-num"[^>]*>([^<]+)<', html)
    assert "-13" in nums and "+13" in nums and "0" in nums


def test_number_line_widens_to_fit_big_sums():
    html = number_line_svg([Point(-47, "Ben"), Point(3, "Ann")])
    nums = re.findall(r'class="icg-nl-num"[^>]*>([^<]+)<', html)
    assert "-50" in nums and "+50" in nums


def test_number_line_stacks_points_with_the_same_value():
    html = number_line_svg([Point(2, "A"), Point(2, "B")])
    ys = re.findall(r'class="icg-nl-ptlabel" x="[^"]+" y="([^"]+)"', html)
    assert len(set(ys)) == 2


def test_hit_me_story_speaks_to_the_viewer_and_names_the_others():
    from engine.hit_me import Hit, HitMeRound, Hold
    from widgets.words import hit_me_story_line

    rnd = HitMeRound.deal(BLACK, dealer=1, rng=0, deck="3D,2C,7H,9C,5S")
    rnd.apply_action(Hit(), 0)
    rnd.apply_action(Hold(), 1)
    names = ["You", "Ben"]
    mine = [hit_me_story_line(e, names, 0) for e in rnd.observation(0)["events"]]
    assert mine[0] == ("You are dealt a face-down card and 7\u2665 (-7) face up  "
                       "[only you see: your face-down card is 3\u2666; your sum is "
                       "-3 + (-7) = -10]")
    assert mine[2].startswith("You say \u201cHit me!\u201d and get 5\u2660 (+5). "
                              "Face-up cards: -7 + (+5) = -2  [only you see: your sum: ")
    assert mine[3] == "Ben holds"
    theirs = [hit_me_story_line(e, names, 1) for e in rnd.observation(1)["events"]]
    assert theirs[2] == ("You says \u201cHit me!\u201d and gets 5\u2660 (+5). "
                         "Face-up cards: -7 + (+5) = -2")  # Ben sees a player named You
    assert theirs[3].startswith("Ben holds  [only you see: you hold at ")
    told = [hit_me_story_line(e, ["Ana", "Ben"], None, teacher=True)
            for e in rnd.observation(None, reveal=True)["events"]]
    assert "[private: Ana's sum: -10 + (+5) = -5]" in told[2]


def test_move_log_newest_first_copyable_pre():
    html = move_log_html(["first", "second", "third"])
    body = re.search(r"<pre[^>]*>(.*)</pre>", html, re.S)[1]
    assert body.split("\n") == ["third", "second", "first"]
    assert "newest first" in html
    assert "(no moves yet)" in move_log_html([])
    assert move_log_html(["a", "b", "c"], limit=2).count("\n") == 1


def test_score_table_and_message():
    html = score_table_html(["Ben", "Ann"], [2, 0], [1, 1])
    rows = re.findall(r"<tr><th scope='row'>(\w+)</th><td>(\d)</td><td>(\d)</td></tr>", html)
    assert rows == [("Ben", "2", "1"), ("Ann", "0", "1")]
    assert 'role="alert"' in message_html("bad", "error")
    assert message_html("") == ""


@pytest.mark.parametrize(("text", "value"), [
    ("-7", -7), ("\u22127", -7), ("+7", 7), (" 12 ", 12), ("0", 0), ("- 3", -3),
    ("", None), ("abc", None), ("7.5", None), ("--7", None), ("1e3", None), ("9" * 20, None),
    (None, None), (7, None),
])
def test_parse_int_answer(text, value):
    assert parse_int_answer(text) == value


def test_setting_parsers():
    assert parse_int_setting(5, "players", 2, 8) == 5
    assert parse_int_setting("5", "players", 2, 8) == 5
    for bad in (99, 1, True, "x", 2.5, None):
        with pytest.raises(ValueError, match="players must be a whole number from 2 to 8"):
            parse_int_setting(bad, "players", 2, 8)
    assert parse_deal_code(" 42 ") == 42
    assert parse_deal_code("class-5b") == "class-5b"
    assert parse_deal_code("") is None
    for bad in ("<script>", "x" * 41, "a\nb", "😀"):
        with pytest.raises(ValueError, match="deal code"):
            parse_deal_code(bad)


def test_number_line_labels_do_not_overlap_or_leave_the_picture():
    pts = [Point(-10, "Player 2 (face-up cards)"), Point(-8, "Player 1 (face-up cards)"),
           Point(5, "Computer 1 (face-up cards)")]
    html = number_line_svg(pts, lo=-10, hi=10)
    labels = re.findall(r'class="icg-nl-ptlabel" x="([^"]+)" y="([^"]+)" text-anchor="(\w+)"',
                        html)
    assert labels[0][2] == "start"  # at the left edge: drawn to the right of its point
    assert labels[0][1] != labels[1][1]  # close together: on different rows
    assert labels[2][1] == labels[0][1]  # far away: the first row again
    svg_height = float(re.search(r'viewBox="0 0 640 ([\d.]+)"', html)[1])
    assert all(0 < float(y) < svg_height for _, y, _ in labels)


def test_span_labels_stay_inside_the_drawing():
    import re as _re
    svg = number_line_svg(points=[Point(-26, "Computer 2")],
                          spans=[Span(-26, "Computer 2: |-26| = 26"),
                                 Span(6, "Computer 1: |+6| = 6")], lo=-10, hi=10)
    for drawing, width in zip(_re.findall(r"<svg .*?</svg>", svg), (640, 300), strict=True):
        labels = _re.findall(r'<text class="icg-nl-spanlabel" x="([\d.]+)" y="[\d.]+" '
                             r'text-anchor="(\w+)"[^>]*>([^<]*)<', drawing)
        assert len(labels) == 2
        for x, anchor, text in labels:
            w = CHAR * len(text)
            left = float(x) - (w if anchor == "end" else 0)
            assert 0 <= left and left + w <= width, (x, anchor, text)


@pytest.mark.parametrize("lo,hi", [(-10, 10), (-13, 13), (-30, 30), (-50, 50), (-100, 100)])
def test_narrow_drawing_spaces_its_numbers(lo, hi):
    """The phone drawing (300 units) writes fewer numbers, never closer than 4 characters,
    and keeps every target's number (Flapjack's -13 and +13)."""
    html = number_line_svg(marks=[lo, 0, hi], lo=lo, hi=hi)
    for drawing in re.findall(r"<svg .*?</svg>", html):
        xs = sorted(float(x) for x in re.findall(r'class="icg-nl-num" x="([\d.]+)"', drawing))
        assert len(xs) >= 3
        assert all(b - a >= 3.5 * CHAR for a, b in zip(xs, xs[1:], strict=False)), xs
        nums = re.findall(r'class="icg-nl-num"[^>]*>([^<]+)<', drawing)
        assert signed(lo) in nums and signed(hi) in nums and "0" in nums


def test_update_card_button_in_place():
    from engine.cards import parse_card
    from engine.events import card_view
    from widgets.table.components import card_button, update_card_button

    jack = card_view(parse_card("JS"), 10)
    heart = card_view(parse_card("7H"), -7)
    b = card_button(jack)
    assert b.description == "J♠ +10" and "icg-black" in b._dom_classes and not b.disabled
    update_card_button(b, heart, reason="would make -15, less than -13",
                       detail="cannot be played now, the total would be -15")
    assert b.description == "7♥ -7 (would make -15, less than -13)"
    assert b.tooltip == ("seven of hearts, value negative 7: cannot be played now, "
                         "the total would be -15")
    assert b.disabled and "icg-red" in b._dom_classes and "icg-black" not in b._dom_classes
    update_card_button(b, jack, suffix=" (chosen)")
    assert b.description == "J♠ +10 (chosen)" and not b.disabled
    assert "icg-black" in b._dom_classes and "icg-red" not in b._dom_classes


def test_hint_html_one_sentence_a_line_and_long_lists_as_lists():
    """words.py gives a hint as lines (no text is split here: the lines are the same in every
    language); a HintList of three or more items is shown as a list."""
    from widgets.table.components import hint_html
    from widgets.words import HintList

    assert "<li>" not in hint_html(["Peek first."])
    two = hint_html(["It is your turn.", "If you hold, you keep -3."])
    assert two.count("<li>") == 2 and "If you hold, you keep -3.</li>" in two
    many = hint_html(["The total is -4.",
                      HintList("Of the 43 cards", ["a leaves -9", "b leaves +5", "c leaves -1"])])
    assert "Of the 43 cards: <ul><li>a leaves -9;</li> <li>b leaves +5;</li> " \
           "<li>c leaves -1.</li></ul>" in many
    assert re.sub(r"<[^>]+>", "", many) == \
        "The total is -4. Of the 43 cards: a leaves -9; b leaves +5; c leaves -1."
    assert "<ul><li>a" not in hint_html(["One.", HintList("X", ["a", "b"])])  # two items: text
    assert "<li>X: a; b.</li>" in hint_html(["One.", HintList("X", ["a", "b"])])
    # a sentence that looks like a list to a regular expression stays one sentence
    assert "<li>" not in hint_html(["Sr. Ana: a; b; c. Then"])


@pytest.mark.parametrize("value", [-10, -7, -3, 0, 3, 7, 10])
def test_long_point_labels_stay_inside_the_narrow_drawing(value: int) -> None:
    """A phone's drawing (300 units): a label too long to centre on its point is moved along
    to stay whole inside the drawing, never cut at an edge."""
    from widgets.table.render import CHAR, NARROW_WIDTH

    label = "Computer 1 (face-up cards)"
    html = number_line_svg([Point(value, label), Point(6, "You (face-up cards)", "me")],
                           lo=-10, hi=10)
    narrow = html.split('class="icg-nl icg-nl-narrow"', 1)[1]
    texts = re.findall(r'<text class="icg-nl-ptlabel" x="([\d.]+)" y="[\d.]+" '
                       r'text-anchor="(\w+)"[^>]*>([^<]+)</text>', narrow)
    assert len(texts) == 2
    for x, anchor, text in texts:
        w = CHAR * len(text)
        left = {"start": float(x), "middle": float(x) - w / 2, "end": float(x) - w}[anchor]
        assert 0 <= left and left + w <= NARROW_WIDTH, (text, x, anchor)


# ----- the vertical number line (positive up) ---------------------------------------------------
def _upright(html: str) -> str:
    drawings = re.findall(r"<svg .*?</svg>", html)
    assert len(drawings) == 1, "a vertical line is drawn once, at every width"
    return drawings[0]


def test_vertical_line_puts_positive_up_with_every_number_as_signed_text():
    html = number_line_svg([Point(-4, "start"), Point(5, "end", "me")],
                           Arrow(-4, 5, "rises 9"), vertical=True, unit=" °C",
                           title="Temperature")
    assert html.startswith('<figure class="icg-numberline icg-nl-upright"><svg')
    svg = _upright(html)
    assert 'class="icg-nl icg-nl-vertical"' in svg and 'role="img"' in svg
    assert "<title>Temperature</title>" in svg
    nums = re.findall(r'<text class="icg-nl-num" x="([\d.]+)" y="([\d.]+)" '
                      r'text-anchor="end"[^>]*>([^<]+)</text>', svg)
    at = {text: float(y) for _x, y, text in nums}
    # every numbered tick says its signed value, and the greater number is higher up
    assert [t for _x, _y, t in nums] == ["-10", "-8", "-6", "-4", "-2", "0", "+2", "+4", "+6",
                                         "+8", "+10"]
    assert at["+10"] < at["+2"] < at["0"] < at["-4"] < at["-10"]
    assert len({x for x, _y, _t in nums}) == 1  # one column, at the left of the axis
    axis = re.search(r'<line class="icg-nl-axis" x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" '
                     r'y2="([\d.]+)"', svg)
    assert axis[1] == axis[3] and float(nums[0][0]) < float(axis[1])
    # the points on the axis, their labels (value as text, with the unit) at their height
    dots = {float(cy) for cy in re.findall(r'<circle [^>]*cy="([\d.]+)"', svg)}
    labels = {text: float(y) for y, text in re.findall(
        r'<text class="icg-nl-ptlabel" x="[\d.]+" y="([\d.]+)"[^>]*>([^<]+)</text>', svg)}
    assert set(labels) == {"start -4 °C", "end +5 °C"}
    assert labels["end +5 °C"] < labels["start -4 °C"]
    assert abs(labels["start -4 °C"] - at["-4"]) < 1 and min(dots) < max(dots)
    # the arrow goes up, its head at +5
    head = re.search(r'<path class="icg-nl-head" d="M[\d.]+ ([\d.]+) l-6 12 ', svg)
    assert head and float(head[1]) == min(dots)
    assert ">rises 9</text>" in svg
    items = re.findall(r"<li>(.*?)</li>", html)
    assert items == ["start at -4 °C", "end at +5 °C", "rises 9: from -4 to +5"]


def test_vertical_line_falling_arrow_points_down():
    svg = _upright(number_line_svg([Point(3, "noon"), Point(-5, "midnight")],
                                   Arrow(3, -5, "falls 8"), vertical=True))
    assert re.search(r'<path class="icg-nl-head" d="M[\d.]+ [\d.]+ l-6 -12 ', svg)


def test_vertical_line_keeps_its_colours_in_forced_dark_mode():
    """Every part is painted through a gradient of the drawing's own (forced dark mode leaves
    those alone), on a white ground, as the horizontal line."""
    svg = _upright(number_line_svg([Point(-4, "start")], Arrow(-4, 5, "rises 9"),
                                   [Span(-4)], marks=[0], vertical=True))
    assert '<rect class="icg-nl-bg"' in svg
    paints = re.findall(r'(?:fill|stroke)="([^"]+)"', svg)
    assert paints and all(p.startswith("url(#icg") for p in paints), paints
    ids = set(re.findall(r'<linearGradient id="([^"]+)"', svg))
    assert {p[5:-1] for p in paints} <= ids


def test_vertical_line_labels_stay_apart_and_inside_at_phone_width():
    """Labels at nearly the same height go to columns of their own; none passes the drawing's
    right edge; the drawing is at least NARROW_WIDTH units wide, so its 13-unit labels stay
    12 px or more in a 277 px figure (style.css shows it at most 360 px wide)."""
    from widgets.table.render import FONT, NARROW_WIDTH

    svg = _upright(number_line_svg([Point(2, "Ana"), Point(2, "Ben"), Point(3, "Cam"),
                                    Point(-9, "a long name for a point")], vertical=True))
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg)[1])
    assert width >= NARROW_WIDTH and FONT * 277 / width >= 12
    texts = [(float(x), float(y), t) for x, y, t in re.findall(
        r'<text class="icg-nl-ptlabel" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]+)</text>', svg)]
    assert len(texts) == 4
    for i, (x, y, t) in enumerate(texts):
        assert x + CHAR * len(t) <= width, t
        for x2, y2, t2 in texts[i + 1:]:
            apart = abs(y - y2) >= FONT or x + CHAR * len(t) <= x2 or x2 + CHAR * len(t2) <= x
            assert apart, (t, t2)
