"""Host functions in a run of many agents: a family serves exactly the agents whose profile lists
it, each agent's answers are recorded after its own replies, and a replay with the family absent
answers each agent from its own recorded answers; the result sums up every agent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gg

ledger = gg.family("ledger", doc="The shop's accounts.")
CALLED: list[str] = []


@ledger.operation
def balance(account: str) -> float:
    """An account's balance."""
    CALLED.append(account)
    return {"a": 2.5, "b": 4.0}[account]


ROOT = """import { delegation, ledger, session } from "gg";
let own = "answered";
try { ledger.balance("a"); } catch (e) { own = `${e.code}: ${e.message}`; }
const clerk = delegation.spawnSubagent({ agent: "clerk", prompt: "read the balances" });
const [done] = delegation.waitForSubagents([clerk.id]);
session.finish(`${own} / ${done.status} ${done.summary}`);
"""

CLERK = """import { ledger, session } from "gg";
const first = ledger.balance("a");
const second = ledger.balance("b");
session.finish(String(first + second));
"""


def _line(program: str, profile: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"calls": [{"name": "submit_program", "arguments": {"program": program}}]}
    return entry if profile is None else {**entry, "profile": profile}


def _crew(tmp_path: Path) -> dict[str, Any]:
    (tmp_path / "workspace").mkdir(exist_ok=True)
    journal = tmp_path / "journal.jsonl"
    journal.write_text("\n".join(json.dumps(e) for e in [_line(ROOT), _line(CLERK, "clerk")]) + "\n")
    model = {"provider": "replay", "journal": str(journal)}
    code = {"id": "responses-as-code"}
    return {
        "name": "accounts",
        "workspace": str(tmp_path / "workspace"),
        "agents": [
            {
                "slug": "root",
                "task": "Have the balances read.",
                "model": model,
                "capabilities": [code, {"id": "subagents", "params": {"maxDepth": 1}}],
                "subagents": [{"agent": "clerk", "scopes": ["subagent"]}],
            },
            {
                "slug": "clerk",
                "model": model,
                "capabilities": [code, {"id": "host-functions", "params": {"families": ["ledger"]}}],
            },
        ],
    }


def test_a_family_serves_the_agents_whose_profile_lists_it_and_replays_per_agent_with_it_absent(
    tmp_path: Path,
) -> None:
    CALLED.clear()
    recording = tmp_path / "session.jsonl"
    events: list[gg.Event] = []
    live = gg.run(
        _crew(tmp_path), families=[ledger], store=tmp_path, record=recording, on_event=events.append
    )
    refused = "unavailable: `gg.ledger.balance` is not available: this agent's profile does not enable"
    assert live.status == "completed"
    assert live.final_text == f"{refused} `host-functions:ledger` / completed 6.5"
    assert CALLED == ["a", "b"]
    (clerk,) = [e.agent_id for e in events if e.to_wire().get("profileId") == "clerk"]
    asked = [e for e in events if e.type == "api_call"]
    calls = [e.agent_id for e in asked if e.to_wire()["operation"] == "ledger.balance"]
    assert calls == ["root", clerk, clerk]  # the root's call is refused at the membrane, never answered
    assert [(a.agent_id, a.turns, a.programs) for a in live.agents] == [("root", 1, 1), (clerk, 1, 1)]
    assert live.turns == 2

    lines = [json.loads(text) for text in recording.read_text().splitlines()[1:]]
    answers = [entry["hostAnswer"]["agent"] for entry in lines if "hostAnswer" in entry]
    assert answers == [clerk, clerk]
    clerk_reply = next(i for i, entry in enumerate(lines) if entry.get("agent") == clerk)
    assert all("hostAnswer" in entry for entry in lines[clerk_reply + 1 : clerk_reply + 3])

    replayed = gg.run(_crew(tmp_path), journal=recording, store=tmp_path)
    assert (replayed.status, replayed.final_text) == ("completed", live.final_text)
    assert CALLED == ["a", "b"]  # answered from the recording: not one function was called again
    assert [a.agent_id for a in replayed.agents] == ["root", clerk]
