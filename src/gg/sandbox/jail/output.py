"""A command's output as a program reads it: the tail of what it wrote, made readable.

Rules:
- stdout and stderr are one stream, in the order the command wrote them;
- it is read as it comes and only its last `MAX_OUTPUT_BYTES` are kept, so a command that writes
  gigabytes costs a bounded amount of memory;
- the text is UTF-8 (a byte that is not becomes U+FFFD); escape sequences (colours, cursor
  moves, terminal titles) are removed, `\\r\\n` and a lone `\\r` end a line, and every other
  control character but tab is shown as its picture (`gg.wire.pictured`), so nothing a command
  writes can steer a terminal or forge the structure of a prompt;
- the readable text is at most `MAX_OUTPUT_BYTES` of UTF-8, and `dropped_bytes` counts the bytes
  the command wrote before the first one shown.
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


@dataclass(frozen=True)
class Output:
    """What a program is handed of a command's output."""

    text: str
    dropped_bytes: int

    @property
    def truncated(self) -> bool:
        return self.dropped_bytes > 0

    def last(self, cap: int) -> Output:
        """The end of this output, at most `cap` bytes of UTF-8, cut at a character."""
        data = self.text.encode()
        if len(data) <= cap:
            return self
        kept = data[-cap:].decode("utf-8", "ignore")
        return Output(kept, self.dropped_bytes + len(data) - len(kept.encode()))


def readable(raw: bytes) -> str:
    """`raw` as text a model and a terminal can be shown."""
    text = _ESCAPE.sub("", raw.decode("utf-8", "replace"))
    return pictured(_LINE_ENDS.sub("\n", text))


class OutputTail:
    """The last bytes of a stream, kept while it is read."""

    def __init__(self, cap: int = MAX_OUTPUT_BYTES) -> None:
        self._cap = cap
        self._kept = bytearray()
        self.total = 0

    @property
    def held(self) -> int:
        """The bytes kept now: never more than twice the cap."""
        return len(self._kept)

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        self._kept += chunk[-self._cap :]
        if len(self._kept) > 2 * self._cap:
            del self._kept[: -self._cap]

    def shown(self, cap: int | None = None) -> Output:
        """The readable tail, at most `cap` bytes of UTF-8 (the tail's own cap by default): the
        longest tail of the kept bytes whose readable text fits."""
        cap = self._cap if cap is None else min(cap, self._cap)
        raw = bytes(self._kept[-cap:])
        before = self.total - len(raw)
        whole = readable(raw[_character_start(raw, 0, before) :])
        if len(whole.encode()) <= cap:
            return Output(whole, before + _character_start(raw, 0, before))
        fits, wider = len(raw), 1  # the text from `fits` fits; none from before `wider` does
        while wider < fits:
            middle = (wider + fits) // 2
            if len(readable(raw[_character_start(raw, middle, before) :]).encode()) <= cap:
                fits = middle
            else:
                wider = middle + 1
        start = _character_start(raw, fits, before)
        return Output(readable(raw[start:]), before + start)


def _character_start(raw: bytes, start: int, before: int) -> int:
    """`start`, moved past the continuation bytes (at most three) a cut left there; nothing is
    cut when `start` is the first byte the command wrote."""
    if before == 0 and start == 0:
        return 0
    end = min(start + 3, len(raw))
    while start < end and raw[start] & 0xC0 == 0x80:
        start += 1
    return start
