"""No lone surrogate reaches a provider's wire, whoever wrote it (issue 10, item 1).

Each run answers through a loopback server speaking a provider's real wire (OpenAI-compatible,
OpenRouter, Anthropic), on the JavaScript and the Python arm. The model's replies carry lone
surrogates in their text and their call arguments (in `program` and beside it, and in arguments
that are not JSON at all); the programs write them into every kind of text that reaches the model
(view labels and bodies, log lines, file names, thrown errors, a compaction summary and the files
it names, an ending's summary and a change list). Every request the run sends must be UTF-8
whose JSON holds no lone surrogate, and the run must end as its programs said.

Monty's strings cannot hold a lone surrogate (it reads `\\uD83D` as U+FFFD and refuses one in a
program's source), so on the Python arm the surrogates that travel are the model's own and the
host's (a file name that is not UTF-8); the same programs run there to hold the arm to the rule.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gg.agents.run import RunOptions, World, execute_run
from gg.config import parse_capability_set
from gg.sandbox.execution import Arm
from gg.telemetry.emitter import CollectingSink, Telemetry
from providers import messages_server as anthropic
from providers.chat_server import Answer, ChatServer, completion

pytestmark = pytest.mark.arms("javascript", "python")

LONE = "\ud83d"  # the high half of an emoji, alone: what a JS string or a `\ud83d` escape holds
MENDED = "\ufffd"

# Each program as the model writes it; `\uD83D` is a JS or Python escape inside the program's own
# string literals, so the program itself computes the lone surrogate.
PROGRAMS: dict[str, dict[str, str]] = {
    "javascript": {
        "views": """import { views } from "gg";
views.openText("body", "x \\uD83D y");
try { views.openText("label \\uD83D", "x"); } catch (e) { views.openText("label refused", e.message); }
""",
        "logs": 'console.log("log \\uD83D");\n',
        "names": """import { files, views } from "gg";
try { files.writeFile("name \\uD83D.txt", "x"); } catch (e) { views.openText("write refused", e.message); }
views.openText("names", files.listDir().map((e) => e.name).join("\\n"));
files.readFile("gone \\uD83D.txt");
""",
        "throw": 'throw new Error("boom \\uD83D");\n',
        "compact": """import { context } from "gg";
context.compact("summary \\uD83D", ["plan \\uD83D.md"]);
""",
        "finish": 'import { session } from "gg";\nsession.finish("done \\uD83D");\n',
        "request_changes": 'import { session } from "gg";\nsession.requestChanges(["fix \\uD83D", "ok"]);\n',
    },
    "python": {
        "views": """import gg
gg.views.open_text("body", "x \\uD83D y")
try:
    gg.views.open_text("label \\uD83D", "x")
except gg.ApiError as e:
    gg.views.open_text("label refused", gg.core.details(e).message)
""",
        "logs": 'print("log \\uD83D")\n',
        "names": """import gg
try:
    gg.files.write_file("name \\uD83D.txt", "x")
except gg.ApiError as e:
    gg.views.open_text("write refused", gg.core.details(e).message)
gg.views.open_text("names", "\\n".join(e.name for e in gg.files.list_dir()))
gg.files.read_file("gone \\uD83D.txt")
""",
        "throw": 'raise ValueError("boom \\uD83D")\n',
        "compact": 'import gg\ngg.context.compact("summary \\uD83D", files=["plan \\uD83D.md"])\n',
        "finish": 'import gg\ngg.session.finish("done \\uD83D")\n',
        "request_changes": 'import gg\ngg.session.request_changes(["fix \\uD83D", "ok"])\n',
    },
}
# A program whose source itself holds a lone surrogate (sent inside the arguments' JSON).
LITERAL = {
    "javascript": f'import {{ views }} from "gg";\n// {LONE}\nviews.openText("literal", "{LONE}");\n',
    "python": f'import gg\n# {LONE}\ngg.views.open_text("literal", "{LONE}")\n',
}


@dataclass
class Call:
    """One call of a scripted reply: its program, or arguments that are not JSON at all."""

    program: str | None = None
    unreadable: str | None = None


@dataclass
class Wire:
    """A provider's loopback endpoint and the replies in its own wire format."""

    provider: str
    server: ChatServer

    def reply(self, text: str, *calls: Call) -> Answer:
        """A reply whose text and whose every call carry a lone surrogate of the model's own."""
        if self.provider == "anthropic":
            blocks = [anthropic.text(text)] + [
                {
                    "type": "tool_use",
                    "id": f"toolu_{n}",
                    "name": "submit_program",
                    "input": {"program": call.program, "note": f"beside {LONE}"},
                }
                for n, call in enumerate(calls)
                if call.program is not None
            ]
            return anthropic.message(*blocks)
        wired = [
            (
                f"call_{n}",
                "submit_program",
                call.unreadable
                if call.unreadable is not None
                else json.dumps({"program": call.program, "note": f"beside {LONE}"}),
            )
            for n, call in enumerate(calls)
        ]
        return completion(text, wired)


