"""The checked twin (`python-typed`): every program is type-checked against the SDK's stubs before
it runs; a rejected program runs nothing and reads as a Compiler error at `program.py:LINE:COL`."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from pyworld import CEILINGS, TRIVIAL, Host, host, registry, run

from gg.config.ceilings import Ceilings
from gg.outcome import ErrorType
from gg.sandbox.arms.python import PythonArm
from gg.sdk.codemodule import CodeModule
from support.wall_bounds import STOPPED_WITHIN_SECS

__all__ = ["host"]  # fixtures


@pytest.fixture(scope="module")
def typed() -> Iterator[PythonArm]:
    with PythonArm(registry(), checked=True) as arm:
        yield arm


def test_a_program_that_checks_runs_and_records_its_compile_time(typed: PythonArm, host: Host) -> None:
    source = (
        "from gg import files, views\n"
        'page = files.read_file("notes.txt")\n'
        "if isinstance(page, files.TextFile):\n"
        '    views.open_text("first", str(page.first_line))\n'
        'for entry in files.list_dir():\n    print(entry.name, entry.kind == "file")\n'
    )
    execution = run(typed, host, source)
    assert execution.ok, execution.failure
    assert typed.language == "python-typed"
    assert execution.compile_ms is not None and execution.compile_ms > 0
    assert host.views == {"first": "1"}


def test_a_rejected_program_runs_nothing_and_reads_as_a_compiler_error(typed: PythonArm, host: Host) -> None:
    source = (
        "from gg import files, views\n"
        'views.open_text("ran", "yes")\n'
        "page = files.read_file(42)\n"
        "print(page.contents)\n"
    )
    execution = run(typed, host, source)
    assert execution.failure is not None and execution.failure.type is ErrorType.TRANSPILE_COMPILE
    assert execution.failure.heading == "Compiler error"
    lines = execution.failure.text.splitlines()
    assert lines[0].startswith("program.py:3:24: error[invalid-argument-type]")
    assert lines[1].startswith("program.py:4:7: error[unresolved-attribute]") and "ImageFile" in lines[1]
    assert host.calls == [] and execution.compile_ms is not None and execution.compile_ms > 0


def test_api_error_has_no_attributes_for_the_checker_either(typed: PythonArm, host: Host) -> None:
    source = "import gg\ntry:\n    gg.files.tree()\nexcept gg.ApiError as e:\n    print(e.code)\n"
    text = run(typed, host, source).failure
    assert text is not None and "program.py:5:11: error[unresolved-attribute]" in text.text


def test_at_most_eight_diagnostics_then_a_count(typed: PythonArm, host: Host) -> None:
    source = "".join(f"x{n}: int = 'no'\n" for n in range(11))
    text = run(typed, host, source).failure
    assert text is not None
    lines = text.text.splitlines()
    assert len(lines) == 9 and lines[-1] == "… and 3 more diagnostics not shown"


def test_a_code_modules_bindings_are_any(typed: PythonArm, host: Host) -> None:
    module = CodeModule("counter", "def bump(n):\n    return n + 1\n")
    source = 'from lib import counter\nimport gg\ngg.views.open_text("n", str(counter.bump(1)))\n'
    assert run(typed, host, source, modules=(module,)).ok
    assert host.views == {"n": "2"}


def test_a_syntax_error_is_a_compiler_error_too(typed: PythonArm, host: Host) -> None:
    execution = run(typed, host, "x = (1,\n")
    assert execution.failure is not None and execution.failure.type is ErrorType.TRANSPILE_COMPILE
    assert "invalid-syntax" in execution.failure.text


def test_the_time_ceiling_starts_after_the_check(typed: PythonArm, host: Host) -> None:
    """The program runs its whole 0.5 s after the check took its time: the call lasts at least
    both (lower bounds, which hold on any machine)."""
    start = time.monotonic()
    execution = run(typed, host, "while True:\n    pass\n", Ceilings(0.5, 64 * 1024 * 1024))
    assert execution.failure is not None and execution.failure.type is ErrorType.SANDBOX_TIMEOUT
    assert execution.compile_ms is not None and execution.compile_ms > 0
    assert execution.duration_ms >= 500
    assert execution.compile_ms / 1000 + 0.5 <= time.monotonic() - start < STOPPED_WITHIN_SECS
    assert run(typed, host, TRIVIAL, CEILINGS).ok
