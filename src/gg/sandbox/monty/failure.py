"""How a Python program's failure reads, and which turn type it is.

Rules kept here:
- an uncaught `ApiError` (the worker saw the very text it raised) is `program_api_error` and its
  last line reads `gg.ApiError: <operation>: <code>: <message>`;
- a `NameError` (or `UnboundLocalError`) is `program_unknown_name`, and so is a name a gg module
  does not declare (`gg.files.nope`, `from gg import nope`, `import gg.nope`), whose last line is
  rewritten to name the module, the name and everything the module declares, and a code module
  that is not loaded (`from lib import x`, `lib.x`, `import lib.x`), whose last line names the
  modules loaded and the call that loads one;
- the engine's own memory limit is `sandbox_out_of_memory`, naming the line of the program's own
  code the engine stopped at; its time limit is `sandbox_timeout` (it reports no frames);
  anything else (a `SyntaxError` included) is `program_throw`;
- the text is the traceback of the program's own frames (`program.py` and `lib/<key>.py`, each at
  line and column, with its source line), a count of struck and elided frames, and the exception;
  a cut message says how many characters it dropped;
- the checked twin's diagnostics keep `MAX_DIAGNOSTICS` lines, then count the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.prompts import render
from gg.sandbox.ceilings import Where, check_stopped, memory_failure, timeout_failure
from gg.sandbox.execution import Failure
from gg.sandbox.job import GuestReport, GuestStatus
from gg.sandbox.monty.pool import CHECK_SECS

MAX_DIAGNOSTICS = 8
_NAME_ERRORS = frozenset({"NameError", "UnboundLocalError"})
# (exception, the engine's message, which group is the module: the other is the name)
_UNKNOWN_NAME = (
    ("AttributeError", re.compile(r"'(gg(?:\.\w+)?)' object has no attribute '(\w+)'"), 1),
    ("ImportError", re.compile(r"cannot import name '(\w+)' from '(gg(?:\.\w+)?)'(?: \(.*\))?"), 2),
    ("ModuleNotFoundError", re.compile(r"No module named '(gg)\.(\w+)'"), 1),
)
# How the engine says a program reached for a code module that is not loaded: (exception, message)
_LIB_MISSING = (
    ("ImportError", re.compile(r"cannot import name '(\w+)' from 'lib'(?: \(.*\))?")),
    ("AttributeError", re.compile(r"'lib' object has no attribute '(\w+)'")),
    ("ModuleNotFoundError", re.compile(r"No module named 'lib\.(\w+)'")),
)
LOAD_CALL = 'gg.skills.read_skill("{key}")'  # how a program loads `lib.<key>`
# How the engine says a program ran into the memory ceiling: its own limit, or its worker's.
_ENGINE_MEMORY = ("memory limit exceeded: ", "the worker exceeded its memory limit")
_ENGINE_TIME = ("feed time limit exceeded: ", "turn time limit exceeded: ")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def failure_of(
    report: GuestReport,
    ceilings: Ceilings,
    declared: Mapping[str, Sequence[str]],
    loaded: Sequence[str] = (),
) -> Failure | None:
    """The failure a run report stands for, or None when the program ran to its end; `loaded` are
    the keys of the code modules the program was run with."""
    match report.status:
        case GuestStatus.OK:
            return None
        case GuestStatus.THREW:
            return program_failure(report.failure or {}, ceilings, declared, loaded)
        case GuestStatus.COMPILE:
            return Failure(ErrorType.TRANSPILE_COMPILE, diagnostics_text(report.diagnostics))
        case GuestStatus.CHECK_TIMEOUT:
            own = Failure(ErrorType.TRANSPILE_COMPILE, render("py-check-timeout", seconds=f"{CHECK_SECS:g}"))
            return check_stopped(ceilings, own)
        case GuestStatus.TIMEOUT:
            return timeout_failure(ceilings)
        case GuestStatus.OOM:
            return memory_failure(ceilings)
        case GuestStatus.TRAP:
            return Failure(ErrorType.SANDBOX_TRAP, render("sandbox-trap"))


def innermost(described: Mapping[str, Any]) -> Where | None:
    """Where the program was: the innermost frame of its own code the engine reported."""
    frames = described.get("frames") or ()
    if not frames:
        return None
    file, line, _column, _function, source = frames[-1][:5]
    return Where(str(file), int(line), str(source or ""))


def program_failure(
    described: Mapping[str, Any],
    ceilings: Ceilings,
    declared: Mapping[str, Sequence[str]],
    loaded: Sequence[str] = (),
) -> Failure:
    """The failure for the worker's description of an uncaught exception."""
    kind, message = str(described.get("type", "Exception")), str(described.get("message", ""))
    if kind == "MemoryError" and message.startswith(_ENGINE_MEMORY):
        return memory_failure(ceilings, innermost(described))
    if kind == "TimeoutError" and message.startswith(_ENGINE_TIME):
        return timeout_failure(ceilings)
    shown = _message(described)
    unknown = unknown_gg_name(kind, message)
    missing = missing_lib(kind, message)
    if missing is not None and missing not in loaded:
        error, exception = ErrorType.PROGRAM_THROW, f"{kind}: " + not_loaded(missing, loaded)
    elif described.get("api"):
        error, exception = ErrorType.PROGRAM_API_ERROR, render("py-api-error", text=shown)
    elif unknown is not None:
        module, name = unknown
        names = ", ".join(f"`{n}`" for n in declared.get(module, ()))
        error = ErrorType.PROGRAM_UNKNOWN_NAME
        exception = f"{kind}: " + render("py-unknown-name", module=module, name=name, declared=names)
    else:
        error = ErrorType.PROGRAM_UNKNOWN_NAME if kind in _NAME_ERRORS else ErrorType.PROGRAM_THROW
        exception = f"{kind}: {shown}" if shown else kind
    return Failure(error, render_traceback(described, exception))


