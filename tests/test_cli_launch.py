"""How a launch is refused and how a run is interrupted, as `gg run` meets them.

One rule records refused launches: a launch is recorded once it has a run id, never before. It
gets one after its capability set was read, the files the command line names were found and the
store was found outside the workspace; what refuses it before (each test below) records nothing,
and what refuses it after (an events file that cannot be made among them) is a run whose status
is `refused`.

Ctrl-C keeps the run as it stood and says so: the run id and how to read it, with one turn count
in `gg runs` and in `gg show`. The run is recorded `interrupted` with exit code 130, and the turn
it cut short shows the program it was running, marked interrupted. SIGTERM does the same, with
exit code 143 and a message naming SIGTERM.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gg.cli import main
from providers.chat_server import Answer, ChatServer, Received, program_completion

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "spec-audit"
GG = Path(sys.executable).parent / "gg"
NO_ENDPOINT_VARIABLES = {"OPENAI_BASE_URL": None, "ANTHROPIC_BASE_URL": None}


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the spec-audit example, with the working directory set beside it."""
    copy = tmp_path / "spec-audit"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    monkeypatch.chdir(tmp_path)
    return copy


def _rewrite(example: Path, change: dict[str, Any]) -> None:
    """Lay `change` over the root profile of the example's capability set."""
    document = json.loads((example / "gg.json").read_text())
    document["agents"][0].update(change)
    (example / "gg.json").write_text(json.dumps(document))


def _recorded() -> list[dict[str, Any]]:
    """Every run the store in the working directory holds, newest first."""
    listing = CliRunner().invoke(main, ["runs", "--json"])
    assert listing.exit_code == 0, listing.output
    return json.loads(listing.output)["runs"]


def _refused(*arguments: str, env: dict[str, str | None] | None = None) -> str:
    result = CliRunner().invoke(main, ["run", *arguments], env=env)
    assert result.exit_code == 2, result.output
    return result.output


def test_a_defect_of_the_capability_set_is_refused_before_a_run_id_and_records_nothing(
    example: Path,
) -> None:
    document = json.loads((example / "gg.json").read_text())
    document["limits"]["maxTurns"] = -1
    (example / "gg.json").write_text(json.dumps(document))
    assert "maxTurns" in _refused(str(example))
    assert not (example.parent / ".gg").exists() and _recorded() == []


def test_a_journal_flag_naming_no_file_is_refused_before_a_run_id_and_records_nothing(
    example: Path,
) -> None:
    assert "missing.jsonl" in _refused(str(example), "--journal", str(example / "missing.jsonl"))
    assert _recorded() == []


def test_a_replayed_journal_that_does_not_exist_is_refused_before_a_run_id(example: Path) -> None:
    assert "missing.jsonl" in CliRunner().invoke(main, ["replay", "missing.jsonl", str(example)]).output
    assert _recorded() == []


def test_a_config_journal_naming_no_file_is_refused_before_a_run_id_and_records_nothing(
    example: Path,
) -> None:
    _rewrite(example, {"model": {"provider": "replay", "journal": "missing.jsonl"}})
    assert "missing.jsonl" in _refused(str(example))
    assert _recorded() == []


def test_a_workspace_holding_the_store_is_refused_before_a_run_id_and_records_nothing(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = example / "workspace"
    monkeypatch.chdir(workspace)
    assert "holds gg's run store" in _refused(str(example))
    assert not (workspace / ".gg").exists()


def test_a_store_that_cannot_be_used_refuses_the_launch_and_leaves_no_recording(
    example: Path,
) -> None:
    (example.parent / ".gg").write_text("a file where the store's folder belongs")
    output = _refused(str(example), "--record", str(example.parent / "new.jsonl"))
    assert "cannot be used" in output
    assert not (example.parent / "new.jsonl").exists()


def test_an_events_file_that_cannot_be_made_refuses_the_run_and_is_recorded_as_refused(example: Path) -> None:
    (example.parent / ".gg").mkdir()
    (example.parent / ".gg" / "runs").write_text("a file where the runs' folders belong")
    output = _refused(str(example))
    assert "gg: the run's record is lost: " in output and "events.ndjson could not be written (" in output
    (run,) = _recorded()
    assert (run["status"], run["exitCode"], run["turns"]) == ("refused", 2, 0)
    assert run["message"].startswith("the run's record is lost: ")


def test_a_missing_key_refuses_a_run_that_has_its_id_and_is_recorded_as_refused(example: Path) -> None:
    _rewrite(example, {"model": {"provider": "openai", "model": "gpt-5"}})
    output = _refused(str(example), env={**NO_ENDPOINT_VARIABLES, "OPENAI_API_KEY": None})
    assert "OPENAI_API_KEY" in output
    (run,) = _recorded()
    assert (run["status"], run["exitCode"], run["turns"]) == ("refused", 2, 0)
    assert "OPENAI_API_KEY" in run["message"]
    shown = CliRunner().invoke(main, ["show", run["id"]])
    assert shown.exit_code == 0 and "refused" in shown.output


@pytest.mark.parametrize("via", ["flag", "config"])
def test_a_journal_with_a_bad_line_is_met_by_the_run_and_recorded_whichever_names_it(
    example: Path, via: str
) -> None:
    broken = example / "broken.jsonl"
    broken.write_text('{"text": "fine"}\nnot json\n')
    if via == "config":
        _rewrite(example, {"model": {"provider": "replay", "journal": "broken.jsonl"}})
        output = _refused(str(example))
    else:
        output = _refused(str(example), "--journal", str(broken))
    assert "line 2" in output
    (run,) = _recorded()
    assert run["status"] == "refused" and "line 2" in run["message"]


def _append_line(example: Path, line: dict[str, Any]) -> int:
    """Add `line` to the end of the example's journal; its line number."""
    journal = example / "journal.jsonl"
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join([*lines, json.dumps(line)]) + "\n")
    return len(lines) + 1


