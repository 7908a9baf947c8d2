"""The JavaScript arm against a real Deno guest: how programs run and how their failures read.

Each test states one rule of the arm (seed 002, the ECMAScript guest notes, `reference/deno.md`).
The host is a plain Python function over a temporary workspace (`jsworld.Host`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jsworld import JAVASCRIPT, Host, failure_text, host, run

from gg.outcome import ErrorType
from gg.sandbox.arms.javascript import JavaScriptArm

pytestmark = JAVASCRIPT

__all__ = ["host"]  # fixtures


# ---- running --------------------------------------------------------------------------------


def test_a_program_runs_its_calls_in_order_and_reports_guest_time(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'import { files, views } from "gg";\n'
            'const read = files.readFile("notes.txt");\n'
            'files.writeFile("copy.txt", read.contents.toUpperCase());\n'
            'views.openText("count", String(files.listDir().length));\n'
            'console.log("checked files");\nconsole.error("3 of them changed");\n'
        ),
    )
    assert execution.ok
    assert [call[0] for call in host.calls] == [
        "files.read_file",
        "files.write_file",
        "files.list_dir",
        "views.open_text",
    ]
    assert (host.workspace / "copy.txt").read_text() == "HELLO FROM THE WORKSPACE\n"
    assert host.views == {"count": "3"}
    assert execution.logs == ("checked files", "3 of them changed")
    assert execution.duration_ms > 0
    assert execution.compile_ms is None


def test_an_empty_program_runs_and_does_nothing(arm: JavaScriptArm, host: Host) -> None:
    execution = run(arm, host, "")
    assert execution.ok and host.calls == []


def test_optional_arguments_travel_as_camel_case_fields(arm: JavaScriptArm, host: Host) -> None:
    run(
        arm,
        host,
        'import { files } from "gg";\nfiles.readFile("notes.txt", { offset: 2, limit: 3 });',
    )
    assert host.calls == [("files.read_file", {"path": "notes.txt", "offset": 2, "limit": 3})]


def test_a_returned_value_is_discarded_and_top_level_await_finishes_inside_the_run(
    arm: JavaScriptArm, host: Host
) -> None:
    execution = run(
        arm,
        host,
        (
            'import { views } from "gg";\n'
            "const value = await Promise.resolve(7);\n"
            'Promise.resolve().then(() => views.openText("later", String(value)));\n'
            "export const answer = value;\n"
        ),
    )
    assert execution.ok
    assert host.views == {"later": "7"}


def test_alias_methods_call_their_operation_with_the_records_field(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'import { files, views } from "gg";\n'
            'const entry = files.listDir().find((e) => e.name === "notes.txt");\n'
            'views.openText("via alias", entry.read().contents);\n'
            'views.openText("keys", Object.keys(entry).join(","));\n'
        ),
    )
    assert execution.ok
    assert host.views == {"via alias": "hello from the workspace\n", "keys": "name,kind"}


def test_web_globals_work_and_timers_and_network_throw_naming_what_is_missing(
    arm: JavaScriptArm, host: Host
) -> None:
    execution = run(
        arm,
        host,
        (
            'import { views } from "gg";\n'
            'const bytes = new TextEncoder().encode("héllo");\n'
            "const back = new TextDecoder().decode(bytes);\n"
            "const copy = structuredClone({ a: [1, 2] });\n"
            "let queued = false; queueMicrotask(() => { queued = true; }); await null;\n"
            "const missing = [];\n"
            'for (const name of ["setTimeout", "setInterval", "clearTimeout", "clearInterval", "fetch"]) {\n'
            '  try { globalThis[name](() => {}, 0); missing.push(name + ": no error"); } catch (e) { missing.push(e.message); }\n'  # noqa: E501
            "}\n"
            'views.openText("globals", [back, copy.a.length, crypto.randomUUID().length, queued, typeof Deno, typeof process].join(" "));\n'  # noqa: E501
            'views.openText("missing", missing.join("\\n"));\n'
        ),
    )
    assert execution.ok, execution.failure
    assert host.views["globals"] == "héllo 2 36 true undefined undefined"
    missing = host.views["missing"].splitlines()
    assert len(missing) == 5
    for name, line in zip(
        ["setTimeout", "setInterval", "clearTimeout", "clearInterval", "fetch"], missing, strict=True
    ):
        assert line.startswith(f"{name} is not available")


# ---- failures, located in program.js ---------------------------------------------------------


def test_a_throw_is_located_at_its_line_and_column(arm: JavaScriptArm, host: Host) -> None:
    execution = run(arm, host, 'const a = 1;\nfunction f() {\n  throw new Error("boom");\n}\nf();\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert failure_text(execution).splitlines() == [
        "Error: boom",
        "    at f (program.js:3:9)",
        "    at program.js:5:1",
    ]


def test_a_reference_error_is_an_unknown_name_at_its_line(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        '// trying to exit\n\nconsole.log("before the exit");\nprocess.exit(\n  3,\n);\nconsole.log("after");\n',  # noqa: E501
    )
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_UNKNOWN_NAME
    assert failure_text(execution).splitlines() == [
        "ReferenceError: process is not defined",
        "    at program.js:4:1",
    ]
    assert execution.logs == ("before the exit",)


def test_a_module_in_scope_is_not_a_name_in_scope(arm: JavaScriptArm, host: Host) -> None:
    execution = run(arm, host, 'const found = files.readFile("notes.txt");\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_UNKNOWN_NAME
    assert "ReferenceError: files is not defined" in failure_text(execution)
    assert "program.js:1:15" in failure_text(execution)
    assert host.calls == []


@pytest.mark.parametrize(
    ("source", "located"),
    [
        (
            'import { files } from "gg";\nfiles.writeFile("before.txt", "x");\ncosnt total = 3;\n',
            "SyntaxError: Unexpected identifier 'total' at program.js:3:7",
        ),
        ('console.log("before");\nreturn 42;\n', "SyntaxError: Illegal return statement at program.js:2:1"),
        (
            "The scaffold is already complete; nothing left to do.",
            "SyntaxError: Unexpected identifier 'scaffold' at program.js:1:5",
        ),
    ],
)
def test_a_syntax_error_is_the_engines_own_at_the_models_line_and_nothing_runs(
    arm: JavaScriptArm, host: Host, source: str, located: str
) -> None:
    execution = run(arm, host, source)
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert failure_text(execution).splitlines()[0] == located
    assert execution.failure.heading == "Runtime error"
    assert host.calls == [] and execution.logs == ()
    assert not (host.workspace / "before.txt").exists()


def test_an_uncaught_api_error_shows_its_properties_and_strikes_the_sdk_frames(
    arm: JavaScriptArm, host: Host
) -> None:
    execution = run(
        arm,
        host,
        (
            '// an uncaught call that gg answers with not-found\n\nimport { files } from "gg";\n\n'
            'const text = files.readFile(\n  "missing.md",\n);\nconsole.log(text);\n'
        ),
    )
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_API_ERROR
    lines = failure_text(execution).splitlines()
    assert lines[:4] == [
        "ApiError: no such file: missing.md",
        '  operation: "read_file"',
        '  code: "not-found"',
        "    at program.js:5:20",
    ]
    assert re.fullmatch(r"    \(\d frames? inside gg's SDK and the engine left out\)", lines[4])
    assert len(lines) == 5
    assert "sdk:" not in failure_text(execution) and "sandbox:" not in failure_text(execution)
    assert execution.logs == ()


def test_a_mistyped_string_argument_is_a_type_error_at_the_call(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm, host, 'import { views } from "gg";\n\nviews.openText(1, 2);\nconsole.log("reached");\n'
    )
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    lines = failure_text(execution).splitlines()
    assert lines[0] == "TypeError: `label` must be a string, got number"
    assert lines[1] == "    at program.js:3:7"
    assert host.calls == [] and execution.logs == ()


def test_an_unhandled_rejection_is_the_programs_failure(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        'const ok = Promise.reject(new Error("handled")); ok.catch(() => {});\nPromise.reject(new Error("nobody caught me"));\n',  # noqa: E501
    )
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert failure_text(execution).splitlines() == [
        "Uncaught (in promise) Error: nobody caught me",
        "    at program.js:2:16",
    ]


def test_a_rejection_handled_before_the_queue_empties_is_no_failure(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'const late = Promise.reject(new Error("later"));\nawait null;\nlate.catch(() => {});\n'
            "const all = await Promise.allSettled([Promise.reject(1)]);\n"
            'try { await Promise.reject(new Error("x")); } catch {}\n'
        ),
    )
    assert execution.ok, execution.failure


def test_a_thrown_non_error_value_is_reported_by_value(arm: JavaScriptArm, host: Host) -> None:
    execution = run(arm, host, 'throw { reason: "plain object" };\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert failure_text(execution) == 'Uncaught { reason: "plain object" }'


def test_a_stack_overflow_is_a_catchable_range_error_then_a_located_throw(
    arm: JavaScriptArm, host: Host
) -> None:
    execution = run(
        arm,
        host,
        'const f = (n) => f(n + 1) + 1;\nlet caught = "";\ntry { f(0); } catch (e) { caught = e.name; }\nconsole.log(caught);\nf(0);\n',  # noqa: E501
    )
    assert execution.logs == ("RangeError",)
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    text = failure_text(execution)  # where the stack runs out within line 1 varies from run to run
    assert text.startswith("RangeError: Maximum call stack size exceeded\n    at f (program.js:1:")
    assert "\n    at f (program.js:1:18)" in text


def test_no_host_path_reaches_a_failure_text(arm: JavaScriptArm, host: Host) -> None:
    for source in [
        'import fs from "node:fs";',
        'await import("file:///etc/passwd");',
        "let x = ;",
        "null.x;",
        'import { files } from "gg"; files.readFile("nope.txt");',
    ]:
        text = failure_text(run(arm, host, source))
        for leak in [str(host.workspace), str(Path.cwd()), "/tmp/", "data:", "file://", ".venv"]:
            assert leak not in text.replace("file:///etc/passwd", ""), (source, text)
