"""The Project tab: the run's board, from its latest snapshot."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console.routes.frame import run_index, run_page
from gg.console.vocabulary import ModuleKind

ISSUE_STATUSES = ("open", "in_progress", "in_review", "done", "failed")


def project_page(request: Request) -> Response:
    index = run_index(request)
    if not index.has_project_tab:
        raise HTTPException(404, "This run has no board")
    board = next(s for s in index.modules.stores.values() if s.kind is ModuleKind.BOARD)
    snapshot = board.snapshot or {}
    issues = [i for i in snapshot.get("issues") or [] if isinstance(i, dict)]
    columns = {status: [i for i in issues if i.get("status") == status] for status in ISSUE_STATUSES}
    other = [i for i in issues if i.get("status") not in ISSUE_STATUSES]
    epics = [e for e in snapshot.get("epics") or [] if isinstance(e, dict)]
    return run_page(
        request,
        index,
        "project",
        "project.html",
        board=board,
        columns=columns,
        other=other,
        epics=epics,
        issues=issues,
    )


ROUTES = [Route("/runs/{run_id}/project", project_page, name="project")]
