import json
from pathlib import Path

from gg.telemetry.emitter import CollectingSink
from gg.telemetry.events import Event
from gg.telemetry.ndjson import NdjsonSink, read_events

from .sample import RUN_ID, emit_sample_run


def test_events_round_trip_through_the_ndjson_file(tmp_path: Path) -> None:
    file, kept = NdjsonSink(tmp_path, RUN_ID), CollectingSink()
    emit_sample_run([file, kept]).close()
    assert read_events(file.path) == kept.wire()


def test_the_file_lives_at_gg_runs_run_id_events_ndjson_with_one_object_a_line(tmp_path: Path) -> None:
    file = NdjsonSink(tmp_path, RUN_ID)
    emit_sample_run([file]).close()
    assert file.path == tmp_path / ".gg" / "runs" / RUN_ID / "events.ndjson"
    lines = file.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 20
    assert all(isinstance(json.loads(line), dict) for line in lines)


def test_each_event_is_in_the_file_before_the_next_is_emitted(tmp_path: Path) -> None:
    file = NdjsonSink(tmp_path, RUN_ID)
    seen: list[int] = []

    class Reader(CollectingSink):
        def write(self, event: Event) -> None:
            seen.append(len(read_events(file.path)))

    emit_sample_run([file, Reader()])
    assert seen == list(range(1, len(seen) + 1))


def test_a_torn_last_line_is_left_out_when_reading(tmp_path: Path) -> None:
    path = tmp_path / "events.ndjson"
    path.write_text('{"type":"log","turn":1}\n{"type":"turn_outc', encoding="utf-8")
    assert read_events(path) == [{"type": "log", "turn": 1}]
