"""Calling a host function: its arguments decoded into its own types, its answer encoded and held
to its declaration, its failures answered, and async functions awaited on the run's own loop; a
family's `timeout_secs`, judged where the family is made."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pydantic
import pytest

import gg
from gg.errors import ErrorCode
from gg.sdk.host.calling import FunctionLoop, call_function
from gg.sdk.host.codec import decode, encode
from gg.sdk.host.family import HostFunction
from gg.sdk.shape_check import violation


@dataclass
class Crate:
    label: str
    weight: float


class Order(pydantic.BaseModel):
    id: str = pydantic.Field(alias="orderId")
    crates: list[Crate]
    count: int = pydantic.Field(default=1, gt=0)


family = gg.family("crates", doc="crates.")
GIVEN_SECS = 30.0  # each call is given this long: far more than any function below takes

STARTED: list[asyncio.AbstractEventLoop] = []
CANCELLED: list[str] = []
PENDING: list[asyncio.Task[None]] = []


@family.operation
def pack(order: Order, extra: float | None = None) -> list[Crate]:
    """Pack an order; its crates come back as a tuple, which crosses as a list."""
    assert isinstance(order, Order) and isinstance(order.crates[0], Crate)
    return tuple(order.crates)  # type: ignore[return-value]


@family.operation
async def weigh_later(weight: float) -> float:
    """Weigh, later; leaves a task pending on the loop."""
    loop = asyncio.get_running_loop()
    STARTED.append(loop)

    async def lingering() -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            CANCELLED.append("lingering")
            raise

    PENDING.append(loop.create_task(lingering()))
    return weight * 2


@family.operation
def deferred() -> int:
    """A plain function that hands back an awaitable."""

    async def later() -> int:
        return 7

    return later()  # type: ignore[return-value]


@family.operation
def fail(how: str) -> int:
    """Fail as asked."""
    if how == "code":
        raise gg.ApiError("conflict", "it is taken")
    raise RuntimeError()


def _function(name: str) -> HostFunction:
    found = family.function(name)
    assert found is not None
    return found


def test_arguments_are_decoded_into_the_functions_own_types_and_answers_encoded_back() -> None:
    (order,) = (p.shape for p in _function("pack").declaration.params[:1])
    wire = {"orderId": "o1", "crates": [{"label": "a", "weight": 2}], "count": 2}
    assert violation(order, wire) is None
    decoded = decode(order, wire)
    assert (
        isinstance(decoded, Order)
        and decoded.crates[0].weight == 2.0
        and isinstance(decoded.crates[0].weight, float)
    )
    assert encode(order, decoded) == {"orderId": "o1", "crates": [{"label": "a", "weight": 2.0}], "count": 2}
    with _loop() as loop:
        called = call_function(_function("pack"), "crates.pack", {"order": wire}, loop, GIVEN_SECS)
    assert called.answer.value == [{"label": "a", "weight": 2.0}] and called.failure is None


def test_a_record_classs_own_validation_refuses_the_argument() -> None:
    wire = {"orderId": "o1", "crates": [], "count": 0}  # pydantic's gt=0, which no shape says
    with _loop() as loop:
        called = call_function(_function("pack"), "crates.pack", {"order": wire}, loop, GIVEN_SECS)
    assert called.answer.error is not None and called.answer.error[0] is ErrorCode.INVALID_ARGUMENT
    assert "greater than 0" in called.answer.error[1] and called.failure is None


def test_a_raised_api_error_is_the_answer_and_any_other_exception_the_functions_failure() -> None:
    with _loop() as loop:
        coded = call_function(_function("fail"), "crates.fail", {"how": "code"}, loop, GIVEN_SECS)
        broken = call_function(_function("fail"), "crates.fail", {"how": "other"}, loop, GIVEN_SECS)
    assert coded.answer.error == (ErrorCode.CONFLICT, "it is taken") and coded.failure is None
    assert broken.answer.error == (ErrorCode.OTHER, "RuntimeError")
    assert broken.failure == "host function `crates.fail` failed: RuntimeError"
    assert broken.traceback is not None and "raise RuntimeError()" in broken.traceback


def test_async_functions_share_one_private_loop_whose_pending_work_is_cancelled_at_close() -> None:
    STARTED.clear()
    CANCELLED.clear()
    loop = FunctionLoop()
    first = call_function(_function("weigh_later"), "crates.weigh_later", {"weight": 2}, loop, GIVEN_SECS)
    second = call_function(_function("weigh_later"), "crates.weigh_later", {"weight": 1.5}, loop, GIVEN_SECS)
    awaited = call_function(_function("deferred"), "crates.deferred", {}, loop, GIVEN_SECS)
    assert (first.answer.value, second.answer.value, awaited.answer.value) == (4.0, 3.0, 7)
    assert len(STARTED) == 2 and STARTED[0] is STARTED[1] and STARTED[0].is_running()
    loop.close()
    assert CANCELLED == ["lingering", "lingering"] and STARTED[0].is_closed()
    FunctionLoop().close()  # a loop no async call started closes as nothing


def test_an_unknown_error_code_is_refused_when_the_error_is_made() -> None:
    try:
        gg.ApiError("lost", "never")
    except ValueError as refused:
        assert "`lost` is not an error code; use one of `invalid-argument`" in str(refused)
    else:
        raise AssertionError("an unknown code was taken")


class _loop:
    def __enter__(self) -> FunctionLoop:
        self.loop = FunctionLoop()
        return self.loop

    def __exit__(self, *exc: Any) -> None:
        self.loop.close()


@pytest.mark.parametrize("secs", [0, -1, float("nan"), float("inf"), 86_401, True])
def test_a_familys_timeout_is_a_number_of_seconds_above_0_and_at_most_a_day(secs: float) -> None:
    with pytest.raises(ValueError, match="`timeout_secs` must be a number of seconds above 0, at most a day"):
        gg.family("slow", doc="slow.", timeout_secs=secs)
    assert gg.family("slow", doc="slow.", timeout_secs=86_400).timeout_secs == 86_400.0
    assert gg.family("slow", doc="slow.").timeout_secs == 60.0
