"""One fold of the record feeds every count of a run: the console's Runs page, its run header,
`gg show` and `gg runs` say the same programs and error turns. Real `gg run`s are interrupted by
SIGINT: one agent mid-program, and many agents, each lead waiting on a leaf that spins. A forced
end (the program the stop cut short, the wait the stop ended) is no error the model made."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from console.conftest import GG, console_client

pytestmark = pytest.mark.timeout(300)  # real gg runs, interrupted, on a shared machine
SLOW_HALT = Path(__file__).resolve().parent / "slow_halt.py"
PROGRAMS = re.compile(r'<span class="programs">(.*?)</span>')
ERRORS = re.compile(r'<span class="errors[^"]*">(.*?)</span>')
RUNS_ROW = re.compile(r'<a class="row run-link[^"]*"[^>]*>(.*?)</a>', re.S)
CELL = re.compile(r'<span class="num[^"]*">(.*?)</span>')
START_SECS = 120.0
SPIN = 'import {{ files }} from "gg";\nfiles.writeFile("spinning-{agent}", "yes");\nwhile (true) {{}}\n'
WAIT = (
    'import {{ delegation }} from "gg";\n'
    'const spawn = () => delegation.spawnSubagent({{ agent: "{profile}", prompt: "go" }}).id;\n'
    "const ids = Array.from({{ length: {n} }}, spawn);\n"
    "delegation.waitForSubagents(ids);\n"
)


def _profile(slug: str, child: str | None) -> dict[str, object]:
    capabilities: list[dict[str, object]] = [
        {"id": "responses-as-code", "params": {"language": "javascript", "timeoutSecs": 600}}
    ]
    profile: dict[str, object] = {
        "slug": slug,
        "task": f"Be a {slug}.",
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": capabilities,
    }
    if child is not None:
        capabilities.append({"id": "subagents", "params": {"maxDepth": 2}})
        profile["subagents"] = [{"agent": child, "description": f"a {child}", "scopes": ["subagent"]}]
    return profile


def crowd(folder: Path, leads: int) -> list[str]:
    """A capability set whose root writes a plan (a program that runs), then either spins itself
    (`leads` 0) or spawns `leads` leads that each spawn one leaf and wait on it while it spins.
    The agents that spin."""
    (folder / "workspace").mkdir(parents=True)
    agents = [_profile("root", "lead" if leads else None), _profile("lead", "leaf"), _profile("leaf", None)]
    limits = {"maxParallel": 2 * leads + 2}  # a slot for everyone: the root's wait steps aside and back
    (folder / "gg.json").write_text(json.dumps({"name": "crowd", "limits": limits, "agents": agents}))
    spinning = [f"root.{n}.1" for n in range(1, leads + 1)] or ["root"]
    second = WAIT.format(n=leads, profile="lead") if leads else SPIN.format(agent="root")
    lines = [_line('import { files } from "gg";\nfiles.writeFile("plan", "lead");\n'), _line(second)]
    lines += [_line(WAIT.format(n=1, profile="leaf"), profile="lead") for _ in range(leads)]
    lines += [_line(SPIN.format(agent=agent), agent=agent) for agent in spinning if agent != "root"]
    (folder / "journal.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return spinning


def _line(program: str, **who: str) -> dict[str, object]:
    return {**who, "calls": [{"name": "submit_program", "arguments": {"program": program}}]}


def interrupted(folder: Path, spinning: list[str], *, slow_halt: bool = False) -> str:
    """`gg run folder` (from its parent) sent SIGINT once every agent of `spinning` spins; the
    run's id. `slow_halt` gives every wait the stop ends a second to report, before the run goes
    on (`slow_halt.py`)."""
    launcher = [sys.executable, str(SLOW_HALT)] if slow_halt else [str(GG)]
    gg = subprocess.Popen(
        [*launcher, "run", folder.name],
        cwd=folder.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        marks = [folder / "workspace" / f"spinning-{agent}" for agent in spinning]
        deadline = time.monotonic() + START_SECS
        while not all(m.exists() for m in marks) and gg.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(m.exists() for m in marks), "not every agent came to spin"
        gg.send_signal(signal.SIGINT)
        _, stderr = gg.communicate(timeout=120)
    finally:
        if gg.poll() is None:
            gg.kill()
    assert gg.returncode == 130, stderr
    with sqlite3.connect(folder.parent / ".gg" / "runs.db") as db:
        ((run_id,),) = db.execute("SELECT id FROM runs").fetchall()
    return str(run_id)


def counted_everywhere(base: Path, run_id: str) -> dict[str, tuple[int, int]]:
    """(programs, error turns) as the Runs page, the run header, `gg show` and `gg runs` say them."""
    client = console_client(base / ".gg" / "runs.db")
    (row,) = RUNS_ROW.findall(client.get("/").text)
    cells = CELL.findall(row)  # exit, agents, turns, programs, errors, ...
    header = client.get(f"/runs/{run_id}/instances").text
    shown = subprocess.run([str(GG), "show", run_id], cwd=base, capture_output=True, text=True, timeout=120)
    listed = subprocess.run(
        [str(GG), "runs", "--json"], cwd=base, capture_output=True, text=True, timeout=120
    )
    (entry,) = json.loads(listed.stdout)["runs"]
    end = " ".join(shown.stdout.split())
    shown_programs = re.search(r"· (\d+) programs? \(", end)
    assert shown_programs is not None, end
    return {
        "runs page": (int(cells[3]), int(cells[4])),
        "run header": (_number(PROGRAMS, header), _number(ERRORS, header)),
        "gg show / gg runs": (int(shown_programs[1]), entry["errorTurns"]),
    }


def _number(pattern: re.Pattern[str], page: str) -> int:
    found = pattern.search(page)
    assert found is not None, pattern.pattern
    return int(found[1].split()[0])


def test_one_agent_interrupted_mid_program_counts_the_cut_program_everywhere(tmp_path: Path):
    run_id = interrupted(tmp_path / "crowd", crowd(tmp_path / "crowd", 0))
    counts = counted_everywhere(tmp_path, run_id)
    assert counts == dict.fromkeys(counts, (2, 0))  # the plan that ran, and the one cut short


@pytest.mark.parametrize("slow_halt", [False, True], ids=["as-it-runs", "halted-waits-given-time"])
def test_many_agents_interrupted_count_no_forced_end_as_an_error_and_agree(tmp_path: Path, slow_halt: bool):
    run_id = interrupted(tmp_path / "crowd", crowd(tmp_path / "crowd", 4), slow_halt=slow_halt)
    counts = counted_everywhere(tmp_path, run_id)
    assert counts == dict.fromkeys(counts, (10, 0))  # the plan, the root's wait, 4 leads' waits, 4 leaves
    shown = subprocess.run(
        [str(GG), "show", run_id], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert "10 programs (0 failed, 9 interrupted)" in " ".join(shown.stdout.split())
