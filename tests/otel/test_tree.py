"""The span tree folded from a run's records (issue 24): the same records make the same spans,
ids included; the GenAI conventions' baseline names unless the latest are opted into; a request
no reply answered, a failed program and a failed SDK call end in error; module writes and ceilings
are span events."""

from __future__ import annotations

import json
from typing import Any

from gg.otel.names import Conventions
from gg.otel.otlp_json import otlp_document
from gg.otel.settings import OtelSettings
from gg.otel.tree import fold_spans

RUN = "run-20261201-120000-abcd"


def _at(second: float) -> str:
    whole, part = divmod(round(second * 1000), 1000)
    return f"2026-12-01T12:00:{whole:02d}.{part:03d}Z"


def _records() -> list[dict[str, Any]]:
    def event(kind: str, second: float, turn: int = 1, **fields: Any) -> dict[str, Any]:
        return {
            "type": kind,
            "timestamp": _at(second),
            "runId": RUN,
            "agentId": "root",
            "turn": turn,
            **fields,
        }

    usage = {"inputTokens": 120, "outputTokens": 7, "cacheReadTokens": 100, "cacheWriteTokens": 20}
    call = {"id": "c1", "name": "submit_program", "arguments": {"program": "files.readTextFile('x')"}}
    return [
        event("run_started", 0, 0, name="audit", model="anthropic:claude-x", language="python", limits={}),
        event("agent_spawned", 0.1, 0, profileId="auditor", modelId="anthropic:claude-x", depth=0),
        event("model_request", 1, messages=[{"role": "system", "content": "sys"}], requestIndex=1),
        event("model_reply", 2, text="reading", calls=[call], usage=usage, durationMs=1000.0, costUsd=0.25),
        event("receipt", 2.1, callId="c1", tool="submit_program", body="ab12", programId="ab12"),
        event("api_call", 2.5, operation="files.read_text_file", ordinal=0),
        event("api_result", 2.7, operation="files.read_text_file", ordinal=0, ok=False, failure="not-found"),
        event("code_execution", 3, submission=1, ok=False, toolCalls=1, apiCalls=1, durationMs=800.0, logs=[],
              errorType="runtime", error="Runtime error", programId="ab12", source="files.readTextFile('x')"),
        event("memory_revision", 3.1, name="plan", revision=1, change="written", description="d", body="b",
              len=1, lines=1),
        event("limit_exceeded", 3.2, limit="maxTurns", threshold=1, observed=1, turns=1),
        event("turn_outcome", 3.3, outcome="error", consecutiveErrors=1, turns=1),
        event("model_request", 4, turn=2, messages=[], requestIndex=2),
        event("turn_outcome", 5, turn=2, outcome="error", errorType="model_api", consecutiveErrors=2,
              turns=2),
        event("agent_finished", 5.1, turn=2, status="model_error"),
        event("run_finished", 5.2, turn=2, status="model_error", exitCode=1, turns=2, durationMs=5200.0),
    ]  # fmt: skip


def _named(spans: list[Any]) -> dict[str, Any]:
    return {span.name + ("" if span.name != "chat claude-x" else f" {span.attributes['gg.turn']}"): span
            for span in spans}  # fmt: skip


def test_the_same_records_make_the_same_spans_ids_included() -> None:
    first, again = fold_spans(RUN, _records()), fold_spans(RUN, _records())
    assert first == again
    assert len({span.span_id for span in first}) == len(first) == 6
    assert {len(span.trace_id) for span in first} == {32} and {len(span.span_id) for span in first} == {16}


