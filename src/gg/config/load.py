"""Loading a capability set: one refusal names every defect, or a frozen `CapabilitySet`.

- `load_capability_set(path)` reads a JSON or TOML file (or the one config file in a folder);
  relative paths in it resolve against the file's folder.
- `parse_capability_set(document, base)` judges an already-parsed document; shape checks
  (pydantic), cross-field rules, repeated JSON keys and the workspace pass (`gg.config.skills`,
  once the rest loads) are collected into one `ConfigError`;
  `judge_capability_set` returns the same findings unrendered (a study maps them to its own keys).
- `capability_set_schema()` is the JSON Schema editors use; keys are spelled as in the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gg.config.defects import Finding, render_defects, sequence
from gg.config.document import locate, read_document, repeated_key_findings
from gg.config.model import CapabilitySet
from gg.config.rules import cross_field_findings
from gg.config.skills import skills_findings
from gg.config.wording import findings_from
from gg.errors import ConfigError

__all__ = [
    "SCHEMA_DIALECT",
    "capability_set_schema",
    "judge_capability_set",
    "load_capability_set",
    "parse_capability_set",
]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def load_capability_set(path: str | Path, *, root_model_handed: bool = False) -> CapabilitySet:
    """The capability set at `path`; raises `ConfigError` naming every defect at once."""
    file = locate(path)
    document = read_document(file)
    return parse_capability_set(
        document, base=file.resolve().parent, source=str(file), root_model_handed=root_model_handed
    )


def parse_capability_set(
    document: Mapping[str, Any],
    base: Path,
    source: str = "(capability set)",
    *,
    root_model_handed: bool = False,
) -> CapabilitySet:
    """Judge `document` whole; paths in it resolve against `base`. `root_model_handed`: the run is
    handed the root's model, so the root profile need not name one."""
    loaded, findings = judge_capability_set(document, base, root_model_handed=root_model_handed)
    if findings or loaded is None:
        raise ConfigError(source, render_defects(findings, document))
    return loaded


def judge_capability_set(
    document: Mapping[str, Any], base: Path, *, root_model_handed: bool = False
) -> tuple[CapabilitySet | None, list[Finding]]:
    """The capability set `document` describes (None when refused), and every defect found in it."""
    findings: list[Finding] = [
        *repeated_key_findings(document),
        *cross_field_findings(document, root_model_handed=root_model_handed),
    ]
    loaded: CapabilitySet | None = None
    try:
        loaded = CapabilitySet.model_validate(document, context={"base": base})
    except ValidationError as error:
        findings = [*findings_from(error, document, CapabilitySet), *findings]
    if loaded is not None:  # the workspace pass, once the workspace is known
        findings = [*findings, *skills_findings(sequence(document.get("agents")) or [], loaded.workspace)]
    return (None if findings else loaded), findings


def capability_set_schema() -> dict[str, Any]:
    """The JSON Schema of a capability-set document (camelCase keys, as written)."""
    schema = CapabilitySet.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": SCHEMA_DIALECT, **schema, "title": "gg capability set"}
