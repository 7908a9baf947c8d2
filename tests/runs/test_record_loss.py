"""A record sink that cannot write, met by the real loop: the run stops at its next step (no
model is asked again, no program runs), ends `internal_error` naming the loss, and a run's end
the record could not keep is written again as gg's defect, never shown as it was."""

from __future__ import annotations

from pathlib import Path

from session import Profile, program, run_session

from gg.telemetry.emitter import CollectingSink
from gg.telemetry.events import Event, EventType

FINISH = 'import { session } from "gg";\nsession.finish("done");\n'
LIST = 'import { files } from "gg";\nfiles.listDir();\n'


class FullDisk:
    """A record sink on a disk that fills when `on` is written (the `nth` time)."""

    def __init__(self, path: Path, on: EventType, nth: int = 1) -> None:
        self.path, self.on, self.left = path, on, nth

    def write(self, event: Event) -> None:
        if event.type is self.on:
            self.left -= 1
            if self.left == 0:
                raise OSError(28, "No space left on device")

    def close(self) -> None:
        pass


def test_a_record_lost_at_a_reply_asks_no_model_again_and_ends_internal_error(tmp_path: Path) -> None:
    disk = FullDisk(tmp_path / "runs.db", EventType.MODEL_REPLY, nth=2)
    session = run_session(
        tmp_path, [program(LIST), program(LIST), program(LIST), program(FINISH)], record=[disk]
    )
    assert len(session.requests) == 2
    loss = f"the run's record is lost: {disk.path} could not be written (No space left on device)"
    assert (session.result.status.value, session.result.message) == ("internal_error", loss)
    assert session.outcome(2)["outcome"] == "fatal"
    assert session.executions(2) == []  # the reply's program never ran
    assert session.finished["status"] == "internal_error" and session.finished["message"] == loss


def test_a_run_end_the_record_cannot_keep_is_written_again_as_gg_s_defect(tmp_path: Path) -> None:
    disk, watcher = FullDisk(tmp_path / "runs.db", EventType.RUN_FINISHED), CollectingSink()
    session = run_session(tmp_path, [program(FINISH)], record=[disk], watchers=[watcher])
    ends = [e for e in session.events if e["type"] == "run_finished"]
    assert [e["status"] for e in ends] == ["completed", "internal_error"]
    assert [e.payload.to_wire()["status"] for e in watcher.of_type(EventType.RUN_FINISHED)] == [
        "internal_error"
    ]
    assert session.result.status.value == "internal_error" and session.result.exit_code == 1


def test_a_record_lost_at_the_first_event_refuses_the_run(tmp_path: Path) -> None:
    disk = FullDisk(tmp_path / "runs.db", EventType.RUN_STARTED)
    session = run_session(tmp_path, [program(FINISH)], record=[disk])
    assert session.requests == []
    assert (session.result.status.value, session.result.exit_code) == ("refused", 2)
    assert session.finished["message"].startswith("the run's record is lost: ")


def test_a_record_lost_mid_program_serves_none_of_its_later_calls(tmp_path: Path) -> None:
    writes = (
        'import { files, session } from "gg";\nawait files.listDir();\n'
        'await files.writeFile("x.txt", "x");\nawait files.writeFile("y.txt", "y");\n'
        'session.finish("done");\n'
    )
    disk = FullDisk(tmp_path / "runs.db", EventType.API_CALL, nth=2)
    session = run_session(tmp_path, [program(writes)], record=[disk])
    assert not (session.workspace / "x.txt").exists() and not (session.workspace / "y.txt").exists()
    loss = f"the run's record is lost: {disk.path} could not be written (No space left on device)"
    assert (session.result.status.value, session.result.message) == ("internal_error", loss)
    assert len(session.of_type("api_call")) == 2  # the call that met the loss, refused: no later one
    assert session.outcome(1)["outcome"] == "fatal"


def test_a_record_lost_while_a_program_computes_stops_it_at_once_unjudged(tmp_path: Path) -> None:
    """The loss is met on the program's first live line; the program would compute 5 s more, then
    log again: stopped at once, it never does, and it is never recorded as having run."""
    busy = (
        'console.log("a");\nconst t0 = Date.now();\nwhile (Date.now() - t0 < 5000) {}\n'
        'console.log("after");\n'
    )
    disk = FullDisk(tmp_path / "runs.db", EventType.PROGRAM_LOG)
    session = run_session(tmp_path, [program(busy)], Profile(timeout_secs=60), record=[disk])
    assert [e["lines"] for e in session.of_type("program_log")] == [["a"]]
    assert session.executions(1) == [] and session.outcome(1)["outcome"] == "fatal"
    assert session.result.status.value == "internal_error"
