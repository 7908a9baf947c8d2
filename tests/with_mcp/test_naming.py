"""The one naming rule for what an MCP server names: a module per server key, a function per tool,
a parameter per property; the name a Python program writes, which the JavaScript arms write in
camelCase, and the name a call dispatches under."""

from __future__ import annotations

import pytest

from gg.mcp.naming import NameKind, pascal, spelled, spelled_apart
from gg.sdk.host.family import RESERVED_FAMILIES
from gg.wire import camel


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("get-note", "get_note"),  # a hyphen
        ("notes.search", "notes_search"),  # a dot
        ("getNote", "get_note"),  # camelCase
        ("HTTPRequest", "http_request"),
        ("fetchURL", "fetch_url"),
        ("get_v2_note", "get_v2_note"),
        ("getV2Note", "get_v2_note"),
        ("search / all", "search_all"),
        ("3d-render", "tool_3d_render"),  # a leading digit takes the kind's word in front
        ("delete", "delete_tool"),  # a word JavaScript keeps
        ("class", "class_tool"),  # a word both keep
        ("match", "match_tool"),  # a soft keyword of Python
        ("検索", "tool"),  # nothing a language can spell: the kind's word
        ("", "tool"),
    ],
)
def test_a_tool_name_is_spelled_by_the_rule(raw: str, name: str) -> None:
    assert spelled(raw, NameKind.FUNCTION) == name


def test_a_module_named_like_one_of_ggs_own_takes_its_kind_after_it() -> None:
    assert spelled("files", NameKind.MODULE, RESERVED_FAMILIES) == "files_mcp"
    assert spelled("gg", NameKind.MODULE, RESERVED_FAMILIES) == "gg_mcp"
    assert spelled("my-notes", NameKind.MODULE, RESERVED_FAMILIES) == "my_notes"
    assert spelled("2fa", NameKind.MODULE, RESERVED_FAMILIES) == "mcp_2fa"
    assert spelled("inventory", NameKind.MODULE, {"inventory"}) == "inventory_mcp"  # a host family


def test_a_parameter_takes_arg_as_its_word() -> None:
    assert spelled("1st", NameKind.PARAMETER) == "arg_1st"
    assert spelled("from", NameKind.PARAMETER) == "from_arg"
    assert spelled("max-results", NameKind.PARAMETER) == "max_results"


def test_names_that_collide_are_told_apart_in_listing_order() -> None:
    raws = ["get-note", "get_note", "getNote", "list"]
    assert spelled_apart(raws, NameKind.FUNCTION) == ["get_note", "get_note_2", "get_note_3", "list"]


def test_names_whose_camel_case_would_collide_are_told_apart() -> None:
    names = spelled_apart(["a-2", "a2"], NameKind.PARAMETER)
    assert names == ["a_2", "a2_2"] and len({camel(n) for n in names}) == 2


def test_every_spelled_name_is_a_snake_case_identifier_of_both_languages() -> None:
    for raw in ["get-note", "3d", "delete", "", "a.b.c", "X-Y_Z", "__init__", "yield"]:
        name = spelled(raw, NameKind.FUNCTION)
        assert name.isidentifier() and name == name.lower() and name[0].isalpha(), name


def test_a_record_name_is_pascal_case_of_the_same_words() -> None:
    assert pascal("get_noteArguments") == "GetNoteArguments"
    assert pascal("my-notes") == "MyNotes"
