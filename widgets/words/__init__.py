"""The one place where sentences are made: events, reasons, hints, bot reasons, card names.

One module per idea, every name read from here (`from widgets.words import _, reason_text`):
`catalogues` (the catalogues, `_()`, `ngettext()`, `N_()`), `numbers`, `cards`, `people` (who did
it), `event_log` (the plain log), `hit_me_log`, `flapjack_log`, `mistakes` (each common
mistake's label and feedback), `reasons` (refused moves and settings), `room_errors`,
`bot_reasons`, `hints`, `questions` (a question's words made from its data), `settings` (the
labels of the games' settings).

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

from widgets.words.bot_reasons import (
    bot_reason_text,
)
from widgets.words.cards import (
    SUIT_SYMBOLS,
    card_aria,
    card_face,
    card_name,
    hidden_card_label,
)
from widgets.words.catalogues import (
    DOMAIN,
    LOCALE_DIR,
    N_,
    PSEUDO,
    SOURCE_LANGUAGE,
    TEMPLATE,
    UnknownLanguageError,
    _,
    available_languages,
    bound,
    catalogue,
    check_language,
    language,
    ngettext,
    pseudo_catalog,
    pseudo_text,
    set_language,
    set_translation,
    speaking,
)
from widgets.words.event_log import (
    format_log,
    log_parts,
    named,
    private_for_onlooker,
)
from widgets.words.flapjack_log import (
    flapjack_banner_text,
    flapjack_end_reason,
    flapjack_end_text,
    flapjack_log_line,
    flapjack_pass_sentence,
)
from widgets.words.hints import (
    HintList,
    flapjack_hint,
    flapjack_hint_lines,
    flapjack_hint_text,
    flapjack_hint_text_lines,
    hint_sentence,
    hit_me_hint,
    hit_me_hint_lines,
    hit_me_hint_text,
    hit_me_hint_text_lines,
)
from widgets.words.hit_me_log import (
    hit_me_story_line,
)
from widgets.words.live_class import LIVE_ERRORS, live_error_text
from widgets.words.mistakes import (
    mistake_feedback,
    mistake_label,
)
from widgets.words.numbers import (
    abs_math,
    number_words,
    paren_signed,
    percent,
    plain_totals,
    play_math,
    signed,
    step_math,
    sum_math,
    sum_terms,
    time_ago,
    total_text,
)
from widgets.words.people import (
    addressed,
    join_names,
    name_of,
)
from widgets.words.questions import (
    choice_words,
    number_refused_text,
    question_text,
    skill_name,
    status_name,
)
from widgets.words.reasons import (
    action_text,
    both_ways_refused,
    config_error_text,
    level_name,
    limit_short,
    limit_short_both,
    reason_text,
)
from widgets.words.room_errors import (
    CANNOT_CHANGE,
    NOT_PLAYING,
    ROOM_ERRORS,
    ROOM_STATUS,
    room_error_text,
)
from widgets.words.settings import (
    described_level,
    setting_label,
    setting_options,
    variant_title,
)

__all__ = [
    "CANNOT_CHANGE",
    "DOMAIN",
    "HintList",
    "LIVE_ERRORS",
    "LOCALE_DIR",
    "NOT_PLAYING",
    "N_",
    "PSEUDO",
    "ROOM_ERRORS",
    "ROOM_STATUS",
    "SOURCE_LANGUAGE",
    "SUIT_SYMBOLS",
    "TEMPLATE",
    "UnknownLanguageError",
    "_",
    "abs_math",
    "action_text",
    "addressed",
    "available_languages",
    "bot_reason_text",
    "both_ways_refused",
    "bound",
    "card_aria",
    "card_face",
    "card_name",
    "choice_words",
    "catalogue",
    "check_language",
    "config_error_text",
    "flapjack_banner_text",
    "flapjack_end_reason",
    "flapjack_end_text",
    "flapjack_hint",
    "flapjack_hint_lines",
    "flapjack_hint_text",
    "flapjack_hint_text_lines",
    "flapjack_log_line",
    "flapjack_pass_sentence",
    "format_log",
    "hidden_card_label",
    "hint_sentence",
    "hit_me_hint",
    "hit_me_hint_lines",
    "hit_me_hint_text",
    "hit_me_hint_text_lines",
    "hit_me_story_line",
    "join_names",
    "language",
    "level_name",
    "live_error_text",
    "limit_short",
    "limit_short_both",
    "log_parts",
    "mistake_feedback",
    "mistake_label",
    "name_of",
    "named",
    "ngettext",
    "number_refused_text",
    "number_words",
    "paren_signed",
    "percent",
    "plain_totals",
    "play_math",
    "private_for_onlooker",
    "pseudo_catalog",
    "pseudo_text",
    "question_text",
    "reason_text",
    "room_error_text",
    "set_language",
    "set_translation",
    "signed",
    "skill_name",
    "speaking",
    "status_name",
    "step_math",
    "sum_math",
    "sum_terms",
    "time_ago",
    "total_text",
    "variant_title",
    "described_level",
    "setting_label",
    "setting_options",
]
