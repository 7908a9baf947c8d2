"""An arm's guest processes, counted as they run (issue 27, item 3): real engines, real runs of
agents answered by replayed journals. A program waiting on its subagents stays live in its guest
process, so it keeps counting against the arm's guests and the agents it waits on share the rest;
a turn waiting for its model's reply runs no program and holds none; when every guest held is held
by a program waiting on others, one more starts, so a wait nested in a wait never deadlocks."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gg.agents import leases
from gg.agents.scheduler import Scheduler
from gg.sandbox.arms import build_arm
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.arms.python import PythonArm
from gg.sdk.catalogue import default_registry
from gg.telemetry.events import ApiCall, Event
from runs.crew import Crew, line, profile, run_crew, subagents
from support.waiting import came_true

LANGUAGES = ("javascript", "python")
ENGINE = {"javascript": "deno", "python": "gg.sandbox.monty.worker"}  # in a guest's command line
WATCHDOG_SECS = 90.0

PROGRAMS = {
    "javascript": {
        "spawn": """import { delegation } from "gg";
const ids = [];
for (let i = 0; i < COUNT; i++) ids.push(delegation.spawnSubagent({ agent: "AGENT", prompt: "go" }).id);
delegation.waitForSubagents(ids);
""",
        # holds its guest until the test says go, looking every 10 ms; it marks that it runs first
        "hold": """import { files } from "gg";
files.writeFile(`in-${Math.random().toString(36).slice(2)}`, "running");
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  try { files.readFile("go"); break; } catch { Atomics.wait(pause, 0, 0, 10); }
}
""",
        "trivial": 'import { views } from "gg";\nviews.openText("turn", "one more");\n',
        "finish": 'import { session } from "gg";\nsession.finish("done");\n',
    },
    "python": {
        "spawn": """from gg import delegation
ids = [delegation.spawn_subagent(agent="AGENT", prompt="go").id for i in range(COUNT)]
delegation.wait_for_subagents(ids)
""",
        "hold": """import random
import time
from gg import files
files.write_file("in-" + str(random.random()), "running")
while True:
    try:
        files.read_file("go")
        break
    except Exception:
        time.sleep(0.01)
""",
        "trivial": 'from gg import views\nviews.open_text("turn", "one more")\n',
        "finish": 'from gg import session\nsession.finish("done")\n',
    },
}


def _program(language: str, name: str, count: int = 0, agent: str = "worker") -> str:
    return PROGRAMS[language][name].replace("COUNT", str(count)).replace("AGENT", agent)


class Lines:
    """Every line for guests the runs open (the real `Scheduler`, noted as it is made)."""

    def __init__(self) -> None:
        self.opened: list[Scheduler] = []

    def line_length(self) -> int:
        """How many turns wait in line for a guest, summed over the lines opened."""
        total = 0
        for line_ in self.opened:
            with line_._changed:  # pyright: ignore[reportPrivateUsage]
                total += len(line_._line)  # pyright: ignore[reportPrivateUsage]
        return total


@pytest.fixture
def lines(monkeypatch: pytest.MonkeyPatch) -> Lines:
    """Two guests an arm, whatever this machine's cores, and every line noted."""
    noted = Lines()

    class Noted(Scheduler):
        def __init__(self, slots: int) -> None:
            super().__init__(slots)
            noted.opened.append(self)

    monkeypatch.setattr(leases, "GUESTS", 2)
    monkeypatch.setattr(leases, "Scheduler", Noted)
    return noted


def guest_processes(language: str) -> set[int]:
    """The processes this process started that run `language`'s engine, as `/proc` shows them now."""
    me = os.getpid()
    children: set[int] = set()
    for task in os.listdir(f"/proc/{me}/task"):
        try:
            children |= {int(pid) for pid in Path(f"/proc/{me}/task/{task}/children").read_text().split()}
        except OSError:
            continue
    return {pid for pid in children if ENGINE[language] in _command(pid)}


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


class Calls:
    """A sink noting the operations each agent's programs called, as they call them."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def write(self, event: Event) -> None:
        if isinstance(event.payload, ApiCall):
            self.seen.append((event.agent_id, event.payload.operation))

    def close(self) -> None:
        pass

    def waiting(self, agent: str) -> bool:
        """Whether `agent`'s program has called its wait on its subagents."""
        return (agent, "delegation.wait_for_subagents") in self.seen


@pytest.fixture
def own_arm(request: pytest.FixtureRequest) -> Iterator[JavaScriptArm | PythonArm]:
    """A fresh arm of the test's language, so the processes it starts are this test's to count."""
    arm = build_arm(request.param, default_registry())
    assert isinstance(arm, JavaScriptArm | PythonArm)
    yield arm
    arm.close()


