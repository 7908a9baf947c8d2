"""Time as telemetry writes it, and the run id minted from it.

- A `Clock` returns an aware `datetime`; `utc_now` is the production clock.
- Timestamps on the wire are ISO 8601 in UTC with milliseconds and a `Z` (`2026-11-29T20:32:33.120Z`).
- A run id is `run-YYYYMMDD-HHMMSS-xxxxxxxx` (UTC start second plus 8 random hex digits, from the
  operating system's CSPRNG): never the same twice from one process (a draw it handed out already
  in that second is drawn again), and unique across the runs of every machine writing one store
  (two processes each starting a thousand runs in the same second share an id with odds near 1 in
  4,000; no shared counter is needed); sorting by id sorts by start time to the second.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
Entropy = Callable[[int], str]

RUN_ID_PREFIX = "run-"
ID_RANDOM_BYTES = 4  # the random end of a run's or a study's id: 8 hex digits, unique across machines


def utc_now() -> datetime:
    """The production clock."""
    return datetime.now(UTC)


def format_timestamp(moment: datetime) -> str:
    """`2026-11-29T20:32:33.120Z`; a naive datetime is taken to be UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    text = moment.astimezone(UTC).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


def parse_timestamp(text: str) -> datetime | None:
    """The inverse of `format_timestamp`; None for text that is not a timestamp."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class _Issued:
    """The run ids this process handed out in the latest second it minted one in."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.second = ""
        self.ids: set[str] = set()


_ISSUED = _Issued()


def new_run_id(clock: Clock = utc_now, entropy: Entropy = secrets.token_hex) -> str:
    """`run-20261129-203233-ab12cd34`: sortable by start time, unique with 8 random hex digits."""
    second = f"{RUN_ID_PREFIX}{clock().astimezone(UTC):%Y%m%d-%H%M%S}-"
    with _ISSUED.lock:
        if second != _ISSUED.second:
            _ISSUED.second, _ISSUED.ids = second, set()
        while (run_id := second + entropy(ID_RANDOM_BYTES)) in _ISSUED.ids:
            continue
        _ISSUED.ids.add(run_id)
    return run_id
