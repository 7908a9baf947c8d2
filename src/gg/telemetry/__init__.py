"""Telemetry: events, the emitter and its sinks (run store, NDJSON file, terminal), and the
read side (`gg runs`, `gg show`). Only this package emits.

The package exports the standard-library parts; the two rich views are imported from their
modules (`gg.telemetry.display.LiveDisplay`, `gg.telemetry.show.render_transcript` /
`render_runs`) so that importing an event does not load the terminal stack.

| module        | owns                                                                    |
|---------------|-------------------------------------------------------------------------|
| `events`      | one dataclass per event type; wire names declared once                  |
| `clock`       | the clock, wire timestamps, run ids                                     |
| `emitter`     | `Telemetry` (stamp + fan out), `Sink`, `CollectingSink`, sink failures  |
| `layout`      | where files live under `<base>/.gg/`                                    |
| `ndjson`      | `NdjsonSink`, `read_events`                                             |
| `schema`      | the run store's migrations                                              |
| `store`       | `RunStore` (sink + queries), `RunRow`, `shown_status`                   |
| `records`     | wire records read back into values                                      |
| `transcript`  | `fold_transcript`: events -> `Transcript` (pure)                        |
| `terminal`    | glyphs, durations, the one program line                                 |
| `show`        | `render_transcript`, `render_runs`                                      |
| `display`     | `LiveDisplay`, the live terminal sink                                   |
"""

from gg.telemetry.clock import Clock, format_timestamp, new_run_id, parse_timestamp, utc_now
from gg.telemetry.emitter import CollectingSink, Sink, SinkFailure, Telemetry
from gg.telemetry.layout import events_path, run_dir, store_path
from gg.telemetry.ndjson import NdjsonSink, encode_event, read_events
from gg.telemetry.store import RunLookupError, RunRow, RunStore, RunStoreError, shown_status
from gg.telemetry.transcript import Transcript, Turn, fold_transcript

__all__ = [
    "Clock",
    "CollectingSink",
    "NdjsonSink",
    "RunLookupError",
    "RunRow",
    "RunStore",
    "RunStoreError",
    "Sink",
    "SinkFailure",
    "Telemetry",
    "Transcript",
    "Turn",
    "encode_event",
    "events_path",
    "fold_transcript",
    "format_timestamp",
    "new_run_id",
    "parse_timestamp",
    "read_events",
    "run_dir",
    "shown_status",
    "store_path",
    "utc_now",
]
