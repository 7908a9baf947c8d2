"""Cell rows made by hand, for the pure result and comparison tests."""

from __future__ import annotations

import json

from gg.study.rows import CellRow


def cell(
    config: str,
    task: str,
    repeat: int = 1,
    *,
    solved: bool = True,
    turns: int = 2,
    cost: float | None = None,
    tokens: tuple[int, int] = (1000, 100),
    errors: dict[str, int] | None = None,
    wall_ms: float = 500.0,
    verdict: str | None = None,
) -> CellRow:
    by_type = errors or {}
    return CellRow(
        study_id="study-x",
        config=config,
        task=task,
        repeat=repeat,
        run_id=f"run-{config}-{task}-{repeat}",
        status="completed",
        exit_code=0,
        verdict=verdict or ("solved" if solved else "failed"),
        solved=solved,
        check_exit=0 if solved else 1,
        check_detail="",
        check_ms=1.0,
        turns=turns,
        programs=turns,
        error_turns=sum(by_type.values()),
        errors_by_type=json.dumps(by_type),
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        cost_usd=cost,
        wall_ms=wall_ms,
        attempts=1,
        worker="here:1",
        message=None,
        finished_at="2026-12-01T00:00:00.000Z",
    )
