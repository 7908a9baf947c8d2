"""`gg.hook(event)(fn)` with `gg.run` (issue 26): a Python function judges an event as a command
hook does: it sees the payload, its block refuses the program's call, its message reaches the next
request, and one that raises ends the run `hook_error`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import gg
from gg.cli import main

WRITE = (
    'import { files, views } from "gg";\n'
    'try { files.writeFile("vendor/lib.js", "x"); } catch (e) { views.openText("said", e.message); }\n'
    'files.writeFile("main.js", "y");\n'
)
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'


class Scripted:
    model_id = "scripted:hooks"

    def __init__(self, *programs: str) -> None:
        self.programs = list(programs)
        self.seen: list[gg.Request] = []

    def complete(self, request: gg.Request) -> gg.Reply:
        self.seen.append(request)
        source = self.programs[len(self.seen) - 1]
        call = gg.ToolCall(f"c{len(self.seen)}", "submit_program", {"program": source})
        return gg.Reply("", (call,), gg.Usage(10, 2), self.model_id)


def document(tmp_path: Path) -> dict[str, Any]:
    (tmp_path / "ws").mkdir()
    return {
        "name": "hooks",
        "workspace": str(tmp_path / "ws"),
        "limits": {"maxTurns": 3},
        "agents": [{"slug": "root", "capabilities": [{"id": "responses-as-code"}]}],
    }


def test_a_python_hook_blocks_a_write_and_speaks_to_the_next_request(tmp_path: Path) -> None:
    payloads: list[dict[str, Any]] = []

    @gg.hook("pre-write", name="no vendor")
    def no_vendor(payload: dict[str, Any]) -> object:
        payloads.append(payload)
        if "/vendor/" in payload["path"]:
            return {"action": "block", "message": "vendored code is not edited"}
        return {"action": "message", "message": f"wrote {Path(payload['path']).name}"}

    model = Scripted(WRITE, FINISH)
    result = gg.run(document(tmp_path), model=model, store=tmp_path, hooks=[no_vendor])
    assert (result.status, result.exit_code) == ("completed", 0)
    assert [p["contents"] for p in payloads] == ["x", "y"]
    assert payloads[0]["event"] == "pre-write" and payloads[0]["agentId"] == "root"
    assert not (tmp_path / "ws" / "vendor").exists() and (tmp_path / "ws" / "main.js").read_text() == "y"
    read = [m.content for m in model.seen[1].messages if m.role == "user"]
    assert "View: said\n----\nthe pre-write hook `no vendor` refused it: vendored code is not edited" in read
    assert "From the pre-write hook `no vendor`\n----\nwrote main.js" in read


def test_a_python_hook_that_raises_ends_the_run_hook_error(tmp_path: Path) -> None:
    @gg.hook("agent-stop")
    def gate(payload: dict[str, Any]) -> object:
        raise RuntimeError("the gate is broken")

    result = gg.run(document(tmp_path), model=Scripted(FINISH), store=tmp_path, hooks=[gate])
    assert (result.status, result.exit_code) == ("hook_error", 1)
    assert result.message == "the agent-stop hook `gate` raised RuntimeError('the gate is broken')"


def test_an_unknown_event_or_a_stray_hook_is_refused_before_the_run(tmp_path: Path) -> None:
    with pytest.raises(gg.ConfigError) as unknown:
        gg.hook("on-save")
    assert "must be one of session-start, session-end" in str(unknown.value)
    with pytest.raises(gg.ConfigError) as stray:
        gg.run(document(tmp_path), model=Scripted(FINISH), store=tmp_path, hooks=[print])  # type: ignore[list-item]
    assert "hooks[0]: must be a hook made by gg.hook(event)(fn)" in str(stray.value)
    assert not (tmp_path / ".gg").exists()


def test_a_python_hook_that_calls_sys_exit_ends_the_run_hook_error_on_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sys.exit` in a hook is the hook's failure, never the process's end: the run ends
    `hook_error`, its end is on the record, and the write it judged is not made."""

    @gg.hook("pre-write")
    def leaves(payload: dict[str, Any]) -> object:
        sys.exit(4)

    result = gg.run(document(tmp_path), model=Scripted(WRITE, FINISH), store=tmp_path, hooks=[leaves])
    assert (result.status, result.exit_code) == ("hook_error", 1)
    assert result.message == "the pre-write hook `leaves` called sys.exit(4)"
    assert not (tmp_path / "ws" / "main.js").exists()
    monkeypatch.chdir(tmp_path)
    runs = CliRunner().invoke(main, ["runs", "--json"])
    (row,) = json.loads(runs.output)["runs"]
    assert (row["status"], row["exitCode"]) == ("hook_error", 1)


@pytest.mark.parametrize(("event", "turns"), [("pre-write", 1), ("session-end", 2)])
def test_ctrl_c_in_a_python_hook_interrupts_the_run_as_anywhere_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, event: str, turns: int
) -> None:
    """Mid-turn, or in `session-end` once the root finished two turns: the run ends `interrupted`
    and its record counts every turn `gg show` lists (a newcomer's, stopped in `session-end`,
    said 0 turns)."""

    @gg.hook(event)
    def pressed(payload: dict[str, Any]) -> object:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gg.run(document(tmp_path), model=Scripted(WRITE, FINISH), store=tmp_path, hooks=[pressed])
    monkeypatch.chdir(tmp_path)
    (row,) = json.loads(CliRunner().invoke(main, ["runs", "--json"]).output)["runs"]
    assert (row["status"], row["exitCode"], row["turns"]) == ("interrupted", 130, turns)
