"""The SDK reference a person reads (`gg docs`): every module, function, parameter, result and
error, spelled for one arm, from the same signature catalogue and pages the model's documentation
views are built from (`gg.sdk.docs.signatures`, `gg.sdk.docs.pages`).

Rules kept here:
- every function is documented, whoever may call it (a profile decides that, not the reference);
- modules come in the registry's order, gg's own first, then host families; each module's page,
  then its functions' pages, then its types' pages, each under a Markdown heading naming its key;
- the reference opens with how a program imports the SDK and how a failed call reaches it
  (`ApiError`, its fields and its codes), as that arm spells them;
- naming one module prints that module alone; a module the registry does not hold is a
  `LookupError` listing those it does; `sdk_reference` also takes a host family by its importable
  `package.module:attribute` and documents it beside gg's own modules.
"""

from __future__ import annotations

from typing import Any

from gg.errors import ErrorCode, FatalFault, GgDefect
from gg.sdk.catalogue import default_registry
from gg.sdk.docs.index import DocEntry, DocKind
from gg.sdk.docs.language import LanguageSpec
from gg.sdk.docs.pages import documentation
from gg.sdk.docs.signatures import signature_catalogue
from gg.sdk.host.declaration import FunctionDeclaration
from gg.sdk.host.operations import host_entries
from gg.sdk.host.sources import import_family
from gg.sdk.registry import PYTHON_ARMS, Handler, Registry
from gg.sdk.scope import ProgramScope

_HEADINGS = {DocKind.MODULE: "##", DocKind.FUNCTION: "###", DocKind.TYPE: "###"}
_CODES = ", ".join(f"`{code.value}`" for code in ErrorCode)
_ERRORS_ES = (
    'A call that fails throws an `ApiError` (`import { ApiError } from "gg";`) carrying `operation`\n'
    "(the function's key, `read_file`), `code` and `message`. The codes:\n" + _CODES + "."
)
_ERRORS_PY = (
    "A call that fails raises `gg.ApiError` (`except gg.ApiError as error:`); `gg.core.details(error)`\n"
    "hands back its `operation` (the function's key, `read_file`), `code` and `message`. The codes:\n"
    + _CODES
    + "."
)


def sdk_reference(language: LanguageSpec, module: str | None = None) -> str:
    """The reference spelled for `language`: gg's own SDK, or one module of it, or the host family an
    importable `package.module:attribute` names. Raises `LookupError` naming what is missing."""
    if module is None or ":" not in module:
        return reference(default_registry(), language, module)
    family = import_family(module)
    entries = host_entries([(family.declaration, _documented_only)])
    registry = default_registry(entries.operations, entries.types, dict(entries.briefs))
    return reference(registry, language, family.name)


def _documented_only(declaration: FunctionDeclaration) -> Handler:
    def handle(scope: ProgramScope, values: Any) -> Any:
        raise GgDefect(FatalFault.HOST_FAULT, f"`{declaration.name}` is documented here, never called")

    return handle


def reference(registry: Registry, language: LanguageSpec, module: str | None = None) -> str:
    """The reference of `registry` for `language`, or of its one `module`."""
    catalogue = signature_catalogue(registry, language)
    names = [m.name for m in catalogue.modules]
    if module is not None and module not in names:
        raise LookupError(f"no module `{module}` in the SDK; it has {', '.join(names)}")
    pages = documentation(catalogue, {f.key for f in catalogue.functions})
    chosen = [page for page in pages if module is None or page.module == module]
    parts = [_opening(language, module), *(_section(page) for page in chosen)]
    return "\n\n".join(parts) + "\n"


def _opening(language: LanguageSpec, module: str | None) -> str:
    scope = "the whole SDK" if module is None else f"the module `gg.{module}`"
    python = language.id in PYTHON_ARMS
    imports = (
        "A program reaches every module through one package: `import gg`, then `gg.<module>.<function>(...)`."
        if python
        else 'A program imports each module it uses by name: `import { files, views } from "gg";`.'
    )
    title = f"# gg SDK reference: {language.display_name} ({language.id})"
    return "\n\n".join([title, f"This is {scope}.", imports, _ERRORS_PY if python else _ERRORS_ES])


def _section(page: DocEntry) -> str:
    return f"{_HEADINGS[page.kind]} {page.key}\n\n{page.body.strip()}"
