"""A call's arguments as its server reads them, judged against the tool's whole input schema before
anything is sent.

Rules kept here:
- the membrane has judged each argument against its shape (`gg.mcp.schema`); what the schema says
  besides (`minimum`, `maxLength`, `pattern`, `format`, ...) is judged here, by the JSON Schema
  dialect the schema names (2020-12 when it names none);
- each argument crosses under the property name the server reads (`ServedTool.arguments`);
- a refusal names where the argument breaks the schema, with the parameter spelled as the
  program's arm writes it and the path below it as the schema spells it (`filter.tags[2]`), and
  what the schema wanted, as the validator words it (which quotes the value);
- a schema the validator cannot read is not judged here: the shapes were, and the server judges
  the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jsonschema import exceptions, validators

from gg.prompts import render

Spell = Callable[[str], str]  # a parameter's snake_case name as the program's arm writes it


class ArgumentsCheck:
    """One tool's input schema, compiled once, and how its parameters are named."""

    def __init__(
        self, schema: Mapping[str, Any], arguments: Mapping[str, str], names: Mapping[str, str]
    ) -> None:
        self._sent = dict(arguments)  # wire name -> the property the server reads
        self._names = dict(names)  # the property the server reads -> the parameter's snake_case name
        try:
            kind = validators.validator_for(dict(schema))
            kind.check_schema(dict(schema))
            self._validator: Any = kind(dict(schema))
        except (exceptions.SchemaError, TypeError, ValueError):
            self._validator = None

    def sent(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The call's arguments under the names the server reads."""
        return {self._sent.get(wire, wire): value for wire, value in values.items()}

    def refusal(self, sent: Mapping[str, Any], spell: Spell) -> str | None:
        """Why `sent` breaks the input schema, or None when it does not (see the module rules)."""
        if self._validator is None:
            return None
        try:
            found = exceptions.best_match(self._validator.iter_errors(dict(sent)))
        except Exception:  # a schema whose reference cannot be resolved, say
            return None
        if found is None:
            return None
        return render(
            "mcp-argument-refused", path=self._path(list(found.absolute_path), spell), reason=found.message
        )

    def _path(self, path: list[Any], spell: Spell) -> str:
        if not path:
            return "arguments"
        head, *rest = path
        name = self._names.get(str(head))
        written = spell(name) if name is not None else str(head)
        return written + "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in rest)
