"""widgets/words/ in a pseudo-language: every sentence made from engine data is marked.

The engine speaks data; every sentence about an event, a refusal, a hint, a computer player's
reason or a card comes from widgets/words/ through its translation. With a pseudo-language
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
from typing import Any

import pytest

from engine.bots import make_bot
from engine.flapjack import FlapjackConfig, FlapjackState
from engine.hit_me import HitMeConfig, HitMeGame, Phase
from widgets import words
from widgets.flapjack.session import YOU
from widgets.flapjack.table import FlapjackTable
from widgets.hit_me.table import HitMeTable


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
        while not rnd.players_done:
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
            while not st.is_over:
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
        assert t.phase is Phase.REVEALED
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
    while not t.state.is_over:
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


# ----- whole games in the pseudo-locale "qps" and in Spanish ----------------------
# The pseudo-locale is made from widgets/locale/icg.pot (every msgstr marked ⟦...⟧ and
# accented): a word that reaches a widget unmarked was never put through gettext. Every
# widget of the table is walked (widget_helpers.all_widgets) and every text the page shows is
# read: HTML text and its aria-label/title attributes, button labels and tooltips, field
# descriptions, placeholders and the options of dropdowns and toggle buttons.
from widget_helpers import all_widgets, errors_raise  # noqa: E402,F401

SHOWN_KEYS = ("value", "description", "tooltip", "placeholder", "_options_labels", "tooltips")


def _html_texts(value: str) -> list[str]:
    import html as h

    value = re.sub(r"<style>.*?</style>", " ", value, flags=re.S)
    attrs = re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', value)
    body = re.sub(r"<[^>]+>", " ", value)
    return [h.unescape(x) for x in (*attrs, body)]


def shown_texts(root: Any) -> list[str]:
    """Every text of every widget reachable from `root`, as the page shows it."""
    out: list[str] = []
    for w in all_widgets(root):
        state = w.get_state()
        for key in SHOWN_KEYS:
            v = state.get(key)
            for x in v if isinstance(v, list | tuple) else [v]:
                if isinstance(x, str) and x:
                    out.extend(_html_texts(x) if key == "value" else [x])
    return out


def assert_all_marked(root: Any, allowed: tuple[str, ...]) -> int:
    """No unmarked word in any widget text; returns how many texts were read."""
    texts = shown_texts(root)
    bad = [(unmarked(t, allowed), t) for t in texts if unmarked(t, allowed)]
    assert not bad, bad[:5]
    return len(texts)


@pytest.fixture
def qps() -> Iterator[None]:
    words.set_language("qps")
    yield
    words.set_language("en")


def play_hit_me(t: HitMeTable, rounds: int, check: Any) -> None:
    """Whole rounds by clicks (peek, hint, hit or hold, announce, turn up, next round),
    calling check() at every step."""
    for _round in range(rounds):
        while t.phase is Phase.PLAY:
            if t.session.walkthrough and t.game.round.current not in t.students:
                t.next_move_button.click()  # the teacher steps the computer players
                check()
                continue
            if t.viewer is None:  # pass the device
                t.pass_button.click()
                continue
            if not t.peeked:
                t.peek_button.click()
            t.hint.button.click()
            check()
            (t.hit_button if t.game.round.hits(t.viewer) == 0 else t.hold_button).click()
        while t.phase is Phase.ANNOUNCE:
            if t.viewer is None:
                t.pass_button.click()
                continue
            if not t.peeked:
                t.peek_button.click()
            values = t.game.round.observation(t.viewer)["seats"][t.viewer]["values"]
            t.announce.boxes["sum"].value = "99"  # a wrong answer first: feedback shown
            t.announce.boxes["abs"].value = "99"
            t.announce.check_button.click()
            check()
            t.announce.boxes["sum"].value = str(sum(values))
            t.announce.boxes["abs"].value = str(abs(sum(values)))
            t.announce.check_button.click()
            check()
            t.announce_done_button.click()
        assert t.phase is Phase.REVEALED
        check()
        t.next_round_button.click()


def play_flapjack(t: FlapjackTable, rng: random.Random, check: Any) -> None:
    """A whole game by clicks (hint, a card, its sign, the new total when asked)."""
    while not t.state.is_over:
        assert t.state.current == YOU
        t.hint.button.click()
        check()
        enabled = [b for b in t.card_buttons[:len(t.state.hands[YOU])] if not b.disabled]
        rng.choice(enabled).click()
        if t.config.add_or_subtract:
            check()
            signs = [b for b in (t.add_button, t.subtract_button) if not b.disabled]
            rng.choice(signs).click()
        if t.say_total and t.session.pending is not None:
            before, delta, after = t.session.expected()
            t.practice.boxes["total"].value = str(after + 1)  # wrong first: feedback
            t.practice.check_button.click()
            check()
            t.practice.boxes["total"].value = str(after)
            t.practice.check_button.click()
    check()


def open_everything(t: Any) -> None:
    """Settings open, a refused setting's message shown, the teacher's parts built."""
    t.settings_toggle.value = True
    t.settings.fields["seed"][0].value = "!!"  # a bad deal code: an error message
    t.refresh()


HIT_ME_CASES = [{"players": 3, "opponents": "medium", "seed": 11},
                {"players": 4, "opponents": "hard", "seed": 5, "mode": "pass-device", "students": 2,
                     "ace_eleven": True, "turn_order": "all-at-once"},
                {"players": 3, "opponents": "easy", "seed": 7, "walkthrough": True}]
FLAPJACK_CASES = [{"players": 3, "variant": "classic", "seed": 4, "opponents": "hard"},
                  {"players": 2, "variant": "add-or-subtract", "seed": 9, "say_total": True},
                  {"players": 4, "variant": "simple-ten", "seed": 2, "opponents": "easy",
                       "walkthrough": True}]


def _hit_me_allowed(t: HitMeTable) -> tuple[str, ...]:
    from widgets.table.deal_codes import format_code

    return (*t.names, format_code(t.deal_code), str(t.deal_code))


@pytest.mark.parametrize("case", HIT_ME_CASES)
def test_hit_me_whole_game_in_qps_has_no_unmarked_text(qps: None, case: dict) -> None:
    t = HitMeTable(bot_delay=0, **case)
    if case.get("walkthrough"):
        t.reveal_toggle.value = True
        t.next_move_button.click()
    open_everything(t)
    read = []
    play_hit_me(t, 2, lambda: read.append(assert_all_marked(t, _hit_me_allowed(t))))
    assert sum(read) > 200


@pytest.mark.parametrize("case", FLAPJACK_CASES)
def test_flapjack_whole_game_in_qps_has_no_unmarked_text(qps: None, case: dict) -> None:
    t = FlapjackTable(bot_delay=0, **case)
    if case.get("walkthrough"):
        t.walkthrough_toggle.value = False  # the game is played by clicks
    open_everything(t)
    read = []
    play_flapjack(t, random.Random(case["seed"]),
                  lambda: read.append(assert_all_marked(t, (*t.names, str(t.deal_code)))))
    assert sum(read) > 200


def _english_only_words() -> set[str]:
    """Words of the English msgids that no Spanish msgstr uses (so English they must be)."""
    from babel.messages.pofile import read_po

    def words_of(texts: Any) -> set[str]:
        out: set[str] = set()
        for t in texts:
            t = re.sub(r"\{[^}]*\}", " ", t)
            out |= {w.lower() for w in re.findall(r"[A-Za-z\u00c0-\u00ff]{3,}", t)}
        return out

    with (words.LOCALE_DIR / "es" / "LC_MESSAGES" / "icg.po").open("rb") as f:
        po = read_po(f)
    en, es = [], []
    for m in po:
        if not m.id:
            continue
        en.extend(m.id if isinstance(m.id, tuple) else [m.id])
        es.extend(m.string if isinstance(m.string, tuple) else [m.string])
    return words_of(en) - words_of(es)


def english_in(root: Any, allowed: tuple[str, ...], english: set[str]) -> list[tuple[str, str]]:
    names = {w.lower() for n in allowed for w in re.findall(r"[A-Za-z]+", n)}
    found = []
    for t in shown_texts(root):
        for w in re.findall(r"[A-Za-z\u00c0-\u00ff]{3,}", t):
            if w.lower() in english and w.lower() not in names:
                found.append((w, t))
    return found


@pytest.fixture
def spanish() -> Iterator[set[str]]:
    english = _english_only_words()
    assert {"hint", "hold", "round", "hearts", "player"} <= english  # the check can fail
    words.set_language("es")
    yield english
    words.set_language("en")


@pytest.mark.parametrize("case", HIT_ME_CASES)
def test_hit_me_whole_game_in_spanish_has_no_english(spanish: set[str], case: dict) -> None:
    t = HitMeTable(bot_delay=0, **case)
    if case.get("walkthrough"):
        t.reveal_toggle.value = True
        t.next_move_button.click()
    open_everything(t)

    def check() -> None:
        assert not english_in(t, _hit_me_allowed(t), spanish)

    play_hit_me(t, 2, check)
    assert "Pista" in [b.description for b in all_widgets(t) if hasattr(b, "description")]


@pytest.mark.parametrize("case", FLAPJACK_CASES)
def test_flapjack_whole_game_in_spanish_has_no_english(spanish: set[str], case: dict) -> None:
    t = FlapjackTable(bot_delay=0, **case)
    if case.get("walkthrough"):
        t.walkthrough_toggle.value = False
    open_everything(t)

    def check() -> None:
        assert not english_in(t, (*t.names, str(t.deal_code)), spanish)

    play_flapjack(t, random.Random(case["seed"]), check)


def test_positive_control_an_english_label_is_found(qps: None) -> None:
    """The walk finds an unmarked label, and English among Spanish words."""
    t = FlapjackTable(bot_delay=0, seed=1)
    t.new_deal_button.description = "New deal"
    with pytest.raises(AssertionError):
        assert_all_marked(t, tuple(t.names))
    assert english_in(t, tuple(t.names), {"deal"})


def test_lang_switches_one_table_while_the_kernel_stays_english() -> None:
    assert words.language() == "en"
    es = HitMeTable(bot_delay=0, seed=3, lang="es")
    en = HitMeTable(bot_delay=0, seed=3)
    assert es.hint.button.description == "Pista" and en.hint.button.description == "Hint"
    es.hit_button.click()  # a click is handled in the table's language ...
    en.hit_button.click()
    assert words.language() == "en"  # ... and the kernel's stays as it was
    assert "Recibes una carta boca abajo" in es.move_log.text()
    assert "You are dealt a face-down card" in en.move_log.text()
    assert es.names[0] == "Tú" and en.names[0] == "You"
    es.settings_toggle.value = True  # a part made later speaks the table's language too
    assert es.settings.apply_button.description == "Aplicar y repartir"
    f = FlapjackTable(bot_delay=0, seed=3, lang="es")
    assert f.new_deal_button.description == "Nuevo reparto"
    with pytest.raises(words.UnknownLanguageError, match="unknown language 'xx'"):
        HitMeTable(bot_delay=0, lang="xx")
    assert words.language() == "en"
