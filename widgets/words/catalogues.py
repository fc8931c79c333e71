"""The language machinery: the catalogues, the current language, `_()`, `ngettext()`,
`N_()`."""

from __future__ import annotations

import contextvars
import gettext
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DOMAIN = "icg"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCE_LANGUAGE = "en"
PSEUDO = "qps"

translation: gettext.NullTranslations | None = None  # a test's own translation (set_translation)
_default_language = SOURCE_LANGUAGE
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("icg_language",
                                                                       default=None)
_catalogues: dict[str, gettext.NullTranslations] = {}
_lock = threading.Lock()


class UnknownLanguageError(ValueError):
    """A language code with no catalogue in widgets/locale."""


def available_languages() -> list[str]:
    """'en', every language with a catalogue in widgets/locale (its .po, or only its .mo as in
    the static site's packaged lessons), and the pseudo-locale."""
    found = sorted(p.name for p in LOCALE_DIR.glob("*")
                   if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
                   or (p / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file())
    return [SOURCE_LANGUAGE, *[c for c in found if c != SOURCE_LANGUAGE], PSEUDO]


def _check(code: str) -> str:
    if not isinstance(code, str) or code not in available_languages():
        raise UnknownLanguageError(
            f"unknown language {code!r}: the languages are "
            f"{', '.join(available_languages())} (a new one needs "
            f"widgets/locale/<code>/LC_MESSAGES/{DOMAIN}.po; see docs/translating.md)")
    return code


def _mo_from_catalog(catalog: Any) -> gettext.GNUTranslations:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def _load(code: str) -> gettext.NullTranslations:
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    if code == PSEUDO:
        return _mo_from_catalog(pseudo_catalog())
    mo = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    po = mo.with_suffix(".po")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    # No compiled catalogue (a checkout without `make i18n`) or an older one: compile the
    # .po in memory rather than speak English.
    from babel.messages.pofile import read_po

    with po.open("rb") as fp:
        return _mo_from_catalog(read_po(fp, locale=code, domain=DOMAIN))


def catalogue(code: str) -> gettext.NullTranslations:
    """The translation of `code` (loaded once)."""
    got = _catalogues.get(code)
    if got is not None:  # every _() comes here: no look at the locale folder once loaded
        return got
    _check(code)
    with _lock:
        if code not in _catalogues:
            _catalogues[code] = _load(code)
        return _catalogues[code]


def pseudo_text(message: str) -> str:
    """A message in the pseudo-locale: accented and marked, '{placeholders}' untouched:
    'Seat {name}' -> '⟦Šéàţ {name}⟧'."""
    out, depth = [], 0
    for ch in message:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        out.append(ch if depth or ch == "}" else _PSEUDO_MAP.get(ch, ch))
    return "\u27e6" + "".join(out) + "\u27e7"


_PSEUDO_MAP = dict(zip("AEIOUYaeiouyCcNnSsZz", "ÀÉÎÖÛÝàéîöûýÇçÑñŠšŽž", strict=True))


def pseudo_catalog() -> Any:
    """The pseudo-locale catalogue (babel Catalog) made from the template icg.pot."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    with TEMPLATE.open("rb") as fp:
        pot = read_po(fp, domain=DOMAIN)
    cat = Catalog(locale="en", domain=DOMAIN)
    for m in pot:
        if not m.id:
            continue
        if isinstance(m.id, (tuple, list)):
            cat.add(m.id, tuple(pseudo_text(i) for i in m.id), context=m.context)
        else:
            cat.add(m.id, pseudo_text(m.id), context=m.context)
    return cat


def set_language(code: str) -> None:
    """The kernel's language from now on ('en', 'es', 'qps'); an unknown code is refused
    (UnknownLanguageError) and changes nothing. A lesson notebook starts with this."""
    catalogue(code)
    global _default_language
    _default_language = code


def language() -> str:
    """The language spoken now: a widget's own (inside `speaking`), else the kernel's."""
    return _current.get() or _default_language


@contextmanager
def speaking(code: str | None) -> Iterator[None]:
    """Speak `code` inside the block (None: the kernel's language): a widget given `lang=`
    renders and handles its callbacks inside this."""
    if code is None:
        yield
        return
    catalogue(code)
    token = _current.set(code)
    try:
        yield
    finally:
        _current.reset(token)


def check_language(code: str | None) -> str | None:
    """A widget's `lang=` argument, checked (None stays None: the kernel's language)."""
    return None if code is None else _check(code)


def bound(fn: Any) -> Any:
    """`fn` (a click or change handler, a timer callback) made to run in the language spoken
    now: a widget's own `lang=` follows its handlers. Outside `speaking`, `fn` itself."""
    code = _current.get()
    if code is None:
        return fn

    def run(*args: Any, **kwargs: Any) -> Any:
        with speaking(code):
            return fn(*args, **kwargs)

    return run


def set_translation(t: gettext.NullTranslations | None) -> None:
    """Use `t` for every sentence from now on, whatever the language (None: back to the
    catalogues). Tests use it for a pseudo-language of their own."""
    global translation
    translation = t


def _active() -> gettext.NullTranslations:
    if translation is not None:
        return translation
    return catalogue(language())


def _(message: str) -> str:
    return _active().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks `message` for extraction; translated later, where it is shown, with _()."""
    return message
