"""Where a request's prompt-cache points go: an anchor, two rolling grid points, the tail."""

from __future__ import annotations

import pytest

from gg.providers.cache_points import GRID, SYSTEM, CachePoint, cache_points


def thread(size: int, *, opening: tuple[str, ...] = ("user",)) -> list[str]:
    roles = list(opening)
    while len(roles) < size:
        roles.extend(["assistant", "user", "user"])
    return roles[:size]


def test_a_request_without_messages_marks_the_system_prompt_once() -> None:
    assert cache_points([]) == (CachePoint(SYSTEM, durable=True),)


def test_before_the_first_reply_the_anchor_is_the_tail_and_keeps_the_durable_lifetime() -> None:
    assert cache_points(["user", "user"]) == (CachePoint(1, durable=True),)


def test_the_anchor_is_the_last_message_before_the_first_assistant_message() -> None:
    roles = ["user", "user", "assistant", "user"]
    assert cache_points(roles) == (CachePoint(1, durable=True), CachePoint(3, durable=False))


def test_an_opening_assistant_message_anchors_on_the_system_prompt() -> None:
    assert cache_points(["assistant", "user"])[0] == CachePoint(SYSTEM, durable=True)


@pytest.mark.parametrize(
    ("size", "rolling"),
    [(8, []), (9, [7]), (16, [7]), (17, [7, 15]), (24, [7, 15]), (25, [15, 23]), (100, [87, 95])],
)
def test_rolling_points_are_the_two_highest_grid_lines_below_the_tail(size: int, rolling: list[int]) -> None:
    points = cache_points(thread(size))
    assert [p.index for p in points if p.durable and p.index > 0] == rolling
    assert points[-1] == CachePoint(size - 1, durable=False)
    assert all((p.index + 1) % GRID == 0 for p in points[1:-1])


def test_a_grid_point_names_the_same_prefix_until_the_thread_passes_two_more_grid_lines() -> None:
    seen = {size: {p.index for p in cache_points(thread(size))} for size in range(17, 33)}
    assert all(15 in indices for size, indices in seen.items() if size <= 32)
    assert 15 not in {p.index for p in cache_points(thread(33))}


def test_a_volatile_last_message_moves_the_tail_back_one() -> None:
    points = cache_points(thread(12), volatile_tail=True)
    assert points[-1] == CachePoint(10, durable=False)
    assert cache_points(["user"], volatile_tail=True) == (CachePoint(SYSTEM, durable=True),)


def test_a_request_never_carries_more_than_four_points() -> None:
    assert max(len(cache_points(thread(n))) for n in range(0, 200)) == 4
