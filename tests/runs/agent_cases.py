"""Reading the multi-agent fidelity cases (060 onward) into runs of many agents, and checking what
they expect (`tests/cases/fidelity/README.md`, "Modules and delegation cases").

Mapping a case onto gg:
- `config.agents[]` become profiles in capability-set order, the first being the root; a roster's
  and a state's `agentId` are gg's `agent`; the run's `prompt` is the root's task; `language`,
  `limits` and `sandbox` apply to every profile that takes turns. The one legacy case (030) spells
  exec as `capabilities: [delegation]` with `may_exec`.
- `replies` keyed by a plain profile become that profile's script; `root` and `root#1` name the
  root instance; `root#n` the root's (n-1)-th fork copy (`root.f<n-1>`); for the root's own
  profile `P`, `P#1` is the root and `P#n` (n > 1) the script every other instance of `P` replays.
- A capability written `compaction: self-compaction` is gg's own `context.compact`, which every
  agent has: it is no entry of gg's capability set.
- Selectors in expectations name instances by creation order (`agent_spawned`): `root`, `P`,
  `P#n`, `*`. Transition rows' `fromModuleId` / `toModuleId` are gg's `from` / `to`.
- gg's board has no merge agent and issues dispatch as subagents, so a runner drops
  `project-management`'s `mergeAgentId` and a `shell` whose `implementation` gg does not have.
A case whose profiles need a capability gg does not offer yet (one whose module kind is not in
`MODULE_CLASSES`) is not run here (`needs_modules`).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from crew import Crew
from matchers import Bindings, matches

from gg.config.kinds import KIND_CAPABILITY
from gg.errors import ConfigDefect
from gg.state.holdings import MODULE_CLASSES

CORE = frozenset({"compaction"})  # what every gg agent has, written as a capability by the cases
HELD = frozenset(c for kind in MODULE_CLASSES if (c := KIND_CAPABILITY[kind]) is not None)
OURS = frozenset({"subagents", "exec", "fork", "fsm", "delegation"}) | CORE | HELD
TASK = "Do the work the script does."
_RENAMED = {"fromModuleId": "from", "toModuleId": "to"}


def needs_modules(case: Mapping[str, Any]) -> list[str]:
    """The capabilities the case's profiles enable that gg does not offer yet."""
    found = {
        str(cap.get("id", next(iter(cap)))) if isinstance(cap, Mapping) else str(cap)
        for agent in case["config"].get("agents", [])
        for cap in agent.get("capabilities", [])
        if not _dropped(cap)
    }
    return sorted(found - OURS)


