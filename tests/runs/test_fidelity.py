"""The fidelity cases (`tests/cases/fidelity/`), each run as a whole session on the real loop: a
case of one agent through `session.py`, a case of many (060 onward: `config.agents`) through
`crew.py` and `agent_cases.py`.

Every case that applies to what gg builds today runs here; the rest wait for the features they
need and are listed in `WAITING` with the reason, so the list says exactly what is not yet checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agent_cases import check_defects, check_run, document, lines, needs_modules, patched
from crew import run_crew
from expectations import check_reply, check_session, check_workspace
from session import run_session

from cases import CASES, Acks, files_of, load, profile_of, replies_of
from gg.config import check_report, parse_capability_set
from gg.errors import ConfigError
from gg.sandbox.arms.javascript import JavaScriptArm

WAITING = {
    "038": "launch refusals are the config tests' (tests/config); launch-log part below",
    "041": "gg runs no opening program",
    "044": "needs docs.search (issue 5)",
    "057": "tool-choice fallback is tested against the loopback server (tests/providers)",
    "059": "tool-choice fallback is tested against the loopback server (tests/providers)",
}
ALL = sorted(p.name[:3] for p in CASES.glob("*.yaml"))
MANY = [n for n in ALL if "agents" in load(n)["config"]]
for _number in MANY:
    if needs_modules(load(_number)):
        WAITING[_number] = f"needs {', '.join(needs_modules(load(_number)))}: the modules issue (12)"


def _variant_names(number: str) -> list[str]:
    return [v["name"] for v in load(number).get("variants", [])]


NUMBERS = [n for n in ALL if n not in WAITING and n not in MANY]
AGENT_NUMBERS = [n for n in MANY if n not in WAITING]


pytestmark = pytest.mark.arms("javascript")


def _variants(number: str) -> list[str | None]:
    """The case itself and each of its variants; a case whose settings exist only per variant
    (its `limits` say so) runs as its variants alone."""
    case = load(number)
    variants = [v["name"] for v in case.get("variants", [])]
    per_variant_only = isinstance(case["config"].get("limits"), str)
    return [*([] if per_variant_only else [None]), *variants]


@pytest.mark.parametrize(("number", "variant"), [(n, v) for n in NUMBERS for v in _variants(n)])
def test_fidelity_case(number: str, variant: str | None, tmp_path: Path, arm: JavaScriptArm) -> None:
    case = load(number)
    replies, expect, overrides = replies_of(case), case["expect"], {}
    if variant is not None:
        (spec,) = [v for v in case["variants"] if v["name"] == variant]
        if "replace_reply" in spec:
            replies[spec["replace_reply"] - 1]["calls"][0]["arguments"]["program"] = spec["program"]
        if "limits" in spec:
            overrides["limits"] = spec["limits"]
        expect = spec["expect"]
    session = run_session(tmp_path, replies, profile_of(case, **overrides), files=files_of(case), arm=arm)
    acks = Acks(session)
    for reply in expect.get("per_reply", []):
        check_reply(session, reply, acks)
    for turn, count in enumerate(expect.get("consecutiveErrors_per_reply", []), start=1):
        assert session.outcome(turn)["consecutiveErrors"] == count
    check_session(session, expect.get("session", {}))
    check_workspace(
        session, {k: v for r in expect.get("per_reply", []) for k, v in r.get("workspace_after", {}).items()}
    )
    check_workspace(session, expect.get("workspace_after", {}))
    if "model_calls" in expect:
        assert session.model_calls == expect["model_calls"]
    _check_all_variants(session, case.get("expect", {}).get("all_variants"))


def _check_all_variants(session, rule) -> None:  # type: ignore[no-untyped-def]
    if not rule:
        return
    for outcome in session.of_type("turn_outcome"):
        assert outcome["outcome"] == rule["per_reply_outcome"]
        assert outcome.get("errorType") == rule["errorType"]
        for message in outcome.get("feedback") or []:
            assert all(word not in message for word in rule["feedback_never_mentions"])


@pytest.mark.parametrize(
    ("number", "variant"), [(n, v) for n in AGENT_NUMBERS for v in [None, *_variant_names(n)]]
)
def test_fidelity_case_of_many_agents(
    number: str, variant: str | None, tmp_path: Path, arm: JavaScriptArm
) -> None:
    case = load(number)
    config, expect = case["config"], case["expect"]
    if variant is not None:
        (spec,) = [v for v in case["variants"] if v["name"] == variant]
        config, expect = patched(config, spec.get("patch", {})), {**spec.get("expect", expect)}
    profiles = document(config)
    if expect.get("launch") == "refused":
        _check_refused(tmp_path, config, profiles, expect)
        return
    crew = run_crew(
        tmp_path, profiles, lines(case), arm=arm, task=None, limits=config.get("limits"), files=files_of(case)
    )
    check_run(crew, expect)


def _check_refused(
    tmp_path: Path, config: dict[str, Any], profiles: list[dict[str, Any]], expect: dict[str, Any]
) -> None:
    """A refused launch: one refusal naming every defect, `gg check` exiting 2, no model asked."""
    (tmp_path / "workspace").mkdir()
    (tmp_path / "journal.jsonl").write_text("")
    document_ = {"name": "case", "limits": config.get("limits") or {}, "agents": profiles}
    (tmp_path / "gg.json").write_text(json.dumps(document_))
    with pytest.raises(ConfigError) as refused:
        parse_capability_set(document_, tmp_path)
    check_defects(refused.value.defects, expect, [p["slug"] for p in profiles])
    code, _ = check_report(tmp_path / "gg.json")
    assert code == 2
