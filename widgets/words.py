"""The one place where sentences are made: events, reasons, hints, bot reasons, card names.

The engine speaks data (engine.events.Event, engine.errors.Reason, ...); this module turns that
data into words for one viewer ("You hit" / "Ana hits"). Every user-facing string goes through
`_()` or `ngettext()`, translated at CALL time into the current language:

- `set_language(code)` sets the kernel's default language ("en", "es", ...; "qps" is a
  pseudo-locale for tests, made from the template widgets/locale/icg.pot, every message visibly
  marked ``⟦...⟧``).
- `speaking(code)` (a context manager over a contextvar) makes one widget speak its own `lang=`
  while the kernel's default stays as it is; `language()` says which language is current.
- The catalogues are gettext domain `icg` in widgets/locale/<lang>/LC_MESSAGES/icg.po, compiled
  to .mo by `make i18n` (run by `make venv`). A checkout without a compiled .mo compiles the .po
  in memory with Babel: Spanish never falls back to English silently.
- `N_()` marks a string for extraction without translating it (translated where shown).

Numbers, signs and card faces (7♥, +7, |-3| = 3) are not words and are not translated. Nothing
here imports ipywidgets, so the engine's command line and tests may use it too.
"""

from __future__ import annotations

import contextvars
import gettext
import io
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DOMAIN = "icg"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
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


# ----- numbers and arithmetic (signs and digits only: not translated) ------------------------
def signed(n: int) -> str:
    """An integer with its sign always written: +7, -7, 0."""
    return f"+{n}" if n > 0 else str(n)


def paren_signed(n: int) -> str:
    return f"({signed(n)})"


def step_math(before: int, delta: int, after: int) -> str:
    """'-3 + (+5) = +2': one card added to a running total."""
    return f"{signed(before)} + {paren_signed(delta)} = {signed(after)}"


def sum_math(values: Sequence[int]) -> str:
    """'+2 + (-7) + (+4) = -1': a list of card values added up."""
    values = list(values)
    if not values:
        return "0"
    total = sum(values)
    if len(values) == 1:
        return f"{signed(values[0])} = {signed(total)}"
    terms = [signed(values[0])] + [paren_signed(v) for v in values[1:]]
    return f"{' + '.join(terms)} = {signed(total)}"


def percent(n: int) -> str:
    """'54%' (a number and its sign, not a word: the messages say '{pct}', not '{pct}%', which
    gettext tools would read as a printf conversion)."""
    return f"{n}%"


def abs_math(n: int) -> str:
    """'|-3| = 3'."""
    return f"|{signed(n)}| = {abs(n)}"


def total_text(n: int, add_or_subtract: bool = False) -> str:
    """A Flapjack total as shown: '+7' / '-7' / '0'; plain '7' in add-or-subtract."""
    return str(n) if add_or_subtract else signed(n)


def play_math(before: int, delta: int, add_or_subtract: bool = False) -> str:
    """'+2 + (-7) = -5' (cards signed by colour) or '6 - 5 = 1' (add or subtract)."""
    after = before + delta
    if add_or_subtract:
        return f"{before} {'+' if delta >= 0 else '-'} {abs(delta)} = {after}"
    return f"{signed(before)} + ({signed(delta)}) = {signed(after)}"


def number_words(n: int) -> str:
    """'negative 7', 'positive 7' or 'zero', for screen readers."""
    if n == 0:
        return _("zero")
    return (_("positive {n}") if n > 0 else _("negative {n}")).format(n=abs(n))


# ----- cards ---------------------------------------------------------------------------------
def _rank_word(rank: int) -> str:
    return {
        1: _("ace"), 2: _("two"), 3: _("three"), 4: _("four"), 5: _("five"), 6: _("six"),
        7: _("seven"), 8: _("eight"), 9: _("nine"), 10: _("ten"), 11: _("jack"),
        12: _("queen"), 13: _("king"),
    }[rank]


def _suit_word(suit: str) -> str:
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}[suit]


def _card_fields(card: Any) -> tuple[int, str]:
    """(rank, suit letter) of an engine Card or a card view dict."""
    if isinstance(card, Mapping):
        return int(card["rank"]), str(card["suit"])
    return card.rank, card.suit.value


def card_name(card: Any) -> str:
    """Words a screen reader can read: 'seven of hearts' (a Card or a card view)."""
    rank, suit = _card_fields(card)
    return _("{rank} of {suit}").format(rank=_rank_word(rank), suit=_suit_word(suit))


def card_face(card: Any) -> str:
    """Rank and suit symbol: 'J♠', '10♥' (a Card or a card view)."""
    if isinstance(card, Mapping):
        return f"{card['label']}{card['symbol']}"
    return card.short


def card_aria(card: Mapping[str, Any], value: int | None = None) -> str:
    """'seven of hearts, value negative 7'; a face-down card: 'face-down card'."""
    if card.get("hidden") or "rank" not in card:
        return hidden_card_label()
    v = card.get("value") if value is None else value
    if v is None:
        return card_name(card)
    return _("{name}, value {number}").format(name=card_name(card), number=number_words(int(v)))


def hidden_card_label() -> str:
    return _("face-down card")


# ----- who did it ----------------------------------------------------------------------------
def name_of(names: Sequence[str], seat: int | None) -> str:
    """The name of a seat ('Ben'); 'Player 3' for a seat with no name; '' for the table."""
    if seat is None:
        return ""
    if 0 <= seat < len(names):
        return names[seat]
    return _("Player {n}").format(n=seat + 1)


def addressed(names: Sequence[str], viewer: int | None) -> int | None:
    """The seat spoken to as "you": the viewer, when the table calls them "You"."""
    if viewer is not None and 0 <= viewer < len(names) and names[viewer] in ("You", _("You")):
        return viewer
    return None


