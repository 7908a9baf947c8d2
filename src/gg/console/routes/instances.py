"""The Instances tab: the agent tree, and each instance's files and modules folder."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console import charts
from gg.console.distribution import store_reach
from gg.console.index import RunIndex
from gg.console.routes.frame import run_index, run_page
from gg.console.vocabulary import ModuleKind

FILES = ("overview", "prompt", "surface", "activity", "context", "requests", "metrics", "compaction")
FILE_LABELS = {name: name.capitalize() for name in FILES}


def instances_home(request: Request) -> Response:
    index = run_index(request)
    return _file(request, index, index.tree.root, "overview")


def instance_file(request: Request) -> Response:
    index = run_index(request)
    return _file(request, index, request.path_params["agent_id"], request.path_params["file"])


def module_file(request: Request) -> Response:
    index = run_index(request)
    agent_id = request.path_params["agent_id"]
    _instance_or_404(index, agent_id)
    try:
        kind = ModuleKind(request.path_params["kind"])
    except ValueError:
        raise HTTPException(404, "No such module kind") from None
    store = index.modules.store_of(agent_id, kind)
    if store is None:
        raise HTTPException(404, f"{agent_id} holds no {kind.value} module")
    figures = index.store(store.id)
    return run_page(
        request,
        index,
        "instances",
        "instances/module.html",
        agent_id=agent_id,
        selected=f"modules/{kind.value}",
        store=store,
        figures=figures,
        reach=store_reach(store, index.profile_of),
        files=FILE_LABELS,
        lineage=index.tree.lineage(agent_id),
    )


def _file(request: Request, index: RunIndex, agent_id: str, file: str) -> Response:
    _instance_or_404(index, agent_id)
    if file not in FILES:
        raise HTTPException(404, "No such file")
    values: dict[str, object] = {}
    if file in ("metrics", "overview"):
        values["spend_chart"] = charts.spend_per_turn(index.turns(agent_id))
    if file == "overview":
        values["tree_picture"] = charts.agent_tree(index.tree)
    if file == "context":
        values["context_chart"] = charts.context_bands(index.context(agent_id))
    if file == "prompt":
        values["request_number"] = _request_number(request, index, agent_id)
    return run_page(
        request,
        index,
        "instances",
        f"instances/{file}.html",
        agent_id=agent_id,
        selected=file,
        files=FILE_LABELS,
        lineage=index.tree.lineage(agent_id),
        **values,
    )


def _request_number(request: Request, index: RunIndex, agent_id: str) -> int:
    window = index.windows.get(agent_id)
    count = len(window.requests) if window else 0
    try:
        wanted = int(request.query_params.get("request", count))
    except ValueError:
        wanted = count
    return min(max(wanted, 1), count) if count else 0


def _instance_or_404(index: RunIndex, agent_id: str) -> None:
    if index.instance(agent_id) is None:
        raise HTTPException(404, f"No instance {agent_id} in this run")


ROUTES = [
    Route("/runs/{run_id}/instances", instances_home, name="instances"),
    Route("/runs/{run_id}/instances/{agent_id}/modules/{kind}", module_file, name="module_file"),
    Route("/runs/{run_id}/instances/{agent_id}/{file}", instance_file, name="instance_file"),
]
