"""The Agents tab: the run read per configured profile, its toolset among it (what its agents were
offered, what its ablation withheld, what they called: `gg.record.toolset`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console import charts
from gg.console.distribution import profile_rows
from gg.console.index import agent_figures
from gg.console.routes.frame import run_index, run_page, store_address


def agents_page(request: Request) -> Response:
    index = run_index(request)
    profiles = []
    for profile, instances in index.tree.profiles().items():
        ids = [i.id for i in instances]
        turns = [t for agent in ids for t in index.turns(agent)]
        profiles.append(
            {
                "name": profile,
                "instances": instances,
                "figures": agent_figures(turns),
                "modules": profile_rows(index.modules, ids, index.profile_of),
                "toolset": index.toolset(instances),
            }
        )
    addresses = {store.id: store_address(index, store) for store in index.modules.stores.values()}
    return run_page(
        request,
        index,
        "agents",
        "agents.html",
        profiles=profiles,
        addresses=addresses,
        tree_picture=charts.agent_tree(index.tree),
    )


ROUTES = [Route("/runs/{run_id}/agents", agents_page, name="agents")]
