"""The exit codes of gg's commands, one home: every command, and the code each run ending maps
to (`gg.loop.status`), reads them here.

- 0: what was asked was done (a session that ended, a table printed);
- 1 (`INCOMPLETE_EXIT`): gg's own defect, a record or a model it could not reach, a hook that
  could not judge (`hook_error`), or a command that did only part of what was asked;
- 2 (`REFUSED_EXIT`): refused before anything ran (a capability set, study, store, port or
  argument found wanting);
- 3 (`CEILING_EXIT`): a ceiling stopped the run;
- 128 + the number of the signal that stopped it (`SIGNAL_EXIT_BASE`): 130 for Ctrl-C (SIGINT),
  143 for SIGTERM.
"""

from __future__ import annotations

DONE_EXIT = 0
INCOMPLETE_EXIT = 1
REFUSED_EXIT = 2
CEILING_EXIT = 3
SIGNAL_EXIT_BASE = 128
