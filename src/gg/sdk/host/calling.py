"""Calling a host function for a program, and what its call is answered.

Rules kept here:
- the arguments arrive judged by the membrane; each is decoded into the function's own types
  (`gg.sdk.host.codec`) and passed by name; one the program left out is not passed, so the
  function's default applies;
- an `async def` (or a function handing back an awaitable) is awaited on the run's private event
  loop (`FunctionLoop`), a thread of its own started by the first such call; the loop outlives the
  call, so a client a function opened on it stays usable, and `close` cancels what is still
  pending there and stops it;
- a `gg.ApiError` the function raises (or any of gg's own `ApiError`s) is its answer: that code
  and message; any other exception is the function's failure, answered `other` with the
  exception's type and message, and its traceback goes to the operator (`Called.traceback`);
- a function that calls `sys.exit` fails the same way, its answer naming the call and its code:
  a host function ends its call, never the run; a `KeyboardInterrupt` is the operator's and is
  raised on (the run records it as its end), from an `async def` as from a plain one;
- what the function returns is encoded and judged against its declared result; an answer outside
  the declaration is answered `other`, saying so, and reported to the operator too.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import traceback
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any

from gg.errors import ApiError, ErrorCode
from gg.sdk.host.answers import Answer, outside_result
from gg.sdk.host.codec import decode, encode
from gg.sdk.host.family import HostFunction
from gg.wire import camel

CLOSE_WAIT_SECS = 5.0


@dataclass(frozen=True)
class Called:
    """A call's answer, and what the operator is told when the function failed (None when not)."""

    answer: Answer
    failure: str | None = None
    traceback: str | None = None


def call_function(
    function: HostFunction, operation: str, arguments: Mapping[str, Any], loop: FunctionLoop
) -> Called:
    """Call `function` with the wire `arguments` of one call of `operation`."""
    declaration = function.declaration
    try:
        given = _decoded(function, arguments)
    except Exception as refused:  # a record class's own validation (a pydantic constraint, say)
        return Called(Answer(operation, arguments, error=(ErrorCode.INVALID_ARGUMENT, describe(refused))))
    try:
        returned = function.function(**given)
        if inspect.isawaitable(returned):
            returned = loop.run(returned)
    except ApiError as refusal:
        return Called(Answer(operation, arguments, error=(refusal.code, refusal.message)))
    except (Exception, SystemExit) as failure:
        described = describe(failure)
        answer = Answer(operation, arguments, error=(ErrorCode.OTHER, described))
        return Called(answer, f"host function `{operation}` failed: {described}", traceback.format_exc())
    encoded = encode(declaration.result, returned)
    text = outside_result(declaration.result, encoded)
    if text is None:
        return Called(Answer(operation, arguments, value=encoded))
    answer = Answer(operation, arguments, error=(ErrorCode.OTHER, text))
    return Called(answer, f"host function `{operation}`: {text}")


def _decoded(function: HostFunction, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of the call: each one the program gave, in the function's types."""
    params = function.declaration.params
    return {p.name: decode(p.shape, arguments[camel(p.name)]) for p in params if camel(p.name) in arguments}


def describe(failure: BaseException) -> str:
    """`ValueError: no such SKU`, or the exception's type alone when it has no message;
    `SystemExit: the function called sys.exit(3)` for a function that exited."""
    if isinstance(failure, SystemExit):
        code = "" if failure.code is None else repr(failure.code)
        return f"SystemExit: the function called sys.exit({code})"
    message = str(failure)
    return f"{type(failure).__name__}: {message}" if message else type(failure).__name__


class FunctionLoop:
    """The run's private event loop for async host functions (see the module rules)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def run(self, awaitable: Awaitable[Any]) -> Any:
        """Await `awaitable` on the loop and hand back its result (or raise what it raised)."""
        try:
            return asyncio.run_coroutine_threadsafe(_awaited(awaitable), self._started()).result()
        except _Escaping as carried:
            raise carried.escaping from None

    def close(self) -> None:
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(_cancel_the_rest(), loop).result(CLOSE_WAIT_SECS)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(CLOSE_WAIT_SECS)

    def _started(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(
                    target=_serve, args=(self._loop,), name="gg-host-functions", daemon=True
                )
                self._thread.start()
            return self._loop


class _Escaping(Exception):
    """Carries a `SystemExit` or `KeyboardInterrupt` off the loop, which either would stop, to the
    caller, who raises it as the function raised it."""

    def __init__(self, escaping: SystemExit | KeyboardInterrupt) -> None:
        super().__init__(escaping)
        self.escaping = escaping


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    try:
        return await awaitable
    except (SystemExit, KeyboardInterrupt) as escaping:
        raise _Escaping(escaping) from None


async def _cancel_the_rest() -> None:
    current = asyncio.current_task()
    pending = [task for task in asyncio.all_tasks() if task is not current]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


def _serve(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
        loop.run_until_complete(loop.shutdown_asyncgens())
    finally:
        loop.close()
