"""An MCP server's tool list read as a family declaration: JSON Schema read into the same shapes a
host function's annotations are, so every arm spells a tool's parameters and result as it spells
any host function."""

from __future__ import annotations

import json
from typing import Any

from gg.mcp.tools import ToolSchema, declare_module
from gg.sdk.host.operations import host_entries
from gg.sdk.shape_check import violation
from gg.sdk.shapes import ListOf, Literals, MapOf, OneOf, RecordField, RecordShape, Scalar, py, ts

STRING, INTEGER, NUMBER, NULL, ANY = (Scalar(k) for k in ("string", "integer", "number", "null", "any"))

SHIP = {
    "type": "object",
    "$defs": {
        "Address": {
            "type": "object",
            "properties": {
                "street": {"type": "string", "description": "the street and number"},
                "zip": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            },
            "required": ["street"],
        }
    },
    "properties": {
        "to": {"$ref": "#/$defs/Address"},
        "priority": {"enum": ["low", "high"], "default": "low", "description": "how soon"},
        "max-weight": {"type": "number"},
        "lines": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}},
        "labels": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
    "required": ["to", "lines"],
}


def _declared(*tools: ToolSchema, module: str = "shop") -> Any:
    return declare_module(module, module.replace("_", "-"), list(tools))


def test_a_tools_input_schema_becomes_its_parameters_and_records() -> None:
    family, (served,) = _declared(ToolSchema("ship-parcel", "Ship a parcel.\n\nMore words.", SHIP))
    function = family.functions[0]
    assert (function.name, function.summary) == ("ship_parcel", "Ship a parcel.")
    by_name = {p.name: p for p in function.params}
    address = RecordShape(
        "ShopAddress",
        (
            RecordField("street", STRING, True, "the street and number"),
            RecordField("zip", OneOf((STRING, NULL)), False),
        ),
        open=True,
    )
    assert by_name["to"].shape == address and by_name["to"].required and not by_name["to"].keyword
    assert by_name["priority"].shape == Literals(("low", "high")) and by_name["priority"].keyword
    assert by_name["priority"].doc == 'how soon (defaults to "low")'
    assert by_name["max_weight"].shape == NUMBER
    assert ts(by_name["lines"].shape) == "ShopShipParcelLinesItem[]"
    assert by_name["labels"].shape == MapOf(INTEGER)
    assert served.arguments == {
        "to": "to",
        "priority": "priority",
        "maxWeight": "max-weight",
        "lines": "lines",
        "labels": "labels",
    }
    assert [r.name for r in family.records()] == ["ShopAddress", "ShopShipParcelLinesItem"]


def test_an_output_schema_is_the_declared_result_and_none_is_any_json_value() -> None:
    note = {"type": "object", "title": "Note", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
    family, served = _declared(
        ToolSchema("get-note", "Fetch.", {"type": "object", "properties": {}}, note),
        ToolSchema("echo", "", {"type": "object", "properties": {"text": {"type": "string"}}}),
    )
    got, echo = family.functions
    assert py(got.result) == "ShopNote" and got.result.fields == (RecordField("id", INTEGER),)  # type: ignore[union-attr]
    assert echo.result == ANY and not served[1].declares_result
    assert echo.summary == "The tool `echo` of the MCP server `shop`."


def test_two_tools_whose_names_collide_are_told_apart_in_listing_order() -> None:
    empty = {"type": "object", "properties": {}}
    family, _ = _declared(ToolSchema("get-note", "a", empty), ToolSchema("get_note", "b", empty))
    assert [f.name for f in family.functions] == ["get_note", "get_note_2"]


def test_a_record_that_contains_itself_is_any_json_value_where_it_recurs() -> None:
    tree = {
        "type": "object",
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            }
        },
        "properties": {"root": {"$ref": "#/$defs/Node"}},
    }
    family, _ = _declared(ToolSchema("walk", "Walk.", tree))
    node = family.functions[0].params[0].shape
    assert node == RecordShape("ShopNode", (RecordField("kids", ListOf(ANY), False),), open=True)


def test_two_different_records_of_one_name_are_told_apart_and_equal_ones_shared() -> None:
    def tool(name: str, field: str) -> ToolSchema:
        defs = {"Item": {"type": "object", "properties": {field: {"type": "string"}}}}
        return ToolSchema(
            name, "x", {"type": "object", "$defs": defs, "properties": {"i": {"$ref": "#/$defs/Item"}}}
        )

    family, _ = _declared(tool("a", "name"), tool("b", "name"), tool("c", "title"))
    assert [ts(f.params[0].shape) for f in family.functions] == ["ShopItem", "ShopItem", "ShopItem2"]


def test_a_closed_object_refuses_a_field_it_does_not_declare_and_an_open_one_takes_it() -> None:
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    family, _ = _declared(
        ToolSchema(
            "t",
            "x",
            {
                "type": "object",
                "properties": {"c": closed, "o": {"type": "object", "properties": {"a": {"type": "string"}}}},
            },
        )
    )
    c, o = (p.shape for p in family.functions[0].params)
    assert violation(c, {"a": "x", "b": 1}) is not None and violation(o, {"a": "x", "b": 1}) is None


def test_enums_unions_and_what_a_shape_cannot_hold() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"enum": [1, 2, None]},
            "t": {"type": ["string", "integer"]},
            "f": {"enum": [1.5, 2]},
            "c": {"const": "only"},
            "x": {},
            "r": {"$ref": "https://example.com/elsewhere"},
        },
    }
    family, _ = _declared(ToolSchema("t", "x", schema))
    shapes = {p.name: p.shape for p in family.functions[0].params}
    assert shapes["n"] == OneOf((Literals((1, 2)), NULL))
    assert shapes["t"] == OneOf((STRING, INTEGER))
    assert shapes["f"] == ANY and shapes["x"] == ANY and shapes["r"] == ANY
    assert shapes["c"] == Literals(("only",))


def test_a_module_declares_operations_in_every_arm_spelling() -> None:
    family, _ = _declared(ToolSchema("ship-parcel", "Ship a parcel.", SHIP))
    (op,) = host_entries([(family, lambda d: lambda scope, values: None)]).operations
    assert op.wire == "shop.ship_parcel" and op.js_name == "shipParcel" and op.waits_externally
    assert [e.code.value for e in op.errors] == ["invalid-argument", "other", "limit-exceeded", "io-error"]


def test_a_declaration_keeps_whether_a_record_is_open_in_a_recording() -> None:
    from gg.sdk.host.declaration import family_from_json, family_to_json

    family, _ = _declared(ToolSchema("ship-parcel", "Ship a parcel.", SHIP))
    assert family_from_json(json.loads(json.dumps(family_to_json(family)))) == family
    assert family_to_json(family)["records"][0]["open"] is True


def test_a_record_name_another_module_holds_is_not_taken() -> None:
    family, _ = declare_module(
        "shop", "shop", [ToolSchema("ship-parcel", "x", SHIP)], frozenset({"ShopAddress"})
    )
    assert family.records()[0].name == "ShopAddress2"
