"""Studies: configurations × tasks × repeats, each cell a whole run, scored and compared.

A study file (`study.toml` / `study.json`) names its configs (capability-set files, or variants
laid over a base), its tasks (a workspace template, a text, a check) and how often each cell
repeats. `load.load_study` judges it whole; `runner.run_study` deals its cells to an executor
(`local.LocalPool`, or `cluster.RayCluster` past one machine) and alone records what comes back in
the run store; `results.config_results` and `compare.compare` read the results back. Nothing is
imported here, so `gg` loads a study's machinery only when a study command runs.
"""
