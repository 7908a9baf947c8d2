"""A state rule's refusal: what a store will not do, and why, as a program will read it.

A store's rules do not know which SDK call reached them, so they raise `Refusal(code, message)`;
the operation that called them turns it into the program's `ApiError` under its own key (`at`).
A refused mutation has changed nothing.
"""

from __future__ import annotations

from gg.errors import ApiError, ErrorCode


class Refusal(Exception):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def at(self, operation: str) -> ApiError:
        """The refusal as the program sees it, from the operation `operation` (`add_task`)."""
        return ApiError(operation, self.code, self.message)
