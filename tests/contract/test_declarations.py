"""One declaration set, every catalogue: the guest SDK, `gg.d.ts`, the signature catalogues and the
documentation are all generated from the registry, and each is checked against it here.

A test fails when any artifact names a function, a parameter or a type the registry does not
declare, or misses one it does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from deno import find_deno_bin

from gg.config.catalogue import Role
from gg.sandbox.deno.bundle import build_bundle
from gg.sandbox.deno.declarations import declarations, ts_declaration, ts_signature
from gg.sandbox.languages import JAVASCRIPT, LANGUAGES, TYPESCRIPT
from gg.sdk.catalogue import FAMILY_BRIEFS, default_registry
from gg.sdk.docs.signatures import signature_catalogue
from gg.sdk.docs.surface import build_surface
from gg.sdk.registry import STANDS_IN_A_STATE, Capability, Ending, Registry
from gg.sdk.types import PRIMITIVES, Term, names_in, referenced, terms

REGISTRY = default_registry()
EVERY_CAPABILITY = frozenset(op.gate.id for op in REGISTRY if isinstance(op.gate, Capability)) | {
    STANDS_IN_A_STATE
}


def _functions_in_sdk(registry: Registry) -> dict[str, list[tuple[str, list[str]]]]:
    """Per family module of the guest SDK: (function, its spec's parameter names) in order."""
    found: dict[str, list[tuple[str, list[str]]]] = {}
    for url, source in build_bundle(registry).sdk.items():
        family = url.removeprefix("sdk:/").removesuffix(".js")
        for match in re.finditer(r"const [A-Z_0-9]+ = (\{.*\});\nexport function (\w+)\(", source):
            spec = json.loads(match.group(1))
            params = [p[0] for p in spec["required"]] + [p[0] for p in spec["optional"]]
            found.setdefault(family, []).append((match.group(2), params))
    return found


def _registry_functions(registry: Registry) -> dict[str, list[tuple[str, list[str]]]]:
    found: dict[str, list[tuple[str, list[str]]]] = {}
    for op in registry:
        in_place = [p.wire for p in op.params if p.in_place]
        options = [p.wire for p in op.params if not p.in_place]
        found.setdefault(op.family, []).append((op.js_name, in_place + options))
    return found


def test_every_type_an_operation_or_a_record_names_is_declared() -> None:
    for op in REGISTRY:
        missing = [name for name in names_in(op.returns) if name not in REGISTRY.types]
        assert not missing, f"{op.wire} returns undeclared {missing}"
    for decl in REGISTRY.types.values():
        missing = [name for name in referenced(decl) if name not in REGISTRY.types]
        assert not missing, f"{decl.name} names undeclared {missing}"


def test_type_expressions_follow_the_one_grammar() -> None:
    assert terms('"text" | string[] | DirEntry[][] | null') == (
        Term('"text"'),
        Term("string", 1),
        Term("DirEntry", 2),
        Term("null"),
    )
    for bad in ["Map<string, number>", "{ a: string }", "string |", "() => void"]:
        with pytest.raises(ValueError):
            terms(bad)
    assert {"string", "number", "boolean", "void", "unknown", "null"} == PRIMITIVES


def test_the_guest_sdk_exports_exactly_the_registrys_functions_and_parameters() -> None:
    sdk = _functions_in_sdk(REGISTRY)
    assert {family: sdk[family] for family in REGISTRY.families()} == _registry_functions(REGISTRY)
    assert set(sdk) == set(REGISTRY.families())


def test_gg_d_ts_declares_every_function_and_type_in_its_familys_module() -> None:
    text = declarations(REGISTRY)
    modules = dict(re.findall(r'declare module "([^"]+)" \{\n(.*?)\n\}', text, re.S))
    families = {*REGISTRY.families(), *(decl.family for decl in REGISTRY.types.values())}
    assert set(modules) == {f"gg:{family}" for family in families} | {"gg:core", "gg"}
    for op in REGISTRY:
        assert f"  export function {ts_signature(op)};" in modules[f"gg:{op.family}"], op.wire
    for decl in REGISTRY.types.values():
        head = ts_declaration(decl).splitlines()[0]
        assert f"  export {head}" in modules[f"gg:{decl.family}"], decl.name
    declared = re.findall(r"export function (\w+)\(", text)
    assert sorted(declared) == sorted(op.js_name for op in REGISTRY)
    for family in families:
        assert f'  export * as {family} from "gg:{family}";' in modules["gg"]
    assert 'declare module "lib:*";' in text


def test_gg_d_ts_type_checks_clean_under_the_arms_settings(tmp_path: Path) -> None:
    (tmp_path / "gg.d.ts").write_text(declarations(REGISTRY))
    (tmp_path / "deno.json").write_text(
        json.dumps({"compilerOptions": {"strict": True, "lib": ["es2022"]}, "lock": False})
    )
    environment = {
        "DENO_DIR": str(tmp_path / "deno"),
        "NO_COLOR": "1",
        "DENO_NO_UPDATE_CHECK": "1",
        "PATH": os.defpath,
    }
    checked = subprocess.run(
        [find_deno_bin(), "check", "gg.d.ts"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_javascript_catalogue_is_the_typescript_one_entry_for_entry() -> None:
    typed = signature_catalogue(REGISTRY, TYPESCRIPT).to_json()
    plain = signature_catalogue(REGISTRY, JAVASCRIPT).to_json()
    assert typed.pop("language") == "typescript" and plain.pop("language") == "javascript"
    assert typed == plain
    assert json.loads(json.dumps(typed)) == typed


def test_the_catalogue_holds_every_operation_type_and_module_as_declared() -> None:
    catalogue = signature_catalogue(REGISTRY, TYPESCRIPT).to_json()
    assert catalogue["schema"] == 1
    assert [f["operation"] for f in catalogue["functions"]] == [op.wire for op in REGISTRY]
    for entry, op in zip(catalogue["functions"], REGISTRY, strict=True):
        assert entry["key"] == op.qualified("typescript")
        assert entry["signature"] == TYPESCRIPT.signature(op)
        assert entry["returns"] == op.returns and entry["summary"] == op.summary
        in_place = [p.wire for p in op.params if p.in_place]
        options = [f"options.{p.wire}" for p in op.params if not p.in_place]
        assert sorted(p["name"] for p in entry["params"]) == sorted(in_place + options)
        assert [e["code"] for e in entry["errors"]] == [e.code.value for e in op.errors]
    assert [t["name"] for t in catalogue["types"]] == list(REGISTRY.types)
    assert [m["name"] for m in catalogue["modules"]][: len(REGISTRY.families())] == REGISTRY.families()
    assert all(m["brief"] == FAMILY_BRIEFS[m["name"]] for m in catalogue["modules"])


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_every_call_an_agent_may_make_is_documented_with_its_catalogue_signature(
    role: Role, language: str
) -> None:
    spec = LANGUAGES[language]
    surface = build_surface(REGISTRY, spec, role, EVERY_CAPABILITY)
    pages = {entry.key: entry for entry in surface.docs}
    for op in REGISTRY:
        key = op.qualified(language)
        bound = not isinstance(op.gate, Ending) or op.gate.role is role
        assert (key in pages) is bound, key
        if bound:
            assert pages[key].body.startswith(spec.signature(op) + "\n" + op.summary + "\n"), key
    for decl in REGISTRY.types.values():
        key = f"gg.{decl.family}.{decl.name}"
        assert key in pages and ts_declaration(decl).splitlines()[0] in pages[key].body
