"""What every tab of a run page shares: the run's header, its tabs, its live stream."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse

from gg.console.index import RunIndex
from gg.console.modules import IndexedStore
from gg.console.site import console_of


@dataclass(frozen=True)
class Tab:
    name: str
    label: str
    path: str


def tabs(index: RunIndex) -> list[Tab]:
    """Instances, Modules (when a profile enables a module-backed capability), Agents, Project
    (when the run has a board), Programs."""
    base = f"/runs/{index.run_id}"
    out = [Tab("instances", "Instances", f"{base}/instances")]
    if index.has_modules_tab:
        out.append(Tab("modules", "Modules", f"{base}/modules"))
    out.append(Tab("agents", "Agents", f"{base}/agents"))
    if index.has_project_tab:
        out.append(Tab("project", "Project", f"{base}/project"))
    out.append(Tab("programs", "Programs", f"{base}/programs"))
    return out


def store_address(index: RunIndex, store: IndexedStore) -> str | None:
    """Where a store's page is: on the Modules tab when the run has one, else the module file
    of an instance that holds it, else nowhere (it is shown unlinked)."""
    base = f"/runs/{index.run_id}"
    if index.has_modules_tab:
        return f"{base}/modules/store/{store.id}"
    holder = next((h for h in store.holders if index.modules.store_of(h.agent_id, store.kind) is store), None)
    return None if holder is None else f"{base}/instances/{holder.agent_id}/modules/{store.kind.value}"


def run_page(request: Request, index: RunIndex, tab: str, template: str, **values: Any) -> HTMLResponse:
    return console_of(request).page(
        request,
        template,
        index=index,
        tab=tab,
        tabs=tabs(index),
        live_url=f"/runs/{index.run_id}/live?seen={index.events}" if index.live else None,
        **values,
    )


def run_index(request: Request) -> RunIndex:
    return console_of(request).index(request.path_params["run_id"])
