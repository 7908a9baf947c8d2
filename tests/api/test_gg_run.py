"""`gg.run` from Python: the same run the command line makes, every event handed to `on_event` as it
happens, a model scripted in Python, and the launch refusals raised before a run exists."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import gg
from gg.cli import main
from gg.telemetry.ndjson import read_events

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"
KEY_FIELDS = (
    "operation",
    "ok",
    "outcome",
    "errorType",
    "finished",
    "tool",
    "status",
    "exitCode",
    "finalText",
)


def _copy(tmp_path: Path, name: str) -> Path:
    copy = tmp_path / name
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    return copy


def _key(record: dict[str, Any]) -> tuple[Any, ...]:
    """What two runs of one session share: who, when, what, and each outcome; never ids or times."""
    return (record["type"], record["agentId"], record["turn"], *(record.get(k) for k in KEY_FIELDS))


class Scripted:
    model_id = "scripted:api"

    def __init__(self, *programs: str, cost: float | None = None) -> None:
        self.programs = list(programs)
        self.cost = cost
        self.seen: list[gg.Request] = []

    def complete(self, request: gg.Request) -> gg.Reply:
        self.seen.append(request)
        source = self.programs[len(self.seen) - 1]
        call = gg.ToolCall(f"c{len(self.seen)}", "submit_program", {"program": source})
        return gg.Reply("", (call,), gg.Usage(100, 20), self.model_id, cost_usd=self.cost)


def test_gg_run_on_the_example_makes_the_same_events_as_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_cli, by_api = tmp_path / "cli", tmp_path / "api"
    by_cli.mkdir(), by_api.mkdir()
    monkeypatch.chdir(by_cli)
    assert CliRunner().invoke(main, ["run", str(_copy(by_cli, "spec-audit"))]).exit_code == 0
    (cli_events,) = [read_events(path) for path in (by_cli / ".gg" / "runs").glob("*/events.ndjson")]
    seen: list[gg.Event] = []
    result = gg.run(_copy(by_api, "spec-audit"), store=by_api, on_event=seen.append)
    api_events = read_events(next((by_api / ".gg" / "runs").glob("*/events.ndjson")))
    assert [_key(e) for e in api_events] == [_key(e) for e in cli_events]
    assert [e.to_wire() for e in seen] == api_events  # on_event saw exactly what the file holds
    assert (result.status, result.exit_code, result.turns) == ("completed", 0, 5)
    assert result.final_text == cli_events[-1]["finalText"] and "3 of 8 specs" in (result.final_text or "")
    (root,) = result.agents
    assert (root.agent_id, root.turns, root.programs, root.error_turns) == ("root", 5, 5, 1)
    assert result.run_id == api_events[0]["runId"]


def test_on_event_receives_each_event_before_the_next_one_is_made(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    order: list[str] = []
    model = Scripted('import { session } from "gg";\nsession.finish("done");\n')

    def watch(event: gg.Event) -> None:
        order.append(f"{event.type.value}:{len(model.seen)}")

    gg.run(_document(tmp_path), model=model, store=tmp_path, on_event=watch)
    assert order[:4] == ["run_started:0", "agent_spawned:0", "agent_modules:0", "model_request:0"]
    assert "model_reply:1" in order and order[-1] == "run_finished:1"


def test_a_model_scripted_in_python_answers_the_root_and_reads_what_its_programs_showed(
    tmp_path: Path,
) -> None:
    (tmp_path / "ws").mkdir()
    model = Scripted(
        'import { views } from "gg";\nviews.openText("sum", String(40 + 2));\n',
        'import { session } from "gg";\nsession.finish("the sum is shown");\n',
        cost=0.25,
    )
    result = gg.run(_document(tmp_path), model=model, store=tmp_path)
    assert (result.status, result.final_text, result.turns) == ("completed", "the sum is shown", 2)
    assert "42" in model.seen[1].messages[-1].content or any(
        "42" in m.content for m in model.seen[1].messages
    )
    assert (
        result.cost_usd == 0.5 and result.agents[0].input_tokens == 200 and result.agents[0].cost_usd == 0.5
    )
    assert model.seen[0].tool.name == "submit_program" and "JavaScript" in model.seen[0].system


def test_a_model_object_names_the_run_s_model_by_its_own_model_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The profile says `replay`; the object answering in its place is the run's model, in
    `run_started` and so in `gg runs`."""
    (tmp_path / "ws").mkdir()
    model = Scripted('import { session } from "gg";\nsession.finish("named");\n')
    result = gg.run(_document(tmp_path), model=model, store=tmp_path)
    events = read_events(tmp_path / ".gg" / "runs" / result.run_id / "events.ndjson")
    assert events[0]["type"] == "run_started" and events[0]["model"] == "scripted:api"
    monkeypatch.chdir(tmp_path)
    runs = CliRunner().invoke(main, ["runs", "--json"])
    assert runs.exit_code == 0, runs.output
    (row,) = json.loads(runs.output)["runs"]
    assert row["model"] == "scripted:api"


