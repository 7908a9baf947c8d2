"""The Programs tab: every agent's programs and library, as it grew and as the run left it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console import charts
from gg.console.library import library_figures
from gg.console.routes.frame import run_index, run_page


def programs_page(request: Request) -> Response:
    index = run_index(request)
    books = [
        (instance, index.programs[instance.id], library_figures(index.programs[instance.id]))
        for instance in index.tree.ordered()
        if instance.id in index.programs and index.programs[instance.id].programs
    ]
    growth = {
        instance.id: charts.library_growth([(g.turn, g.size) for g in book.grew])
        for instance, book, _ in books
    }
    return run_page(request, index, "programs", "programs.html", books=books, growth=growth)


ROUTES = [Route("/runs/{run_id}/programs", programs_page, name="programs")]
