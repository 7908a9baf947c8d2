"""An MCP server's module joins the one declaration set like a host family: `gg.d.ts` type-checks
with its records (a field named as no identifier quoted), and the Python stubs spell a record whose
field names a class cannot hold in `TypedDict`'s call form."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from deno import find_deno_bin

from gg.mcp.tools import ToolSchema, declare_module
from gg.sandbox.deno.declarations import declarations
from gg.sandbox.monty.spelling import stubs
from gg.sdk.catalogue import default_registry
from gg.sdk.host.operations import host_entries
from gg.sdk.registry import Registry

TASK = {
    "type": "object",
    "properties": {
        "task": {
            "type": "object",
            "properties": {"due-date": {"type": "string"}, "class": {"type": "integer"}},
            "required": ["due-date"],
        },
        "max-count": {"type": "integer"},
    },
    "required": ["task"],
}


def _registry() -> Registry:
    family, _ = declare_module("my_todo", "my-todo", [ToolSchema("add-task", "Add a task.", TASK)])
    entries = host_entries([(family, lambda declaration: lambda scope, values: None)])
    return default_registry(entries.operations, entries.types, dict(entries.briefs))


def test_the_typescript_declarations_quote_a_field_no_identifier_names_and_type_check(tmp_path: Path) -> None:
    text = declarations(_registry())
    assert '    "due-date": string;\n    class?: number;' in text
    assert (
        "  export function addTask(task: MyTodoAddTaskTask, options?: { maxCount?: number }): unknown;"
        in text
    )
    assert '  export * as my_todo from "gg:my_todo";' in text
    (tmp_path / "gg.d.ts").write_text(text)
    (tmp_path / "deno.json").write_text(
        '{"compilerOptions": {"strict": true, "lib": ["es2022"]}, "lock": false}'
    )
    checked = subprocess.run(
        [find_deno_bin(), "check", "gg.d.ts"],
        cwd=tmp_path,
        env={
            "DENO_DIR": str(tmp_path / "deno"),
            "NO_COLOR": "1",
            "DENO_NO_UPDATE_CHECK": "1",
            "PATH": os.defpath,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_python_stubs_spell_such_a_record_in_the_call_form() -> None:
    stub = stubs(_registry())["gg.my_todo"]
    assert (
        'MyTodoAddTaskTask = TypedDict("MyTodoAddTaskTask", {"due-date": str, "class": NotRequired[int]})'
        in stub
    )
    assert "def add_task(task: MyTodoAddTaskTask, *, max_count: int | None = None) -> Any: ..." in stub
