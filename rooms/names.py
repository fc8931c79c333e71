"""Players' names as they are compared: look-alike letters folded, names that pose refused.

Two names are the same name when they look the same: `name_key` is the name after Unicode
NFKC, case folding and the confusable folding of Unicode's UTS #39 (its confusables data, as
the `confusable-homoglyphs` package ships it): every character is replaced by one
representative of the characters it can be confused with, so `Аna` (Cyrillic А), `Ana` and
`ＡＮＡ` have one key, and a second one is refused at a table ("the name is taken").

A name may not pose as what a room shows for a seat without a student: `Computer 3`,
`Seat 4`, `empty seat`, and their forms in every language of the catalogue (`Computadora 3`,
`Asiento 4`), compared by key (so `Ѕeat 4` with a Cyrillic Ѕ is refused too).
"""

from __future__ import annotations

import functools
import gettext
import unicodedata
from pathlib import Path


def _rank(c: str) -> tuple[int, int]:
    """Which of look-alike characters stands for them: ASCII letters first, then other ASCII,
    then the lowest code point."""
    return (0 if c.isascii() and c.isalpha() else 1 if c.isascii() else 2, ord(c))


@functools.lru_cache(maxsize=1)
def _confusables() -> dict[str, list[dict[str, str]]]:
    from confusable_homoglyphs.confusables import confusables_data

    return confusables_data


@functools.lru_cache(maxsize=4096)
def _fold(c: str) -> str:
    """The representative of `c` and the characters the data lists as its look-alikes (a
    prototype lists its whole class; every other member lists its prototype)."""
    glyphs = [g.get("c", "") for g in _confusables().get(c, ())]
    return min([c, *(g for g in glyphs if len(g) == 1)], key=_rank)


def name_key(name: str) -> str:
    """The key two names are compared by (see the module docstring)."""
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    return "".join(_key_char(c) for c in folded)


@functools.lru_cache(maxsize=4096)
def _key_char(c: str) -> str:
    """`c` folded (in lower and upper case), its case folded, and again, until it holds
    ('к' -> 'K' -> 'k'; 'А' -> 'A' -> 'a')."""
    for _ in range(4):
        candidates = [_fold(c)]
        upper = c.upper()
        if len(upper) == 1:  # the data lists some look-alikes only in upper case ('К' 'K')
            candidates.append(_fold(upper))
        folded = min((f.casefold() if len(f.casefold()) == 1 else f for f in candidates),
                     key=_rank)
        if folded == c:
            break
        c = folded
    return c


# The words a room shows for a seat without a student ({n}: the seat's number), as widgets/words
# says them (their msgids in widgets' catalogues), and the catalogues' folder.
SEAT_WORDS = ("Computer {n}", "Seat {n}", "seat {n}", "empty seat")
MAX_NUMBER = 20
LOCALE_DIR = Path(__file__).resolve().parent.parent / "widgets" / "locale"
DOMAIN = "icg"


def seat_forms() -> set[str]:
    """SEAT_WORDS in English and in every language with a catalogue in LOCALE_DIR (its .po,
    read by Babel, else its compiled .mo)."""
    forms = set(SEAT_WORDS)
    for folder in sorted(LOCALE_DIR.glob("*/LC_MESSAGES")):
        po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
        if po.is_file():
            from babel.messages.pofile import read_po

            with po.open("rb") as fp:
                catalog = read_po(fp)
            for word in SEAT_WORDS:
                message = catalog.get(word)
                if message is not None and isinstance(message.string, str) and message.string:
                    forms.add(message.string)
        elif mo.is_file():
            with mo.open("rb") as fp:
                translation = gettext.GNUTranslations(fp)
            forms.update(translation.gettext(word) for word in SEAT_WORDS)
    return forms


@functools.lru_cache(maxsize=1)
def _posing_keys() -> frozenset[str]:
    keys = set()
    for form in seat_forms():
        for n in range(MAX_NUMBER + 1):
            shown = form.format(n=n)
            stem = form.replace("{n}", "").strip()
            for text in (shown, shown.replace(" ", ""), f"{stem} #{n}", f"{stem}-{n}", stem):
                keys.add(name_key(text))
    return frozenset(keys)


def poses_as_a_seat(name: str) -> bool:
    """Whether `name` reads as a computer player or an empty seat ('Computer 3', 'Seat 4',
    'Computadora 3', 'asiento vacío', look-alike letters included)."""
    return name_key(name) in _posing_keys()
