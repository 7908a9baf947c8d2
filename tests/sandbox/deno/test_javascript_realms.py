"""Every JavaScript program runs in a realm of its own; the Worker holding the realms serves one
owner's programs one after another, and never another owner's.

The Worker's own realm is reachable to a program that walks there on purpose (a copied Web API's
constructor is the Worker's `Function`): these tests walk there to see which programs share a
Worker, and show that only one owner's later programs ever do."""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml
from jsworld import CEILINGS, JAVASCRIPT, Host, host, registry, run

from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.deno.pool import MAIN_HEAP_MB
from gg.sandbox.deno.workers import Workers
from gg.sandbox.execution import Execution
from gg.sdk.codemodule import CodeModule

pytestmark = JAVASCRIPT
__all__ = ["host"]  # fixtures

CASES = Path(__file__).resolve().parents[2] / "cases" / "attacks"
# Counts, in the Worker's own realm, the programs that reached it.
WALK = (
    'const W = URL.constructor("return globalThis")();\nW.seen = (W.seen ?? 0) + 1;\nconsole.log(W.seen);\n'
)


def owned(
    arm: JavaScriptArm, host: Host, source: str, owner: str | None, modules: tuple[CodeModule, ...] = ()
) -> Execution:
    return arm.run(source, host, CEILINGS, modules, owner=owner)


def test_a_program_sees_the_web_apis_it_always_saw_and_no_deno_no_timers_no_network(
    arm: JavaScriptArm, host: Host
) -> None:
    source = (
        "const names = Object.getOwnPropertyNames(globalThis);\n"
        "const wanted = ['TextEncoder', 'TextDecoder', 'URL', 'structuredClone', 'atob', 'btoa', 'crypto',\n"
        "  'Blob', 'performance', 'queueMicrotask', 'console', 'URLSearchParams', 'AbortController'];\n"
        "console.log(JSON.stringify(wanted.filter((name) => !names.includes(name))));\n"
        "const gone = ['Deno', 'process', 'Buffer', 'require', 'navigator', 'Worker', 'gc'];\n"
        "console.log(JSON.stringify(gone.filter((name) => name in globalThis)));\n"
        "console.log(new TextDecoder().decode(new TextEncoder().encode('é')), new URL('a', 'https://x.test/b/').href);\n"
        "console.log(structuredClone({ a: [1] }).a[0], atob(btoa('hi')),\n"
        "  crypto.randomUUID().length, new Blob(['ab']).size);\n"
        "console.log(typeof performance.now(), typeof self);\n"
        "for (const name of ['fetch', 'setTimeout', 'setInterval']) {\n"
        "  try { globalThis[name](() => {}); console.log(name, 'ran'); }\n"
        "  catch (e) { console.log(e instanceof Error, e.message); }\n"
        "}\n"
        "await new Promise((resolve) => queueMicrotask(resolve));\n"
    )
    execution = run(arm, host, source)
    assert execution.ok, execution.failure
    assert execution.logs[:5] == ("[]", "[]", "é https://x.test/b/a", "1 hi 36 2", "number undefined")
    missing = "is not available here: a program runs straight through, with no timers and no network"
    names = ("fetch", "setTimeout", "setInterval")
    assert execution.logs[5:] == tuple(f"true {name} {missing}" for name in names)


def test_an_owners_programs_share_its_worker_and_no_other_program_does(
    arm: JavaScriptArm, host: Host
) -> None:
    owner, other = f"agent-{uuid.uuid4()}", f"agent-{uuid.uuid4()}"
    assert [owned(arm, host, WALK, owner).logs for _ in range(3)] == [("1",), ("2",), ("3",)]
    assert owned(arm, host, WALK, other).logs == ("1",)
    assert owned(arm, host, WALK, None).logs == ("1",)
    assert owned(arm, host, WALK, None).logs == ("1",)
    assert owned(arm, host, WALK, owner).logs == ("4",)


def test_an_owners_program_is_leased_the_process_holding_its_worker_not_the_one_given_back_last(
    arm: JavaScriptArm, host: Host
) -> None:
    quick, slow = f"agent-{uuid.uuid4()}", f"agent-{uuid.uuid4()}"
    lingers = WALK + "await Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400).value;\n"
    with ThreadPoolExecutor(2) as pool:
        held = pool.submit(owned, arm, host, lingers, slow)
        assert owned(arm, host, WALK, quick).logs == ("1",)
        assert held.result().logs == ("1",)  # its process went back last
    assert owned(arm, host, WALK, quick).logs == ("2",)
    assert owned(arm, host, WALK, slow).logs == ("2",)


