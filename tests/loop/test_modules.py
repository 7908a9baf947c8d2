"""Where the loop places what an agent's modules put in its window (seed 003, "What reaches the
prompt") and what it reports on the agent's stream: the first turn's block, the notice at the
tail once, a compaction boundary's rebuilt block, and a succession's released block."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gg.config import parse_capability_set
from gg.config.kinds import Disposition, ModuleKind
from gg.loop.modules import open_turn, rebuild_blocks, release_blocks, spelling
from gg.loop.setup import AgentSetup, RunGround, resolve_setup
from gg.loop.stream import AgentStream
from gg.sdk.catalogue import default_registry
from gg.state.dispositions import Row
from gg.state.holdings import Holdings
from gg.state.memories import Draft
from gg.state.module import Instance, Moment
from gg.state.storeids import StoreIds
from gg.state.window import Band
from gg.telemetry.events import Payload

CAPS = {"maxCount": 0, "maxLenPerMemory": 0, "maxTotalLen": 0, "maxLenIndex": 0}


def _setup(tmp_path: Path, scope: str) -> AgentSetup:
    (tmp_path / "journal.jsonl").touch()
    memories = {
        "id": "memories",
        "implementation": "scratchpad",
        "params": {"scope": scope, **CAPS, "maxLenDescription": 0, "maxResults": 0},
    }
    agent = {
        "slug": "root",
        "model": {"provider": "replay", "journal": "journal.jsonl"},
        "capabilities": [{"id": "responses-as-code", "params": {"language": "javascript"}}, memories],
    }
    capability_set = parse_capability_set({"name": "m", "workspace": ".", "agents": [agent]}, tmp_path)
    ground = RunGround(capability_set.limits, default_registry(), tmp_path)
    return resolve_setup(capability_set.root, ground)


class Seen:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def __call__(self, agent_id: str, turn: int, payload: Payload, parent_agent_id: str | None = None) -> Any:
        self.events.append((agent_id, payload.TYPE.value))


def _open(setup: AgentSetup, ids: StoreIds, agent_id: str, spawner: Holdings | None = None) -> Holdings:
    holdings = Holdings.open(
        setup.holder, setup.grant.open(), None, ids, Instance(agent_id, spawner and spawner.modules)
    )
    holdings.window.system = "s"
    return holdings


def _write(holdings: Holdings, name: str, body: str) -> None:
    holder = holdings.memories
    assert holder is not None
    holder.store.write(holder.agent_id, Draft(name, "d", body))


def test_a_holder_of_a_filled_store_opens_on_its_block_and_hears_of_a_co_holders_write_once(
    tmp_path: Path,
) -> None:
    setup, ids, seen = _setup(tmp_path, "inherited"), StoreIds(), Seen()
    root = _open(setup, ids, "root")
    stream = AgentStream(seen, "root", "run")
    _write(root, "plan", "a canvas game")
    open_turn(root, setup, stream, first=True)
    assert seen.events == [("root", "memory_revision"), ("root", "memory_state")]  # its own write
    seen.events.clear()
    child = _open(setup, ids, "root.1", root)
    open_turn(child, setup, AgentStream(seen, "root.1", "run"), first=True)
    assert (
        child.window.pinned(Band.MEMORY) is not None and "a canvas game" in child.window.messages[-1].content
    )
    _write(child, "late", "glaze twice")
    open_turn(root, setup, stream, first=False)
    assert "glaze twice" in root.window.messages[-1].content  # the notice, at the tail
    assert root.window.pinned(Band.MEMORY) is None  # a notice is no block
    assert ("root", "memory_state") in seen.events and (
        "root",
        "memory_revision",
    ) not in seen.events  # re-stated
    count = len(root.window.messages)
    open_turn(root, setup, stream, first=False)
    assert len(root.window.messages) == count  # told once


def test_a_compaction_boundary_rebuilds_the_block_and_a_succession_that_drops_the_kind_takes_it_out(
    tmp_path: Path,
) -> None:
    setup, ids = _setup(tmp_path, "isolated"), StoreIds()
    root = _open(setup, ids, "root")
    rebuild_blocks(root, Moment.FIRST_TURN, spelling(setup))
    assert root.window.pinned(Band.MEMORY) is None  # its own empty store builds none
    _write(root, "gauge", "ten millimetres")
    rebuild_blocks(root, Moment.COMPACTION, spelling(setup))
    block = root.window.pinned(Band.MEMORY)
    assert block is not None and "ten millimetres" in block
    release_blocks(root, [Row(ModuleKind.MEMORIES, Disposition.DROPPED, "memories-0")])
    assert root.window.pinned(Band.MEMORY) is None
    assert not any("ten millimetres" in m.content for m in root.window.messages)
