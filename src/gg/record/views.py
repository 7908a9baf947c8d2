"""The SQL face of the record: the documented, stable, read-only views a query of the run store
reads (`gg query`, `gg schema --store`, the console's Query page), defined here and nowhere else.

Rules:
- Each view is data (`gg.record.sql_view.View`): its name, what one row is, its columns (each
  with its meaning, in order) and its SELECT, written in standard SQL with every backend-specific
  spelling rendered by a `gg.record.view_spelling.ViewSpelling`, so the same views run on SQLite and
  PostgreSQL. `gg.record.sql_view.statements` installs them.
- Flags (`ok`, `error_turn`, `solved`, `writable`) are 1 or 0; figures a record does not hold
  are NULL, never 0. Limits are the capability set's, NULL where it wrote none.
- A column is never renamed or removed; new ones are added at the end.
"""

from __future__ import annotations

from gg.record.sql_view import View, columns
from gg.record.view_spelling import ViewSpelling
from gg.record.view_sql import (
    LIMITS,
    error_turn,
    failure_code,
    limit_columns,
    of_turn,
    outcomes,
    replies,
    unreported_status,
    verdict,
)
from gg.telemetry.events import EventType, UsageKey

RUNS = View(
    "runs",
    "one run",
    columns(
        ("run_id", "the run's id (run-YYYYMMDD-HHMMSS-xxxx)"),
        ("name", "the capability set's name"),
        ("arm", "the language the root agent's programs are written in: javascript, typescript, python, ..."),
        ("model", "the model the run was started with"),
        ("status", "as stored: completed, failed, interrupted, timed_out, ... (running until it ends)"),
        ("exit_code", "the exit code it ended with (NULL while running, or killed)"),
        ("turns", "turns taken, every agent's"),
        ("events", "events stored"),
        ("started_at", "when it started (ISO 8601, UTC)"),
        ("finished_at", "when it ended (NULL while running, or killed)"),
        ("duration_ms", "how long it ran, as recorded at its end"),
        ("final_text", "the root agent's final word"),
        ("message", "why it ended, when it did not complete"),
        ("config_path", "the capability set it ran"),
        ("workspace", "the folder its programs worked in"),
        ("host", "the machine it ran on"),
        *((name, f"the limit `{wire}`") for name, wire, _ in LIMITS),
    ),
    ("runs", "events"),
    lambda d: (
        "SELECT r.id AS run_id, r.name, r.language AS arm, r.model, r.status, r.exit_code, r.turns, r.events,"
        " r.started_at, r.finished_at, r.duration_ms, r.final_text, r.message, r.config_path, r.workspace,"
        f" r.host, {limit_columns(d, 's.json')}"
        f" FROM {d.table('runs')} r LEFT JOIN {d.table('events')} s"
        f" ON s.run_id = r.id AND s.type = '{EventType.RUN_STARTED}'"
    ),
)

TURNS = View(
    "turns",
    "one turn of one agent that closed (a turn the run's end cut short has no row)",
    columns(
        ("run_id", "the run"),
        ("agent_id", "the agent (root, root.1, root@2, ...)"),
        ("turn", "the agent's turn, from 1"),
        ("arm", "the language the agent's programs are written in"),
        ("model", "the agent's model"),
        ("outcome", "how the turn ended: progressed, finished, error, ..."),
        ("error_turn", "1 when the outcome is error: the model's program or reply failed"),
        ("error_type", "the error's type (program_throw, transpile_compile, ...), NULL when none"),
        ("error", "the error's text"),
        ("consecutive_errors", "error turns in a row, this one included"),
        ("programs", "programs the turn ran"),
        ("input_tokens", "prompt tokens of the turn's replies, cache reads and writes included"),
        ("output_tokens", "tokens the turn's replies wrote"),
        ("cost_usd", "what the turn's replies cost, NULL when none was priced"),
        ("reply_ms", "time spent waiting for the model"),
        ("ended_at", "when the turn ended"),
    ),
    ("runs", "events"),
    lambda d: (
        "SELECT o.run_id, o.agent_id, o.turn,"
        f" COALESCE({d.text('sp.json', 'language')}, r.language) AS arm,"
        f" COALESCE({d.text('sp.json', 'modelId')}, r.model) AS model,"
        f" {d.text('o.json', 'outcome')} AS outcome,"
        f" {error_turn(d, 'o.json')} AS error_turn,"
        f" {d.text('o.json', 'errorType')} AS error_type, {d.text('o.json', 'error')} AS error,"
        f" {d.integer('o.json', 'consecutiveErrors')} AS consecutive_errors,"
        f" ({of_turn(d, EventType.CODE_EXECUTION, 'COUNT(*)')}) AS programs,"
        f" ({replies(d, d.integer('x.json', 'usage', UsageKey.INPUT))}) AS input_tokens,"
        f" ({replies(d, d.integer('x.json', 'usage', UsageKey.OUTPUT))}) AS output_tokens,"
        f" ({replies(d, d.real('x.json', 'costUsd'))}) AS cost_usd,"
        f" ({replies(d, d.real('x.json', 'durationMs'))}) AS reply_ms,"
        " o.timestamp AS ended_at"
        f" FROM {d.table('events')} o JOIN {d.table('runs')} r ON r.id = o.run_id"
        f" LEFT JOIN {d.table('events')} sp ON sp.run_id = o.run_id AND sp.agent_id = o.agent_id"
        f" AND sp.type = '{EventType.AGENT_SPAWNED}'"
        f" WHERE o.type = '{EventType.TURN_OUTCOME}'"
    ),
)