def _say(seat: int | None, names: Sequence[str], you: int | None, you_form: str,
         other_form: str, **kw: Any) -> str:
    """Fill in the second-person form when `seat` is the addressed viewer, else the third
    (both already translated)."""
    if seat is not None and seat == you:
        return you_form.format(**kw)
    return other_form.format(name=name_of(names, seat), **kw)


def join_names(names: Sequence[str], seats: Sequence[int]) -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cam'."""
    who = [name_of(names, s) for s in seats]
    if len(who) <= 1:
        return "".join(who)
    return _("{first} and {last}").format(first=", ".join(who[:-1]), last=who[-1])


# ----- the plain event log (command line, stored playthroughs, lessons) ----------------------
def log_parts(e: Any, add_or_subtract: bool = False) -> tuple[str, str, str]:
    """(what happened, its arithmetic, the private part) of an engine Event, in the third
    person without a subject ('holds'), as the command line and the stored playthroughs print
    it after 'seat 1:'. The private part speaks to its owner ('your sum: ...')."""
    k = e.kind.value
    pv = e.private
    text = math = private = ""
    if k == "deal" and e.card is not None:  # Hit Me
        text = _("is dealt a face-down card and {card} ({value}) face up").format(
            card=e.card.short, value=signed(e.value))
        math = _("face up: {value}").format(value=signed(e.value))
        if pv is not None:
            private = _("your face-down card is {card}; your sum is {math}").format(
                card=pv.card.short, math=sum_math(pv.values))
    elif k == "deal":  # Flapjack
        text = ngettext("deals 7 cards to each player; {n} card stays in the draw pile",
                        "deals 7 cards to each player; {n} cards stay in the draw pile",
                        e.count).format(n=e.count)
    elif k == "hit":
        text = _("says \u201cHit me!\u201d and gets {card} ({value})").format(
            card=e.card.short, value=signed(e.value))
        math = _("face-up cards: {math}").format(math=step_math(e.before, e.delta, e.after))
        if pv is not None:
            private = _("your sum: {math}").format(math=step_math(pv.before, pv.delta, pv.after))
    elif k == "full":
        text = _("has 7 cards and is done")
    elif k == "hold":
        text = _("holds")
        if pv is not None:
            private = _("you hold at {sum}, {abs}").format(sum=signed(pv.after),
                                                          abs=abs_math(pv.after))
    elif k == "ace":
        text = _("changes the value of an ace")
        if pv is not None:
            private = _("{card} now counts {value}; your sum is {sum}").format(
                card=pv.card.short, value=signed(pv.value), sum=signed(pv.after))
    elif k == "reveal":
        text = _("turns up {card}").format(card=e.card.short)
        math = f"{sum_math(e.values)}, {abs_math(e.after)}"
    elif k == "result":
        if len(e.winners) > 1:
            text = _("tie: co-winners {who}").format(
                who=", ".join(_("player {n}").format(n=w) for w in e.winners))
        else:
            text = _("player {n} wins, closest to zero").format(n=e.winners[0])
        math = _("lowest |sum| = {score}").format(score=e.score)
    elif k == "play":
        verb = _("leads") if e.lead else _("plays")
        if add_or_subtract:
            how = (_("and subtracts {n}") if e.delta < 0 else _("and adds {n}")).format(
                n=abs(e.delta))
            text = _("{verb} {card} {how}; the total is {total}").format(
                verb=verb, card=e.card.short, how=how, total=e.after)
            math = str(e.value) if e.lead and not e.before else play_math(
                e.before, e.delta, True)
        else:
            text = _("{verb} {card} {how}; the total is {total}").format(
                verb=verb, card=e.card.short, how=f"({signed(e.delta)})", total=signed(e.after))
            math = play_math(e.before, e.delta)
    elif k == "flapjack":
        total = total_text(e.after, add_or_subtract)
        text = ngettext("makes {total}: Flapjack! and takes {n} card",
                        "makes {total}: Flapjack! and takes {n} cards",
                        e.count).format(total=total, n=e.count)
        math = _("total = {total}").format(total=total)
    elif k == "draw":
        text = _("draws a card")
        if pv is not None:
            private = _("you drew {card} ({value})").format(card=pv.card.short,
                                                            value=signed(pv.value))
    elif k == "pass":
        text = _("passes (has no cards)") if e.reason == "no-cards" else \
            _("passes (has no legal card)")
    elif k == "end":
        text = _("game over: {why}").format(why=_end_reason_short(e.reason))
        math = _("cards won by seat: {counts}").format(counts=", ".join(map(str, e.values)))
    return text, math, private


def _end_reason_short(reason: str | None) -> str:
    return _("no player can play a legal card") if reason == "blocked" else \
        _("every card has been played")


def private_for_onlooker(e: Any) -> str:
    """The private part of an event for someone who sees every card (a worked example):
    'face down: 4♥; sum -4 + (+9) = +5', 'sum +2, |+2| = 2', 'drew 3♣ (+3)'."""
    pv = e.private
    if pv is None:
        return ""
    k = e.kind.value
    if k == "deal":
        return _("face down: {card}; sum {math}").format(card=pv.card.short,
                                                         math=sum_math(pv.values))
    if k == "hit":
        return _("sum {math}").format(math=step_math(pv.before, pv.delta, pv.after))
    if k == "hold":
        return _("sum {sum}, {abs}").format(sum=signed(pv.after), abs=abs_math(pv.after))
    if k == "ace":
        return _("{card} now counts {value}; sum {sum}").format(
            card=pv.card.short, value=signed(pv.value), sum=signed(pv.after))
    if k == "draw":
        return _("drew {card} ({value})").format(card=pv.card.short, value=signed(pv.value))
    return ""


