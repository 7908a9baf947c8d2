"""The Modules tab: stores grouped by kind, each kind's overview, each store's detail."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console.distribution import store_reach
from gg.console.index import RunIndex
from gg.console.routes.frame import run_index, run_page
from gg.console.vocabulary import ModuleKind


def modules_home(request: Request) -> Response:
    """The first non-history kind's overview (history when it is the only kind)."""
    index = _with_tab(request)
    kinds = [k.kind for k in index.kinds]
    landing = next((k for k in kinds if k is not ModuleKind.HISTORY), kinds[0] if kinds else None)
    return _page(request, index, landing, None)


def kind_page(request: Request) -> Response:
    index = _with_tab(request)
    try:
        kind = ModuleKind(request.path_params["kind"])
    except ValueError:
        raise HTTPException(404, "No such module kind") from None
    return _page(request, index, kind, None)


def store_page(request: Request) -> Response:
    index = _with_tab(request)
    figures = index.store(request.path_params["module_id"])
    if figures is None:
        raise HTTPException(404, "No such store in this run")
    return _page(request, index, figures.store.kind, figures.store.id)


def _page(request: Request, index: RunIndex, kind: ModuleKind | None, module_id: str | None) -> Response:
    overview = next((k for k in index.kinds if k.kind is kind), None)
    figures = index.store(module_id) if module_id else None
    return run_page(
        request,
        index,
        "modules",
        "modules.html",
        kind=kind,
        overview=overview,
        figures=figures,
        reach={s.id: store_reach(s, index.profile_of) for s in index.modules.stores.values()},
    )


def _with_tab(request: Request) -> RunIndex:
    index = run_index(request)
    if not index.has_modules_tab:
        raise HTTPException(404, "This run has no Modules tab: no profile enables a module-backed capability")
    return index


ROUTES = [
    Route("/runs/{run_id}/modules", modules_home, name="modules"),
    Route("/runs/{run_id}/modules/kind/{kind}", kind_page, name="modules_kind"),
    Route("/runs/{run_id}/modules/store/{module_id}", store_page, name="modules_store"),
]