AGENTS = View(
    "agents",
    "one agent instance (the root, each subagent, fork copy and successor)",
    columns(
        ("run_id", "the run"),
        ("agent_id", "the agent (root, root.1, root.f1, root@2, ...)"),
        ("parent_agent_id", "the agent that made it, NULL for the root"),
        ("profile", "the profile it runs"),
        ("model", "its model"),
        ("arm", "the language its programs are written in"),
        ("depth", "how deep it sits in the tree, the root at 0"),
        ("status", "how it ended: its own word, else handed over, stopped, or the run's ending (as gg show)"),
        ("summary", "its final word"),
        ("turns", "turns it closed"),
        ("error_turns", "of those, error turns"),
        ("spawned_at", "when it opened"),
    ),
    ("runs", "events"),
    lambda d: (
        f"SELECT s.run_id, s.agent_id, {d.text('s.json', 'parentAgentId')} AS parent_agent_id,"
        f" {d.text('s.json', 'profileId')} AS profile, {d.text('s.json', 'modelId')} AS model,"
        f" COALESCE({d.text('s.json', 'language')}, r.language) AS arm,"
        f" {d.integer('s.json', 'depth')} AS depth,"
        f" COALESCE({d.text('f.json', 'status')}, {unreported_status(d)}) AS status,"
        f" {d.text('f.json', 'summary')} AS summary,"
        f" ({outcomes(d, 'COUNT(*)')}) AS turns,"
        f" ({outcomes(d, _summed_error_turns(d))}) AS error_turns, s.timestamp AS spawned_at"
        f" FROM {d.table('events')} s JOIN {d.table('runs')} r ON r.id = s.run_id"
        f" LEFT JOIN {d.table('events')} f ON f.run_id = s.run_id AND f.agent_id = s.agent_id"
        f" AND f.type = '{EventType.AGENT_FINISHED}'"
        f" WHERE s.type = '{EventType.AGENT_SPAWNED}'"
    ),
)


def _summed_error_turns(d: ViewSpelling) -> str:
    return f"SUM({error_turn(d, 'x.json')})"


_PROGRAM_FIGURES = (
    ("ok", "1 when the (last) program ran to its end, 0 when it failed"),
    ("verdict", "ok, or failed"),
    ("error_type", "why it failed (program_throw, sandbox_timeout, ...), NULL when it did not"),
    ("error", "the error's text"),
    ("duration_ms", "how long it ran"),
    ("api_calls", "SDK calls it made"),
    ("source", "its source"),
)

