"""The attack cases' world (tests/cases/attacks/README.md), shared by every test that runs them:
the canary fixture built under a test's own root, the cases' tokens, pads and ceilings, and what
the baseline compares before and after a case."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from gg.config.ceilings import Ceilings

CANARY_FILES = {
    "ws/notes.txt": "hello from the workspace\n",
    "ws/sub/inner.txt": "inner file\n",
    "outside/secret.txt": "CANARY-OUTSIDE-3f9d1c\n",
    "outside/canary-outside-listing-7c1e": "",
    "ws-sibling/secret.txt": "CANARY-SIBLING-2b8d44\n",
    "home/.ssh/id_ed25519": (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nCANARY-SSH-8b27e4\n-----END OPENSSH PRIVATE KEY-----\n"
    ),
    "home/.bashrc": "export CANARY_BASHRC=CANARY-HOME-0c61aa\n",
    "ws2/notes.txt": "hello from the workspace\n",
}


def case_number(request: pytest.FixtureRequest) -> str:
    """The number of the case a test runs: its `number` parameter, else the digits its name opens
    with (`test_039_...`)."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    return str(params.get("number", request.node.name[5:8]))


def build_canary(root: Path, case: Mapping[str, Any] | None = None) -> None:
    """The canary fixture under `root`, plus the files and links a case's `setup` asks for."""
    for path, text in CANARY_FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    setup = (case or {}).get("setup", {})
    for entry in setup.get("files", []):
        target = root / substitute(entry["path"], root)  # a path without a token is relative to root
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(entry["text"])
    for link in setup.get("symlinks", []):
        (root / link["path"]).symlink_to(substitute(link["target"], root))


def substitute(text: str, root: Path, workspace: str = "ws") -> str:
    """`text` with the cases' tokens replaced by the fixture's real places."""
    for token, value in [
        ("@@WS@@", str(root / workspace)),
        ("@@OUTSIDE@@", str(root / "outside")),
        ("@@HOME@@", str(root / "home")),
        ("@@ROOT@@", str(root)),
        ("@@PORT@@", "9"),
    ]:
        text = text.replace(token, value)
    return text


def padded(program: str, pads: Sequence[Mapping[str, Any]] | None) -> str:
    """A case's program with each pad marker expanded (how the 5 MiB programs are written)."""
    for pad in pads or []:
        program = program.replace(pad["marker"], pad["unit"] * int(pad["repeat"]))
    return program


def ceilings_of(case: Mapping[str, Any]) -> Ceilings:
    limits = case["ceilings"]
    return Ceilings(float(limits["timeoutSecs"]), int(limits["maxMemoryBytes"]))


def outside_snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file of the fixture outside the workspaces, with its bytes."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink() and not p.relative_to(root).parts[0].startswith("ws")
    }


def markers_in_tmp() -> set[Path]:
    """The markers an attack would leave in /tmp."""
    return {*Path("/tmp").glob("gg-pwned*"), *Path("/tmp").glob("gg-persist*")}
