"""The program library: ids, retention, fetches, forks and successions (seed 000)."""

from __future__ import annotations

import re
from itertools import cycle

import pytest

from gg.errors import FatalFault, GgDefect
from gg.state.library import LibraryEntry, ProgramLibrary


def _entry(program_id: str, turn: int = 1, source: str = "x", ok: bool = True) -> LibraryEntry:
    return LibraryEntry(program_id, turn, source, ok)


def test_an_id_is_a_cuid2_of_the_configured_length() -> None:
    for length in (2, 4, 32):
        program_id = ProgramLibrary(keep=20, id_length=length).mint()
        assert re.fullmatch(rf"[a-z][a-z0-9]{{{length - 1}}}", program_id)


def test_ids_are_never_reissued_even_after_retention_drops_their_program() -> None:
    candidates = iter(["aaaa", "aaaa", "bbbb", "aaaa", "bbbb", "cccc"])
    library = ProgramLibrary(keep=1, id_length=4, minter=lambda length: next(candidates))
    first = library.mint()
    library.record(_entry(first))
    second = library.mint()
    assert library.record(_entry(second)) == [first]
    assert library.mint() == "cccc"  # "aaaa" (dropped) and "bbbb" (held) are both spent


def test_minting_gives_up_after_sixteen_collisions_as_gg_own_defect() -> None:
    attempts: list[int] = []

    def always_the_same(length: int) -> str:
        attempts.append(length)
        return "abcd"

    library = ProgramLibrary(keep=20, id_length=4, minter=always_the_same)
    library.mint()
    attempts.clear()
    with pytest.raises(GgDefect) as defect:
        library.mint()
    assert defect.value.fault is FatalFault.HOST_FAULT
    assert len(attempts) == 16


def test_a_recorded_receipt_is_reused_when_fresh_and_well_formed() -> None:
    fresh = iter(["zzzz", "yyyy"])
    library = ProgramLibrary(keep=20, id_length=4, minter=lambda n: next(fresh))
    assert library.mint("k3p9") == "k3p9"
    assert library.mint("k3p9") == "zzzz"  # already issued: a fresh id instead
    assert library.mint("TOO-LONG") == "yyyy"


def test_retention_keeps_the_most_recent_programs_and_zero_keeps_all() -> None:
    library = ProgramLibrary(keep=2, id_length=4)
    dropped = [library.record(_entry(program_id)) for program_id in ("aaaa", "bbbb", "cccc")]
    assert dropped == [[], [], ["aaaa"]]
    assert [e.id for e in library.entries] == ["bbbb", "cccc"]
    everything = ProgramLibrary(keep=0, id_length=4)
    for n in range(50):
        everything.record(_entry(f"a{n:03d}"))
    assert len(everything.entries) == 50


def test_a_hand_over_keeps_the_submission_id_and_replaces_the_source() -> None:
    library = ProgramLibrary(keep=20, id_length=4)
    library.record(_entry("aaaa", source="cosnt x = 1;", ok=False))
    library.record(_entry("aaaa", source="const x = 1;", ok=True))
    held = library.get("aaaa")
    assert held is not None and held.source == "const x = 1;" and held.ok
    assert len(library.entries) == 1


def test_an_entry_counts_its_lines_and_characters() -> None:
    entry = _entry("aaaa", source="const x = 1;\nconsole.log(x);")
    assert (entry.lines, entry.chars) == (2, 28)


def test_a_fork_is_independent_of_its_original() -> None:
    original = ProgramLibrary(keep=20, id_length=4, minter=lambda n: next(ids))
    ids = cycle(["aaaa", "bbbb", "cccc"])
    original.record(_entry(original.mint()))
    copy = original.fork()
    copy.record(_entry(copy.mint()))
    assert [e.id for e in original.entries] == ["aaaa"]
    assert [e.id for e in copy.entries] == ["aaaa", "bbbb"]
    assert "bbbb" not in original.issued


def test_a_successor_adopts_entries_and_issued_ids_truncated_to_its_own_keep() -> None:
    library = ProgramLibrary(keep=0, id_length=4)
    for program_id in ("aaaa", "bbbb", "cccc"):
        library.issued.add(program_id)
        library.record(_entry(program_id))
    successor = library.adopted_by(keep=2, id_length=6)
    assert [e.id for e in successor.entries] == ["bbbb", "cccc"]
    assert successor.issued == {"aaaa", "bbbb", "cccc"}
    assert successor.id_length == 6
