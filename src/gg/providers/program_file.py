"""A journal's `programFile`: a program kept in a file of its own beside the journal.

- The path is relative to the journal's folder and must stay inside it (a link leading out is
  refused too); a journal not read from a file has no folder, and a `programFile` in it is refused.
- The file is UTF-8 text of at most 1 MiB, read when the journal is opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gg.providers.line_defect import LineDefect, json_string

MAX_PROGRAM_FILE_BYTES = 1024 * 1024


def read_program_file(value: Any, folder: Path | None) -> str:
    """The text of a `programFile`: a UTF-8 file inside the journal's folder, at most 1 MiB."""
    name = json_string(value, "`programFile`")
    if folder is None:
        raise LineDefect(
            "`programFile` is read beside a journal file; this journal was not read from one", name
        )
    if not name or "\0" in name or Path(name).is_absolute():
        raise LineDefect("`programFile` must be a path relative to the journal's folder", name)
    inside = folder.resolve()
    target = (inside / name).resolve()
    if not target.is_relative_to(inside):
        raise LineDefect("`programFile` leads outside the journal's folder", name)
    if not target.is_file():
        raise LineDefect("`programFile` names no file in the journal's folder", name)
    try:
        with target.open("rb") as stream:
            data = stream.read(MAX_PROGRAM_FILE_BYTES + 1)
    except OSError as exc:
        raise LineDefect(f"`programFile` cannot be read ({exc.strerror or exc})", name) from exc
    if len(data) > MAX_PROGRAM_FILE_BYTES:
        raise LineDefect(f"`programFile` is over {MAX_PROGRAM_FILE_BYTES} bytes", name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineDefect("`programFile` is not UTF-8 text", name) from exc