def named(name: str, text: str) -> str:
    """'Ben holds': a name and what the log says they did."""
    return _("{name} {text}").format(name=name, text=text) if name else text


def format_log(events: Sequence[Any], add_or_subtract: bool = False) -> list[str]:
    """The command line's log: 'Seat 1: ...', its arithmetic and private part."""
    lines = []
    for e in events:
        text, math, private = log_parts(e, add_or_subtract)
        line = (_("Seat {n}: {text}").format(n=e.seat, text=text) if e.seat is not None
                else text)
        if math:
            line += f"   [{math}]"
        if private:
            line += "   " + _("(seen by Seat {n} only: {private})").format(n=e.seat,
                                                                          private=private)
        lines.append(line)
    return lines


# ----- Hit Me: the table's move log --------------------------------------------------------
def hit_me_story_line(event: Mapping[str, Any], names: Sequence[str], viewer: int | None,
                      *, teacher: bool = False) -> str:
    """One Hit Me event view as a sentence for `viewer`, then its arithmetic:
    'Ben says “Hit me!” and gets 5♠ (+5). Face-up cards: -3 + (+5) = +2'. The private part
    (present only for its owner, or for a teacher who turned every card up) follows."""
    you = addressed(names, viewer)
    seat = event.get("seat")
    k = event["kind"]
    card = event.get("card")
    face = card_face(card) if card else ""
    value = signed(event["value"]) if event.get("value") is not None else ""
    math = ""
    if k == "deal":
        line = _say(seat, names, you,
                    _("You are dealt a face-down card and {card} ({value}) face up"),
                    _("{name} is dealt a face-down card and {card} ({value}) face up"),
                    card=face, value=value)
    elif k == "hit":
        line = _say(seat, names, you, _("You say \u201cHit me!\u201d and get {card} ({value})"),
                    _("{name} says \u201cHit me!\u201d and gets {card} ({value})"),
                    card=face, value=value)
        math = _("Face-up cards: {math}").format(
            math=step_math(event["before"], event["delta"], event["after"]))
    elif k == "full":
        line = _say(seat, names, you, _("You have 7 cards and are done"),
                    _("{name} has 7 cards and is done"))
    elif k == "hold":
        line = _say(seat, names, you, _("You hold"), _("{name} holds"))
    elif k == "ace":
        line = _say(seat, names, you, _("You change the value of an ace"),
                    _("{name} changes the value of an ace"))
    elif k == "reveal":
        line = _say(seat, names, you, _("You turn up {card}"), _("{name} turns up {card}"),
                    card=face)
        math = _("Sum {math}").format(
            math=f"{sum_math(event['values'])}, {abs_math(event['after'])}")
    elif k == "result":
        winners = list(event["winners"])
        if len(winners) > 1:
            line = _("Tie: co-winners {who}").format(
                who=", ".join(name_of(names, w) for w in winners))
        else:
            line = _say(winners[0], names, you, _("You win, closest to zero"),
                        _("{name} wins, closest to zero"))
        math = _("Lowest |sum| = {score}").format(score=event["score"])
    else:
        line = ""
    if math:
        line = _("{sentence}. {math}").format(sentence=line, math=math)
    pv = event.get("private")
    if pv:
        mine = seat == viewer
        label = _("only you see") if not teacher else _("private")
        line += "  " + _("[{label}: {text}]").format(
            label=label, text=_hit_me_private(k, pv, mine, name_of(names, seat)))
    return line


def _hit_me_private(kind: str, pv: Mapping[str, Any], mine: bool, name: str) -> str:
    if kind == "deal":
        return (_("your face-down card is {card}; your sum is {math}") if mine else
                _("{name}'s face-down card is {card}; {name}'s sum is {math}")).format(
            card=card_face(pv["card"]), math=sum_math(pv["values"]), name=name)
    if kind == "hit":
        return (_("your sum: {math}") if mine else _("{name}'s sum: {math}")).format(
            math=step_math(pv["before"], pv["delta"], pv["after"]), name=name)
    if kind == "hold":
        return (_("you hold at {sum}, {abs}") if mine else
                _("{name} holds at {sum}, {abs}")).format(
            sum=signed(pv["after"]), abs=abs_math(pv["after"]), name=name)
    if kind == "ace":
        return (_("{card} now counts {value}; your sum is {sum}") if mine else
                _("{card} now counts {value}; {name}'s sum is {sum}")).format(
            card=card_face(pv["card"]), value=signed(pv["value"]), sum=signed(pv["after"]),
            name=name)
    return ""


# ----- Flapjack: move log, banners, the end ---------------------------------------------------
def flapjack_log_line(event: Mapping[str, Any], names: Sequence[str], viewer: int | None,
                      add_or_subtract: bool = False) -> str | None:
    """One Flapjack event view as a move-log line for `viewer` (None: not logged): plays as
    equations ('Ben: -3 + (+5) = +2  [5♠]'), Flapjacks, passes, private draws, the end."""
    you = addressed(names, viewer)
    k = event["kind"]
    p = event.get("seat")
    name = name_of(names, p) or _("Table")
    if k == "play":
        return _("{name}: {math}  [{card}]").format(
            name=name, math=play_math(event["before"], event["delta"], add_or_subtract),
            card=card_face(event["card"]))
    if k == "flapjack":
        total = total_text(event["after"], add_or_subtract)
        n = event["count"]
        if p is not None and p == you:
            return ngettext("{name}: Flapjack! The total is exactly {total}; {name} take {n} "
                            "card", "{name}: Flapjack! The total is exactly {total}; {name} "
                            "take {n} cards", n).format(name=name, total=total, n=n)
        return ngettext("{name}: Flapjack! The total is exactly {total}; {name} takes {n} card",
                        "{name}: Flapjack! The total is exactly {total}; {name} takes {n} cards",
                        n).format(name=name, total=total, n=n)
    if k == "draw":
        pv = event.get("private")
        if not pv:
            return None
        card, value = card_face(pv["card"]), signed(pv["value"])
        if p == viewer:
            return _("{name} drew {card} ({value}) (only you see this)").format(
                name=name, card=card, value=value)
        return _("{name} drew {card} ({value}) (shown: every hand is revealed)").format(
            name=name, card=card, value=value)
    if k == "pass":
        return flapjack_pass_sentence(event, names, you)
    if k == "deal":
        n = event["count"]
        if p is not None and p == you:
            return ngettext("You deal 7 cards to each player; {n} card stays in the draw pile",
                            "You deal 7 cards to each player; {n} cards stay in the draw pile",
                            n).format(n=n)
        return ngettext("{name} deals 7 cards to each player; {n} card stays in the draw pile",
                        "{name} deals 7 cards to each player; {n} cards stay in the draw pile",
                        n).format(name=name, n=n)
    if k == "end":
        return _("Game over: {why}").format(why=_end_reason_short(event.get("reason")))
    return None


