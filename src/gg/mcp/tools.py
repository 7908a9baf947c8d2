"""An MCP server's tool list read as a family declaration (`gg.sdk.host.declaration`), the same
declaration a host family is read into from Python, so every arm, the docs and the stubs spell
a server's tools as they spell any host function. Pure.

Rules kept here:
- each tool is a function named by the naming rule (`gg.mcp.naming`); its summary is the first
  paragraph of its description (a tool without one says whose tool it is);
- each property of its input schema is a parameter named by the naming rule, of the shape the
  schema reads as (`gg.mcp.schema`); a required one is written in place, the others travel in the
  options object (JavaScript) or as keyword arguments (Python); its doc line is its description,
  then its default when the schema names one;
- its output schema is the declared result; a tool without one is declared honestly as any JSON
  value, and its docs page shows the shape of the last result the run saw (`gg.sdk.sighting`);
- every tool may fail `invalid-argument` (its input schema refused an argument), `other` (it
  answered with an error), `limit-exceeded` (its server did not answer in time) and `io-error`
  (its server could not be reached, or stopped during the call);
- `arguments` maps each parameter's wire name (camelCase) back to the property the server reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gg.errors import ErrorCode
from gg.mcp.naming import NameKind, spelled_apart
from gg.mcp.schema import ANY, SchemaReading, described
from gg.prompts import render
from gg.sdk.host.declaration import FamilyDeclaration, FunctionDeclaration, ParamDeclaration
from gg.sdk.host.hints import first_paragraph
from gg.sdk.shape_check import object_of
from gg.sdk.shapes import Shape
from gg.wire import camel

TOOL_ERRORS: tuple[tuple[ErrorCode, str], ...] = (
    (ErrorCode.INVALID_ARGUMENT, "an argument does not match the tool's input schema"),
    (ErrorCode.OTHER, "the tool answered with an error; the message is its own text"),
    (ErrorCode.LIMIT_EXCEEDED, "its server did not answer within the call's timeout"),
    (ErrorCode.IO_ERROR, "its server could not be reached, or stopped during the call"),
)


@dataclass(frozen=True)
class ToolSchema:
    """One tool as its server lists it: its own name, description and schemas (JSON data)."""

    name: str
    description: str = ""
    input_schema: Mapping[str, Any] = field(default_factory=dict[str, Any])
    output_schema: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class ServedTool:
    """A tool as a module serves it: what its server lists, its declaration, and the property each
    parameter's wire name stands for."""

    tool: ToolSchema
    declaration: FunctionDeclaration
    arguments: Mapping[str, str]

    @property
    def declares_result(self) -> bool:
        return self.tool.output_schema is not None


def declare_module(
    module: str, server: str, tools: Sequence[ToolSchema], taken: frozenset[str] = frozenset()
) -> tuple[FamilyDeclaration, tuple[ServedTool, ...]]:
    """The family `module` declares for the server keyed `server` listing `tools`; record names in
    `taken` (gg's own) are not used."""
    reading = SchemaReading(module, taken)
    names = spelled_apart([tool.name for tool in tools], NameKind.FUNCTION)
    served = tuple(_served(tool, name, server, reading) for tool, name in zip(tools, names, strict=True))
    brief = render("mcp-module-brief", server=server)
    return FamilyDeclaration(module, brief, tuple(s.declaration for s in served)), served


def _served(tool: ToolSchema, name: str, server: str, reading: SchemaReading) -> ServedTool:
    schema = tool.input_schema
    properties = object_of(schema.get("properties")) or {}
    required = {key for key in schema.get("required") or [] if isinstance(key, str)}
    spelled = spelled_apart(list(properties), NameKind.PARAMETER)
    params = tuple(
        _param(
            name,
            properties[raw],
            reading.read(properties[raw], schema, f"{tool.name} {raw}"),
            raw in required,
        )
        for raw, name in zip(properties, spelled, strict=True)
    )
    output = tool.output_schema
    result = ANY if output is None else reading.read(output, output, f"{tool.name} result")
    words = first_paragraph(tool.description or "")
    summary = " ".join(words.split()) or render("mcp-tool-undescribed", tool=tool.name, server=server)
    declaration = FunctionDeclaration(name, summary, params, result, TOOL_ERRORS)
    arguments = {camel(p.name): raw for p, raw in zip(params, properties, strict=True)}
    return ServedTool(tool, declaration, arguments)


def _param(name: str, schema: Any, shape: Shape, required: bool) -> ParamDeclaration:
    """A parameter of `shape`, documented by its `schema`: its description, then its default."""
    doc = described(schema)
    entry = object_of(schema) or {}
    if entry.get("default") is not None:
        default = f"defaults to {json.dumps(entry['default'], ensure_ascii=False)}"
        doc = f"{doc} ({default})" if doc else default
    return ParamDeclaration(name, shape, required=required, keyword=not required, doc=doc)
