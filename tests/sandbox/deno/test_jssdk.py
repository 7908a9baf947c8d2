"""The JavaScript SDK is generated from the registry: one module per family, camelCase names."""

from __future__ import annotations

import json
import re

from jsworld import registry

from gg.sandbox.deno.bundle import aggregate_module, build_bundle, family_module, guest_words
from gg.sdk.registry import Always, Operation, Param, ParamType


def test_each_family_is_one_module_and_gg_re_exports_them_with_the_error_class() -> None:
    bundle = build_bundle(registry())
    assert bundle.families == ("files", "views", "shell", "tasks")
    assert set(bundle.sdk) == {
        "sdk:/runtime.js",
        "sdk:/core.js",
        "sdk:/gg.js",
        *(f"sdk:/{family}.js" for family in bundle.families),
    }
    assert aggregate_module(["files", "views"]) == (
        'export * as files from "sdk:/files.js";\n'
        'export * as views from "sdk:/views.js";\n'
        'export { ApiError } from "sdk:/runtime.js";\n'
    )


def test_required_params_are_positional_and_optional_ones_an_options_object() -> None:
    source = family_module("files", registry().in_family("files"))
    assert "export function readFile(path, options) {" in source
    assert "return call(READ_FILE, [path], options);" in source
    assert "export function writeFile(path, contents) {" in source
    assert "return call(WRITE_FILE, [path, contents], undefined);" in source
    spec = json.loads(re.search(r"const READ_FILE = (\{.*\});", source).group(1))  # type: ignore[union-attr]
    assert spec == {
        "js": "readFile",
        "key": "read_file",
        "wire": "files.read_file",
        "required": [["path", "string", True]],
        "optional": [["offset", "u32"], ["limit", "u32"]],
        "aliases": [],
    }
    listing = json.loads(re.search(r"const LIST_DIR = (\{.*\});", source).group(1))  # type: ignore[union-attr]
    assert listing["aliases"] == [["read", "files.read_file", "name"]]


def test_a_parameter_named_like_a_keyword_gets_a_safe_identifier() -> None:
    operation = Operation(
        "tasks",
        "add_task",
        (Param("default", ParamType.STRING), Param("max_count", ParamType.U32, False)),
        "void",
        "",
        Always(),
        lambda scope, args: None,
    )
    source = family_module("tasks", [operation])
    assert "export function addTask(default_, options) {" in source
    assert '"optional": [["maxCount", "u32"]]' in source


def test_the_guests_sentences_keep_their_holes_for_the_guest_to_fill() -> None:
    words = guest_words(["files", "views"])
    assert words["argU32"] == "`{name}` must be a whole number from 0 to 4294967295, got {got}"
    assert words["importFamily"].endswith("the families are files, views")
    assert all("{" not in text or re.search(r"\{(spec|name|got|keys)\}", text) for text in words.values())
