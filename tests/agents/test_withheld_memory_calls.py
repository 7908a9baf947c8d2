"""A profile whose ablation (`disabledOperations`) withholds memory calls never hears them named:
not in the system prompt's memories section, not in the notice of a co-holder's write, not in a
store's refusal. The profile is parsed, resolved and prompted as a run does it (`resolve_setup`,
`render_system_prompt`, `open_turn`), on the JavaScript arm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gg.agents.build import Arrival, render_system_prompt
from gg.config import parse_capability_set
from gg.loop.modules import open_turn, spelling
from gg.loop.setup import AgentSetup, RunGround, resolve_setup
from gg.loop.stream import AgentStream
from gg.sdk.catalogue import default_registry
from gg.state.holdings import Holdings
from gg.state.memories import Draft, MemoryRefusal
from gg.state.module import Instance
from gg.state.storeids import StoreIds
from gg.telemetry.events import Payload

WITHHELD = ["memories.read_memory", "memories.edit_memory", "memories.delete_memory"]
NAMED = ("readMemory", "read_memory", "editMemory", "edit_memory", "deleteMemory", "delete_memory")


def _setup(tmp_path: Path, withheld: list[str]) -> AgentSetup:
    (tmp_path / "journal.jsonl").touch()
    caps = {"maxCount": 2, "maxLenPerMemory": 0, "maxTotalLen": 0, "maxLenIndex": 0}
    memories = {
        "id": "memories",
        "implementation": "markdown",
        "params": {"scope": "inherited", **caps, "maxLenDescription": 0, "maxResults": 0},
    }
    agent = {
        "slug": "root",
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [{"id": "responses-as-code", "params": {"language": "javascript"}}, memories],
        "disabledOperations": withheld,
    }
    capability_set = parse_capability_set({"name": "m", "workspace": ".", "agents": [agent]}, tmp_path)
    return resolve_setup(capability_set.root, RunGround(capability_set.limits, default_registry(), tmp_path))


def _open(setup: AgentSetup, ids: StoreIds, agent_id: str, spawner: Holdings | None = None) -> Holdings:
    holdings = Holdings.open(
        setup.holder, setup.grant.open(), None, ids, Instance(agent_id, spawner and spawner.modules)
    )
    render_system_prompt(holdings, setup, Arrival())
    return holdings


def _unheard(agent_id: str, turn: int, payload: Payload, parent_agent_id: str | None = None) -> Any:
    return None


def _create(holdings: Holdings, name: str) -> None:
    holder = holdings.memories
    assert holder is not None
    holder.store.create(holder.agent_id, Draft(name, "what it holds", "a body"))


def _notice(tmp_path: Path, withheld: list[str]) -> str:
    setup, ids = _setup(tmp_path, withheld), StoreIds()
    root = _open(setup, ids, "root")
    child = _open(setup, ids, "root.1", root)  # `inherited`: it holds the root's store
    _create(child, "kiln")
    open_turn(root, setup, AgentStream(_unheard, "root", "run"), first=False)
    return root.window.messages[-1].content


def test_the_notice_of_a_co_holders_write_names_no_withheld_read(tmp_path: Path) -> None:
    notice = _notice(tmp_path, WITHHELD)
    assert notice.startswith("Another agent holding your memories changed them since your last turn:")
    assert "- added `kiln` — what it holds" in notice
    assert not any(name in notice for name in NAMED), notice
    assert "Read one with" not in notice


def test_the_notice_names_the_read_when_it_is_offered(tmp_path: Path) -> None:
    assert "Read one with `gg.memories.readMemory` if it bears on your work." in _notice(tmp_path, [])


def test_the_system_prompt_names_no_withheld_memory_call(tmp_path: Path) -> None:
    system = _open(_setup(tmp_path, WITHHELD), StoreIds(), "root").window.system
    assert "Your calls: `gg.memories.createMemory`." in system
    assert "their bodies cannot be read in this session" in system
    assert not any(name in system for name in NAMED)


def _refused(holdings: Holdings, setup: AgentSetup, name: str) -> str:
    with pytest.raises(MemoryRefusal) as refused:
        _create(holdings, name)
    return refused.value.said(spelling(setup))


def test_a_refusal_names_no_withheld_call(tmp_path: Path) -> None:
    setup = _setup(tmp_path, WITHHELD)
    root = _open(setup, StoreIds(), "root")
    _create(root, "kiln")
    assert _refused(root, setup, "kiln") == "memory `kiln` already exists; choose another name"
    _create(root, "glaze")
    assert _refused(root, setup, "slip") == "at the maximum of 2 memories (maxCount)"


def test_a_refusal_names_each_call_the_profile_keeps(tmp_path: Path) -> None:
    setup = _setup(tmp_path, ["memories.delete_memory"])
    root = _open(setup, StoreIds(), "root")
    _create(root, "kiln")
    taken = "memory `kiln` already exists; revise it with `gg.memories.editMemory`"
    assert _refused(root, setup, "kiln") == taken
    _create(root, "glaze")
    assert _refused(root, setup, "slip") == (
        "at the maximum of 2 memories (maxCount); revise one with `gg.memories.editMemory`"
    )
