"""Deal codes: the one format and parser both card tables use.

A deal code is the seed of a game's shuffle: the same code deals the same cards. There are two
kinds.

* A **short code** is what a person types or a teacher shares: a whole number (up to 18 digits,
  such as 42) or a word of up to 40 letters, digits, - or _ (such as ``class-5b``). Anyone who
  knows it can recompute the deal with the open-source engine, and so can a laptop that tries
  every short number: a short code is only for a deal someone chose.
* A **long code** is what a table makes up for a deal nobody chose: 128 bits from `secrets`,
  far too many to try. It is shown (once the deal is over) as 28 characters in 7 groups of 4,
  ``7K3M-Q9XD-...``: 26 digits of Crockford's base 32 (0-9 and the letters without I, L, O, U)
  and 2 check digits, so that a typo gets a clear message instead of another deal. It is read
  back case-blind, with or without the dashes, with I/L read as 1 and O as 0.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from widgets.words import N_, _

SECRET_BITS = 128
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
_DIGIT = {c: i for i, c in enumerate(ALPHABET)} | {"I": 1, "L": 1, "O": 0}
DATA_DIGITS, CHECK_DIGITS, GROUP = 26, 2, 4
LONG_LEN = DATA_DIGITS + CHECK_DIGITS
#: ints from here up are shown as long codes (a short number has at most 18 digits)
LONG_FROM = 10**18
WORD_RE = re.compile(r"[A-Za-z0-9 _\-]{0,40}")
NUMBER_RE = re.compile(r"[+-]?\d{1,18}")
LONG_RE = re.compile(r"[0-9A-Za-z]{4}(?:[ -]?[0-9A-Za-z]{4}){6}")
FORMAT_HELP = N_("a number (up to 18 digits), a word of up to 40 letters, digits, - or _, "
                 "or a long code of 7 groups of 4 (e.g. 7K3M-Q9XD-...)")  # _() where shown


class DealCodeError(ValueError):
    """A deal code that cannot be read (the message says what a code may be)."""


def new_secret_seed() -> int:
    """A seed for a deal nobody chose: 128 bits from the system's entropy (never `random`)."""
    while True:
        seed = secrets.randbits(SECRET_BITS)
        if seed >= LONG_FROM:  # fails with probability 2**-68: shown as a long code
            return seed


def is_secret(code: Any) -> bool:
    """Is this a long code (a seed no person chose; too many to try)?"""
    return isinstance(code, int) and not isinstance(code, bool) and LONG_FROM <= code < \
        2**SECRET_BITS


def _check(value: int) -> int:
    digest = hashlib.sha256(value.to_bytes(SECRET_BITS // 8, "big")).digest()
    return int.from_bytes(digest[:4], "big") % 32**CHECK_DIGITS


def _digits(n: int, width: int) -> str:
    out = []
    for _i in range(width):
        n, d = divmod(n, 32)
        out.append(ALPHABET[d])
    return "".join(reversed(out))


def format_code(code: int | str) -> str:
    """How a deal code is shown: a long code in groups ('7K3M-Q9XD-...'), others as typed."""
    if is_secret(code):
        text = _digits(int(code), DATA_DIGITS) + _digits(_check(int(code)), CHECK_DIGITS)
        return "-".join(text[i:i + GROUP] for i in range(0, LONG_LEN, GROUP))
    return str(code)


def _parse_long(text: str) -> int:
    raw = re.sub(r"[ -]", "", text).upper()
    value = 0
    for c in raw[:DATA_DIGITS]:
        if c not in _DIGIT:
            raise DealCodeError(_("a long deal code has no letter {c} (it uses 0-9 and A-Z "
                                  "without I, L, O, U)").format(c=repr(c)))
        value = value * 32 + _DIGIT[c]
    check = 0
    for c in raw[DATA_DIGITS:]:
        if c not in _DIGIT:
            raise DealCodeError(_("a long deal code has no letter {c}").format(c=repr(c)))
        check = check * 32 + _DIGIT[c]
    if value >= 2**SECRET_BITS or check != _check(value):
        raise DealCodeError(_("that long deal code has a typo: check each group of 4 again"))
    return value


def parse_deal_code(value: Any) -> int | str | None:
    """A deal code from a box or an argument: None (empty: a fresh shuffle), an int (a number
    or a long code) or a word. Raises DealCodeError (a ValueError) with the allowed forms."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise DealCodeError(_("deal code must be {forms}").format(forms=_(FORMAT_HELP)))
    if isinstance(value, int):
        return value
    if not isinstance(value, str) or len(value) > 80:
        raise DealCodeError(_("deal code must be {forms}").format(forms=_(FORMAT_HELP)))
    text = value.strip()
    if LONG_RE.fullmatch(text):
        return _parse_long(text)
    if not WORD_RE.fullmatch(text):
        raise DealCodeError(_("deal code must be {forms}").format(forms=_(FORMAT_HELP)))
    if not text:
        return None
    if NUMBER_RE.fullmatch(text):
        return int(text)
    return text
