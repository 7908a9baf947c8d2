"""Reading the fidelity cases (`tests/cases/fidelity/*.yaml`) into scripted sessions.

A case's `config` becomes a `Profile`, its `replies` journal lines (`program:` is shorthand for a
`submit_program` call; `{{ack R.C}}` becomes the replay's `{{receipt R.C}}`), its `host.workspace`
the workspace's files. `Acks` resolves `{{ack R.C}}` in expectations from what the run handed out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from session import Profile, Session

CASES = Path(__file__).resolve().parents[1] / "cases" / "fidelity"
ACK = re.compile(r"\{\{ack (\d+)\.(\d+)\}\}")


def load(number: str) -> dict[str, Any]:
    (path,) = CASES.glob(f"{number}-*.yaml")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def profile_of(case: Mapping[str, Any], **overrides: Any) -> Profile:
    config = case["config"]
    library = config.get("programLibrary")
    sandbox = config.get("sandbox") or {}
    limits = config.get("limits")
    settings: dict[str, Any] = {
        "language": config.get("language", "javascript"),
        "role": config.get("role", "standard"),
        "library": None if library in (None, "absent") else library,
        "limits": limits if isinstance(limits, dict) else {},
        "timeout_secs": sandbox.get("timeoutSecs", 5),
        "shell": {} if "shell" in config.get("capabilities", []) else None,
    }
    return Profile(**{**settings, **overrides})


def replies_of(case: Mapping[str, Any]) -> list[dict[str, Any]]:
    if "replies_template" in case:
        template = case["replies_template"]
        return [_reply({"calls": template["calls"]}) for _ in range(template["repeat"])]
    return [_reply(reply) for reply in case["replies"]]


def _reply(reply: Mapping[str, Any]) -> dict[str, Any]:
    calls = [_call(call) for call in reply.get("calls") or []]
    return {"text": reply.get("text", ""), "calls": calls}


def _call(call: Mapping[str, Any]) -> dict[str, Any]:
    if "program" in call:
        return {
            "name": call["name"],
            "arguments": {"program": ACK.sub(r"{{receipt \1.\2}}", call["program"])},
        }
    return {"name": call["name"], "arguments": call.get("arguments", {})}


def files_of(case: Mapping[str, Any]) -> dict[str, str]:
    return dict((case.get("host") or {}).get("workspace") or {})


class Acks:
    """The receipts a session handed out, to resolve `{{ack R.C}}` in expectations."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            return ACK.sub(lambda m: self._session.receipts(int(m.group(1)))[int(m.group(2)) - 1], value)
        if isinstance(value, list):
            return [self(item) for item in value]
        if isinstance(value, dict):
            return {self(k): self(v) for k, v in value.items()}
        return value
