"""How a Python failure reads and which turn type it is (the worker's description as input)."""

from __future__ import annotations

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.sandbox.job import GuestReport, GuestStatus
from gg.sandbox.monty.failure import diagnostics_text, failure_of, program_failure, unknown_gg_name

CEILINGS = Ceilings(timeout_secs=2.5, max_memory_bytes=1024)
DECLARED = {"gg": ["files", "core", "ApiError"], "gg.files": ["read_file"]}


def _described(kind: str, message: str, **extra: object) -> dict[str, object]:
    return {"type": kind, "message": message, "frames": [], "struck": 0, "elided": 0, "elidedAt": 4, **extra}


def test_the_engines_messages_for_an_unknown_gg_name_are_read() -> None:
    assert unknown_gg_name("AttributeError", "'gg.files' object has no attribute 'nope'") == (
        "gg.files",
        "nope",
    )
    assert unknown_gg_name("ImportError", "cannot import name 'x' from 'gg' (unknown location)") == (
        "gg",
        "x",
    )
    assert unknown_gg_name("ModuleNotFoundError", "No module named 'gg.x'") == ("gg", "x")
    assert unknown_gg_name("AttributeError", "'mine' object has no attribute 'nope'") is None
    assert unknown_gg_name("ImportError", "cannot import name 'x' from 'lib' (unknown location)") is None


def test_each_kind_of_uncaught_exception_has_its_turn_type() -> None:
    api = program_failure(_described("OSError", "read_file: not-found: gone", api=True), CEILINGS, DECLARED)
    assert api.type is ErrorType.PROGRAM_API_ERROR and api.text == "gg.ApiError: read_file: not-found: gone"
    own = program_failure(_described("OSError", "read_file: not-found: gone"), CEILINGS, DECLARED)
    assert own.type is ErrorType.PROGRAM_THROW and own.text == "OSError: read_file: not-found: gone"
    name = program_failure(_described("UnboundLocalError", "x"), CEILINGS, DECLARED)
    assert name.type is ErrorType.PROGRAM_UNKNOWN_NAME
    unknown = program_failure(
        _described("AttributeError", "'gg.files' object has no attribute 'nope'"), CEILINGS, DECLARED
    )
    assert unknown.type is ErrorType.PROGRAM_UNKNOWN_NAME
    assert unknown.text == "AttributeError: module `gg.files` has no name `nope`; it declares `read_file`"
    memory = program_failure(
        _described("MemoryError", "memory limit exceeded: 9 bytes > 1 bytes"), CEILINGS, DECLARED
    )
    assert memory.type is ErrorType.SANDBOX_OUT_OF_MEMORY
    late = program_failure(
        _described("TimeoutError", "feed time limit exceeded: 3s > 3s"), CEILINGS, DECLARED
    )
    assert (
        late.type is ErrorType.SANDBOX_TIMEOUT
        and late.text == "The program was stopped at its 2.5 s timeout."
    )
    mine = program_failure(_described("MemoryError", "my own"), CEILINGS, DECLARED)
    assert mine.type is ErrorType.PROGRAM_THROW


def test_a_cut_message_says_how_much_was_dropped() -> None:
    failure = program_failure(_described("ValueError", "abc", messageCut=12), CEILINGS, DECLARED)
    assert failure.text == "ValueError: abc… (12 more characters left out)"


def test_reports_of_the_pool_become_failures_in_ggs_words() -> None:
    assert failure_of(GuestReport(GuestStatus.OK, 1.0), CEILINGS, DECLARED) is None
    trap = failure_of(GuestReport(GuestStatus.TRAP, 1.0), CEILINGS, DECLARED)
    assert trap is not None and trap.type is ErrorType.SANDBOX_TRAP
    slow = failure_of(GuestReport(GuestStatus.CHECK_TIMEOUT, 1.0), CEILINGS, DECLARED)
    assert (
        slow is not None
        and slow.type is ErrorType.TRANSPILE_COMPILE
        and "type check did not finish" in slow.text
    )


def test_diagnostics_keep_eight_lines_then_count_the_rest() -> None:
    raw = "\n".join(f"program.py:{n}:1: error[x] bad" for n in range(1, 11)) + "\n\n"
    text = diagnostics_text("\x1b[1m" + raw)
    assert text.splitlines()[0] == "program.py:1:1: error[x] bad"
    assert len(text.splitlines()) == 9 and text.endswith("… and 2 more diagnostics not shown")
