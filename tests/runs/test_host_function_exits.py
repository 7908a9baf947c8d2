"""A host function that leaves by `sys.exit` or `KeyboardInterrupt`, end to end through `gg.run`.

`sys.exit` in a host function fails that call `other`, naming the exit and its code, and the run
goes on to its own end; the operator reads the traceback. A `KeyboardInterrupt` is the operator's:
it is raised on out of `gg.run`, and the run's end is recorded first (`interrupted`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import gg
from support import scripted_host
from support.scripted_host import Scripted

exits = gg.family("exits", doc="functions that leave early.")


@exits.operation
def leave(code: int) -> int:
    """Exit with `code`."""
    sys.exit(code)


@exits.operation
def leave_quietly() -> int:
    """Exit with no code."""
    sys.exit()


@exits.operation
async def leave_later(reason: str) -> int:
    """Exit, from an async function, with `reason`."""
    sys.exit(reason)


@exits.operation
def stay() -> int:
    """Answer 7."""
    return 7


@exits.operation
def interrupt() -> int:
    """Raise the operator's interruption."""
    raise KeyboardInterrupt


@exits.operation
async def interrupt_later() -> int:
    """Raise the operator's interruption from an async function."""
    raise KeyboardInterrupt


PROGRAMS = {
    "javascript": """import { exits, session } from "gg";
const seen = [];
for (const call of [() => exits.leave(3), () => exits.leaveQuietly(), () => exits.leaveLater("done")]) {
  try { call(); seen.push("no error"); } catch (e) { seen.push(`${e.code}: ${e.message}`); }
}
seen.push(String(exits.stay()));
session.finish(seen.join("\\n"));
""",
    "python": """import gg
seen = []
calls = [lambda: gg.exits.leave(3), lambda: gg.exits.leave_quietly(), lambda: gg.exits.leave_later("done")]
for call in calls:
    try:
        call()
        seen.append("no error")
    except gg.ApiError as error:
        d = gg.core.details(error)
        seen.append(str(d.code) + ": " + str(d.message))
seen.append(str(gg.exits.stay()))
gg.session.finish("\\n".join(seen))
""",
}


def config(tmp_path: Path, language: str) -> dict[str, Any]:
    return scripted_host.config(tmp_path, language, ["exits"])


@pytest.mark.parametrize("language", ["javascript", "python"])
def test_a_host_function_calling_sys_exit_fails_its_call_other_and_the_run_ends_on_its_own(
    tmp_path: Path, language: str
) -> None:
    events: list[gg.Event] = []
    result = gg.run(
        config(tmp_path, language),
        model=Scripted(PROGRAMS[language]),
        families=[exits],
        store=tmp_path,
        on_event=events.append,
    )
    assert (result.status, result.exit_code) == ("completed", 0), result.message
    assert result.final_text == (
        "other: SystemExit: the function called sys.exit(3)\n"
        "other: SystemExit: the function called sys.exit()\n"
        "other: SystemExit: the function called sys.exit('done')\n"
        "7"
    )
    logs = [e.to_wire() for e in events if e.type == "log" and "host function" in e.to_wire()["message"]]
    assert [log["message"] for log in logs] == [
        "host function `exits.leave` failed: SystemExit: the function called sys.exit(3)",
        "host function `exits.leave_quietly` failed: SystemExit: the function called sys.exit()",
        "host function `exits.leave_later` failed: SystemExit: the function called sys.exit('done')",
    ]
    assert "sys.exit(code)" in logs[0]["fields"]["traceback"]
    assert "sys.exit(reason)" in logs[2]["fields"]["traceback"]
    with gg.open_store(tmp_path) as store:
        (listed,) = store.runs()
    assert (listed.status, listed.exit_code) == ("completed", 0)


@pytest.mark.parametrize("operation", ["interrupt", "interruptLater"])
def test_a_keyboard_interrupt_from_a_host_function_is_raised_on_after_the_run_recorded_its_end(
    tmp_path: Path, operation: str
) -> None:
    program = f'import {{ exits, session }} from "gg";\nexits.{operation}();\nsession.finish("on");\n'
    with pytest.raises(KeyboardInterrupt):
        gg.run(config(tmp_path, "javascript"), model=Scripted(program), families=[exits], store=tmp_path)
    with gg.open_store(tmp_path) as store:
        (listed,) = store.runs()
    assert (listed.status, listed.exit_code, listed.turns) == ("interrupted", 130, 1)
