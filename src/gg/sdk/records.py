"""Every record type an SDK call hands back, declared once (vocabulary: `gg.sdk.types`).

Each type belongs to the family whose module exports it. The guest SDK, `gg.d.ts`, the signature
catalogues and the documentation are all generated from these declarations and the operations'
`returns`; a contract test fails when an operation returns a name declared nowhere here.
Field names are the wire's (camelCase); alias methods (`entry.source()`) are added from the
operations' `Alias` declarations, not written here.
"""

from __future__ import annotations

from gg.sdk.types import Choice, Field, Record, TypeDecl, Union

_FILES: tuple[TypeDecl, ...] = (
    Record(
        "TextFile",
        "files",
        "A page of a text file's lines.",
        (
            Field("kind", '"text"', "tells a text read from an image read"),
            Field("contents", "string", "the lines read, each ending in its newline"),
            Field("firstLine", "number", "the first line read, 1-based (0 for an empty file)"),
            Field("lastLine", "number", "the last line read, inclusive"),
            Field("totalLines", "number", "how many lines the whole file has"),
            Field("byteTruncated", "boolean", "true when the page was cut at the 256 KiB read cap"),
        ),
    ),
    Record(
        "ImageFile",
        "files",
        "An image file, described rather than read.",
        (
            Field("kind", '"image"', "tells an image read from a text read"),
            Field("mediaType", "string", "the image type told from the file's first bytes"),
            Field("label", "string", "the file's workspace-relative path"),
            Field("bytes", "number", "the file's size in bytes"),
            Field("shown", "boolean", "whether the picture reaches you (never, in this harness)"),
            Field("notShownReason", "string", "why the picture does not reach you"),
        ),
    ),
    Union(
        "FileRead",
        "files",
        "What a read hands back: text lines or an image's description.",
        ("TextFile", "ImageFile"),
    ),
    Choice("EntryKind", "files", "What a directory entry is.", ("file", "directory", "other")),
    Record(
        "DirEntry",
        "files",
        "One entry of a directory listing.",
        (
            Field("name", "string", "the entry's name within its directory"),
            Field("kind", "EntryKind", "file, directory or other"),
        ),
    ),
    Record(
        "GlobMatch",
        "files",
        "One path a glob matched.",
        (
            Field("path", "string", "its workspace-relative path"),
            Field("kind", "EntryKind", "file, directory or other (a link, never followed)"),
        ),
    ),
    Record(
        "GlobPage",
        "files",
        "A page of the paths a glob matched.",
        (
            Field("matches", "GlobMatch[]", "the matches on this page, each folder's entries by name"),
            Field("total", "number", "how many paths matched in all"),
            Field("more", "boolean", "whether matches remain past this page"),
        ),
    ),
)

_SHELL: tuple[TypeDecl, ...] = (
    Record(
        "ShellOutput",
        "shell",
        "How a command ended, and the end of what it wrote.",
        (
            Field(
                "exitCode", "number", "the shell's exit status: 0 on success, 128 + n when signal n ended it"
            ),
            Field(
                "output",
                "string",
                "stdout and stderr merged in order: the last 16 KiB, from the start of a line, without"
                " escape sequences",
            ),
            Field("truncated", "boolean", "true when output holds only the end of what the command wrote"),
            Field("droppedBytes", "number", "how many bytes the command wrote before those in output"),
            Field("droppedLines", "number", "how many lines the command wrote before those in output"),
        ),
    ),
)

_DOCS: tuple[TypeDecl, ...] = (
    Choice("DocKind", "docs", "What a documentation entry documents.", ("module", "function", "type")),
    Record(
        "DocHit",
        "docs",
        "One documentation entry a search found.",
        (
            Field("key", "string", "the entry's key; pass it to open its documentation view"),
            Field("kind", "DocKind", "module, function or type"),
            Field("module", "string", "the module it belongs to"),
            Field("name", "string", "its name within that module"),
            Field("summary", "string", "its one-line summary"),
        ),
    ),
    Record(
        "DocSearch",
        "docs",
        "A page of search hits.",
        (
            Field("total", "number", "how many entries matched in all"),
            Field("offset", "number", "how many matches this page skipped"),
            Field("hits", "DocHit[]", "the matches on this page, best first"),
        ),
    ),
)

_PROGRAMS: tuple[TypeDecl, ...] = (
    Record(
        "ProgramSummary",
        "programs",
        "A program the library holds, without its source.",
        (
            Field("id", "string", "the id its receipt carried"),
            Field("turn", "number", "the turn it ran in"),
            Field("lines", "number", "its length in lines"),
            Field("chars", "number", "its length in characters"),
            Field("ok", "boolean", "whether it ran to its end"),
            Field("error", "string", "the error you were shown, when it failed", optional=True),
        ),
    ),
)

_TASKS: tuple[TypeDecl, ...] = (
    Record(
        "TaskUsage",
        "tasks",
        "How full your task list is, after the call that returned it.",
        (
            Field("count", "number", "the tasks on the list"),
            Field("maxTasks", "number", "the most it may hold"),
        ),
    ),
)

