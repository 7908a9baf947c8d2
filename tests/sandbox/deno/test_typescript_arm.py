"""The TypeScript arm against a real Deno guest and a real `deno lsp` checker.

Each test states one rule of the checked twin: what the checker accepts and rejects, how a
rejection reads, and that a checked program runs like a JavaScript one with `.ts` positions.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from jsworld import CEILINGS, Host, failure_text, host, registry

from gg.config.ceilings import Ceilings
from gg.errors import FatalFault, GgDefect
from gg.outcome import ErrorType
from gg.sandbox.arms.typescript import TypeScriptArm
from gg.sandbox.deno.declarations import declarations
from gg.sandbox.deno.tscheck import TypeChecker, blank_directives
from gg.sandbox.execution import Execution
from gg.sdk.codemodule import CodeModule
from support.wall_bounds import ANSWERED_WITHIN_SECS, STOPPED_WITHIN_SECS

__all__ = ["host"]  # fixtures


pytestmark = pytest.mark.arms("typescript", registry=registry)


def run(arm: TypeScriptArm, host: Host, source: str, modules: tuple[CodeModule, ...] = ()) -> Execution:
    return arm.run(source, host, CEILINGS, modules)


def rejected(execution: Execution, kind: ErrorType) -> list[str]:
    assert execution.failure is not None and execution.failure.type is kind, execution.failure
    assert execution.failure.heading == "Compiler error"
    return execution.failure.text.splitlines()


# ---- checked, then run -----------------------------------------------------------------------


def test_a_checked_program_runs_and_reports_its_compile_time(arm: TypeScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'import { files, views } from "gg";\n'
            "interface Count { name: string; n: number }\n"
            'const read = files.readFile("notes.txt") as { contents: string };\n'
            'const count: Count = { name: "words", n: read.contents.split(" ").length };\n'
            "views.openText(count.name, String(count.n));\n"
        ),
    )
    assert execution.ok, execution.failure
    assert host.views == {"words": "4"}
    assert execution.compile_ms is not None and execution.compile_ms > 0
    assert execution.duration_ms > 0


def test_a_type_error_rejects_the_program_and_nothing_runs(arm: TypeScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        'import { views } from "gg";\nviews.openText("ran", "yes");\nconst n: number = "seven";\n',
    )
    lines = rejected(execution, ErrorType.TRANSPILE_COMPILE)
    assert lines == ["program.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'."]
    assert host.calls == [] and execution.duration_ms == 0
    assert execution.compile_ms is not None and execution.compile_ms > 0


def test_prose_is_a_syntax_rejection_reported_by_its_syntax_diagnostics_alone(
    arm: TypeScriptArm, host: Host
) -> None:
    lines = rejected(run(arm, host, "I will now read the file.\n"), ErrorType.TRANSPILE_SYNTAX)
    assert lines and all(re.match(r"program\.ts:1:\d+ - error TS1\d{3}: ", line) for line in lines), lines


def test_at_most_eight_diagnostic_groups_then_a_count_of_the_rest(arm: TypeScriptArm, host: Host) -> None:
    source = "".join(f"const v{n}: number = 'x{n}';\n" for n in range(11))
    lines = rejected(run(arm, host, source), ErrorType.TRANSPILE_COMPILE)
    assert len(lines) == 9
    assert [line.split(" - ")[0] for line in lines[:8]] == [f"program.ts:{n + 1}:7" for n in range(8)]
    assert lines[8] == "… and 3 more diagnostics not shown"


def test_a_diagnostics_elaboration_stays_with_its_group(arm: TypeScriptArm, host: Host) -> None:
    source = "const f: (x: string) => void = (x: number) => {};\nconst g: { b: number } = { b: 'x' };\n"
    lines = rejected(run(arm, host, source), ErrorType.TRANSPILE_COMPILE)
    assert lines[0].startswith("program.ts:1:7 - error TS2322: ")
    assert lines[1:3] == [
        "      Types of parameters 'x' and 'x' are incompatible.",
        "        Type 'string' is not assignable to type 'number'.",
    ]
    assert lines[3].startswith("program.ts:2:28 - error TS2322: ")
    assert lines[4] == (
        "    program.ts:2:12: The expected type comes from property 'b' "
        "which is declared here on type '{ b: number; }'"
    )


def test_run_time_frames_are_in_program_ts_coordinates(arm: TypeScriptArm, host: Host) -> None:
    source = (
        "type Shape = { sides: number };\n"
        "function area(shape: Shape): number {\n"
        '  throw new Error("no area for " + shape.sides);\n'
        "}\n"
        "area({ sides: 3 } satisfies Shape);\n"
    )
    execution = run(arm, host, source)
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert failure_text(execution).splitlines() == [
        "Error: no area for 3",
        "    at area (program.ts:3:9)",
        "    at program.ts:5:1",
    ]
    assert execution.compile_ms is not None


def test_constructs_that_need_code_keep_their_positions_through_a_map(arm: TypeScriptArm, host: Host) -> None:
    source = (
        "enum Level { Low, High }\n"
        "class Box {\n"
        "  constructor(private readonly level: Level) {}\n"
        '  open(): never { throw new Error("level " + this.level); }\n'
        "}\n"
        "new Box(Level.High).open();\n"
    )
    assert failure_text(run(arm, host, source)).splitlines() == [
        "Error: level 1",
        "    at Box.open (program.ts:4:25)",
        "    at program.ts:6:21",
    ]


def test_an_owners_typescript_programs_share_a_worker_each_in_a_fresh_realm_with_its_own_map(
    arm: TypeScriptArm, host: Host
) -> None:
    owner = f"agent-{time.monotonic_ns()}"
    count = (
        "const W: { seen?: number } = TextEncoder.constructor('return globalThis')();\n"
        "W.seen = (W.seen ?? 0) + 1;\n"
        "console.log(W.seen, typeof (globalThis as { left?: number }).left);\n"
        "(globalThis as { left?: number }).left = 1;\n"
    )
    throws = "enum Level { Low, High }\nthrow new Error('level ' + Level.High);\n"
    first = arm.run(count, host, CEILINGS, owner=owner)
    second = arm.run(count + throws, host, CEILINGS, owner=owner)
    assert first.ok and first.logs == ("1 undefined",)
    assert second.logs == ("2 undefined",)
    assert failure_text(second).splitlines() == ["Error: level 1", "    at program.ts:6:7"]


def test_the_guests_globals_are_declared_and_timers_network_and_dom_are_not(
    arm: TypeScriptArm, host: Host
) -> None:
    fine = (
        'import { views, ApiError } from "gg";\n'
        "const bytes: Uint8Array = new TextEncoder().encode('hé');\n"
        "const text: string = new TextDecoder().decode(bytes);\n"
        "const copy = structuredClone({ text });\n"
        "const id: string = crypto.randomUUID();\n"
        "queueMicrotask(() => console.log(copy.text, id.length));\n"
        "try { views.openText('', 'x'); } catch (e) { if (e instanceof ApiError && e.code === 'invalid-argument') console.log(e.operation); }\n"  # noqa: E501
    )
    execution = run(arm, host, fine)
    assert execution.ok, execution.failure
    assert execution.logs == ("hé 36",) or execution.logs[-1] == "hé 36"
    lines = rejected(
        run(arm, host, "setTimeout(() => 1, 5);\nfetch('http://x');\ndocument.title;\nDeno.pid;\n"),
        ErrorType.TRANSPILE_COMPILE,
    )
    assert [line.split(" - ")[0] for line in lines if not line.startswith(" ")] == [
        "program.ts:1:1",
        "program.ts:2:1",
        "program.ts:3:1",
        "program.ts:4:1",
    ]


def test_calls_are_checked_against_the_sdks_declarations(arm: TypeScriptArm, host: Host) -> None:
    source = (
        'import { files, tasks } from "gg";\n'
        'files.readFile("notes.txt", { offset: "2" });\n'
        "files.writeFile(1, 2);\n"
        'tasks.setBlockedBy("T-1", "T-2");\n'
        'files.readFile("notes.txt", 5);\n'
    )
    lines = rejected(run(arm, host, source), ErrorType.TRANSPILE_COMPILE)
    heads = [line.split(" - ")[0] for line in lines if not line.startswith(" ")]
    assert heads == ["program.ts:2:31", "program.ts:3:17", "program.ts:4:27", "program.ts:5:29"], lines


def test_unresolvable_imports_read_as_the_guests_own_refusals(arm: TypeScriptArm, host: Host) -> None:
    source = (
        'import a from "gg:nope";\nimport b from "./local.ts";\nimport c from "npm:left-pad";\n'
        "console.log(a, b, c);\n"
    )
    lines = rejected(run(arm, host, source), ErrorType.TRANSPILE_COMPILE)
    assert lines[0] == (
        "program.ts:1:15 - error: cannot import gg:nope: gg has no such family; the families are "
        "files, views, shell, tasks"
    )
    assert lines[1].startswith("program.ts:2:15 - error: cannot import ./local.ts: ")
    assert lines[2].startswith("program.ts:3:15 - error: cannot import npm:left-pad: ")
    assert "gg-tscheck" not in "\n".join(lines) and "file://" not in "\n".join(lines)


def test_a_code_module_may_be_typescript_and_its_bindings_are_any(arm: TypeScriptArm, host: Host) -> None:
    module = CodeModule(
        "csvTools",
        "/** rows */\nexport function parse(text: string): string[][] {\n"
        "  if (!text) throw new Error('empty');\n  return text.split('\\n').map((l) => l.split(','));\n}\n",
        "ts",
    )
    source = (
        'import * as csvTools from "lib:csvTools";\n'
        'console.log(csvTools.parse("a,b").length);\ncsvTools.parse("");\n'
    )
    execution = run(arm, host, source, (module,))
    assert execution.logs == ("1",)
    assert failure_text(execution).splitlines() == [
        "Error: empty",
        "    at Module.parse (lib:csvTools:3:20)",
        "    at program.ts:3:10",
    ]


def test_a_forgotten_import_is_a_compile_error_at_the_name(arm: TypeScriptArm, host: Host) -> None:
    lines = rejected(run(arm, host, 'views.openText("a", "b");\n'), ErrorType.TRANSPILE_COMPILE)
    assert lines == ["program.ts:1:1 - error TS2304: Cannot find name 'views'."]


# ---- the checker -----------------------------------------------------------------------------


def test_triple_slash_directives_are_blanked_in_place() -> None:
    source = (
        '\ufeff/// <reference path="/etc/passwd" />\r  ///<reference lib="dom" />\u2028'
        '///\t<amd-module />\nconst a = "/// x";\n'
    )
    blanked = blank_directives(source)
    assert blanked == (
        '\ufeff//  <reference path="/etc/passwd" />\r  // <reference lib="dom" />\u2028'
        '// \t<amd-module />\nconst a = "/// x";\n'
    )
    assert len(blanked) == len(source)


def test_a_checker_that_cannot_finish_is_ggs_defect_and_the_next_check_starts_afresh() -> None:
    checker = TypeChecker(declarations(registry()), check_secs=0.001)
    try:
        with pytest.raises(GgDefect) as caught:
            checker.check("const a = 1;\n")
        assert caught.value.fault is FatalFault.TOOLCHAIN
        assert checker.scrubbed == ()  # the failed checker is gone
    finally:
        checker.close()


def test_a_checker_that_died_between_checks_is_replaced(arm: TypeScriptArm, host: Host) -> None:
    run(arm, host, "const warm = 1;\n")
    server = arm.checker._server  # pyright: ignore[reportPrivateUsage]
    assert server is not None
    server._process._proc.kill()  # pyright: ignore[reportPrivateUsage]
    server._process._proc.wait()  # pyright: ignore[reportPrivateUsage]
    start = time.monotonic()
    roomy = Ceilings(timeout_secs=STOPPED_WITHIN_SECS, max_memory_bytes=CEILINGS.max_memory_bytes)
    execution = arm.run('import { views } from "gg";\nviews.openText("alive", "yes");\n', host, roomy)
    assert execution.ok and host.views == {"alive": "yes"}
    assert time.monotonic() - start < ANSWERED_WITHIN_SECS  # a new checker, started cold


def test_close_removes_the_checkers_directory(host: Host) -> None:
    arm = TypeScriptArm(registry())
    run(arm, host, "const a: number = 1;\n")
    directory = Path(arm.checker.scrubbed[1])
    assert directory.is_dir()
    arm.close()
    assert not directory.exists()


def test_a_type_check_bomb_is_refused_at_the_ceiling_and_the_next_program_is_checked(host: Host) -> None:
    """A program whose types make the checker work without end is the program's failure, bounded
    by its own time ceiling (plus the check's grace), never gg's; the checker is replaced.

    The checker is warm before the bomb, so the check's time is the bomb's alone; the next
    program is checked by a new checker, started cold, under a ceiling that leaves it room on a
    loaded machine (how fast a check is, is `bench/guest.py`'s)."""
    bomb = (
        'type Rep<N extends number, T extends unknown[]> = T["length"] extends N ? T : Rep<N, [...T, T]>;\n'
    )
    bomb += "".join(f'const v{i}: Rep<999, [{i}]>["length"] = 999;\n' for i in range(400))
    with TypeScriptArm(registry(), check_grace_secs=0.5) as arm:
        arm.checker.warm()
        ceilings = Ceilings(timeout_secs=0.5, max_memory_bytes=CEILINGS.max_memory_bytes)
        refused = arm.run(bomb, host, ceilings)
        assert refused.failure is not None and refused.failure.type is ErrorType.TRANSPILE_COMPILE
        assert refused.failure.heading == "Compiler error" and "1 s" in refused.failure.text
        assert refused.compile_ms is not None and 1000 <= refused.compile_ms < STOPPED_WITHIN_SECS * 1000
        roomy = Ceilings(timeout_secs=STOPPED_WITHIN_SECS, max_memory_bytes=CEILINGS.max_memory_bytes)
        assert arm.run("const fine: number = 1;\n", host, roomy).ok
