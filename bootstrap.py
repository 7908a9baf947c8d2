#!/usr/bin/env python3
"""Set up gg in a private virtual environment, then run a command inside it.

    python3 bootstrap.py gg run examples/spec-audit     # any gg command
    python3 bootstrap.py test [pytest args]             # the test suite

The first call creates `.venv/` next to this file and installs gg with its development extras;
later calls reinstall only when `pyproject.toml` changed. Needs nothing but Python 3.11+ with pip.
`test` also makes sure the tests have the Debian packages they drive: Chromium for the console's
browser tests (`/usr/bin/chromium`) and PostgreSQL for the run store's tests
(`/usr/lib/postgresql/*/bin/initdb`). Those missing are installed with apt-get (one update, one
install) when this runs as root; otherwise it says how to install each, and those tests fail
naming the reason.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".gg-installed"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


@dataclass(frozen=True)
class Needed:
    """A Debian package some tests drive: the file that shows it is installed (a glob), which
    tests need it, and the variable that names another binary instead."""

    package: str
    marker: str
    tests: str
    override: str | None = None

    def present(self) -> bool:
        return bool(glob.glob(self.marker)) or bool(self.override and os.environ.get(self.override))

    def how(self) -> str:
        alternative = f" or set {self.override} to a binary" if self.override else ""
        return (
            f"{self.marker} is missing, so {self.tests} will fail; install Debian's {self.package} "
            f"package (as root: apt-get install -y {self.package}){alternative}"
        )


CHROMIUM = Needed("chromium", "/usr/bin/chromium", "the console's browser tests", "GG_CHROMIUM")
POSTGRESQL = Needed("postgresql", "/usr/lib/postgresql/*/bin/initdb", "the run store's PostgreSQL tests")


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        print(f"gg needs Python 3.11 or newer; this is {sys.version.split()[0]}", file=sys.stderr)
        return 2
    if not argv or argv[0] not in ("gg", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        ensure_installed()
    except subprocess.CalledProcessError as failure:
        print(
            f"bootstrap: installing into .venv failed (exit {failure.returncode}); see above", file=sys.stderr
        )
        return 1
    if argv[0] == "test":
        ensure_packages([CHROMIUM, POSTGRESQL])
        command = [str(BIN / "python"), "-m", "pytest", *argv[1:]]
    else:
        command = [str(BIN / "gg"), *argv[1:]]
    return subprocess.call(command, cwd=os.getcwd())


def ensure_installed() -> None:
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not (BIN / "python").exists():
        print("bootstrap: creating .venv", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print(
        "bootstrap: installing gg and its dependencies into .venv (first run takes a minute)", file=sys.stderr
    )
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.check_call([*pip, "--editable", f"{ROOT}[dev]"])
    STAMP.write_text(wanted)


def ensure_packages(
    needed: Sequence[Needed],
    *,
    is_root: bool | None = None,
    apt_get: str | None = None,
    run: Callable[..., int] = subprocess.call,
) -> bool:
    """Whether every package the tests drive is there, installing the missing ones as root."""
    missing = [each for each in needed if not each.present()]
    if not missing:
        return True
    root = is_root if is_root is not None else hasattr(os, "geteuid") and os.geteuid() == 0
    apt = apt_get or shutil.which("apt-get")
    if not root or apt is None:
        for each in missing:
            print(f"bootstrap: {each.how()}", file=sys.stderr)
        return False
    names = [each.package for each in missing]
    print(f"bootstrap: installing Debian's {', '.join(names)} for the tests", file=sys.stderr)
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run([apt, "update", "-qq"], env=quiet)
    installed = run([apt, "install", "-y", "-qq", *names], env=quiet) == 0
    failed = [each for each in missing if not installed or not each.present()]
    for each in failed:
        print(f"bootstrap: installing {each.package} failed; {each.tests} will fail", file=sys.stderr)
    return not failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
