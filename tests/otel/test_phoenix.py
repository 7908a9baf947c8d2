"""A real receiver (issue 24, "Tests and done"): the planner example (a planner, two implementers, a
reviewer, a fork and an exec), exported live with `gg run --otel` and afterwards with `gg export
otel`, read back through Phoenix's own client: the tree, the fork's and the exec's links, token
figures equal to `gg show`'s, and no content unless asked."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from otel.conftest import PHOENIX_TESTS_SECS, Phoenix, exported_json, gg, run_id_of, shown

pytestmark = pytest.mark.timeout(PHOENIX_TESTS_SECS)

CONTENT_KEYS = (
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.system_instructions",
    "gen_ai.tool.call.arguments",
    "gen_ai.tool.call.result",
    "gg.agent.brief",
    "gg.agent.summary",
    "gg.memory.body",
    "input.value",
)
PLANNER_SAYS = "I'll read the spec, plan it as tasks and file one issue per module."
AGENTS = {"root", "root.1", "root.2", "root.3", "root.f1", "root@2"}


@pytest.fixture(scope="module")
def live(phoenix: Phoenix, planner: Path) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """A run exported as it ran: its id, its spans in Phoenix, and its spans as `--json` folds them."""
    base = planner.parent
    result = gg(["run", str(planner), "--otel"], base, {"OTEL_EXPORTER_OTLP_ENDPOINT": phoenix.url})
    assert result.returncode == 0, result.stderr
    assert "OpenTelemetry" not in result.stderr
    run_id = run_id_of(result.stdout)
    folded = exported_json(base, run_id, "live.json")
    return run_id, phoenix.spans_of_run(run_id, len(folded)), folded


@pytest.fixture(scope="module")
def afterwards(phoenix: Phoenix, planner: Path) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """A run recorded without export, then sent with `gg export otel`."""
    base = planner.parent
    ran = gg(["run", str(planner)], base)
    assert ran.returncode == 0, ran.stderr
    run_id = run_id_of(ran.stdout)
    sent = gg(["export", "otel", run_id], base, {"OTEL_EXPORTER_OTLP_ENDPOINT": phoenix.url})
    assert sent.returncode == 0, sent.stderr
    assert f"to {phoenix.url}/v1/traces" in sent.stdout
    folded = exported_json(base, run_id, "afterwards.json")
    return run_id, phoenix.spans_of_run(run_id, len(folded)), folded


@pytest.mark.parametrize("which", ["live", "afterwards"])
def test_phoenix_holds_the_run_as_agent_chat_and_program_spans_over_sdk_calls(
    which: str, request: pytest.FixtureRequest
) -> None:
    run_id, spans, folded = request.getfixturevalue(which)
    by_id = {s["context"]["span_id"]: s for s in spans}
    assert {(s["context"]["span_id"], s.get("parent_id")) for s in spans} == {
        (s["spanId"], s.get("parentSpanId")) for s in folded
    }
    (workflow,) = [s for s in spans if not s.get("parent_id")]
    assert workflow["name"] == "invoke_workflow planner"
    assert workflow["attributes"]["gen_ai.conversation.id"] == run_id
    agents = {s["attributes"]["gen_ai.agent.id"]: s for s in spans if s["name"].startswith("invoke_agent ")}
    assert set(agents) == AGENTS
    assert {a: agents[a]["attributes"]["gen_ai.agent.name"] for a in AGENTS} == {
        "root": "planner", "root.1": "implementer", "root.2": "implementer", "root.3": "reviewer",
        "root.f1": "planner", "root@2": "reviewer",
    }  # fmt: skip
    for top in ("root", "root.f1", "root@2"):
        assert agents[top]["parent_id"] == workflow["context"]["span_id"]
    for sub in ("root.1", "root.2", "root.3"):  # the board's dispatches, under the planner's program
        spawner = by_id[agents[sub]["parent_id"]]
        assert spawner["name"] == "execute_tool submit_program"
        assert spawner["parent_id"] == agents["root"]["context"]["span_id"]
    for span in spans:
        parent = by_id.get(span.get("parent_id") or "")
        if span["name"].startswith("chat ") or span["name"] == "execute_tool submit_program":
            assert parent is not None and parent["name"].startswith("invoke_agent ")
        elif span["name"].startswith("execute_tool "):
            assert parent is not None and parent["name"] == "execute_tool submit_program"
            assert isinstance(span["attributes"]["gg.call.ok"], bool)
    chats = [s["attributes"] for s in spans if s["name"].startswith("chat ")]
    assert {a["gen_ai.request.model"] for a in chats} == {"replay"}
    assert not any("gen_ai.response.model" in a for a in chats)  # a journal names no answering model
    programs = [s["attributes"] for s in spans if s["name"] == "execute_tool submit_program"]
    assert {a["gg.arm"] for a in programs} == {"javascript"}
    kinds = Counter(s["span_kind"] for s in spans)
    assert kinds["LLM"] == 12 and kinds["AGENT"] == 6  # Phoenix read the GenAI conventions


@pytest.mark.parametrize("which", ["live", "afterwards"])
def test_the_fork_and_the_exec_are_links_to_the_program_that_asked_with_its_dispositions(
    which: str, request: pytest.FixtureRequest
) -> None:
    _, spans, folded = request.getfixturevalue(which)
    by_id = {s["context"]["span_id"]: s for s in spans}
    agents = {s["attributes"]["gen_ai.agent.id"]: s for s in spans if s["name"].startswith("invoke_agent ")}
    for copy, kind, operation in (
        ("root.f1", "fork", "delegation.fork"),
        ("root@2", "exec", "delegation.exec"),
    ):
        attributes = agents[copy]["attributes"]
        assert attributes["gg.agent.relation"] == kind
        asked = by_id[attributes["gg.agent.origin.span_id"]]  # Phoenix keeps no links: their mirror
        assert asked["name"] == "execute_tool submit_program"
        assert asked["parent_id"] == agents["root"]["context"]["span_id"]
        calls = [s["name"] for s in spans if s.get("parent_id") == asked["context"]["span_id"]]
        assert f"execute_tool {operation}" in calls
        (sent,) = [s for s in folded if s["spanId"] == agents[copy]["context"]["span_id"]]
        (link,) = sent["links"]
        assert link["spanId"] == asked["context"]["span_id"]
        dispositions = {
            a["key"]: a["value"]["stringValue"] for a in link["attributes"] if "stringValue" in a["value"]
        }
        assert dispositions["gg.transition.kind"] == kind
    fork, execd = (_link_strings(folded, agents[a]) for a in ("root.f1", "root@2"))
    assert fork["gg.transfer.memories"] == "copied" and fork["gg.transfer.board"] == "linked"
    assert execd["gg.transfer.memories"] == "initialized" and execd["gg.transfer.skills"] == "dropped"
    assert execd["gg.transfer.history"] == "carried"


def _link_strings(folded: list[dict[str, Any]], agent: dict[str, Any]) -> dict[str, str]:
    (sent,) = [s for s in folded if s["spanId"] == agent["context"]["span_id"]]
    return {a["key"]: a["value"].get("stringValue") for a in sent["links"][0]["attributes"]}


@pytest.mark.parametrize("which", ["live", "afterwards"])
def test_every_chat_span_holds_the_tokens_and_cost_gg_show_gives_its_turn(
    which: str, request: pytest.FixtureRequest, planner: Path
) -> None:
    run_id, spans, _ = request.getfixturevalue(which)
    document = shown(planner.parent, run_id)
    expected = {
        (turn["agentId"], turn["turn"]): (
            turn["reply"]["inputTokens"], turn["reply"]["outputTokens"],
            turn["reply"]["cacheReadTokens"], turn["reply"]["cacheWriteTokens"], turn["reply"]["costUsd"],
        )
        for turn in document["turns"] if turn["reply"] is not None
    }  # fmt: skip
    chats = [s["attributes"] for s in spans if s["name"].startswith("chat ")]
    got = {
        (a["gen_ai.agent.id"], a["gg.turn"]): (
            a["gen_ai.usage.input_tokens"], a["gen_ai.usage.output_tokens"],
            a["gen_ai.usage.cache_read.input_tokens"], a["gen_ai.usage.cache_creation.input_tokens"],
            a["gg.cost_usd"],
        )
        for a in chats
    }  # fmt: skip
    assert len(chats) == 12 and got == expected
    run = document["run"]
    assert sum(a["gen_ai.usage.input_tokens"] for a in chats) == run["inputTokens"] > 0
    assert sum(a["gen_ai.usage.output_tokens"] for a in chats) == run["outputTokens"] > 0
    assert sum(a["gen_ai.usage.cache_read.input_tokens"] for a in chats) == run["cacheReadTokens"] > 0
    (workflow,) = [s for s in spans if not s.get("parent_id")]
    assert workflow["attributes"]["gg.usage.input_tokens"] == run["inputTokens"]
    assert workflow["attributes"]["gg.run.status"] == "completed"


@pytest.mark.parametrize("which", ["live", "afterwards"])
def test_no_span_holds_content_unless_asked(which: str, request: pytest.FixtureRequest) -> None:
    _, spans, _ = request.getfixturevalue(which)
    for span in spans:
        held = set(_flat(span.get("attributes") or {}))
        for event in span.get("events") or []:
            held |= set(_flat(event.get("attributes") or {}))
        assert not held & set(CONTENT_KEYS), span["name"]
        assert not any(key.startswith(("llm.input_messages", "llm.output_messages")) for key in held)
        said = (span.get("attributes") or {}).get("output.value")  # Phoenix's reading of the reply
        assert said is None or set(json.loads(said)) <= {"id", "model"}, span["name"]


def test_the_exported_run_keeps_the_times_of_its_record(afterwards: Any, planner: Path) -> None:
    run_id, spans, _ = afterwards
    run = shown(planner.parent, run_id)["run"]
    (workflow,) = [s for s in spans if not s.get("parent_id")]
    assert workflow["start_time"].startswith(run["startedAt"][:23].replace("Z", ""))
    assert workflow["end_time"].startswith(run["finishedAt"][:23].replace("Z", ""))


def test_content_goes_out_when_asked(phoenix: Phoenix, planner: Path) -> None:
    base = planner.parent
    ran = gg(["run", str(planner)], base)
    assert ran.returncode == 0, ran.stderr
    run_id = run_id_of(ran.stdout)
    sent = gg(
        ["export", "otel", run_id, "--otel-content"], base, {"OTEL_EXPORTER_OTLP_ENDPOINT": phoenix.url}
    )
    assert sent.returncode == 0, sent.stderr
    folded = exported_json(base, run_id, "content.json", "--otel-content")
    spans = phoenix.spans_of_run(run_id, len(folded))
    programs = [s for s in spans if s["name"] == "execute_tool submit_program"]
    sources = {json.loads(s["attributes"]["gen_ai.tool.call.arguments"])["program"] for s in programs}
    assert (planner / "programs" / "planner-1.js").read_text() in sources
    (opening,) = [
        s for s in spans if s["name"].startswith("chat ") and s["attributes"]["gen_ai.agent.id"] == "root"
        and s["attributes"]["gg.turn"] == 1
    ]  # fmt: skip
    instructions = json.loads(opening["attributes"]["gen_ai.system_instructions"])
    assert instructions[0]["type"] == "text" and "programs" in instructions[0]["content"]
    said = json.loads(opening["attributes"]["gen_ai.output.messages"])
    assert (
        said[0]["parts"][0]["content"]
        == "I'll read the spec, plan it as tasks and file one issue per module."
    )
    assert said[0]["finish_reason"] == "tool_call"


def _flat(attributes: dict[str, Any], prefix: str = "") -> list[str]:
    keys: list[str] = []
    for key, value in attributes.items():
        keys.append(prefix + key)
        if isinstance(value, dict):
            keys.extend(_flat(value, f"{prefix}{key}."))
    return keys
