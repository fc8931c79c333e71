"""The Spanish wording a Spanish-speaking teacher corrected: one term for each idea across the
catalogue and the lessons, numbers written as Spanish writes them, no English left."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from widgets.lessons.strategy.charts import percent_text
from widgets.page.language import grouped
from widgets.words import _, speaking
from widgets.words.mistakes import mistake_label

ROOT = Path(__file__).resolve().parent.parent
ES = ROOT / "widgets" / "locale" / "es" / "LC_MESSAGES" / "icg.po"
LESSONS = ROOT / "lessons" / "es"


def spanish() -> list[str]:
    with ES.open("rb") as f:
        catalog = read_po(f, locale="es")
    out = []
    for m in catalog:
        if m.id:
            out += list(m.string) if isinstance(m.string, tuple) else [m.string]
    return out


def lesson_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(LESSONS.glob("*.ipynb")))


def test_one_verb_turns_the_cards_up() -> None:
    """«destapar» everywhere (not «voltear» beside it)."""
    texts = spanish()
    assert not [t for t in texts if re.search(r"\bvolte", t, re.IGNORECASE)]
    assert any("destap" in t.lower() for t in texts)
    assert not re.search(r"\bvolte", lesson_text(), re.IGNORECASE)


def test_magnitude_is_not_a_size_and_fair_share_is_one_term() -> None:
    text = lesson_text()
    for lesson in sorted(LESSONS.glob("*.ipynb")):  # every Spanish page, the guide included
        assert "tamaño" not in lesson.read_text(encoding="utf-8"), lesson.name
    assert "parte justa" not in text and "reparto equitativo" in text
    assert "pocas rondas dan suerte" not in text and "¿La alcanza" not in text
    assert "¿Lo alcanza una |suma| de 3?" in text


def test_the_mistake_names_the_number_closer_to_zero() -> None:
    with speaking("es"):
        assert "más cercano al cero" in mistake_label("sign-of-closer")
    assert not [t for t in spanish() if "signo del menor" in t]


def test_no_english_left_and_you_deal() -> None:
    with speaking("es"):
        assert _("opponents: {error}").startswith("jugadores de la computadora")
        assert _("you deal") == "repartes tú"


def test_a_percentage_beside_a_grouped_count_uses_the_same_marks() -> None:
    """«82,9 %» beside «7.611 rondas» (not «82.9%»); English keeps 82.9% and 7,611."""
    with speaking("es"):
        assert (percent_text(0.829), grouped(7611)) == ("82,9\u00a0%", "7.611")
    with speaking("en"):
        assert (percent_text(0.829), grouped(7611)) == ("82.9%", "7,611")


def test_the_status_line_says_you_deal_to_the_dealer() -> None:
    """The dealer's own screen says «repartes tú» (not «reparte Tú»); another seat's dealer
    keeps its name."""
    from widgets.hit_me.session import HitMeSession
    from widgets.hit_me.view import status_text

    game = {"players": 3, "opponents": "easy", "seed": 7, "mode": "solo",
            "colors": "black-positive", "turn_order": "round-robin", "ace_eleven": False,
            "students": None}
    with speaking("es"):
        s = HitMeSession(bot_delay=0)  # (its names are the language's: «Tú» for seat 0)
        s.new_game(**game)
        _text, info = status_text(s, s.observation())
    assert s.observation()["dealer"] == 0 and "repartes tú" in info
    other = HitMeSession(bot_delay=0, names=["Mia", "Ben", "Ann"])
    other.new_game(**game)
    _text, info = status_text(other, other.observation())
    assert "dealer Mia" in info
