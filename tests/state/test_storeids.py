"""Store ids (seed 003): `<kind>-<n>`, one counter per kind per run, from 0."""

from __future__ import annotations

from gg.state.storeids import StoreIds


def test_each_kind_counts_from_zero_on_its_own() -> None:
    ids = StoreIds()
    minted = [ids.mint(kind) for kind in ("history", "history", "board", "memories", "history", "memories")]
    assert minted == ["history-0", "history-1", "board-0", "memories-0", "history-2", "memories-1"]


def test_two_runs_mint_the_same_ids_for_the_same_sequence() -> None:
    first, second = StoreIds(), StoreIds()
    sequence = ("tasks", "tasks", "skills")
    assert [first.mint(k) for k in sequence] == [second.mint(k) for k in sequence]
