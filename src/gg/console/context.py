"""What each band costs an agent's window, turn by turn. Pure.

Rules:
- Where the run reported a `context_breakdown` for a turn, its bands are shown as reported, in
  the unit it states (`tokens` or `chars`), and marked measured.
- Otherwise the bands are estimated from the window the turn's request sent, in characters:
  the system prompt, the task (a thread's first message), the model's replies (their text and
  calls), the receipts, the views and gg's feedback (the turn outcomes' feedback texts).
- A band a turn did not report is absent, never zero: zero is a measurement.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gg.console.vocabulary import AgentEvent
from gg.console.window import AgentWindow
from gg.record.envelope import records_of
from gg.record.records import RecordedMessage, dict_of, list_of

TOKENS = "tokens"
CHARS = "chars"
ESTIMATED_BANDS = ("System", "Task", "Replies", "Receipts", "Views", "Feedback")


@dataclass(frozen=True)
class BandShare:
    name: str
    size: float


@dataclass(frozen=True)
class ContextTurn:
    turn: int
    bands: tuple[BandShare, ...]
    unit: str
    measured: bool
    limit: float | None = None

    @property
    def total(self) -> float:
        return sum(band.size for band in self.bands)

    def band(self, name: str) -> float | None:
        return next((band.size for band in self.bands if band.name == name), None)


def reported_breakdowns(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[int, ContextTurn]]:
    """Every `context_breakdown`, per agent and turn (a turn's last report stands)."""
    out: dict[str, dict[int, ContextTurn]] = {}
    for record in records_of(records):
        if record.type != AgentEvent.CONTEXT_BREAKDOWN:
            continue
        out.setdefault(record.agent_id, {})[record.turn] = read_breakdown(record.turn, record)
    return out


def read_breakdown(turn: int, record: Mapping[str, Any]) -> ContextTurn:
    unit = str(record.get("unit") or "")
    raw = record.get("bands")
    bands: list[BandShare] = []
    if isinstance(raw, Mapping):
        bands = [BandShare(str(k), float(v)) for k, v in raw.items() if isinstance(v, int | float)]
    for item in list_of(raw):
        band = dict_of(item)
        name = str(band.get("band") or band.get("name") or band.get("source") or "")
        for key in (TOKENS, CHARS):
            if isinstance(band.get(key), int | float):
                bands.append(BandShare(name, float(band[key])))
                unit = unit or key
                break
    limit = next(
        (record[k] for k in ("windowLimit", "window", "limit") if isinstance(record.get(k), int | float)),
        None,
    )
    return ContextTurn(turn, tuple(bands), unit or TOKENS, True, float(limit) if limit is not None else None)


def estimated_turns(window: AgentWindow, feedback: Iterable[str]) -> dict[int, ContextTurn]:
    """Each request's window measured in characters, band by band (one pass over the log)."""
    known_feedback = set(feedback)
    starts = {request.start for request in window.requests}
    totals = {name: [0.0] for name in ESTIMATED_BANDS}  # running sums over the log, per band
    for position, message in enumerate(window.log):
        band = _band_of(message, position in starts, known_feedback)
        size = _chars(message)
        for name, running in totals.items():
            running.append(running[-1] + (size if name == band else 0.0))
    out: dict[int, ContextTurn] = {}
    for request in window.requests:
        sizes = {name: running[request.end] - running[request.start] for name, running in totals.items()}
        sizes["System"] = float(len(window.systems[request.system])) if request.system >= 0 else 0.0
        bands = tuple(BandShare(name, sizes[name]) for name in ESTIMATED_BANDS if sizes[name])
        out[request.turn] = ContextTurn(request.turn, bands, CHARS, False)
    return out


def _band_of(message: RecordedMessage, opens_thread: bool, feedback: set[str]) -> str:
    if message.role == "assistant":
        return "Replies"
    if message.role == "tool":
        return "Receipts"
    if opens_thread:
        return "Task"
    return "Feedback" if message.content in feedback else "Views"


def _chars(message: RecordedMessage) -> float:
    calls = sum(len(json.dumps(call.get("arguments", ""), ensure_ascii=False)) for call in message.tool_calls)
    return float(len(message.content) + calls)