PROGRAMS = View(
    "programs",
    "one submission's program as it ran (a hand-over chain is one row: its last program's verdict)",
    columns(
        ("run_id", "the run"),
        ("agent_id", "the agent that submitted it"),
        ("turn", "the turn it was submitted in"),
        ("submission", "its place among the turn's submissions, from 1"),
        ("arm", "the language it is written in"),
        ("model", "the model that wrote it"),
        ("program_id", "the id the program library keeps it under, NULL when none"),
        *_PROGRAM_FIGURES,
        ("compile_ms", "time spent compiling it (typescript), NULL when none"),
        ("tool_calls", "tool calls it answered"),
        ("chain", "programs its hand-over chain ran, 1 when it handed over to none (see chain_links)"),
        ("finished", "the final word it ended its agent's session with, NULL when it did not"),
        ("ran_at", "when it ended"),
    ),
    ("runs", "events"),
    lambda d: (
        "SELECT c.run_id, c.agent_id, c.turn, "
        f"{d.integer('c.json', 'submission')} AS submission,"
        f" COALESCE({d.text('sp.json', 'language')}, r.language) AS arm,"
        f" COALESCE({d.text('sp.json', 'modelId')}, r.model) AS model,"
        f" {d.text('c.json', 'programId')} AS program_id, {verdict(d, 'c.json')},"
        f" {d.real('c.json', 'durationMs')} AS duration_ms, {d.integer('c.json', 'apiCalls')} AS api_calls,"
        f" {d.text('c.json', 'source')} AS source, {d.real('c.json', 'compileMs')} AS compile_ms,"
        f" {d.integer('c.json', 'toolCalls')} AS tool_calls,"
        f" COALESCE({d.integer('c.json', 'programs')}, 1) AS chain,"
        f" {d.text('c.json', 'finished')} AS finished, c.timestamp AS ran_at"
        f" FROM {d.table('events')} c JOIN {d.table('runs')} r ON r.id = c.run_id"
        f" LEFT JOIN {d.table('events')} sp ON sp.run_id = c.run_id AND sp.agent_id = c.agent_id"
        f" AND sp.type = '{EventType.AGENT_SPAWNED}'"
        f" WHERE c.type = '{EventType.CODE_EXECUTION}'"
    ),
)


CHAIN_LINKS = View(
    "chain_links",
    "one program of a hand-over chain, in the order the chain ran them",
    columns(
        ("run_id", "the run"),
        ("agent_id", "the agent that submitted the chain"),
        ("turn", "the turn"),
        ("submission", "the submission whose chain it is (programs.submission)"),
        ("link", "its place in the chain, from 0"),
        *_PROGRAM_FIGURES,
    ),
    ("events",),
    lambda d: (
        "SELECT c.run_id, c.agent_id, c.turn, "
        f"{d.integer('c.json', 'submission')} AS submission, {d.position('l')} AS link,"
        f" {verdict(d, 'l.value')}, {d.real('l.value', 'durationMs')} AS duration_ms,"
        f" {d.integer('l.value', 'apiCalls')} AS api_calls, {d.text('l.value', 'source')} AS source"
        f" FROM {d.table('events')} c CROSS JOIN {d.elements('c.json', 'links', 'l')}"
        f" WHERE c.type = '{EventType.CODE_EXECUTION}'"
    ),
)

API_CALLS = View(
    "api_calls",
    "one SDK call a program made, once it returned",
    columns(
        ("run_id", "the run"),
        ("agent_id", "the agent whose program made it"),
        ("turn", "the turn"),
        ("ordinal", "its place among its program's calls, from 0"),
        ("operation", "the SDK operation (files.read_file, views.open_file, ...)"),
        ("ok", "1 when it succeeded, 0 when it failed"),
        ("code", "the failure's code (not-found, conflict, ...), NULL when it succeeded"),
        ("failure", "the failure's text"),
        ("duration_ms", "whole milliseconds from the call to its result (as their timestamps tell)"),
        ("returned_at", "when it returned"),
    ),
    ("events",),
    lambda d: (
        "SELECT run_id, agent_id, turn, ordinal, operation, ok,"
        f" {failure_code(d, 'failure')} AS code, failure,"
        f" {d.millis_between('called_at', 'returned_at')} AS duration_ms, returned_at"
        f" FROM (SELECT a.run_id, a.agent_id, a.turn, {d.integer('a.json', 'ordinal')} AS ordinal,"
        f" {d.text('a.json', 'operation')} AS operation, {d.flag('a.json', 'ok')} AS ok,"
        f" {d.text('a.json', 'failure')} AS failure, a.timestamp AS returned_at,"
        f" (SELECT c.timestamp FROM {d.table('events')} c WHERE c.run_id = a.run_id"
        f" AND c.type = '{EventType.API_CALL}'"
        f" AND c.agent_id = a.agent_id AND c.seq < a.seq"
        f" AND {d.integer('c.json', 'ordinal')} = {d.integer('a.json', 'ordinal')}"
        " ORDER BY c.seq DESC LIMIT 1) AS called_at"
        f" FROM {d.table('events')} a WHERE a.type = '{EventType.API_RESULT}') calls"
    ),
)


