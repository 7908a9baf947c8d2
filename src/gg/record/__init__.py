"""The record: a stored run read back. The one reader of the run store, shared by `gg runs`,
`gg show`, their JSON documents, the console, `gg.open_store` and the OpenTelemetry export.

Each part is imported from its own module (`gg.record.transcript.fold_transcript`); the package
itself imports nothing, so a reader loads only the parts it uses.

| module       | owns                                                                     |
|--------------|--------------------------------------------------------------------------|
| `envelope`   | `Record`: a wire record read back, its envelope read once                |
| `readonly`   | how every reader opens the store (`mode=ro`, `immutable`)                |
| `reader`     | `RunReader`, `open_reader`: the one reader of a run store                |
| `runs`       | `RunRow`, `ListedRun`, the status shown for a run, its duration          |
| `store`      | `RunStore`: the store one process writes and reads back                  |
| `copying`    | `gg store copy SRC DST`: a store's (or NDJSON folder's) runs into another |
| `records`    | an event's fields read back into values (messages, calls, programs, ...) |
| `agents`     | the agent tree of a run (`fold_agents`)                                  |
| `tally`      | a run's tokens, cost and error turns, from its events (pure)             |
| `transcript` | `fold_transcript`: records -> `Transcript` (pure)                        |
| `export`     | the JSON documents of `gg runs --json` and `gg show --json` (pure)       |
| `views`      | the SQL face of the record: the documented views a query reads           |
| `sql_view`   | what a view is, and how the views are installed on a reading connection  |
| `view_sql`   | the SQL fragments the views are built from                               |
| `dialect`    | the SQL SQLite and PostgreSQL spell differently, rendered per backend    |
| `query`      | one bounded, read-only SQL query over the views (`gg query`)             |
| `query_answer` | what a query answers on either backend: its rows, or why it was refused |
| `query_bounds` | a query's row and time bounds unless told                              |
"""
