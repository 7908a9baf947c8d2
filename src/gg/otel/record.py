"""gg's record as the OpenTelemetry export reads it: the one place `gg.otel` reaches into it.

Rules:
- A stored run is read from the run store under a base folder (`<base>/.gg/runs.db`), by id, a
  unique prefix of one, or `latest`, as `gg show` finds it; its events come back as the wire
  records the NDJSON file holds, in the order they were emitted.
- A record's fields are read by the record's own readers, and a reply's tokens and cost by the
  one reading `gg runs` and `gg show` use, so the spans' figures are theirs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from gg.record.records import dict_of, float_of, int_of, list_of, read_call, read_message
from gg.record.tally import reply_cost, tally, token_counts
from gg.telemetry.clock import parse_timestamp

WireRecord: TypeAlias = Mapping[str, Any]  # one event's wire record

__all__ = [
    "RunRecords",
    "WireRecord",
    "dict_of",
    "float_of",
    "int_of",
    "list_of",
    "parse_timestamp",
    "read_call",
    "read_message",
    "read_runs",
    "reply_cost",
    "tally",
    "token_counts",
]


if TYPE_CHECKING:
    from gg.telemetry.location import StoreLocation


class RecordError(Exception):
    """No run store, a damaged one, or a reference that names no run (or several)."""


@dataclass(frozen=True)
class RunRecords:
    """One run as the store keeps it: its id and its events' wire records, in emit order."""

    run_id: str
    records: Sequence[WireRecord]


def read_runs(where: Path | StoreLocation, refs: list[str]) -> list[RunRecords]:
    """The runs `refs` name in the run store at `where` (a base folder holding `.gg/`, or a store's
    location), each once, in the order first named. Raises `RecordError`, naming why."""
    import sqlite3

    from gg.record.reader import RunLookupError, open_reader
    from gg.telemetry.layout import store_path
    from gg.telemetry.location import Backend, StoreLocation
    from gg.telemetry.store import RunStoreError

    if isinstance(where, Path):
        where = StoreLocation(Backend.SQLITE, store_path(where))
    if where.backend is Backend.SQLITE and not where.path.exists():
        raise RecordError(f"no runs yet: {where.path} does not exist")
    try:
        store = open_reader(where)
    except (RunStoreError, sqlite3.DatabaseError, OSError) as unusable:
        raise RecordError(f"the run store {where.shown} cannot be used: {unusable}") from None
    try:
        ids = dict.fromkeys(store.find_run(ref).id for ref in refs)  # a run named twice counts once
        return [RunRecords(run_id, store.events(run_id)) for run_id in ids]
    except RunLookupError as missing:
        raise RecordError(str(missing)) from None
    except sqlite3.DatabaseError as damaged:
        raise RecordError(f"the run store {where.shown} cannot be read: {damaged}") from None
    finally:
        store.close()
