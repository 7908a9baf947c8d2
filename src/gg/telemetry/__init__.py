"""Telemetry: the write side of a run's record. Events, the emitter and its sinks (the run store,
the NDJSON file). Only this package emits; a stored run is read back by `gg.record` and shown by
`gg.terminal`.

Each part is imported from its own module (`gg.telemetry.events.CodeExecution`,
`gg.telemetry.emitter.Telemetry`); the package itself imports nothing, so a command loads only
the parts it uses (`gg show` never loads the emitter, an event never the terminal stack).

| module        | owns                                                                    |
|---------------|-------------------------------------------------------------------------|
| `events`      | one dataclass per event type; wire names declared once                  |
| `agent_events`, `module_events`, `breakdown` | the payloads of the agents, modules and   |
|               | context events                                                          |
| `typed`       | a wire record read back as the typed event it was written from          |
| `clock`       | the clock, wire timestamps, run ids                                     |
| `emitter`     | `Telemetry` (stamp + fan out), `Sink`, `CollectingSink`, record losses  |
| `layout`      | where files live under `<base>/.gg/`                                    |
| `ndjson`      | `NdjsonSink`, `read_events`                                             |
| `location`    | where a run store is: a path, `sqlite:///`, `postgresql://`, `GG_STORE`  |
| `store_option`| `--store URL`, the one option naming a store                            |
| `dialect`     | what differs between SQLite and PostgreSQL (placeholders, types, version) |
| `postgres`    | a run store's PostgreSQL connections (psycopg 3), `StoreUnreachable`   |
| `schema`      | the run store's migrations, one definition for both databases           |
| `store`       | `StoreWriter`, the run store's writer (a sink), `RunStoreError`         |
| `integrity`   | the store's check on open for writing (`quick_check`, bounded)         |
| `rebuild`     | the store rebuilt from the runs' events files                           |
| `copy`        | runs copied into a store, from another or from NDJSON files (idempotent) |
| `store_command` | `gg store` (`rebuild`)                                                |
"""
