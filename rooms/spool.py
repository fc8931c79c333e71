"""The file where an outbox keeps what waits for the class's store: private, appended to, bounded.

An outbox (rooms.answers.Outbox) writes the answers and pages the store has not taken yet to a
file of its own in the waiting folder (`rooms.answers.spool_dir()`), so that they outlive the
kernel. They hold students' names and answers, like the store itself (0600), so:

- the folder is made 0700 (and set to 0700 if it was made wider), each file 0600;
- one JSON object a line, one line appended per answer or page: a flood of changes while the
  store is down writes each change once (the file was rewritten whole at every change: 4000
  name changes wrote 575 MiB);
- at most `MAX_BYTES` a file: past it, what comes is kept in the outbox's memory only (sent all
  the same once the store answers) and the first refusal is logged once.

A file may hold lines that were sent since (the outbox removes the file once everything is
sent, and answers carry their id, so an answer sent twice is written once). `read_items`
also reads the older form of these files (one JSON list).
"""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MAX_BYTES = 1024 * 1024  # a file's bound: about 2000 answers (a page sends at most 1000)
DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(folder: Path) -> None:
    """Make `folder` (and its missing parents) with mode 0700; an existing one gets 0700."""
    folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) != DIR_MODE:
        os.chmod(folder, DIR_MODE)


class SpoolFile:
    """One outbox's file of waiting items (JSON objects), appended to up to `max_bytes`."""

    def __init__(self, path: Path, max_bytes: int = MAX_BYTES) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.size = 0
        self.full = False  # an item did not fit (logged once)
        self.exists = False

    def append(self, entries: list[dict[str, Any]]) -> int:
        """Add these items at the end of the file (made 0600 if absent); the number written.
        Items past `max_bytes` are not written (the caller keeps them in memory)."""
        if not entries:
            return 0
        lines = []
        size = self.size
        for entry in entries:
            line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
            if size + len(line) > self.max_bytes:
                if not self.full:
                    self.full = True
                    log.warning("waiting file %s reached %d bytes: further answers wait in "
                                "memory only", self.path, self.max_bytes)
                break
            lines.append(line)
            size += len(line)
        if not lines:
            return 0
        private_dir(self.path.parent)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
        try:
            os.fchmod(fd, FILE_MODE)
            os.write(fd, b"".join(lines))
        finally:
            os.close(fd)
        self.size, self.exists = size, True
        return len(lines)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)
        self.size, self.full, self.exists = 0, False, False


def read_items(path: Path) -> list[dict[str, Any]]:
    """The items of a waiting file (JSON lines, or one JSON list); ValueError if a line is not
    an object, OSError if it cannot be read."""
    items: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            value = json.loads(line)
            for entry in value if isinstance(value, list) else [value]:
                if not isinstance(entry, dict):
                    raise ValueError("not a JSON object")
                items.append(entry)
    return items
