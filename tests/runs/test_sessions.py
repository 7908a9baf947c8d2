"""Whole sessions for the loop's own rules: each asserts how many times the model was asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from session import Profile, program, run_session

from gg.outcome import ErrorType
from gg.providers.base import ModelError, Reply, Request
from gg.providers.scripted import ScriptedClient, program_reply
from gg.record.transcript import fold_transcript
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.terminal.show import render_transcript
from support.manual_clock import ManualClock

LIBRARY = {"keep": 20, "idLength": 4}
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'


pytestmark = pytest.mark.arms("javascript")


def _sixty_line_program() -> str:
    lines = ['import { files, views } from "gg";', "cosnt total = [];"]
    lines += [f"total.push({n} * {n});" for n in range(57)]
    lines.append('files.writeFile("total.txt", String(total.reduce((a, b) => a + b, 0)));')
    return "\n".join(lines) + "\n"


def test_the_seed_story_fetch_patch_and_hand_over_a_sixty_line_program(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    fixed = 'import { programs, session } from "gg";\n'
    fixed += 'programs.rerun(programs.get("{{receipt 1.1}}").replace("cosnt total", "const total"));\n'
    finish = (
        'import { files, session } from "gg";\nsession.finish(`total ${files.readTextFile("total.txt")}`);\n'
    )
    session = run_session(
        tmp_path,
        [program(_sixty_line_program()), program(fixed), program(finish)],
        Profile(library=LIBRARY),
        arm=arm,
    )
    first_id = session.receipts(1)[0]
    assert session.outcome(1)["errorType"] == ErrorType.PROGRAM_THROW.value
    assert "SyntaxError" in session.feedback(1)[0] and "program.js:2" in session.feedback(1)[0]
    assert session.outcome(2)["outcome"] == "progressed" and session.feedback(2) == []
    (chained,) = session.executions(2)
    assert chained["programs"] == 2 and chained["source"] == _sixty_line_program().replace("cosnt", "const")
    assert (session.workspace / "total.txt").read_text() == str(sum(n * n for n in range(57)))
    assert session.finished["finalText"] == f"total {sum(n * n for n in range(57))}"
    kept = [e["programId"] for e in session.of_type("program_kept")]
    assert kept[0] == first_id and session.model_calls == 3


def test_an_id_minter_that_always_collides_makes_the_turn_fatal(tmp_path: Path, arm: JavaScriptArm) -> None:
    session = run_session(
        tmp_path,
        [program("1"), program("2"), program(FINISH)],
        Profile(library=LIBRARY),
        arm=arm,
        minter=lambda length: "abcd",
    )
    assert session.outcome(2)["outcome"] == "fatal"
    assert session.finished["status"] == "internal_error" and session.finished["exitCode"] == 1
    assert session.executions(2) == []  # the id was due before the program could run
    assert session.model_calls == 2
    assert "mint" in session.finished["message"]


def test_replayed_receipts_keep_the_ids_they_were_recorded_with(tmp_path: Path, arm: JavaScriptArm) -> None:
    replies = [
        {**program("console.log(1);"), "receipts": ["k3p9"]},
        {
            **program('import { programs } from "gg";\nconsole.log(programs.get("k3p9"));'),
            "receipts": ["m2x7"],
        },
        program(FINISH),
    ]
    session = run_session(tmp_path, replies, Profile(library=LIBRARY), arm=arm)
    assert session.receipts(1) == ["k3p9"] and session.receipts(2) == ["m2x7"]
    assert session.executions(2)[0]["logs"] == ["console.log(1);"]


def test_the_launch_log_names_the_retention_the_id_length_and_the_calls(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    session = run_session(tmp_path, [program(FINISH)], Profile(library={"keep": 0, "idLength": 6}), arm=arm)
    (line,) = [log["message"] for log in session.logs("info", turn=0)]
    assert "every program" in line and "6" in line
    assert "gg.programs.get" in line and "gg.programs.rerun" in line


def test_without_a_library_no_launch_line_and_every_receipt_is_ok(tmp_path: Path, arm: JavaScriptArm) -> None:
    session = run_session(tmp_path, [program("1", "2"), program(FINISH)], arm=arm)
    assert session.logs("info", turn=0) == [] and session.receipts(1) == ["ok", "ok"]


def test_an_unusable_reply_is_an_error_turn_and_the_session_goes_on(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    client = ScriptedClient([ModelError(ErrorType.MODEL_PARSE, "not JSON"), program_reply(FINISH, turn=2)])
    session = run_session(tmp_path, [], arm=arm, client=client)
    assert session.outcome(1)["errorType"] == "model_parse" and session.outcome(2)["outcome"] == "finished"
    assert session.model_calls == 2


def test_a_rejected_key_ends_the_run_as_a_model_error(tmp_path: Path, arm: JavaScriptArm) -> None:
    client = ScriptedClient([ModelError(ErrorType.MODEL_AUTH, "401: invalid key")])
    session = run_session(tmp_path, [], arm=arm, client=client)
    assert session.finished["status"] == "model_error" and session.finished["exitCode"] == 1
    assert "invalid key" in session.finished["message"] and session.model_calls == 1


def test_an_exhausted_journal_ends_with_a_clear_status(tmp_path: Path, arm: JavaScriptArm) -> None:
    session = run_session(tmp_path, [program("1")], arm=arm)
    assert session.finished["status"] == "model_error" and session.finished["exitCode"] == 1
    assert "journal" in session.finished["message"] and session.model_calls == 2


def _slow_model(clock: ManualClock, secs: float, *programs: str) -> ScriptedClient:
    """A model whose every reply takes `secs` on the run's clock."""

    def reply(request: Request, index: int) -> Reply:
        clock.advance(secs)
        return program_reply(programs[index], turn=index + 1)

    return ScriptedClient(reply)