@pytest.fixture(params=["openai", "openrouter", "anthropic"])
def wire(request: pytest.FixtureRequest) -> Iterator[Wire]:
    server = anthropic.messages_server() if request.param == "anthropic" else ChatServer()
    server.start()
    yield Wire(request.param, server)
    server.stop()


def _run(tmp_path: Path, arm: Arm, wire: Wire, *replies: Answer, role: str = "standard") -> dict[str, Any]:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    os.close(os.open(bytes(workspace) + b"/latin-1 \xe9.txt", os.O_CREAT | os.O_WRONLY))  # not UTF-8
    wire.server.script(*replies)
    document = {
        "name": "surrogates",
        "workspace": str(workspace),
        "agents": [
            {
                "slug": "root",
                "role": role,
                "task": "Work with the texts the script writes.",
                "model": {"provider": wire.provider, "model": "test-model", "baseUrl": wire.server.base_url},
                "capabilities": [{"id": "responses-as-code", "params": {"language": arm.language}}],
            }
        ],
    }
    sink = CollectingSink()
    telemetry = Telemetry("run-surrogates", [sink])
    result = execute_run(parse_capability_set(document, tmp_path), telemetry, RunOptions(), World(arm=arm))
    telemetry.close()
    (finished,) = [e for e in sink.wire() if e["type"] == "run_finished"]
    assert (result.status.value, result.message) == ("completed", None)
    return finished


def _strings(value: Any) -> Iterator[str]:
    """Every string in `value`, and every string inside a string that is itself a JSON object (a
    call's arguments on the Chat Completions wire)."""
    if isinstance(value, str):
        yield value
        if value.startswith("{"):
            with contextlib.suppress(ValueError):
                yield from _strings(json.loads(value))
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)


def _wire_texts(raw: bytes) -> list[str]:
    """Every string of a request body that is UTF-8 and holds no lone surrogate, else fails."""
    strings = list(_strings(json.loads(raw.decode("utf-8"))))
    lone = [s for s in strings if any(0xD800 <= ord(c) <= 0xDFFF for c in s)]
    assert lone == []
    return strings


def test_every_text_a_model_or_a_program_wrote_reaches_the_wire_well_formed(
    tmp_path: Path, arm: Arm, wire: Wire
) -> None:
    own = PROGRAMS[arm.language]
    first = [Call(own[name]) for name in ("views", "logs", "names", "throw")] + [Call(LITERAL[arm.language])]
    if wire.provider != "anthropic":  # the Messages wire sends a call's input as an object, always
        first.append(Call(unreadable=f'{{"program": "cut {LONE}'))
    finished = _run(
        tmp_path,
        arm,
        wire,
        wire.reply(f"thinking {LONE}", *first),
        wire.reply(f"compacting {LONE}", Call(own["compact"])),
        wire.reply(f"ending {LONE}", Call(own["finish"])),
    )
    assert finished["finalText"] == f"done {MENDED}"
    second, third = (_wire_texts(r.raw) for r in wire.server.received[1:])
    assert len(wire.server.received) == 3
    assert f"thinking {MENDED}" in second and "View: body\n----\nx \ufffd y" in second
    assert any(f"beside {MENDED}" in s for s in second)  # the call's arguments, sent back
    assert any("latin-1 \ufffd.txt" in s for s in second)  # a listed file name
    assert any(f"boom {MENDED}" in s for s in second)
    assert "Summary\n----\nsummary \ufffd" in third
    assert any(f"plan {MENDED}.md" in s for s in third)  # the file the compaction could not re-open


def test_an_ending_summary_and_a_change_list_end_the_run_on_the_wire(
    tmp_path: Path, arm: Arm, wire: Wire
) -> None:
    own = PROGRAMS[arm.language]
    replies = (wire.reply(f"reviewing {LONE}", Call(own["request_changes"])),)
    finished = _run(tmp_path, arm, wire, *replies, role="review")
    assert finished["finalText"] == f"Changes requested:\n1. fix {MENDED}\n2. ok"
    (only,) = wire.server.received
    _wire_texts(only.raw)