def flapjack_pass_sentence(event: Mapping[str, Any], names: Sequence[str],
                           you: int | None) -> str:
    """'Ben passes (has no legal card)' / 'You pass (have no cards)'."""
    no_cards = event.get("reason") == "no-cards"
    if no_cards:
        return _say(event.get("seat"), names, you, _("You pass (have no cards)"),
                    _("{name} passes (has no cards)"))
    return _say(event.get("seat"), names, you, _("You pass (have no legal card)"),
                _("{name} passes (has no legal card)"))


def flapjack_banner_text(event: Mapping[str, Any], names: Sequence[str],
                         you: int | None, add_or_subtract: bool = False) -> str:
    """After the word 'Flapjack!': 'Ben makes the total exactly +13 and takes 3 cards.'"""
    total = total_text(event["after"], add_or_subtract)
    n = event["count"]
    seat = event.get("seat")
    if seat is not None and seat == you:
        return ngettext("{name} make the total exactly {total} and take {n} card.",
                        "{name} make the total exactly {total} and take {n} cards.",
                        n).format(name=name_of(names, seat), total=total, n=n)
    return ngettext("{name} makes the total exactly {total} and takes {n} card.",
                    "{name} makes the total exactly {total} and takes {n} cards.",
                    n).format(name=name_of(names, seat) or _("Someone"), total=total, n=n)


def flapjack_end_reason(reason: str) -> str:
    return {
        "blocked": _("no player can play a card that keeps the total within the limits"),
        "all-played": _("every card has been played"),
    }.get(reason, reason)


def flapjack_end_text(result: Mapping[str, Any], names: Sequence[str], you: int | None) -> str:
    """'Game over: every card has been played. Ada wins with 12 cards. Cards won: ...'."""
    why = flapjack_end_reason(result["reason"])
    won = result["cards_won"]
    winners = list(result["winners"])
    best = won[winners[0]] if winners else 0
    if len(winners) == 1:
        w = winners[0]
        if w == you:
            verdict = ngettext("{name} win with {n} card.", "{name} win with {n} cards.",
                               best).format(name=name_of(names, w), n=best)
        else:
            verdict = ngettext("{name} wins with {n} card.", "{name} wins with {n} cards.",
                               best).format(name=name_of(names, w), n=best)
    else:
        verdict = ngettext("A tie: {who} each won {n} card.", "A tie: {who} each won {n} cards.",
                           best).format(who=join_names(names, winners), n=best)
    counts = ", ".join(_("{name} {n}").format(name=name_of(names, i), n=n)
                       for i, n in enumerate(won))
    return _("Game over: {why}. {verdict} Cards won: {counts}.").format(
        why=why, verdict=verdict, counts=counts)


# ----- reasons: why a move is illegal, why a card is disabled --------------------------------
def reason_text(why: Any, add_or_subtract: bool = False, viewer: int | None = None) -> str:
    """A refusal (engine.errors.Why, or an IllegalActionError) in words:
    'the total would be +14, greater than the limit +13'. In add-or-subtract totals are
    never negative and carry no '+' sign. Told to `viewer`, their own turn is 'your turn'."""
    why = getattr(why, "why", why)
    r = why.reason.value
    d = why.data
    if r == "not-your-turn" and viewer is not None and d.get("seat") == viewer:
        return _("not your turn")
    num = (lambda n: str(n)) if add_or_subtract else signed
    if r == "game-over":
        return _("the game is over")
    if r == "no-such-player":
        return _("no such player: {seat}").format(seat=repr(d.get("seat")))
    if r == "not-an-action":
        return (_("not a Hit Me move: {action}") if d.get("game") == "hit-me"
                else _("not a Flapjack move: {action}")).format(action=d.get("action"))
    if r == "not-your-turn":
        return _("it is player {current}'s turn, not player {seat}'s").format(**d)
    if r == "not-in-hand":
        return _("{card} is not in player {seat}'s hand").format(**d)
    if r == "bad-sign":
        return _("the sign must be +1 (add) or -1 (subtract); got {sign}").format(
            sign=repr(d.get("sign")))
    if r == "sign-fixed":
        return _("cards are added with their own sign in this variant")
    if r == "lead-adds":
        return _("a lead can only add")
    if r == "limit-exceeded":
        if d["total"] > d["limit"]:
            text = _("the total would be {total}, greater than the limit {limit}")
        else:
            text = _("the total would be {total}, less than the limit {limit}")
        return text.format(total=num(d["total"]), limit=num(d["limit"]))
    if r == "ace-rule-off":
        return _("aces count 1 only: the 'ace one or eleven' rule is off")
    if r == "not-your-card":
        return _("{card} is not one of player {seat}'s cards").format(**d)
    if r == "not-an-ace":
        return _("{card} is not an ace").format(**d)
    if r == "ace-value":
        return _("an ace counts 1 or 11")
    if r == "ace-unchanged":
        return _("{card} already counts {value}").format(card=d["card"],
                                                        value=signed(d["value"]))
    if r == "not-yet-revealed":
        return _("the cards are not turned up yet")
    if r == "not-announcing":
        return _("the cards turn up only when every player is done")
    if r == "round-not-over":
        return _("the round is not over yet")
    if r == "finish-round-first":
        return _("finish this round before dealing the next")
    return r


