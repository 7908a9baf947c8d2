"""The runs page, and the run's own address (its Instances tab)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from gg.console.listing import listed_runs
from gg.console.site import console_of
from gg.record.runs import RUNNING, shown_status


def runs_page(request: Request) -> Response:
    console = console_of(request)
    status, name = request.query_params.get("status", ""), request.query_params.get("q", "")
    if not console.source.exists():
        return console.page(
            request,
            "runs.html",
            runs=[],
            statuses=[],
            status=status,
            q=name,
            store=console.source.path,
            empty=True,
        )
    rows = console.source.list_runs()
    shown = {row.id: shown_status(row) for row in rows}
    figures = console.source.figures(rows)
    listed = listed_runs(rows, shown, figures, status=status, name=name)
    return console.page(
        request,
        "runs.html",
        runs=listed,
        statuses=sorted(set(shown.values())),
        status=status,
        q=name,
        store=console.source.path,
        empty=not rows,
        live_url=f"/live?seen={console.source.state().token}" if RUNNING in shown.values() else None,
    )


def run_home(request: Request) -> Response:
    console_of(request).source.run(request.path_params["run_id"])
    return RedirectResponse(f"/runs/{request.path_params['run_id']}/instances", status_code=307)


ROUTES = [
    Route("/", runs_page, name="runs"),
    Route("/runs/{run_id}", run_home, name="run"),
]
