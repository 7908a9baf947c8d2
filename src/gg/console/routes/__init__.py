"""The console's routes, one module per page or tab."""

from __future__ import annotations

from starlette.routing import BaseRoute

from gg.console.routes import agents, instances, live, modules, programs, project, query, runs, studies

__all__ = ["ROUTES"]

ROUTES: list[BaseRoute] = [
    *runs.ROUTES,
    *studies.ROUTES,
    *query.ROUTES,
    *instances.ROUTES,
    *modules.ROUTES,
    *agents.ROUTES,
    *project.ROUTES,
    *programs.ROUTES,
    *live.ROUTES,
]
