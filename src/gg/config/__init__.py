"""Capability sets: the models, their loading (every defect at once), their JSON Schema.

Load with `load_capability_set(path)` (JSON or TOML, or a folder holding one `gg.json` or
`gg.toml`); a refusal is a `gg.errors.ConfigError` carrying every `ConfigDefect` with its key path.
`check_report(path)` is what `gg check` prints.
"""

from gg.config.catalogue import CacheLifetime, CapabilityId, Language, Provider, Role
from gg.config.load import capability_set_schema, load_capability_set, parse_capability_set
from gg.config.model import (
    Agent,
    CapabilitySet,
    ErrorRateCeiling,
    LibrarySettings,
    Limits,
    ModelBinding,
    ModelCallLimits,
    ResponsesAsCodeParams,
)
from gg.config.report import check_report

__all__ = [
    "Agent",
    "CacheLifetime",
    "CapabilityId",
    "CapabilitySet",
    "ErrorRateCeiling",
    "Language",
    "LibrarySettings",
    "Limits",
    "ModelBinding",
    "ModelCallLimits",
    "Provider",
    "ResponsesAsCodeParams",
    "Role",
    "capability_set_schema",
    "check_report",
    "load_capability_set",
    "parse_capability_set",
]
