"""A small world for the JavaScript arm's tests: a registry of a few operations and a host that
serves them from a confined workspace directory, recording every call and every view.

The operations stand in for the real ones (written elsewhere); their handlers here are plain
Python functions, and confinement is a simple resolve-and-compare, enough to show that a
program's paths are decided on the host.
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
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sandbox.execution import Execution
from gg.sdk.codemodule import CodeModule
from gg.sdk.registry import Alias, Always, Capability, Operation, Param, ParamType, Registry

CEILINGS = Ceilings(timeout_secs=5.0, max_memory_bytes=256 * 1024 * 1024)
TRIVIAL = 'import { views } from "gg"; views.openText("alive", "yes");'


def _unused(scope: Any, args: Mapping[str, Any]) -> None:
    return None


def _op(
    family: str, key: str, *params: Param, aliases: tuple[Alias, ...] = (), gate: Any = None
) -> Operation:
    return Operation(
        family, key, params, "unknown", f"{family}.{key}", gate or Always(), _unused, aliases=aliases
    )


def registry() -> Registry:
    """files.read_file/write_file/list_dir/tree, views.open_text/open_docs_view, shell.shell,
    tasks.set_blocked_by/note."""
    text, u32 = ParamType.STRING, ParamType.U32
    return Registry(
        [
            _op(
                "files",
                "read_file",
                Param("path", text),
                Param("offset", u32, False),
                Param("limit", u32, False),
            ),
            _op("files", "write_file", Param("path", text), Param("contents", text)),
            _op(
                "files",
                "list_dir",
                Param("path", text, False),
                aliases=(Alias("read", "files.read_file", "name"),),
            ),
            _op("files", "tree", Param("path", text, False), Param("depth", u32, False)),
            _op("views", "open_text", Param("label", text), Param("body", text)),
            _op("views", "open_docs_view", Param("target", ParamType.DOC_TARGET)),
            _op(
                "shell",
                "shell",
                Param("command", text),
                Param("timeout_secs", ParamType.POSITIVE_NUMBER, False),
                gate=Capability("shell"),
            ),
            _op("tasks", "set_blocked_by", Param("id", text), Param("ids", ParamType.STRING_LIST)),
            _op("tasks", "note", Param("value", ParamType.ANY)),
        ]
    )


# The shared JavaScript arm over this world's registry, for a module's `pytestmark`.
JAVASCRIPT = pytest.mark.arms("javascript", registry=registry)


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
            raise OperationError(key, ErrorCode.REFUSED, f"{raw} is outside the workspace")
        return target

    def _files_read_file(self, args: Mapping[str, Any]) -> Any:
        path = self._path("read_file", args.get("path"))
        if not path.is_file():
            raise OperationError("read_file", ErrorCode.NOT_FOUND, f"no such file: {args.get('path')}")
        return {"kind": "text", "contents": path.read_text()}

    def _files_write_file(self, args: Mapping[str, Any]) -> Any:
        path = self._path("write_file", args.get("path"))
        try:
            str(args.get("contents")).encode()
            str(path).encode()
        except UnicodeEncodeError:
            raise OperationError(
                "write_file", ErrorCode.INVALID_ARGUMENT, "text is not well-formed Unicode"
            ) from None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(str(args.get("contents")))
        return len(str(args.get("contents")).encode())

    def _files_list_dir(self, args: Mapping[str, Any]) -> Any:
        path = self._path("list_dir", args.get("path", "."))
        if not path.is_dir():
            raise OperationError("list_dir", ErrorCode.NOT_FOUND, f"no such directory: {args.get('path')}")
        return [
            {"name": entry.name, "kind": "directory" if entry.is_dir() else "file"}
            for entry in sorted(path.iterdir())
        ]

    def _files_tree(self, args: Mapping[str, Any]) -> Any:
        path = self._path("tree", args.get("path", "."))
        return "\n".join(sorted(os.listdir(path)))

    def _views_open_text(self, args: Mapping[str, Any]) -> Any:
        self.views[str(args["label"])] = str(args["body"])
        return None

    def _views_open_docs_view(self, args: Mapping[str, Any]) -> Any:
        self.views[f"docs:{args['target']}"] = ""
        return None

    def _tasks_set_blocked_by(self, args: Mapping[str, Any]) -> Any:
        return None

    def _tasks_note(self, args: Mapping[str, Any]) -> Any:
        return args.get("value")


@pytest.fixture
def host(tmp_path: Path) -> Host:
    """A fresh workspace holding `notes.txt` and an empty `sub/`."""
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (workspace / "notes.txt").write_text("hello from the workspace\n")
    return Host(workspace)


def run(
    arm: JavaScriptArm,
    host: Host,
    source: str,
    ceilings: Ceilings = CEILINGS,
    modules: tuple[CodeModule, ...] = (),
) -> Execution:
    return arm.run(source, host, ceilings, modules)


def failure_text(execution: Execution) -> str:
    assert execution.failure is not None, "the program was expected to fail"
    return execution.failure.text