def test_a_warm_worker_idle_for_two_seconds_is_retired_with_the_work_left_in_it(
    arm: JavaScriptArm, host: Host
) -> None:
    owner = f"agent-{uuid.uuid4()}"
    spins = (
        "const cell = new Int32Array(new SharedArrayBuffer(4));\n"
        "(function spin() {\n"
        "  W.spins = (W.spins ?? 0) + 1;\n"
        "  Atomics.waitAsync(cell, 0, 0, 1).value.then(spin);\n"
        "})();\n"
    )
    assert owned(arm, host, WALK + spins, owner).logs == ("1",)
    pause = "await Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100).value;\n"
    still = WALK + "const before = W.spins;\n" + pause + "console.log(W.spins > before);\n"
    assert owned(arm, host, still, owner).logs == ("2", "true")  # the first's work runs on
    time.sleep(3.5)  # the rule is one of time: idle past 2 s, the Worker is retired
    assert owned(arm, host, WALK + "console.log(W.spins);\n", owner).logs == ("1", "undefined")


def test_a_process_keeps_the_workers_of_the_eight_owners_it_served_last(host: Host) -> None:
    """Nine owners on one process: the first's Worker is retired for the ninth's, the other eight
    serve their owners again, and the process holding them all (and booting Workers beside them)
    never dies: at rest its data limit leaves room for every one (`gg.sandbox.deno.workers`).
    The idle retirement is set past the test's length, so only the count decides."""
    owners = [f"agent-{uuid.uuid4()}" for _ in range(9)]
    with JavaScriptArm(registry(), workers=Workers(warm_idle_ms=600_000)) as arm:
        assert [owned(arm, host, WALK, owner).logs for owner in owners] == [("1",)] * 9
        assert [owned(arm, host, WALK, owner).logs for owner in reversed(owners[1:])] == [("2",)] * 8
        assert owned(arm, host, WALK, owners[0]).logs == ("1",)  # retired for the ninth's
        assert arm.pool.started == 1


def test_a_worker_serves_one_owner_64_programs_then_the_next_gets_another(
    arm: JavaScriptArm, host: Host
) -> None:
    owner = f"agent-{uuid.uuid4()}"
    seen = [owned(arm, host, WALK, owner).logs[0] for _ in range(66)]
    assert seen == [str(n) for n in range(1, 65)] + ["1", "2"]


def test_a_program_that_failed_to_its_end_keeps_the_worker_and_a_fresh_realm_for_the_next(
    arm: JavaScriptArm, host: Host
) -> None:
    owner = f"agent-{uuid.uuid4()}"
    planted = "globalThis.left = 1;\nObject.prototype.planted = 2;\nthrow new Error('boom');\n"
    first = owned(arm, host, WALK + planted, owner)
    assert first.failure is not None and first.failure.text.startswith("Error: boom")
    second = owned(arm, host, WALK + "console.log(typeof left, ({}).planted);\nundefinedName;\n", owner)
    assert second.logs == ("2", "undefined undefined")
    assert second.failure is not None and second.failure.text.startswith("ReferenceError: undefinedName")


def test_work_an_earlier_program_left_behind_never_calls_logs_or_fails_for_the_next(
    arm: JavaScriptArm, host: Host
) -> None:
    owner = f"agent-{uuid.uuid4()}"
    first = (
        'import { files } from "gg";\n'
        "const W = URL.constructor('return globalThis')();\n"
        "const cell = new Int32Array(new SharedArrayBuffer(4));\n"
        "Atomics.waitAsync(cell, 0, 0, 200).value.then(() => {\n"
        "  W.lateRan = true;\n"
        "  console.log('a late line of the first');\n"
        "  try { files.writeFile('late.txt', 'late'); } catch (e) { W.lateCall = e.message; }\n"
        "  Promise.reject(new Error('a late rejection of the first'));\n"
        "  throw new Error('a late throw of the first');\n"
        "});\n"
        "files.writeFile('first.txt', 'first');\n"
        "console.log('the first ends');\n"
    )
    second = (
        'import { files } from "gg";\n'
        "const W = URL.constructor('return globalThis')();\n"
        "console.log('the second starts');\n"
        "const cell = new Int32Array(new SharedArrayBuffer(4));\n"
        "await Atomics.waitAsync(cell, 0, 0, 1000).value;\n"
        "files.writeFile('second.txt', String(W.lateRan));\n"
        "console.log('the second ends', W.lateRan, W.lateCall);\n"
    )
    ran = owned(arm, host, first, owner)
    assert ran.ok and ran.logs == ("the first ends",)
    calls_of_first = list(host.calls)
    assert [op for op, _ in calls_of_first] == ["files.write_file"]
    after = owned(arm, host, second, owner)
    assert after.ok, after.failure
    closed = "gg's channel is closed: the program is over"
    assert after.logs == ("the second starts", f"the second ends true {closed}")
    assert host.calls == [*calls_of_first, ("files.write_file", {"path": "second.txt", "contents": "true"})]
    assert not (host.workspace / "late.txt").exists()


