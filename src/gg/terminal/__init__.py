"""The terminal: a run shown on a rich Console, live as it runs and after the fact (`gg show`,
`gg runs`).

Each part is imported from its own module; the package itself imports nothing, so a command loads
only the parts it uses.

| module        | owns                                                                  |
|---------------|-----------------------------------------------------------------------|
| `glyphs`      | the words and marks both views share: glyphs, durations, the program  |
|               | line, the ceiling lines, status styles, `RunConsole`                  |
| `display`     | `LiveDisplay`, the live terminal sink                                 |
| `show`        | `render_transcript` (`gg show`), `render_runs` (`gg runs`)            |
| `agents_view` | the agent tree as `gg show` prints it                                 |
| `answer`      | a query's answer (`gg query`) and the views' catalogue (`gg schema`)  |
"""