# ----- the room store's refusals (rooms.RoomError: a code and its data) ----------------------
# Each code with its sentence; {room} is a room code as shown (KM7-Q4X), {n} a seat number as
# people count (from 1), {name} a player's name. Codes with two sentences: the second is for a
# room named by the class view (data "room"), the first for the student's own table.
ROOM_ERRORS: dict[str, str | tuple[str, str]] = {
    "refused": N_("That was refused."),
    "busy": N_("The room store is busy; nothing was changed. Try again in a moment."),
    "unavailable": N_("The room store cannot be reached; nothing was changed. The game goes "
                      "on when it is back."),
    "no-room": N_("There is no room {room}: check the code (it may have closed)."),
    "bad-code": N_("A room code is 6 characters: the digits 2 to 9 and the letters except I, "
                   "L, O and U (for example KM7-Q4X)."),
    "bad-name": N_("A name is 1 to {most} letters, digits, spaces or - ' ."),
    "poses-as-seat": N_("The name {name} reads like a computer player or an empty seat: "
                        "choose another name."),
    "moved-first": N_("The table changed while your move was made (someone else moved "
                      "first); look again and choose your move."),
    "table-changed": N_("The table changed before your move arrived (someone else moved "
                        "first). Look again and choose."),
    "host-only": N_("Only the student who opened this table can do this."),
    "damaged": N_("Room {room}: the saved game cannot be played (it was refused when "
                  "loaded)."),
    "no-free-code": N_("No free room code was found; try again."),
    "started": N_("This table has already started: ask the host, or come back to your own "
                  "seat with your seat link."),
    "name-taken": N_("The name {name} is taken at this table. If it is you, come back with "
                     "your seat link; otherwise add a letter."),
    "room-full": N_("Every seat at this table is taken."),
    "bad-link": N_("This seat link is not valid for this table."),
    "not-this-seat": N_("This seat link is not valid for this seat (or a computer player has "
                        "the seat: come back to it first)."),
    "no-seat": N_("There is no seat {n} at this table."),
    "no-student": (N_("Seat {n} has no student to replace."),
                   N_("Seat {n} of room {room} has no student to replace.")),
    "already-started": (N_("This table has already started."),
                        N_("Room {room} has already started.")),
    "other-game": N_("That change would put another game in the room."),
    "not-your-turn": N_("It is not your turn."),
    "illegal-move": N_("That move is not allowed: {reason}."),
    "wrong-pin": N_("That name and PIN do not hold a seat at this table."),
    "computer-already": N_("A computer player already plays for {name}."),
    "flapjack-shows-hands": N_("Flapjack shows every hand by itself when the game ends."),
    "face-up": N_("The cards of room {room} are already face up."),
    "not-all-done": N_("Room {room}: not every player is done yet; the cards turn up at the "
                       "end of the round."),
    "open-tables": N_("This computer already has {n} tables open: finish or close one before "
                      "opening another."),
    "tables-this-hour": N_("This computer opened {n} tables in the last hour: join a table, or "
                           "wait before opening another."),
}
# A room's status, as said in a sentence, and what a host's or teacher's change would make it.
ROOM_STATUS = {"waiting": N_("waiting"), "playing": N_("playing"), "paused": N_("paused"),
               "finished": N_("finished"), "closed": N_("closed")}
NOT_PLAYING = {"waiting": N_("The game has not started yet."),
               "paused": N_("The host has paused this table."),
               "finished": N_("This game is over."), "closed": N_("This table is closed."),
               "playing": N_("That was refused.")}
CANNOT_CHANGE = {
    "pause": (N_("This table is {status}: it cannot be paused."),
              N_("Room {room} is {status}: it cannot be paused.")),
    "resume": (N_("This table is {status}: it cannot be resumed."),
               N_("Room {room} is {status}: it cannot be resumed.")),
    "close": (N_("This table is {status}: it cannot be closed."),
              N_("Room {room} is {status}: it cannot be closed.")),
}


