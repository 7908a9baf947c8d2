#!/usr/bin/env python3
"""Set up gg in a private virtual environment, then run a command inside it.

    python3 bootstrap.py gg run examples/spec-audit     # any gg command
    python3 bootstrap.py test [pytest args]             # the test suite

The first call creates `.venv/` next to this file and installs gg with its development extras;
later calls reinstall only when `pyproject.toml` changed. Needs nothing but Python 3.11+ with pip.
`test` also makes sure the console's browser tests have Debian's Chromium (`/usr/bin/chromium`):
when it is missing and this runs as root with apt-get, it installs the `chromium` package;
otherwise it says how to install it, and those tests fail naming the reason.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".gg-installed"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
CHROMIUM = Path("/usr/bin/chromium")


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
        ensure_chromium()
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


def ensure_chromium(
    chromium: Path = CHROMIUM,
    *,
    is_root: bool | None = None,
    apt_get: str | None = None,
    run: Callable[..., int] = subprocess.call,
) -> bool:
    """Whether Debian's Chromium is there for the browser tests, installing it as root if missing."""
    if chromium.exists() or os.environ.get("GG_CHROMIUM"):
        return True
    root = is_root if is_root is not None else hasattr(os, "geteuid") and os.geteuid() == 0
    apt = apt_get or shutil.which("apt-get")
    if not root or apt is None:
        print(
            f"bootstrap: {chromium} is missing, so the console's browser tests will fail; install Debian's "
            "chromium package (as root: apt-get install -y chromium) or set GG_CHROMIUM to a Chromium binary",
            file=sys.stderr,
        )
        return False
    print("bootstrap: installing Debian's chromium for the console's browser tests", file=sys.stderr)
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run([apt, "update", "-qq"], env=quiet)
    if run([apt, "install", "-y", "-qq", "chromium"], env=quiet) != 0 or not chromium.exists():
        print("bootstrap: installing chromium failed; the console's browser tests will fail", file=sys.stderr)
        return False
    return True


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
