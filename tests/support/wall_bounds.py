"""The wall-clock bounds the guest tests keep: correctness bounds, never speeds.

A test that must see a program end may only bound how long it waits for that end; how soon a
program is stopped past its ceiling, and how soon the next program answers after a stop (the
attack cases' "timeoutSecs + 0.5 s" and B4's 2 s), are the figures `bench/ceilings.py` prints
beside a CPU-loading neighbour. Both bounds hold by a wide margin on a loaded 2-core machine,
where a guest process may take seconds to be replaced.
"""

from __future__ import annotations

# A stopped program was stopped, not left running to its end.
STOPPED_WITHIN_SECS = 30.0
# The next program after a stop answered: it was not left waiting on the stopped one.
ANSWERED_WITHIN_SECS = 30.0
