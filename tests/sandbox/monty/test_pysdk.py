"""The Python SDK generated from the registry: the prelude, the host operation table, the stubs,
the signatures and record shapes, and the prompt segment."""

from __future__ import annotations

import ast

from pyworld import registry

from gg.prompts import render
from gg.sandbox.languages import LANGUAGES
from gg.sandbox.monty.bundle import (
    build_bundle,
    converted,
    host_operations,
    module_names,
    prelude_source,
)
from gg.sandbox.monty.spelling import field_name, py_name, py_type, signature, stubs, type_shapes
from gg.sdk.catalogue import default_registry
from gg.sdk.registry import Always, Operation, Param, ParamType, Registry


def test_the_prelude_is_python_and_defines_one_function_per_operation() -> None:
    source = prelude_source(default_registry())
    tree = ast.parse(source)
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assert {op.key for op in default_registry()} <= defined


def test_required_and_positional_parameters_come_first_then_keyword_only_ones_then_the_rest() -> None:
    source = prelude_source(registry())
    assert "    def read_file(path, *, offset=None, limit=None, **_unknown):" in source
    assert "    def list_dir(path=None, **_unknown):" in source
    assert "    def shell(command, *, timeout_secs=None, **_unknown):" in source
    assert (
        "        v = _host.files.read_file(path, offset, limit, _unknown)\n        return _to_FileRead(v)"
        in source
    )
    assert "        return _host.views.open_docs_view(_doc(target), _unknown)" in source


def test_a_keyword_name_takes_a_trailing_underscore() -> None:
    assert py_name("from") == "from_" and py_name("match") == "match_" and py_name("path") == "path"
    assert field_name("notShownReason") == "not_shown_reason"
    op = Operation("tasks", "span", (Param("from", ParamType.U32),), "void", "s", Always(), lambda s, a: None)
    source = prelude_source(Registry([op]))
    assert "    def span(from_, **_unknown):\n        return _host.tasks.span(from_, _unknown)" in source


def test_results_are_converted_by_their_declared_type() -> None:
    types = registry()
    assert converted(types, "FileRead", "v") == "_to_FileRead(v)"
    assert converted(types, "DirEntry[]", "v") == "[_to_DirEntry(x0) for x0 in v]"
    assert converted(types, "DirEntry[][]", "v") == "[[_to_DirEntry(x1) for x1 in x0] for x0 in v]"
    assert converted(types, "ProgramSummary | null", "v") == "(None if v is None else _to_ProgramSummary(v))"
    assert converted(types, "string", "v") == "v" and converted(types, "EntryKind", "v") == "v"
    assert converted(types, "Undeclared", "v") == "v"


def test_a_record_reads_its_wire_fields_and_carries_its_alias_methods() -> None:
    source = prelude_source(registry())
    assert 'first_line=v["firstLine"]' in source and 'error=v.get("error")' in source
    assert "    def source(self):\n        return _gg.programs.get(self.id)" in source
    assert '    if kind == "text":\n        return _to_TextFile(v)' in source


def test_each_host_function_lists_its_parameters_in_call_order() -> None:
    table = host_operations(registry())
    assert table["gg.files.read_file"] == {
        "key": "read_file",
        "wire": "files.read_file",
        "params": [
            ["path", "path", "string", True, False],
            ["offset", "offset", "u32", False, False],
            ["limit", "limit", "u32", False, False],
        ],
    }
    assert table["gg.session.finish"]["params"] == [["summary", "summary", "string", True, True]]


def test_each_module_declares_its_functions_and_records() -> None:
    names = module_names(registry())
    assert names["gg"][-2:] == ["core", "ApiError"] and "files" in names["gg"]
    assert names["gg.files"] == [
        "read_file",
        "write_file",
        "list_dir",
        "tree",
        "TextFile",
        "ImageFile",
        "DirEntry",
        "GlobMatch",
        "GlobPage",
    ]
    assert names["gg.core"] == ["ApiError", "ApiErrorDetails", "details"]


def test_stubs_declare_every_function_and_type_and_import_across_families() -> None:
    modules = stubs(default_registry())
    assert (
        modules["gg"].startswith("from gg import files as files, ") and "ApiError = OSError" in modules["gg"]
    )
    assert (
        "def read_file(path: str, *, offset: int | None = None, limit: int | None = None) -> FileRead: ..."
        in modules["gg.files"]
    )
    assert "FileRead = TextFile | ImageFile" in modules["gg.files"]
    assert "from gg.files import FileRead" in modules["gg.views"]
    assert "    def source(self) -> str: ..." in modules["gg.programs"]
    for text in modules.values():
        ast.parse(text)


def test_signatures_and_shapes_are_spelled_for_python() -> None:
    op = default_registry().get("files.read_file")
    assert op is not None
    assert (
        signature(op)
        == "gg.files.read_file(path: str, *, offset: int | None = None, limit: int | None = None) -> FileRead"
    )
    assert (
        LANGUAGES["python"].signature(op) == signature(op)
        and LANGUAGES["python"].import_line("files") == "import gg"
    )
    shapes = type_shapes(default_registry())
    assert shapes["FileRead"] == "TextFile | ImageFile"
    assert shapes["EntryKind"] == '"file" | "directory" | "other"'
    assert shapes["ProgramSummary"].endswith("error: str | None, source() -> str)")
    assert py_type("DirEntry[] | null") == "list[DirEntry] | None" and py_type('"text"') == 'Literal["text"]'


def test_the_bundle_carries_the_prelude_spans_and_the_cap() -> None:
    bundle = build_bundle(registry(), host_call_cap=7)
    message = bundle.init_message()
    assert message["maxHostCalls"] == 7 and "7 SDK calls" in message["words"]["hostCallCap"]
    assert any(name == "read_file" and start < end for name, start, end in message["preludeSpans"])


def test_the_prompt_segment_names_program_py_the_missing_features_and_the_cap() -> None:
    segment = render(LANGUAGES["python"].segment_template)
    assert "`program.py`" in segment and "`import gg`" in segment and "`print`" in segment
    assert "100,000 SDK calls" in segment
    for missing in (
        "class inheritance",
        "`yield`",
        "`del`",
        "`@property`",
        "`functools.wraps`",
        "`bytearray`",
    ):
        assert missing in segment, missing
    typed = render(LANGUAGES["python-typed"].segment_template)
    assert typed.startswith(segment) and "type-checked" in typed and "program.py:LINE:COL" in typed
    assert LANGUAGES["python"].print_call == "print" and LANGUAGES["python-typed"].module_extensions == (
        "py",
    )