_BOARD: tuple[TypeDecl, ...] = (
    Record(
        "BoardUsage",
        "board",
        "How much of the run's board is used, after the call that returned it.",
        (
            Field("epics", "number", "the epics on the board"),
            Field("maxEpics", "number", "the most the run allows"),
            Field("issues", "number", "the issues on the board"),
            Field("maxIssues", "number", "the most the run allows"),
        ),
    ),
    Record(
        "EpicCreated",
        "board",
        "An epic just created.",
        (
            Field("id", "string", "its id: the prefix upper-cased, the stem its issues are numbered from"),
            Field("board", "BoardUsage", "how much of the board is now used"),
        ),
    ),
    Record(
        "IssueCreated",
        "board",
        "An issue just filed.",
        (
            Field("id", "string", "the id the board gave it, such as `AUTH-1`"),
            Field("board", "BoardUsage", "how much of the board is now used"),
        ),
    ),
)

_CONTEXT: tuple[TypeDecl, ...] = (
    Record(
        "ReclaimReport",
        "context",
        "What a reclaim moved out of your window.",
        (
            Field("items", "number", "the messages and views that left the window"),
            Field("reclaimedTokens", "number", "the tokens they held, estimated"),
            Field("paths", "string[]", "the paths whose file views closed (none for an archival)"),
            Field("detail", "string", "what happened, in words"),
        ),
    ),
    Choice(
        "MessageRole",
        "context",
        "Who a message of the window is from.",
        ("system", "user", "assistant", "tool"),
    ),
    Record(
        "ArchiveHit",
        "context",
        "An archived message a search found.",
        (
            Field("seq", "number", "its entry number in the archive, `#seq`"),
            Field("role", "MessageRole", "who the message was from"),
            Field("text", "string", "the message, whole"),
        ),
    ),
    Record(
        "ArchiveSearch",
        "context",
        "What a search of the archive found.",
        (
            Field("archiveEmpty", "boolean", "true when nothing was ever archived, so nothing was searched"),
            Field("hits", "ArchiveHit[]", "the matches, newest first, at most eight"),
        ),
    ),
)

_VIEWS: tuple[TypeDecl, ...] = (
    Choice("OpenViewKind", "views", "What an open view shows.", ("file", "text", "docs")),
    Record(
        "ViewRegion",
        "views",
        "The lines a file view asked for.",
        (
            Field("offset", "number", "the lines skipped"),
            Field("limit", "number", "the most lines shown; absent for the rest of the file", optional=True),
        ),
    ),
    Record(
        "OpenView",
        "views",
        "A view open in your window, or opened this turn.",
        (
            Field("kind", "OpenViewKind", "file, text or docs"),
            Field("selector", "string", "its label, path or documentation key; `close` takes it"),
            Field("tokens", "number", "what it costs your window, estimated"),
            Field("region", "ViewRegion", "a file view's lines", optional=True),
        ),
    ),
)

_DELEGATION: tuple[TypeDecl, ...] = (
    Record(
        "SubagentHandle",
        "delegation",
        "A child started from this agent: a subagent, or a fork's copy.",
        (
            Field("id", "string", "the child's id; wait for it and message it by this id"),
            Field("slot", "number", "its place among the children this agent started, from 1"),
            Field("modelId", "string", "the model that answers it"),
        ),
    ),
    Choice(
        "SubagentStatus",
        "delegation",
        "How a child ended.",
        ("completed", "exhausted", "timed_out", "model_error", "limit_exceeded"),
    ),
    Record(
        "SubagentResult",
        "delegation",
        "What a child ended with.",
        (
            Field("id", "string", "the child's id"),
            Field("status", "SubagentStatus", "completed when it ended itself; otherwise what stopped it"),
            Field("summary", "string", "its final word, or what its last turn produced"),
            Field("approved", "boolean", "a reviewer's verdict: true when it approved", optional=True),
            Field("changes", "string[]", "the changes a reviewer asked for", optional=True),
        ),
    ),
)

_MEMORIES: tuple[TypeDecl, ...] = (
    Record(
        "MemoryUsage",
        "memories",
        "What your memories hold after a change, beside the caps bounding them.",
        (
            Field("count", "number", "how many memories you hold"),
            Field("maxCount", "number", "the most you may hold, when that cap is in force", optional=True),
            Field("totalChars", "number", "the characters of every body together"),
            Field(
                "maxTotalChars",
                "number",
                "the most characters of bodies in all, when in force",
                optional=True,
            ),
            Field("indexChars", "number", "the characters of your index (markdown)", optional=True),
            Field("maxIndexChars", "number", "the most characters of index, when in force", optional=True),
        ),
    ),
    Record(
        "MemoryHit",
        "memories",
        "A memory a search found.",
        (
            Field("name", "string", "its name, to read it by"),
            Field("description", "string", "its description (empty when it has none)"),
            Field("matched", "number", "how many of the keywords it matched"),
            Field("occurrences", "number", "how often those keywords occur in it"),
            Field("excerpt", "string", "the body around its first match"),
        ),
    ),
)

SDK_TYPES: tuple[TypeDecl, ...] = (
    *_FILES,
    *_SHELL,
    *_DOCS,
    *_PROGRAMS,
    *_TASKS,
    *_BOARD,
    *_CONTEXT,
    *_VIEWS,
    *_DELEGATION,
    *_MEMORIES,
)
