"""The JavaScript memory ceiling holds the whole guest process (`gg.sandbox.deno.memory`): an
allocation past it is refused where it is made, as a RangeError the program may catch, and one it
does not catch ends the run out of memory at the line V8 names; arrays past it end the run out of
memory. How far past the ceiling the guest's resident memory peaks is `bench/memory.py`'s to
measure."""

from __future__ import annotations

import dataclasses

import pytest
from jsworld import CEILINGS, JAVASCRIPT, TRIVIAL, Host, host, registry, run

from gg.outcome import ErrorType
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.deno.memory import allowance
from gg.sandbox.deno.workers import Workers
from gg.sandbox.execution import Arm
from gg.sdk.codemodule import CodeModule
from support.shared_arms import ArmShelf

pytestmark = JAVASCRIPT

__all__ = ["host"]  # fixtures

MiB = 1024 * 1024
STOPPED = "The program was stopped: it used up its memory limit of 268435456 bytes"
# V8's last-resort collections of a heap at its flag can take seconds on a loaded machine before it
# gives up; the outcome, not its speed, is what these runs judge.
PATIENT = dataclasses.replace(CEILINGS, timeout_secs=120.0)


def test_a_buffer_past_the_ceiling_ends_the_run_out_of_memory_at_its_line(
    arm: JavaScriptArm, host: Host
) -> None:
    source = (
        "const kept = [];\nfunction grab() {\n  return new Uint8Array(300 * 2 ** 20).fill(1);\n}\n"
        "kept.push(grab());\n"
    )
    execution = run(arm, host, source, CEILINGS)
    assert execution.failure is not None
    assert execution.failure.type is ErrorType.SANDBOX_OUT_OF_MEMORY
    assert execution.failure.text == (
        f"{STOPPED}, at line 3 of program.js: `return new Uint8Array(300 * 2 ** 20).fill(1);`."
    )


def test_an_allocation_past_the_ceiling_is_a_range_error_the_program_may_catch(
    arm: JavaScriptArm, host: Host
) -> None:
    source = (
        'import { views } from "gg";\n'
        "let said;\n"
        "try { new Uint8Array(2 ** 30); said = 'filled'; } catch (e) { said = `${e.name}: ${e.message}`; }\n"
        "const small = new Uint8Array(2 ** 20).fill(7);\n"
        'views.openText("said", `${said}; then ${small[0]}`);\n'
    )
    execution = run(arm, host, source, CEILINGS)
    assert execution.ok, execution.failure
    assert host.views["said"] == "RangeError: Array buffer allocation failed; then 7"


def test_a_code_modules_allocation_is_named_at_the_modules_own_line(arm: JavaScriptArm, host: Host) -> None:
    module = CodeModule("big", "export function grab() {\n  return new ArrayBuffer(2 ** 30);\n}\n")
    source = 'import { grab } from "lib:big";\ngrab();\n'
    execution = run(arm, host, source, CEILINGS, (module,))
    assert execution.failure is not None
    assert execution.failure.text == f"{STOPPED}, at line 2 of lib:big: `return new ArrayBuffer(2 ** 30);`."


@pytest.mark.parametrize(
    "source",
    [
        'const s = new Array(3e7).fill("ab").join("");\nconsole.log(s.length);\n',
        "const kept = [];\nfor (;;) kept.push(new Array(1e6).fill(kept.length));\n",
        "const kept = [];\nfor (;;) kept.push(new Uint8Array(2 ** 20).fill(kept.length & 255));\n",
    ],
    ids=["one-line-join", "arrays", "typed-arrays"],
)
def test_arrays_past_the_ceiling_end_the_run_out_of_memory(
    arm: JavaScriptArm, host: Host, source: str
) -> None:
    execution = run(arm, host, source, PATIENT)
    assert execution.failure is not None
    assert execution.failure.type is ErrorType.SANDBOX_OUT_OF_MEMORY, execution.failure.text
    assert execution.failure.text.startswith(STOPPED)


def test_a_typescript_programs_allocation_is_named_at_its_line(arms: ArmShelf, host: Host) -> None:
    typescript: Arm = arms.get("typescript", registry)
    source = "const n: number[] = [1, 2];\nconst big: ArrayBuffer = new ArrayBuffer(2 ** 30 * n[0]);\n"
    execution = typescript.run(source, host, CEILINGS)
    assert execution.failure is not None
    assert execution.failure.text == (
        f"{STOPPED}, at line 2 of program.ts: `const big: ArrayBuffer = new ArrayBuffer(2 ** 30 * n[0]);`."
    )


def test_the_allowance_is_what_the_ceiling_and_64_mib_leave_over_the_idle_engine() -> None:
    """Resident: 256 + 64 - 96 = 224 MiB over the idle 96, watched 16 MiB short; data: the same
    224 MiB over what the process had mapped."""
    given = allowance(256 * MiB, 96 * MiB, 900 * MiB)
    assert (given.data_limit, given.resident_limit) == (1124 * MiB, 304 * MiB)


def test_an_engine_holding_more_than_a_small_ceiling_leaves_still_allows_32_mib() -> None:
    given = allowance(16 * MiB, 95 * MiB, 900 * MiB)
    assert (given.data_limit, given.resident_limit) == (932 * MiB, 111 * MiB)


def test_other_owners_warm_workers_are_theirs_not_the_programs() -> None:
    """Of the idle 96 MiB, other agents' warm Workers hold 40: the program is charged 56, so its
    room is 256 + 64 - 56 = 264 MiB over the idle 96, watched 16 MiB short."""
    given = allowance(256 * MiB, 96 * MiB, 900 * MiB, 40 * MiB)
    assert (given.data_limit, given.resident_limit) == (1164 * MiB, 344 * MiB)


def test_other_agents_warm_workers_leave_a_program_the_room_its_ceiling_gives(host: Host) -> None:
    """Beside eight other agents' warm Workers, a program under a 256 MiB ceiling still holds
    160 MiB: their Workers are charged to their owners, not to it (charged to it, they left it
    less than 144 MiB)."""
    grab = "const kept = [];\nfor (let i = 0; i < 20; i++) kept.push(new Uint8Array(8 * 2 ** 20).fill(i));\n"
    with JavaScriptArm(registry(), workers=Workers(warm_idle_ms=600_000)) as arm:
        for n in range(8):
            assert arm.run(TRIVIAL, host, CEILINGS, owner=f"neighbour-{n}").ok
        execution = arm.run(grab, host, CEILINGS, owner="the-program")
    assert execution.ok, execution.failure
