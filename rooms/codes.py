"""Room codes, seat secrets and player names: making them, reading them back, checking them.

A room code is 6 characters from 30 that are hard to confuse when read aloud or copied from
a board: the digits 2-9 and the letters without I, L, O and U (no 0/O, no 1/I/L). It is shown
as two groups of three, ``KM7-Q4X``, and read back case-blind with or without the dash or
spaces. 30**6 is about 729 million codes: with a few hundred open rooms a guess hits one with
odds of about 1 in a million, and a kernel that waits between wrong codes (the widgets' job,
see docs/rooms.md) makes guessing hopeless. A code alone gives only a free seat in a room that
has not started: every seat taken is held by its secret.

A seat secret (and the host's) is 128 bits from `secrets`; the store keeps only a SHA-256 of
it (bound to the room and seat) and compares with `secrets.compare_digest`.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from engine.games import NAME_LENGTH
from rooms.names import name_key, poses_as_a_seat

ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LEN = 6
SECRET_BYTES = 16  # 128 bits
MAX_NAME = NAME_LENGTH


class CodeError(ValueError):
    """A room code, name or secret that is not well formed: `code` is its key in
    widgets.words.ROOM_ERRORS ("bad-code", "bad-name", "poses-as-seat"), whose sentence a page
    shows, and `name` the name refused. `str()` is the code and name, for a developer's log."""

    def __init__(self, code: str = "bad-code", name: str = "") -> None:
        super().__init__(code, name)
        self.code = code
        self.name = name

    def __str__(self) -> str:
        return f"{self.code}: name={self.name!r}" if self.name else self.code


def new_code() -> str:
    """A fresh room code as stored: 6 characters, no dash."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


def format_code(code: str) -> str:
    """How a room code is shown: ``KM7-Q4X``."""
    return f"{code[:3]}-{code[3:]}"


def parse_code(text: object) -> str:
    """A typed room code as stored (upper case, no dash or spaces), or CodeError."""
    if not isinstance(text, str) or len(text) > 20:
        raise CodeError("bad-code")
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LEN or any(c not in ALPHABET for c in code):
        raise CodeError("bad-code")
    return code


def new_secret() -> str:
    """A seat's or the host's secret: 128 bits, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(SECRET_BYTES)


def hash_secret(code: str, seat: int | str, secret: str) -> str:
    """What the store keeps of a secret: SHA-256 bound to the room and seat ('host' for the
    host). A 128-bit random secret needs no slow hash: there is nothing to guess from."""
    return hashlib.sha256(f"icg-room:{code}:{seat}:{secret}".encode()).hexdigest()


def secret_matches(stored_hash: str | None, code: str, seat: int | str, secret: object) -> bool:
    """Whether `secret` is the one whose hash was stored (constant-time compare)."""
    if stored_hash is None or not isinstance(secret, str) or not 0 < len(secret) <= 100:
        return False
    return secrets.compare_digest(stored_hash, hash_secret(code, seat, secret))


# Letters that draw nothing (Hangul fillers; NFKC makes the halfwidth one U+3164): a name of
# them looks blank, and "Ana" with one added looks like Ana but is another name.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def clean_name(text: object) -> tuple[str, str]:
    """A player's name as shown, and the key two names are compared by (case, spacing and
    look-alike letters ignored: 'Ana', ' ana ' and 'Аna' with a Cyrillic А are the same name;
    rooms/names.py), or CodeError; also for a name that poses as a computer player or
    an empty seat ('Computer 3', 'Seat 4')."""
    if not isinstance(text, str) or len(text) > 200:
        raise CodeError("bad-name")
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not 1 <= len(name) <= MAX_NAME or not all(c.isalnum() or c in " -'." for c in name) \
            or not BLANK_LETTERS.isdisjoint(name):
        raise CodeError("bad-name")
    if poses_as_a_seat(name):
        raise CodeError("poses-as-seat", name)
    return name, name_key(name)
