#!/usr/bin/env python3
"""Set up gg in a private virtual environment, then run a command inside it.

    python3 bootstrap.py gg run examples/spec-audit     # any gg command
    python3 bootstrap.py test [pytest args]             # the test suite

The first call creates `.venv/` next to this file and installs gg with its development extras;
later calls reinstall only when `pyproject.toml` changed. Needs nothing but Python 3.11+ with pip.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".gg-installed"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


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
        print(f"bootstrap: installing into .venv failed (exit {failure.returncode}); see above", file=sys.stderr)
        return 1
    if argv[0] == "test":
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
    print("bootstrap: installing gg and its dependencies into .venv (first run takes a minute)", file=sys.stderr)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.check_call([*pip, "--editable", f"{ROOT}[dev]"])
    STAMP.write_text(wanted)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
