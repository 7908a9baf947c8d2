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
from gg.sandbox.execution import MAX_SDK_CALLS
from gg.sdk.registry import WHOLE_RANGES, Operation, Param, ParamType, Registry
from gg.sdk.shape_check import PLAIN_DEPTH
from gg.wire import JS_RESERVED, camel

GUEST_DIR = Path(__file__).parent / "guest"
HOST_SCRIPT = GUEST_DIR / "host.js"

_RESERVED = JS_RESERVED | {"options"}  # `options` names the trailing options object
LOAD_CALL = f'skills.{camel("read_skill")}("{{key}}")'  # how a program loads `lib:<key>`


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
    call_cap: int = MAX_SDK_CALLS

    def init_message(self) -> dict[str, object]:
        return {
            "t": "init",
            "boot": self.boot,
            "sdk": dict(self.sdk),
            "words": dict(self.words),
            "families": list(self.families),
            "callCap": self.call_cap,
            "plainDepth": PLAIN_DEPTH,
        }


def build_bundle(registry: Registry, call_cap: int = MAX_SDK_CALLS) -> GuestBundle:
    """Everything the guest needs for `registry`, ready to send; a program may make `call_cap`
    SDK calls."""
    families = tuple(registry.families())
    sdk = {
        "sdk:/runtime.js": _guest_source("runtime.js"),
        "sdk:/core.js": 'export { ApiError } from "sdk:/runtime.js";\n',
        "sdk:/gg.js": aggregate_module(families),
    }
    for family in families:
        sdk[f"sdk:/{family}.js"] = family_module(family, registry.in_family(family))
    external = frozenset(op.wire for op in registry if op.waits_externally)
    words = guest_words(families, call_cap)
    boot = _guest_source("boot.js") + _guest_source("realm.js")
    return GuestBundle(boot, sdk, words, families, external, call_cap)


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
        "key": operation.key,
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


def guest_words(families: Iterable[str], call_cap: int = MAX_SDK_CALLS) -> dict[str, str]:
    """The guest's sentences, rendered once; `{spec}`, `{key}`, `{name}`, `{got}`, `{keys}`,
    `{known}` and `{function}` stay holes."""
    holes = {"spec": "{spec}", "name": "{name}", "got": "{got}", "keys": "{keys}", "known": "{known}"}
    hint = render("lib-load-hint", load_call=LOAD_CALL)
    return {
        "argOptions": render("js-arg-options", **holes),
        "argUnknownOption": render("unknown-option", function="{function}", **holes),
        "argU32": _whole("js-arg-u32", ParamType.U32, holes),
        "argCount": _whole("js-arg-u32", ParamType.COUNT, holes),
        "argPositive": render("js-arg-positive", **holes),
        "argString": render("js-arg-string", **holes),
        "argStringList": render("js-arg-string-list", **holes),
        "argListEntry": render("js-arg-list-entry", **holes),
        "argSpanList": render("js-arg-span-list", **holes),
        "argSpanEntry": render("js-arg-span-entry", **holes),
        "argSpanBounds": render("js-arg-span-bounds", **holes),
        "argPlainData": render("arg-plain-data", python=False, depth=PLAIN_DEPTH, **holes),
        "argDocTarget": render("js-arg-doc-target", **holes),
        "argDocForeign": render("js-arg-doc-foreign", **holes),
        "importInternal": render("js-import-internal", **holes),
        "importFamily": render("js-import-family", families=", ".join(families), **holes),
        "importLib": render("js-import-lib", hint=hint, **holes),
        "importNoLibs": render("js-import-no-libs", hint=hint, **holes),
        "importElsewhere": render("js-import-elsewhere", **holes),
        "importClosed": render("js-import-closed"),
        "unavailable": render("js-unavailable", **holes),
        "callCap": render("sdk-call-cap", cap=f"{call_cap:,}"),
    }


@cache
def _guest_source(name: str) -> str:
    return (GUEST_DIR / name).read_text(encoding="utf-8")


def _whole(template: str, kind: ParamType, holes: dict[str, str]) -> str:
    """The refusal of a whole number outside `kind`'s range, stating that range."""
    least, most = WHOLE_RANGES[kind]
    return render(template, least=least, max=most, **holes)
