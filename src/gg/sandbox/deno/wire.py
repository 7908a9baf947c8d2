"""The channel to one Deno pool process: JSON lines over its private unix socket, never stdio
(`guest/host.js` is the other end). A running program's calls and lines go over the run's own
pipes instead (`gg.sandbox.deno.channel`).

Rules kept here:
- Python sends `init`, `run` (naming the run's pipes), `go` and `rest`; the guest sends `ready`,
  `waiting`, `started` and `done`, each naming the run it belongs to by `id`;
- a line too deeply nested for Python's JSON reader is a call whose arguments are refused
  (`js-args-too-deep`), never a lost channel;
- a call's reply line is `gg.sandbox.job.reply`'s message, written around the one encoded value
  (or the failure's three `to_wire` strings) with no dict in between: every call, failing ones
  included, waits on it;
- a closed or failed socket is `EngineLost`; nothing within a timeout is `EngineSilent`.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gg.errors import ErrorCode, OperationError
from gg.prompts import render
from gg.sandbox.process import Guest
from gg.sdk.codemodule import CodeModule

RECEIVE_BYTES = 1 << 20
SEND_SECS = 30.0  # the guest reads all the time; a line it has not taken by then is a lost channel


class EngineLost(Exception):
    """The Deno process went away (EOF) or its channel failed."""


class EngineSilent(EngineLost):
    """The Deno process sent nothing before a deadline."""


@dataclass(eq=False)
class DenoProcess(Guest[socket.socket]):
    """One Deno pool process, its connected socket, and the heap its Workers were started for."""

    heap_mb: int = 0
    buffer: bytearray = field(default_factory=bytearray)

    def send(self, message: Mapping[str, Any]) -> None:
        self.send_line(encode(message))

    def send_line(self, line: bytes) -> None:
        try:
            self.channel.settimeout(SEND_SECS)
            self.channel.sendall(line + b"\n")
        except OSError as error:
            raise EngineLost(str(error)) from error

    def receive(self, timeout: float) -> dict[str, Any]:
        """The next message, waiting at most `timeout` seconds."""
        buffer = self.buffer
        start = 0
        while (cut := buffer.find(b"\n", start)) < 0:
            start = len(buffer)
            self.channel.settimeout(timeout)
            try:
                chunk = self.channel.recv(RECEIVE_BYTES)
            except TimeoutError as error:
                raise EngineSilent("the guest sent nothing in time") from error
            except OSError as error:
                raise EngineLost(str(error)) from error
            self._take(chunk)
        return self._line(cut)

    def arrived(self) -> list[dict[str, Any]]:
        """Every whole message that has arrived, without waiting."""
        try:
            self._take(self.channel.recv(RECEIVE_BYTES, socket.MSG_DONTWAIT))
        except BlockingIOError:
            pass
        except OSError as error:
            raise EngineLost(str(error)) from error
        found: list[dict[str, Any]] = []
        while (cut := self.buffer.find(b"\n")) >= 0:
            found.append(self._line(cut))
        return found

    def _take(self, chunk: bytes) -> None:
        if not chunk:
            raise EngineLost("the guest closed its channel")
        self.buffer += chunk

    def _line(self, cut: int) -> dict[str, Any]:
        line = bytes(self.buffer[:cut])
        del self.buffer[: cut + 1]
        return decode(line)


def run_message(
    run_id: int, program: str, language: str, modules: tuple[CodeModule, ...], channel: Mapping[str, str]
) -> dict[str, Any]:
    """The `run` message: the program, how to read it, its `lib:` modules by key, and the paths
    of the run's pipes (`calls`, `replies`)."""
    libs = {m.key: {"source": m.source, "extension": m.extension} for m in modules}
    return {
        "t": "run",
        "id": run_id,
        "program": program,
        "lang": language,
        "libs": libs,
        "channel": dict(channel),
    }


def arguments(operation: str, args: object) -> Mapping[str, Any]:
    """A call's arguments, or `invalid-argument` when they did not arrive as an object."""
    if not isinstance(args, dict):
        key = operation.split(".", 1)[-1]
        raise OperationError(key, ErrorCode.INVALID_ARGUMENT, render("js-args-too-deep"))
    return args  # pyright: ignore[reportUnknownVariableType]


_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))
_DECODER = json.JSONDecoder()


_ANSWERED = b'{"t":"reply","id":%d,"ok":true,"value":%s}'
_FAILED = b'{"t":"reply","id":%d,"ok":false,"error":{"operation":%s,"code":%s,"message":%s}}'


def reply_line(run_id: int, answer: Callable[[], Any]) -> bytes:
    """The encoded reply to one host call of run `run_id`: the value `answer()` gives, or the
    `OperationError` it raises (its `to_wire` fields); anything else propagates."""
    try:
        value = answer()
    except OperationError as error:
        return _FAILED % (run_id, _json(error.operation), _json(error.code), _json(error.message))
    return _ANSWERED % (run_id, _json(value))


def _json(value: Any) -> bytes:
    return _ENCODER.encode(value).encode()


def encode(message: Mapping[str, Any]) -> bytes:
    return _json(message)


def decode(line: bytes | bytearray | memoryview) -> dict[str, Any]:
    """One JSON line (UTF-8, as the guest writes it); a call too deeply nested to read keeps its
    head, its arguments None."""
    text = str(line, "utf-8", "surrogatepass")
    try:
        return _value(text)
    except RecursionError:
        head = _DECODER.decode(text[: text.index(',"args":')] + "}")
        return {**head, "args": None}


def _value(text: str) -> Any:
    """The JSON value `text` is: read straight off when it is nothing but the value (as the guest
    writes it), by the whole reader otherwise (blanks around it, or an error to raise)."""
    try:
        value, end = _DECODER.raw_decode(text)
    except ValueError:
        value, end = None, -1
    return value if end == len(text) else _DECODER.decode(text)
