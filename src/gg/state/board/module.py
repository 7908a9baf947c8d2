"""The run's board as a module of a holder's set (seed 003, "board"): the framework's four answers
over one `gg.state.board.handle.BoardHandle`.

- open: in a run that has a board, every holder binds the run's one store (`board-0`, origin
  `run`), with or without `project-management` (without it, it makes no calls); the holder's seat
  (`Holder.settings[board]`, a `BoardSeat`) names the board, its id, whom the profile may put to
  work through it, and the issue this agent was given, if any.
- prompt: nothing; the board is reached through its calls alone.
- report: `board_state` as it arrives with a holder; then one per write made through this
  handle, and, when the board moved under another holder or gg since it last reported, one more
  as it stands.
- fork: always linked: the copy's handle is on the same board and id, origin `run`, reporting from
  the board's head.
- transfer: always carried, by an exec and by every machine edge whether it names the board or
  not (the successor holds the run's board either way; origin stays `run`), under the receiving
  profile's policy; a successor keeps the issue its predecessor was given unless its own seat
  names one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from gg.config.kinds import ModuleKind, Origin
from gg.errors import FatalFault, GgDefect
from gg.state.board.handle import BoardHandle, IssuePolicy
from gg.state.board.store import Board
from gg.state.module import Bound, Holder, Incompatible, Instance, Module
from gg.state.storeids import StoreIds

if TYPE_CHECKING:
    from gg.telemetry.events import Payload


@dataclass(frozen=True)
class BoardSeat:
    """Where a holder sits at the run's board: the board and its store id, its profile's policy,
    and the issue it was dispatched to implement or review (None for any other agent)."""

    board: Board
    module_id: str
    policy: IssuePolicy = field(default_factory=IssuePolicy)
    assigned_issue: str | None = None


@dataclass
class BoardModule(Module):
    kind: ClassVar[ModuleKind] = ModuleKind.BOARD
    shared_origin: ClassVar[Origin] = Origin.RUN
    run_global: ClassVar[bool] = True
    handle: BoardHandle

    @classmethod
    def fresh(cls, holder: Holder) -> BoardModule:
        seat = _seat(holder)
        return cls(BoardHandle(seat.board, seat.policy, seat.assigned_issue))

    @classmethod
    def bind(cls, holder: Holder, instance: Instance, ids: StoreIds) -> Bound:
        return Bound(cls.fresh(holder), _seat(holder).module_id, Origin.RUN)

    def adopted(
        self, holder: Holder, instance: Instance, ids: StoreIds, module_id: str
    ) -> Bound | Incompatible:
        return Bound(self.adopt(holder), module_id, Origin.RUN)

    def copy(self) -> BoardModule:
        return BoardModule(self.handle.copy())

    def links_on_fork(self) -> bool:
        return self.handle.links_on_fork()

    def share(self) -> BoardModule:
        return BoardModule(self.handle.share())

    def adopt(self, holder: Holder) -> BoardModule:
        seat = _seat(holder)
        assigned = seat.assigned_issue or self.handle.assigned_issue
        return BoardModule(self.handle.adopt(seat.policy, assigned))

    def restate(self, module_id: str) -> list[Payload]:
        return self.handle.restate(module_id)

    def drain(self, module_id: str) -> list[Payload]:
        return self.handle.drain(module_id)


def _seat(holder: Holder) -> BoardSeat:
    seat = holder.settings.get(ModuleKind.BOARD)
    if not isinstance(seat, BoardSeat):
        raise GgDefect(FatalFault.HOST_FAULT, "a board was opened for a holder of a run without one")
    return seat