def test_the_baseline_names_the_provider_gen_ai_system_and_the_latest_gen_ai_provider_name() -> None:
    baseline = _named(fold_spans(RUN, _records()))["chat claude-x 1"].attributes
    latest = _named(
        fold_spans(RUN, _records(), conventions=Conventions.from_environment(
            {"OTEL_SEMCONV_STABILITY_OPT_IN": "http,gen_ai_latest_experimental"}
        ))
    )["chat claude-x 1"].attributes  # fmt: skip
    assert baseline["gen_ai.system"] == "anthropic" and "gen_ai.provider.name" not in baseline
    assert latest["gen_ai.provider.name"] == "anthropic" and "gen_ai.system" not in latest
    assert baseline["gen_ai.request.model"] == "claude-x"
    assert (
        baseline["gen_ai.usage.input_tokens"] == 120
        and baseline["gen_ai.usage.cache_read.input_tokens"] == 100
    )
    assert baseline["gen_ai.usage.cache_creation.input_tokens"] == 20 and baseline["gg.cost_usd"] == 0.25
    assert baseline["gen_ai.response.finish_reasons"] == ("tool_call",)


def test_the_reply_names_the_response_model_and_the_agent_its_arm() -> None:
    records = _records()
    records[1] = {**records[1], "language": "typescript"}
    records[3] = {**records[3], "responseModel": "claude-x-2026-01-01"}
    spans = _named(fold_spans(RUN, records))
    assert spans["chat claude-x 1"].attributes["gen_ai.response.model"] == "claude-x-2026-01-01"
    assert spans["execute_tool submit_program"].attributes["gg.arm"] == "typescript"
    assert spans["invoke_agent auditor"].attributes["gg.arm"] == "typescript"


def test_failures_end_their_spans_in_error() -> None:
    spans = _named(fold_spans(RUN, _records()))
    program = spans["execute_tool submit_program"]
    assert program.status.name == "ERROR" and program.attributes["error.type"] == "runtime"
    assert program.attributes["gg.program.receipt"] == "ab12" and program.attributes["gg.arm"] == "python"
    assert (
        program.attributes["gen_ai.tool.call.id"] == "c1"
        and program.attributes["gg.program.outcome"] == "error"
    )
    call = spans["execute_tool files.read_text_file"]
    assert call.status.name == "ERROR" and call.attributes["gg.call.code"] == "not-found"
    assert call.parent_id == program.span_id
    unanswered = spans["chat claude-x 2"]
    assert unanswered.status.name == "ERROR" and unanswered.attributes["error.type"] == "model_api"
    agent = spans["invoke_agent auditor"]
    assert agent.status.name == "ERROR" and agent.attributes["gg.agent.status"] == "model_error"
    assert spans["invoke_workflow audit"].attributes["gg.run.exit_code"] == 1


def test_module_writes_and_ceilings_are_events_on_the_agent_span() -> None:
    agent = _named(fold_spans(RUN, _records()))["invoke_agent auditor"]
    marks = [(e.name, e.attributes.get("gg.memory.name") or e.attributes.get("gg.ceiling.limit"))
             for e in agent.events]  # fmt: skip
    assert marks == [("gg.module.write", "plan"), ("gg.ceiling", "maxTurns")]
    assert "gg.memory.body" not in agent.events[0].attributes
    with_content = _named(fold_spans(RUN, _records(), content=True))["invoke_agent auditor"]
    assert with_content.events[0].attributes["gg.memory.body"] == "b"


def test_otlp_json_spells_ids_in_hex_and_whole_numbers_as_text() -> None:
    spans = fold_spans(RUN, _records())
    document = json.loads(json.dumps(otlp_document(spans, {"service.name": "gg"})))
    sent = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    chat = next(s for s in sent if s["name"] == "chat claude-x")
    tokens = next(a["value"] for a in chat["attributes"] if a["key"] == "gen_ai.usage.input_tokens")
    assert tokens == {"intValue": "120"} and chat["kind"] == 3
    assert chat["startTimeUnixNano"] == "1796126401000000000"
    assert all(len(s["spanId"]) == 16 and int(s["spanId"], 16) for s in sent)


