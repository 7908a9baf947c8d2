"""The fidelity cases (`tests/cases/fidelity/`), each run as a whole session on the real loop.

Every case that applies to what gg builds today runs here; the rest wait for the features they
need and are listed in `WAITING` with the reason, so the list says exactly what is not yet checked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from expectations import check_reply, check_session, check_workspace
from session import run_session

from cases import CASES, Acks, files_of, load, profile_of, replies_of
from gg.sandbox.arms.javascript import JavaScriptArm

WAITING = {
    "030": "needs successions between agents (the modules work)",
    "038": "launch refusals are the config tests' (tests/config); launch-log part below",
    "041": "gg runs no opening program",
    "044": "needs docs.search (issue 5)",
    "057": "tool-choice fallback is tested against the loopback server (tests/providers)",
    "059": "tool-choice fallback is tested against the loopback server (tests/providers)",
}
NUMBERS = sorted(p.name[:3] for p in CASES.glob("*.yaml") if p.name[:3] not in WAITING)


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
