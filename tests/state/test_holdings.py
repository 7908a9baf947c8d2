"""What an agent holds, copied by a fork and taken over by a successor (seed 000 "Across a
succession"; seed 003 "Copying", "Transfer")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gg.config import parse_capability_set
from gg.config.kinds import ModuleKind
from gg.loop.setup import AgentSetup, RunGround, resolve_setup
from gg.providers.base import Message
from gg.sdk.catalogue import default_registry
from gg.state.holdings import Holdings, Plan, adopt_library
from gg.state.library import LibraryEntry, ProgramLibrary
from gg.state.storeids import StoreIds

CSV = "export function parse(text) { return []; }\n"


def _setup(tmp_path: Path, *, library: dict[str, int] | None = None, skills: bool = False) -> AgentSetup:
    tmp_path.mkdir(parents=True, exist_ok=True)
    journal = tmp_path / "journal.jsonl"
    journal.touch()
    capabilities: list[dict[str, Any]] = [{"id": "responses-as-code", "params": {"language": "javascript"}}]
    if library is not None:
        capabilities.append({"id": "program-library", "params": library})
    if skills:
        (tmp_path / "skills").mkdir(exist_ok=True)
        capabilities.append({"id": "skills", "params": {"dir": "skills", "builtIns": {}}})
    agent = {
        "slug": "root",
        "model": {"provider": "replay", "journal": str(journal)},
        "capabilities": capabilities,
    }
    document = {"name": "holdings", "workspace": ".", "agents": [agent]}
    capability_set = parse_capability_set(document, tmp_path)
    ground = RunGround(capability_set.limits, default_registry(), tmp_path)
    return resolve_setup(capability_set.root, ground)


def _ids() -> Any:
    counter = iter(f"p{n:03d}" for n in range(1000))
    return lambda length: next(counter)


def _holdings(setup: AgentSetup, programs: int = 0, ids: StoreIds | None = None) -> Holdings:
    library = None
    if setup.library is not None:
        library = ProgramLibrary(setup.library.keep, setup.library.id_length, _ids())
        for turn in range(1, programs + 1):
            library.record(LibraryEntry(library.mint(), turn, f"program {turn}", True))
    holdings = Holdings.open(setup.holder, setup.grant.open(), library, ids or StoreIds())
    holdings.window.system = "the root's own prompt"
    holdings.window.brief(Message("user", "Task\n----\ncount"))
    holdings.views.open_text("notes", "abc")
    holdings.skills_read.record("csv-tools")
    return holdings


def _succeed(predecessor: Holdings, setup: AgentSetup, *kinds: ModuleKind) -> Holdings:
    plan = Plan(frozenset(kinds) or frozenset({ModuleKind.HISTORY}), StoreIds(), _ids())
    successor, _ = predecessor.transfer(setup.holder, setup.grant.open(), setup.library, plan)
    return successor


def test_a_fork_copies_every_part_and_the_copy_diverges(tmp_path: Path) -> None:
    original = _holdings(_setup(tmp_path, library={"keep": 20, "idLength": 4}, skills=True), programs=2)
    copy, _ = original.fork(StoreIds())
    assert copy.window.system is None and copy.window.messages == original.window.messages
    assert [v.selector for v in copy.views.current()] == ["notes"]
    assert copy.skills_read.names == ("csv-tools",)
    assert copy.library is not None and original.library is not None
    assert [e.id for e in copy.library.entries] == ["p000", "p001"]
    copy.library.record(LibraryEntry(copy.library.mint(), 3, "only in the copy", True))
    copy.window.push(Message("user", "only in the copy"))
    copy.skills_read.record("notes")
    assert len(original.library.entries) == 2 and "p002" not in original.library.issued
    assert len(original.window.messages) == 1 and original.skills_read.names == ("csv-tools",)


def test_a_fork_starts_with_nothing_loaded(tmp_path: Path) -> None:
    original = _holdings(_setup(tmp_path, skills=True))
    original.surface.load_module("csv-tools", CSV, "js", "CSV helpers.")
    copy, _ = original.fork(StoreIds())
    assert copy.surface.modules.current() == ()
    assert "lib:csvTools" not in [entry.key for entry in copy.surface.docs]
    assert copy.surface.skills is original.surface.skills


def test_a_successor_adopts_the_library_truncated_to_its_own_keep(tmp_path: Path) -> None:
    predecessor = _holdings(_setup(tmp_path / "a", library={"keep": 0, "idLength": 4}), programs=3)
    successor = _succeed(predecessor, _setup(tmp_path / "b", library={"keep": 2, "idLength": 6}))
    assert successor.library is not None
    assert [e.id for e in successor.library.entries] == ["p001", "p002"]
    assert successor.library.issued == {"p000", "p001", "p002"}  # never re-issued
    assert (successor.library.keep, successor.library.id_length) == (2, 6)


def test_a_successor_that_keeps_no_library_keeps_nothing(tmp_path: Path) -> None:
    predecessor = _holdings(_setup(tmp_path / "a", library={"keep": 20, "idLength": 4}), programs=2)
    assert _succeed(predecessor, _setup(tmp_path / "b")).library is None


def test_a_successor_keeping_a_library_its_predecessor_lacked_starts_one_empty(tmp_path: Path) -> None:
    successor = _succeed(
        _holdings(_setup(tmp_path / "a")), _setup(tmp_path / "b", library={"keep": 5, "idLength": 4})
    )
    assert successor.library is not None and successor.library.entries == []
    assert (successor.library.keep, successor.library.id_length) == (5, 4)
    assert successor.library.mint() == "p000"


def test_a_successor_takes_the_window_with_its_system_prompt_slot_empty(tmp_path: Path) -> None:
    predecessor = _holdings(_setup(tmp_path / "a"))
    successor = _succeed(predecessor, _setup(tmp_path / "b"))
    assert successor.window.system is None
    assert successor.window.messages == predecessor.window.messages
    assert successor.window.task == predecessor.window.task


def test_a_successor_reads_its_own_grant_with_nothing_loaded_and_keeps_the_read_set(tmp_path: Path) -> None:
    predecessor = _holdings(_setup(tmp_path / "a", skills=True))
    predecessor.surface.load_module("csv-tools", CSV, "js", "CSV helpers.")
    receiving = _setup(tmp_path / "b", skills=True)
    successor = _succeed(predecessor, receiving, ModuleKind.HISTORY, ModuleKind.SKILLS)
    assert successor.surface.modules.current() == () and successor.surface.skills is receiving.grant.skills
    assert [e.key for e in successor.surface.docs] == [e.key for e in receiving.grant.pages]
    assert successor.skills_read.names == ("csv-tools",)


def test_a_successor_without_skills_has_an_empty_read_set_of_its_own(tmp_path: Path) -> None:
    predecessor = _holdings(_setup(tmp_path / "a", skills=True))
    successor = _succeed(predecessor, _setup(tmp_path / "b"), ModuleKind.HISTORY, ModuleKind.SKILLS)
    assert successor.modules.get(ModuleKind.SKILLS) is None and successor.skills_read.names == ()
    assert "gg.skills.readSkill" not in [e.key for e in successor.surface.docs]


def test_adopting_no_library_into_a_profile_that_keeps_none_is_none() -> None:
    assert adopt_library(None, None, _ids()) is None
