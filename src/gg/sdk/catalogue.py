"""The SDK gg offers: every family with its one-line brief, and the default registry (every
operation, and every result type from `gg.sdk.records`), to which a run adds the operations, records
and briefs of the host families it serves (`gg.sdk.host`), after gg's own."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gg.sdk.board import BOARD_OPERATIONS
from gg.sdk.context import CONTEXT_OPERATIONS
from gg.sdk.delegation import DELEGATION_OPERATIONS
from gg.sdk.docs.operations import DOCS_OPERATIONS
from gg.sdk.files import FILES_OPERATIONS
from gg.sdk.listing import LISTING_OPERATIONS
from gg.sdk.memories import MEMORIES_OPERATIONS
from gg.sdk.programs import PROGRAMS_OPERATIONS
from gg.sdk.records import SDK_TYPES
from gg.sdk.registry import Operation, Registry
from gg.sdk.session import SESSION_OPERATIONS
from gg.sdk.shell import SHELL_OPERATIONS
from gg.sdk.skills import SKILLS_OPERATIONS
from gg.sdk.tasks import TASKS_OPERATIONS
from gg.sdk.types import TypeDecl
from gg.sdk.views import VIEWS_OPERATIONS
from gg.sdk.writing import WRITING_OPERATIONS

FAMILY_BRIEFS: dict[str, str] = {
    "files": "read, write, edit and list the files of your workspace.",
    "shell": "run shell commands in your workspace, inside a jail.",
    "views": "put text, a region of a file or documentation in front of you on your next turn.",
    "docs": "search the documentation of the SDK and of the code modules loaded for you.",
    "skills": "read the skills listed for you and load their code modules.",
    "memories": "keep notes that last the whole session: write, read, revise and find them.",
    "context": "manage your own context window.",
    "board": "the project's board of issues.",
    "delegation": "start, wait for and message other agents; hand the session on; fork copies of yourself.",
    "programs": "fetch the programs you ran by their ids, and hand a patched one over to run.",
    "tasks": "your own task list, a blocked-by graph of the work you plan, shown to you every turn.",
    "session": "end the session.",
}


def default_registry(
    host: Iterable[Operation] = (),
    host_types: Iterable[TypeDecl] = (),
    host_briefs: Mapping[str, str] | None = None,
) -> Registry:
    """gg's own SDK, then the host families' operations, records and briefs."""
    return Registry(
        (
            *FILES_OPERATIONS,
            *WRITING_OPERATIONS,
            *LISTING_OPERATIONS,
            *SHELL_OPERATIONS,
            *BOARD_OPERATIONS,
            *TASKS_OPERATIONS,
            *VIEWS_OPERATIONS,
            *DOCS_OPERATIONS,
            *CONTEXT_OPERATIONS,
            *DELEGATION_OPERATIONS,
            *PROGRAMS_OPERATIONS,
            *SKILLS_OPERATIONS,
            *MEMORIES_OPERATIONS,
            *SESSION_OPERATIONS,
            *host,
        ),
        types=(*SDK_TYPES, *host_types),
        briefs={**FAMILY_BRIEFS, **(host_briefs or {})},
    )
