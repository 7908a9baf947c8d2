"""A subagent whose model cannot be used (its key is not set) is not started: the spawn is
`unavailable` naming why, and the parent's program carries on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gg.agents.run import RunOptions, World, execute_run
from gg.config import parse_capability_set
from gg.sandbox.execution import Arm
from gg.telemetry.emitter import CollectingSink, Telemetry

pytestmark = pytest.mark.arms("javascript")

ROOT = """import { delegation, session } from "gg";
try { delegation.spawnSubagent({ agent: "helper", prompt: "help" }); console.log("started"); }
catch (e) { console.log(`${e.code} ${e.operation} ${e.message}`); }
session.finish("went on alone");
"""


def test_a_subagent_whose_model_cannot_be_used_is_refused_unavailable(
    tmp_path: Path, arm: Arm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GG_TEST_HELPER_KEY", raising=False)
    (tmp_path / "workspace").mkdir()
    (tmp_path / "journal.jsonl").write_text(
        json.dumps({"calls": [{"name": "submit_program", "arguments": {"program": ROOT}}]}) + "\n"
    )
    code = {"id": "responses-as-code"}
    document = {
        "name": "no-key",
        "agents": [
            {
                "slug": "root",
                "task": "Ask for help.",
                "model": {"provider": "replay", "journal": "journal.jsonl"},
                "capabilities": [code, {"id": "subagents", "params": {"maxDepth": 1}}],
                "subagents": [{"agent": "helper", "scopes": ["subagent"]}],
            },
            {
                "slug": "helper",
                "model": {"provider": "openai", "model": "gpt-4o", "apiKeyEnv": "GG_TEST_HELPER_KEY"},
                "capabilities": [code],
            },
        ],
    }
    sink = CollectingSink()
    telemetry = Telemetry("run-no-key", [sink])
    result = execute_run(parse_capability_set(document, tmp_path), telemetry, RunOptions(), World(arm=arm))
    telemetry.close()
    (execution,) = [e for e in sink.wire() if e["type"] == "code_execution"]
    (said,) = execution["logs"]
    assert said.startswith("unavailable spawn_subagent") and "GG_TEST_HELPER_KEY" in said
    assert result.final_text == "went on alone"
