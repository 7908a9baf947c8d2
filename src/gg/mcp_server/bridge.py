"""The model of a session `gg mcp serve` holds for one arm: each `run_program` call is the model's
next reply (one `submit_program` call carrying the program), and the call is answered with what
the turn's next request shows the model, read off that request itself, so nothing is rendered
twice.

Rules kept here:
- a call waits for the session's turn; the session asks for a reply at its first turn and after
  each turn, and each request after the first answers the call whose program the last turn ran:
  every message the request holds after the last reply (the call's receipt, the library id or
  `ok`; each view the turn opened; gg's feedback), in order, as they stand;
- when the session ends (its program finished it, a ceiling stopped it, its launch was refused),
  the call it was running, every call still waiting for it and every call handed to it later is
  answered with how it ended (a refused session's answer is an error); the next call starts a new
  session;
- closing the bridge ends the session where it waits for a call (`Ended`), recorded with why: the
  client closed the session, or what stopped the server (Ctrl-C, SIGTERM).
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass

from gg.agents.interruption import Ended
from gg.providers.base import SUBMIT_PROGRAM, Reply, Request, ToolCall, Usage

MODEL_ID = "mcp-client"
CLOSED = "ended: the MCP client closed the session"


@dataclass(frozen=True)
class CallReading:
    """What a call is answered with: the texts the turn's next request shows, in order, or how the
    session ended (`ended`, its status and last word)."""

    texts: tuple[str, ...]
    ended: bool = False
    refused: bool = False


class Bridge:
    """A `gg.ModelClient` whose replies are the programs of `run_program` calls (see the module)."""

    model_id = MODEL_ID

    def __init__(self) -> None:
        self._programs: queue.Queue[tuple[str, Future[CallReading]] | Ended] = queue.Queue()
        self._waiting: Future[CallReading] | None = None
        self._lock = threading.Lock()
        self._replies = 0
        self._ending: CallReading | None = None

    def submit(self, program: str) -> Future[CallReading]:
        """Hand `program` to the session as its next reply; the future is the call's answer."""
        answer: Future[CallReading] = Future()
        with self._lock:
            if self._ending is not None:
                _settle(answer, self._ending)
            else:
                self._programs.put((program, answer))
        return answer

    def complete(self, request: Request) -> Reply:
        self._answer(CallReading(next_reading(request)))
        item = self._programs.get()
        if isinstance(item, Ended):
            raise item
        program, answer = item
        with self._lock:
            self._waiting = answer
            self._replies += 1
            n = self._replies
        call = ToolCall(f"call_{n}", SUBMIT_PROGRAM, {"program": program})
        return Reply(text="", calls=(call,), usage=Usage(0, 0), model=MODEL_ID)

    def ended(self, texts: tuple[str, ...], *, refused: bool = False) -> None:
        """The session ended: the call it ran, every call waiting and every later one are
        answered with `texts`."""
        ending = CallReading(texts, ended=True, refused=refused)
        self._answer(ending)
        with self._lock:
            self._ending = ending
            while not self._programs.empty():
                item = self._programs.get_nowait()
                if not isinstance(item, Ended):
                    _settle(item[1], ending)

    def close(self, why: Ended) -> None:
        """End the session where it waits for a call, as `why` says."""
        self._programs.put(why)

    def _answer(self, reading: CallReading) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, None
        if waiting is not None:
            _settle(waiting, reading)


def _settle(answer: Future[CallReading], reading: CallReading) -> None:
    """Answer a call, unless its caller gave up on it (the server stopping cancels it)."""
    if not answer.cancelled():
        answer.set_result(reading)


def next_reading(request: Request) -> tuple[str, ...]:
    """Every message of `request` after its last reply, as the model reads it."""
    messages = request.messages
    last = max((n for n, message in enumerate(messages) if message.role == "assistant"), default=None)
    if last is None:
        return ()
    return tuple(message.content for message in messages[last + 1 :])
