"""`disabledOperations` spells an MCP server's tools as it spells gg's own operations, by the
module's key: a withheld tool leaves the module's surface and a call to it is refused
`unavailable`, while the module's other tools answer; a tool the server does not list refuses the
launch, naming the tools it does."""

from __future__ import annotations

from pathlib import Path

import pytest

import gg
from with_mcp.served import STDIO_SERVER, Acting, config

pytestmark = pytest.mark.timeout(300)

PROGRAM = """import { docs, fixture, session } from "gg";
let refused = "";
try { fixture.getNote(3); } catch (e) { refused = `${e.code}: ${e.message}`; }
const found = docs.search({ query: "note", modules: ["fixture"] }).hits.map((h) => h.key);
session.finish([fixture.add(2, 2).result, refused, found.includes("gg.fixture.getNote")].join("|"));
"""


def test_an_mcp_tool_is_withheld_by_its_modules_key(tmp_path: Path) -> None:
    document = config(tmp_path, "javascript", STDIO_SERVER)
    document["agents"][0]["disabledOperations"] = ["fixture.get_note"]
    model = Acting([PROGRAM], tmp_path / "workspace")
    result = gg.run(document, model=model, store=tmp_path)
    assert result.status == "completed", result.message
    refused = "unavailable: `gg.fixture.getNote` is not available: this agent's profile withholds it"
    assert result.final_text == f"4|{refused}|false"


def test_a_tool_the_server_does_not_list_refuses_the_launch_naming_those_it_does(tmp_path: Path) -> None:
    document = config(tmp_path, "javascript", STDIO_SERVER)
    document["agents"][0]["disabledOperations"] = ["fixture.get_notes"]
    model = Acting(["never"], tmp_path / "workspace")
    result = gg.run(document, model=model, store=tmp_path)
    assert result.status == "refused" and model.requests == []
    message = result.message or ""
    assert (
        "agents[0].disabledOperations[0]: names no operation of `fixture`; it holds add, ship, get_note, "
        "refuse, nap, echo, pick, pid (found fixture.get_notes)"
    ) in message
