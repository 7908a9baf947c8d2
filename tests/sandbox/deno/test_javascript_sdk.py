"""The JavaScript guest's SDK and module resolution: ApiError, argument checks, imports, `lib:`."""

from __future__ import annotations

import json

import pytest
from jsworld import JAVASCRIPT, Host, failure_text, host, run

from gg.outcome import ErrorType
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sdk.codemodule import CodeModule

pytestmark = JAVASCRIPT

__all__ = ["host"]  # fixtures


# ---- the SDK in the guest ---------------------------------------------------------------------


def test_api_error_is_one_class_everywhere_and_caught_as_such(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'import * as gg from "gg";\nimport { ApiError } from "gg:core";\nimport * as files from "gg:files";\n'  # noqa: E501
            'import { files as viaGg } from "gg";\n'
            'try { files.readFile("nope.txt"); } catch (e) {\n'
            '  console.log([e instanceof ApiError, e instanceof gg.ApiError, e instanceof Error, e.name, e.operation, e.code, e.message].join("|"));\n'  # noqa: E501
            "  console.log(JSON.stringify(e));\n}\n"
            "console.log(files === viaGg, files.readFile === gg.files.readFile);\n"
        ),
    )
    assert execution.ok, execution.failure
    assert execution.logs == (
        "true|true|true|ApiError|read_file|not-found|no such file: nope.txt",
        '{"name":"ApiError","operation":"read_file","code":"not-found","message":"no such file: nope.txt"}',
        "true true",
    )


def test_guest_side_validation_names_the_argument_the_shape_and_the_value(
    arm: JavaScriptArm, host: Host
) -> None:
    execution = run(
        arm,
        host,
        (
            'import { files, shell, tasks, ApiError } from "gg";\n'
            "function attempt(label, f) {\n"
            "  try { f(); console.log(JSON.stringify({ label, threw: false })); }\n"
            "  catch (e) { console.log(JSON.stringify({ label, api: e instanceof ApiError, code: e.code, operation: e.operation, message: e.message })); }\n"  # noqa: E501
            "}\n"
            'attempt("positional", () => files.readFile("a.js", 5));\n'
            'attempt("negative-offset", () => files.readFile("a.js", { offset: -1 }));\n'
            'attempt("fractional-limit", () => files.readFile("a.js", { limit: 0.5 }));\n'
            'attempt("shell-timeout", () => shell.shell("ls", { timeoutSecs: -1 }));\n'
            'attempt("shell-positional", () => shell.shell("npm test", 300));\n'
            'attempt("not-a-list", () => tasks.setBlockedBy("T-1", "T-2"));\n'
            'attempt("bad-entry", () => tasks.setBlockedBy("T-1", ["T-2", 3]));\n'
        ),
    )
    assert execution.ok and host.calls == []

    logs = [json.loads(line) for line in execution.logs]
    expected = [
        ("positional", "read_file", ["object", "number"]),
        ("negative-offset", "read_file", ["`offset`", "4294967295", "-1"]),
        ("fractional-limit", "read_file", ["`limit`", "4294967295", "0.5"]),
        ("shell-timeout", "shell", ["`timeoutSecs`", "-1"]),
        ("shell-positional", "shell", ["object", "number"]),
        ("not-a-list", "set_blocked_by", ["`ids`", "array", "string"]),
        ("bad-entry", "set_blocked_by", ["`ids`", "3"]),
    ]
    for entry, (label, operation, words) in zip(logs, expected, strict=True):
        assert entry["label"] == label and entry["api"] is True
        assert entry["code"] == "invalid-argument" and entry["operation"] == operation
        assert all(word in entry["message"] for word in words), entry["message"]


def test_a_replaced_array_iterator_is_never_consulted_by_a_call(arm: JavaScriptArm, host: Host) -> None:
    """An SDK call walks its own specs by index: a program's array iterator, rewriting what it
    yields, sees none of a call's internals and changes neither the check nor what crosses."""
    execution = run(
        arm,
        host,
        (
            'import { files } from "gg";\n'
            "const ArrayIterator = Object.getPrototypeOf([][Symbol.iterator]());\n"
            "const next = ArrayIterator.next;\n"
            "const seen = [];\n"
            "ArrayIterator.next = function () {\n"
            "  const step = next.call(this);\n"
            "  if (!step.done) seen.push(String(step.value));\n"
            '  if (step.value === "path") step.value = "offset";\n'
            '  if (step.value === "u32") step.value = "string?";\n'
            "  return step;\n"
            "};\n"
            'const read = files.readFile("notes.txt", { offset: 0, limit: 5 });\n'
            "const listed = files.listDir();\n"
            'let refused = "";\n'
            'try { files.readFile("notes.txt", { offset: "x" }); } catch (e) { refused = e.code; }\n'
            "ArrayIterator.next = next;\n"
            "console.log(JSON.stringify({ seen, read: read.contents, reads: typeof listed[0].read, refused }));\n"  # noqa: E501
        ),
    )
    assert execution.ok, execution.failure
    assert json.loads(execution.logs[0]) == {
        "seen": [],
        "read": "hello from the workspace\n",
        "reads": "function",
        "refused": "invalid-argument",
    }
    assert host.calls[0] == ("files.read_file", {"path": "notes.txt", "offset": 0, "limit": 5})


