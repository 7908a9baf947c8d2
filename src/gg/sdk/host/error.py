"""The error a host function raises to fail its call with one of gg's codes (`gg.ApiError`):

    raise gg.ApiError("not-found", f"no item has the SKU {sku}")

The program receives it as the SDK's own error, on the function it called, with this code and
message; any other exception a host function raises reaches the program as `other`.
"""

from __future__ import annotations

from gg.errors import ErrorCode, OperationError

CODES = ", ".join(f"`{code.value}`" for code in ErrorCode)


class ApiError(OperationError):
    """A host function's failure: `code` is one of gg's error codes (`"not-found"`,
    `"invalid-argument"`, `"conflict"`, `"refused"`, `"unavailable"`, `"limit-exceeded"`,
    `"io-error"`, `"other"`), `message` what the program is told."""

    def __init__(self, code: ErrorCode | str, message: str) -> None:
        try:
            known = ErrorCode(code)
        except ValueError:
            raise ValueError(f"`{code}` is not an error code; use one of {CODES}") from None
        super().__init__("", known, str(message))