def room_error_text(error: Any) -> str:
    """A refusal of the room store (rooms.RoomError: `code` and `data`), or a
    malformed room code or name (rooms.codes.CodeError), as one sentence in the page's
    language. A developer's detail in the data (a driver's message) is never said."""
    from rooms.codes import MAX_NAME, CodeError

    if isinstance(error, CodeError):
        code = getattr(error, "code", "bad-code")
        d = {"most": MAX_NAME, "name": getattr(error, "name", "")}
    else:
        code, d = getattr(error, "code", "refused"), dict(getattr(error, "data", {}) or {})
    room = d.get("room")
    seat = d.get("seat")
    fields = {"room": room or "", "name": d.get("name", ""), "most": d.get("most", MAX_NAME),
              "n": seat + 1 if type(seat) is int else "?"}
    if code == "not-playing":
        return _(NOT_PLAYING.get(d.get("status"), NOT_PLAYING["playing"]))
    if code == "room-status":
        return _("Room {room} is {status}.").format(
            room=room or "", status=_(ROOM_STATUS.get(d.get("status"), "closed")))
    if code == "cannot-change" and d.get("action") in CANNOT_CHANGE:
        own, named = CANNOT_CHANGE[d["action"]]
        return _(named if room else own).format(
            room=room or "", status=_(ROOM_STATUS.get(d.get("status"), "closed")))
    if code == "empty-seats":
        n = d.get("count", 0)
        text = (ngettext("Room {room}: {n} seat is empty and it has no computer players; wait "
                         "for more students or make a new room.",
                         "Room {room}: {n} seats are empty and it has no computer players; "
                         "wait for more students or make a new room.", n) if room else
                ngettext("{n} seat is empty and this table has no computer players; wait for "
                         "more students or make a new room.",
                         "{n} seats are empty and this table has no computer players; wait "
                         "for more students or make a new room.", n))
        return text.format(room=room or "", n=n)
    if code in ("open-tables", "tables-this-hour"):
        return _(ROOM_ERRORS[code]).format(n=d.get("count", 0))
    if code == "pin-wait":
        n = d.get("seconds", 1)
        return ngettext("Too many wrong PINs for this seat: wait {n} second and try again.",
                        "Too many wrong PINs for this seat: wait {n} seconds and try again.",
                        n).format(n=n)
    if code in ("illegal-move", "not-your-turn") and isinstance(d.get("why"), dict):
        from engine.errors import Reason, Why

        why = dict(d["why"])
        try:
            reason = Reason(why.pop("reason"))
        except (KeyError, ValueError):
            reason = None
        if code == "illegal-move" and reason is not None:
            return _(ROOM_ERRORS["illegal-move"]).format(reason=reason_text(Why(reason, why)))
    text = ROOM_ERRORS.get(code, ROOM_ERRORS["refused"])
    if isinstance(text, tuple):
        text = text[1] if room else text[0]
    if code == "illegal-move":
        text = ROOM_ERRORS["refused"]
    return _(text).format(**fields)


def config_error_text(error: Any) -> str:
    """A refused setting (engine.errors.ConfigError) as one sentence in the page's language:
    from its code and numbers when it has a code (the engine's message is a developer's); a
    ConfigError made here in widgets/ already holds its sentence."""
    code, d = getattr(error, "code", None), dict(getattr(error, "data", {}) or {})
    if code == "too-few-cards":
        return ngettext("{decks} deck holds {cards} cards: not enough to deal 7 cards to each "
                        "of {players} players ({needed} are needed). Choose more decks or "
                        "fewer players.",
                        "{decks} decks hold {cards} cards: not enough to deal 7 cards to each "
                        "of {players} players ({needed} are needed). Choose more decks or "
                        "fewer players.", d.get("decks", 1)).format(
            decks=d.get("decks", 1), cards=d.get("cards", 0), players=d.get("players", 0),
            needed=d.get("needed", 0))
    if code == "too-few-decks":
        return ngettext("{players} players need at least {need} deck (each player may need 7 "
                        "cards).",
                        "{players} players need at least {need} decks (each player may need 7 "
                        "cards).", d.get("need", 1)).format(
            players=d.get("players", 0), need=d.get("need", 1))
    if code is not None:
        return _("These settings cannot be used.")
    return str(error)


def limit_short(why: Any, add_or_subtract: bool = False) -> str:
    """A card button's short reason: 'would make -15, less than -13'."""
    num = (lambda n: str(n)) if add_or_subtract else signed
    d = why.data
    if d["total"] > d["limit"]:
        return _("would make {total}, greater than {limit}").format(
            total=num(d["total"]), limit=num(d["limit"]))
    return _("would make {total}, less than {limit}").format(total=num(d["total"]),
                                                              limit=num(d["limit"]))


def limit_short_both(totals: Sequence[int], low: int, high: int,
                     add_or_subtract: bool = False) -> str:
    """Add or subtract, both ways refused: 'would make 23 or -3, outside 0 to 13'."""
    num = (lambda n: str(n)) if add_or_subtract else signed
    return _("would make {totals}, outside {low} to {high}").format(
        totals=_(" or ").join(num(t) for t in totals), low=num(low), high=num(high))


def both_ways_refused(add_why: str, subtract_why: str) -> str:
    return _("adding: {add}; subtracting: {subtract}").format(add=add_why, subtract=subtract_why)


def variant_title(variant: str) -> str:
    """A Flapjack variant's name (engine.flapjack.VARIANT_NAMES) as shown."""
    return {"classic": _("Classic"), "simple-ten": _("Simple ten"),
            "add-or-subtract": _("Add or subtract")}.get(variant, variant)


def level_name(level: str) -> str:
    """A computer players' level as shown: 'easy', 'medium', 'hard' (others as given)."""
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}.get(level, level)


def action_text(action: Any) -> str:
    """An engine action in words, lower case: 'hit', 'hold', 'count A♠ as 11', 'play 7♥'."""
    from engine.flapjack import Play
    from engine.hit_me import ChooseAce, Hit, Hold, Reveal

    if isinstance(action, Hit):
        return _("hit")
    if isinstance(action, Hold):
        return _("hold")
    if isinstance(action, Reveal):
        return _("reveal")
    if isinstance(action, ChooseAce):
        return _("count {card} as {n}").format(card=action.card.code.lower(),
                                               n=11 if action.high else 1)
    if isinstance(action, Play):
        return (_("play {card} (subtract)") if action.sign < 0 else _("play {card}")).format(
            card=action.card.code.lower())
    return str(action).lower()


# ----- computer players' reasons --------------------------------------------------------------
_SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def _bot_card(d: Mapping[str, Any]) -> str:
    """'7♥ (-7)', or '7♥ (subtract 7)' when adding or subtracting."""
    c = d["card"]
    short = f"{c['label']}{_SUIT_SYMBOLS[c['suit']]}"
    if d.get("add_or_subtract"):
        how = _("subtract {n}") if d["sign"] < 0 else _("add {n}")
        return f"{short} ({how.format(n=c['value'])})"
    return f"{short} ({signed(c['value'])})"


