"""The studies page and a study's own page: its results per config and every cell, each cell
linked to the run it was answered in."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console.site import console_of
from gg.study.results import config_results
from gg.study.rows import StudyLookupError
from gg.study.tables import in_study_order


def studies_page(request: Request) -> Response:
    console = console_of(request)
    studies = console.source.studies() if console.source.exists() else []
    return console.page(request, "studies.html", studies=studies, store=console.source.path)


def study_page(request: Request) -> Response:
    console = console_of(request)
    try:
        study, cells = console.source.study(request.path_params["study_id"])
    except StudyLookupError as missing:
        return console.page(request, "error.html", 404, title="No such study", detail=str(missing))
    configs, tasks = study.config_names, study.task_names
    return console.page(
        request,
        "study.html",
        study=study,
        results=config_results(cells, configs),
        cells=in_study_order(cells, configs, tasks),
        runs={row.id for row in console.source.list_runs()},
    )


ROUTES = [
    Route("/studies", studies_page, name="studies"),
    Route("/studies/{study_id}", study_page, name="study"),
]