def _in_background(run: Callable[[], Crew]) -> tuple[threading.Thread, dict[str, Crew]]:
    ran: dict[str, Crew] = {}
    thread = threading.Thread(target=lambda: ran.update(crew=run()), daemon=True)
    thread.start()
    return thread, ran


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_program_waiting_on_its_subagents_keeps_its_guest_and_they_share_the_rest(
    tmp_path: Path, language: str, lines: Lines
) -> None:
    workers = 3
    before = guest_processes(language)
    calls = Calls()
    profiles = [
        profile("root", subagents(1), language=language, roster=["worker"]),
        profile("worker", language=language, timeout_secs=120),
    ]
    script = [
        line(_program(language, "spawn", workers)),
        line(_program(language, "finish")),
        line(_program(language, "hold"), profile="worker"),
        line(_program(language, "finish"), profile="worker"),
    ]
    thread, ran = _in_background(
        lambda: run_crew(tmp_path, profiles, script, limits={"maxParallel": workers + 1}, sinks=[calls])
    )
    workspace = tmp_path / "workspace"

    def running() -> int:
        return len(list(workspace.glob("in-*")))

    # settled: the root waits in its program, and every worker runs its program or is in line
    assert came_true(
        lambda: calls.waiting("root") and running() + lines.line_length() == workers, WATCHDOG_SECS
    )
    assert len(guest_processes(language) - before) == 2  # the root's, and one worker's
    assert running() == 1 and lines.line_length() == workers - 1
    (workspace / "go").write_text("go")
    thread.join(WATCHDOG_SECS)
    assert not thread.is_alive(), "the run did not end"
    crew = ran["crew"]
    assert crew.finished["status"] == "completed" and running() == workers


@pytest.mark.parametrize("own_arm", LANGUAGES, indirect=True)
def test_waits_nested_in_waits_start_one_guest_more_for_each_level_all_waiting_and_end(
    tmp_path: Path, lines: Lines, own_arm: JavaScriptArm | PythonArm
) -> None:
    language = "javascript" if isinstance(own_arm, JavaScriptArm) else "python"
    profiles = [
        profile("root", subagents(2), language=language, roster=["lead"]),
        profile("lead", subagents(2), language=language, roster=["worker"]),
        profile("worker", language=language),
    ]
    script = [
        line(_program(language, "spawn", 2, "lead")),
        line(_program(language, "finish")),
        line(_program(language, "spawn", 1, "worker"), profile="lead"),
        line(_program(language, "finish"), profile="lead"),
        line(_program(language, "finish"), profile="worker"),
    ]
    # two guests: the root and a lead waiting would hold both, and the worker it waits on none
    thread, ran = _in_background(
        lambda: run_crew(tmp_path, profiles, script, arm=own_arm, limits={"maxParallel": 8})
    )
    thread.join(WATCHDOG_SECS)
    assert not thread.is_alive(), "a wait held up what it waits on"
    crew = ran["crew"]
    assert crew.finished["status"] == "completed"
    assert sorted(crew.agents) == ["root", "root.1", "root.1.1", "root.2", "root.2.1"]
    assert [e["status"] for e in crew.of("agent_finished")] == ["completed"] * 5
    # the two guests, one more while the root and a lead waited, one more while both leads did
    assert own_arm.pool.started <= 4


@pytest.mark.parametrize("own_arm", LANGUAGES, indirect=True)
def test_many_agents_at_once_run_on_the_arms_guests_and_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_arm: JavaScriptArm | PythonArm
) -> None:
    monkeypatch.setattr(leases, "GUESTS", 4)
    language = "javascript" if isinstance(own_arm, JavaScriptArm) else "python"
    workers, turns = 8, 3
    profiles = [
        profile("root", subagents(1), language=language, roster=["worker"]),
        profile("worker", language=language),
    ]
    script = [line(_program(language, "spawn", workers)), line(_program(language, "finish"))]
    script += [line(_program(language, "trivial"), profile="worker") for _ in range(turns - 1)]
    script += [line(_program(language, "finish"), profile="worker")]
    crew = run_crew(tmp_path, profiles, script, arm=own_arm, limits={"maxParallel": workers + 1})
    assert crew.finished["status"] == "completed"
    assert len(crew.of("code_execution")) == 2 + workers * turns
    assert own_arm.pool.started <= 4  # the root's, waiting on them all, and three for the workers
