"""A real PostgreSQL server for the tests: Debian's binaries, a cluster made in a temporary folder,
listening on a free loopback port, stopped at the end.

- The binaries are the newest `/usr/lib/postgresql/<version>/bin/` (the `postgresql` package;
  `python3 bootstrap.py test` installs it when missing and run as root).
- `initdb` refuses root: run as root, the cluster is made and served by the `postgres` user
  (`runuser`), which owns the folder.
- The superuser is `gg`, password `PASSWORD`, logging in over TCP with scram-sha-256, so a wrong
  password is refused as a team's server would refuse it.
- Every test gets a database of its own (`fresh_database`).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "gg"
PASSWORD = "s3cret-pw"
SERVER_USER = "postgres"
_databases = itertools.count(1)


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL binaries on this machine."""


def binaries() -> Path:
    """The newest installed PostgreSQL's `bin/` folder."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: int(path.parent.parent.name)
    )
    if not found:
        raise PostgresUnavailable(
            "Debian's postgresql package is not installed (python3 bootstrap.py test installs it as root)"
        )
    return found[-1].parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One cluster, started on construction, stopped by `stop`."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync on, as a team's server runs; the tests' server skips it
        self.bin = binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="gg-postgres-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._as_root = os.geteuid() == 0
        if self._as_root:
            entry = pwd.getpwnam(SERVER_USER)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        (self.folder / "pw").write_text(PASSWORD)
        if self._as_root:
            os.chown(self.folder / "pw", pwd.getpwnam(SERVER_USER).pw_uid, -1)
        self._run(
            "initdb", "-D", str(self.data), "-U", USER, f"--pwfile={self.folder / 'pw'}",
            "--auth=scram-sha-256", "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        self.start()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        if not self.durable:
            options += " -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options, "-w", "start"
        )

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server: `immediate` as a crash would, `fast` as an operator's shutdown does
        (every commit it acknowledged on disk first)."""
        if not (self.data / "postmaster.pid").exists():
            return  # stopped already
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def fresh_database(self) -> str:
        """A new empty database's URL."""
        import psycopg

        name = f"gg_test_{os.getpid()}_{next(_databases)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
        return self.url(name)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._as_root:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr or done.stdout}")
