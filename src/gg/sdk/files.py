"""The `files` family's reads: `read_file` and `read_text_file` (its listings: `gg.sdk.listing`;
its writes and edits: `gg.sdk.writing`).

Paths are confined by `gg.state.workspace`. The rules added here:
- Lines end after `\\n` (a last line without one counts). `offset` = lines skipped (0-based; below
  the line count unless 0), `limit` = most lines returned (at least 1; default all). `firstLine`
  and `lastLine` are 1-based and inclusive; for an empty file they and `totalLines` are 0.
- A read returns at most 256 KiB of the file: whole lines, or a lone over-long first line cut at a
  character boundary (`byteTruncated`). It scans 1 MiB chunks, never past the size at open, and
  refuses files over 256 MiB (`limit-exceeded`). Bytes that are not UTF-8 become U+FFFD.
- PNG, JPEG, GIF and WebP are told by their first bytes; their read is a description (`shown` is
  false: no pictures are attached); `offset`/`limit` do not apply to them.
- A workspace refusal, or a failed read or write, is the operation's `ApiError` (`refusals_for`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Generator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from gg.errors import ErrorCode, OperationError
from gg.sdk.registry import Always, Operation, Param, ParamType
from gg.sdk.scope import ProgramScope
from gg.state.workspace import PathRefusal, Workspace, quote_path

MAX_READ_BYTES = 256 * 1024
MAX_SCANNED_FILE_BYTES = 256 * 1024 * 1024
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
)
