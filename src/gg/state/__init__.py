"""What an agent instance holds (seeds 000 and 003), and the rules of each store it holds.

The rooms, each a package whose face is its `__init__`: `window` (the `history` module: the
window and its views), `memories`, `tasks` (the task list), `board` (the run's board and the
lifecycle of its issues), `workspace` (the folder a program reads and writes, and path
confinement), `skills` (a profile's skills catalogue and the read set). Beside them: the module
framework (`module`, `modules`, `holdings`, `kinds`, `dispositions`, `storeids`, `refusal`), the
module of one file (`archive`), the program library (`library`) and the rules the task list and
the board share (`items`, `dag`). Nothing is taken from `gg.state` itself: each room or module is
imported by its own name.
"""

__all__: list[str] = []
