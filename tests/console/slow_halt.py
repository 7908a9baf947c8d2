"""`gg` with the run's halt slowed: once a stopping run has ended every wait, each waiting
agent gets a second to record what the wait's end did to its program before the run goes on
(`Spawner.stop_all`). Run as `python slow_halt.py run FOLDER`; everything else is gg as it is."""

from __future__ import annotations

import sys
import time

from gg.agents.lineages import Lineages
from gg.cli import main

HALTED_WAITS_SECS = 1.0
_halt = Lineages.halt


def _slow_halt(self: Lineages) -> None:
    _halt(self)
    time.sleep(HALTED_WAITS_SECS)


Lineages.halt = _slow_halt

if __name__ == "__main__":
    main(sys.argv[1:])