def unknown_gg_name(kind: str, message: str) -> tuple[str, str] | None:
    """(module, name) when the engine's message says a gg module has no such name."""
    for error, pattern, module in _UNKNOWN_NAME:
        found = pattern.fullmatch(message) if error == kind else None
        if found is not None:
            return found.group(module), found.group(3 - module)
    return None


def missing_lib(kind: str, message: str) -> str | None:
    """The key when the engine's message says a program reached for a code module `lib` lacks."""
    for error, pattern in _LIB_MISSING:
        found = pattern.fullmatch(message) if error == kind else None
        if found is not None:
            return found.group(1)
    return None


def not_loaded(key: str, loaded: Sequence[str]) -> str:
    shown = ", ".join(f"`lib.{name}`" for name in loaded)
    hint = render("lib-load-hint", load_call=LOAD_CALL.format(key=key))
    return render("py-lib-not-loaded", key=key, loaded=shown, hint=hint)


def render_traceback(described: Mapping[str, Any], exception: str) -> str:
    frames = [
        {"file": f[0], "line": f[1], "column": f[2], "function": f[3], "source": f[4], "repeats": f[5]}
        for f in described.get("frames") or ()
    ]
    return render(
        "py-traceback",
        frames=frames,
        struck=int(described.get("struck", 0)),
        elided=int(described.get("elided", 0)),
        elided_at=int(described.get("elidedAt", 0)),
        exception=exception,
    )


def _message(described: Mapping[str, Any]) -> str:
    text, cut = str(described.get("message", "")), int(described.get("messageCut", 0))
    return render("message-cut", text=text, count=cut) if cut else text


def diagnostics_text(diagnostics: str) -> str:
    """The checker's diagnostics, one per line, at most `MAX_DIAGNOSTICS` then a count of the rest."""
    lines = [line for line in _ANSI.sub("", diagnostics).splitlines() if line.strip()]
    kept = lines[:MAX_DIAGNOSTICS]
    if len(lines) > MAX_DIAGNOSTICS:
        kept.append(render("ts-diagnostics-more", count=len(lines) - MAX_DIAGNOSTICS))
    return "\n".join(kept)
