"""The agent's views: what a program opens for the model to read on the next turn.

- A text view is selected by its label; a file view by its workspace-relative path and the region
  asked for (`offset`, `limit`). Re-opening a selector this turn replaces the copy in place; regions
  of one file coexist. `close_turn()` hands over the turn's views in opening order and empties the set.
- A docs view is selected by its documentation key (`gg.files.readFile`); re-opening a key already
  opened, this turn or an earlier one, does nothing (the documentation band only grows). The one
  search view (`search results`) is replaced by each search. `close` drops views of this turn by
  what they show, never a docs view.
- Caps, each refused with `limit-exceeded` at the call, never truncated: a body (text or file view)
  of at most 65,536 UTF-8 bytes, a label of at most 200 bytes, 8 MiB of bodies per turn. Every
  accepted body is charged, superseded ones included; a refused one costs nothing. A text is
  measured as it will be read (`wire_size`: its UTF-8 bytes once well-formed); a compaction
  summary, read like a body, has the body's cap (`MAX_SUMMARY_BYTES`).
- An empty or whitespace-only label is `invalid-argument`, and so is a label holding a character
  that could end or reorder its heading line (`first_heading_unsafe`). Bodies hold anything; a
  lone surrogate becomes U+FFFD (`well_formed`).
- A fork copies the set whole (the views open, the budget spent, the docs keys opened) and a
  successor takes it over on the same terms: the set follows the window it fills.
- Rendering: `View: <label>`, `File: <path>:<first>-<last> of <N> lines` (the path alone when
  the view shows no lines), `Documentation: <key>` or `View: search results`, a `----` line, then
  the body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from gg.errors import ErrorCode
from gg.state.refusal import PlainRefusal
from gg.wire import first_heading_unsafe, well_formed

MAX_VIEW_BODY_BYTES = 65_536
MAX_SUMMARY_BYTES = MAX_VIEW_BODY_BYTES  # a compaction summary is read like a view body
MAX_LABEL_BYTES = 200
MAX_TURN_BODY_BYTES = 8 * 1024 * 1024

VIEW_HEADING = "View"
FILE_HEADING = "File"
DOCS_HEADING = "Documentation"
SEARCH_LABEL = "search results"
HEADING_RULE = "----"


class ViewRefusal(PlainRefusal):
    """A view the call may not open; the SDK turns it into an `ApiError` for its operation."""


class ViewKind(StrEnum):
    TEXT = "text"
    FILE = "file"
    DOCS = "docs"
    SEARCH = "search"


@dataclass(frozen=True)
class TextView:
    label: str
    body: str

    @property
    def kind(self) -> ViewKind:
        return ViewKind.TEXT

    @property
    def selector(self) -> str:
        return self.label

    def render(self) -> str:
        return f"{VIEW_HEADING}: {self.label}\n{HEADING_RULE}\n{self.body}"


@dataclass(frozen=True)
class Region:
    """The lines a file view asked for: `offset` lines skipped, at most `limit` lines (None: all)."""

    offset: int = 0
    limit: int | None = None


@dataclass(frozen=True)
class FileView:
    """A page of a workspace file. Lines are 1-based; `total_lines` 0 means the view shows no lines
    (an empty file, or an image, whose body then says why it is not shown)."""

    path: str
    region: Region
    first_line: int
    last_line: int
    total_lines: int
    body: str

    @property
    def kind(self) -> ViewKind:
        return ViewKind.FILE

    @property
    def selector(self) -> str:
        return self.path

    def render(self) -> str:
        if self.total_lines == 0:
            heading = f"{FILE_HEADING}: {self.path}"
        else:
            span = f"{self.first_line}-{self.last_line} of {self.total_lines} lines"
            heading = f"{FILE_HEADING}: {self.path}:{span}"
        return f"{heading}\n{HEADING_RULE}\n{self.body}"


@dataclass(frozen=True)
class DocsView:
    """The documentation of one SDK function, type or module, filed under its key."""

    key: str
    body: str

    @property
    def kind(self) -> ViewKind:
        return ViewKind.DOCS

    @property
    def selector(self) -> str:
        return self.key

    def render(self) -> str:
        return f"{DOCS_HEADING}: {self.key}\n{HEADING_RULE}\n{self.body}"


@dataclass(frozen=True)
class SearchView:
    """The hits of the latest documentation search."""

    body: str

    @property
    def kind(self) -> ViewKind:
        return ViewKind.SEARCH

    @property
    def selector(self) -> str:
        return SEARCH_LABEL

    def render(self) -> str:
        return f"{VIEW_HEADING}: {SEARCH_LABEL}\n{HEADING_RULE}\n{self.body}"


View = TextView | FileView | DocsView | SearchView
_Key = tuple[str, str, int, int | None]


def _key(view: View) -> _Key:
    if isinstance(view, FileView):
        return (ViewKind.FILE.value, view.path, view.region.offset, view.region.limit)
    return (view.kind.value, view.selector, 0, None)


class ViewSet:
    """The views opened during the current turn, in opening order, and the turn's body budget."""

    def __init__(self) -> None:
        self._open: dict[_Key, View] = {}
        self._spent = 0
        self._docs_keys: set[str] = set()  # every docs key ever opened: those views are never closed

    @property
    def spent_bytes(self) -> int:
        """Body bytes charged this turn."""
        return self._spent

    def current(self) -> list[View]:
        return list(self._open.values())

    def __len__(self) -> int:
        return len(self._open)

    def open_text(self, label: str, body: str) -> TextView:
        """Open (or replace in place) the text view `label`. Raises `ViewRefusal`."""
        _check_label(label)
        view = TextView(label=label, body=self._accept_body(body))
        self._open[_key(view)] = view
        return view

    def open_file(self, view: FileView) -> FileView:
        """Open (or replace in place) a page of a file. Raises `ViewRefusal` over the body caps."""
        accepted = replace(view, body=self._accept_body(view.body))
        self._open[_key(accepted)] = accepted
        return accepted

    def open_docs(self, key: str, body: str) -> bool:
        """Open the docs view of `key` unless it was opened before (then nothing happens and the
        answer is False). Raises `ViewRefusal` over the body caps."""
        if key in self._docs_keys:
            return False
        view = DocsView(key, self._accept_body(body))
        self._docs_keys.add(key)
        self._open[_key(view)] = view
        return True

    def open_search(self, body: str) -> SearchView:
        """Open (or replace in place) the search view. Raises `ViewRefusal` over the body caps."""
        view = SearchView(self._accept_body(body))
        self._open[_key(view)] = view
        return view

    def close(self, chosen: Callable[[View], bool]) -> list[View]:
        """Close the views of this turn `chosen` picks (never a docs view); returns them. What
        their bodies cost the turn's budget stays spent."""
        closed = {
            k: view for k, view in self._open.items() if not isinstance(view, DocsView) and chosen(view)
        }
        for key in closed:
            del self._open[key]
        return list(closed.values())

    def fork(self) -> ViewSet:
        """An independent copy of the set."""
        copy = ViewSet()
        copy._open = dict(self._open)
        copy._spent = self._spent
        copy._docs_keys = set(self._docs_keys)
        return copy

    def adopt(self) -> ViewSet:
        """The set as a successor takes it over with the window: the same as a fork."""
        return self.fork()

    def close_turn(self) -> list[View]:
        """The turn's views in opening order; the set is left empty and the budget unspent."""
        views = list(self._open.values())
        self._open.clear()
        self._spent = 0
        return views

    def _accept_body(self, body: str) -> str:
        """Check `body` against the per-view cap and the turn's budget, then charge it."""
        size = wire_size(body, MAX_VIEW_BODY_BYTES)
        if size > MAX_VIEW_BODY_BYTES:
            raise _body_too_large(size)
        body = well_formed(body)
        if self._spent + size > MAX_TURN_BODY_BYTES:
            raise _turn_budget_spent(size, self._spent)
        self._spent += size
        return body


