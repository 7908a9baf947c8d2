"""Host functions, end to end through `gg.run`: a family declaring every supported type
(`tests/warehouse.py`) called from all four arms by a model scripted in Python, a type error caught
by each checker before anything runs, the host's own refusals on the unchecked arms, a raising
function, an async one, and a recorded session replayed with the family absent."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

import gg
import warehouse as shop
from support import scripted_host
from support.scripted_host import Scripted
from support.shared_arms import ArmShelf
from warehouse import warehouse

JS_CALLS = """import { warehouse, session } from "gg";
const out = {
  weigh: warehouse.weigh({ label: "a", weight: 2, tags: ["x"] }, { extra: 0.5 }),
  ship: warehouse.ship({
    id: "s1",
    boxes: [{ label: "b", weight: 1, tags: [] }, { label: "a", weight: 2.5, tags: ["t"] }],
  }),
  lines: warehouse.lines(["A", "B"], { quantity: 3, note: "rush" }),
  total: warehouse.total({ sku: "A", quantity: 1 }, { A: 4, B: 2 }),
  choose: [warehouse.choose("fast", 7), warehouse.choose("slow", "x", true), warehouse.choose("fast", null)],
  note: warehouse.note("hello"),
  anything: warehouse.anything({ deep: [1, "two", { three: null }] }),
  find: warehouse.find("k"),
  countLater: warehouse.countLater("ABCD"),
};
const failures = {};
function attempt(name, call) {
  try { call(); failures[name] = "no error"; }
  catch (e) { failures[name] = `${e.name} ${e.operation} ${e.code}: ${e.message}`; }
}
attempt("missing", () => warehouse.find("missing"));
attempt("broken", () => warehouse.find("broken"));
attempt("promise", () => warehouse.promiseBroken());
REFUSALS
session.finish(JSON.stringify({ out, failures }));
"""

JS_REFUSALS = """attempt("weight", () => warehouse.weigh({ label: "a", weight: "heavy", tags: [] }));
attempt("whole", () => warehouse.lines(["A"], { quantity: 2.5 }));
attempt("literal", () => warehouse.choose("medium", 1));
attempt("field", () => warehouse.weigh({ label: "a", weight: 1, tags: [], colour: "red" }));
attempt("missingField", () => warehouse.ship({ boxes: [] }));
attempt("list", () => warehouse.lines("A"));
attempt("map", () => warehouse.total({ sku: "A", quantity: 1 }, { A: "four" }));
attempt("nested", () => warehouse.ship({ id: "s", boxes: [{ label: "a", weight: 1, tags: [3] }] }));
attempt("required", () => warehouse.weigh());"""

TS_CALLS = (
    JS_CALLS.replace("function attempt(name, call)", "function attempt(name: string, call: () => unknown)")
    .replace("const failures = {};", "const failures: Record<string, string> = {};")
    .replace("catch (e) {", "catch (e) { if (!(e instanceof ApiError)) throw e;")
    .replace('import { warehouse, session } from "gg";', 'import { ApiError, warehouse, session } from "gg";')
)

PY_CALLS = """import gg
w = gg.warehouse
out: dict[str, object] = {
    "weigh": w.weigh({"label": "a", "weight": 2, "tags": ["x"]}, extra=0.5),
    "ship": w.ship(
        {
            "id": "s1",
            "boxes": [{"label": "b", "weight": 1, "tags": []}, {"label": "a", "weight": 2.5, "tags": ["t"]}],
        }
    ),
    "lines": w.lines(["A", "B"], quantity=3, note="rush"),
    "total": w.total({"sku": "A", "quantity": 1}, {"A": 4, "B": 2}),
    "choose": [w.choose("fast", 7), w.choose("slow", "x", True), w.choose("fast", None)],
    "note": w.note("hello"),
    "anything": w.anything({"deep": [1, "two", {"three": None}]}),
    "find": w.find("k"),
    "countLater": w.count_later("ABCD"),
}
failures: dict[str, str] = {}


