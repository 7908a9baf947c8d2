"""The error taxonomy: every type has exactly one base kind; one predicate says what an error is."""

import pytest

from gg.errors import FatalFault
from gg.outcome import Continue, ErrorKind, ErrorType, Fatal, Finished, OutcomeName, is_error, outcome_name

KINDS = {
    ErrorKind.MODEL_API: {
        "model_auth",
        "model_rejected",
        "model_retry_exhausted",
        "model_response_loop",
        "model_parse",
        "model_timeout",
        "model_length_capped",
    },
    ErrorKind.TRANSPILE: {"transpile_syntax", "transpile_compile", "transpile_unsupported"},
    ErrorKind.PROGRAM_FAULT: {"program_api_error", "program_unknown_name", "program_throw"},
    ErrorKind.SANDBOX_LIMIT: {"sandbox_timeout", "sandbox_out_of_memory", "sandbox_trap"},
    ErrorKind.MISSING_COMPLETION: {
        "missing_completion_no_call",
        "missing_completion_compaction",
        "missing_completion_no_program",
    },
}


@pytest.mark.parametrize("error_type", list(ErrorType))
def test_every_error_type_has_its_base_kind(error_type: ErrorType) -> None:
    assert error_type.value in KINDS[error_type.kind]


def test_the_wire_vocabulary_is_exactly_the_documented_one() -> None:
    assert {t.value for t in ErrorType} == set().union(*KINDS.values())


def test_only_a_continue_with_an_error_type_is_an_error_turn() -> None:
    assert is_error(Continue(error=ErrorType.SANDBOX_TIMEOUT))
    assert not is_error(Continue())
    assert not is_error(Finished("done"))
    assert not is_error(Fatal(FatalFault.HOST_FAULT))


def test_each_outcome_has_its_wire_name() -> None:
    assert outcome_name(Continue()) is OutcomeName.PROGRESSED
    assert outcome_name(Continue(error=ErrorType.PROGRAM_THROW)) is OutcomeName.ERROR
    assert outcome_name(Finished("x")) is OutcomeName.FINISHED
    assert outcome_name(Fatal(FatalFault.TOOLCHAIN)) is OutcomeName.FATAL
