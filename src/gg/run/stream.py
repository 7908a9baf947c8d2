"""One agent's view of the run's telemetry: events stamped with its id and current turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from gg.errors import ApiError
from gg.telemetry.events import ApiCall, ApiResult, Log, LogLevel, Payload, ProgramLog


class Emit(Protocol):
    def __call__(self, agent_id: str, turn: int, payload: Payload) -> Any: ...


class AgentStream:
    """Emits for one agent; also the membrane's `CallLog` (api_call / api_result)."""

    def __init__(self, emit: Emit, agent_id: str, run_id: str) -> None:
        self._emit = emit
        self.agent_id = agent_id
        self.run_id = run_id
        self.turn = 0

    def emit(self, payload: Payload) -> None:
        self._emit(self.agent_id, self.turn, payload)

    def log(self, level: LogLevel, message: str, **fields: Any) -> None:
        self.emit(Log(level=level.value, message=message, fields=fields))

    def warn(self, message: str, **fields: Any) -> None:
        self.log(LogLevel.WARN, message, **fields)

    def log_info(self, message: str, **fields: Any) -> None:
        self.log(LogLevel.INFO, message, **fields)

    def call_started(self, operation: str, ordinal: int) -> None:
        self.emit(ApiCall(operation=operation, ordinal=ordinal))

    def call_ended(self, operation: str, ordinal: int, failure: ApiError | None) -> None:
        text = None if failure is None else f"{failure.code.value}: {failure.message}"[:512]
        self.emit(ApiResult(operation=operation, ordinal=ordinal, ok=failure is None, failure=text))

    def program_logged(self, lines: Sequence[str], dropped: int) -> None:
        self.emit(ProgramLog(lines=list(lines), dropped=dropped or None))
