from datetime import UTC, datetime, timedelta, timezone

from gg.telemetry.clock import format_timestamp, new_run_id, parse_timestamp


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_a_run_id_names_its_start_second_in_utc_and_eight_random_hex_digits() -> None:
    local = datetime(2026, 11, 29, 21, 32, 33, tzinfo=timezone(timedelta(hours=1)))
    assert new_run_id(lambda: local, lambda n: "ab12cd34ef56"[: n * 2]) == "run-20261129-203233-ab12cd34"


def test_run_ids_sort_by_start_time() -> None:
    earlier = new_run_id(lambda: at(2026, 11, 29, 23, 59, 59), lambda n: "ffff")
    later = new_run_id(lambda: at(2026, 11, 30, 0, 0, 0), lambda n: "0000")
    assert sorted([later, earlier]) == [earlier, later]


def test_run_ids_started_in_the_same_second_differ() -> None:
    ids = {new_run_id(lambda: at(2026, 1, 1, 0, 0, 0)) for _ in range(50)}
    assert len(ids) > 45


def test_ten_thousand_run_ids_started_in_one_second_are_all_distinct() -> None:
    ids = {new_run_id(lambda: at(2026, 1, 1, 0, 0, 0)) for _ in range(10_000)}
    assert len(ids) == 10_000


def test_a_draw_already_handed_out_in_that_second_is_drawn_again() -> None:
    draws = iter(["0000beef", "0000beef", "0000beef", "0000cafe"])
    clock = lambda: at(2026, 1, 1, 0, 0, 1)  # noqa: E731
    first = new_run_id(clock, lambda _: next(draws))
    second = new_run_id(clock, lambda _: next(draws))
    assert (first, second) == ("run-20260101-000001-0000beef", "run-20260101-000001-0000cafe")


def test_a_timestamp_is_utc_with_milliseconds_and_a_z() -> None:
    moment = datetime(2026, 11, 29, 21, 32, 33, 120500, tzinfo=timezone(timedelta(hours=1)))
    assert format_timestamp(moment) == "2026-11-29T20:32:33.120Z"


def test_a_timestamp_reads_back_as_the_same_moment() -> None:
    moment = at(2026, 11, 29, 20, 32, 33)
    assert parse_timestamp(format_timestamp(moment)) == moment
    assert parse_timestamp("not a time") is None