def test_a_model_object_that_raises_ends_the_run_as_a_defect_never_as_a_refusal(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    model = Scripted(
        'import { views } from "gg";\nviews.openText("a", "b");\n'
    )  # one program; then IndexError
    result = gg.run(_document(tmp_path), model=model, store=tmp_path)
    assert (result.status, result.exit_code) == ("internal_error", 1)
    assert result.message == "gg failed: list index out of range"


def test_a_capability_set_with_defects_is_refused_before_any_run_naming_every_defect(tmp_path: Path) -> None:
    document = _document(tmp_path)
    document["limits"] = {"maxTurns": 0}
    document["agents"][0]["capabilities"][0]["params"] = {"language": "cobol"}
    with pytest.raises(gg.ConfigError) as refused:
        gg.run(document, store=tmp_path)
    assert sorted(d.path for d in refused.value.defects) == [
        "agents[0].capabilities[0].params.language",
        "limits.maxTurns",
        "workspace",
    ]
    assert not (tmp_path / ".gg").exists()


def test_the_launch_refusals_are_raised_each_naming_what_to_change(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    document = _document(tmp_path)
    with pytest.raises(gg.ConfigError) as both:
        gg.run(document, model=Scripted(), journal=tmp_path / "j.jsonl", store=tmp_path)
    assert [d.path for d in both.value.defects] == ["journal"]
    with pytest.raises(gg.ConfigError, match="must name an existing file"):
        gg.run(document, journal=tmp_path / "nowhere.jsonl", store=tmp_path)
    with pytest.raises(gg.ConfigError) as inside:
        gg.run(document, model=Scripted(), store=tmp_path / "ws")
    assert [d.path for d in inside.value.defects] == ["store"] and "run store" in str(inside.value)
    (tmp_path / "taken.jsonl").write_text("")
    with pytest.raises(gg.ConfigError) as taken:
        gg.run(document, model=Scripted(), record=tmp_path / "taken.jsonl", store=tmp_path)
    assert [d.path for d in taken.value.defects] == ["record"] and "already exists" in str(taken.value)
    with pytest.raises(gg.ConfigError) as unnamed:
        gg.run(document, model="openai", store=tmp_path)
    assert [d.path for d in unnamed.value.defects] == ["model"]


class NoCompletion:
    model_id = "scripted:none"


def test_a_model_that_is_no_model_client_is_refused_naming_what_the_protocol_needs(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    document = _document(tmp_path)
    with pytest.raises(gg.ConfigError) as bare:
        gg.run(document, model=object(), store=tmp_path)  # type: ignore[arg-type]
    (defect,) = bare.value.defects
    assert defect.path == "model" and defect.found.startswith("<object object at")
    assert defect.reason == (
        'must be "PROVIDER:MODEL" or a gg.ModelClient, which needs a `model_id` string'
        " and a `complete(request) -> gg.Reply` method"
    )
    with pytest.raises(gg.ConfigError) as half:
        gg.run(document, model=NoCompletion(), store=tmp_path)  # type: ignore[arg-type]
    assert half.value.defects[0].reason.endswith("which needs a `complete(request) -> gg.Reply` method")
    assert not (tmp_path / ".gg").exists()  # refused before any run, as every launch refusal is


def test_a_store_inside_the_workspace_is_refused_in_the_words_gg_run_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    document = _document(tmp_path)
    with pytest.raises(gg.ConfigError) as inside:
        gg.run(document, model=Scripted(), store=workspace)
    said = (
        f"the workspace {workspace} holds gg's run store ({workspace / '.gg'}); "
        "a program could read or overwrite every run"
    )
    assert inside.value.defects[0].reason == f"{said}; give a store outside the workspace"
    (tmp_path / "gg.json").write_text(json.dumps(document))
    monkeypatch.chdir(workspace)  # `gg run` keeps its store in the working directory
    refused = CliRunner().invoke(main, ["run", str(tmp_path / "gg.json")])
    assert refused.exit_code == 2, refused.output
    assert f"gg: {said}. Run gg from a folder outside the workspace." in refused.output


def test_a_recording_that_cannot_be_made_leaves_no_store_behind(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "taken.jsonl").write_text("kept as it was\n")
    with pytest.raises(gg.ConfigError) as taken:
        gg.run(_document(tmp_path), model=Scripted(), record=tmp_path / "taken.jsonl", store=tmp_path)
    assert [d.path for d in taken.value.defects] == ["record"]
    assert not (tmp_path / ".gg").exists()
    assert (tmp_path / "taken.jsonl").read_text() == "kept as it was\n"


def test_a_store_that_cannot_be_used_leaves_no_recording_behind(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / ".gg").write_text("a file where the store's folder belongs")
    with pytest.raises(gg.ConfigError) as unusable:
        gg.run(_document(tmp_path), model=Scripted(), record=tmp_path / "new.jsonl", store=tmp_path)
    assert [d.path for d in unusable.value.defects] == ["store"]
    assert not (tmp_path / "new.jsonl").exists()


def test_a_model_named_as_provider_and_model_is_refused_without_its_key_as_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ws").mkdir()
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = gg.run(_document(tmp_path), model="openai:gpt-test", store=tmp_path)
    assert (result.status, result.exit_code) == ("refused", 2) and "OPENAI_API_KEY" in (result.message or "")


def test_a_run_from_python_can_be_recorded_and_replayed_from_python(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    model = Scripted('import { session } from "gg";\nsession.finish("recorded");\n')
    gg.run(_document(tmp_path), model=model, record=tmp_path / "session.jsonl", store=tmp_path)
    replayed = gg.run(_document(tmp_path), journal=tmp_path / "session.jsonl", store=tmp_path)
    assert (replayed.status, replayed.final_text) == ("completed", "recorded")
    lines = [json.loads(line) for line in (tmp_path / "session.jsonl").read_text().splitlines()[1:]]
    assert lines[0]["calls"][0]["arguments"]["program"].endswith('session.finish("recorded");\n')


def _document(tmp_path: Path) -> dict[str, Any]:
    (tmp_path / "unused.jsonl").write_text("{}\n")
    return {
        "name": "api",
        "workspace": str(tmp_path / "ws"),
        "limits": {"maxTurns": 3},
        "agents": [
            {
                "slug": "root",
                "model": {"provider": "replay", "journal": str(tmp_path / "unused.jsonl")},
                "capabilities": [{"id": "responses-as-code", "params": {"language": "javascript"}}],
            }
        ],
    }
