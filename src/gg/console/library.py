"""Each agent's programs and program library, folded from its events. Pure.

Rules:
- A program is one `code_execution`: its submission, verdict, error, and the source that ran
  (the chain's last link). The source the model submitted is its call's `program` argument,
  found through the receipt's call id. A chain of more than one program is read off
  `code_execution.links`: every link's own source and verdict, in the order run; a record
  without links (written before gg kept them) knows only the first (submitted) and the last.
- The library is every `program_kept` entry not yet `program_dropped`, with its id, turn, size
  and verdict and the error the model read; `grew` lists, turn by turn, what entered and left.
- A hand-over that fetched a failed program: the submitted source quotes the id of a failed
  library program of the same agent. Its diff is that program's source against the one that ran.
- A fork clones its parent's library and a successor takes its predecessor's over (seed 000);
  no event states that library, so `taken_over` reads it as the giver held it when the turn
  that made the hand-over ended: every entry kept by then and not yet dropped. What a
  successor's own, smaller `keep` cut from it is not reported, so it is not shown.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gg.record.envelope import Record, records_of
from gg.record.records import LinkRun, int_of, list_of, read_call, read_program
from gg.telemetry.events import EventType
from gg.wire import lines

DIFF_CONTEXT_LINES = 3


@dataclass(frozen=True)
class HandoverChain:
    """A chain whose first link handed over a patched program: `chain` holds every link (empty
    for a record that kept only their count, `links`)."""

    links: int
    submitted: str
    chain: tuple[LinkRun, ...] = ()
    fetched_id: str | None = None
    fetched_error: str | None = None
    diff: tuple[str, ...] = ()


@dataclass(frozen=True)
class Program:
    agent_id: str
    turn: int
    submission: int
    ok: bool
    source: str
    program_id: str | None = None
    error: str | None = None
    error_type: str | None = None
    duration_ms: float = 0.0
    api_calls: int = 0
    handover: HandoverChain | None = None

    @property
    def lines(self) -> int:
        return len(lines(self.source))


@dataclass(frozen=True)
class LibraryEntrySeen:
    program_id: str
    turn: int
    lines: int
    chars: int
    ok: bool
    error: str | None = None
    dropped_turn: int | None = None


@dataclass(frozen=True)
class Growth:
    """What entered and left one agent's library in one turn, and its size after."""

    turn: int
    kept: tuple[str, ...]
    dropped: tuple[str, ...]
    size: int


@dataclass
class AgentPrograms:
    agent_id: str
    programs: list[Program] = field(default_factory=list[Program])
    entries: dict[str, LibraryEntrySeen] = field(default_factory=dict[str, LibraryEntrySeen])
    grew: list[Growth] = field(default_factory=list[Growth])

    @property
    def has_library(self) -> bool:
        return bool(self.entries)

    def kept(self) -> list[LibraryEntrySeen]:
        """The library as the run left it."""
        return [entry for entry in self.entries.values() if entry.dropped_turn is None]


@dataclass
class _Draft:
    calls: dict[str, str] = field(default_factory=dict[str, str])  # call id -> submitted source
    submitted: dict[str, str] = field(default_factory=dict[str, str])  # program id -> source
    pending: list[str] = field(default_factory=list[str])  # submitted sources without an id, in order


def fold_programs(records: Iterable[Mapping[str, Any]]) -> dict[str, AgentPrograms]:
    """Every agent's programs and library, keyed by agent id."""
    agents: dict[str, AgentPrograms] = {}
    drafts: dict[str, _Draft] = {}
    for record in records_of(records):
        book = agents.setdefault(record.agent_id, AgentPrograms(record.agent_id))
        _fold(book, drafts.setdefault(record.agent_id, _Draft()), record)
    return {agent: _with_handovers(book) for agent, book in agents.items()}


def _fold(book: AgentPrograms, draft: _Draft, record: Record) -> None:
    kind, turn = record.type, record.turn
    if kind == EventType.MODEL_REPLY:
        for raw in list_of(record.get("calls")):
            call = read_call(raw)
            if call.program is not None:
                draft.calls[call.call_id] = call.program
                draft.pending.append(call.program)
    elif kind == EventType.RECEIPT and record.get("programId"):
        source = draft.calls.get(str(record.get("callId", "")))
        if source is not None:
            draft.submitted[str(record["programId"])] = source
    elif kind == EventType.PROGRAM_KEPT:
        _keep(book, turn, record)
    elif kind == EventType.PROGRAM_DROPPED:
        _drop(book, turn, str(record.get("programId", "")))
    elif kind == EventType.CODE_EXECUTION:
        book.programs.append(_program(book.agent_id, turn, record, draft))


