"""A throwaway PostgreSQL cluster for the room store's tests (initdb + pg_ctl, Unix socket only).

The cluster lives in a temporary folder, listens on no TCP port (its socket is in that folder)
and is stopped and deleted at the end. As root, initdb and postgres run as the `postgres`
system user (Debian's postgresql package makes it), because PostgreSQL refuses to run as root.
Missing binaries skip the tests locally and fail them under CI=true (.ci/run installs them).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import IN_CI


def pg_bin_dir() -> Path | None:
    """The folder of initdb and pg_ctl: $ICG_PG_BIN if set, on PATH, else Debian's newest
    /usr/lib/postgresql/N/bin."""
    if os.environ.get("ICG_PG_BIN"):
        d = Path(os.environ["ICG_PG_BIN"])
        return d if (d / "initdb").exists() and (d / "pg_ctl").exists() else None
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                  key=lambda d: int(Path(d).parent.name) if Path(d).parent.name.isdigit() else 0)
    for d in reversed(dirs):
        if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
            return Path(d)
    return None


def _missing(why: str) -> None:
    if IN_CI:
        pytest.fail(f"PostgreSQL tests cannot run under CI=true: {why} (.ci/run installs "
                    "Debian's postgresql)")
    pytest.skip(f"PostgreSQL tests skipped: {why}")


class Cluster:
    """A running cluster; `url(db)` is a libpq URL over its Unix socket."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="icg-pg-"))
        self.data = self.dir / "data"
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.dir, ignore_errors=True)
                _missing("running as root and there is no `postgres` user to run PostgreSQL")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.prefix, *args], capture_output=True, text=True,
                              check=check, timeout=120)

    def start(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U",
                  "postgres", "-E", "UTF8", "--no-sync", "--no-instructions")
        self.start_again()

    def start_again(self) -> None:
        """Start the (stopped) cluster on its data folder."""
        opts = (f"-k {self.dir} -c listen_addresses='' -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=120")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts,
                  "-l", str(self.dir / "log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop",
                  check=False)

    def url(self, db: str = "postgres") -> str:
        return f"postgresql:///{db}?host={quote(str(self.dir), safe='')}&user=postgres"

    def create_db(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def pg_cluster() -> Iterator[Cluster]:
    """Body of a session fixture: a started cluster, stopped and removed afterwards."""
    bin_dir = pg_bin_dir()
    if bin_dir is None:
        _missing("initdb/pg_ctl not found (apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _missing("psycopg is not installed")
    cluster = Cluster(bin_dir)
    try:
        try:
            cluster.start()
        except subprocess.CalledProcessError as e:
            log = cluster.dir / "log"
            pytest.fail(f"the PostgreSQL test cluster did not start: {e.stderr}\n"
                        f"{log.read_text() if log.exists() else ''}")
        yield cluster
    finally:
        cluster.cleanup()


def throwaway_database(name: str) -> tuple[str, Cluster] | None:
    """A started throwaway cluster and the URL of a database `name` in it (for the benchmarks;
    the caller stops the cluster), or None without PostgreSQL's binaries."""
    bin_dir = pg_bin_dir()
    if bin_dir is None:
        return None
    cluster = Cluster(bin_dir)
    cluster.start()
    return cluster.create_db(name), cluster
