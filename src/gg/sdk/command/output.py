"""A command's output as a program reads it: the tail of what it wrote, made readable.

Rules:
- stdout and stderr are one stream, in the order the command wrote them;
- it is read as it comes and only its last `MAX_OUTPUT_BYTES` are kept, so a command that writes
  gigabytes costs a bounded amount of memory;
- the text is UTF-8 (a byte that is not becomes U+FFFD); escape sequences (colours, cursor
  moves, terminal titles) are removed, `\\r\\n` and a lone `\\r` end a line, and every other
  control character but tab is shown as its picture (`gg.wire.pictured`), so nothing a command
  writes can steer a terminal or forge the structure of a prompt;
- the readable text is at most `MAX_OUTPUT_BYTES` of UTF-8; a text that is only the end of what
  was written starts at the start of a line (the fragment of a line cut through is left out with
  what came before it), unless that would leave nothing, when the end of the one line it holds
  is shown; `dropped_bytes` counts the bytes the command wrote before the first one shown, and
  `dropped_lines` the line ends among them (`\r\n`, `\n` or a lone `\r`, as the text counts them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gg.wire import pictured

MAX_OUTPUT_BYTES = 16 * 1024

_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, erasing
    r"|\x1b[\]PX^_][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)"  # OSC, DCS, SOS, PM, APC strings
    r"|\x1b[ -/]*[0-~]"  # every other escape sequence, and the lead-in of an unterminated string
)
_LINE_ENDS = re.compile(r"\r\n?")
_LINE_END = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True)
class Output:
    """What a program is handed of a command's output."""

    text: str
    dropped_bytes: int
    dropped_lines: int = 0

    @property
    def truncated(self) -> bool:
        return self.dropped_bytes > 0

    def last(self, cap: int) -> Output:
        """The end of this output, at most `cap` bytes of UTF-8, cut at the start of a line (at a
        character when it holds no whole line)."""
        data = self.text.encode()
        if len(data) <= cap:
            return self
        start = _line_start(data, len(data) - cap)
        kept = data[start:].decode("utf-8", "ignore")
        cut = len(data) - len(kept.encode())
        return Output(kept, self.dropped_bytes + cut, self.dropped_lines + line_ends(data[:cut]))


def readable(raw: bytes) -> str:
    """`raw` as text a model and a terminal can be shown."""
    text = _ESCAPE.sub("", raw.decode("utf-8", "replace"))
    return pictured(_LINE_ENDS.sub("\n", text))


class OutputTail:
    """The last bytes of a stream, kept while it is read."""

    def __init__(self, cap: int = MAX_OUTPUT_BYTES) -> None:
        self._cap = cap
        self._kept = bytearray()  # the stream's last bytes, in one piece: the cap and one ahead
        self.total = 0
        self._line_ends = 0  # in everything fed, a `\r\n` split between two chunks counted once
        self._after_cr = False

    @property
    def held(self) -> int:
        """The bytes kept now: never more than twice the cap."""
        return len(self._kept)

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        self.total += len(chunk)
        self._line_ends += line_ends(chunk) - (self._after_cr and chunk[:1] == b"\n")
        self._after_cr = chunk[-1:] == b"\r"
        if len(chunk) > self._cap:  # what was kept before no longer touches what is kept now
            self._kept = bytearray(chunk[-(self._cap + 1) :])
        else:
            self._kept += chunk
        if len(self._kept) > 2 * self._cap:
            del self._kept[: -(self._cap + 1)]

    def shown(self, cap: int | None = None) -> Output:
        """The readable tail, at most `cap` bytes of UTF-8 (the tail's own cap by default): the
        longest tail of the kept bytes whose readable text fits."""
        cap = self._cap if cap is None else min(cap, self._cap)
        raw = bytes(self._kept[-cap:])
        before = self.total - len(raw)
        if before == 0 and len(readable(raw).encode()) <= cap:
            return Output(readable(raw), 0)
        fits, wider = len(raw), 1  # the text from `fits` fits; none from before `wider` does
        if len(readable(raw[_character_start(raw, 0, before) :]).encode()) <= cap:
            fits = 0
        while wider < fits:
            middle = (wider + fits) // 2
            if len(readable(raw[_character_start(raw, middle, before) :]).encode()) <= cap:
                fits = middle
            else:
                wider = middle + 1
        start = _character_start(raw, self._line_start(raw, fits), before)
        shown = raw[start:]
        return Output(readable(shown), before + start, self._line_ends - line_ends(shown))

    def _line_start(self, raw: bytes, start: int) -> int:
        """`_line_start` in `raw`, the last bytes kept: the bytes kept ahead of it tell whether a
        line begins at its first byte; one whose byte ahead is no longer kept is not known to."""
        kept = bytes(self._kept)
        ahead = len(kept) - len(raw)
        return _line_start(kept, ahead + start, begins=self.total == len(kept)) - ahead


def line_ends(data: bytes) -> int:
    """How many lines `data` ends: each `\r\n`, `\n` and lone `\r`."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def _line_start(data: bytes, start: int, begins: bool = True) -> int:
    """The first line's start at or after `start` (`start` itself when a line starts there, as
    one does at 0 when `data` `begins` the stream); when no line starts after it with something
    left to show, `start`."""
    after_end = data[start - 1 : start] == b"\n" or (
        data[start - 1 : start] == b"\r" and data[start : start + 1] != b"\n"
    )
    if (start == 0 and begins) or (start > 0 and after_end):
        return start
    found = _LINE_END.search(data, start)
    return found.end() if found is not None and found.end() < len(data) else start


def _character_start(raw: bytes, start: int, before: int) -> int:
    """`start`, moved past the continuation bytes (at most three) a cut left there; nothing is
    cut when `start` is the first byte the command wrote."""
    if before == 0 and start == 0:
        return 0
    end = min(start + 3, len(raw))
    while start < end and raw[start] & 0xC0 == 0x80:
        start += 1
    return start