def _program(agent: str, turn: int, record: Mapping[str, Any], draft: _Draft) -> Program:
    run = read_program(record)
    ran = run.source or ""
    submitted = draft.submitted.get(run.program_id or "") if run.program_id else None
    if submitted is None and draft.pending:
        submitted = draft.pending.pop(0)
    elif submitted is not None and submitted in draft.pending:
        draft.pending.remove(submitted)
    links = max(run.programs, len(run.links))
    first = run.links[0].source if run.links else submitted or ran
    handover = HandoverChain(links, first, run.links) if links > 1 else None
    return Program(
        agent_id=agent,
        turn=turn,
        submission=run.submission,
        ok=run.ok,
        source=ran or submitted or "",
        program_id=run.program_id,
        error=run.error,
        error_type=run.error_type,
        duration_ms=run.duration_ms,
        api_calls=run.api_calls,
        handover=handover,
    )


def _keep(book: AgentPrograms, turn: int, record: Mapping[str, Any]) -> None:
    program_id = str(record.get("programId", ""))
    known = book.entries.get(program_id)
    book.entries[program_id] = LibraryEntrySeen(
        program_id=program_id,
        turn=known.turn if known else turn,
        lines=int_of(record.get("lines")),
        chars=int_of(record.get("chars")),
        ok=bool(record.get("ok")),
        error=record.get("error") if isinstance(record.get("error"), str) else None,
    )
    if known is None:
        _grow(book, turn, kept=program_id)


def _drop(book: AgentPrograms, turn: int, program_id: str) -> None:
    known = book.entries.get(program_id)
    if known is not None:
        book.entries[program_id] = replace(known, dropped_turn=turn)
    _grow(book, turn, dropped=program_id)


def _grow(book: AgentPrograms, turn: int, *, kept: str | None = None, dropped: str | None = None) -> None:
    size = (book.grew[-1].size if book.grew else 0) + (1 if kept else 0) - (1 if dropped else 0)
    last = book.grew[-1] if book.grew and book.grew[-1].turn == turn else None
    entry = Growth(
        turn,
        (last.kept if last else ()) + ((kept,) if kept else ()),
        (last.dropped if last else ()) + ((dropped,) if dropped else ()),
        size,
    )
    if last is None:
        book.grew.append(entry)
    else:
        book.grew[-1] = entry


def _with_handovers(book: AgentPrograms) -> AgentPrograms:
    """Each hand-over's fetched program, found by the failed library id its first link quotes."""
    sources: dict[str | None, Program] = {p.program_id: p for p in book.programs if p.program_id}
    for index, program in enumerate(book.programs):
        handover = program.handover
        if handover is None:
            continue
        fetched = _fetched(handover.submitted, program, book, sources)
        if fetched is None:
            continue
        diff = difflib.unified_diff(
            lines(fetched.source),
            lines(program.source),
            fromfile=f"{fetched.program_id} (failed, turn {fetched.turn})",
            tofile=f"{program.program_id or 'handed over'} (ran, turn {program.turn})",
            lineterm="",
            n=DIFF_CONTEXT_LINES,
        )
        book.programs[index] = replace(
            program,
            handover=replace(
                handover, fetched_id=fetched.program_id, fetched_error=fetched.error, diff=tuple(diff)
            ),
        )
    return book


def _fetched(
    submitted: str, program: Program, book: AgentPrograms, sources: Mapping[str | None, Program]
) -> Program | None:
    for program_id, entry in book.entries.items():
        candidate = sources.get(program_id)
        if entry.ok or candidate is None or candidate is program or candidate.turn > program.turn:
            continue
        if f'"{program_id}"' in submitted or f"'{program_id}'" in submitted:
            return candidate
    return None


@dataclass(frozen=True)
class LibraryFigures:
    kept: int
    failed: int
    dropped: int
    chars: int


def library_figures(book: AgentPrograms) -> LibraryFigures:
    """The figures a library's header shows."""
    kept = book.kept()
    return LibraryFigures(
        kept=len(kept),
        failed=sum(1 for entry in kept if not entry.ok),
        dropped=sum(1 for entry in book.entries.values() if entry.dropped_turn is not None),
        chars=sum(entry.chars for entry in kept),
    )


@dataclass(frozen=True)
class TakenOver:
    """The library an instance started with: `giver`'s, as it stood after turn `turn`."""

    giver: str
    turn: int
    relation: str  # fork | exec | fsm
    entries: tuple[LibraryEntrySeen, ...]


def held_after(book: AgentPrograms, turn: int) -> tuple[LibraryEntrySeen, ...]:
    """`book`'s library once turn `turn` ended: kept by then, not dropped by then."""
    return tuple(
        entry
        for entry in book.entries.values()
        if entry.turn <= turn and (entry.dropped_turn is None or entry.dropped_turn > turn)
    )


def taken_over(
    giver: AgentPrograms | None, turn: int, relation: str, *, keeps_library: bool
) -> TakenOver | None:
    """What a fork or a successor that keeps a library started with (None: nothing to take)."""
    if giver is None or not keeps_library:
        return None
    entries = held_after(giver, turn)
    return TakenOver(giver.agent_id, turn, relation, entries) if entries else None
