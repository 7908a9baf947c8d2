"""The `files` family: read, write and edit files in the agent's workspace (its listings:
`gg.sdk.listing`).

Paths are confined by `gg.state.workspace`. The rules added here:
- Lines end after `\\n` (a last line without one counts). `offset` = lines skipped (0-based; below
  the line count unless 0), `limit` = most lines returned (at least 1; default all). `firstLine`
  and `lastLine` are 1-based and inclusive; for an empty file they and `totalLines` are 0.
- A read returns at most 256 KiB of the file: whole lines, or a lone over-long first line cut at a
  character boundary (`byteTruncated`). It scans 1 MiB chunks, never past the size at open, and
  refuses files over 256 MiB (`limit-exceeded`). Bytes that are not UTF-8 become U+FFFD.
- PNG, JPEG, GIF and WebP are told by their first bytes; their read is a description (`shown` is
  false: no pictures are attached); `offset`/`limit` do not apply to them.
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
from collections.abc import Generator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from gg import prompts
from gg.config.hooks import HookEvent
from gg.errors import ErrorCode, OperationError
from gg.sdk.hooks import fire
from gg.sdk.registry import Always, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.workspace import PathRefusal, Workspace, quote_path
from gg.wire import well_formed

MAX_READ_BYTES = 256 * 1024
MAX_SCANNED_FILE_BYTES = 256 * 1024 * 1024
MAX_WRITE_BYTES = 8 * 1024 * 1024
MAX_IMAGE_BYTES = 8 * 1024 * 1024
_CHUNK_BYTES = 1024 * 1024
_IMAGE_MAGIC: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"WEBP", 8, "image/webp"),  # after `RIFF` and a 4-byte size
)


@contextmanager
def refusals_for(operation: str, path: str) -> Generator[None]:
    """Turn a workspace refusal, or a failed read or write of `path`, into an `ApiError` of
    `operation`."""
    try:
        yield
    except PathRefusal as refusal:
        raise OperationError(operation, refusal.code, refusal.message) from None
    except OSError as error:
        raise OperationError(operation, ErrorCode.IO_ERROR, _io_failed(path, error)) from None


def _io_failed(path: str, error: OSError) -> str:
    reason = os.strerror(error.errno) if error.errno is not None else "unknown error"
    return f"{quote_path(path)} failed: {reason}"


# --- reading ------------------------------------------------------------------------------------


@dataclass
class _LineScan:
    """Counts a file's lines chunk by chunk and keeps the bytes of lines [start, stop)."""

    start: int
    stop: int | None
    newlines: int = 0
    size: int = 0
    ends_in_newline: bool = False
    kept: bytearray = field(default_factory=bytearray)
    done: bool = False
    truncated: bool = False

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        if not self.done:
            self._keep(chunk)
        self.newlines += chunk.count(b"\n")
        self.size += len(chunk)
        self.ends_in_newline = chunk.endswith(b"\n")

    @property
    def total_lines(self) -> int:
        return self.newlines + (1 if self.size and not self.ends_in_newline else 0)

    def _keep(self, chunk: bytes) -> None:
        begin = self._line_at(chunk, self.start)
        if begin is None:
            return
        end = None if self.stop is None else self._line_at(chunk, self.stop)
        piece = chunk[begin:end]
        room = MAX_READ_BYTES - len(self.kept)
        if len(piece) > room:
            self.kept += piece[:room]
            self._cut()
            return
        self.kept += piece
        self.done = end is not None

    def _line_at(self, chunk: bytes, line: int) -> int | None:
        """Where 0-based line `line` begins in `chunk` (0 if it began earlier), or None if later."""
        need = line - self.newlines
        if need <= 0:
            return 0
        if chunk.count(b"\n") < need:
            return None
        at = -1
        for _ in range(need):
            at = chunk.index(b"\n", at + 1)
        return at + 1

    def _cut(self) -> None:
        """Drop the partly kept last line, or cut a lone over-long line at a character boundary."""
        last_newline = self.kept.rfind(b"\n")
        end = last_newline + 1 if last_newline >= 0 else _char_boundary(self.kept)
        del self.kept[end:]
        self.truncated = True
        self.done = True


def _char_boundary(data: bytearray) -> int:
    """The length of `data` without a trailing incomplete UTF-8 sequence."""
    end = len(data)
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte & 0xC0 != 0x80:  # ASCII or a lead byte
            need = 1 if byte < 0x80 else 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return end if need <= back else end - back
    return end  # no lead byte in reach: not UTF-8 here, so any cut will do


def _image_type(head: bytes) -> str | None:
    for magic, at, media_type in _IMAGE_MAGIC:
        if head[at : at + len(magic)] == magic and (at == 0 or head.startswith(b"RIFF")):
            return media_type
    return None


