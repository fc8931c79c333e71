"""Where the browser tests' screenshots are, and how many there are of each device size.

    python3 tools/screenshots.py                 # tests/artifacts/
    python3 tools/screenshots.py --require DIR   # exit 1 if a device size has none

The browser tests write PNGs to tests/artifacts/ (git-ignored), named for what they show and
the device they were taken at (devices-03_hit_me-phone.png, devices-projector-every-hand.png).
`.ci/run` ends with this listing, which a CI keeps as the run's artifacts: one line with the
count and the folder, then one per device size. With --require, a size without a single
screenshot fails (the browser stage ran but did not look at the page at that size).
Standard library only: it runs before the virtual environment exists, too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"

# Each device size, and the words in a screenshot's name that say it was taken at that size.
SIZES: dict[str, tuple[str, ...]] = {
    "chromebook 1366x657": ("chromebook", "first-screen"),
    "ipad 768x1024 / 1024x768": ("ipad-portrait", "ipad-landscape"),
    "phone 390x844": ("phone",),
    "projector 1280x720, large print": ("projector-every-hand",),
    "200% zoom": ("zoom200",),
    "forced dark": ("forced-dark",),
}


def count(folder: Path) -> tuple[list[Path], dict[str, int]]:
    """The PNGs in `folder` and how many of them show each device size."""
    shots = sorted(folder.glob("*.png")) if folder.is_dir() else []
    per_size = {size: sum(1 for p in shots if any(w in p.stem for w in words))
                for size, words in SIZES.items()}
    return shots, per_size


def listing(folder: Path) -> tuple[list[str], list[str]]:
    """The lines to print, and the device sizes with no screenshot."""
    shots, per_size = count(folder)
    lines = [f"== screenshots: {len(shots)} in {folder.resolve()}"]
    lines += [f"   {size}: {n}" for size, n in per_size.items()]
    return lines, [size for size, n in per_size.items() if n == 0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ARTIFACTS)
    parser.add_argument("--require", action="store_true",
                        help="exit 1 if a device size has no screenshot")
    args = parser.parse_args(argv)
    lines, missing = listing(args.folder)
    print("\n".join(lines))
    if args.require and missing:
        print(f"== no screenshot at: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
