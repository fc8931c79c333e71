"""What a kernel writes to its own stdout and stderr goes through the server's bounded log
(serving/kernel_output.py), not to the server's terminal: a real kernel started by the class
server's kernel manager floods both, and the log keeps what its cap allows."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from pathlib import Path

import pytest

from serving.kernels import ClassroomKernelManager
from serving.log_cap import PER_KIND, CappedHandler, LogCap

FLOOD = (
    "import os, sys\n"
    "for i in range(3000):\n"
    "    os.write(2, b'kernel-flood-err %d\\n' % i)\n"
    "    os.write(1, b'kernel-flood-out %d\\n' % i)\n"
    "os.write(2, b'x' * 100000 + b'\\n')\n"
    "print('done', file=sys.__stderr__, flush=True)\n"
)


async def _flood(tmp_path: Path) -> ClassroomKernelManager:
    km = ClassroomKernelManager(root_dir=str(tmp_path), cull_unconnected_after=0)
    kernel_id = await km.start_kernel(path=str(tmp_path))
    try:
        client = km.get_kernel(kernel_id).client()
        client.start_channels()
        await client.wait_for_ready(timeout=60)
        reply = await client.execute_interactive(FLOOD, timeout=60)
        assert reply["content"]["status"] == "ok"
        client.stop_channels()
    finally:
        await km.shutdown_kernel(kernel_id, now=True)
    return km


def test_a_kernels_flood_of_output_reaches_the_log_within_its_cap(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    written = io.StringIO()
    handler = CappedHandler(logging.StreamHandler(written), LogCap())
    logger = logging.getLogger("serving.kernel_output")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        km = asyncio.run(_flood(tmp_path))
        deadline = time.monotonic() + 10  # the reader catches up
        while km.kernel_output.lines < 6000 + 50 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
        km.kernel_output.close()
    # every line was read (the 100,000-byte one in parts of at most 2,000 bytes) ...
    assert km.kernel_output.lines >= 6000 + 50
    # ... and the log holds what the cap lets through: one kind of line, PER_KIND of them
    lines = written.getvalue().splitlines()
    assert 1 <= len(lines) <= PER_KIND, len(lines)
    assert all(len(line) <= 2100 for line in lines)
    assert any("kernel-flood-" in line for line in lines)
    # nothing reached this process's own terminal
    out, err = capfd.readouterr()
    assert "kernel-flood" not in out + err
