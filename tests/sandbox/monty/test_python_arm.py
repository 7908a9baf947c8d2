"""The Python arm against the real engine: how a program runs, reaches the SDK, reads results,
fails, and uses code modules."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyworld import PYTHON, TRIVIAL, Host, failure_text, host, registry, run

from gg.errors import ErrorCode, FatalFault, GgDefect
from gg.outcome import ErrorType
from gg.sandbox.arms.python import PythonArm
from gg.sdk.codemodule import CodeModule

pytestmark = PYTHON

COUNTER = CodeModule(
    "counter",
    'state = {"runs": 0}\n\n\ndef bump(note):\n    state["runs"] += 1\n    return state["runs"]\n\n\n'
    "def boom():\n    return 1 / 0\n",
)

__all__ = ["host"]  # fixtures


# ---- the program ---------------------------------------------------------------------------------


def test_the_reply_runs_as_program_py_named_main(arm: PythonArm, host: Host) -> None:
    source = 'import gg\ngg.views.open_text("where", __name__ + " " + __file__)\n'
    execution = run(arm, host, source)
    assert execution.ok, execution.failure
    assert execution.compile_ms is None
    assert host.views["where"] == "__main__ /program.py"


def test_every_position_is_in_the_programs_own_lines(arm: PythonArm, host: Host) -> None:
    source = "x = 1\n\n\ndef f():\n    return 1 / 0\n\n\nf()\n"
    text = failure_text(run(arm, host, source))
    assert 'File "program.py", line 8, column 1, in <module>\n    f()' in text
    assert 'File "program.py", line 5, column 12, in f\n    return 1 / 0' in text
    assert text.endswith("ZeroDivisionError: division by zero")
    assert "python-input" not in text


def test_a_syntax_error_is_located_and_nothing_runs(arm: PythonArm, host: Host) -> None:
    execution = run(arm, host, 'import gg\ngg.views.open_text("a", "b")\nx = (1,\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert 'File "program.py", line 4' in execution.failure.text and "SyntaxError" in execution.failure.text
    assert host.views == {}


def test_each_program_starts_from_an_empty_namespace(arm: PythonArm, host: Host) -> None:
    assert run(arm, host, "leftover = 1\nimport gg\n").ok
    execution = run(arm, host, 'import gg\ngg.views.open_text("seen", repr(sorted(locals())))\nleftover\n')
    assert host.views["seen"] == "['gg']"
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_UNKNOWN_NAME


def test_print_goes_to_the_log_only(arm: PythonArm, host: Host) -> None:
    execution = run(
        arm, host, 'print("one", 2)\nprint("x" * 5000)\nimport sys\nprint("err", file=sys.stderr)\n'
    )
    assert execution.ok
    assert execution.logs[0] == "one 2"
    assert execution.logs[1].startswith("x" * 100) and execution.logs[1].endswith("…")
    assert execution.logs[2] == "err"
    assert host.views == {}


def test_a_flood_of_lines_keeps_the_tail_and_counts_the_rest(arm: PythonArm, host: Host) -> None:
    execution = run(arm, host, "for i in range(1000):\n    print(i)\n")
    assert execution.logs[-1] == "999" and execution.logs_suppressed == 1000 - len(execution.logs)


# ---- reaching the SDK --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        'import gg\ngg.views.open_text("a", "b")\n',
        'from gg import views\nviews.open_text("a", "b")\n',
        'from gg.views import open_text\nopen_text("a", "b")\n',
        'import gg.views\ngg.views.open_text("a", "b")\n',
    ],
)
def test_the_sdk_is_reached_by_every_import_spelling(arm: PythonArm, host: Host, source: str) -> None:
    assert run(arm, host, source).ok
    assert host.calls == [("views.open_text", {"label": "a", "body": "b"})]


def test_optional_arguments_are_keyword_only_and_cross_in_camel_case(arm: PythonArm, host: Host) -> None:
    assert run(arm, host, 'from gg import files\nfiles.read_file("notes.txt", offset=1, limit=None)\n').ok
    assert host.calls == [("files.read_file", {"path": "notes.txt", "offset": 1})]
    text = failure_text(run(arm, host, 'from gg import files\nfiles.read_file("notes.txt", 1)\n'))
    assert "TypeError: read_file() takes 1 positional argument but 2 were given" in text


def test_a_positional_optional_may_be_left_out(arm: PythonArm, host: Host) -> None:
    source = (
        "from gg import files, views\n"
        'views.open_text("n", str(len(files.list_dir())) + repr(files.list_dir("sub")))\n'
    )
    assert run(arm, host, source).ok
    assert host.calls[0] == ("files.list_dir", {}) and host.calls[1] == ("files.list_dir", {"path": "sub"})
    assert host.views["n"] == "2[]"


def test_a_record_is_a_frozen_dataclass_read_by_snake_case_fields(arm: PythonArm, host: Host) -> None:
    source = (
        "from gg import files, views\n"
        'page = files.read_file("notes.txt", limit=1)\n'
        "assert isinstance(page, files.TextFile)\n"
        "match page:\n"
        "    case files.TextFile(contents=text, first_line=first):\n"
        '        views.open_text("page", f"{first}:{text!r}:{page.total_lines}:{page.kind}")\n'
        "try:\n"
        '    page.kind = "image"\n'
        "except Exception as e:\n"
        '    views.open_text("frozen", type(e).__name__)\n'
        'views.open_text("repr", repr(files.list_dir()[0]))\n'
    )
    execution = run(arm, host, source)
    assert execution.ok, execution.failure
    assert host.views["page"] == "1:'hello from the workspace\\n':2:text"
    assert host.views["frozen"] == "FrozenInstanceError"
    assert host.views["repr"] == "DirEntry(name='notes.txt', kind='file')"


def test_an_alias_method_calls_its_operation_with_the_records_field(arm: PythonArm, host: Host) -> None:
    source = (
        "import gg\n[entry] = gg.programs.history()\n"
        'gg.views.open_text("s", entry.source() + " " + entry.error)\n'
    )
    assert run(arm, host, source).ok
    assert host.views["s"] == "source of ab12 boom"
    assert host.calls[-2] == ("programs.get", {"id": "ab12"})


# ---- failures ----------------------------------------------------------------------------------


def test_a_failed_call_raises_gg_api_error_with_its_text(arm: PythonArm, host: Host) -> None:
    source = (
        "import gg\n"
        "try:\n"
        '    gg.files.read_file("../outside")\n'
        "except gg.ApiError as e:\n"
        '    gg.views.open_text("caught", str(e))\n'
        '    gg.views.open_text("same", str(gg.core.ApiError is gg.ApiError and isinstance(e, OSError)))\n'
    )
    assert run(arm, host, source).ok
    assert host.views["caught"] == "read_file: refused: the path is outside the workspace"
    assert host.views["same"] == "True"


def test_an_uncaught_api_error_is_program_api_error_located_at_the_call(arm: PythonArm, host: Host) -> None:
    execution = run(arm, host, 'from gg import files\n\nfiles.read_file("missing.txt")\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_API_ERROR
    assert execution.failure.text == (
        "Traceback (most recent call last):\n"
        '  File "program.py", line 3, column 1, in <module>\n'
        '    files.read_file("missing.txt")\n'
        "  (1 frame inside gg's SDK left out)\n"
        "gg.ApiError: read_file: not-found: no such file"
    )


def test_an_os_error_the_program_raises_itself_is_a_throw(arm: PythonArm, host: Host) -> None:
    execution = run(arm, host, 'raise OSError("read_file: not-found: no such file")\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW


def test_a_name_error_is_an_unknown_name(arm: PythonArm, host: Host) -> None:
    execution = run(arm, host, "undefined_thing\n")
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_UNKNOWN_NAME
    assert "NameError: name 'undefined_thing' is not defined" in execution.failure.text


@pytest.mark.parametrize(
    ("source", "module", "name"),
    [
        ("import gg\ngg.files.read_files\n", "gg.files", "read_files"),
        ("from gg.files import read_files\n", "gg.files", "read_files"),
        ("from gg import file\n", "gg", "file"),
        ("import gg\ngg.nope\n", "gg", "nope"),
        ("import gg.nope\n", "gg", "nope"),
    ],
)
def test_a_name_a_gg_module_does_not_declare_names_what_it_declares(
    arm: PythonArm, host: Host, source: str, module: str, name: str
) -> None:
    execution = run(arm, host, source)
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_UNKNOWN_NAME
    last = execution.failure.text.splitlines()[-1]
    assert f"module `{module}` has no name `{name}`; it declares" in last
    assert ("`read_file`, `write_file`" in last) if module == "gg.files" else ("`files`, `views`" in last)


def test_anything_else_uncaught_is_a_throw_with_the_programs_frames(arm: PythonArm, host: Host) -> None:
    execution = run(arm, host, "def f(n):\n    return f(n + 1)\n\n\nf(0)\n")
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    text = execution.failure.text
    assert "[the frame above repeats" in text and text.endswith(
        "RecursionError: maximum recursion depth exceeded"
    )
    assert len(text) < 1000


def test_a_huge_message_is_cut_and_says_so(arm: PythonArm, host: Host) -> None:
    text = failure_text(run(arm, host, 'raise ValueError("m" * 50_000)\n'))
    assert len(text) < 5000 and text.endswith("more characters left out)")


def test_an_interpreter_internal_error_is_the_programs_own(arm: PythonArm, host: Host) -> None:
    execution = run(arm, host, 'import gg\ngg.views.open_text("before", "x")\nraise SystemExit(3)\n')
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert host.views == {"before": "x"}
    assert run(arm, host, TRIVIAL).ok


def test_a_host_defect_stops_the_program_and_propagates(arm: PythonArm, host: Host) -> None:
    def broken(operation: str, args: object) -> None:
        raise GgDefect(FatalFault.HOST_FAULT, "the workspace vanished")

    host.hook = broken
    with pytest.raises(GgDefect):
        run(arm, host, TRIVIAL)
    host.hook = None
    assert run(arm, host, TRIVIAL).ok


# ---- argument checks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ('files.read_file("a", offset=-1)', "`offset` must be a whole number from 0 to 4294967295, got -1"),
        ('files.read_file("a", limit=True)', "`limit` must be a whole number from 0 to 4294967295, got True"),
        ('shell.shell("ls", timeout_secs=0)', "`timeout_secs` must be a number greater than 0, got 0"),
        ('tasks.set_blocked_by("t", "alice")', "`ids` must be a list of strings, got 'alice'"),
        ('tasks.set_blocked_by("t", ["a", 3])', "each entry of `ids` must be a string, got 3"),
        ("tasks.note({1: 2})", "`value` must be plain JSON data"),
        ("session.finish(42)", "`finish()` argument `summary` must be a str, got int"),
        ("views.open_docs_view(print)", "`target` is a function that is not part of gg's SDK"),
    ],
)
def test_a_malformed_argument_is_invalid_argument_before_gg_sees_it(
    arm: PythonArm, host: Host, call: str, expected: str
) -> None:
    source = (
        "from gg import files, session, shell, tasks, views\n"
        f"try:\n    {call}\nexcept gg_error as e:\n    views.open_text('e', str(e))\n"
    )
    execution = run(arm, host, source.replace("gg_error", "OSError"))
    assert execution.ok, execution.failure
    assert ErrorCode.INVALID_ARGUMENT.value in host.views["e"] and expected in host.views["e"]
    assert [call for call, _ in host.calls] == ["views.open_text"]


def test_a_mistyped_string_is_pythons_own_type_error(arm: PythonArm, host: Host) -> None:
    text = failure_text(run(arm, host, "from gg import files\nfiles.read_file(42)\n"))
    assert text.endswith("TypeError: `read_file()` argument `path` must be a str, got int")


def test_a_deep_value_is_refused_without_a_host_traceback(arm: PythonArm, host: Host) -> None:
    source = "from gg import tasks\ndeep = []\nfor _ in range(100000):\n    deep = [deep]\ntasks.note(deep)\n"
    text = failure_text(run(arm, host, source))
    assert "invalid-argument" in text and "plain JSON data" in text
    assert "Traceback (most recent call last)" in text
    assert host.calls == []


def test_an_sdk_function_names_its_documentation(arm: PythonArm, host: Host) -> None:
    assert run(
        arm,
        host,
        'from gg import files, views\nviews.open_docs_view(files.read_file)\nviews.open_docs_view("x")\n',
    ).ok
    assert list(host.views) == ["docs gg.files.read_file", "docs x"]


def test_calls_past_the_cap_fail_limit_exceeded_without_reaching_gg(host: Host) -> None:
    with PythonArm(registry(), call_cap=3) as capped:
        source = (
            "from gg import files, views\n"
            "for _ in range(5):\n"
            "    try:\n"
            "        files.tree()\n"
            "    except OSError as e:\n"
            "        last = str(e)\n"
            "print(last)\n"
        )
        execution = run(capped, host, source)
    assert execution.ok and len(host.calls) == 3
    assert execution.logs == (
        "tree: limit-exceeded: this program has already made 3 SDK calls, the most one program may make",
    )


# ---- code modules ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        'import lib\nimport gg\ngg.views.open_text("n", str(lib.counter.bump("x")))\n',
        'from lib import counter\nimport gg\ngg.views.open_text("n", str(counter.bump("x")))\n',
        'import lib.counter\nimport gg\ngg.views.open_text("n", str(lib.counter.bump("x")))\n',
    ],
)
def test_a_code_module_is_reached_through_lib(arm: PythonArm, host: Host, source: str) -> None:
    assert run(arm, host, source, modules=(COUNTER,)).ok
    assert host.views["n"] == "1"


def test_a_code_modules_state_starts_fresh_in_every_program(arm: PythonArm, host: Host) -> None:
    source = (
        'from lib import counter\nimport gg\ncounter.bump("a")\ngg.views.open_text("n", str(counter.state))\n'
    )
    run(arm, host, source, modules=(COUNTER,))
    run(arm, host, source, modules=(COUNTER,))
    assert host.views["n"] == "{'runs': 1}"


def test_a_failure_inside_a_module_is_located_in_the_module(arm: PythonArm, host: Host) -> None:
    text = failure_text(run(arm, host, "from lib import counter\n\ncounter.boom()\n", modules=(COUNTER,)))
    assert 'File "program.py", line 3, column 1, in <module>' in text
    assert 'File "lib/counter.py", line 10, column 12, in boom\n    return 1 / 0' in text


def test_a_module_whose_body_fails_fails_the_program_before_it_starts(arm: PythonArm, host: Host) -> None:
    broken = CodeModule("broken", 'import gg\n\nVALUE = int("x")\n')
    execution = run(arm, host, 'import gg\ngg.views.open_text("a", "b")\nimport lib\n', modules=(broken,))
    assert execution.failure is not None and execution.failure.type is ErrorType.PROGRAM_THROW
    assert 'File "lib/broken.py", line 3, column 9, in <module>' in execution.failure.text
    assert host.views == {}


def test_modules_load_only_for_a_program_that_mentions_lib(arm: PythonArm, host: Host) -> None:
    noisy = CodeModule("noisy", 'import gg\ngg.views.open_text("loaded", "yes")\n')
    assert run(arm, host, TRIVIAL, modules=(noisy,)).ok
    assert "loaded" not in host.views
    assert run(arm, host, "import lib\n", modules=(noisy,)).ok
    assert host.views["loaded"] == "yes"


def test_a_module_is_not_main_and_cannot_reach_outside(arm: PythonArm, host: Host, tmp_path: Path) -> None:
    probe = CodeModule(
        "probe",
        "NAME = __name__\ntry:\n    open('/etc/passwd')\n"
        "except Exception as e:\n    ERR = type(e).__name__\n",
    )
    assert run(
        arm,
        host,
        'from lib import probe\nimport gg\ngg.views.open_text("p", probe.NAME + " " + probe.ERR)\n',
        modules=(probe,),
    ).ok
    assert host.views["p"] == "lib.probe PermissionError"
