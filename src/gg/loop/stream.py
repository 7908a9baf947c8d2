"""One agent's view of the run's telemetry: events stamped with its id, its parent's and its current
turn. A stream the run has sealed (an agent it recorded as stopped) emits nothing more."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

from gg.errors import OperationError
from gg.telemetry.events import ApiCall, ApiResult, Log, LogLevel, Payload, ProgramLog


class Emit(Protocol):
    def __call__(
        self, agent_id: str, turn: int, payload: Payload, parent_agent_id: str | None = None
    ) -> Any: ...


class AgentStream:
    """Emits for one agent; also the membrane's `CallLog` (api_call / api_result)."""

    def __init__(self, emit: Emit, agent_id: str, run_id: str, parent_id: str | None = None) -> None:
        self._emit = emit
        self.agent_id = agent_id
        self.parent_id = parent_id
        self.run_id = run_id
        self.turn = 0
        self._sealed = False
        self._lock = threading.Lock()

    def emit(self, payload: Payload) -> None:
        with self._lock:
            if not self._sealed:
                self._emit(self.agent_id, self.turn, payload, self.parent_id)

    def seal_with(self, last: Payload) -> bool:
        """Emit `last`, then nothing more (the run recording an agent's end itself); False when
        the stream was already sealed."""
        with self._lock:
            if self._sealed:
                return False
            self._emit(self.agent_id, self.turn, last, self.parent_id)
            self._sealed = True
            return True

    def log(self, level: LogLevel, message: str, **fields: Any) -> None:
        self.emit(Log(level=level.value, message=message, fields=fields))

    def warn(self, message: str, **fields: Any) -> None:
        self.log(LogLevel.WARN, message, **fields)

    def log_info(self, message: str, **fields: Any) -> None:
        self.log(LogLevel.INFO, message, **fields)

    def call_started(self, operation: str, ordinal: int) -> None:
        self.emit(ApiCall(operation=operation, ordinal=ordinal))

    def call_ended(self, operation: str, ordinal: int, failure: OperationError | None) -> None:
        text = None if failure is None else f"{failure.code.value}: {failure.message}"[:512]
        self.emit(ApiResult(operation=operation, ordinal=ordinal, ok=failure is None, failure=text))

    def program_logged(self, lines: Sequence[str], dropped: int) -> None:
        self.emit(ProgramLog(lines=list(lines), dropped=dropped or None))
