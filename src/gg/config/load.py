"""Loading a capability set: one refusal names every defect, or a frozen `CapabilitySet`.

- `load_capability_set(path)` reads a JSON or TOML file (or the one config file in a folder);
  relative paths in it resolve against the file's folder.
- `parse_capability_set(document, base)` judges an already-parsed document; shape checks
  (pydantic), cross-field rules, repeated JSON keys, one definition per MCP server key
  (`gg.config.mcp_listing`) and the workspace pass (`gg.config.skills`, once the rest loads) are
  collected into one `ConfigError`;
  `judge_capability_set` returns the same findings unrendered (a study maps them to its own keys).
- what a profile's `disabledOperations` names is the SDK's to judge: a caller that knows the
  modules (`gg check`, a launch) hands an `OperationJudge`, so an entry that withholds nothing is
  named with every other defect, in one refusal.
- `capability_set_schema()` is the JSON Schema editors use; keys are spelled as in the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gg.config.catalogue import OPERATION_ENTRY, CapabilityId
from gg.config.defects import Finding, mapping, render_defects, sequence
from gg.config.document import locate, read_document, repeated_key_findings
from gg.config.mcp_listing import mcp_listing_findings
from gg.config.model import CapabilitySet
from gg.config.rules import cross_field_findings
from gg.config.skills import skills_findings
from gg.config.wording import findings_from
from gg.errors import ConfigError

__all__ = [
    "SCHEMA_DIALECT",
    "OperationJudge",
    "capability_set_schema",
    "judge_capability_set",
    "load_capability_set",
    "parse_capability_set",
]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

OperationJudge = Callable[[Sequence[str], bool], Iterable[tuple[int, str]]]
"""Judges one profile's `disabledOperations`: the index of each entry that withholds nothing, and
why; told whether the profile binds modules of its own at launch (host families, MCP servers),
whose entries only the launch can judge."""
_BINDING = frozenset({CapabilityId.HOST_FUNCTIONS.value, CapabilityId.MCP.value})


def load_capability_set(
    path: str | Path, *, models_handed: Collection[int] = (), operations: OperationJudge | None = None
) -> CapabilitySet:
    """The capability set at `path`; raises `ConfigError` naming every defect at once."""
    file = locate(path)
    document = read_document(file)
    return parse_capability_set(
        document,
        base=file.resolve().parent,
        source=str(file),
        models_handed=models_handed,
        operations=operations,
    )


def parse_capability_set(
    document: Mapping[str, Any],
    base: Path,
    source: str = "(capability set)",
    *,
    models_handed: Collection[int] = (),
    operations: OperationJudge | None = None,
) -> CapabilitySet:
    """Judge `document` whole; paths in it resolve against `base`. `models_handed`: the profiles
    (by index in `agents`) the run is handed a model for, which need not name one; `operations`
    judges what the profiles' ablations name."""
    loaded, findings = judge_capability_set(
        document, base, models_handed=models_handed, operations=operations
    )
    if findings or loaded is None:
        raise ConfigError(source, render_defects(findings, document))
    return loaded


def judge_capability_set(
    document: Mapping[str, Any],
    base: Path,
    *,
    models_handed: Collection[int] = (),
    operations: OperationJudge | None = None,
) -> tuple[CapabilitySet | None, list[Finding]]:
    """The capability set `document` describes (None when refused), and every defect found in it."""
    findings: list[Finding] = [
        *repeated_key_findings(document),
        *cross_field_findings(document, models_handed=models_handed),
        *mcp_listing_findings(document, base),
        *([] if operations is None else _ablation_findings(document, operations)),
    ]
    loaded: CapabilitySet | None = None
    try:
        loaded = CapabilitySet.model_validate(document, context={"base": base})
    except ValidationError as error:
        findings = [*findings_from(error, document, CapabilitySet), *findings]
    if loaded is not None:  # the workspace pass, once the workspace is known
        findings = [*findings, *skills_findings(sequence(document.get("agents")) or [], loaded.workspace)]
    return (None if findings else loaded), findings


def _ablation_findings(document: Mapping[str, Any], judge: OperationJudge) -> list[Finding]:
    """A finding for each `disabledOperations` entry `judge` refuses, in each profile whose entries
    are all text; an entry not spelled as one (`OPERATION_ENTRY`) is the schema's to name."""
    findings: list[Finding] = []
    for n, agent in enumerate(sequence(document.get("agents")) or []):
        profile = mapping(agent) or {}
        entries = sequence(profile.get("disabledOperations")) or []
        capabilities = [mapping(entry) or {} for entry in sequence(profile.get("capabilities")) or []]
        binds = any(capability.get("id") in _BINDING for capability in capabilities)
        if all(isinstance(entry, str) for entry in entries):
            findings += [
                Finding(("agents", n, "disabledOperations", i), why)
                for i, why in judge(entries, binds)
                if re.fullmatch(OPERATION_ENTRY, entries[i])
            ]
    return findings


def capability_set_schema() -> dict[str, Any]:
    """The JSON Schema of a capability-set document (camelCase keys, as written)."""
    schema = CapabilitySet.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": SCHEMA_DIALECT, **schema, "title": "gg capability set"}
