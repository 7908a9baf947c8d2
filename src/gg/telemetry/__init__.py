"""Telemetry: events, the emitter and its sinks (run store, NDJSON file, terminal), and the
read side (`gg runs`, `gg show`). Only this package emits.

Each part is imported from its own module (`gg.telemetry.events.CodeExecution`,
`gg.telemetry.show.render_transcript`); the package itself imports nothing, so a command loads
only the parts it uses (`gg show` never loads the emitter, an event never the terminal stack).

| module        | owns                                                                    |
|---------------|-------------------------------------------------------------------------|
| `events`      | one dataclass per event type; wire names declared once                  |
| `clock`       | the clock, wire timestamps, run ids                                     |
| `emitter`     | `Telemetry` (stamp + fan out), `Sink`, `CollectingSink`, record losses  |
| `layout`      | where files live under `<base>/.gg/`                                    |
| `ndjson`      | `NdjsonSink`, `read_events`                                             |
| `schema`      | the run store's migrations                                              |
| `store`       | `RunStore` (sink + queries), `RunRow`, `ListedRun`, `shown_status`      |
| `integrity`   | the store's check on open for writing (`quick_check`, bounded)         |
| `readonly`    | how every reader opens the store (`mode=ro`, `immutable`)               |
| `rebuild`     | the store rebuilt from the runs' events files                           |
| `store_command` | `gg store` (`rebuild`)                                                |
| `records`     | wire records read back into values                                      |
| `tally`       | a run's tokens, cost and error turns, from its events (pure)            |
| `transcript`  | `fold_transcript`: events -> `Transcript` (pure)                        |
| `export`      | the JSON documents of `gg runs --json` and `gg show --json` (pure)      |
| `terminal`    | glyphs, durations, the one program line, the ceiling lines              |
| `show`        | `render_transcript`, `render_runs`                                      |
| `display`     | `LiveDisplay`, the live terminal sink                                   |
"""
