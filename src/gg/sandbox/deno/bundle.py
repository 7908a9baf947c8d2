"""The JavaScript guest's SDK, generated from the operation registry, and the bundle a pool boots.

One module per family (`sdk:/<family>.js`, reached as `gg:<family>`) exports one camelCase
function per operation: required parameters positional, optional ones in a trailing options
object keyed by their camelCase wire names. Each function hands a declarative spec to the
shared runtime (`guest/runtime.js`), which checks arguments per `ParamType`, crosses to the host
and attaches `Alias` methods. `sdk:/gg.js` (the bare `gg`) re-exports every family as a
namespace plus `ApiError`; `sdk:/core.js` (`gg:core`) exports `ApiError`. Every sentence the
guest itself writes (argument checks, import refusals, missing globals) is rendered here from
the prompt templates, with `{name}`-style holes the guest fills in.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gg.prompts import render
from gg.sdk.registry import U32_MAX, Operation, Param, ParamType, Registry
from gg.wire import JS_RESERVED, camel

GUEST_DIR = Path(__file__).parent / "guest"
HOST_SCRIPT = GUEST_DIR / "host.js"

_RESERVED = JS_RESERVED | {"options"}  # `options` names the trailing options object


@dataclass(frozen=True)
class GuestBundle:
    """What a Deno pool sends its Workers: the boot module, the SDK modules by internal URL,
    the guest's own sentences and the family names; and, for the pool alone, the wire keys of
    the operations whose calls wait on external work."""

    boot: str
    sdk: Mapping[str, str]
    words: Mapping[str, str]
    families: tuple[str, ...]
    external: frozenset[str] = frozenset()

    def init_message(self, heap_mb: int) -> dict[str, object]:
        return {
            "t": "init",
            "boot": self.boot,
            "sdk": dict(self.sdk),
            "words": dict(self.words),
            "families": list(self.families),
            "heapMb": heap_mb,
        }


def build_bundle(registry: Registry) -> GuestBundle:
    """Everything the guest needs for `registry`, ready to send."""
    families = tuple(registry.families())
    sdk = {
        "sdk:/runtime.js": _guest_source("runtime.js"),
        "sdk:/core.js": 'export { ApiError } from "sdk:/runtime.js";\n',
        "sdk:/gg.js": aggregate_module(families),
    }
    for family in families:
        sdk[f"sdk:/{family}.js"] = family_module(family, registry.in_family(family))
    external = frozenset(op.wire for op in registry if op.waits_externally)
    return GuestBundle(_guest_source("boot.js"), sdk, guest_words(families), families, external)


def aggregate_module(families: Iterable[str]) -> str:
    """The bare `gg`: every family as a namespace, plus the one error class."""
    lines = [f'export * as {family} from "sdk:/{family}.js";' for family in families]
    lines.append('export { ApiError } from "sdk:/runtime.js";')
    return "\n".join(lines) + "\n"


def family_module(family: str, operations: Iterable[Operation]) -> str:
    """`gg:<family>`: one exported function per operation, each a thin call into the runtime."""
    parts = [
        f"// gg:{family}, generated from gg's operation registry.",
        'import { call, register } from "sdk:/runtime.js";',
    ]
    for operation in operations:
        parts.append(_function_source(operation))
    return "\n\n".join(parts) + "\n"


def _function_source(operation: Operation) -> str:
    const = operation.key.upper()
    in_place = [p for p in operation.params if p.in_place]
    names = [js_identifier(p.wire) for p in in_place]
    signature = [*names, "options"] if len(in_place) < len(operation.params) else names
    spec = {
        "js": operation.js_name,
        "wire": operation.wire,
        "required": [[p.wire, _checked(p), p.required] for p in in_place],
        "optional": [[p.wire, p.type.value] for p in operation.params if not p.in_place],
        "aliases": [[camel(a.method), a.operation, camel(a.field)] for a in operation.aliases],
    }
    options = "options" if "options" in signature else "undefined"
    return (
        f"const {const} = {json.dumps(spec)};\n"
        f"export function {operation.js_name}({', '.join(signature)}) {{\n"
        f"  return call({const}, [{', '.join(names)}], {options});\n"
        f"}}\n"
        f"register({const}, {operation.js_name});"
    )


def _checked(param: Param) -> str:
    """The runtime check for a parameter: its type, or `string!` for a string the SDK checks itself."""
    return "string!" if param.checked_by_sdk and param.type is ParamType.STRING else param.type.value


def js_identifier(name: str) -> str:
    return f"{name}_" if name in _RESERVED else name


def guest_words(families: Iterable[str]) -> dict[str, str]:
    """The guest's sentences, rendered once; `{spec}`, `{name}`, `{got}`, `{keys}` stay holes."""
    holes = {"spec": "{spec}", "name": "{name}", "got": "{got}", "keys": "{keys}"}
    return {
        "argOptions": render("js-arg-options", **holes),
        "argU32": render("js-arg-u32", max=U32_MAX, **holes),
        "argPositive": render("js-arg-positive", **holes),
        "argString": render("js-arg-string", **holes),
        "argStringList": render("js-arg-string-list", **holes),
        "argListEntry": render("js-arg-list-entry", **holes),
        "argDocTarget": render("js-arg-doc-target", **holes),
        "argDocForeign": render("js-arg-doc-foreign", **holes),
        "importInternal": render("js-import-internal", **holes),
        "importFamily": render("js-import-family", families=", ".join(families), **holes),
        "importLib": render("js-import-lib", **holes),
        "importNoLibs": render("js-import-no-libs", **holes),
        "importElsewhere": render("js-import-elsewhere", **holes),
        "unavailable": render("js-unavailable", **holes),
    }


@cache
def _guest_source(name: str) -> str:
    return (GUEST_DIR / name).read_text(encoding="utf-8")