def test_a_reply_that_arrives_after_the_runtime_ceiling_is_recorded_and_never_run(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    """Issue 21, item 25: a 3 s ceiling ended at 5.8 s and the late reply's program still ran."""
    late = (
        'import { files, session } from "gg";\nfiles.writeFile("late.txt", "x");\nsession.finish("late");\n'
    )
    clock = ManualClock()
    client = _slow_model(clock, 0.3, late)
    profile = Profile(limits={"maxRuntimeSecs": 0.2})
    session = run_session(tmp_path, [], profile, arm=arm, client=client, clock=clock)
    assert session.finished["status"] == "timed_out" and session.finished["exitCode"] == 3
    (breach,) = session.of_type("limit_exceeded")
    assert (breach["limit"], breach["threshold"], breach["observed"]) == ("runtime", 0.2, 0.3)
    assert (breach["turn"], breach["turns"], session.model_calls) == (1, 1, 1)
    (reply,) = session.of_type("model_reply")
    assert reply["calls"][0]["arguments"] == {"program": late} and reply["durationMs"] == 300.0
    assert [session.of_type(kind) for kind in ("receipt", "code_execution", "turn_outcome")] == [[], [], []]
    assert not (session.workspace / "late.txt").exists()
    assert session.finished["durationMs"] == 300.0
    out = Console(record=True, width=120, color_system=None)
    render_transcript(fold_transcript(session.events), out)
    text = [line.rstrip() for line in out.export_text().splitlines()]
    assert "→ timed_out (the run's time ran out during the turn)" in text
    assert "! ceiling reached: runtime 0.3 s ≥ maxRuntimeSecs 0.2 (after 1 turn)" in text
    assert text[-2].endswith("1 turn · 300 ms · 0 in / 0 out tokens · 1 program (0 failed, 1 timed_out)")


def test_the_run_summary_rolls_up_turns_programs_errors_and_tokens(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    replies = [
        program("throw new Error('x')", "1"),
        {**program(FINISH), "usage": {"inputTokens": 7, "outputTokens": 3}},
    ]
    session = run_session(tmp_path, replies, arm=arm)
    summary = session.finished["summary"]
    assert summary["turns"] == 2 and summary["codeExecutions"] == 3
    assert summary["errors"]["errors"] == 1 and summary["errors"]["program_fault"] == 1
    assert summary["errors"]["byType"] == {"program_throw": 1}
    assert summary["usage"]["inputTokens"] == 7 and summary["usage"]["outputTokens"] == 3


def test_a_compaction_restarts_the_window_from_the_task_and_the_summary(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    compact = 'import { context, files } from "gg";\nfiles.writeFile("a.md", "alpha");\n'
    compact += 'context.compact("wrote a.md", ["a.md", "missing.md"]);\n'
    session = run_session(tmp_path, [program("1"), program(compact), program(FINISH)], arm=arm)
    (request,) = session.of_type("model_request", 3)
    contents = [m["content"] for m in request["messages"]]
    assert contents[0].startswith("Task\n----\n")
    assert contents[1] == "Summary\n----\nwrote a.md"
    assert contents[2].startswith("File: a.md") and "alpha" in contents[2]
    assert contents[3].startswith("Notice\n----\n") and "missing.md" in contents[3]
    assert len(session.requests[2].messages) == 4


def test_a_lone_surrogate_from_a_program_or_a_model_costs_the_run_no_record(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    """Texts are made well-formed before any sink sees them, so the store and the event file keep
    the whole run (a lone surrogate once disabled both)."""
    import io
    import json

    from rich.console import Console

    from gg.agents.run import RunOptions, World, execute_run
    from gg.config import parse_capability_set
    from gg.providers.journal import parse_journal
    from gg.providers.replay import ReplayClient
    from gg.record.store import RunStore
    from gg.telemetry.emitter import Telemetry
    from gg.telemetry.ndjson import NdjsonSink, read_events
    from gg.terminal.display import LiveDisplay

    journal = tmp_path / "journal.jsonl"
    finish = 'import { session } from "gg";\nsession.finish("ok \\uD800 end");\n'
    journal.write_text(json.dumps({"text": "think \ud800", **program(finish)}) + "\n")
    (tmp_path / "workspace").mkdir()
    capability_set = parse_capability_set(Profile().document(journal), tmp_path)
    client = ReplayClient(parse_journal(journal.read_text(), str(journal)))
    screen = io.StringIO()
    sinks = [RunStore.at(tmp_path), NdjsonSink(tmp_path, "run-s1"), LiveDisplay(Console(file=screen))]
    telemetry = Telemetry("run-s1", sinks)
    result = execute_run(capability_set, telemetry, RunOptions(), World(client=client, arm=arm))
    telemetry.close()
    assert telemetry.failures == ()
    assert result.final_text == "ok \ud800 end"  # the program's own words, as it wrote them
    row = RunStore.at(tmp_path).find_run("run-s1")
    assert row.status == "completed" and row.final_text == "ok \ufffd end"
    events = read_events(tmp_path / ".gg" / "runs" / "run-s1" / "events.ndjson")
    assert events[-1]["type"] == "run_finished"
    assert "ok \ufffd end" in screen.getvalue()


def test_the_cost_ceiling_stops_the_run_before_the_next_model_call(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    priced = {**program("1"), "costUsd": 0.6}
    session = run_session(
        tmp_path, [priced, priced, program(FINISH)], Profile(limits={"maxCost": 1.0}), arm=arm
    )
    assert session.finished["status"] == "limit_exceeded" and session.finished["exitCode"] == 3
    (breach,) = session.of_type("limit_exceeded")
    assert breach["limit"] == "cost" and breach["observed"] == pytest.approx(1.2) and breach["turns"] == 2
    assert session.model_calls == 2
    assert session.of_type("model_reply", 1)[0]["costUsd"] == 0.6


def test_the_last_compaction_of_a_reply_stands_across_its_programs(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    first = 'import { context } from "gg";\ncontext.compact("from the first program");\n'
    second = 'import { context } from "gg";\ncontext.compact("from the second program");\n'
    session = run_session(tmp_path, [program(first, second), program(FINISH)], arm=arm)
    (compaction,) = session.of_type("compaction", 1)
    assert compaction["summary"] == "from the second program"


def test_the_library_survives_a_compaction_and_is_never_rendered(tmp_path: Path, arm: JavaScriptArm) -> None:
    first = "const marker = 'kept across the compaction';\n"
    compact = 'import { context } from "gg";\ncontext.compact("start over");\n'
    fetch = 'import { programs } from "gg";\nconsole.log(programs.get("{{receipt 1.1}}"));\n'
    session = run_session(
        tmp_path,
        [program(first), program(compact), program(fetch), program(FINISH)],
        Profile(library=LIBRARY),
        arm=arm,
    )
    assert session.executions(3)[0]["logs"] == [first]
    for request in session.requests:
        assert all(
            "kept across the compaction" not in m.content for m in request.messages if m.role != "assistant"
        )


def test_a_blank_program_id_is_an_invalid_argument_not_a_missing_program(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    fetch = 'import { programs } from "gg";\ntry { programs.get(" "); } catch (e) { console.log(e.code); }\n'
    session = run_session(tmp_path, [program(fetch)], Profile(library=LIBRARY), arm=arm)
    assert session.executions(1)[0]["logs"] == ["invalid-argument"]


def test_a_chains_record_carries_every_links_own_source_and_gg_show_prints_each(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    third = '// the third link\nconst x = 1;\nthrow new Error("the third link fails");\n'
    second = f'import {{ programs }} from "gg";\n// the second link\nprograms.rerun({json.dumps(third)});\n'
    first = f'import {{ programs }} from "gg";\nprograms.rerun({json.dumps(second)});\n'
    session = run_session(tmp_path, [program(first), program(FINISH)], Profile(library=LIBRARY), arm=arm)
    (chained,) = session.executions(1)
    assert [link["source"] for link in chained["links"]] == [first, second, third]
    assert [link["ok"] for link in chained["links"]] == [True, True, False]
    assert chained["links"][2]["errorType"] == "program_throw" and "program.js:3" in chained["error"]
    out = Console(record=True, width=120, color_system=None)
    render_transcript(fold_transcript(session.events), out)
    text = [line.rstrip() for line in out.export_text().splitlines()]
    at = text.index("link 3 of 3 · handed over by link 2")
    assert text[at + 1 : at + 4] == [
        "  1 // the third link",
        "  2 const x = 1;",
        '  3 throw new Error("the third link fails");',
    ]
    assert text[at + 5].startswith("  ✗ program_throw at program.js:3:7 — Error: the third link fails")
    assert "link 1 of 3 · the submission" in text and "link 2 of 3 · handed over by link 1" in text


def test_calls_past_the_cap_are_counted_on_the_record_never_recorded_one_by_one(
    tmp_path: Path, arm: JavaScriptArm
) -> None:
    capped = (
        'import { session, views } from "gg";\n'
        "for (let i = 0; i < 100000; i++) { try { views.openText(1, 2); } catch {} }\n"
        'for (let i = 0; i < 3; i++) { try { views.openText("a", "b"); } catch {} }\n'
        'try { session.finish("done"); } catch (e) { console.log(e.code); }\n'
    )
    session = run_session(tmp_path, [program(capped), program(FINISH)], arm=arm)
    (execution,) = session.executions(1)
    assert execution["callsRefused"] == 4 and execution["logs"] == ["limit-exceeded"]
    assert session.of_type("api_call", 1) == []
