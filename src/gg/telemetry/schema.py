"""The run store's schema, as numbered migrations, one definition for SQLite and PostgreSQL
(templates a `gg.telemetry.dialect.Dialect` renders; the version is tracked as it says).

Migration k (1-based) takes a database at version k-1 to version k. Append new migrations; never
edit a shipped one. `SCHEMA_VERSION` is the number of migrations.

- `runs`: one row per run, kept current as its events arrive. `status` is `running` until
  `run_finished` writes the final status; a run killed mid-way keeps `running`, and `pid`/`host`
  let a reader tell it is gone. `events` counts the run's stored events (its next `seq`).
- `events`: every event, in emit order (`seq` from 0 per run), with its envelope as columns and
  the whole wire record in `json`.
- `events_by_turn` (migration 2): the events of one type in one agent's turn are found by index,
  as the per-turn views (`gg.record.views`: `turns`, `programs`) look them up; it replaces
  `events_by_type`, its prefix.
"""

from __future__ import annotations

_V1 = (
    """
    CREATE TABLE runs (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL DEFAULT '',
        config_path  TEXT NOT NULL DEFAULT '',
        workspace    TEXT NOT NULL DEFAULT '',
        model        TEXT NOT NULL DEFAULT '',
        language     TEXT NOT NULL DEFAULT '',
        started_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        finished_at  TEXT,
        status       TEXT NOT NULL DEFAULT 'running',
        exit_code    INTEGER,
        turns        INTEGER NOT NULL DEFAULT 0,
        duration_ms  {real},
        final_text   TEXT,
        message      TEXT,
        events       INTEGER NOT NULL DEFAULT 0,
        pid          INTEGER,
        host         TEXT
    )
    """,
    """
    CREATE TABLE events (
        run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        type       TEXT NOT NULL,
        agent_id   TEXT NOT NULL,
        turn       INTEGER NOT NULL,
        timestamp  TEXT NOT NULL,
        json       TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    ){without_rowid}
    """,
    "CREATE INDEX runs_by_start ON runs (started_at DESC, id DESC)",
    "CREATE INDEX events_by_type ON events (run_id, type)",
)

_V2 = (
    "CREATE INDEX events_by_turn ON events (run_id, type, agent_id, turn)",
    "DROP INDEX events_by_type",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2)
SCHEMA_VERSION = len(MIGRATIONS)
