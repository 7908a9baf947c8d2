"""A lineage whose agent hands over (an exec, a transition) once the run is ending opens no
successor: the agent is recorded stopped where it stands, and nothing more is recorded for it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from gg.agents import spawner as spawner_module
from gg.agents.lineages import ChildResult
from gg.agents.spawner import Spawner
from gg.loop.status import AgentStatus
from gg.sdk.scope import Succession


class SealedStream:
    """An agent's stream as far as its end goes: sealed once, with what sealed it."""

    def __init__(self) -> None:
        self.sealed: list[Any] = []

    def seal_with(self, event: Any) -> bool:
        if self.sealed:
            return False
        self.sealed.append(event)
        return True


class Lineages:
    def __init__(self) -> None:
        self.finished: list[ChildResult] = []

    def finish(self, lineage: str, result: ChildResult) -> None:
        self.finished.append(result)


@pytest.mark.parametrize("kind", ["exec", "transition"])
def test_a_hand_over_as_the_run_ends_opens_no_successor_and_records_the_agent_stopped(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    def hand_over(agent: object, run: object, forks: object) -> Succession:
        return Succession(kind, "helper")

    def successor_of(*_: object) -> object:
        raise AssertionError("a successor opened as the run ended")

    monkeypatch.setattr(spawner_module, "run_agent", hand_over)
    monkeypatch.setattr(spawner_module, "successor_of", successor_of)
    lineages = Lineages()
    run = SimpleNamespace(ending=True, lineages=lineages)
    spawner = Spawner(run, None, None)  # type: ignore[arg-type]
    stream = SealedStream()
    agent = SimpleNamespace(
        stream=stream,
        node=SimpleNamespace(lineage="root.1"),
        setup=SimpleNamespace(seat=None),
        holdings=SimpleNamespace(modules=SimpleNamespace(release=lambda: None)),
    )
    end = spawner.run_lineage(agent)  # type: ignore[arg-type]
    assert end.stopped
    assert [event.status for event in stream.sealed] == ["stopped"]
    assert lineages.finished == [ChildResult("root.1", AgentStatus.STOPPED, "")]
