"""The run and its agents, over the loop: the run from launch to its end (`run`) and its two ends
on the record (`run_events`), what its agents
share (`context`), its profiles' setups (`profiles`) and the instances built from them (`build`),
the agent tree (`tree`), who starts whom (`spawner`, `delegation`, `forks`, `issues`), how a
lineage carries on (`lineages`, `succession`, `machine_end`), who takes turns when and who waits on
whom (`scheduler`, `waits`), what the run serves its agents (`leases`, `shell`, `models`,
`families`) and how it is stopped from outside (`interruption`). The loop is handed the run
through `gg.loop.run.Run` and never imports this package."""
