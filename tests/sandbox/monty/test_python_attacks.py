"""The Python attack cases (`tests/cases/attacks/NNN-py-*.yaml`) against the real engine and gg's
real SDK (default registry, membrane, workspace, views).

Each case's program runs byte for byte (tokens substituted, pads expanded) under its ceilings,
against the canary fixture of the cases' README. The baseline holds for every case: no canary and
no passwd line in any view, log or error text (B1), nothing created or changed outside the
workspace and no `/tmp/gg-pwned*`/`/tmp/gg-persist*` marker (B2), a documented outcome only (B5),
a run that was stopped (how soon past its ceiling is `bench/ceilings.py`'s to measure), and a
trivial program within 2 s afterwards (B4).
Each test then checks the case's own expectations as far as the guest can see them.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from gg.config.catalogue import Role
from gg.config.ceilings import Ceilings
from gg.outcome import ErrorKind, ErrorType
from gg.sandbox.arms.python import PythonArm
from gg.sandbox.execution import Execution
from gg.sandbox.languages import PYTHON
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.codemodule import CodeModule
from gg.sdk.docs.surface import build_surface
from gg.sdk.scope import ProgramScope
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.attack_fixture import (
    build_canary,
    case_number,
    ceilings_of,
    markers_in_tmp,
    outside_snapshot,
    padded,
    substitute,
)
from support.guest_world import QuietLog
from support.wall_bounds import ANSWERED_WITHIN_SECS, STOPPED_WITHIN_SECS

pytestmark = pytest.mark.arms("python")

CASES = Path(__file__).resolve().parents[2] / "cases" / "attacks"
PASSWD_LINE = re.compile(r"^root:[^:]*:0:0:", re.M)
TRIVIAL = 'from gg import views\nviews.open_text("alive", "yes")\n'
HOST_REPR = re.compile(r"<module .* from '/|site-packages|/usr/lib/python")


@dataclass
class Outcome:
    """One run of a case program: what it returned, the views it opened, how long it took."""

    execution: Execution
    views: dict[str, str]
    seconds: float

    @property
    def type(self) -> ErrorType | None:
        return self.execution.failure.type if self.execution.failure else None

    @property
    def text(self) -> str:
        parts = [*self.views, *self.views.values(), *self.execution.logs]
        if self.execution.failure:
            parts.append(self.execution.failure.text)
        return "\n".join(parts)


@dataclass
class Agent:
    workspace: Workspace
    views: ViewSet = field(default_factory=ViewSet)


@dataclass
class World:
    """The canary fixture of one case, and the runs made in it."""

    root: Path
    case: dict[str, Any]
    arm: PythonArm
    agents: dict[str, Agent] = field(default_factory=dict[str, Agent])
    outcomes: list[Outcome] = field(default_factory=list[Outcome])
    timeout_secs: float | None = None  # a test's own time ceiling in place of the case's

    @property
    def ceilings(self) -> Ceilings:
        ceilings = ceilings_of(self.case)
        if self.timeout_secs is None:
            return ceilings
        return Ceilings(self.timeout_secs, ceilings.max_memory_bytes)

    def agent(self, workspace: str) -> Agent:
        if workspace not in self.agents:
            self.agents[workspace] = Agent(Workspace(self.root / workspace))
        return self.agents[workspace]

    def run(self, program: str, pads: list[dict[str, Any]] | None = None, workspace: str = "ws") -> Outcome:
        program = padded(program, pads)
        libs = self.case.get("setup", {}).get("libs", {})
        modules = tuple(CodeModule(key, source) for key, source in libs.items())
        agent = self.agent(workspace)
        surface = build_surface(default_registry(), PYTHON, Role.STANDARD, set())
        spell = default_registry().spelling("python")
        scope = ProgramScope(
            "root", Role.STANDARD, frozenset(), agent.workspace, agent.views, 1, surface=surface, spell=spell
        )
        membrane = Membrane(default_registry(), scope, QuietLog(), "python")
        start = time.monotonic()
        execution = self.arm.run(substitute(program, self.root, workspace), membrane, self.ceilings, modules)
        seconds = time.monotonic() - start
        views = {view.selector: view.render().split("\n----\n", 1)[-1] for view in agent.views.close_turn()}
        outcome = Outcome(execution, views, seconds)
        self.outcomes.append(outcome)
        return outcome

    def main(self) -> Outcome:
        return self.run(self.case["program"], self.case.get("pad"))

    def followups(self) -> list[Outcome]:
        return [
            self.run(f["program"], f.get("pad"), "ws2" if f.get("session") == "other" else "ws")
            for f in self.case.get("followup", [])
        ]


@pytest.fixture
def world(request: pytest.FixtureRequest, tmp_path: Path, arm: PythonArm) -> Iterator[World]:
    number = case_number(request)
    case = yaml.safe_load(next(CASES.glob(f"{number}-py-*.yaml")).read_text())
    build_canary(tmp_path, case)
    before = outside_snapshot(tmp_path)
    markers = markers_in_tmp()
    world = World(tmp_path, case, arm)
    yield world
    check_baseline(world, before)
    assert markers_in_tmp() == markers


def check_baseline(world: World, before: dict[str, bytes]) -> None:
    assert world.outcomes, "the case never ran"
    for outcome in world.outcomes:
        assert "CANARY-" not in outcome.text, outcome.text[:2000]
        assert not PASSWD_LINE.search(outcome.text)
        if outcome.type is not None:
            assert outcome.type.kind in {ErrorKind.PROGRAM_FAULT, ErrorKind.SANDBOX_LIMIT}, outcome.type
        assert outcome.seconds < world.ceilings.timeout_secs + STOPPED_WITHIN_SECS, outcome.seconds
    assert outside_snapshot(world.root) == before
    start = time.monotonic()
    trivial = world.run(TRIVIAL)
    assert trivial.execution.ok and time.monotonic() - start < ANSWERED_WITHIN_SECS


def probe_lines(outcome: Outcome, view: str = "probe") -> list[str]:
    assert view in outcome.views, (outcome.execution.failure, list(outcome.views))
    return outcome.views[view].splitlines()


def host_paths() -> list[str]:
    """Host paths a program cannot know (the fixture's own paths are in the programs' text)."""
    return [str(Path.cwd()), sys.prefix, sys.executable, "/tmp/gg-python-"]


def assert_no_host_detail(text: str) -> None:
    for leak in host_paths():
        assert leak not in text, leak
    assert not HOST_REPR.search(text), HOST_REPR.search(text)


# ---- escapes ---------------------------------------------------------------------------------


def test_006_open_builtins_io_pathlib_and_os_all_fail(world: World) -> None:
    lines = probe_lines(world.main())
    failed = [line for line in lines if " !! " in line]
    answered = {line.split(" => ")[0] for line in lines if " => " in line}
    assert answered <= {"__file__"}, answered  # `__file__` is `/program.py`, inside the sandbox
    assert len(failed) >= 17, lines
    assert "__file__ => '/program.py'" in lines
    for label in ("__loader__", "os.path.expanduser", "globals keys"):
        [line] = [line for line in lines if line.startswith(label + " ")]
        assert " !! " in line and str(world.root) not in line, line
    assert_no_host_detail("\n".join(lines))
    assert not (world.root / "outside" / "pwned-py-open.txt").exists()


def test_007_dunder_walks_reach_nothing_of_the_host(world: World) -> None:
    lines = probe_lines(world.main())
    reached = [line for line in lines if " => " in line]
    assert all(line.startswith(("find ", "class dict")) for line in reached), reached
    assert all(line.endswith("=> None") for line in reached if line.startswith("find ")), reached
    assert_no_host_detail("\n".join(lines))
    assert not (world.root / "outside" / "pwned-dunder").exists()


def test_008_format_field_paths_reach_no_dunder(world: World) -> None:
    outcome = world.main()
    lines = probe_lines(outcome)
    for line in lines:
        assert " !! " in line or "__" not in line.split(" => ", 1)[-1], line
    assert_no_host_detail("\n".join(lines))


def test_011_no_environment_host_fact_or_host_path_is_readable(world: World) -> None:
    outcome = world.main()
    text = "\n".join(probe_lines(outcome))
    for leak in ["CANARY-ENV", "CANARY-KEY", "sk-"]:
        assert leak not in text, leak
    assert_no_host_detail(text)
    sdk = [line for line in probe_lines(outcome) if line.startswith("sdk ")]
    assert len(sdk) == 5 and all(" !! OSError: " in line for line in sdk), sdk
    assert all(re.search(r"!! OSError: \w+: [a-z-]+: ", line) for line in sdk), sdk


def test_018_nothing_spawns_and_every_exit_is_a_program_end(world: World) -> None:
    outcome = world.main()
    assert not (world.root / "outside" / "pwned-py-spawn").exists()
    assert {"before", "probe"} <= set(outcome.views)
    assert all(" !! " in line for line in probe_lines(outcome)), probe_lines(outcome)
    assert outcome.type is ErrorType.PROGRAM_THROW


def test_026_forbidden_imports_all_fail(world: World) -> None:
    outcome = world.main()
    lines = probe_lines(outcome)
    assert all("!!" in line for line in lines), lines
    assert not (world.root / "outside" / "pwned-ctypes").exists()
    assert not (world.root / "outside" / "pwned.db").exists()
    assert not (world.root / "ws" / "stolen.txt").exists()


# ---- paths and links (gg's real files operations) ----------------------------------------------


def test_030_every_outside_path_is_refused_and_no_oracle_tells_them_apart(world: World) -> None:
    lines = probe_lines(world.main())
    done = [line for line in lines if " => DONE " in line]
    assert done == [], done
    refusals = [line for line in lines if " !! " in line and not line.startswith("oracle ")]
    codes = {re.search(r" !! OSError/: \w+: ([a-z-]+): ", line).group(1) for line in refusals}  # type: ignore[union-attr]
    assert codes <= {"invalid-argument", "not-found", "refused"}, codes
    oracle = [line for line in lines if line.startswith("oracle ")]
    assert len(oracle) == 3 and all("same=True" in line for line in oracle), oracle
    assert not (world.root / "newdir-py").exists()
    assert not (world.root / "home" / ".ssh" / "authorized_keys").exists()


def test_039_links_out_of_the_workspace_lead_nowhere(world: World) -> None:
    lines = probe_lines(world.main())
    assert all(" !! " in line for line in lines), lines
    assert not (world.root / "outside" / "pwned.txt").exists()
    assert not (world.root / "outside" / "created-by-py.txt").exists()


# ---- runaways, memory, recursion, floods --------------------------------------------------------


@pytest.mark.parametrize("number", ["047", "052", "068"])
def test_runaway_programs_end_at_the_time_ceiling(world: World, number: str) -> None:
    outcome = world.main()
    assert outcome.type is ErrorType.SANDBOX_TIMEOUT, outcome.execution.failure
    limit = world.ceilings.timeout_secs
    assert outcome.execution.failure is not None
    assert outcome.execution.failure.text == f"The program was stopped at its {limit:g} s timeout."


def test_056_giant_allocations_and_growth_end_out_of_memory(world: World) -> None:
    """The engine's memory limit cannot be caught, so the first giant allocation already ends the
    run as out of memory (the case's `notes` view is never opened)."""
    outcome = world.main()
    assert outcome.type is ErrorType.SANDBOX_OUT_OF_MEMORY and "notes" not in outcome.views


def test_062_recursion_is_catchable_and_deep_values_never_reach_the_host(world: World) -> None:
    outcome = world.main()
    notes = outcome.views["notes"].splitlines()
    assert notes[0] == "plain: RecursionError"
    assert notes[1] == "after raising the limit: AttributeError"  # there is no `sys.setrecursionlimit`
    assert "write_file: TypeError/" in notes and "open_text: TypeError/" in notes
    assert "tree: AttributeError/" in notes  # the files module declares no `tree`
    assert outcome.type is ErrorType.PROGRAM_THROW
    assert outcome.execution.failure is not None
    text = outcome.execution.failure.text
    last = len(world.case["program"].splitlines())
    assert f'File "program.py", line {last}, column 1, in <module>' in text
    assert text.endswith("RecursionError: maximum recursion depth exceeded")


# The flood of case 066 is a million prints: on a loaded machine it may not reach the refusals and
# the exception inside the case's 10 s, which its expectation allows ("or with sandbox_timeout").
# What the test checks is what the program meets once it got there, so it gets the time to.
FLOOD_RUNS_TO_ITS_END_SECS = 120.0


def test_066_floods_are_capped_and_oversized_views_refused(world: World) -> None:
    world.timeout_secs = FLOOD_RUNS_TO_ITS_END_SECS
    outcome = world.main()
    logs = outcome.execution.logs
    assert outcome.execution.logs_suppressed > 0 and len("\n".join(logs).encode()) <= 16 * 1024 + 4096
    assert "10 MB view refused: OSError " in "\n".join(logs) and "10 MB label refused: OSError" in "\n".join(
        logs
    )
    assert outcome.type is ErrorType.PROGRAM_THROW
    assert outcome.execution.failure is not None and len(outcome.execution.failure.text) < 8000
    assert outcome.execution.failure.text.endswith("more characters left out)")


def test_072_surrogates_are_refused_and_byte_caps_are_exact(world: World) -> None:
    outcome = world.main()
    notes = outcome.views["notes"].splitlines()
    assert notes[:4] == [
        "lone high in body: ValueError/",
        "lone low in label: ValueError/",
        "lone in file name: ValueError/",
        "lone in file body: ValueError/",
    ]
    assert "emoji fit 65536 bytes: ok" in notes and "emoji over 65537 bytes: OSError/" in notes
    assert "label 200 bytes: ok" in notes and "label 201 bytes: OSError/" in notes
    assert outcome.type is ErrorType.PROGRAM_THROW
    assert outcome.execution.failure is not None and "ValueError" in outcome.execution.failure.text
    for line in outcome.execution.logs:
        line.encode("utf-8")  # well-formed: every cut falls on a code point


def test_078_a_five_mebibyte_reply_runs_and_is_located_at_its_last_line(world: World) -> None:
    outcome = world.main()
    assert outcome.views.get("big-program") == "ran"
    assert outcome.execution.failure is not None
    text = outcome.execution.failure.text
    assert 'File "program.py", line 65539, column 7, in <module>' in text and len(text) < 1000


# ---- persistence ---------------------------------------------------------------------------------


def test_086_every_program_starts_from_a_fresh_namespace_and_modules(world: World) -> None:
    first = world.main()
    notes = first.views["run1"].splitlines()
    assert (
        "write /tmp: OSError" in notes
        and "write outside: OSError" in notes
        and "open /tmp: PermissionError" in notes
    )
    [second] = world.followups()
    seen = second.views["run2"]
    assert "TOKEN-RUN1-" not in second.text
    assert "plain global: None" in seen and "function: None" in seen and "eval global: NameError" in seen
    assert "lib state: {'runs': 0, 'note': ''}" in seen and "sdk attr: None" in seen
    assert not (world.root / "outside" / "persist-py.txt").exists()
