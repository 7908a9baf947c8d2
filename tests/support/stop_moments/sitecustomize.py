"""Real signals sent by a `gg` process to itself at chosen moments of a run (the tests put this
folder on `PYTHONPATH`, where Python imports it at start-up). `GG_TEST_STOPS` names the moment:

- `parsed`: SIGTERM once the command began, before the run exists (its line parsed);
- `recorded`: SIGTERM just after the run's end is written to the store;
- `leaving`: SIGTERM then SIGINT as gg leaves after the run;
- `closing`: SIGTERM while the run closes its guests;
- `twice`: SIGINT at the first turn's end, then SIGTERM while the run records its end;
- `thrice`: the same with two SIGTERMs;
- `hooked`: SIGINT at the first turn's end, then SIGTERM as the `session-end` hook is fired;
- `playing`: SIGTERM as a run's tree begins (in `gg replay --verify`, its playback's);
- `exiting`: SIGTERM among the interpreter's last steps, after the command is done;
- `workers`: SIGTERM as a study's driver starts its second local worker.
"""

import atexit
import gc
import os
import signal

from gg.agents import context, run
from gg.cli import session
from gg.study import local
from gg.telemetry import store

MOMENT = os.environ.get("GG_TEST_STOPS", "")


def _send(*signums: int) -> None:
    for signum in signums:
        os.kill(os.getpid(), signum)


def _before(module: object, name: str, moment: str, *signums: int) -> None:
    """Send `signums` as `module.name` is called, at `moment`."""
    original = getattr(module, name)

    def sending(*args: object, **kwargs: object) -> object:
        if moment == MOMENT:
            _send(*signums)
        return original(*args, **kwargs)

    setattr(module, name, sending)


writing = store.StoreWriter.write
sent: list[str] = []


def _write(self: store.StoreWriter, event: object) -> None:
    writing(self, event)
    kind = event.type.value  # type: ignore[attr-defined]
    if kind == "run_finished" and MOMENT == "recorded":
        _send(signal.SIGTERM)
    if kind == "turn_outcome" and MOMENT in ("twice", "thrice", "hooked") and not sent:
        sent.append(kind)
        _send(signal.SIGINT)


store.StoreWriter.write = _write  # type: ignore[method-assign]
starting = local.LocalPool._start
started: list[object] = []


def _start(self: local.LocalPool) -> object:
    started.append(self)
    if MOMENT == "workers" and len(started) == 2:
        _send(signal.SIGTERM)
    return starting(self)


local.LocalPool._start = _start  # type: ignore[method-assign]
if MOMENT == "exiting":  # registered first, so run last of the process's exit callbacks
    atexit.register(_send, signal.SIGTERM)
_before(session, "_run_session", "parsed", signal.SIGTERM)
_before(gc, "freeze", "leaving", signal.SIGTERM, signal.SIGINT)
_before(context.RunContext, "close", "closing", signal.SIGTERM)
_before(run, "record_end", "twice", signal.SIGTERM)
_before(run, "record_end", "thrice", signal.SIGTERM, signal.SIGTERM)
_before(run, "session_end", "hooked", signal.SIGTERM)
_before(run, "_run_tree", "playing", signal.SIGTERM)