def bot_reason_text(decision: Any) -> str:
    """A computer player's decision (engine.bots.Decision: a code and numbers) in one
    sentence, in the first person: 'My sum is +7, which is 7 away from zero (4 or more), so
    I take a hit.'"""
    code, d = decision.code, decision.data
    if code in ("coin-hit", "coin-hold"):
        return (_("My sum is {sum}, and I flipped a coin: it said take a hit.") if code ==
                "coin-hit" else _("My sum is {sum}, and I flipped a coin: it said hold.")
                ).format(sum=signed(d["sum"]))
    if code == "threshold-hit":
        if d["sum"] == 0:
            return _("My sum is 0, and I take a hit whenever my sum is {t} or more away from "
                     "zero, so I take a hit.").format(t=d["threshold"])
        return _("My sum is {sum}, which is {away} away from zero ({t} or more), so I take a "
                 "hit.").format(sum=signed(d["sum"]), away=abs(d["sum"]), t=d["threshold"])
    if code == "threshold-hold":
        if d["sum"] == 0:
            return _("My sum is exactly 0, as close to zero as it can be, so I hold.")
        return _("My sum is {sum}, only {away} away from zero (less than {t}), so I hold."
                 ).format(sum=signed(d["sum"]), away=abs(d["sum"]), t=d["threshold"])
    if code == "expert-even":
        if d["hold_pct"] == 0:
            return (_("My sum is {sum}, so far from zero that I have almost no chance of "
                      "winning either way, so I take a hit.") if d["hit"] else
                    _("My sum is {sum}, so far from zero that I have almost no chance of "
                      "winning either way, so I hold.")).format(sum=signed(d["sum"]))
        return (_("Whether I hold at {sum} or take a hit, I estimate I win about {pct} of "
                  "the time, a little more if I take a hit, so I take a hit.") if d["hit"] else
                _("Whether I hold at {sum} or take a hit, I estimate I win about {pct} of "
                  "the time, a little more if I hold, so I hold.")).format(
            sum=signed(d["sum"]), pct=percent(d["hold_pct"]))
    if code == "expert-hit":
        return _("If I hold at {sum}, I estimate I win about {ph} of the time, and if I take "
                 "a hit about {pt}, so I take a hit.").format(
            sum=signed(d["sum"]), ph=percent(d["hold_pct"]), pt=percent(d["hit_pct"]))
    if code == "expert-hold":
        return _("If I hold at {sum}, I estimate I win about {ph} of the time, and if I take "
                 "a hit only about {pt}, so I hold.").format(
            sum=signed(d["sum"]), ph=percent(d["hold_pct"]), pt=percent(d["hit_pct"]))
    aos = bool(d.get("add_or_subtract"))
    card = _bot_card(d) if "card" in d else ""
    after = total_text(d.get("after", 0), aos)
    if code == "flapjack":
        return (ngettext("I lead {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} card in play.",
                         "I lead {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} cards in play.", d["taken"])
                if d["lead"] else
                ngettext("I play {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} card in play.",
                         "I play {card} to take the total from {before} to {after}, a "
                         "Flapjack, so I take the {n} cards in play.", d["taken"])).format(
            card=card, before=total_text(d["before"], aos), after=after, n=d["taken"])
    if code == "random-play":
        text = (_("I chose at random: I lead {card} and the total becomes {after}")
                if d["lead"] else
                _("I chose at random: I play {card} and the total becomes {after}")).format(
            card=card, after=after)
        return text + (_(", a Flapjack!") if d.get("flapjack") else ".")
    if code == "greedy-leave":
        vals = d["values"]
        if not vals:
            how = _("and no card I have not seen can turn it into a Flapjack")
        else:
            how = _("and only a card worth {values} could turn it into a Flapjack").format(
                values=_(" or ").join(total_text(v, aos) for v in vals))
            if d.get("choices", 1) > 1:
                how += _(", as few kinds of card as any play allows")
        return (_("I lead {card} to leave the total at {after}, {how}.") if d["lead"] else
                _("I play {card} to leave the total at {after}, {how}.")).format(
            card=card, after=after, how=how)
    if code == "expert-leave":
        if d["finishing"] == 0:
            why = _("none of the {unseen} cards I have not seen can turn {after} into a "
                    "Flapjack").format(unseen=d["unseen"], after=after)
        else:
            why = _("only {f} of the {unseen} cards I have not seen can turn {after} into a "
                    "Flapjack, so the chance that the next player holds one is about {pct}"
                    ).format(f=d["finishing"], unseen=d["unseen"], after=after,
                             pct=percent(d["pct"]))
        return (_("I lead {card} to leave the total at {after}: {why}.") if d["lead"] else
                _("I play {card} to leave the total at {after}: {why}.")).format(
            card=card, after=after, why=why)
    return code


# ----- hints -------------------------------------------------------------------------------------
class HintList:
    """A hint's line that is a list: a head and its items ('Your other plays (...): a; b; c.').
    str() is the sentence; a page shows three or more items as a list (components.hint_html)."""

    def __init__(self, head: str, items: Sequence[str], end: str = ".") -> None:
        self.head, self.items, self.end = head, list(items), end

    def __str__(self) -> str:
        return f"{self.head}: {'; '.join(self.items)}{self.end}"


def hint_sentence(lines: Sequence[Any]) -> str:
    """A hint's lines as one paragraph (the command line, tests)."""
    return " ".join(str(x) for x in lines)