def test_settings_follow_the_standard_variables() -> None:
    settings = OtelSettings.from_environment({
        "OTEL_EXPORTER_OTLP_ENDPOINT": "https://cloud.langfuse.com/api/public/otel/",
        "OTEL_SERVICE_NAME": "nightly",
        "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=ci,team=a%20b",
    })  # fmt: skip
    assert settings.endpoint == "https://cloud.langfuse.com/api/public/otel/v1/traces"
    assert settings.resource["service.name"] == "nightly" and settings.resource["team"] == "a b"
    own = OtelSettings.from_environment({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://h:1/t"})
    assert own.endpoint == "http://h:1/t" and own.resource["service.name"] == "gg"
    assert OtelSettings.from_environment({}).endpoint == "http://localhost:4318/v1/traces"


def test_a_machine_move_is_a_link_from_the_successor_to_the_program_that_moved() -> None:
    def event(type_: str, second: float, agent: str, turn: int, **fields: Any) -> dict[str, Any]:
        parent = {"parentAgentId": "root"} if agent != "root" else {}
        return {"type": type_, "timestamp": _at(second), "runId": RUN, "agentId": agent, "turn": turn,
                **parent, **fields}  # fmt: skip

    modules = [{"kind": "history", "disposition": "carried"}, {"kind": "tasks", "disposition": "dropped"}]
    library = {"disposition": "carried", "held": 2, "dropped": 0}
    moved = {"kind": "fsm", "toAgentId": "root@2", "profileId": "builder", "state": "build",
             "modules": modules, "library": library}  # fmt: skip
    entered = {"fsmId": "process", "state": "build", "profileId": "builder", "from": "explore"}
    records = [
        event("run_started", 0, "root", 0, name="flow", model="replay", language="javascript", limits={}),
        event("agent_spawned", 0.1, "root", 0, profileId="explorer", modelId="replay", depth=0),
        event("fsm_state", 0.2, "root", 0, fsmId="process", state="explore", profileId="explorer"),
        event("model_request", 1, "root", 1, messages=[], requestIndex=1),
        event("model_reply", 1.5, "root", 1, text="", calls=[], usage={}, durationMs=500.0),
        event("receipt", 1.6, "root", 1, callId="c1", tool="submit_program", body="ok"),
        event("api_call", 1.7, "root", 1, operation="delegation.transition_state", ordinal=0),
        event("api_result", 1.8, "root", 1, operation="delegation.transition_state", ordinal=0, ok=True),
        event("code_execution", 2, "root", 1, submission=1, ok=True, toolCalls=1, apiCalls=1,
              durationMs=300.0, logs=[]),
        event("turn_outcome", 2.1, "root", 1, outcome="progressed", consecutiveErrors=0, turns=1),
        event("agent_transition", 2.2, "root", 1, **moved),
        event("agent_spawned", 2.3, "root@2", 0, profileId="builder", modelId="replay", depth=0),
        event("fsm_state", 2.3, "root@2", 0, **entered),
        event("agent_finished", 3, "root@2", 1, status="completed"),
        event("run_finished", 3.1, "root", 1, status="completed", exitCode=0, turns=1, durationMs=3100.0),
    ]  # fmt: skip
    spans = fold_spans(RUN, records)
    agents = {s.attributes["gen_ai.agent.id"]: s for s in spans if s.name.startswith("invoke_agent")}
    program = next(s for s in spans if s.name == "execute_tool submit_program")
    successor, first = agents["root@2"], agents["root"]
    assert successor.parent_id == first.parent_id  # both under the run
    assert (
        first.attributes["gg.agent.status"] == "handed over"
        and first.end_ns == successor.start_ns - 100_000_000
    )
    assert (
        successor.attributes["gg.agent.relation"] == "fsm"
        and successor.attributes["gg.agent.state"] == "build"
    )
    (link,) = successor.links
    assert link.span_id == program.span_id
    assert link.attributes == {
        "gg.transition.kind": "fsm", "gg.transition.state": "build", "gg.transfer.history": "carried",
        "gg.transfer.tasks": "dropped", "gg.transfer.library.disposition": "carried",
        "gg.transfer.library.held": 2, "gg.transfer.library.dropped": 0,
    }  # fmt: skip
