"""The server's log bounded in size, whatever the students send.

The refusal log (serving/refusal_log.py) and serving/quiet_errors.py cap the lines of the
refusals they know; this caps every line the server's Python logging writes, the ones nobody
foresaw included:

- `LogCap`: at most `per_kind` records of one kind (the logger, the level and the message's
  template) and `per_minute` records of all kinds in each window of `window` seconds; the rest
  are counted, and when the window ends each kind that lost records gets one line "N more like
  this in the last 60 s (not written): [logger] template". Kinds tracked at once: `MAX_KINDS`;
  records of further kinds are counted together as one kind.
- every record written is at most `max_chars` characters (message and traceback together): a
  longer one keeps its beginning and its end (a traceback's last lines name the error) and says
  how many characters were left out.
- `CappedHandler` puts a `LogCap` in front of a real handler: the terminal's (stderr), or a
  `logging.handlers.RotatingFileHandler` (`rotating_file`: `files` files of `file_bytes` each,
  the oldest dropped).

`bound_logs` installs it for an application's logger and the root logger (tornado's loggers
and the project's `serving.*` loggers reach the terminal through the root logger).
serving/class_server.py calls it for `make class`. The clock is injectable (tests).
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

# Records of one kind written each window.
PER_KIND = 20
# Records of all kinds written each window.
PER_MINUTE = 300
# The window, in seconds.
WINDOW_S = 60.0
# Characters of one record (message and traceback).
MAX_RECORD_CHARS = 2000
# Kinds tracked at once; the records of any further kind are counted together.
MAX_KINDS = 500
# Characters of a kind's template quoted in its summary line.
KIND_CHARS = 120
# The rotating log file: this many files (the one written and the older ones) of this size.
LOG_FILES = 5
LOG_FILE_BYTES = 10 * 1024 * 1024
OTHER_KINDS = ("log_cap", logging.WARNING, "(other kinds of lines)")
TERMINAL_FORMAT = "%(message)s"


@dataclass
class _Count:
    written: int = 0
    skipped: int = 0
    handler: logging.Handler | None = None


def kind_of(record: logging.LogRecord) -> tuple[str, int, str]:
    """The kind of a record: its logger, its level and the start of its message's template
    (the template, not the formatted text: every access-log line of one status class is one
    kind, whatever the path)."""
    return record.name, record.levelno, str(record.msg)[:KIND_CHARS]


def shortened(text: str, max_chars: int) -> str:
    """`text` if it fits in `max_chars`, else its beginning and its end around a note of what
    was left out."""
    if len(text) <= max_chars:
        return text
    head = max_chars // 4
    tail = max_chars - head - 60
    return (f"{text[:head]}\n... ({len(text) - head - tail:,} characters left out) ...\n"
            f"{text[-tail:]}")


class LogCap:
    """How many records of each kind may be written in the current window."""

    def __init__(self, *, per_kind: int = PER_KIND, per_minute: int = PER_MINUTE,
                 window: float = WINDOW_S, max_chars: int = MAX_RECORD_CHARS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_kind = per_kind
        self.per_minute = per_minute
        self.window = window
        self.max_chars = max_chars
        self.clock = clock
        self._lock = threading.Lock()
        self._start = clock()
        self._written = 0
        self._kinds: dict[tuple[str, int, str], _Count] = {}
        self.skipped = 0  # since the start (for tests and benchmarks)

    def admit(self, record: logging.LogRecord,
              handler: logging.Handler) -> tuple[bool, list[tuple[logging.Handler,
                                                                  logging.LogRecord]]]:
        """Count `record`, to be written by `handler`: whether it may be written, and the
        summary lines of the window that ended before it (each with its handler)."""
        with self._lock:
            summaries = self._roll()
            kind = kind_of(record)
            count = self._kinds.get(kind)
            if count is None:
                if len(self._kinds) >= MAX_KINDS:
                    kind = OTHER_KINDS
                count = self._kinds.setdefault(kind, _Count())
            count.handler = handler
            if count.written >= self.per_kind or self._written >= self.per_minute:
                count.skipped += 1
                self.skipped += 1
                return False, summaries
            count.written += 1
            self._written += 1
            return True, summaries

    def flush(self) -> list[tuple[logging.Handler, logging.LogRecord]]:
        """The summary lines of the window, if it has ended (for a timer: a flood that stops
        is still summed up)."""
        with self._lock:
            return self._roll()

    def _roll(self) -> list[tuple[logging.Handler, logging.LogRecord]]:
        now = self.clock()
        if now - self._start < self.window:
            return []
        out = []
        for (name, _level, template), count in self._kinds.items():
            if count.skipped and count.handler is not None:
                out.append((count.handler, logging.LogRecord(
                    "log_cap", logging.WARNING, __file__, 0,
                    "%s more like this in the last %.0f s (not written): [%s] %s",
                    (f"{count.skipped:,}", self.window, name, template), None)))
        self._kinds.clear()
        self._written = 0
        self._start = now
        return out

    def shorten(self, record: logging.LogRecord) -> logging.LogRecord:
        """A copy of `record` of at most `max_chars` characters, its traceback in its text."""
        text = record.getMessage()
        if record.exc_info or record.exc_text:
            exc = record.exc_text or logging.Formatter().formatException(record.exc_info)
            text = f"{text}\n{exc}"
        if record.stack_info:
            text = f"{text}\n{record.stack_info}"
        if (len(text) <= self.max_chars and text == record.msg and not record.args
                and not record.exc_info and not record.stack_info):
            return record
        short = logging.makeLogRecord(record.__dict__)
        short.msg, short.args = shortened(text, self.max_chars), ()
        short.exc_info, short.exc_text, short.stack_info = None, None, None
        return short


class CappedHandler(logging.Handler):
    """A handler writing through `target` what `cap` lets through, shortened."""

    def __init__(self, target: logging.Handler, cap: LogCap) -> None:
        super().__init__(target.level)
        self.target = target
        self.cap = cap

    def handle(self, record: logging.LogRecord) -> bool:
        if not self.filter(record):
            return False
        keep, summaries = self.cap.admit(record, self)
        write(summaries)
        if keep:
            self.target.handle(self.cap.shorten(record))
        return keep

    def emit(self, record: logging.LogRecord) -> None:  # handle() does the work
        self.target.handle(record)

    def setFormatter(self, fmt: logging.Formatter | None) -> None:  # noqa: N802
        self.target.setFormatter(fmt)

    def flush(self) -> None:
        self.target.flush()

    def close(self) -> None:
        self.target.close()
        super().close()


def write(summaries: list[tuple[logging.Handler, logging.LogRecord]]) -> None:
    """Write summary lines, each through the real handler behind its `CappedHandler`."""
    for handler, record in summaries:
        getattr(handler, "target", handler).handle(record)


def rotating_file(path: str, file_bytes: int = LOG_FILE_BYTES,
                  files: int = LOG_FILES) -> logging.handlers.RotatingFileHandler:
    """A log file of at most `files` files of `file_bytes` bytes (path, path.1, ...)."""
    return logging.handlers.RotatingFileHandler(path, maxBytes=file_bytes,
                                                backupCount=max(files - 1, 0),
                                                encoding="utf-8")


def bound_logs(app_log: logging.Logger, cap: LogCap, target: logging.Handler | None = None,
               ) -> list[CappedHandler]:
    """Every record of `app_log` and of the root logger written through `cap`. `target`
    (e.g. `rotating_file(...)`) takes them all; without it each keeps its handlers (the
    application's on the terminal; the root logger's, or a stderr handler of warnings and
    errors as Python's last resort writes them). Returns the handlers installed."""
    root = logging.getLogger()
    if target is not None:
        if target.formatter is None and app_log.handlers:
            target.setFormatter(app_log.handlers[0].formatter)
        capped = CappedHandler(target, cap)
        for logger in (app_log, root):
            for old in list(logger.handlers):
                logger.removeHandler(old)
            logger.addHandler(capped)
        if root.level > logging.WARNING or root.level == logging.NOTSET:
            root.setLevel(logging.WARNING)
        return [capped]
    installed = []
    for logger in (app_log, root):
        if logger is root and not root.handlers:
            terminal = logging.StreamHandler(sys.stderr)
            terminal.setLevel(logging.WARNING)
            terminal.setFormatter(logging.Formatter(TERMINAL_FORMAT))
            root.addHandler(terminal)
        for old in list(logger.handlers):
            if isinstance(old, CappedHandler):
                continue
            logger.removeHandler(old)
            capped = CappedHandler(old, cap)
            logger.addHandler(capped)
            installed.append(capped)
    return installed
