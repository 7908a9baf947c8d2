"""The NDJSON sink: one run's events at `<base>/.gg/runs/<run-id>/events.ndjson` (or at `path`,
beside the run store: `gg.telemetry.layout.run_events_beside`). It is the run's local copy for
either database, the one `gg store rebuild` and `gg store copy` read.

Rules:
- One JSON object per line, exactly `Event.to_wire()`, UTF-8, keys in wire order.
- Each line is flushed to the operating system as it is written, so a process killed with
  `kill -9` leaves every event it emitted; lines are not fsynced (power loss may drop the tail).
- A value JSON cannot hold is written as its `str()` rather than failing the run.
- A file that cannot be made (its folder cannot be created, the file cannot be opened) fails the
  sink's first write with the reason, so the run's first event meets it: the launch is refused.
- `read_events` skips a torn last line (a write cut short by a kill or a full disk), and nothing
  else.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO, cast

from gg.telemetry.events import Event
from gg.telemetry.layout import events_path


def encode_event(event: Event) -> str:
    """The event's wire record as one line of JSON (no newline)."""
    return encode_record(event.to_wire())


def encode_record(record: dict[str, Any]) -> str:
    """A wire record as one line of JSON (no newline), as the file holds it."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)


class NdjsonSink:
    """Appends one run's events to its NDJSON file, flushing each line."""

    def __init__(self, base: Path, run_id: str, *, path: Path | None = None) -> None:
        self.path = events_path(base, run_id) if path is None else path
        self._unmade: OSError | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file: TextIO | None = self.path.open("a", encoding="utf-8")
        except OSError as unmade:
            self._file, self._unmade = None, unmade

    def write(self, event: Event) -> None:
        if self._file is None:
            raise self._unmade or FileNotFoundError(str(self.path))
        self._file.write(encode_event(event) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def read_events(path: Path) -> list[dict[str, Any]]:
    """Every record in an NDJSON event file, in order; a torn final line is left out. Raises
    `ValueError` naming the first other line that is not a JSON object (and `OSError`, and
    `UnicodeDecodeError` for bytes that are not UTF-8)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    records: list[dict[str, Any]] = []
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as bad:
            if index == len(lines) - 1:
                break
            raise ValueError(f"line {index + 1} is not JSON ({bad.msg})") from None
        if not isinstance(record, dict):
            raise ValueError(f"line {index + 1} is not a JSON object")
        records.append(cast("dict[str, Any]", record))
    return records
