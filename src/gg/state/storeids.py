"""The run's store ids (seed 003, "Store identity"): `<kind>-<n>`, one counter per kind per run
from 0, so the ids are the same for the same sequence of spawns (`history-0`, `history-1`,
`board-0`). The id belongs to the store: a share keeps it, a fork mints one, a transfer carries it.
Minting is safe from several agent threads."""

from __future__ import annotations

import threading
from collections import Counter


class StoreIds:
    def __init__(self) -> None:
        self._next = Counter[str]()
        self._lock = threading.Lock()

    def mint(self, kind: str) -> str:
        """The next id of `kind` (a module kind's wire name)."""
        with self._lock:
            number = self._next[kind]
            self._next[kind] += 1
            return f"{kind}-{number}"
