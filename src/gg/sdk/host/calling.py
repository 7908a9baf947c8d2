"""Calling a host function for a program, and what its call is answered.

Rules kept here:
- the arguments arrive judged by the membrane; each is decoded into the function's own types
  (`gg.sdk.host.codec`) and passed by name; one the program left out is not passed, so the
  function's default applies;
- a plain function runs on a thread of its own; an `async def` (or a function handing back an
  awaitable) is awaited on the run's private event loop (`FunctionLoop`), a thread of its own
  started by the first such call; the loop outlives the call, so a client a function opened on it
  stays usable, and `close` cancels what is still pending there and stops it;
- a call is waited for as long as it is given (its family's `timeout_secs`, at most what is left
  of the run's time) and no longer: past that it is answered `limit-exceeded`, naming the function,
  and abandoned: a plain function's thread is left to itself, never joined, an awaited one's task
  is cancelled (and a loop that ever abandoned one is not waited for at `close`);
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
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gg.errors import ErrorCode, OperationError
from gg.prompts import render
from gg.sdk.host.answers import HostAnswer, outside_result
from gg.sdk.host.codec import decode, encode
from gg.sdk.host.family import HostFunction
from gg.wire import camel

CLOSE_WAIT_SECS = 5.0


@dataclass(frozen=True)
class Called:
    """A call's answer, and what the operator is told when the function failed (None when not)."""

    answer: HostAnswer
    failure: str | None = None
    traceback: str | None = None


class Overdue(Exception):
    """A host function did not answer within the time its call was given."""


def call_function(
    function: HostFunction, operation: str, arguments: Mapping[str, Any], loop: FunctionLoop, secs: float
) -> Called:
    """Call `function` with the wire `arguments` of one call of `operation`, waiting `secs` at most."""
    declaration = function.declaration
    try:
        given = _decoded(function, arguments)
    except Exception as refused:  # a record class's own validation (a pydantic constraint, say)
        return Called(HostAnswer(operation, arguments, error=(ErrorCode.INVALID_ARGUMENT, describe(refused))))
    try:
        returned = _answered(function, given, loop, secs)
    except Overdue:
        return _overdue(operation, arguments, secs)
    except OperationError as refusal:
        return Called(HostAnswer(operation, arguments, error=(refusal.code, refusal.message)))
    except (Exception, SystemExit) as failure:
        described = describe(failure)
        answer = HostAnswer(operation, arguments, error=(ErrorCode.OTHER, described))
        return Called(answer, f"host function `{operation}` failed: {described}", traceback.format_exc())
    encoded = encode(declaration.result, returned)
    text = outside_result(declaration.result, encoded)
    if text is None:
        return Called(HostAnswer(operation, arguments, value=encoded))
    answer = HostAnswer(operation, arguments, error=(ErrorCode.OTHER, text))
    return Called(answer, f"host function `{operation}`: {text}")


def _answered(function: HostFunction, given: dict[str, Any], loop: FunctionLoop, secs: float) -> Any:
    """What `function` answered within `secs`, awaited when it is awaitable. Raises `Overdue`."""
    ends = time.monotonic() + secs
    if inspect.iscoroutinefunction(function.function):
        returned = function.function(**given)  # runs nothing until awaited
    else:
        returned = _on_a_thread(lambda: function.function(**given), secs)
    if inspect.isawaitable(returned):
        returned = loop.run(returned, max(0.0, ends - time.monotonic()))
    return returned


def _on_a_thread(call: Callable[[], Any], secs: float) -> Any:
    """`call()` on a daemon thread of its own, waited for `secs` at most: what it returned, or what
    it raised, raised here. Past `secs`, `Overdue`: the thread is left to itself."""
    done = threading.Event()
    returned: list[Any] = []
    raised: list[BaseException] = []

    def work() -> None:
        try:
            returned.append(call())
        except BaseException as escaping:  # carried to the caller, who raises it
            raised.append(escaping)
        finally:
            done.set()

    threading.Thread(target=work, name="gg-host-call", daemon=True).start()
    if not done.wait(secs):
        raise Overdue
    if raised:
        raise raised[0]
    return returned[0]


def _overdue(operation: str, arguments: Mapping[str, Any], secs: float) -> Called:
    seconds = f"{secs:.3g}"
    text = render("host-call-overdue", operation=operation, seconds=seconds)
    answer = HostAnswer(operation, arguments, error=(ErrorCode.LIMIT_EXCEEDED, text))
    return Called(
        answer, f"host function `{operation}` did not answer within {seconds} s; its call was abandoned"
    )


def _decoded(function: HostFunction, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of the call: each one the program gave, in the function's types."""
    params = function.declaration.params
    return {p.name: decode(p.shape, arguments[camel(p.name)]) for p in params if camel(p.name) in arguments}


def exit_call(raised: SystemExit) -> str:
    """The call that raised a `SystemExit`, as written: `sys.exit(3)`, `sys.exit('done')`, `sys.exit()`."""
    code = "" if raised.code is None else repr(raised.code)
    return f"sys.exit({code})"


def describe(failure: BaseException) -> str:
    """`ValueError: no such SKU`, or the exception's type alone when it has no message;
    `SystemExit: the function called sys.exit(3)` for a function that exited."""
    if isinstance(failure, SystemExit):
        return f"SystemExit: the function called {exit_call(failure)}"
    message = str(failure)
    return f"{type(failure).__name__}: {message}" if message else type(failure).__name__


class FunctionLoop:
    """The run's private event loop for async host functions (see the module rules)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._abandoned = False

    def run(self, awaitable: Awaitable[Any], secs: float) -> Any:
        """Await `awaitable` on the loop and hand back its result (or raise what it raised); past
        `secs` its task is cancelled and `Overdue` raised."""
        future = asyncio.run_coroutine_threadsafe(_awaited(awaitable), self._started())
        try:
            return future.result(secs)
        except _Escaping as carried:
            raise carried.escaping from None
        except TimeoutError:
            if future.done():  # the function's own TimeoutError
                raise
            future.cancel()
            self._abandoned = True
            raise Overdue from None

    def close(self) -> None:
        """Cancel what is pending on the loop and stop it; waited for `CLOSE_WAIT_SECS` at most,
        and not at all once a call was abandoned there (it may hold the loop's thread)."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        cancelled = asyncio.run_coroutine_threadsafe(_cancel_the_rest(), loop)
        cancelled.add_done_callback(lambda _: loop.call_soon_threadsafe(loop.stop))
        if not self._abandoned:
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
