"""The one table from failure to error type, and the retry schedule."""

from __future__ import annotations

import pytest

from gg.deadline import time_left
from gg.outcome import ErrorKind, ErrorType
from gg.providers.failures import FailedAttempt, Symptom, retry_after_secs, status_failure, symptom_of_status
from gg.providers.retry import Retrier, RetryPolicy
from support.manual_clock import ManualClock

from .operator import Operator


@pytest.mark.parametrize(
    ("status", "error_type", "retried"),
    [
        (401, ErrorType.MODEL_AUTH, False),
        (403, ErrorType.MODEL_AUTH, False),
        (400, ErrorType.MODEL_REJECTED, False),
        (404, ErrorType.MODEL_REJECTED, False),
        (422, ErrorType.MODEL_REJECTED, False),
        (408, ErrorType.MODEL_TIMEOUT, False),
        (429, ErrorType.MODEL_RETRY_EXHAUSTED, True),
        (500, ErrorType.MODEL_RETRY_EXHAUSTED, True),
        (503, ErrorType.MODEL_RETRY_EXHAUSTED, True),
    ],
)
def test_each_status_has_one_error_type_and_one_retry_rule(
    status: int, error_type: ErrorType, retried: bool
) -> None:
    failure = status_failure(status, "{}", "why", {})
    assert (failure.type, failure.is_retryable) == (error_type, retried)


def test_every_symptom_is_a_model_api_error() -> None:
    for symptom in Symptom:
        assert FailedAttempt(symptom, "x").type.kind is ErrorKind.MODEL_API


def test_only_a_400_whose_body_names_tool_choice_is_a_refused_pin() -> None:
    assert status_failure(400, '{"error":"tool_choice unsupported"}', "m", {}).names_tool_choice()
    assert not status_failure(
        400, '{"error":"bad messages"}', "tool_choice in the message only", {}
    ).names_tool_choice()
    assert not status_failure(422, '{"error":"tool_choice unsupported"}', "m", {}).names_tool_choice()


def test_a_failure_message_is_one_line_naming_the_status() -> None:
    failure = status_failure(500, "", "upstream\n  exploded\tbadly", {})
    assert failure.message == "HTTP 500: upstream exploded badly"
    assert symptom_of_status(599) is Symptom.SERVER_FAILED


@pytest.mark.parametrize(
    ("headers", "secs"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, None),
        ({"retry-after": "-1"}, None),
        ({}, None),
    ],
)
def test_retry_after_is_read_in_seconds_or_milliseconds(headers: dict[str, str], secs: float | None) -> None:
    assert retry_after_secs(headers) == secs


def test_backoff_waits_1_s_then_twice_the_last_up_to_its_ceiling() -> None:
    policy = RetryPolicy(retries=10, max_delay_secs=60.0)
    failure = FailedAttempt(Symptom.SERVER_FAILED, "x")
    assert [policy.delay_secs(n, failure) for n in range(1, 9)] == [
        1.0,
        2.0,
        4.0,
        8.0,
        16.0,
        32.0,
        60.0,
        60.0,
    ]
    assert RetryPolicy(max_delay_secs=3.0).delay_secs(3, failure) == 3.0


def test_the_defaults_retry_ten_times_against_a_60_s_ceiling() -> None:
    policy = RetryPolicy()
    assert (policy.retries, policy.max_delay_secs, policy.attempts) == (10, 60.0, 11)
    assert Retrier(log=Operator().log).timeout_secs == 900.0
    assert RetryPolicy(retries=0).attempts == 1


def test_a_requested_wait_is_honoured_when_longer_within_the_ceiling() -> None:
    policy = RetryPolicy(max_delay_secs=60.0)
    assert policy.delay_secs(1, FailedAttempt(Symptom.RATE_LIMITED, "x", retry_after_secs=7.0)) == 7.0
    assert policy.delay_secs(4, FailedAttempt(Symptom.RATE_LIMITED, "x", retry_after_secs=0.5)) == 8.0
    assert policy.delay_secs(1, FailedAttempt(Symptom.RATE_LIMITED, "x", retry_after_secs=3600.0)) == 60.0


