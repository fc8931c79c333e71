"""tools/screenshots.py: the listing `.ci/run` ends with (where the screenshots are, how many of
each device size), and --require failing when a device size has none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "screenshots.py"
EVERY_SIZE = ["devices-03_hit_me-chromebook", "devices-03_hit_me-ipad-portrait",
              "devices-03_hit_me-phone", "devices-projector-every-hand",
              "devices-01-zoom200-dpr2", "devices-forced-dark-phone"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          check=False)


def test_lists_the_folder_and_each_size(tmp_path: Path) -> None:
    for name in [*EVERY_SIZE, "devices-03_hit_me-ipad-landscape"]:
        (tmp_path / f"{name}.png").write_bytes(b"png")
    (tmp_path / "stages.txt").write_text("lint 1\n")
    done = run("--require", str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"== screenshots: 7 in {tmp_path.resolve()}"
    assert "   ipad 768x1024 / 1024x768: 2" in lines
    assert "   phone 390x844: 2" in lines  # the forced-dark phone shot is a phone's too
    assert "   forced dark: 1" in lines


def test_require_fails_when_a_size_has_no_screenshot(tmp_path: Path) -> None:
    for name in EVERY_SIZE:
        if "zoom200" not in name:
            (tmp_path / f"{name}.png").write_bytes(b"png")
    assert run(str(tmp_path)).returncode == 0  # a listing only
    done = run("--require", str(tmp_path))
    assert done.returncode == 1 and "200% zoom" in done.stderr
    assert "   200% zoom: 0" in done.stdout


def test_an_absent_folder_lists_none(tmp_path: Path) -> None:
    done = run(str(tmp_path / "absent"))
    assert done.returncode == 0 and done.stdout.startswith("== screenshots: 0 in ")
