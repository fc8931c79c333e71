"""The result of checking one answer, the same for every check: a lesson's practice and first
try, the practice page, Hit Me's end-of-round sum and |sum| (at a table alone or in a room) and
Flapjack's new total.

    Feedback(correct, message, valid=True, mistake=None, done=False, offer_show_me=False,
             info=False)

`message` is what the student reads, already in their language (widgets/words makes it);
`valid` False: no answer was taken (an entry refused, "Choose a card first"), nothing is
counted; `mistake`: the common mistake a wrong answer shows (engine/mistakes.py); `done`: the
question is settled (right, or its answer shown); `offer_show_me`: a table offers "Show me" now;
`info`: a note or an answer shown, drawn as information rather than as a wrong answer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Feedback:
    """The result of checking one answer (see the module's text)."""

    correct: bool
    message: str
    valid: bool = True
    mistake: str | None = None
    done: bool = False
    offer_show_me: bool = False
    info: bool = False

    @property
    def tone(self) -> str:
        """How a message area draws it: 'ok' (right), 'info' (a note, an answer shown) or
        'error' (wrong, or not taken)."""
        return "ok" if self.correct else "info" if self.info else "error"

    @property
    def icon(self) -> str:
        """The sign before the message: a tick (right), a cross (wrong), '!' (not taken)."""
        return "\u2714" if self.correct else "\u2717" if self.valid else "!"
