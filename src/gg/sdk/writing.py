"""The `files` family's writes: `write_file` and `edit_file` (its reads: `gg.sdk.files`).

Paths are confined by `gg.state.workspace`. The rules added here:
- Writes store UTF-8 (lone surrogates become U+FFFD), at most 8 MiB. An edit replaces the single
  occurrence of `oldString` (as UTF-8 bytes) in a file of at most 8 MiB: none is `not-found`,
  several (counted without overlap) `conflict`.
- A refusal names an argument as the program's arm spells it (`oldString`, `old_string`).
- A write or an edit fires `pre-write` (which may refuse it) and, once the file holds it,
  `post-write`, each with the file's absolute path and the contents it ends up with.
"""

from __future__ import annotations

import errno
import io
import os
from collections.abc import Mapping
from typing import Any

from gg import prompts
from gg.config.hooks import HookEvent
from gg.errors import ErrorCode, OperationError
from gg.sdk.files import PATH, refusals_for
from gg.sdk.hooks import fire
from gg.sdk.registry import Always, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.workspace import quote_path
from gg.wire import well_formed

MAX_WRITE_BYTES = 8 * 1024 * 1024


def _encoded_contents(operation: str, name: str, text: str) -> bytes:
    """`text` as UTF-8 (lone surrogates replaced), refused over 8 MiB; `name` is what the
    refusal calls it (the argument, as the program's arm spells it)."""
    if len(text) > MAX_WRITE_BYTES:  # more characters than bytes allowed: no need to encode
        raise OperationError(operation, ErrorCode.LIMIT_EXCEEDED, _too_large_to_write(f"`{name}`", len(text)))
    data = well_formed(text).encode("utf-8")
    if len(data) > MAX_WRITE_BYTES:
        raise OperationError(operation, ErrorCode.LIMIT_EXCEEDED, _too_large_to_write(f"`{name}`", len(data)))
    return data


def _too_large_to_write(subject: str, size: int) -> str:
    return prompts.render("files-too-large", subject=subject, size=size, cap=MAX_WRITE_BYTES)


def _write_file(scope: ProgramScope, args: Mapping[str, Any]) -> int:
    data = _encoded_contents("write_file", "contents", args["contents"])
    path: str = args["path"]
    with refusals_for("write_file", path):
        written = _written(scope, path, data)
        fire(scope.hooks, "write_file", HookEvent.PRE_WRITE, written)
    with refusals_for("write_file", path), scope.workspace.open_for_write(path) as stream:
        _write_all(stream, data)
    fire(scope.hooks, "write_file", HookEvent.POST_WRITE, {**written, "ok": True})
    return len(data)


def _written(scope: ProgramScope, path: str, data: bytes) -> dict[str, object]:
    """A write's hook fields: the file's absolute path and the contents it ends up with."""
    absolute = scope.workspace.root / scope.workspace.relative(path)
    return {"path": str(absolute), "contents": data.decode("utf-8", "replace")}


def _edit_file(scope: ProgramScope, args: Mapping[str, Any]) -> None:
    path: str = args["path"]
    spell = scope.spelling("edit_file")
    old_name = spell.argument("old_string")
    old = _encoded_contents("edit_file", old_name, args["oldString"])
    new = _encoded_contents("edit_file", spell.argument("new_string"), args["newString"])
    if not old:
        raise OperationError(
            "edit_file", ErrorCode.INVALID_ARGUMENT, prompts.render("files-edit-empty", old=old_name)
        )
    with refusals_for("edit_file", path), scope.workspace.open_for_update(path) as stream:
        size = os.fstat(stream.fileno()).st_size
        if size > MAX_WRITE_BYTES:
            raise OperationError(
                "edit_file", ErrorCode.LIMIT_EXCEEDED, _too_large_to_write(quote_path(path), size)
            )
        data = _read_all(stream, size)
        at = _only_match(path, data, old, old_name)
        edited = data[:at] + new + data[at + len(old) :]
        if len(edited) > MAX_WRITE_BYTES:
            raise OperationError("edit_file", ErrorCode.LIMIT_EXCEEDED, _edit_too_large(path, len(edited)))
        written = _written(scope, path, edited)
        fire(scope.hooks, "edit_file", HookEvent.PRE_WRITE, written)
        stream.seek(0)
        _write_all(stream, edited)
        stream.truncate(len(edited))
    fire(scope.hooks, "edit_file", HookEvent.POST_WRITE, {**written, "ok": True})


def _read_all(stream: io.FileIO, size: int) -> bytes:
    """At most `size` bytes from `stream` (fewer if it ends first)."""
    parts: list[bytes] = []
    while size > 0:
        part = stream.read(size) or b""
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _write_all(stream: io.FileIO, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = stream.write(view)
        if not written:
            raise OSError(errno.EIO, "the file took no bytes")
        view = view[written:]


def _only_match(path: str, data: bytes, old: bytes, old_name: str) -> int:
    """Where `old` occurs in `data`, refusing none or several (`old_name`: the argument, as the
    program's arm spells it)."""
    at = data.find(old)
    if at < 0:
        no_match = prompts.render("files-edit-no-match", old=old_name, path=quote_path(path))
        raise OperationError("edit_file", ErrorCode.NOT_FOUND, no_match)
    if data.find(old, at + 1) >= 0:
        count = max(2, data.count(old))
        several = prompts.render("files-edit-several", old=old_name, count=count, path=quote_path(path))
        raise OperationError("edit_file", ErrorCode.CONFLICT, several)
    return at


def _edit_too_large(path: str, size: int) -> str:
    return f"the edited {quote_path(path)} would be {size} bytes, over the {MAX_WRITE_BYTES}-byte cap"


WRITING_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="files",
        key="write_file",
        params=(PATH, Param("contents", ParamType.STRING, doc="the whole new text")),
        returns="number",
        summary="Write a workspace file, creating its directories; returns the UTF-8 bytes written.",
        gate=Always(),
        handler=_write_file,
    ),
    Operation(
        family="files",
        key="edit_file",
        params=(
            PATH,
            Param("old_string", ParamType.STRING, doc="text that occurs exactly once"),
            Param("new_string", ParamType.STRING, doc="its replacement"),
        ),
        returns="void",
        summary="Replace the one occurrence of a text in a workspace file.",
        gate=Always(),
        handler=_edit_file,
    ),
)