def hit_me_hint(observation: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """What holding and hitting would do (engine.hints.hit_me_hint_data), in words; other
    seats by name ('Seat 2' without names)."""
    return hint_sentence(hit_me_hint_lines(observation, names))


def hit_me_hint_lines(observation: Mapping[str, Any],
                      names: Sequence[str] | None = None) -> list[Any]:
    """The hint of hit_me_hint, one sentence a line."""
    from engine.hints import hit_me_hint_data

    return hit_me_hint_text_lines(hit_me_hint_data(dict(observation)), names)


def hit_me_hint_text(d: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    return hint_sentence(hit_me_hint_text_lines(d, names))


def hit_me_hint_text_lines(d: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Any]:
    s = d["sum"]
    now = _("Your sum is {sum}, so your score would be {abs}.").format(sum=signed(s),
                                                                      abs=abs_math(s))
    st = d["state"]
    if st == "over":
        return [_("The round is over."), now]
    if st == "held":
        return [_("You hold at {sum}: your score is {abs}.").format(sum=signed(s),
                                                                  abs=abs_math(s)),
                _("Wait for the others to finish.")]
    if st == "full":
        return [_("You have 7 cards, so you are done."), now]
    lead = _("It is your turn.") if d["turn"] else _("When your turn comes:")
    hold = _("If you hold, you keep {sum} and your score is {score}.").format(
        sum=signed(s), score=abs(s))
    if s == 0:
        hit = _("If you hit, any card moves your sum away from 0, so your score could only "
                "get worse.")
    else:
        total = d["unseen"]
        hit = _("If you hit, {closer} of the {total} cards you have not seen (about {pct}) "
                "would bring your sum closer to zero").format(
            closer=d["closer"], total=total, pct=percent(round(100 * d["closer"] / total)))
        if d["zero"]:
            hit += _(", {n} of them all the way to 0").format(n=d["zero"])
        if d["same"]:
            hit += _("; {n} would leave it just as far from zero").format(n=d["same"])
        hit += _("; and {n} would take it farther from zero.").format(n=d["farther"])
    lines: list[Any] = [lead, now, hold, hit] if d["turn"] else [f"{lead} {now}", hold, hit]
    if d["done"]:
        who = ", ".join(_("{name} (face-up sum {sum})").format(
            name=name_of(names, seat) if names else _("Seat {n}").format(n=seat),
            sum=signed(up)) for seat, up in d["done"])
        lines.append(_("Already done: {who}; their face-down cards are still hidden.").format(
            who=who))
    return lines


def flapjack_hint(observation: Mapping[str, Any]) -> str:
    """Which cards make a Flapjack now and what every other play leaves
    (engine.hints.flapjack_hint_data), in words."""
    return hint_sentence(flapjack_hint_lines(observation))


def flapjack_hint_lines(observation: Mapping[str, Any]) -> list[Any]:
    """The hint of flapjack_hint, one sentence (or list) a line."""
    from engine.hints import flapjack_hint_data

    return flapjack_hint_text_lines(flapjack_hint_data(dict(observation)))


def _hint_card(c: Mapping[str, Any], aos: bool) -> str:
    short = f"{c['label']}{_SUIT_SYMBOLS[c['suit']]}"
    if aos:
        how = _("subtract {n}") if c.get("sign", 1) < 0 else _("add {n}")
        return f"{short} ({how.format(n=c['value'])})"
    return f"{short} ({signed(c['value'])})"


def flapjack_hint_text(d: Mapping[str, Any]) -> str:
    return hint_sentence(flapjack_hint_text_lines(d))


def flapjack_hint_text_lines(d: Mapping[str, Any]) -> list[Any]:
    aos = bool(d["add_or_subtract"])

    def num(n: int) -> str:
        return total_text(n, aos)

    targets = _(" or ").join(num(t) for t in d["targets"])
    st = d["state"]
    if st == "over":
        return [_("The game is over: no more plays.")]
    if st == "waiting":
        return [_("It is not your turn."),
                _("The total is {total}; a Flapjack is a total of exactly {targets}.").format(
                    total=num(d["total"]), targets=targets)]
    if st == "stuck":
        return [_("You have no card you can play without going past the limit.")]
    parts = [_("You lead: the table is empty.") if d["lead"] else
             _("The total is {total}.").format(total=num(d["total"]))]
    if d["makers"]:
        cards = ", ".join(_("{card} makes {after}").format(card=_hint_card(m["card"], aos),
                                                           after=num(m["after"]))
                          for m in d["makers"])
        parts.append(ngettext("Flapjack now: {cards}, and you would take {n} card.",
                              "Flapjack now: {cards}, and you would take {n} cards.",
                              d["taken"]).format(cards=cards, n=d["taken"]))
    else:
        parts.append(_("No card in your hand makes a Flapjack ({targets}) now.").format(
            targets=targets))
    if d["leaves"]:
        lines = [ngettext("{cards} leaves {after}, which {f} unseen card could turn into a "
                          "Flapjack (about {pct} chance the next player holds one)",
                          "{cards} leaves {after}, which {f} unseen cards could turn into a "
                          "Flapjack (about {pct} chance the next player holds one)",
                          x["finishing"]).format(
            cards=_(" or ").join(_hint_card(c, aos) for c in x["cards"]), after=num(x["after"]),
            f=x["finishing"], pct=percent(x["pct"])) for x in d["leaves"]]
        parts.append(HintList(_("Your other plays (counting the {n} cards you have not seen)"
                                ).format(n=d["unseen"]), lines))
    if d["blocked"]:
        cards = ", ".join(f"{c['label']}{_SUIT_SYMBOLS[c['suit']]} ({num(c['value'])})"
                          for c in d["blocked"])
        parts.append(_("You cannot play {cards}: the total would go past the limit "
                       "({low} to {high}).").format(cards=cards, low=num(d["low"]),
                                                    high=num(d["high"])))
    return parts
