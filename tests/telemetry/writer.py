"""A run that writes turns into a run store as fast as it can, for the crash and concurrency tests.

    python writer.py STORE RUN_ID TURNS CALLS [GO_FILE]

STORE is a folder holding `.gg/` or a store URL (`postgresql://…`).

Each turn is a request, a reply, a receipt, CALLS api_call/api_result pairs, a code_execution and
a turn_outcome; after each turn_outcome is written it prints `turn N` on stdout. TURNS 0 means
"forever" (until killed); otherwise the run ends with run_finished and `done`. With GO_FILE, it
prints `ready` and waits for that file to exist before it opens the store.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

from gg.record.store import RunStore
from gg.telemetry.emitter import Telemetry
from gg.telemetry.events import (
    ApiCall,
    ApiResult,
    CodeExecution,
    ModelReply,
    ModelRequest,
    Receipt,
    RunFinished,
    RunStarted,
    TurnOutcomeEvent,
)
from gg.telemetry.location import parse_store_url


def run_turn(t: Telemetry, turn: int, calls: int) -> None:
    t.emit(
        "root",
        turn,
        ModelRequest(
            messages=[{"role": "user", "content": f"go {turn}"}],
            request_index=turn - 1,
        ),
    )
    t.emit("root", turn, ModelReply(text="", calls=[], usage={}, duration_ms=1.0))
    t.emit("root", turn, Receipt(call_id=f"c{turn}", tool="submit_program", body="ok"))
    for ordinal in range(calls):
        t.emit("root", turn, ApiCall(operation="files.read_file", ordinal=ordinal))
        t.emit("root", turn, ApiResult(operation="files.read_file", ordinal=ordinal, ok=True))
    t.emit(
        "root",
        turn,
        CodeExecution(submission=0, ok=True, tool_calls=calls, api_calls=calls, duration_ms=1.0, logs=[]),
    )
    t.emit("root", turn, TurnOutcomeEvent(outcome="progressed", consecutive_errors=0, turns=turn))


def main(base: str, run_id: str, turns: int, calls: int, go: str | None) -> None:
    if go is not None:
        print("ready", flush=True)
        while not Path(go).exists():
            time.sleep(0.005)
    where = Path(base) if "://" not in base else base
    store = RunStore(parse_store_url(where, base=Path.cwd()))
    t = Telemetry(run_id, [store])
    t.emit(
        "root",
        0,
        RunStarted(
            name="writer", config_path="", workspace=base, model="none", language="javascript", limits={}
        ),
    )
    numbers = itertools.count(1) if turns == 0 else range(1, turns + 1)
    for turn in numbers:
        run_turn(t, turn, calls)
        print(f"turn {turn}", flush=True)
    t.emit("root", turns, RunFinished(status="completed", exit_code=0, turns=turns, duration_ms=1.0))
    t.close()
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), (sys.argv[5:] or [None])[0])
