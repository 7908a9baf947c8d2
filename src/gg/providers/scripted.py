"""A model client for tests: replies from a list, or from a function of the request.

A list item is a `Reply` to return or a `ModelError` to raise; a request past the end of the
list raises `JournalExhausted`. A function is called as `script(request, index)`, `index`
counting model calls from 0. Every request is kept in `requests`, so a test can assert how often
the model was asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gg.providers.base import SUBMIT_PROGRAM, ModelError, Reply, Request, ToolCall, Usage
from gg.providers.replay import JournalExhausted

Script = Sequence[Reply | ModelError] | Callable[[Request, int], Reply]


class ScriptedClient:
    def __init__(self, script: Script, *, model_id: str = "scripted") -> None:
        self._script = script
        self._model_id = model_id
        self.requests: list[Request] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def calls(self) -> int:
        return len(self.requests)

    def complete(self, request: Request) -> Reply:
        index = len(self.requests)
        self.requests.append(request)
        if callable(self._script):
            return self._script(request, index)
        if index >= len(self._script):
            raise JournalExhausted(len(self._script), "script")
        item = self._script[index]
        if isinstance(item, ModelError):
            raise item
        return item


def program_reply(*programs: str, text: str = "", turn: int = 1, usage: Usage | None = None) -> Reply:
    """A reply making one `submit_program` call per program; call ids are `call_<turn>_<n>`."""
    calls = tuple(
        ToolCall(f"call_{turn}_{n}", SUBMIT_PROGRAM, {"program": p}) for n, p in enumerate(programs, 1)
    )
    return Reply(text, calls, usage or Usage(0, 0), "scripted")