def wire_size(text: str, cap: int) -> int:
    """The UTF-8 size of `text` once well-formed: exact for a text that may fit `cap` bytes; a
    text of more characters than `cap` is over it whatever its encoding, and is measured unmended."""
    if len(text) > cap:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(well_formed(text).encode("utf-8"))


def _check_label(label: str) -> None:
    if len(label) > MAX_LABEL_BYTES:  # more characters than bytes allowed: no need to encode
        raise _label_too_long(len(label.encode("utf-8", "surrogatepass")))
    if not label.strip():
        raise _label_blank(label)
    unsafe = first_heading_unsafe(label)
    if unsafe is not None:
        raise _label_unsafe(label[unsafe], unsafe)
    size = len(label.encode("utf-8"))
    if size > MAX_LABEL_BYTES:
        raise _label_too_long(size)


def _body_too_large(size: int) -> ViewRefusal:
    return ViewRefusal(
        ErrorCode.LIMIT_EXCEEDED,
        f"the view body is {size} bytes, over the {MAX_VIEW_BODY_BYTES}-byte cap",
    )


def _turn_budget_spent(size: int, spent: int) -> ViewRefusal:
    left = MAX_TURN_BODY_BYTES - spent
    return ViewRefusal(
        ErrorCode.LIMIT_EXCEEDED,
        f"the view body is {size} bytes; this turn's view budget is {MAX_TURN_BODY_BYTES} bytes, "
        f"{spent} spent, {left} left",
    )


def _label_too_long(size: int) -> ViewRefusal:
    return ViewRefusal(
        ErrorCode.LIMIT_EXCEEDED, f"`label` is {size} bytes, over the {MAX_LABEL_BYTES}-byte cap"
    )


def _label_blank(label: str) -> ViewRefusal:
    what = "empty" if label == "" else "only whitespace"
    return ViewRefusal(ErrorCode.INVALID_ARGUMENT, f"`label` is {what}")


def _label_unsafe(char: str, index: int) -> ViewRefusal:
    return ViewRefusal(
        ErrorCode.INVALID_ARGUMENT,
        f"`label` holds U+{ord(char):04X} at index {index}; a view heading may not hold control, "
        "separator or bidi characters",
    )
