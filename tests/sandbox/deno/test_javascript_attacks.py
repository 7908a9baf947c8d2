"""The JavaScript attack cases (`shared/cases/attacks/NNN-js-*.yaml`) against the real guest.

Each case's program runs byte for byte (tokens substituted) under its ceilings, against the
canary fixture of the cases' README, with `jsworld.Host` as the membrane. The baseline holds for
every case: no canary and no passwd line in any view, log or error text (B1), nothing created
outside the workspace (B2, for the markers the cases use), a documented outcome only (B5), a run
that was stopped (how soon past its ceiling is `bench/ceilings.py`'s to measure), and a trivial
program within 2 s afterwards (B4). Each
test then checks the case's own expectations as far as they concern the guest; expectations
about the real operations (paths, caps, the prompt) belong to those operations' tests.
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
from jsworld import JAVASCRIPT, TRIVIAL, Host

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorKind, ErrorType
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.deno.cache import shared_cache
from gg.sandbox.execution import Execution
from gg.sdk.codemodule import CodeModule
from support.attack_fixture import (
    build_canary,
    case_number,
    ceilings_of,
    markers_in_tmp,
    outside_snapshot,
    padded,
    substitute,
)
from support.wall_bounds import ANSWERED_WITHIN_SECS, STOPPED_WITHIN_SECS

pytestmark = JAVASCRIPT

CASES = Path(__file__).resolve().parents[2] / "cases" / "attacks"
PASSWD_LINE = re.compile(r"^root:[^:]*:0:0:", re.M)


@dataclass
class Outcome:
    """One run of a case program: what it returned, what the host saw, how long it took."""

    execution: Execution
    host: Host
    seconds: float

    @property
    def type(self) -> ErrorType | None:
        return self.execution.failure.type if self.execution.failure else None

    @property
    def text(self) -> str:
        parts = [*self.host.views.values(), *self.execution.logs]
        if self.execution.failure:
            parts.append(self.execution.failure.text)
        return "\n".join(parts)


@dataclass
class World:
    """The canary fixture of one case, and the runs made in it."""

    root: Path
    case: dict[str, Any]
    arm: JavaScriptArm
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def ceilings(self) -> Ceilings:
        return ceilings_of(self.case)

    def run(self, program: str, pads: list[dict[str, Any]] | None = None, workspace: str = "ws") -> Outcome:
        program = padded(program, pads)
        libs = self.case.get("setup", {}).get("libs", {})
        modules = tuple(CodeModule(key, source) for key, source in libs.items())
        host = Host(self.root / workspace)
        start = time.monotonic()
        execution = self.arm.run(substitute(program, self.root, workspace), host, self.ceilings, modules)
        outcome = Outcome(execution, host, time.monotonic() - start)
        self.outcomes.append(outcome)
        return outcome

    def main(self) -> Outcome:
        return self.run(self.case["program"], self.case.get("pad"))

    def followups(self) -> list[Outcome]:
        runs = []
        for followup in self.case.get("followup", []):
            workspace = "ws2" if followup.get("session") == "other" else "ws"
            runs.append(self.run(followup["program"], followup.get("pad"), workspace))
        return runs


@pytest.fixture
def world(request: pytest.FixtureRequest, tmp_path: Path, arm: JavaScriptArm) -> Iterator[World]:
    number = case_number(request)
    case = yaml.safe_load(next(CASES.glob(f"{number}-js-*.yaml")).read_text())
    build_canary(tmp_path, case)
    before = outside_snapshot(tmp_path)
    markers = markers_in_tmp()
    world = World(tmp_path, case, arm)
    yield world
    check_baseline(world, before)
    assert markers_in_tmp() == markers


def check_baseline(world: World, before: dict[str, bytes]) -> None:
    for outcome in world.outcomes:
        assert "CANARY-" not in outcome.text, outcome.text
        assert not PASSWD_LINE.search(outcome.text)
        if outcome.type is not None:
            assert outcome.type.kind in {ErrorKind.PROGRAM_FAULT, ErrorKind.SANDBOX_LIMIT}
        assert outcome.seconds < world.ceilings.timeout_secs + STOPPED_WITHIN_SECS, outcome.seconds
    assert outside_snapshot(world.root) == before
    start = time.monotonic()
    trivial = world.arm.run(TRIVIAL, Host(world.root / "ws"), Ceilings(5.0, 256 * 1024 * 1024))
    assert trivial.ok and time.monotonic() - start < ANSWERED_WITHIN_SECS


def probe_lines(outcome: Outcome, view: str = "probe") -> list[str]:
    assert view in outcome.host.views, (outcome.execution.failure, outcome.host.views.keys())
    return outcome.host.views[view].splitlines()


def host_paths(world: World) -> list[str]:
    cache = shared_cache()  # the guests' Deno caches
    shared = [cache] if cache else []
    return [str(world.root), str(Path.cwd()), sys.prefix, "/tmp/gg-deno-", "DENO_DIR", *shared]


# ---- escapes ---------------------------------------------------------------------------------


def test_001_deno_and_node_file_reads_all_fail(world: World) -> None:
    lines = probe_lines(world.main())
    assert lines and all(" !! " in line for line in lines), [line for line in lines if " !! " not in line]
    assert not any(path in line.split(" !! ", 1)[1] for line in lines for path in host_paths(world))


def test_002_every_route_to_the_global_is_the_locked_down_one(world: World) -> None:
    lines = probe_lines(world.main())
    assert all(
        "same=true" in line for line in lines if ": object same=" in line or ": function same=" in line
    )
    exposed = [line.split(" exposes: ")[1].split(",") for line in lines if " exposes: " in line]
    assert len(exposed) == 6
    for names in exposed:
        assert set(names) <= {"fetch", "none of the listed names"}, names  # fetch is a thrower naming itself


def test_003_no_bridge_is_reachable_and_forged_messages_change_nothing(world: World) -> None:
    outcome = world.main()
    lines = probe_lines(outcome)
    assert all(line.endswith(": undefined") for line in lines if line.startswith("Symbol.for("))
    assert [call[0] for call in outcome.host.calls] == ["views.open_text"]
    assert "postMessage: absent" in lines and "self.postMessage: absent" in lines


def test_010_no_environment_or_host_path_is_readable(world: World) -> None:
    outcome = world.main()
    text = "\n".join(probe_lines(outcome))
    for leak in [*host_paths(world), "CANARY-ENV", "CANARY-KEY", "sk-"]:
        assert leak not in text, leak
    assert "sandbox:/program.js" in text or "program.js" in text


def test_012_no_network_primitive_is_reachable(world: World) -> None:
    outcome = world.main()
    # Its `sleep` calls setTimeout inside a Promise executor, so the thrower becomes a rejection
    # that the final `await sleep(300)` raises: a documented program error.
    assert outcome.type is ErrorType.PROGRAM_THROW and "setTimeout is not available" in outcome.text
    adapted = world.case["program"].replace("setTimeout(r, ms)", "r()")
    lines = probe_lines(world.run(adapted))
    assert len(lines) == 14 and all(" !! " in line for line in lines), lines


def test_013_remote_imports_all_fail_with_a_loader_error(world: World) -> None:
    lines = probe_lines(world.main())
    assert len(lines) == 12 and not any("loaded" in line for line in lines), lines
    assert all("ERR_MODULE_NOT_FOUND" in line for line in lines[:-1]), lines


def test_015_nothing_spawns_and_no_engine_option_escapes(world: World) -> None:
    outcome = world.main()
    assert not (world.root / "outside" / "pwned-js-spawn").exists()
    lines = probe_lines(outcome)
    assert all(" !! " in line for line in lines if not line.startswith("gg.shell")), lines
    assert any(line.startswith("gg.shell !! ApiError") for line in lines), lines


def test_019_prototype_pollution_cannot_rewrite_what_the_host_receives(world: World) -> None:
    outcome = world.main()
    for line in probe_lines(outcome):
        assert "hello from the workspace" in line or " !! " in line, line
    assert all(
        call[1].get("path") == "notes.txt" for call in outcome.host.calls if call[0] == "files.read_file"
    )


def test_021_replaced_intrinsics_do_not_desynchronise_the_bridge(world: World) -> None:
    outcome = world.main()
    lines = probe_lines(outcome)
    assert lines[0].startswith("rewriting intrinsics => ") and "hello from the workspace" in lines[0]
    assert (
        "hello from the workspace" in lines[1]
        and "inner file" in lines[2]
        and "hello from the workspace" in lines[3]
    )
    [clean] = world.followups()
    assert clean.host.views["clean"].index("inner file") < clean.host.views["clean"].index(
        "hello from the workspace"
    )


def test_023_only_gg_families_and_loaded_libs_resolve(world: World) -> None:
    lines = probe_lines(world.main())
    resolved = [line.split(" => ")[0] for line in lines if " => " in line]
    assert resolved == ['"gg:files"', '"lib:csvTools"'], lines
    assert not any("hooked" in line or "parentPort" in line or "vm =>" in line for line in lines)


def test_024_file_data_and_blob_imports_are_refused(world: World) -> None:
    lines = probe_lines(world.main())
    assert all(" !! " in line for line in lines), [line for line in lines if " !! " not in line]


# ---- runaways --------------------------------------------------------------------------------


@pytest.mark.parametrize("number", ["040", "045", "051"])
def test_runaway_programs_end_at_the_time_ceiling(world: World, number: str) -> None:
    outcome = world.main()
    assert outcome.type is ErrorType.SANDBOX_TIMEOUT
    assert outcome.execution.failure is not None and "1 s timeout" in outcome.execution.failure.text


def test_042_a_microtask_storm_ends_at_whichever_ceiling_it_reaches_first(world: World) -> None:
    """The promise chain grows with every microtask, so a fast machine can fill the 256 MiB heap
    before the 1 s timeout: the case allows either ending (how soon it comes is
    `bench/ceilings.py`'s figure; the baseline bounds how long the test waits for it)."""
    outcome = world.main()
    assert outcome.type in {ErrorType.SANDBOX_TIMEOUT, ErrorType.SANDBOX_OUT_OF_MEMORY}, outcome.text


def test_043_timer_storms_end_at_once_because_there_are_no_timers(world: World) -> None:
    outcome = world.main()
    assert outcome.type is ErrorType.PROGRAM_THROW and "setTimeout is not available" in outcome.text


def test_044_unawaited_work_does_not_outlive_the_program(world: World) -> None:
    outcome = world.main()
    assert outcome.type in {None, ErrorType.SANDBOX_TIMEOUT}
    spin = world.root / "ws" / "spin.txt"
    seen = spin.stat().st_mtime_ns if spin.exists() else None
    time.sleep(1.0)
    assert (spin.stat().st_mtime_ns if spin.exists() else None) == seen
    assert not (world.root / "ws" / "late.txt").exists()


def test_089_a_blocked_thread_and_never_settling_awaits_end_in_time(world: World) -> None:
    blocked = world.main()
    assert blocked.type is ErrorType.SANDBOX_TIMEOUT and "woke" not in blocked.host.views
    forever, hour = world.followups()
    assert forever.type is ErrorType.SANDBOX_TIMEOUT
    assert hour.type is ErrorType.PROGRAM_THROW and "setTimeout is not available" in hour.text


# ---- memory, recursion, floods ---------------------------------------------------------------


@pytest.mark.parametrize("number", ["055", "057", "058", "059"])
def test_memory_past_the_ceiling_is_refused_or_out_of_memory(world: World, number: str) -> None:
    outcome = world.main()
    assert outcome.type in {ErrorType.SANDBOX_OUT_OF_MEMORY, ErrorType.PROGRAM_THROW, None}
    views = "\n".join(outcome.host.views.values())
    assert "1 GiB Uint8Array filled" not in views and "2 GiB ArrayBuffer filled" not in views
    assert "SAB 1 GiB filled" not in views and "materialised" not in outcome.host.views


def test_060_recursion_is_catchable_and_deep_values_never_break_the_host(world: World) -> None:
    outcome = world.main()
    notes = outcome.host.views["notes"]
    assert "plain: RangeError" in notes and "getter: RangeError" in notes and "proxy: RangeError" in notes
    assert outcome.type is ErrorType.PROGRAM_THROW
    assert outcome.execution.failure is not None
    assert outcome.execution.failure.text.startswith(
        "RangeError: Maximum call stack size exceeded\n    at f (program.js:"
    )


def test_063_console_floods_keep_only_a_capped_tail(world: World) -> None:
    outcome = world.main()
    assert outcome.type is None, outcome.execution.failure
    assert "finished" in outcome.host.views
    assert len(outcome.execution.logs) <= 200 and outcome.execution.logs_suppressed > 1_000_000
    assert sum(len(line.encode()) for line in outcome.execution.logs) <= 16 * 1024


def test_067_a_million_calls_end_at_the_ceiling_or_finish(world: World) -> None:
    """The case allows three endings: the loop finishes, the time ceiling stops it, or the calls
    budget cuts it off (a fast machine makes 100,000 calls well inside the 5 s, and the program's
    last call, past the budget, is refused uncaught)."""
    outcome = world.main()
    assert outcome.type in {None, ErrorType.SANDBOX_TIMEOUT, ErrorType.PROGRAM_API_ERROR}
    if outcome.type is ErrorType.PROGRAM_API_ERROR:
        assert "limit-exceeded" in outcome.text and outcome.host.views["counter"] == "99999"
    assert set(outcome.host.views) <= {"counter", "tally"}


def test_070_lone_surrogates_never_reach_a_text_unpaired(world: World) -> None:
    outcome = world.main()
    for text in [
        *outcome.execution.logs,
        outcome.execution.failure.text if outcome.execution.failure else "",
    ]:
        text.encode("utf-8")
    assert outcome.type is ErrorType.PROGRAM_THROW


def test_076_a_five_mebibyte_reply_runs_and_is_located_at_its_last_line(world: World) -> None:
    outcome = world.main()
    assert outcome.host.views.get("big-program") == "ran"
    assert outcome.execution.failure is not None
    assert outcome.execution.failure.text.splitlines()[:2] == [
        "Error: last line of a 5 MiB reply",
        "    at program.js:65539:7",
    ]


# ---- persistence -----------------------------------------------------------------------------


def test_081_no_storage_outlives_a_run(world: World) -> None:
    first = world.main()
    assert all(not line.endswith(": planted") for line in first.host.views["run1"].splitlines())
    for later in world.followups():
        assert "TOKEN-RUN1-" not in later.text


def test_082_nothing_planted_survives_into_the_next_run(world: World) -> None:
    first = world.main()
    assert "run1" in first.host.views
    [second] = world.followups()
    assert second.host.views["run2"].splitlines() == [
        "global: undefined",
        "proto: undefined",
        "symbol: undefined",
        "lib: runs=0 note=",
        'sdk readFile: {"kind":"text","contents":"hello from the workspace\\n"}',
        "sdk prop: undefined",
        "trim: [x]",
        "push order: 1,2",
        "blob import !! TypeError",
    ]


def test_083_nothing_is_dropped_outside_and_another_agent_finds_nothing(world: World) -> None:
    first = world.main()
    notes = dict(line.split(": ", 1) for line in probe_lines(first, "run1"))
    assert notes["own workspace"] == "wrote"
    assert all(value != "wrote" for label, value in notes.items() if label != "own workspace"), notes
    assert sorted(p.name for p in (world.root / "ws").iterdir()) == ["notes.txt", "persist-in-ws.txt", "sub"]
    [other] = world.followups()
    seen = probe_lines(other, "run2")
    assert len(seen) == 8 and "TOKEN-RUN1-" not in "\n".join(seen), seen


# ---- the host's own work ---------------------------------------------------------------------


def test_053_a_search_the_host_does_not_offer_ends_at_once(world: World) -> None:
    # The test world has no `files.search`; each call is the engine's TypeError, caught. The
    # host-side search and its bounds are the search operation's own tests.
    outcome = world.main()
    assert outcome.type is None, outcome.execution.failure
    notes = probe_lines(outcome, "notes")
    assert len(notes) == 5 and all(" !! TypeError in " in line for line in notes), notes
    # It finished, so inside its 2 s ceiling; how fast is `bench/guest.py`'s.