def test_a_failure_that_no_retry_cures_is_returned_after_one_attempt() -> None:
    operator = Operator()
    attempts: list[float] = []

    def attempt(secs: float) -> str | FailedAttempt:
        attempts.append(secs)
        return FailedAttempt(Symptom.AUTH_REFUSED, "HTTP 401: no")

    result = Retrier(log=operator.log, sleep=operator.sleep).run("m", attempt)
    assert result == FailedAttempt(Symptom.AUTH_REFUSED, "HTTP 401: no")
    assert (attempts, operator.lines, operator.sleeps) == ([900.0], [], [])


def test_a_retry_names_its_attempts_symptom_never_an_exhausted_schedule() -> None:
    operator = Operator()
    results: list[str | FailedAttempt] = [
        FailedAttempt(Symptom.CONNECTION_FAILED, "down"),
        FailedAttempt(Symptom.RATE_LIMITED, "HTTP 429: slow down"),
        "ok",
    ]
    retrier = Retrier(log=operator.log, sleep=operator.sleep)
    assert retrier.run("openai:m", lambda secs: results.pop(0)) == "ok"
    assert operator.sleeps == [1.0, 2.0]
    assert [(level, f["symptom"], f["attempt"]) for level, _, f in operator.lines] == [
        ("warn", "connection_failed", 1),
        ("warn", "rate_limited", 2),
    ]
    assert not any("errorType" in f for _, _, f in operator.lines)


def test_once_the_attempts_are_spent_the_last_failure_stands() -> None:
    operator = Operator()
    results = [
        FailedAttempt(Symptom.SERVER_FAILED, "HTTP 500: a"),
        FailedAttempt(Symptom.SERVER_FAILED, "HTTP 503: b"),
    ]
    result = Retrier(log=operator.log, policy=RetryPolicy(retries=1), sleep=operator.sleep).run(
        "m", lambda secs: results.pop(0)
    )
    assert isinstance(result, FailedAttempt)
    assert result.type is ErrorType.MODEL_RETRY_EXHAUSTED
    assert result.message == "HTTP 503: b (gave up after 2 attempts)"


def test_no_retry_at_all_gives_up_on_the_first_failure() -> None:
    operator = Operator()
    result = Retrier(log=operator.log, policy=RetryPolicy(retries=0), sleep=operator.sleep).run(
        "m", lambda secs: FailedAttempt(Symptom.SERVER_FAILED, "HTTP 500: a")
    )
    assert isinstance(result, FailedAttempt) and result.message == "HTTP 500: a (gave up after 1 attempt)"
    assert operator.sleeps == []


def test_every_attempt_and_every_wait_is_held_within_the_runs_time() -> None:
    """Issue 21, items 25 and 26: a 600 s ceiling ran 14 min 59 s, its request timeouts retried."""
    clock, operator = ManualClock(0.0), Operator()
    given: list[float] = []

    def attempt(secs: float) -> str | FailedAttempt:
        given.append(secs)
        return FailedAttempt(Symptom.SERVER_FAILED, "HTTP 500: down")

    def sleep(secs: float) -> None:
        operator.sleep(secs)
        clock.advance(secs)

    retrier = Retrier(log=operator.log, run_left=lambda: time_left(5.0, clock()), sleep=sleep)
    result = retrier.run("openai:m", attempt)
    assert isinstance(result, FailedAttempt) and result.message == "HTTP 500: down"
    assert (given, operator.sleeps, clock()) == ([5.0, 4.0, 2.0], [1.0, 2.0, 2.0], 5.0)
    assert operator.lines[-1][1] == (
        "model call to openai:m failed (HTTP 500: down); "
        "the run's time runs out in 2.00s, before another attempt"
    )
    assert retrier.run("openai:m", attempt) == FailedAttempt(
        Symptom.TIMED_OUT, "the run's time is spent; no request was made"
    )
    assert len(given) == 3  # once the run's time is spent no request is made
