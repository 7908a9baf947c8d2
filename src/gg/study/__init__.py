"""Studies: configurations × tasks × repeats, each cell a whole run, scored and compared.

A study file (`study.toml` / `study.json`) names its configs (capability-set files, or variants
laid over a base), its tasks (a workspace template, a text, a check) and how often each cell
repeats. `load_study` judges it whole; `run_study` deals its cells to an executor (`LocalPool`,
or `RayCluster` past one machine) and alone records what comes back in the run store;
`config_results` and `compare` read the results back.
"""

from gg.study.compare import Comparison, compare
from gg.study.load import Study, load_study, study_schema
from gg.study.results import ConfigResult, config_results
from gg.study.runner import Model, StudyEnd, run_study

__all__ = [
    "Comparison",
    "ConfigResult",
    "Model",
    "Study",
    "StudyEnd",
    "compare",
    "config_results",
    "load_study",
    "run_study",
    "study_schema",
]
