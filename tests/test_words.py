"""widgets/words.py in a pseudo-language: every sentence made from engine data is marked.

The engine speaks data; every sentence about an event, a refusal, a hint, a computer player's
reason or a card comes from widgets/words.py through its translation. With a pseudo-language
that wraps every message in ⟦...⟧, a sentence that reaches a widget unmarked was made
somewhere else (or read back from text): these tests fail the day a widget does that.

(The tables' fixed labels, such as button captions and settings, are not yet in the catalogue;
these tests walk what words.py makes: move logs, banners, hints, reasons, card labels.)
"""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator

import pytest

from engine.bots import make_bot
from engine.flapjack import FlapjackConfig, FlapjackState
from engine.hit_me import HitMeConfig, HitMeGame
from widgets import words
from widgets.flapjack_table import YOU, FlapjackTable
from widgets.hit_me_table import HitMeTable, Phase


class Pseudo(gettext.NullTranslations):
    """Every message wrapped in ⟦...⟧ (its placeholders kept)."""

    def gettext(self, message: str) -> str:
        return f"\u27e6{message}\u27e7"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"\u27e6{singular if n == 1 else plural}\u27e7"


@pytest.fixture
def pseudo() -> Iterator[None]:
    words.set_translation(Pseudo())
    yield
    words.set_translation(None)


def marked(text: str) -> bool:
    return text.startswith("\u27e6") and text.endswith(("\u27e7", "\u27e7.", "\u27e7]"))


def unmarked(text: str, names: tuple[str, ...] = ()) -> str:
    """The words of `text` outside every ⟦...⟧ (numbers, signs, card faces and the players'
    names are allowed)."""
    inner = re.compile("\u27e6[^\u27e6\u27e7]*\u27e7")
    while True:
        shorter = inner.sub("", text)
        if shorter == text:
            break
        text = shorter
    allowed = {w for n in names for w in n.split()}
    return " ".join(w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed)


def aria_labels(html: str) -> list[str]:
    import html as h

    return [h.unescape(a) for a in re.findall(r'role="img" aria-label="([^"]*)"', html)]


def test_english_by_default_and_swapped_back() -> None:
    assert words.number_words(-7) == "negative 7"
    words.set_translation(Pseudo())
    try:
        assert words.number_words(-7) == f"\u27e6negative {7}\u27e7"
        assert words.card_name({"rank": 12, "suit": "H"}) == \
            "\u27e6{rank} of {suit}\u27e7".format(rank="\u27e6queen\u27e7",
                                                  suit="\u27e6hearts\u27e7")
    finally:
        words.set_translation(None)
    assert words.card_name({"rank": 12, "suit": "H"}) == "queen of hearts"


def test_every_event_bot_reason_and_hint_sentence_is_marked(pseudo: None) -> None:
    for seed in range(3):
        game = HitMeGame(HitMeConfig(players=3, ace_eleven=seed == 1), seed=seed)
        bots = [make_bot(spec, "hit-me", seed) for spec in ("random", "threshold:4", "expert")]
        rnd = game.round
        while not rnd.over:
            seat = rnd.current
            obs = rnd.observation(seat)
            assert not unmarked(words.hit_me_hint(obs, ["Ana", "Ben", "Cam"]))
            d = bots[seat].choose(obs, rnd.legal_actions(seat))
            assert marked(words.bot_reason_text(d)), words.bot_reason_text(d)
            rnd.apply_action(d.action, seat)
        game.finish_round()
        for e in rnd.events:
            text, _math, private = words.log_parts(e)
            assert marked(text), text
            assert not private or marked(private), private
            for viewer in (None, 0):
                view = e.view(viewer, reveal=viewer is None)
                assert marked(words.hit_me_story_line(view, ["You", "Ben", "Cam"], viewer))
        for variant in ("classic", "add-or-subtract"):
            cfg = FlapjackConfig(players=3, variant=variant)
            st = FlapjackState.deal(cfg, rng=seed)
            fbots = [make_bot(s, "flapjack", seed) for s in ("random", "greedy", "expert")]
            while not st.over:
                seat = st.current
                obs = st.observation(seat)
                assert not unmarked(words.flapjack_hint(obs)), words.flapjack_hint(obs)
                d = fbots[seat].choose(obs, st.legal_actions(seat))
                assert marked(words.bot_reason_text(d)), words.bot_reason_text(d)
                for card in st.hands[(seat + 1) % 3][:2]:
                    why = st.why_illegal((seat + 1) % 3, card)
                    assert why is not None and marked(words.reason_text(why))
                st.apply_action(d.action, seat)
            aos = cfg.add_or_subtract
            for e in st.events:
                text, _math, private = words.log_parts(e, aos)
                assert marked(text), text
                line = words.flapjack_log_line(e.view(0), ["You", "Ada", "Ben"], 0, aos)
                assert line is None or marked(line), line


