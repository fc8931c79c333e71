"""The language of the lesson widgets (explorer, practice, strategy lab, exit ticket, kit,
lesson tools, teacher's key box): `speaks` runs a widget's method inside `speaking(self.lang)`.

`speaking`, `language` and `N_` are widgets.words' (re-exported here for the modules that
import them from this one); `check_lang` checks a widget's `lang=` before anything is drawn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from widgets.words import N_, available_languages, language, speaking

F = TypeVar("F", bound=Callable[..., Any])


def languages() -> tuple[str, ...]:
    """The languages a widget can speak: English, every catalogue under widgets/locale, and
    the pseudo-language 'qps' of the tests."""
    return tuple(available_languages())


def check_lang(lang: Any) -> str | None:
    """A widget's `lang=` argument: None (the kernel's language) or a language it can speak
    (a clear error when the lesson names another)."""
    if lang is None:
        return None
    known = languages()
    if not isinstance(lang, str) or lang not in known:
        raise ValueError(f"lang must be one of {', '.join(known)} (or None: the kernel's "
                         f"language); got {lang!r}")
    return lang


def grouped(n: int) -> str:
    """A whole number with its digits grouped as the language writes them: 100,000 in
    English, 100.000 in Spanish (Babel's CLDR data)."""
    code = language()
    if code in ("en", "qps"):
        return f"{n:,}"
    try:
        from babel.numbers import format_decimal
    except ImportError:  # the static site's kernel (no Babel in the browser)
        return grouped_without_babel(n, code)
    return format_decimal(n, locale=code)


# A language's group separator and the fewest digits a number has before it is grouped
# (as Babel writes them: 1.000 in Spanish), for a kernel without Babel.
GROUPING = {"es": (".", 4)}


def grouped_without_babel(n: int, code: str) -> str:
    """`grouped` from GROUPING (English's comma for a language it does not list)."""
    sep, min_digits = GROUPING.get(code, (",", 4))
    if len(str(abs(n))) < min_digits:
        return str(n)
    return f"{n:,}".replace(",", sep)


def speaks(method: F) -> F:
    """Run a widget's method inside `speaking(self.lang)` (its text in the widget's language)."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        # __init__ speaks the `lang=` it is given (keyword-only), before self.lang exists
        code = (check_lang(kwargs.get("lang")) if method.__name__ == "__init__"
                else getattr(self, "lang", None))
        with speaking(code):
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


__all__ = ["N_", "check_lang", "grouped", "language", "languages", "speaking", "speaks"]