def attempt(name: str, call) -> None:
    try:
        call()
        failures[name] = "no error"
    except gg.ApiError as error:
        d = gg.core.details(error)
        failures[name] = "ApiError " + str(d.operation) + " " + str(d.code) + ": " + str(d.message)


attempt("missing", lambda: w.find("missing"))
attempt("broken", lambda: w.find("broken"))
attempt("promise", lambda: w.promise_broken())
REFUSALS
gg.session.finish(repr({"out": out, "failures": failures}))
"""

PY_REFUSALS = """attempt("weight", lambda: w.weigh({"label": "a", "weight": "heavy", "tags": []}))
attempt("whole", lambda: w.lines(["A"], quantity=2.5))
attempt("literal", lambda: w.choose("medium", 1))
attempt("field", lambda: w.weigh({"label": "a", "weight": 1, "tags": [], "colour": "red"}))
attempt("missingField", lambda: w.ship({"boxes": []}))
attempt("list", lambda: w.lines("A"))
attempt("map", lambda: w.total({"sku": "A", "quantity": 1}, {"A": "four"}))
attempt("nested", lambda: w.ship({"id": "s", "boxes": [{"label": "a", "weight": 1, "tags": [3]}]}))"""

CHECKER_SAYS = {
    "typescript": "program.ts:2:31 - error TS2322: Type 'string' is not assignable to type 'number'.",
    "python-typed": 'program.py:2:45: error[invalid-argument-type] Invalid argument to key "weight"'
    ' with declared type `float` on TypedDict `Box`: value of type `Literal["heavy"]`',
}
TYPE_ERRORS = {
    "typescript": 'import { warehouse } from "gg";\n'
    'warehouse.weigh({ label: "a", weight: "heavy", tags: [] });\n',
    "python-typed": 'import gg\ngg.warehouse.weigh({"label": "a", "weight": "heavy", "tags": []})\n',
}

PROGRAMS = {
    "javascript": JS_CALLS.replace("REFUSALS", JS_REFUSALS),
    "typescript": TS_CALLS.replace("REFUSALS", ""),
    "python": PY_CALLS.replace("REFUSALS", PY_REFUSALS),
    "python-typed": PY_CALLS.replace("REFUSALS", ""),
}

OUT = {
    "weigh": 2.5,
    "ship": {
        "id": "s1",
        "boxes": [{"label": "a", "weight": 2.5, "tags": ["t"]}, {"label": "b", "weight": 1, "tags": []}],
        "priority": "high",
    },
    "lines": [{"sku": "A", "quantity": 3, "note": "rush"}, {"sku": "B", "quantity": 3, "note": "rush"}],
    "total": {"A": 0.75, "B": 1.0},
    "choose": ["fast:7:False", "slow:'x':True", "fast:None:False"],
    "note": None,
    "anything": {"deep": [1, "two", {"three": None}]},
    "find": {"label": "k", "weight": 1.5, "tags": ["found"]},
    "countLater": 4,
}
RAISED = {
    "missing": "ApiError find not-found: no box is labelled missing",
    "broken": "ApiError find other: KeyError: 'broken'",
    "promise": "ApiError promise_broken other: it answered outside its declared result `int`:"
    ' the answer must be a whole number, got "seven"',
}
REFUSED = {
    "weight": 'ApiError weigh invalid-argument: `box.weight` must be a number, got "heavy"',
    "whole": "ApiError lines invalid-argument: `quantity` must be a whole number, got 2.5",
    "literal": 'ApiError choose invalid-argument: `mode` must be one of "fast", "slow", got "medium"',
    "field": "ApiError weigh invalid-argument: `box` has no field `colour`"
    " (`Box` has `label`, `weight`, `tags`)",
    "missingField": "ApiError ship invalid-argument: `shipment` lacks the field `id`"
    " (`Shipment` requires it)",
    "list": 'ApiError lines invalid-argument: `skus` must be a list, got "A"',
    "map": 'ApiError total invalid-argument: `stock["A"]` must be a whole number, got "four"',
    "nested": "ApiError ship invalid-argument: `shipment.boxes[0].tags[0]` must be a string, got 3",
    "required": "ApiError weigh invalid-argument: `box` is required",
}
DECODED = [
    "weigh Box float float",
    "ship Shipment Box",
    "lines list int",
    "total dict dict",
    "choose int bool",
    "choose str bool",
    "choose NoneType bool",
    "note hello",
    "count_later _UnixSelectorEventLoop",
]


def config(tmp_path: Path, language: str, families: list[str] | None = None) -> dict[str, Any]:
    return scripted_host.config(tmp_path, language, families or ["warehouse"])


def finished(result: gg.RunResult, language: str) -> dict[str, Any]:
    assert result.status == "completed", result.message
    assert result.final_text is not None
    read = ast.literal_eval if language.startswith("python") else json.loads
    return read(result.final_text)


@pytest.mark.parametrize("language", ["javascript", "python"])
def test_every_type_crosses_from_an_unchecked_arm_and_the_host_refuses_what_does_not_fit(
    tmp_path: Path, language: str
) -> None:
    shop.CALLS.clear()
    events: list[gg.Event] = []
    result = gg.run(
        config(tmp_path, language),
        model=Scripted(PROGRAMS[language]),
        families=[warehouse],
        store=tmp_path,
        on_event=events.append,
    )
    answer = finished(result, language)
    assert answer["out"] == OUT
    refused = dict(REFUSED)
    if language == "python":  # a Python call cannot leave a required argument out: its own TypeError
        del refused["required"]
    assert answer["failures"] == {**RAISED, **refused}
    assert shop.CALLS == DECODED
    logs = [e.payload for e in events if e.type == "log" and "host function" in e.to_wire()["message"]]
    assert [log.to_wire()["message"] for log in logs] == [
        "host function `warehouse.find` failed: KeyError: 'broken'",
        "host function `warehouse.promise_broken`: it answered outside its declared result `int`:"
        ' the answer must be a whole number, got "seven"',
    ]
    assert "Traceback" in logs[0].to_wire()["fields"]["traceback"]
    assert "raise KeyError(label)" in logs[0].to_wire()["fields"]["traceback"]


@pytest.mark.parametrize("language", ["typescript", "python-typed"])
def test_a_checked_arm_refuses_a_host_call_of_the_wrong_type_before_anything_runs(
    tmp_path: Path, language: str
) -> None:
    shop.CALLS.clear()
    events: list[gg.Event] = []
    model = Scripted(TYPE_ERRORS[language], PROGRAMS[language])
    result = gg.run(
        config(tmp_path, language), model=model, families=[warehouse], store=tmp_path, on_event=events.append
    )
    answer = finished(result, language)
    assert answer["out"] == OUT and answer["failures"] == RAISED
    first = [e.to_wire() for e in events if e.turn == 1]
    executed = next(e for e in first if e["type"] == "code_execution")
    assert executed["errorType"] == "transpile_compile" and CHECKER_SAYS[language] in executed["error"]
    assert not [e for e in first if e["type"] == "api_call"]
    assert shop.CALLS == DECODED
    assert "Compiler error" in model.requests[1].messages[-1].content


def test_a_session_that_called_host_functions_replays_from_its_recording_with_the_family_absent(
    tmp_path: Path,
) -> None:
    shop.CALLS.clear()
    recording = tmp_path / "session.jsonl"
    program = PROGRAMS["javascript"]
    live = gg.run(
        config(tmp_path, "javascript"),
        model=Scripted(program),
        families=[warehouse],
        store=tmp_path,
        record=recording,
    )
    calls = list(shop.CALLS)
    events: list[gg.Event] = []
    replayed = gg.run(
        config(tmp_path, "javascript"), journal=recording, store=tmp_path, on_event=events.append
    )
    assert replayed.status == "completed" and replayed.final_text == live.final_text
    assert calls == shop.CALLS  # not one function was called again
    text = recording.read_text()
    assert text.count('{"hostFamily"') == 1 and text.count('{"hostAnswer"') == 14  # the refused calls are not
    logged = [e.to_wire()["message"] for e in events if e.type == "log"]
    assert "host families answered from the recording: warehouse" in logged


def test_a_replay_that_parts_from_its_recording_is_refused_the_call_it_holds_no_answer_for(
    tmp_path: Path,
) -> None:
    recording = tmp_path / "session.jsonl"
    first = (
        'import { warehouse, session } from "gg";\nsession.finish(String(warehouse.countLater("AB", 0)));\n'
    )
    gg.run(
        config(tmp_path, "javascript"),
        model=Scripted(first),
        families=[warehouse],
        store=tmp_path,
        record=recording,
    )
    text = recording.read_text().replace('countLater(\\"AB\\", 0)', 'countLater(\\"ABC\\", 0)')
    recording.write_text(text)
    replayed = gg.run(config(tmp_path, "javascript"), journal=recording, store=tmp_path)
    assert replayed.status == "model_error"  # the program failed on the refusal; the journal then ran out
    with gg.open_store(tmp_path) as store:
        results = [e.to_wire() for e in store.run(replayed.run_id).events() if e.type == "api_result"]
    assert results[0]["ok"] is False and results[0]["failure"].startswith(
        "unavailable: this session is replayed from a recording, whose next answer is for "
        '`warehouse.count_later` called with {"sku": "AB", "delay": 0},'
        " not `warehouse.count_later` called with"
    )


def test_a_family_no_one_handed_to_the_run_refuses_it_naming_the_entry(tmp_path: Path) -> None:
    result = gg.run(
        config(tmp_path, "javascript", ["warehouse", "nosuch", "no.module:family"]),
        model=Scripted(),
        store=tmp_path,
    )
    assert (result.status, result.exit_code) == ("refused", 2)
    assert result.message is not None
    assert (
        "agents[0].capabilities[1].params.families[0]: names no host family handed to the run"
        in result.message
    )
    assert "families[1]: names no host family handed to the run (handed: none)" in result.message
    assert "families[2]: cannot be imported (ModuleNotFoundError: No module named 'no')" in result.message


def test_an_importable_entry_serves_its_family_without_handing_it_to_the_run(tmp_path: Path) -> None:
    program = (
        'import { warehouse, session } from "gg";\n'
        'session.finish(String(warehouse.weigh({ label: "a", weight: 3, tags: [] })));\n'
    )
    result = gg.run(
        config(tmp_path, "javascript", ["warehouse:warehouse"]), model=Scripted(program), store=tmp_path
    )
    assert (result.status, result.final_text) == ("completed", "3")


@pytest.mark.parametrize("language", ["javascript", "python"])
def test_time_spent_in_a_host_function_is_off_the_programs_clock(tmp_path: Path, language: str) -> None:
    document = config(tmp_path, language)
    document["agents"][0]["capabilities"][0]["params"]["timeoutSecs"] = 0.5
    program = {
        "javascript": 'import { warehouse, session } from "gg";\n'
        "session.finish(String(warehouse.countLater('ABC', 1.0) + warehouse.countLater('D', 0.2)));\n",
        "python": "import gg\nw = gg.warehouse\n"
        "gg.session.finish(str(w.count_later('ABC', 1.0) + w.count_later('D', 0.2)))\n",
    }[language]
    result = gg.run(document, model=Scripted(program), families=[warehouse], store=tmp_path)
    assert (result.status, result.final_text) == ("completed", "4")


def test_a_run_serving_host_families_builds_its_own_arm_beside_one_handed_to_it(
    tmp_path: Path, arms: ArmShelf
) -> None:
    from gg.agents.run import RunOptions, World, execute_run
    from gg.telemetry.emitter import CollectingSink, Telemetry

    handed = arms.get("javascript")  # gg's own SDK only, as a study's warm worker holds
    program = (
        'import { warehouse, session } from "gg";\nsession.finish(String(warehouse.countLater("AB", 0)));\n'
    )
    world = World(client=Scripted(program), arm=handed, families=(warehouse,))
    result = execute_run(
        gg.load(config(tmp_path, "javascript")), Telemetry("run-1", [CollectingSink()]), RunOptions(), world
    )
    assert (result.status.value, result.final_text) == ("completed", "2")