def test_hit_me_table_by_clicks_shows_only_marked_sentences(pseudo: None) -> None:
    t = HitMeTable(players=3, opponents="medium", seed=11, bot_delay=0)
    for _round in range(2):
        while t.phase is Phase.PLAY:
            assert t.game.round.current == 0
            if not t.peeked:
                t.peek_button.click()
            t.hint.button.click()
            assert not unmarked(re.sub(r"<[^>]+>", " ", t.hint.html.value)), t.hint.html.value
            (t.hit_button if t.game.round.hits(0) == 0 else t.hold_button).click()
        assert t.phase is Phase.ANNOUNCE
        values = t.game.round.observation(0)["seats"][0]["values"]
        t.announce.target.value = "sum"
        t.announce.boxes["sum"].value = str(sum(values))
        t.announce.boxes["abs"].value = str(abs(sum(values)))
        t.announce.check_button.click()
        t.announce_done_button.click()
        assert t.phase is Phase.REVEAL
        lines = t.move_log.text().splitlines()
        assert lines and not [ln for ln in lines if unmarked(ln)]
        labels = aria_labels(t.seats_html.value)
        assert labels and all(marked(a) for a in labels), labels
        for w in (t.seats_html, t.result_html):  # the round's state, as the page shows it
            shown = re.sub(r"<[^>]+>", " ", w.value).split("Replay")[0]  # (deal code: not yet)
            assert not unmarked(shown, tuple(t.names)), w.value
        t.next_round_button.click()


@pytest.mark.parametrize("variant", ["classic", "add-or-subtract"])
def test_flapjack_table_by_clicks_shows_only_marked_sentences(pseudo: None, variant: str) -> None:
    t = FlapjackTable(players=3, variant=variant, seed=4, bot_delay=0, opponents="hard")
    rng = random.Random(4)
    seen_banner = 0
    while not t.state.over:
        assert t.state.current == YOU
        shown = list(t.card_buttons[:len(t.state.hands[YOU])])
        for b in shown:
            assert not unmarked(b.tooltip), b.tooltip
            assert not unmarked(b.description), b.description
        labels = aria_labels(t.table_view.value)
        assert all(a.startswith("\u27e6") for a in labels), labels
        for w in (t.table_view, t.seats, t.status):  # the game's state, as the page shows it
            assert not unmarked(re.sub(r"<[^>]+>", " ", w.value), tuple(t.names)), w.value
        t.hint.button.click()
        assert not unmarked(re.sub(r"<[^>]+>", " ", t.hint.html.value)), t.hint.html.value
        enabled = [b for b in shown if not b.disabled]
        rng.choice(enabled).click()
        if t.config.add_or_subtract:
            signs = [b for b in (t.add_button, t.subtract_button) if not b.disabled]
            rng.choice(signs).click()
        for div in re.findall(r'class="icg-fj-(?:flapjack|pass)" role="status">(.*?)</div>',
                              t.banner.value):
            assert not unmarked(re.sub(r"<[^>]+>", "", div)), div
            seen_banner += 1
    lines = t.move_log.text().splitlines()
    assert lines and not [ln for ln in lines if unmarked(ln)]
    end = re.sub(r"<[^>]+>", " ", t.banner.value)
    assert "\u27e6" in end