def test_case_082_holds_for_two_programs_of_one_owner_in_one_worker(arm: JavaScriptArm, host: Host) -> None:
    case = yaml.safe_load((CASES / "082-js-global-leftovers-lib-state-blob-urls.yaml").read_text())
    modules = tuple(CodeModule(key, source) for key, source in case["setup"]["libs"].items())
    owner = f"agent-{uuid.uuid4()}"
    walk = "\n{\n" + WALK + "}\n"
    first = owned(arm, host, case["program"] + walk, owner, modules)
    assert first.ok, first.failure
    assert first.logs == ("1",) and "run1" in host.views
    second = owned(arm, host, case["followup"][0]["program"] + walk, owner, modules)
    assert second.ok, second.failure
    assert second.logs == ("2",)  # the same Worker served both
    seen = host.views["run2"].splitlines()
    assert seen[:4] == ["global: undefined", "proto: undefined", "symbol: undefined", "lib: runs=0 note="]
    read = json.dumps({"kind": "text", "contents": "hello from the workspace\n"}, separators=(",", ":"))[:80]
    assert seen[4:8] == [f"sdk readFile: {read}", "sdk prop: undefined", "trim: [x]", "push order: 1,2"]
    assert seen[8].startswith("blob import !! ") and len(seen) == 9
    assert "TOKEN-RUN1-" not in host.views["run2"]


def test_a_process_holding_eight_warm_workers_has_room_at_rest_for_three_more(host: Host) -> None:
    """At rest, beside eight warm Workers, a process boots one more while two retired ones still
    end: each maps about 540 MiB for a moment, and its data limit leaves room for them (under
    the old limit such a boot died: "Failed to reserve virtual memory for CodeRange")."""
    with JavaScriptArm(registry(), workers=Workers(warm_idle_ms=600_000)) as arm:
        for _ in range(8):
            assert owned(arm, host, WALK, f"agent-{uuid.uuid4()}").ok
        assert arm.pool.pid is not None
        status = Path(f"/proc/{arm.pool.pid}/status").read_text().splitlines()
        (mapped,) = [int(line.split()[1]) * 1024 for line in status if line.startswith("VmData:")]
        assert mapped + 3 * 540 * 2**20 <= arm.pool.data_limit(MAIN_HEAP_MB)


def test_a_realm_is_let_go_once_its_run_is_over(arm: JavaScriptArm, host: Host) -> None:
    """Twelve programs of one owner, each leaving 40 MiB on its realm's global, all run in one
    Worker under a 256 MiB ceiling: the engine's hold on a finished realm is let go, so the
    Worker keeps what the program now running holds, not what every earlier one left."""
    owner = f"agent-{uuid.uuid4()}"
    leaves = (
        WALK + "globalThis.left = Array.from({ length: 5 * 2 ** 20 }, (_, i) => i);\n"
        "console.log(typeof W.gc, typeof globalThis.gc);\n"
    )
    runs = [owned(arm, host, leaves, owner) for _ in range(12)]
    assert [r.failure for r in runs] == [None] * 12
    assert [r.logs for r in runs] == [(str(n), "undefined undefined") for n in range(1, 13)]


def test_an_import_from_code_built_at_run_time_after_a_workers_first_program_is_refused_naming_why(
    arm: JavaScriptArm, host: Host
) -> None:
    """Deno sends such an import to the first program its Worker ran; gg refuses it rather than hand
    a later program an earlier one's realm. An `import()` in the program's own code still works."""
    owner = f"agent-{uuid.uuid4()}"
    source = (
        "const own = await import('gg');\n"
        "let built;\n"
        "try { built = typeof (await new Function('return import(\"gg\")')()).files; }\n"
        "catch (e) { built = e.message; }\n"
        "console.log(typeof own.files, built);\n"
    )
    first, second = (owned(arm, host, source, owner) for _ in range(2))
    assert first.logs == ("object object",)
    assert len(second.logs) == 1 and second.logs[0].startswith("object cannot import here:")
    assert "new Function" in second.logs[0]