def patched(config: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """The case's config with a variant's `patch` laid over it."""
    config = copy.deepcopy(dict(config))
    for path, value in patch.items():
        parts = path.split(".")
        if parts[0] == "config":
            config[parts[1]] = value
            continue
        agent = next(a for a in config["agents"] if a["profile"] == parts[1])
        _lay(agent, parts[2:], value)
    return config


def _lay(agent: dict[str, Any], parts: list[str], value: Any) -> None:
    if parts[0] == "capabilities":
        caps: list[dict[str, Any]] = agent.setdefault("capabilities", [])
        found = next((c for c in caps if c.get("id") == parts[1]), None)
        if len(parts) == 2:
            if found is not None:
                caps.remove(found)
            if value != "DELETE":
                caps.append(value)
            return
        target: dict[str, Any] = found if found is not None else {}
        for key in parts[2:-1]:
            target = target.setdefault(key, {})
        target[parts[-1]] = value
        return
    agent[parts[0]] = value


def document(config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The capability set's profiles for a case's `config`."""
    profiles = [_profile(agent, config) for agent in config["agents"]]
    task = config.get("prompt", TASK)
    profiles[0] = {**profiles[0], "task": task}
    return profiles


def _profile(agent: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any]:
    capabilities = [_capability(c) for c in agent.get("capabilities", []) if not _dropped(c)]
    if any(c.get("id") == "fsm" for c in capabilities):
        return {"slug": agent["profile"], "capabilities": capabilities}
    sandbox = config.get("sandbox") or {}
    code = {
        "id": "responses-as-code",
        "params": {
            "language": config.get("language", "javascript"),
            "timeoutSecs": sandbox.get("timeoutSecs", 20),
        },
    }
    library = agent.get("programLibrary")
    extra = [] if library in (None, "absent") else [{"id": "program-library", "params": library}]
    profile: dict[str, Any] = {
        "slug": agent["profile"],
        "role": agent.get("role", "standard"),
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [code, *extra, *capabilities],
    }
    roster = [{**_renamed(e), "agent": e["agentId"]} for e in agent.get("roster", [])]
    roster += [{"agent": slug, "scopes": ["subagent"]} for slug in agent.get("may_exec", [])]
    if roster:
        profile["subagents"] = roster
    return profile


def _dropped(capability: Any) -> bool:
    """What the runner leaves out: what every gg agent has (`CORE`), and a shell spelled with an
    implementation (the original's arms, which gg's one shell is not)."""
    if not isinstance(capability, Mapping):
        return False
    if "id" not in capability and next(iter(capability)) in CORE:
        return True
    return capability.get("id") == "shell" and "implementation" in capability


def _capability(capability: Any) -> dict[str, Any]:
    if capability == "delegation":
        return {"id": "exec"}
    mapped = copy.deepcopy(dict(capability))
    if mapped.get("id") == "project-management":
        mapped["params"] = {k: v for k, v in (mapped.get("params") or {}).items() if k != "mergeAgentId"}
    states = (mapped.get("params") or {}).get("states")
    if mapped.get("id") == "fsm" and isinstance(states, list):
        mapped["params"]["states"] = [
            {**{k: v for k, v in s.items() if k != "agentId"}, "agent": s["agentId"]}
            if isinstance(s, dict) and "agentId" in s
            else s
            for s in states
        ]
    return mapped


def _renamed(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "agentId"}


def lines(case: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The journal lines of the case's replies, each naming whose script it is."""
    out: list[dict[str, Any]] = []
    root_profile = case["config"]["agents"][0]["profile"]
    for key, replies in case["replies"].items():
        whose = _whose(key, root_profile)
        for reply in replies:
            calls = [
                {
                    "name": c["name"],
                    "arguments": {"program": c["program"]} if "program" in c else c.get("arguments", {}),
                }
                for c in reply.get("calls") or []
            ]
            out.append({**whose, "text": reply.get("text", ""), "calls": calls})
    return out


def _whose(key: str, root_profile: str) -> dict[str, str]:
    if key in ("root", "root#1", f"{root_profile}#1"):
        return {"agent": "root"}
    fork = re.fullmatch(r"root#(\d+)", key)
    if fork:
        return {"agent": f"root.f{int(fork.group(1)) - 1}"}
    if re.fullmatch(rf"{re.escape(root_profile)}#\d+", key):
        return {"profile": root_profile}
    if "#" in key:
        raise ValueError(f"replies keyed by {key} name no instance this harness can place")
    return {"profile": key}


class Selectors:
    """Instances by the cases' selectors, in creation order (their `agent_spawned` events)."""

    def __init__(self, crew: Crew) -> None:
        self.spawned = crew.of("agent_spawned")

    def of(self, selector: str) -> list[str]:
        if selector == "*":
            return [e["agentId"] for e in self.spawned]
        if selector == "root":
            return ["root"]
        profile, _, number = selector.partition("#")
        instances = [e["agentId"] for e in self.spawned if e["profileId"] == profile]
        return instances[int(number) - 1 : int(number)] if number else instances

    def one(self, selector: str) -> str:
        found = self.of(selector)
        assert found, f"no instance answers {selector}"
        return found[0]


def check_defects(defects: Sequence[ConfigDefect], expect: Mapping[str, Any], profiles: list[str]) -> None:
    """A refused launch names every defect the case lists."""
    assert len(defects) >= expect.get("defects_count_at_least", 1), defects
    for wanted in expect.get("defects", []):
        assert any(_defect_matches(d, wanted, profiles) for d in defects), (wanted, defects)


def _defect_matches(defect: ConfigDefect, wanted: Mapping[str, Any], profiles: list[str]) -> bool:
    said = f"{defect.path} {defect.found} {defect.reason}"
    if "agent" in wanted and not defect.path.startswith(f"agents[{profiles.index(wanted['agent'])}]"):
        return False
    if "locus_contains" in wanted and wanted["locus_contains"] not in defect.path:
        return False
    if "found" in wanted and defect.found.strip('"') != str(wanted["found"]):
        return False
    return all(str(m) in said for m in wanted.get("mentions", []))


def check_run(crew: Crew, expect: Mapping[str, Any]) -> None:
    """Everything a launched case expects of its run."""
    selectors = Selectors(crew)
    bindings = Bindings(id_of=selectors.one)
    for reply in expect.get("per_reply", []):
        _check_reply(crew, selectors.one(reply["agent"]), reply, bindings)
    labels: dict[str, int] = {}
    for rule in expect.get("events", []):
        _check_events(crew, selectors, rule, bindings, labels)
    for chain in expect.get("order", []):
        positions = [labels[label] for label in chain]
        assert positions == sorted(positions) and len(set(positions)) == len(positions), (chain, positions)
    for rule in expect.get("prompts", []):
        _check_prompt(crew, selectors.one(rule["agent"]), rule)
    session = expect.get("session", {})
    if "status" in session:
        assert crew.finished["status"] == session["status"], crew.finished
    if "final_text" in session:
        assert crew.finished.get("finalText") == session["final_text"]
    for selector, count in expect.get("model_calls", {}).items():
        instances = ["root"] if selector == "root" else selectors.of(selector)
        assert sum(len(crew.requests.get(agent, [])) for agent in instances) == count, (selector, count)
    if "succession" in expect:
        _check_succession(crew, expect["succession"])


def _check_succession(crew: Crew, rule: Mapping[str, Any]) -> None:
    """The one legacy case's check: how many successions, into which profile, with which prompt."""
    transitions = crew.of("agent_transition")
    assert len(transitions) == rule["count"]
    successor = crew.one("agent_spawned", transitions[0]["toAgentId"])
    assert (successor["profileId"], successor.get("brief")) == (rule["to_profile"], rule["prompt"])


def _check_reply(crew: Crew, agent: str, rule: Mapping[str, Any], bindings: Bindings) -> None:
    """Reply N is what answered the agent's Nth model request: the rule holds in that turn (an event
    another agent's thread writes on this agent's record, its spawn say, belongs to no reply)."""
    asked = [e["turn"] for e in crew.events if e["agentId"] == agent and e["type"] == "model_request"]
    turns = sorted(set(asked))
    turn = turns[rule["reply"] - 1]
    events = [e for e in crew.events if e["agentId"] == agent and e["turn"] == turn]
    if "outcome" in rule:
        (outcome,) = [e for e in events if e["type"] == "turn_outcome"]
        assert outcome["outcome"] == rule["outcome"], outcome
    if "code_execution" in rule:
        executions = [e for e in events if e["type"] == "code_execution"]
        assert len(executions) == len(rule["code_execution"]), executions
        for got, wanted in zip(executions, rule["code_execution"], strict=True):
            _check_execution(got, wanted, bindings)


def _check_execution(got: Mapping[str, Any], wanted: Mapping[str, Any], bindings: Bindings) -> None:
    logs = list(got.get("logs") or [])
    for key, value in wanted.items():
        if key == "logs":
            assert logs == value, logs
        elif key == "logs_json":
            assert len(logs) >= len(value), logs
            for text, rule in zip(logs, value, strict=False):
                assert matches(json.loads(text), rule, bindings), (text, rule)
        elif key == "logs_match":
            assert len(logs) == len(value), logs
            for text, rule in zip(logs, value, strict=True):
                assert matches(text, rule, bindings), (text, rule)
        else:
            assert got.get(key) == value, (key, got)


def _check_events(
    crew: Crew, selectors: Selectors, rule: Mapping[str, Any], bindings: Bindings, labels: dict[str, int]
) -> None:
    agents = set(selectors.of(rule["agent"]))
    fields = {
        k: _renamed_rows(v)
        for k, v in rule.items()
        if k not in ("agent", "type", "nth", "last", "count", "as")
    }
    stream = [
        (i, e) for i, e in enumerate(crew.events) if e["type"] == rule["type"] and e["agentId"] in agents
    ]
    if "nth" in rule or rule.get("last"):
        assert stream, rule
        position, event = stream[rule["nth"] - 1] if "nth" in rule else stream[-1]
        assert all(matches(event.get(k), v, bindings) for k, v in fields.items()), (rule, event)
        candidates = [(position, event)]
    else:
        candidates = [
            (i, e) for i, e in stream if all(matches(e.get(k), v, bindings) for k, v in fields.items())
        ]
        if "count" in rule:
            assert len(candidates) == rule["count"], (rule, [e for _, e in stream])
        else:
            assert candidates, (rule, [e for _, e in stream])
    if "as" in rule and candidates:
        labels[rule["as"]] = candidates[0][0]


def _renamed_rows(value: Any) -> Any:
    """A transition row's keys as gg spells them (`from`, `to`), wherever rows are matched."""
    if isinstance(value, Mapping):
        return {_RENAMED.get(k, k): _renamed_rows(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed_rows(item) for item in value]
    return value


def _check_prompt(crew: Crew, agent: str, rule: Mapping[str, Any]) -> None:
    text = crew.prompt(agent, rule["request"] - 1)
    for fact in rule.get("prompt_contains", []):
        assert fact in text, (agent, fact)
    for fact in rule.get("prompt_absent", []):
        assert fact not in text, (agent, fact)
    for options in rule.get("prompt_contains_any", []):
        assert any(fact in text for fact in options), (agent, options)
    for fact, count in rule.get("prompt_count", {}).items():
        assert text.count(fact) == count, (agent, fact, text.count(fact))
    if "system_messages" in rule:
        sent = crew.requests[agent][rule["request"] - 1]
        assert 1 + sum(m.role == "system" for m in sent.messages) == rule["system_messages"]
