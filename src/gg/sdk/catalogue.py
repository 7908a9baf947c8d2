"""The SDK gg offers: every family with its one-line brief, and the default registry."""

from __future__ import annotations

from gg.sdk.files import FILES_OPERATIONS
from gg.sdk.registry import Registry
from gg.sdk.session import SESSION_OPERATIONS
from gg.sdk.views import VIEWS_OPERATIONS

FAMILY_BRIEFS: dict[str, str] = {
    "files": "read, write, edit and list the files of your workspace.",
    "views": "put text or a region of a file in front of you on your next turn.",
    "session": "end the session.",
}


# The records operations hand back, in TypeScript spelling (the prompt's and the docs' language).
TYPE_SHAPES: dict[str, str] = {
    "FileRead": (
        '{kind: "text", contents: string, firstLine: number, lastLine: number, totalLines: number, '
        'byteTruncated: boolean} | {kind: "image", mediaType: string, label: string, bytes: number, '
        "shown: boolean, notShownReason: string}"
    ),
    "DirEntry": '{name: string, kind: "file" | "directory" | "other"}',
}


def default_registry() -> Registry:
    return Registry((*FILES_OPERATIONS, *VIEWS_OPERATIONS, *SESSION_OPERATIONS))
