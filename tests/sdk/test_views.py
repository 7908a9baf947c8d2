"""The `views` operations: open_text and open_file (always bound), close and current (under
`agent-managed-context`), and the refusals a program sees from them."""

from __future__ import annotations

from gg.errors import ErrorCode, OperationError
from gg.sdk.registry import Always, Capability
from gg.sdk.views import VIEWS_OPERATIONS

from .canary import Canary

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def _error(case: Canary, wire: str, **args: object) -> OperationError:
    outcome = case.attempt(wire, **args)
    assert outcome.error is not None, f"expected a refusal, got {outcome.value!r}"
    return outcome.error


def test_opening_views_is_always_bound_closing_them_is_context_management_and_only_open_file_is_a_tool() -> (
    None
):
    assert [(op.wire, op.returns, op.dispatches_tool, op.gate) for op in VIEWS_OPERATIONS] == [
        ("views.open_text", "void", False, Always()),
        ("views.open_file", "FileRead", True, Always()),
        ("views.close", "number", False, Capability("agent-managed-context")),
        ("views.current", "OpenView[]", False, Capability("agent-managed-context")),
    ]
    assert all(op.family == "views" for op in VIEWS_OPERATIONS)
    assert [p.wire for p in VIEWS_OPERATIONS[1].params] == ["path", "offset", "limit"]


def test_open_text_opens_a_view_for_the_next_turn(case: Canary) -> None:
    assert case.call("views.open_text", label="notes", body="x") is None
    assert [v.render() for v in case.scope.views.close_turn()] == ["View: notes\n----\nx"]


def test_open_text_refusals_carry_the_operation_and_code(case: Canary) -> None:
    assert _error(case, "views.open_text", label="", body="x").to_wire() == {
        "operation": "open_text",
        "code": "invalid-argument",
        "message": "`label` is empty",
    }
    assert _error(case, "views.open_text", label="big", body="x" * 65537).code is ErrorCode.LIMIT_EXCEEDED


def test_open_file_returns_the_read_record_and_opens_that_page(case: Canary) -> None:
    (case.ws / "five.txt").write_text("1\n2\n3\n4\n5\n")
    record = case.call("views.open_file", path="./five.txt", offset=1, limit=2)
    assert record == case.call("files.read_file", path="five.txt", offset=1, limit=2)
    (view,) = case.scope.views.close_turn()
    assert view.render() == "File: five.txt:2-3 of 5 lines\n----\n2\n3\n"


def test_open_file_of_the_same_region_replaces_it_and_other_regions_coexist(case: Canary) -> None:
    (case.ws / "five.txt").write_text("1\n2\n3\n4\n5\n")
    case.call("views.open_file", path="five.txt", limit=2)
    case.call("views.open_file", path="five.txt", offset=2, limit=2)
    case.call("views.open_file", path=f"{case.ws}/five.txt", limit=2)
    assert [v.render().split("\n")[0] for v in case.scope.views.close_turn()] == [
        "File: five.txt:1-2 of 5 lines",
        "File: five.txt:3-4 of 5 lines",
    ]


def test_open_file_of_an_empty_file_shows_the_path_alone(case: Canary) -> None:
    (case.ws / "empty.txt").write_bytes(b"")
    case.call("views.open_file", path="empty.txt")
    assert case.scope.views.close_turn()[0].render() == "File: empty.txt\n----\n"


def test_open_file_of_an_image_shows_the_path_and_why_the_picture_is_absent(case: Canary) -> None:
    (case.ws / "shot.png").write_bytes(PNG)
    assert case.call("views.open_file", path="shot.png")["kind"] == "image"
    assert case.scope.views.close_turn()[0].render() == (
        "File: shot.png\n----\nthis harness does not attach images to the model's input"
    )


def test_open_file_over_the_view_body_cap_is_refused_never_cut(case: Canary) -> None:
    (case.ws / "wide.txt").write_text("w" * 70000 + "\n")
    error = _error(case, "views.open_file", path="wide.txt")
    assert (error.operation, error.code, error.message) == (
        "open_file",
        ErrorCode.LIMIT_EXCEEDED,
        "the view body is 70001 bytes, over the 65536-byte cap",
    )
    assert len(case.scope.views) == 0


def test_open_file_refusals_are_the_read_refusals_under_its_own_name(case: Canary) -> None:
    assert _error(case, "views.open_file", path="nope.md").to_wire() == {
        "operation": "open_file",
        "code": "not-found",
        "message": "`nope.md` does not exist",
    }
    assert _error(case, "views.open_file", path="../outside/secret.txt").code is ErrorCode.INVALID_ARGUMENT
    assert len(case.scope.views) == 0
