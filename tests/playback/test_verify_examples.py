"""Every example's recorded run plays back faithful through the real turn loop (issue 26): under
`exact` for every example whose agents never take turns at once, under `shape` for the planner,
whose two implementers share one memories store on threads of their own, so the notice of one's
write reaches the other's window at whichever turn that thread is taking then (a record of it has
root.1 read it at its second turn, another at its third; no record fixes threads' timing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from playback.recorded import gg, recorded

CASES = [
    ("spec-audit", "exact", "1 agent"),
    ("python-api", "exact", "1 agent"),
    ("mcp-notes", "exact", "1 agent"),
    ("review-loop", "exact", "3 agents"),
    ("planner", "shape", "6 agents"),
]


@pytest.mark.parametrize(("example", "fingerprint", "agents"), CASES)
def test_the_examples_recorded_run_plays_back_faithful(
    tmp_path: Path, example: str, fingerprint: str, agents: str
) -> None:
    run_id = recorded(tmp_path, example)
    verified = gg(tmp_path, "replay", "--verify", run_id, "--fingerprint", fingerprint)
    assert verified.exit_code == 0, verified.output
    (line,) = verified.stdout.splitlines()
    assert line.startswith(f"faithful (fingerprint {fingerprint}): ") and line.endswith(
        f" of {agents} played as recorded"
    )


def test_the_default_fingerprint_is_exact_for_one_agent_and_shape_for_many(tmp_path: Path) -> None:
    one = recorded(tmp_path / "one", "spec-audit") if (tmp_path / "one").mkdir() is None else ""
    many = recorded(tmp_path / "many", "review-loop") if (tmp_path / "many").mkdir() is None else ""
    assert gg(tmp_path / "one", "replay", "--verify", one).stdout.startswith("faithful (fingerprint exact)")
    assert gg(tmp_path / "many", "replay", "--verify", many).stdout.startswith("faithful (fingerprint shape)")
