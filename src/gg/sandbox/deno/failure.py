"""How a JavaScript program's failure reads: the engine's own rendering, located in its own file.

Rules kept here:
- the class is read off the thrown value by the guest: an `ApiError` is `program_api_error`, a
  `ReferenceError` is `program_unknown_name`, anything else (a SyntaxError included) is
  `program_throw`; but an allocation V8 refused (`RangeError: Array buffer allocation failed`,
  `…: Out of memory`, a wasm memory it could not allocate or grow, a clone out of memory) that
  the program did not catch is the memory ceiling, `sandbox_out_of_memory`, naming the innermost
  line of the program's own code (`program.js`, `program.ts` or a `lib:` module) with its text;
- the text is the engine's `Name: message`, then the error's own properties (`operation`,
  `code` for an ApiError), then its frames; a rejection nobody handled says so first; a message
  (or a thrown value) the guest cut says how many characters it left out;
- frames in `program.js` and `lib:<key>` stay, with the internal `sandbox:/` prefix removed;
  frames inside gg's SDK, the boot module or the engine are struck, and counted on one line
  under the frames kept (a failure with no frame of the program's own, such as a SyntaxError
  located in its message, carries no count: there is nothing to have left out between).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.prompts import render
from gg.sandbox.ceilings import Where, memory_failure
from gg.sandbox.execution import Failure

PROGRAM_PREFIX = "sandbox:/"
_REFUSED_ALLOCATION = re.compile(
    r"^(?:RangeError|DataCloneError): .*(?:allocation failed|[Oo]ut of memory|could not allocate memory"
    r"|Unable to grow instance memory)"
)
_OWN_FRAME = re.compile(r"(?:sandbox:/)?(program\.[jt]s|lib:[^\s:()]+):(\d+):\d+\)?$")
_STRUCK_MARKS = ("sdk:/", "data:", "blob:", "ext:", "node:", "refused:")
_TYPE_BY_KIND = {
    "api": ErrorType.PROGRAM_API_ERROR,
    "name": ErrorType.PROGRAM_UNKNOWN_NAME,
    "throw": ErrorType.PROGRAM_THROW,
}


def program_failure(described: Mapping[str, Any], ceilings: Ceilings, sources: Mapping[str, str]) -> Failure:
    """The `Failure` for the guest's description of an uncaught throw or rejection; `sources` are
    the texts of the program and its code modules, by the name their frames give them."""
    if _REFUSED_ALLOCATION.match(str(described.get("head", ""))):
        return memory_failure(ceilings, innermost(described.get("frames") or (), sources))
    kind = _TYPE_BY_KIND.get(str(described.get("kind")), ErrorType.PROGRAM_THROW)
    return Failure(kind, render_failure(described))


def innermost(frames: Sequence[str], sources: Mapping[str, str]) -> Where | None:
    """Where the program was: the innermost frame in its own code (V8 lists it first)."""
    for frame in frames:
        found = _OWN_FRAME.search(frame.rstrip())
        if found is not None:
            file, line = found.group(1), int(found.group(2))
            lines = sources.get(file, "").splitlines()
            return Where(file, line, lines[line - 1] if 0 < line <= len(lines) else "")
    return None


def render_failure(described: Mapping[str, Any]) -> str:
    """The text the model reads for one uncaught failure."""
    if "value" in described:
        value = _told_cut(str(described["value"]), described.get("valueCut"))
        lines = [render("js-uncaught-value", value=value)]
    else:
        head = _told_cut(_located(str(described.get("head", ""))), described.get("headCut"))
        lines = [head, *_property_lines(described.get("props") or ())]
        lines.extend(_kept_frames(described.get("frames") or ()))
    if described.get("rejected"):
        lines[0] = render("js-unhandled-rejection", head=lines[0])
    return "\n".join(lines)


def _told_cut(text: str, cut: object) -> str:
    count = cut if isinstance(cut, int) else 0
    return render("message-cut", text=text, count=count) if count > 0 else text


def _located(text: str) -> str:
    return text.replace(PROGRAM_PREFIX, "")


def _property_lines(props: Sequence[Sequence[str]]) -> list[str]:
    return [f"  {key}: {value}" for key, value in props]


def _kept_frames(frames: Sequence[str]) -> list[str]:
    kept = [_located(frame) for frame in frames if not _is_struck(frame)]
    struck = len(frames) - len(kept)
    if struck and kept:
        kept.append(render("js-frames-struck", count=struck))
    return kept


def _is_struck(frame: str) -> bool:
    return any(mark in frame for mark in _STRUCK_MARKS)
