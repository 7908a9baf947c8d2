"""What a fork or a succession did to the program library, decided over the two sides' entry
counts (seed 000, "Across a succession"): the library is not a module, so its row stands beside
the six kinds' on `agent_transition`, never among them."""

from __future__ import annotations

from gg.config.kinds import Disposition
from gg.state.dispositions import LibraryRow, library_row


def test_a_succession_carries_the_library_and_counts_what_the_successors_keep_dropped() -> None:
    assert library_row(5, 3) == LibraryRow(Disposition.CARRIED, held=3, dropped=2)
    assert library_row(2, 2).to_wire() == {"disposition": "carried", "held": 2, "dropped": 0}


def test_a_fork_copies_the_library_whole() -> None:
    assert library_row(4, 4, fork=True).to_wire() == {"disposition": "copied", "held": 4, "dropped": 0}


def test_a_successor_keeping_no_library_drops_every_program_and_one_keeping_a_new_one_starts_empty() -> None:
    assert library_row(3, None).to_wire() == {"disposition": "dropped", "held": 0, "dropped": 3}
    assert library_row(None, 0).to_wire() == {"disposition": "initialized", "held": 0, "dropped": 0}
    assert library_row(None, None).to_wire() == {"disposition": "absent", "held": 0, "dropped": 0}
