"""A run's events folded into the values the console's pages render. Pure.

One fold per event count: the transcript (turns, replies, programs, outcomes, logs, spend;
`gg.record.transcript`), the agent tree, each agent's window and requests, programs and
library, the module index, and the context bands per turn (reported, else estimated). Every
text is kept as the record holds it; a page shows it escaped, its control and bidi characters
shown as `gg show` shows them (`gg.console.render.shown`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from gg.console.context import ContextTurn, estimated_turns, reported_breakdowns
from gg.console.library import AgentPrograms, fold_programs
from gg.console.modules import ModuleIndex, fold_modules
from gg.console.overview import KindOverview, StoreFigures, kind_overviews, store_figures
from gg.console.window import AgentWindow, fold_windows
from gg.record.agents import RUNNING, RecordedInstance, RecordedTree, fold_agents
from gg.record.envelope import UNREADABLE, Record, records_of
from gg.record.tally import summed
from gg.record.toolset import Toolset, profile_toolset
from gg.record.transcript import TokenCounts, Transcript, Turn, fold_transcript
from gg.telemetry.events import EventType

TRANSCRIBED = frozenset(kind.value for kind in EventType)  # what the transcript folds


@dataclass(frozen=True)
class AgentFigures:
    turns: int = 0
    programs: int = 0
    failed_programs: int = 0
    error_turns: int = 0
    tokens: TokenCounts = field(default_factory=TokenCounts)
    cost_usd: float | None = None
    api_calls: int = 0
    failed_api_calls: int = 0


@dataclass
class RunIndex:
    run_id: str
    status: str
    transcript: Transcript
    tree: RecordedTree
    windows: dict[str, AgentWindow]
    modules: ModuleIndex
    reported: dict[str, dict[int, ContextTurn]]
    events: int
    unreadable: int = 0  # stored events that are not JSON objects: left out of every fold
    records: Sequence[Record] = ()  # what the folds only one tab reads are made from

    @property
    def live(self) -> bool:
        return self.status == RUNNING

    @cached_property
    def programs(self) -> dict[str, AgentPrograms]:
        """Each agent's programs and library, folded the first time the Programs tab is read."""
        return fold_programs(self.records)

    @cached_property
    def turns_by_agent(self) -> dict[str, list[Turn]]:
        grouped: dict[str, list[Turn]] = {}
        for turn in self.transcript.turns:
            grouped.setdefault(turn.agent_id, []).append(turn)
        return grouped

    @cached_property
    def estimated(self) -> Mapping[str, dict[int, ContextTurn]]:
        """Each agent's bands estimated from its window, worked out the first time it is read."""
        return _Estimates(self)

    def context(self, agent_id: str) -> dict[int, ContextTurn]:
        return self.reported.get(agent_id) or self.estimated.get(agent_id, {})

    def instance(self, agent_id: str) -> RecordedInstance | None:
        return self.tree.instances.get(agent_id)

    def turns(self, agent_id: str) -> list[Turn]:
        return self.turns_by_agent.get(agent_id, [])

    def figures(self, agent_id: str) -> AgentFigures:
        return agent_figures(self.turns(agent_id))

    def calls(self, agent_id: str) -> list[tuple[str, int, int]]:
        """(operation, calls, failed), most called first."""
        made: Counter[str] = Counter()
        failed: Counter[str] = Counter()
        for turn in self.turns(agent_id):
            for program in turn.programs:
                for api in program.api:
                    made[api.operation] += 1
                    failed[api.operation] += api.ok is False
        return [(op, count, failed[op]) for op, count in made.most_common()]

    def toolset(self, instances: Sequence[RecordedInstance]) -> Toolset | None:
        """What `instances` were offered, withheld and called, their calls summed."""
        calls: Counter[str] = Counter()
        for instance in instances:
            calls.update({operation: made for operation, made, _ in self.calls(instance.id)})
        return profile_toolset(instances, calls)

    @cached_property
    def profile_of(self) -> dict[str, str]:
        return {agent_id: instance.profile for agent_id, instance in self.tree.instances.items()}

    @cached_property
    def running(self) -> set[str]:
        return {a for a, i in self.tree.instances.items() if i.status == RUNNING}

    @cached_property
    def kinds(self) -> list[KindOverview]:
        return kind_overviews(self.modules, self.running, self.reported, self.estimated)

    def store(self, module_id: str) -> StoreFigures | None:
        store = self.modules.stores.get(module_id)
        if store is None:
            return None
        return store_figures(store, self.running, self.reported, self.estimated)

    @property
    def has_modules_tab(self) -> bool:
        return self.modules.offers_modules_tab()

    @property
    def has_project_tab(self) -> bool:
        return self.modules.has_board()

    def feedback(self, agent_id: str) -> list[str]:
        """Every feedback text the agent's turns closed with."""
        return [text for turn in self.turns(agent_id) if turn.outcome for text in turn.outcome.feedback]


class _Estimates(Mapping[str, dict[int, ContextTurn]]):
    """Estimated bands per agent, each folded on first read and kept."""

    def __init__(self, index: RunIndex) -> None:
        self._index = index
        self._done: dict[str, dict[int, ContextTurn]] = {}

    def __getitem__(self, agent_id: str) -> dict[int, ContextTurn]:
        if agent_id not in self._done:
            window = self._index.windows[agent_id]  # KeyError for an agent that sent nothing
            self._done[agent_id] = estimated_turns(window, self._index.feedback(agent_id))
        return self._done[agent_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._index.windows)

    def __len__(self) -> int:
        return len(self._index.windows)


def build_index(run_id: str, status: str, records: Sequence[Mapping[str, Any]]) -> RunIndex:
    """Fold a run's wire records, each read once (`gg.record.envelope`); `status` is the run's
    shown status (`running` while it runs)."""
    read = list(records_of(records))
    transcript = fold_transcript([r for r in read if r.type in TRANSCRIBED], for_terminal=False)
    tree = fold_agents(read, None if status == RUNNING else status)
    return RunIndex(
        run_id=run_id,
        status=status,
        transcript=transcript,
        tree=tree,
        windows=fold_windows(read),
        modules=fold_modules(read, [i.id for i in tree.ordered()]),
        reported=reported_breakdowns(read),
        events=len(read),
        unreadable=sum(1 for r in read if r.type == UNREADABLE),
        records=read,
    )


def agent_figures(turns: Sequence[Turn]) -> AgentFigures:
    programs = [p for turn in turns for p in turn.programs]
    priced = [turn.cost_usd for turn in turns if turn.cost_usd is not None]
    tokens = [turn.tokens for turn in turns]
    api = [a for p in programs for a in p.api]
    return AgentFigures(
        turns=len(turns),
        programs=sum(turn.submitted for turn in turns),
        failed_programs=sum(1 for p in programs if not p.ok),
        error_turns=sum(1 for t in turns if t.outcome is not None and t.outcome.outcome == "error"),
        tokens=summed(tokens),
        cost_usd=sum(priced) if priced else None,
        api_calls=len(api),
        failed_api_calls=sum(1 for a in api if a.ok is False),
    )
