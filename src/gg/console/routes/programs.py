"""The Programs tab: every agent's programs and library, as it grew and as the run left it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gg.console import charts
from gg.console.index import RunIndex
from gg.console.library import TakenOver, library_figures, taken_over
from gg.console.routes.frame import run_index, run_page
from gg.record.agents import RecordedInstance

HANDED = ("fork", "exec", "fsm")  # the relations that pass a library on


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
    taken = {instance.id: took for instance, _, _ in books if (took := _taken(index, instance))}
    return run_page(request, index, "programs", "programs.html", books=books, growth=growth, taken=taken)


def _taken(index: RunIndex, instance: RecordedInstance) -> TakenOver | None:
    """The library a fork or a successor that keeps one started with, read off its giver."""
    if instance.relation not in HANDED or instance.parent is None or instance.transition is None:
        return None
    book = index.programs[instance.id]
    return taken_over(
        index.programs.get(instance.parent),
        instance.transition.turn,
        instance.relation,
        keeps_library=book.has_library,
    )


ROUTES = [Route("/runs/{run_id}/programs", programs_page, name="programs")]