def test_an_uncaught_validation_error_ends_the_program_there(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        'import { files } from "gg";\nfiles.readFile("a.js", 5);\nfiles.writeFile("after.txt", "x");\n',
    )
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_API_ERROR
    text = failure_text(execution)
    assert all(word in text for word in ["read_file", "invalid-argument", "object", "number", "program.js:2"])
    assert host.calls == [] and not (host.workspace / "after.txt").exists()


def test_values_too_deep_for_the_host_are_refused_not_crashing_it(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'import { tasks } from "gg";\n'
            "let deep = []; for (let i = 0; i < 5000; i++) deep = [deep];\n"
            "try { tasks.note(deep); } catch (e) { console.log(e.code ?? e.name); }\n"
            'console.log(JSON.stringify(tasks.note({ a: [1, "two"] })));\n'
        ),
    )
    assert execution.ok, execution.failure
    assert execution.logs[0] in {"invalid-argument", "RangeError"}
    assert execution.logs[1] == '{"a":[1,"two"]}'


# ---- imports ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "why"),
    [
        ("node:fs", "there is no package registry and no file system"),
        ("fs", "there is no package registry and no file system"),
        ("https://deno.land/std/fs/mod.ts", "there is no package registry and no file system"),
        ("npm:left-pad", "there is no package registry and no file system"),
        ("file:///etc/passwd", "there is no package registry and no file system"),
        ("data:text/javascript,export default 1", "there is no package registry and no file system"),
        ("./gg.js", "there is no package registry and no file system"),
        ("sdk:/runtime.js", 'internal to gg; import "gg" or "gg:<family>" instead'),
        ("gg:nope", "the families are files, views, shell, tasks"),
        ("lib:nope", "no code modules are loaded"),
    ],
)
def test_every_other_specifier_is_refused_with_the_reason(
    arm: JavaScriptArm, host: Host, specifier: str, why: str
) -> None:
    for source in [f'import * as m from "{specifier}";\n', f'const m = await import("{specifier}");\n']:
        execution = run(arm, host, source)
        assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
        first = failure_text(execution).splitlines()[0]
        assert first.startswith(f"TypeError: cannot import {specifier}: ") and why in first, first


def test_an_unknown_lib_key_lists_the_loaded_keys(arm: JavaScriptArm, host: Host) -> None:
    modules = (CodeModule("csvTools", "export const x = 1;"), CodeModule("notes", "export const y = 2;"))
    execution = run(arm, host, 'import * as m from "lib:csvtools";\n', modules=modules)
    assert (
        "cannot import lib:csvtools: no code module is loaded under that key; the loaded keys are csvTools, notes"  # noqa: E501
        in failure_text(execution)
    )


def test_a_code_module_loads_as_its_own_module_and_reaches_gg(arm: JavaScriptArm, host: Host) -> None:
    modules = (
        CodeModule(
            "csvTools",
            'import { files } from "gg";\nexport const parse = (s) => s.split(",");\n'
            'export const head = () => files.readFile("notes.txt").contents.trim();\n',
        ),
    )
    execution = run(
        arm,
        host,
        'import * as csvTools from "lib:csvTools";\nconsole.log(csvTools.parse("a,b").length, csvTools.head());\n',  # noqa: E501
        modules=modules,
    )
    assert execution.ok, execution.failure
    assert execution.logs == ("2 hello from the workspace",)


def test_a_code_module_that_throws_fails_the_program_at_the_modules_own_line(
    arm: JavaScriptArm, host: Host
) -> None:
    modules = (
        CodeModule(
            "broken",
            'export const ok = 1;\nexport function bad() {\n  throw new Error("inside the module");\n}\n',
        ),
    )
    execution = run(arm, host, 'import * as broken from "lib:broken";\n\nbroken.bad();\n', modules=modules)
    assert failure_text(execution).splitlines() == [
        "Error: inside the module",
        "    at Module.bad (lib:broken:3:9)",
        "    at program.js:3:8",
    ]
    execution = run(
        arm,
        host,
        'import "lib:loud";\n',
        modules=(CodeModule("loud", '\nthrow new RangeError("at load");\n'),),
    )
    assert failure_text(execution).splitlines()[:2] == ["RangeError: at load", "    at lib:loud:2:7"]


# ---- documentation targets --------------------------------------------------------------------


def test_an_sdk_function_given_as_a_docs_target_crosses_as_its_key(arm: JavaScriptArm, host: Host) -> None:
    execution = run(
        arm,
        host,
        (
            'import { files, views, ApiError } from "gg";\nimport * as tasks from "gg:tasks";\n'
            "views.openDocsView(files.readFile);\nviews.openDocsView(tasks.setBlockedBy);\n"
            'views.openDocsView("files.listDir");\n'
            "for (const target of [undefined, null, 42, () => 1, { name: 'readFile' }]) {\n"
            "  try { views.openDocsView(target); }\n"
            "  catch (e) { console.log(e instanceof ApiError, e.operation, e.code, e.message); }\n"
            "}\n"
        ),
    )
    assert execution.ok, execution.failure
    assert [call[1]["target"] for call in host.calls] == [
        "gg.files.readFile",
        "gg.tasks.setBlockedBy",
        "files.listDir",
    ]
    wanted = "true open_docs_view invalid-argument `target` must be a function of gg's SDK or a "
    wanted += "documentation name, got"
    foreign = "true open_docs_view invalid-argument `target` is a function that is not part of gg's SDK"
    assert execution.logs == (
        f"{wanted} undefined",
        f"{wanted} null",
        f"{wanted} number",
        foreign,
        f"{wanted} object",
    )