MODULES = View(
    "modules",
    "one module store as one agent holds it (a store several agents share has a row per holder)",
    columns(
        ("run_id", "the run"),
        ("module_id", "the store's id (memories-0, board-0, ...): the same id is the same store"),
        ("kind", "the module kind: history, memories, tasks, board, skills, archive"),
        ("agent_id", "the holder"),
        ("origin", "how the holder came by it: created, profile, run, forked, transferred"),
        ("scope", "a memories store's scope (isolated, shared), NULL for other kinds"),
        ("writable", "1 when the holder may write it"),
        ("holders", "how many agents of the run hold this store"),
    ),
    ("events",),
    lambda d: (
        f"SELECT e.run_id, {d.text('m.value', 'moduleId')} AS module_id, {d.text('m.value', 'kind')} AS kind,"
        f" e.agent_id, {d.text('m.value', 'origin')} AS origin, {d.text('m.value', 'scope')} AS scope,"
        f" {d.flag('m.value', 'writable')} AS writable,"
        f" COUNT(*) OVER (PARTITION BY e.run_id, {d.text('m.value', 'moduleId')}) AS holders"
        f" FROM {d.table('events')} e CROSS JOIN {d.elements('e.json', 'modules', 'm')}"
        f" WHERE e.type = '{EventType.AGENT_MODULES}' AND {d.flag('m.value', 'enabled')} = 1"
    ),
)

STUDIES = View(
    "studies",
    "one study (gg study run)",
    columns(
        ("study_id", "the study's id"),
        ("name", "its name"),
        ("file", "the study file it ran"),
        ("status", "as stored: running, finished, ..."),
        ("configs", "its configs, as a JSON list"),
        ("tasks", "its tasks, as a JSON list"),
        ("repeats", "how often each (config, task) runs"),
        ("seed", "the seed its order was drawn with"),
        ("cells", "cells planned: configs x tasks x repeats"),
        ("model", "the model every config was answered by, NULL when each config's own"),
        ("executor", "where its cells ran: local, ray"),
        ("created_at", "when it started"),
        ("updated_at", "when a cell last finished"),
    ),
    ("studies",),
    lambda d: (
        "SELECT id AS study_id, name, file, status, configs, tasks, repeats, seed, cells, model, executor,"
        f" created_at, updated_at FROM {d.table('studies')}"
    ),
)

CELLS = View(
    "cells",
    "one finished cell of a study: one config on one task, one repeat",
    columns(
        ("study_id", "the study"),
        ("config", "the config (the study's arm of comparison)"),
        ("task", "the task"),
        ("repeat", "which repeat, from 1"),
        ("run_id", "the run that answered it (runs.run_id)"),
        ("arm", "the language the run's programs are written in"),
        ("model", "the model the run was started with"),
        ("status", "how the run ended"),
        ("verdict", "what the task's check said: solved, failed, ..."),
        ("solved", "1 when the check passed"),
        ("turns", "turns the run took"),
        ("programs", "programs it submitted"),
        ("error_turns", "its error turns"),
        ("input_tokens", "prompt tokens"),
        ("output_tokens", "tokens written"),
        ("cost_usd", "what it cost, NULL when unpriced"),
        ("wall_ms", "how long the cell took"),
        ("check_ms", "how long its check took"),
        ("worker", "the machine or worker that ran it"),
        ("finished_at", "when it finished"),
    ),
    ("study_cells", "runs"),
    lambda d: (
        'SELECT c.study_id, c.config, c.task, c."repeat", c.run_id, r.language AS arm, r.model, c.status,'
        " c.verdict, CAST(c.solved AS INTEGER) AS solved, c.turns, c.programs, c.error_turns,"
        " c.input_tokens, c.output_tokens, c.cost_usd, c.wall_ms, c.check_ms, c.worker, c.finished_at"
        f" FROM {d.table('study_cells')} c LEFT JOIN {d.table('runs')} r ON r.id = c.run_id"
    ),
)

VIEWS: tuple[View, ...] = (RUNS, AGENTS, TURNS, PROGRAMS, CHAIN_LINKS, API_CALLS, MODULES, STUDIES, CELLS)
"""Every view, in the order `gg schema` shows them."""