@pytest.mark.parametrize(("key", "name"), [("profile", "reviewer"), ("agent", "worker-1")])
def test_a_journal_line_naming_a_name_the_run_cannot_know_refuses_the_launch_and_gg_check_says_so(
    example: Path, key: str, name: str
) -> None:
    number = _append_line(example, {key: name, "text": "whose?"})
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 2
    assert f"line {number}: `{key}`" in checked.output and f'(found "{name}")' in checked.output
    assert "the profiles are `root`" in checked.output
    output = _refused(str(example))
    assert f"line {number}: `{key}`" in output and "the profiles are `root`" in output
    (run,) = _recorded()
    assert run["status"] == "refused" and f'(found "{name}")' in run["message"]


def test_a_journal_line_with_an_empty_agent_shows_the_value_found_in_quotes(example: Path) -> None:
    number = _append_line(example, {"agent": "", "text": "whose?"})
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 2
    assert f'  - line {number}: `agent` must name an agent\'s id (found "")\n' in checked.output


def test_a_journal_line_naming_an_agent_the_run_never_opened_is_warned_of_at_its_end(example: Path) -> None:
    number = _append_line(example, {"agent": "root.3", "text": "for a child never spawned"})
    assert CliRunner().invoke(main, ["check", str(example)]).exit_code == 0
    result = CliRunner().invoke(main, ["run", str(example)])
    assert result.exit_code == 0, result.output
    (run,) = _recorded()
    shown = json.loads(CliRunner().invoke(main, ["show", run["id"], "--json"]).output)
    warned = [log for log in shown["logs"] if log["level"] == "warn"]
    assert [log["message"] for log in warned] == [
        f"journal.jsonl line {number} names agent root.3, which this run never opened"
    ]
    assert warned[0]["fields"]["line"] == number


# -- Ctrl-C --------------------------------------------------------------------------------------


