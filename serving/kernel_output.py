"""What the kernels write to their own stdout and stderr, through the server's bounded log.

A kernel's process inherits the server's terminal: what it writes there (ipykernel's log, a
traceback from a widget message a page forged, a library's warning) would reach the terminal
or the log file directly, past the bounds of serving/log_cap.py, as often as a student can
make it happen. The class server's kernel manager (serving/kernels.py) starts every kernel
with its stdout and stderr on one pipe instead (`KernelOutput.fd`); a thread reads it line by
line and logs each line through the logger `serving.kernel_output` (warning level), so the
server's log cap holds for them too: at most PER_KIND of these lines a minute reach the log,
each at most MAX_LINE bytes, and the rest are counted in a summary line.

One pipe for all the kernels (two file descriptors, whatever the class's size); a line
written by a kernel in one write of at most PIPE_BUF bytes (4096 on Linux) is never mixed
with another's. The reader only reads and counts, so a kernel that writes a flood does not
hold the others up.
"""

from __future__ import annotations

import logging
import os
import threading

MAX_LINE = 2000  # bytes of a line read at once; a longer one comes in parts
log = logging.getLogger("serving.kernel_output")


class KernelOutput:
    """The pipe the kernels write to, and the thread that logs what they write."""

    def __init__(self, logger: logging.Logger = log) -> None:
        self.logger = logger
        self._lock = threading.Lock()
        self._write_fd: int | None = None
        self.lines = 0  # lines read (written to the log or not)

    def fd(self) -> int:
        """The pipe's writing end, for a kernel's stdout and stderr (made once, then kept
        open: a kernel restarted with the same settings writes to it again)."""
        with self._lock:
            if self._write_fd is None:
                read_fd, write_fd = os.pipe()
                os.set_inheritable(write_fd, True)
                threading.Thread(target=self._read, args=(read_fd,), daemon=True,
                                 name="kernel-output").start()
                self._write_fd = write_fd
            return self._write_fd

    def _read(self, read_fd: int) -> None:
        with os.fdopen(read_fd, "rb", buffering=65536) as pipe:
            while True:
                line = pipe.readline(MAX_LINE)
                if not line:
                    return
                self.lines += 1
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    self.logger.warning("kernel: %s", text)

    def close(self) -> None:
        """Close the writing end (the reader ends once the kernels' copies are gone)."""
        with self._lock:
            if self._write_fd is not None:
                os.close(self._write_fd)
                self._write_fd = None
