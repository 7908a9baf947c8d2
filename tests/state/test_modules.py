"""The module framework (seed 003): one slot per kind in kind order, store ids per kind, the fork
plan and the two transfer plans, and what each did to each kind (anchor-state §2-§4's worked
examples, on the kinds gg holds today: history, skills and archive; the other three absent)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Self

import pytest

from gg.config.kinds import KIND_ORDER, Disposition, ModuleKind, Origin
from gg.errors import GgDefect
from gg.providers.base import Message
from gg.state.archive import ArchiveModule
from gg.state.dispositions import PlanStep, Row, exec_carries, fork_dispositions, transfer_steps
from gg.state.holdings import MODULE_CLASSES
from gg.state.module import Holder, Incompatible, Module
from gg.state.modules import ModuleSet
from gg.state.skills import SkillShelf, SkillsModule
from gg.state.storeids import StoreIds
from gg.state.window import Window

H, M, T, B, S, A = KIND_ORDER
PLAIN = Holder(frozenset())


def _shelf(tmp_path: Path) -> SkillShelf:
    for name, description in (("guide", "how the gearbox goes"), ("torque", "the bolts' order")):
        (tmp_path / name).mkdir(parents=True, exist_ok=True)
        (tmp_path / name / "skill.md").write_text(f"---\ndescription: {description}\n---\nbody of {name}\n")
    return SkillShelf(tmp_path, ("js",))


def _skilled(tmp_path: Path) -> Holder:
    return Holder(frozenset({"skills"}), _shelf(tmp_path))


def _rows(rows: list[Row]) -> list[tuple[str, str, str | None, str | None]]:
    return [(r.kind.value, r.disposition.value, r.source, r.target) for r in rows]


def test_the_kinds_are_six_in_one_order() -> None:
    assert [kind.value for kind in KIND_ORDER] == [
        "history",
        "memories",
        "tasks",
        "board",
        "skills",
        "archive",
    ]


def test_a_roster_has_one_row_per_kind_ids_only_where_there_is_a_store(tmp_path: Path) -> None:
    modules = ModuleSet.open(_skilled(tmp_path), StoreIds(), MODULE_CLASSES)
    assert modules.roster() == [
        {"kind": "history", "moduleId": "history-0", "enabled": True, "origin": "created", "writable": True},
        {"kind": "memories", "moduleId": "", "enabled": False, "writable": False},
        {"kind": "tasks", "moduleId": "", "enabled": False, "writable": False},
        {"kind": "board", "moduleId": "", "enabled": False, "writable": False},
        {"kind": "skills", "moduleId": "skills-0", "enabled": True, "origin": "created", "writable": True},
        {"kind": "archive", "moduleId": "", "enabled": False, "writable": False},
    ]


def test_a_kind_the_profile_does_not_enable_mints_nothing() -> None:
    ids = StoreIds()
    ModuleSet.open(PLAIN, ids, MODULE_CLASSES)
    assert ids.mint("skills") == "skills-0" and ids.mint("history") == "history-1"


def test_a_kind_whose_module_the_set_does_not_know_is_absent_even_when_enabled() -> None:
    modules = ModuleSet.open(Holder(frozenset({"tasks"})), StoreIds(), {H: MODULE_CLASSES[H]})
    assert modules.held() == {H}


def test_the_fork_worked_example_copies_every_held_kind_under_a_new_id(tmp_path: Path) -> None:
    ids = StoreIds()
    root = ModuleSet.open(_skilled(tmp_path), ids, MODULE_CLASSES)
    copy, rows = root.fork(ids)
    assert _rows(rows) == [
        ("history", "copied", "history-0", "history-1"),
        ("memories", "absent", None, None),
        ("tasks", "absent", None, None),
        ("board", "absent", None, None),
        ("skills", "copied", "skills-0", "skills-1"),
        ("archive", "absent", None, None),
    ]
    assert [(r["moduleId"], r.get("origin")) for r in copy.roster() if r["enabled"]] == [
        ("history-1", "forked"),
        ("skills-1", "forked"),
    ]


def test_the_fork_decider_links_only_what_links_on_fork() -> None:
    decided = fork_dispositions({H: False, M: True, B: True, S: False})
    assert list(decided.values()) == [
        Disposition.COPIED,
        Disposition.LINKED,
        Disposition.ABSENT,
        Disposition.LINKED,
        Disposition.COPIED,
        Disposition.ABSENT,
    ]


def test_a_forked_copy_diverges_from_its_original(tmp_path: Path) -> None:
    ids = StoreIds()
    root = ModuleSet.open(_skilled(tmp_path), ids, MODULE_CLASSES)
    copy, _ = root.fork(ids)
    original_skills, copied_skills = root.get(S), copy.get(S)
    assert isinstance(original_skills, SkillsModule) and isinstance(copied_skills, SkillsModule)
    copied_skills.reads.record("guide")
    assert original_skills.reads.names == () and copied_skills.catalogue is original_skills.catalogue


def test_an_exec_carries_every_kind_both_sides_have() -> None:
    assert exec_carries(frozenset({H, S}), frozenset({H, M})) == {H}


def test_the_transfer_decider_carries_drops_and_initializes() -> None:
    steps = transfer_steps(held=frozenset({H, T}), receiving=frozenset({H, M}), carried=frozenset({H, T}))
    assert list(steps.values()) == [
        PlanStep.CARRY,
        PlanStep.INITIALIZE,
        PlanStep.DROP,
        PlanStep.ABSENT,
        PlanStep.ABSENT,
        PlanStep.ABSENT,
    ]


def test_a_plan_carrying_a_kind_not_held_is_ggs_own_defect() -> None:
    with pytest.raises(GgDefect, match="tasks"):
        transfer_steps(held=frozenset({H}), receiving=frozenset({H, T}), carried=frozenset({H, T}))


def test_an_exec_into_a_profile_without_skills_drops_them_and_keeps_the_window(tmp_path: Path) -> None:
    ids = StoreIds()
    root = ModuleSet.open(_skilled(tmp_path), ids, MODULE_CLASSES)
    moved = root.transfer(PLAIN, exec_carries(root.held(), frozenset({H})), ids)
    assert _rows(moved.rows)[0] == ("history", "carried", "history-0", "history-0")
    assert _rows(moved.rows)[4] == ("skills", "dropped", "skills-0", None)
    assert moved.modules.held() == {H} and moved.modules.slot(H).origin is Origin.TRANSFERRED
    assert moved.modules.get(H) is not root.get(H)


def test_a_successor_gaining_skills_starts_them_fresh(tmp_path: Path) -> None:
    ids = StoreIds()
    root = ModuleSet.open(PLAIN, ids, MODULE_CLASSES)
    moved = root.transfer(_skilled(tmp_path), frozenset({H}), ids)
    assert _rows(moved.rows)[4] == ("skills", "initialized", None, "skills-0")
    assert moved.modules.slot(S).origin is Origin.CREATED


def test_an_edge_that_carries_nothing_starts_every_kind_fresh(tmp_path: Path) -> None:
    ids = StoreIds()
    root = ModuleSet.open(_skilled(tmp_path), ids, MODULE_CLASSES)
    moved = root.transfer(_skilled(tmp_path), frozenset(), ids)
    assert _rows(moved.rows)[0] == ("history", "initialized", "history-0", "history-1")
    assert _rows(moved.rows)[4] == ("skills", "initialized", "skills-0", "skills-1")


def test_skills_carried_take_the_receiving_catalogue_and_keep_the_read_set(tmp_path: Path) -> None:
    ids = StoreIds()
    root = ModuleSet.open(_skilled(tmp_path / "a"), ids, MODULE_CLASSES)
    skills = root.get(S)
    assert isinstance(skills, SkillsModule)
    skills.reads.record("guide")
    receiving = _skilled(tmp_path / "b")
    moved = root.transfer(receiving, frozenset({H, S}), ids)
    carried = moved.modules.get(S)
    assert isinstance(carried, SkillsModule) and carried.catalogue is receiving.catalogue
    assert carried.reads.names == ("guide",) and moved.modules.slot(S).module_id == "skills-0"


@dataclass
class _Linked(Module):
    kind: ClassVar[ModuleKind] = ModuleKind.BOARD
    shared_origin: ClassVar[Origin] = Origin.RUN
    strict: bool = False

    @classmethod
    def fresh(cls, holder: Holder) -> Self:
        return cls(strict="tight" in holder.capabilities)

    def copy(self) -> Self:
        return type(self)(self.strict)

    def links_on_fork(self) -> bool:
        return True

    def adopt(self, holder: Holder) -> Module | Incompatible:
        if "tight" in holder.capabilities and not self.strict:
            return Incompatible("the board was kept loosely; this agent keeps it tight")
        return self


CLASSES = {**MODULE_CLASSES, ModuleKind.BOARD: _Linked}
WITH_BOARD = Holder(frozenset({"project-management"}))


def test_a_store_that_links_on_fork_is_shared_under_its_own_id() -> None:
    ids = StoreIds()
    root = ModuleSet.open(WITH_BOARD, ids, CLASSES)
    copy, rows = root.fork(ids)
    assert _rows(rows)[3] == ("board", "linked", "board-0", "board-0")
    assert copy.get(B) is root.get(B) and copy.slot(B).origin is Origin.RUN


def test_a_carried_module_the_receiving_profile_cannot_read_is_started_fresh_with_a_reason() -> None:
    ids = StoreIds()
    root = ModuleSet.open(WITH_BOARD, ids, CLASSES)
    moved = root.transfer(Holder(frozenset({"project-management", "tight"})), frozenset({H, B}), ids)
    assert _rows(moved.rows)[3] == ("board", "initialized", "board-0", "board-1")
    assert moved.reasons == ["the board was kept loosely; this agent keeps it tight"]


def test_skills_report_their_catalogue_on_arrival_and_after_each_fresh_read(tmp_path: Path) -> None:
    modules = ModuleSet.open(_skilled(tmp_path), StoreIds(), MODULE_CLASSES)
    (opening,) = modules.restate()
    assert opening.to_wire() == {
        "moduleId": "skills-0",
        "skills": [
            {"name": "guide", "description": "how the gearbox goes", "read": False},
            {"name": "torque", "description": "the bolts' order", "read": False},
        ],
    }
    assert modules.drain() == []
    skills = modules.get(S)
    assert isinstance(skills, SkillsModule)
    skills.reads.record("guide")
    (after,) = modules.drain()
    assert after.to_wire()["skills"][0]["read"] is True
    skills.reads.record("guide")
    assert modules.drain() == []


def test_a_fork_copy_reports_nothing_its_original_had_not_drained_yet(tmp_path: Path) -> None:
    ids = StoreIds()
    root = ModuleSet.open(_skilled(tmp_path), ids, MODULE_CLASSES)
    root.restate()
    skills = root.get(S)
    assert isinstance(skills, SkillsModule)
    skills.reads.record("torque")
    copy, _ = root.fork(ids)
    assert copy.drain() == [] and len(root.drain()) == 1


def test_a_catalogue_with_no_skills_reports_no_snapshot(tmp_path: Path) -> None:
    empty = Holder(frozenset({"skills"}), SkillShelf(tmp_path, ("js",)))
    assert ModuleSet.open(empty, StoreIds(), MODULE_CLASSES).restate() == []


MANAGED = Holder(frozenset({"agent-managed-context"}))


def _archive_of(modules: ModuleSet) -> ArchiveModule:
    archive = modules.get(A)
    assert isinstance(archive, ArchiveModule)
    return archive


def _turns(*results: str) -> Window:
    window = Window(system="s")
    for turn, result in enumerate(results, start=1):
        window.begin_turn(turn)
        window.push(Message("assistant", f"reply {turn}"))
        window.push(Message("user", result))
    window.begin_turn(len(results) + 1)
    return window


def test_agent_managed_context_holds_an_archive_under_its_own_store_id_and_opens_it_empty() -> None:
    modules = ModuleSet.open(MANAGED, StoreIds(), MODULE_CLASSES)
    assert modules.roster()[5] == {
        "kind": "archive",
        "moduleId": "archive-0",
        "enabled": True,
        "origin": "created",
        "writable": True,
    }
    assert [event.to_wire() for event in modules.restate()] == [
        {"moduleId": "archive-0", "entries": [], "count": 0, "totalLen": 0}
    ]


def test_a_fork_of_an_archive_holding_0_to_4_copies_it_and_both_hand_out_5_next() -> None:
    ids = StoreIds()
    root = ModuleSet.open(MANAGED, ids, MODULE_CLASSES)
    _archive_of(root).archive_thread(_turns(*[f"result {n}" for n in range(5)]), [(1, 5)])
    copy, rows = root.fork(ids)
    assert _rows(rows)[5] == ("archive", "copied", "archive-0", "archive-1")
    assert copy.slot(A).origin is Origin.FORKED
    for modules, text in ((copy, "the copy's"), (root, "the original's")):
        _archive_of(modules).archive_thread(_turns(text), [(1, 1)])
    assert [(e.seq, e.text) for e in _archive_of(copy).archive.entries][-1] == (5, "the copy's")
    assert [(e.seq, e.text) for e in _archive_of(root).archive.entries][-1] == (5, "the original's")
    assert [event.to_wire()["moduleId"] for event in copy.drain() if "moduleId" in event.to_wire()] == [
        "archive-1"
    ]


def test_an_exec_carries_the_archive_under_its_id_or_drops_it_for_a_profile_without_it() -> None:
    ids = StoreIds()
    root = ModuleSet.open(MANAGED, ids, MODULE_CLASSES)
    kept = root.transfer(MANAGED, exec_carries(root.held(), frozenset({H, A})), ids)
    assert _rows(kept.rows)[5] == ("archive", "carried", "archive-0", "archive-0")
    assert kept.modules.get(A) is root.get(A)
    dropped = root.transfer(PLAIN, exec_carries(root.held(), frozenset({H})), ids)
    assert _rows(dropped.rows)[5] == ("archive", "dropped", "archive-0", None)
