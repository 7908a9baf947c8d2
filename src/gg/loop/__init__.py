"""The agent loop: one agent incarnation's turns, from its first to its ending. An agent
(`agent`) takes turns (`turn`): a reply's calls read (`calls`), its submission run (`program`,
`chain` for hand-overs), the turn folded into one outcome (`verdict`), a compaction applied
(`compaction`), the ceilings decided (`limits`) and the modules' blocks put in the window
(`modules`). What the loop is handed: a profile resolved once (`setup`), the system prompt
(`system`), one agent's view of the telemetry (`stream`), the run's spend (`spend`) and ending
(`status`), and the run itself through one protocol (`run.Run`). It never imports `gg.agents`."""
