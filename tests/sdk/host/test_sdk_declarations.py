"""A host family joins the one declaration set: `gg.d.ts` (which type-checks), the Python stubs,
the signature catalogues (JavaScript's the same as TypeScript's), the documentation pages and
`docs.search`, the system prompt's module list; and its calls are gated per profile."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from deno import find_deno_bin

from gg.config.catalogue import Role
from gg.errors import ErrorCode, OperationError
from gg.loop.system import system_prompt
from gg.sandbox.deno.declarations import declarations
from gg.sandbox.languages import JAVASCRIPT, LANGUAGES, PYTHON, TYPESCRIPT
from gg.sandbox.membrane import Membrane
from gg.sandbox.monty.spelling import stubs
from gg.sdk.catalogue import default_registry
from gg.sdk.docs.index import DocKind
from gg.sdk.docs.signatures import signature_catalogue
from gg.sdk.docs.surface import build_surface
from gg.sdk.host.declaration import FunctionDeclaration
from gg.sdk.host.operations import host_entries
from gg.sdk.registry import Handler, Registry
from gg.sdk.scope import ProgramScope
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.guest_world import QuietLog
from warehouse import warehouse

GRANTED = frozenset({"responses-as-code", "host-functions", "host-functions:warehouse"})


def _answering(declaration: FunctionDeclaration) -> Handler:
    def handle(scope: ProgramScope, values: Any) -> Any:
        return f"{declaration.name} answered"

    return handle


def registry() -> Registry:
    entries = host_entries([(warehouse.declaration, _answering)])
    return default_registry(entries.operations, entries.types, dict(entries.briefs))


def _module(text: str, name: str) -> str:
    start = text.index(f'declare module "{name}"')
    return text[start : text.index("\n}\n", start) + 2]


def test_the_typescript_declarations_carry_the_family_and_type_check_clean(tmp_path: Path) -> None:
    text = declarations(registry())
    module = _module(text, "gg:warehouse")
    for line in [
        "  export interface Line {\n    sku: string;\n    quantity: number;\n    note?: string | null;\n  }",
        '    priority?: "low" | "high";',
        "  export function weigh(box: Box, options?: { extra?: number }): number;",
        "  export function lines(skus: string[], options?: { quantity?: number; note?: string | null }):"
        " Line[];",
        "  export function total(line: Line, stock: Record<string, number>): Record<string, number>;",
        '  export function choose(mode: "fast" | "slow", either: number | string | null, flag?: boolean):'
        " string;",
        "  export function note(text: string): void;",
        "  export function anything(value: unknown): unknown;",
        "  export function countLater(sku: string, delay?: number): number;",
    ]:
        assert line in module, line
    assert '  export * as warehouse from "gg:warehouse";' in text
    (tmp_path / "gg.d.ts").write_text(text)
    (tmp_path / "deno.json").write_text(
        '{"compilerOptions": {"strict": true, "lib": ["es2022"]}, "lock": false}'
    )
    checked = subprocess.run(
        [find_deno_bin(), "check", "gg.d.ts"],
        cwd=tmp_path,
        env={
            "DENO_DIR": str(tmp_path / "deno"),
            "NO_COLOR": "1",
            "DENO_NO_UPDATE_CHECK": "1",
            "PATH": os.defpath,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_python_stubs_spell_the_family_with_its_records_as_typed_dicts() -> None:
    stub = stubs(registry())["gg.warehouse"]
    for line in [
        "class Line(TypedDict):\n    sku: str\n    quantity: int\n    note: NotRequired[str | None]",
        "class Box(TypedDict):\n    label: str\n    weight: float\n    tags: list[str]",
        "    priority: NotRequired[Literal['low', 'high']]",
        "def weigh(box: Box, *, extra: float | None = None) -> float: ...",
        "def lines(skus: list[str], *, quantity: int | None = None, note: str | None = None)"
        " -> list[Line]: ...",
        "def choose(mode: Literal['fast', 'slow'], either: int | str | None, flag: bool | None = None)"
        " -> str: ...",
        "def note(text: str) -> None: ...",
        "def count_later(sku: str, delay: float | None = None) -> int: ...",
    ]:
        assert line in stub, line
    assert (
        "from gg import " in stubs(registry())["gg"] and "warehouse as warehouse" in stubs(registry())["gg"]
    )


def test_the_javascript_catalogue_is_the_typescript_one_with_the_family_in_it() -> None:
    typed = signature_catalogue(registry(), TYPESCRIPT).to_json()
    plain = signature_catalogue(registry(), JAVASCRIPT).to_json()
    typed.pop("language"), plain.pop("language")
    assert typed == plain
    module = next(m for m in typed["modules"] if m["name"] == "warehouse")
    assert module["brief"] == "the warehouse's boxes, lines and shipments."
    weigh = next(f for f in typed["functions"] if f["key"] == "gg.warehouse.weigh")
    assert weigh["params"] == [
        {"name": "box", "type": "Box", "optional": False, "doc": ""},
        {
            "name": "options.extra",
            "type": "number",
            "optional": True,
            "doc": "added to the box's weight (defaults to 0.0)",
        },
    ]
    python = signature_catalogue(registry(), PYTHON).to_json()
    assert (
        next(f for f in python["functions"] if f["key"] == "gg.warehouse.total")["returns"]
        == "dict[str, float]"
    )


@pytest.mark.parametrize("language", ["javascript", "typescript", "python", "python-typed"])
def test_docs_search_and_the_pages_carry_the_family_for_an_agent_granted_it(language: str) -> None:
    spec = LANGUAGES[language]
    surface = build_surface(registry(), spec, Role.STANDARD, GRANTED)
    hits = surface.docs.search("weigh a box", [], None)
    name = "countLater" if language in ("javascript", "typescript") else "count_later"
    assert hits[0].key == f"gg.warehouse.{'weigh'}"
    pages = {entry.key: entry for entry in surface.docs}
    assert pages["gg.warehouse"].kind is DocKind.MODULE and f"gg.warehouse.{name}" in pages
    assert "`not-found`: no box has that label" in pages["gg.warehouse.find"].body
    assert "Shipment" in pages["gg.warehouse.ship"].body and "gg.warehouse.Box" in pages
    ungranted = build_surface(registry(), spec, Role.STANDARD, frozenset({"responses-as-code"}))
    assert not [entry for entry in ungranted.docs if entry.module == "warehouse"]


def test_the_system_prompt_lists_the_family_only_for_an_agent_granted_it() -> None:
    granted = system_prompt(registry(), JAVASCRIPT, Role.STANDARD, GRANTED)
    assert "gg.warehouse" in granted and "the warehouse's boxes, lines and shipments." in granted
    assert "gg.warehouse" not in system_prompt(registry(), JAVASCRIPT, Role.STANDARD, frozenset())


def test_a_call_from_an_agent_whose_profile_does_not_list_the_family_is_refused(tmp_path: Path) -> None:
    def scope(capabilities: frozenset[str]) -> ProgramScope:
        return ProgramScope("root", Role.STANDARD, capabilities, Workspace(tmp_path), ViewSet(), 1)

    allowed = Membrane(registry(), scope(GRANTED), QuietLog(), "python")
    assert allowed("warehouse.note", {"text": "hi"}) == "note answered"
    refused = Membrane(registry(), scope(frozenset({"host-functions"})), QuietLog(), "python")
    with pytest.raises(OperationError) as raised:
        refused("warehouse.note", {"text": "hi"})
    assert raised.value.code is ErrorCode.UNAVAILABLE and raised.value.message == (
        "`gg.warehouse.note` is not available:"
        " this agent's profile does not enable `host-functions:warehouse`"
    )
    with pytest.raises(OperationError) as spelled:
        allowed("warehouse.count_later", {"sku": 3})
    assert (spelled.value.operation, spelled.value.message) == (
        "count_later",
        "`sku` must be a string, got 3",
    )
