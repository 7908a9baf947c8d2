"""The agent's workspace: the folder its programs read and write, and the one home of path
confinement. Nothing a path names is reached outside the folder it is confined to.

The parts: `confinement` (the `Workspace`: folding, the walk under the folder held, opening and
listing), `paths` (what a path may be, and each refusal of one, worded), `glob` (recursive
listings by a pattern: `gg.state.workspace.glob.glob`, reached by its module, whose name it shares).
"""

from gg.state.workspace.confinement import MAX_SCANNED_ENTRIES, DirEntry, EntryKind, Workspace
from gg.state.workspace.paths import PathRefusal, quote_path

__all__ = ["MAX_SCANNED_ENTRIES", "DirEntry", "EntryKind", "PathRefusal", "Workspace", "quote_path"]
