"""Install the project's Voila template and Python config into a Python environment.

    python serving/install.py            # link into this interpreter's prefix (sys.prefix)
    python serving/install.py --copy     # copy instead (Docker images, Binder postBuild)
    python serving/install.py --check    # exit 1 unless installed here

Voila finds templates in <prefix>/share/jupyter/voila/templates/ and config
files in <prefix>/etc/jupyter/ (and in the directory it starts in). This puts
there:

    share/jupyter/voila/templates/classroom  (offline template, from share/ here)
    share/jupyter/voila/labextensions/icg-widget-restore
                                             (Voila pages only: widgets drawn once restored)
    etc/jupyter/voila.py                     (serving/voila_config.py: XSRF hook)
    etc/jupyter/voila.json                   (the root voila.json)
    etc/jupyter/jupyter_server_config.d/integer-card-games.json
                                             (enables serving.kernel_guard in Jupyter servers)

so that `voila`, `jupyter lab` and JupyterHub/Binder servers started from any
directory serve the lessons with the project's settings. Links are used by
default so that edits to the repository take effect without reinstalling.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def targets(prefix: Path) -> dict[Path, Path]:
    """Installed path -> source in the repository."""
    return {
        prefix / "share/jupyter/voila/templates/classroom":
            REPO_ROOT / "share/jupyter/voila/templates/classroom",
        prefix / "share/jupyter/voila/labextensions/icg-widget-restore":
            REPO_ROOT / "share/jupyter/voila/labextensions/icg-widget-restore",
        prefix / "etc/jupyter/voila.py": REPO_ROOT / "serving/voila_config.py",
        prefix / "etc/jupyter/voila.json": REPO_ROOT / "voila.json",
        prefix / "etc/jupyter/jupyter_server_config.d/integer-card-games.json":
            REPO_ROOT / "serving/jupyter_server_config.json",
    }


def always_copied(dest: Path) -> bool:
    """Files served as static files are copied, never linked: Tornado's static file handler
    refuses (403) a file whose real path is outside the folder it serves."""
    return "labextensions" in dest.parts


def is_installed(dest: Path, source: Path) -> bool:
    """True when `dest` is a link to `source` or a copy with the same content."""
    if dest.is_symlink():
        return dest.resolve() == source.resolve() and not always_copied(dest)
    if source.is_dir():
        return dest.is_dir() and all(
            (dest / f.relative_to(source)).is_file()
            and (dest / f.relative_to(source)).read_bytes() == f.read_bytes()
            for f in source.rglob("*")
            if f.is_file()
        )
    return dest.is_file() and dest.read_bytes() == source.read_bytes()


def install(prefix: Path, copy: bool = False) -> list[Path]:
    """Link (or copy) every target into `prefix`; return the installed paths."""
    done = []
    for dest, source in targets(prefix).items():
        dest.parent.mkdir(parents=True, exist_ok=True)
        if dest.is_symlink() or dest.is_file():
            dest.unlink()
        elif dest.is_dir():
            shutil.rmtree(dest)
        if copy or always_copied(dest):
            if source.is_dir():
                shutil.copytree(source, dest)
            else:
                shutil.copy2(source, dest)
        else:
            dest.symlink_to(source, target_is_directory=source.is_dir())
        done.append(dest)
    return done


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, default=Path(sys.prefix),
                        help="environment prefix (default: %(default)s)")
    parser.add_argument("--copy", action="store_true", help="copy instead of linking")
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if missing")
    args = parser.parse_args(argv)
    if args.check:
        missing = [str(d) for d, s in targets(args.prefix).items() if not is_installed(d, s)]
        for path in missing:
            print(f"not installed: {path} (run: python serving/install.py)", file=sys.stderr)
        return 1 if missing else 0
    for path in install(args.prefix, copy=args.copy):
        print(f"installed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
