"""The one table from failure to error type, and the retry schedule."""

from __future__ import annotations

import pytest

from gg.outcome import ErrorKind, ErrorType
from gg.providers.failures import Failure, Symptom, retry_after_secs, status_failure, symptom_of_status
from gg.providers.retry import Retrier, RetryPolicy

from .operator import Operator


@pytest.mark.parametrize(
    ("status", "error_type", "retried"),
    [
        (401, ErrorType.MODEL_AUTH, False),
        (403, ErrorType.MODEL_AUTH, False),
        (400, ErrorType.MODEL_REJECTED, False),
        (404, ErrorType.MODEL_REJECTED, False),
        (422, ErrorType.MODEL_REJECTED, False),
        (408, ErrorType.MODEL_TIMEOUT, True),
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
        assert Failure(symptom, "x").type.kind is ErrorKind.MODEL_API


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


def test_backoff_doubles_up_to_its_cap_and_draws_within_the_upper_half() -> None:
    policy = RetryPolicy(attempts=8, base_secs=0.5, cap_secs=8.0)
    failure = Failure(Symptom.SERVER_FAILED, "x")
    assert [policy.delay_secs(n, failure, 1.0) for n in range(1, 7)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert policy.delay_secs(3, failure, 0.0) == 1.0


def test_a_requested_wait_is_honoured_up_to_the_longest_wait() -> None:
    policy = RetryPolicy(max_wait_secs=60.0)
    assert policy.delay_secs(1, Failure(Symptom.RATE_LIMITED, "x", retry_after_secs=7.0), 0.0) == 7.0
    assert policy.delay_secs(1, Failure(Symptom.RATE_LIMITED, "x", retry_after_secs=3600.0), 0.0) == 60.0


def test_a_failure_that_no_retry_cures_is_returned_after_one_attempt() -> None:
    operator = Operator()
    attempts: list[int] = []

    def attempt() -> str | Failure:
        attempts.append(1)
        return Failure(Symptom.AUTH_REFUSED, "HTTP 401: no")

    result = Retrier(log=operator.log, sleep=operator.sleep).run("m", attempt)
    assert result == Failure(Symptom.AUTH_REFUSED, "HTTP 401: no")
    assert (len(attempts), operator.lines, operator.sleeps) == (1, [], [])


def test_a_retry_names_its_attempts_symptom_never_an_exhausted_schedule() -> None:
    operator = Operator()
    results: list[str | Failure] = [
        Failure(Symptom.CONNECTION_FAILED, "down"),
        Failure(Symptom.TIMED_OUT, "t"),
        "ok",
    ]
    retrier = Retrier(log=operator.log, sleep=operator.sleep, draw=lambda: 0.0)
    assert retrier.run("openai:m", lambda: results.pop(0)) == "ok"
    assert operator.sleeps == [0.25, 0.5]
    assert [(level, f["symptom"], f["attempt"]) for level, _, f in operator.lines] == [
        ("warn", "connection_failed", 1),
        ("warn", "timed_out", 2),
    ]
    assert not any("errorType" in f for _, _, f in operator.lines)


def test_once_the_attempts_are_spent_the_last_failure_stands() -> None:
    operator = Operator()
    results = [
        Failure(Symptom.SERVER_FAILED, "HTTP 500: a"),
        Failure(Symptom.TIMED_OUT, "the request timed out"),
    ]
    result = Retrier(log=operator.log, policy=RetryPolicy(attempts=2), sleep=operator.sleep).run(
        "m", lambda: results.pop(0)
    )
    assert isinstance(result, Failure)
    assert result.type is ErrorType.MODEL_TIMEOUT
    assert result.message == "the request timed out (gave up after 2 attempts)"
