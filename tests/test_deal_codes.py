"""The one deal-code format both tables share (widgets/table/deal_codes.py): long codes for deals
nobody chose, shown once the deal is over and read back by either table's code box."""

from __future__ import annotations

import html
import random
import re

import pytest
from widget_helpers import errors_raise  # noqa: F401

from engine.hit_me import Phase
from widgets import FlapjackTable, HitMeTable
from widgets.table.components import SettingError
from widgets.table.components import parse_deal_code as settings_parser
from widgets.table.deal_codes import (
    DealCodeError,
    format_code,
    is_secret,
    new_secret_seed,
    parse_deal_code,
)

LONG = re.compile(r"(?:[0-9A-HJKMNP-TV-Z]{4}-){6}[0-9A-HJKMNP-TV-Z]{4}")


def test_long_codes_round_trip() -> None:
    rng = random.Random(5)
    for seed in [new_secret_seed() for _ in range(200)] + [
            10**18, 2**128 - 1, rng.getrandbits(128) | 2**100]:
        shown = format_code(seed)
        assert LONG.fullmatch(shown), shown
        assert parse_deal_code(shown) == seed
        assert parse_deal_code(f"  {shown.lower()}  ") == seed
        assert parse_deal_code(shown.replace("-", "")) == seed
        assert parse_deal_code(shown.replace("-", " ")) == seed
        assert is_secret(seed)


def test_look_alike_letters_read_as_digits() -> None:
    seed = next(s for s in iter(new_secret_seed, None) if "1" in format_code(s)
                and "0" in format_code(s))
    shown = format_code(seed)
    assert parse_deal_code(shown.replace("1", "l").replace("0", "O")) == seed
    assert parse_deal_code(shown.replace("1", "I")) == seed


def test_a_typo_in_a_long_code_is_caught() -> None:
    seed = new_secret_seed()
    shown = format_code(seed)
    caught = 0
    for i, c in enumerate(shown):
        if c == "-":
            continue
        other = "7" if c != "7" else "8"
        typo = shown[:i] + other + shown[i + 1:]
        try:
            got = parse_deal_code(typo)
        except DealCodeError as e:
            assert "typo" in str(e)
            caught += 1
        else:
            assert got != seed
    assert caught >= 26  # 2 check digits: a few in a thousand slip through, not here
    with pytest.raises(SettingError, match="typo"):  # the settings panels' message
        settings_parser(shown[:-1] + ("7" if shown[-1] != "7" else "8"))
    with pytest.raises(DealCodeError, match="no letter 'U'"):
        parse_deal_code("U" + shown[1:])


def test_short_codes_and_words_as_before() -> None:
    assert parse_deal_code(" 42 ") == 42 and format_code(42) == "42"
    assert parse_deal_code("class-5b") == "class-5b" and format_code("class-5b") == "class-5b"
    assert parse_deal_code("") is None and parse_deal_code(None) is None
    assert not is_secret(42) and not is_secret("class-5b") and not is_secret(True)
    for bad in ("<script>", "x" * 41, "a\nb", "\U0001f600", True, 2.5, 3j):
        with pytest.raises(DealCodeError):
            parse_deal_code(bad)


def finish_hit_me_round(t: HitMeTable) -> None:
    for _ in range(60):
        if t.phase is Phase.REVEALED:
            return
        if t.phase is Phase.PLAY:
            t.hold_button.click()
            continue
        if not t.peeked:
            t.peek_button.click()
        values = t.game.round.observation(0)["seats"][0]["values"]
        t.announce.boxes["sum"].value = str(sum(values))
        t.announce.boxes["abs"].value = str(abs(sum(values)))
        t.announce.check_button.click()
        t.announce_done_button.click()
    raise AssertionError("the round did not end")


def test_hit_me_shows_the_long_code_after_the_round_and_it_replays() -> None:
    t = HitMeTable(players=3, bot_delay=0)
    first = (list(t.game.round.face_down), [list(u) for u in t.game.round.face_up])
    assert not LONG.search(t.status_html.value + t.result_html.value)  # not during play
    finish_hit_me_round(t)
    shown = LONG.search(html.unescape(t.result_html.value))
    assert shown and parse_deal_code(shown[0]) == t.deal_code
    u = HitMeTable(players=3, bot_delay=0)  # a friend types it in Settings
    u.settings_toggle.value = True
    u.settings.fields["seed"][0].value = shown[0].lower()
    u.settings.apply_button.click()
    assert (list(u.game.round.face_down), [list(x) for x in u.game.round.face_up]) == first
    assert shown[0] in html.unescape(u.status_html.value)  # typed: theirs to see in play


def test_flapjack_shows_the_long_code_when_over_and_it_replays() -> None:
    t = FlapjackTable(players=2, bot_delay=0, teacher_controls=False)
    hands = [list(h) for h in t.state.hands]
    for _ in range(200):
        if t.state.is_over:
            break
        assert not LONG.search(t.header.value + t.banner.value)  # not during play
        enabled = [b for b in t.card_buttons[:len(t._hand_keys)] if not b.disabled]
        enabled[0].click()
    assert t.state.is_over
    shown = LONG.search(html.unescape(t.banner.value))
    assert shown and parse_deal_code(shown[0]) == t.deal_code
    u = FlapjackTable(players=2, bot_delay=0, teacher_controls=False)
    u.settings_toggle.value = True
    u.code_field.value = shown[0]
    u.settings.apply_button.click()
    assert [list(h) for h in u.state.hands] == hands