def read_region(
    operation: str, workspace: Workspace, path: str, offset: int = 0, limit: int | None = None
) -> dict[str, Any]:
    """The `FileRead` record for `path`: a page of text lines or an image's description."""
    with refusals_for(operation, path), workspace.open_for_read(path) as stream:
        size = os.fstat(stream.fileno()).st_size
        head = stream.read(12) or b""
        media_type = _image_type(head)
        if media_type is not None:
            return _image_record(workspace.relative(path), media_type, size)
        if size > MAX_SCANNED_FILE_BYTES:
            raise OperationError(operation, ErrorCode.LIMIT_EXCEEDED, _file_too_large(path, size))
        scan = _LineScan(offset, None if limit is None else offset + limit)
        scan.feed(head)
        _scan_rest(stream, scan, size - len(head))
    if offset and offset >= scan.total_lines:
        raise OperationError(operation, ErrorCode.INVALID_ARGUMENT, _offset_past_end(path, offset, scan))
    return _text_record(offset, scan)


def _scan_rest(stream: io.FileIO, scan: _LineScan, remaining: int) -> None:
    while remaining > 0:
        chunk = stream.read(min(_CHUNK_BYTES, remaining))
        if not chunk:
            return
        scan.feed(chunk)
        remaining -= len(chunk)


def _text_record(offset: int, scan: _LineScan) -> dict[str, Any]:
    kept = bytes(scan.kept)
    shown_lines = kept.count(b"\n") + (1 if kept and not kept.endswith(b"\n") else 0)
    total = scan.total_lines
    return {
        "kind": "text",
        "contents": kept.decode("utf-8", "replace"),
        "firstLine": offset + 1 if total else 0,
        "lastLine": offset + shown_lines if total else 0,
        "totalLines": total,
        "byteTruncated": scan.truncated,
    }


def _image_record(label: str, media_type: str, size: int) -> dict[str, Any]:
    return {
        "kind": "image",
        "mediaType": media_type,
        "label": label,
        "bytes": size,
        "shown": False,
        "notShownReason": _image_not_shown(size),
    }


def _image_not_shown(size: int) -> str:
    if size > MAX_IMAGE_BYTES:
        return f"the image is {size} bytes, over the {MAX_IMAGE_BYTES}-byte image cap"
    return "this harness does not attach images to the model's input"


def _file_too_large(path: str, size: int) -> str:
    return f"{quote_path(path)} is {size} bytes; a read scans at most {MAX_SCANNED_FILE_BYTES} bytes"


def _offset_past_end(path: str, offset: int, scan: _LineScan) -> str:
    return f"`offset` {offset} is past the end of {quote_path(path)}, which has {scan.total_lines} lines"


def _read_file(scope: ProgramScope, args: Mapping[str, Any]) -> dict[str, Any]:
    return read_region("read_file", scope.workspace, args["path"], args.get("offset", 0), args.get("limit"))


def _read_text_file(scope: ProgramScope, args: Mapping[str, Any]) -> str:
    path: str = args["path"]
    record = read_region("read_text_file", scope.workspace, path, args.get("offset", 0), args.get("limit"))
    if record["kind"] != "text":
        raise OperationError(
            "read_text_file", ErrorCode.INVALID_ARGUMENT, _is_image(path, record["mediaType"])
        )
    return record["contents"]


def _is_image(path: str, media_type: str) -> str:
    return f"{quote_path(path)} is an image ({media_type}), not text"


# --- writing ------------------------------------------------------------------------------------


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
        fire(scope, "write_file", HookEvent.PRE_WRITE, written)
    with refusals_for("write_file", path), scope.workspace.open_for_write(path) as stream:
        _write_all(stream, data)
    fire(scope, "write_file", HookEvent.POST_WRITE, {**written, "ok": True})
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
        fire(scope, "edit_file", HookEvent.PRE_WRITE, written)
        stream.seek(0)
        _write_all(stream, edited)
        stream.truncate(len(edited))
    fire(scope, "edit_file", HookEvent.POST_WRITE, {**written, "ok": True})


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


# --- declarations -------------------------------------------------------------------------------

PATH = Param("path", ParamType.STRING, doc="workspace-relative, or absolute inside the workspace")
OFFSET = Param("offset", ParamType.U32, required=False, doc="lines to skip (0-based)")
LIMIT = Param("limit", ParamType.COUNT, required=False, doc="most lines to return (at least 1)")

FILES_OPERATIONS: tuple[Operation, ...] = (
    Operation(
        family="files",
        key="read_file",
        params=(PATH, OFFSET, LIMIT),
        returns="FileRead",
        summary="Read a page of a workspace text file, or describe an image file.",
        gate=Always(),
        handler=_read_file,
    ),
    Operation(
        family="files",
        key="read_text_file",
        params=(PATH, OFFSET, LIMIT),
        returns="string",
        summary="Read a page of a workspace text file as a string.",
        gate=Always(),
        handler=_read_text_file,
    ),
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