class HeldAnswer:
    """A scripted answer that holds the request open until the test lets it go."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.release = threading.Event()

    def __call__(self, received: Received) -> Answer:
        self.asked.set()
        self.release.wait(timeout=60)
        return program_completion('import { session } from "gg";\nsession.finish("late");\n')


@pytest.fixture
def held_server() -> Iterator[tuple[ChatServer, HeldAnswer]]:
    server, held = ChatServer(), HeldAnswer()
    server.start()
    yield server, held
    held.release.set()
    server.stop()


@pytest.mark.parametrize("group", [False, True], ids=["the-process", "its-process-group"])
def test_ctrl_c_keeps_the_run_says_how_to_read_it_and_both_views_count_the_same_turns(
    example: Path, held_server: tuple[ChatServer, HeldAnswer], group: bool
) -> None:
    """SIGINT to gg alone, and to its whole process group as a terminal's Ctrl-C sends it (the
    guests it started receive it too), while the model is being asked for turn 2."""
    server, held = held_server
    _rewrite(example, {"model": {"provider": "openai", "model": "local", "baseUrl": server.base_url}})
    server.script(program_completion('import { files } from "gg";\nfiles.listDir("specs");\n'), held)
    gg = subprocess.Popen(
        [str(GG), "run", str(example)],
        cwd=example.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert held.asked.wait(timeout=60), "gg never asked for turn 2"
        if group:
            os.killpg(gg.pid, signal.SIGINT)
        else:
            gg.send_signal(signal.SIGINT)
        _, stderr = gg.communicate(timeout=60)
    finally:
        if gg.poll() is None:
            gg.kill()
    assert gg.returncode == 130, stderr
    assert "Aborted!" not in stderr and "Traceback" not in stderr
    (run,) = _recorded()
    assert f"Run {run['id']} is kept in" in stderr and "2 turns" in stderr
    assert f"Read it with: gg show {run['id']}" in stderr
    assert (run["status"], run["exitCode"], run["turns"]) == ("interrupted", 130, 2)
    shown = json.loads(CliRunner().invoke(main, ["show", run["id"], "--json"]).output)
    assert shown["run"]["turns"] == 2 and len(shown["turns"]) == 2
    assert "2 turns" in CliRunner().invoke(main, ["show", run["id"]]).output


SPIN = 'import { files } from "gg";\nfiles.writeFile("spinning", "yes");\nwhile (true) {}\n'


def _journal(example: Path, *programs: str) -> None:
    """Replay `programs`, one reply each, from a journal the root's model reads."""
    replies = [{"calls": [{"name": "submit_program", "arguments": {"program": p}}]} for p in programs]
    (example / "spin.jsonl").write_text("".join(json.dumps(reply) + "\n" for reply in replies))
    _rewrite(example, {"model": {"provider": "replay", "journal": "spin.jsonl"}})


def _signalled_mid_program(example: Path, signum: int, *, group: bool) -> tuple[int, str]:
    """A real `gg run` sent `signum` (alone, or its whole process group) while its second
    program spins: its exit code and what it wrote to stderr."""
    _journal(example, 'import { files } from "gg";\nfiles.listDir("specs");\n', SPIN)
    gg = subprocess.Popen(
        [str(GG), "run", str(example)],
        cwd=example.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        mark = example / "workspace" / "spinning"
        deadline = time.monotonic() + 60
        while not mark.exists() and gg.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists(), "the spinning program never ran"
        if group:
            os.killpg(gg.pid, signum)
        else:
            gg.send_signal(signum)
        _, stderr = gg.communicate(timeout=60)
    finally:
        if gg.poll() is None:
            gg.kill()
    return gg.returncode, stderr


@pytest.mark.parametrize("group", [False, True], ids=["the-process", "its-process-group"])
def test_ctrl_c_while_a_program_runs_records_exit_130_and_shows_that_program_as_interrupted(
    example: Path, group: bool
) -> None:
    returncode, stderr = _signalled_mid_program(example, signal.SIGINT, group=group)
    assert returncode == 130, stderr
    (run,) = _recorded()
    assert (run["status"], run["exitCode"], run["turns"]) == ("interrupted", 130, 2)
    text = CliRunner().invoke(main, ["show", run["id"]]).output
    second = text[text.index("turn 2 ") :]
    assert "while (true) {}" in second and ": interrupted — the run stopped before it reported" in second
    assert "→ interrupted (the operator interrupted the run)" in second and "→ ok" not in second
    assert "interrupted · exit 130 · 2 turns" in text and "interrupted by the operator" in text
    assert "· 2 programs (0 failed, 1 interrupted)" in " ".join(text.split())  # the cut one counts


@pytest.mark.parametrize("group", [False, True], ids=["the-process", "its-process-group"])
def test_sigterm_while_a_program_runs_keeps_the_run_interrupted_naming_sigterm_with_exit_143(
    example: Path, group: bool
) -> None:
    """SIGTERM, as `timeout`, systemd or `docker stop` send it, to gg alone and to its group."""
    returncode, stderr = _signalled_mid_program(example, signal.SIGTERM, group=group)
    assert returncode == 143, stderr
    assert "Traceback" not in stderr
    (run,) = _recorded()
    assert f"gg: interrupted by SIGTERM. Run {run['id']} is kept in" in stderr and "2 turns" in stderr
    assert (run["status"], run["exitCode"], run["turns"]) == ("interrupted", 143, 2)
    text = CliRunner().invoke(main, ["show", run["id"]]).output
    second = text[text.index("turn 2 ") :]
    assert "while (true) {}" in second and ": interrupted — the run stopped before it reported" in second
    assert "interrupted · exit 143 · 2 turns" in text and "interrupted by SIGTERM" in text
    assert "· 2 programs (0 failed, 1 interrupted)" in " ".join(text.split())
    assert "Ctrl-C" not in text
