"""What the worker keeps of a program's run: the tail of its printed lines, and a located
description of the exception that ended it.

Rules kept here:
- printed text is split into lines (stdout and stderr alike); at most `max_lines` lines are kept,
  the newest, and each is cut to `max_line_chars` characters (`…` marks a cut); the lines dropped
  are counted; the lines each print callback completes are also handed to `stream` as one batch
  (its newest `max_lines`, the rest counted), so gg sees them while the program runs;
- an exception is described by its class name, its message (cut to `MAX_MESSAGE_CHARS`, the
  characters dropped counted) and its frames, outermost first, each attributed to its source:
  the program's own feed is `program.py`; a code module's code is `lib/<key>.py`, told by the
  function spans of its source (or, while it loads, by being its body); gg's prelude and the
  engine's own feeds are struck (counted, not shown); other `exec` code stays `<string>`;
- a run of one frame repeating (a runaway recursion) keeps its first `REPEATS_SHOWN` and counts the
  rest; then at most `HEAD_FRAMES` outermost and `TAIL_FRAMES` innermost frames are kept, the rest
  counted.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

MAX_MESSAGE_CHARS = 4000
HEAD_FRAMES = 4
TAIL_FRAMES = 8
REPEATS_SHOWN = 2
PROGRAM_FILE = "program.py"
EXEC_FILE = "<string>"
_FEED_PREFIX = "<python-input-"


class Prints:
    """The print callback: keeps the tail of the program's lines and streams each batch."""

    def __init__(
        self, max_lines: int, max_line_chars: int, stream: Callable[[list[str], int], None] | None = None
    ) -> None:
        self._lines: deque[str] = deque(maxlen=max_lines)
        self._max_lines = max_lines
        self._max_chars = max_line_chars
        self._stream = stream
        self._batch: list[str] = []
        self._pending: list[str] = []
        self._pending_chars = 0
        self._cut = False
        self.dropped = 0

    def __call__(self, stream: str, text: str) -> None:
        start = 0
        while (end := text.find("\n", start)) >= 0:
            self._extend(text[start:end])
            self._end_line()
            start = end + 1
        self._extend(text[start:])
        self._send()

    def _send(self) -> None:
        batch, self._batch = self._batch, []
        if batch and self._stream is not None:
            left_out = max(0, len(batch) - self._max_lines)
            self._stream(batch[left_out:], left_out)

    def _extend(self, piece: str) -> None:
        room = self._max_chars - self._pending_chars
        if len(piece) > room:
            piece = piece[: max(room, 0)]
            self._cut = True
        self._pending.append(piece)
        self._pending_chars += len(piece)

    def _end_line(self) -> None:
        line = "".join(self._pending) + ("…" if self._cut else "")
        if len(self._lines) == self._lines.maxlen:
            self.dropped += 1
        self._lines.append(line)
        self._batch.append(line)
        self._pending, self._pending_chars, self._cut = [], 0, False

    def finish(self) -> list[str]:
        """The kept lines, an unfinished last line included (streamed too)."""
        if self._pending_chars or self._cut:
            self._end_line()
            self._send()
        return list(self._lines)


class FrameLike(Protocol):
    @property
    def filename(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def function_name(self) -> str | None: ...
    @property
    def source_line(self) -> str | None: ...


@dataclass(frozen=True)
class LibSource:
    """A code module as the worker loaded it: its lines and its functions' spans."""

    key: str
    lines: tuple[str, ...]
    spans: tuple[tuple[str, int, int], ...]

    @classmethod
    def of(cls, key: str, source: str) -> LibSource:
        return cls(key, tuple(source.splitlines()), tuple(function_spans(source)))

    @property
    def file(self) -> str:
        return f"lib/{self.key}.py"


@dataclass
class Sources:
    """Where a run's code came from, to attribute its frames."""

    program: Sequence[str]  # the program's lines
    prelude_spans: Sequence[tuple[str, int, int]]
    program_feed: str = ""  # `<python-input-N>` of the program, once it is fed
    libs: list[LibSource] = field(default_factory=list[LibSource])
    loading: LibSource | None = None  # the module whose body is running, while it loads


def function_spans(source: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every function `source` defines; none if it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [
        (node.name, node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def describe(
    kind: str, type_msg: str, message: str, frames: Sequence[FrameLike], sources: Sources
) -> dict[str, Any]:
    """The failure description gg renders: `kind` is `error` or `syntax`."""
    name = type_msg[: -len(message) - 2] if message and type_msg.endswith(": " + message) else type_msg
    kept, struck = attribute(frames, sources)
    kept = collapsed(kept)
    elided = max(0, len(kept) - HEAD_FRAMES - TAIL_FRAMES)
    if elided:
        kept = kept[:HEAD_FRAMES] + kept[-TAIL_FRAMES:]
    return {
        "kind": kind,
        "type": name.split(":", 1)[0].strip() or "Exception",
        "message": message[:MAX_MESSAGE_CHARS],
        "messageCut": max(0, len(message) - MAX_MESSAGE_CHARS),
        "frames": kept,
        "struck": struck,
        "elided": elided,
        "elidedAt": HEAD_FRAMES,
    }


def attribute(frames: Sequence[FrameLike], sources: Sources) -> tuple[list[list[Any]], int]:
    """The frames the model reads (`[file, line, column, function, source line]`), and how many
    were struck."""
    kept: list[list[Any]] = []
    struck = 0
    loader_seen = False
    for frame in frames:
        place = _place(frame, sources, loader_seen)
        if frame.filename == EXEC_FILE and sources.loading is not None:
            loader_seen = True
        if place is None:
            struck += 1
            continue
        file, lines = place
        text = frame.source_line if file == PROGRAM_FILE and frame.source_line else _line(lines, frame.line)
        kept.append([file, frame.line, frame.column, frame.function_name or "", text.strip()])
    return kept, struck


def collapsed(frames: list[list[Any]]) -> list[list[Any]]:
    """`frames` with each run of one repeating frame cut to `REPEATS_SHOWN`, the last one shown
    counting the repeats left out (a sixth element)."""
    out: list[list[Any]] = []
    run = 0
    for frame in frames:
        same = bool(out) and out[-1][:4] == frame[:4]
        run = run + 1 if same else 1
        if run <= REPEATS_SHOWN:
            out.append([*frame[:5], 0])
        else:
            out[-1][5] += 1
    return out


def _place(frame: FrameLike, sources: Sources, loader_seen: bool) -> tuple[str, Sequence[str]] | None:
    """The file a frame is shown in and that file's lines, or None for a struck frame."""
    if frame.filename == sources.program_feed:
        return PROGRAM_FILE, sources.program
    if frame.filename.startswith(_FEED_PREFIX):
        return None
    if frame.filename != EXEC_FILE:
        return frame.filename, ()
    function = frame.function_name or "<module>"
    if sources.loading is not None:
        if not loader_seen:
            return None  # the loader running the module's body
        if function == "<module>":
            return sources.loading.file, sources.loading.lines
    if _in_spans(sources.prelude_spans, function, frame.line):
        return None
    for lib in sources.libs:
        if _in_spans(lib.spans, function, frame.line):
            return lib.file, lib.lines
    return EXEC_FILE, ()


def _in_spans(spans: Sequence[tuple[str, int, int]], function: str, line: int) -> bool:
    return any(name == function and start <= line <= end for name, start, end in spans)


def _line(lines: Sequence[str], number: int) -> str:
    return lines[number - 1] if 0 < number <= len(lines) else ""
