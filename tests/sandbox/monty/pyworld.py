"""A small world for the Python arm's tests: a registry of a few operations with declared result
types, and a host that serves them from a confined workspace directory, recording every call and
every view.

The operations stand in for the real ones (the real SDK runs in `test_python_real_sdk.py`); their
handlers are plain Python functions, and confinement is a simple resolve-and-compare, enough to
show that a program's paths are decided on the host.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gg.config.ceilings import Ceilings
from gg.errors import ErrorCode, OperationError
from gg.sandbox.arms.python import PythonArm
from gg.sandbox.execution import Execution
from gg.sdk.codemodule import CodeModule
from gg.sdk.records import SDK_TYPES
from gg.sdk.registry import Alias, Always, Capability, Operation, Param, ParamType, Registry

CEILINGS = Ceilings(timeout_secs=5.0, max_memory_bytes=256 * 1024 * 1024)
TRIVIAL = 'from gg import views\nviews.open_text("alive", "yes")\n'


def _unused(scope: Any, args: Mapping[str, Any]) -> None:
    return None


def _op(family: str, key: str, returns: str, *params: Param, **extra: Any) -> Operation:
    return Operation(
        family, key, params, returns, f"{family}.{key}", extra.pop("gate", Always()), _unused, **extra
    )


def registry() -> Registry:
    """files.read_file/write_file/list_dir/tree, views.open_text/open_docs_view,
    programs.history/get (with the `source()` alias), shell.shell (gated), tasks.set_blocked_by,
    tasks.note (any value), session.finish (a string the SDK checks)."""
    text, u32 = ParamType.STRING, ParamType.U32
    return Registry(
        [
            _op(
                "files",
                "read_file",
                "FileRead",
                Param("path", text),
                Param("offset", u32, False),
                Param("limit", u32, False),
            ),
            _op("files", "write_file", "number", Param("path", text), Param("contents", text)),
            _op("files", "list_dir", "DirEntry[]", Param("path", text, False, positional=True)),
            _op("files", "tree", "string", Param("path", text, False), Param("depth", u32, False)),
            _op("views", "open_text", "void", Param("label", text), Param("body", text)),
            _op("views", "open_docs_view", "void", Param("target", ParamType.DOC_TARGET)),
            _op("programs", "history", "ProgramSummary[]", aliases=(Alias("source", "programs.get", "id"),)),
            _op("programs", "get", "string", Param("id", text)),
            _op(
                "shell",
                "shell",
                "string",
                Param("command", text),
                Param("timeout_secs", ParamType.POSITIVE_NUMBER, False),
                gate=Capability("shell"),
            ),
            _op("tasks", "set_blocked_by", "void", Param("id", text), Param("ids", ParamType.STRING_LIST)),
            _op("tasks", "note", "unknown", Param("value", ParamType.ANY)),
            _op("session", "finish", "void", Param("summary", text, checked_by_sdk=True)),
        ],
        types=SDK_TYPES,
    )


# The shared Python arm over this world's registry, for a module's `pytestmark`.
PYTHON = pytest.mark.arms("python", registry=registry)


@dataclass
class Host:
    """The membrane for tests: serves calls against `workspace`, records calls and views."""

    workspace: Path
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    views: dict[str, str] = field(default_factory=dict)
    hook: Callable[[str, Mapping[str, Any]], None] | None = None

    def __call__(self, operation: str, args: Mapping[str, Any]) -> Any:
        self.calls.append((operation, dict(args)))
        if self.hook is not None:
            self.hook(operation, args)
        serve = getattr(self, "_" + operation.replace(".", "_"), None)
        if serve is None:
            raise OperationError(
                operation.split(".")[1], ErrorCode.UNAVAILABLE, f"`gg.{operation}` is not available."
            )
        return serve(args)

    def _path(self, key: str, raw: Any) -> Path:
        if not isinstance(raw, str) or not raw or "\0" in raw:
            raise OperationError(key, ErrorCode.INVALID_ARGUMENT, "expected a non-empty path")
        root = self.workspace.resolve()
        target = (root / raw).resolve()
        if target != root and root not in target.parents:
            raise OperationError(key, ErrorCode.REFUSED, "the path is outside the workspace")
        return target

    def _files_read_file(self, args: Mapping[str, Any]) -> Any:
        path = self._path("read_file", args.get("path"))
        if not path.is_file():
            raise OperationError("read_file", ErrorCode.NOT_FOUND, "no such file")
        lines = path.read_text().splitlines(keepends=True)
        first = int(args.get("offset", 0))
        page = lines[first : first + int(args.get("limit", len(lines)))]
        return {
            "kind": "text",
            "contents": "".join(page),
            "firstLine": first + 1 if page else 0,
            "lastLine": first + len(page),
            "totalLines": len(lines),
            "byteTruncated": False,
        }

    def _files_write_file(self, args: Mapping[str, Any]) -> Any:
        path = self._path("write_file", args.get("path"))
        contents = str(args.get("contents"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(contents)
        return len(contents.encode())

    def _files_list_dir(self, args: Mapping[str, Any]) -> Any:
        path = self._path("list_dir", args.get("path", "."))
        if not path.is_dir():
            raise OperationError("list_dir", ErrorCode.NOT_FOUND, "no such directory")
        return [
            {"name": entry.name, "kind": "directory" if entry.is_dir() else "file"}
            for entry in sorted(path.iterdir())
        ]

    def _files_tree(self, args: Mapping[str, Any]) -> Any:
        return "\n".join(sorted(os.listdir(self._path("tree", args.get("path", ".")))))

    def _views_open_text(self, args: Mapping[str, Any]) -> Any:
        self.views[str(args["label"])] = str(args["body"])

    def _views_open_docs_view(self, args: Mapping[str, Any]) -> Any:
        self.views[f"docs {args['target']}"] = ""

    def _programs_history(self, args: Mapping[str, Any]) -> Any:
        return [{"id": "ab12", "turn": 1, "lines": 2, "chars": 30, "ok": False, "error": "boom"}]

    def _programs_get(self, args: Mapping[str, Any]) -> Any:
        return f"source of {args['id']}"

    def _tasks_set_blocked_by(self, args: Mapping[str, Any]) -> Any:
        return None

    def _tasks_note(self, args: Mapping[str, Any]) -> Any:
        return args.get("value")

    def _session_finish(self, args: Mapping[str, Any]) -> Any:
        return None


@pytest.fixture
def host(tmp_path: Path) -> Host:
    """A fresh workspace holding `notes.txt` and an empty `sub/`."""
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (workspace / "notes.txt").write_text("hello from the workspace\nsecond line\n")
    return Host(workspace)


def run(
    arm: PythonArm,
    host: Host,
    source: str,
    ceilings: Ceilings = CEILINGS,
    modules: tuple[CodeModule, ...] = (),
) -> Execution:
    return arm.run(source, host, ceilings, modules)


def failure_text(execution: Execution) -> str:
    assert execution.failure is not None, "the program was expected to fail"
    return execution.failure.text
