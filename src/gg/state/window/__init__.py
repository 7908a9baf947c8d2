"""The agent's window (the `history` module): what the model reads on each request, and the
views its programs open for the next one. A window is its holder's alone: never shared.

The parts: `store` (the `Window`: the system prompt's slot, the thread, each message's band and
turn, the pins), `views` (the `ViewSet` a program fills in a turn, its caps and refusals),
`module` (`HistoryModule`: the framework's four answers over the window and its views),
`breakdown` (what one request costs the window, band by band: `gg.state.window.breakdown`,
reached by its module, whose name its decider shares).
"""

from gg.state.window.module import HistoryModule
from gg.state.window.store import Band, Held, ViewMark, Window
from gg.state.window.views import (
    MAX_SUMMARY_BYTES,
    MAX_VIEW_BODY_BYTES,
    DocsView,
    FileView,
    Region,
    SearchView,
    TextView,
    View,
    ViewKind,
    ViewRefusal,
    ViewSet,
    wire_size,
)

__all__ = [
    "MAX_SUMMARY_BYTES",
    "MAX_VIEW_BODY_BYTES",
    "Band",
    "DocsView",
    "FileView",
    "Held",
    "HistoryModule",
    "Region",
    "SearchView",
    "TextView",
    "View",
    "ViewKind",
    "ViewMark",
    "ViewRefusal",
    "ViewSet",
    "Window",
    "wire_size",
]
