"""The exported JSON Schema: keys as written, unknown keys refused, bounds stated.

`jsonschema` is not installed, so a small checker below covers the keywords the schema uses;
it must accept the example and refuse what the loader refuses by shape.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from gg.config import capability_set_schema

from .documents import code_mode, example, library, root

Schema = dict[str, Any]
TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
    "number": (int, float),
    "integer": (int, float),
}


def accepts(schema: Schema, value: Any, defs: Schema) -> bool:
    """Whether `value` meets `schema` (the subset of JSON Schema 2020-12 that gg's schema uses)."""
    if "$ref" in schema:
        return accepts(defs[schema["$ref"].rsplit("/", 1)[-1]], value, defs) and accepts(
            {k: v for k, v in schema.items() if k != "$ref"}, value, defs
        )
    checks = [
        _type_ok(schema, value),
        "enum" not in schema or value in schema["enum"],
        "const" not in schema or value == schema["const"],
        "anyOf" not in schema or any(accepts(s, value, defs) for s in schema["anyOf"]),
        "oneOf" not in schema or sum(accepts(s, value, defs) for s in schema["oneOf"]) == 1,
        _conditional_ok(schema, value, defs),
    ]
    return (
        all(checks)
        and _object_ok(schema, value, defs)
        and _array_ok(schema, value, defs)
        and _scalar_ok(schema, value)
    )


def _type_ok(schema: Schema, value: Any) -> bool:
    if "type" not in schema:
        return True
    if isinstance(value, bool) and schema["type"] != "boolean":
        return False
    if schema["type"] == "integer" and isinstance(value, float) and not value.is_integer():
        return False
    return isinstance(value, TYPES[schema["type"]])


def _conditional_ok(schema: Schema, value: Any, defs: Schema) -> bool:
    if "if" not in schema:
        return True
    branch = "then" if accepts(schema["if"], value, defs) else "else"
    return accepts(schema.get(branch, {}), value, defs)


def _object_ok(schema: Schema, value: Any, defs: Schema) -> bool:
    if not isinstance(value, dict):
        return True
    properties: Schema = schema.get("properties", {})
    if any(key not in value for key in schema.get("required", [])):
        return False
    if schema.get("additionalProperties") is False and any(key not in properties for key in value):
        return False
    return all(accepts(properties[key], item, defs) for key, item in value.items() if key in properties)


def _array_ok(schema: Schema, value: Any, defs: Schema) -> bool:
    if not isinstance(value, list):
        return True
    return len(value) >= schema.get("minItems", 0) and all(
        accepts(schema.get("items", {}), v, defs) for v in value
    )


def _scalar_ok(schema: Schema, value: Any) -> bool:
    if isinstance(value, str):
        pattern = schema.get("pattern")
        within = schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value))
        return within and (pattern is None or re.search(pattern, value) is not None)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (
            value >= schema.get("minimum", value)
            and value <= schema.get("maximum", value)
            and ("exclusiveMinimum" not in schema or value > schema["exclusiveMinimum"])
        )
    return True


@pytest.fixture
def schema() -> Schema:
    return capability_set_schema()


def valid(schema: Schema, document: Any) -> bool:
    return accepts(schema, document, schema["$defs"])


def test_the_schema_accepts_the_example(schema: Schema) -> None:
    assert valid(schema, example())


def test_the_schema_accepts_5e8_bytes_and_refuses_a_fraction(schema: Schema) -> None:
    document = example()
    code_mode(document)["params"]["maxMemoryBytes"] = 5e8
    assert valid(schema, document)
    code_mode(document)["params"]["maxMemoryBytes"] = 500000000.5
    assert not valid(schema, document)


Spoil = Callable[[dict[str, Any]], object]
SPOILS: list[Spoil] = [
    lambda d: d.update(colour="blue"),
    lambda d: d["limits"].update(maxTurns=0),
    lambda d: library(d)["params"].update(idLength=33),
    lambda d: library(d)["params"].pop("keep"),
    lambda d: library(d).update(id="telepathy"),
    lambda d: root(d).update(role="boss"),
    lambda d: root(d).update(slug="Root"),
    lambda d: d.update(agents=[]),
    lambda d: d.pop("name"),
    lambda d: d.update(name="review \u202etxt.exe"),
    lambda d: root(d).update(name="root\x00"),
    lambda d: root(d).update(name="root\x1b[2J"),
]


@pytest.mark.parametrize("spoil", SPOILS)
def test_the_schema_refuses_what_the_loader_refuses_by_shape(schema: Schema, spoil: Spoil) -> None:
    document = example()
    spoil(document)
    assert not valid(schema, document)


def test_the_schema_accepts_a_name_of_any_script_and_symbol(schema: Schema) -> None:
    document = example()
    document["name"] = "Prüfung · 審査 — ✓ (v2)"
    root(document).update(name="Ревизор")
    assert valid(schema, document)


def test_a_disabled_library_needs_no_params_in_the_schema(schema: Schema) -> None:
    document = example()
    library(document).update(enabled=False, params={})
    assert valid(schema, document)


def test_the_schema_spells_keys_as_the_document_does(schema: Schema) -> None:
    text = json.dumps(schema)
    for key in ["maxTurns", "errorRateWindow", "maxMemoryBytes", "timeoutSecs", "idLength", "apiKeyEnv"]:
        assert f'"{key}"' in text
    assert "max_turns" not in text and "id_length" not in text


def test_every_object_in_the_schema_refuses_unknown_keys(schema: Schema) -> None:
    objects = [schema, *schema["$defs"].values()]
    assert all(o.get("additionalProperties") is False for o in objects if o.get("type") == "object")


def test_the_schema_states_bounds_and_describes_values(schema: Schema) -> None:
    id_length = schema["$defs"]["ProgramLibraryParams"]["properties"]["idLength"]["anyOf"][0]
    assert (id_length["type"], id_length["minimum"], id_length["maximum"]) == ("integer", 2, 32)
    assert id_length["description"] == "A whole number from 2 to 32"
    timeout = schema["$defs"]["ResponsesAsCodeParams"]["properties"]["timeoutSecs"]
    assert (timeout["type"], timeout["exclusiveMinimum"], timeout["default"]) == ("number", 0, 30.0)


def test_the_schema_names_its_dialect(schema: Schema) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "gg capability set"
