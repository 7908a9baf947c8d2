"""The jail a study's checks run in: what it allows, and a host that cannot make one, which refuses
the study at launch and never runs a check unjailed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from gg.study.check_jail import check_policy
from sandbox.jail.jailworld import without_namespaces

from .studies import arms_study

GG = "from gg.cli import main; main()"
CELL = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from gg.study.cell import ArmShelf, CellSpec, run_cell
    from gg.study.load import load_study
    from gg.study.plan import CellKey
    from gg.study.workplace import Workplace
    study = load_study(Path(sys.argv[1]))
    task = study.task("csv-total")
    spec = CellSpec(
        study_id="study-x", key=CellKey("javascript", "csv-total", 1), run_id="run-x",
        capability_set=study.sets[("javascript", "csv-total")], config_label=study.labels["javascript"],
        template=task.template, check=task.check, root=study.root,
    )
    report = run_cell(spec, ArmShelf(), Workplace())
    print(report.status, report.check.verdict.value, report.check.detail, sep="\\n")
    """
)


def test_a_check_has_the_shells_default_bounds_no_network_and_the_study_read_only(tmp_path: Path) -> None:
    policy = check_policy(tmp_path / "ws", tmp_path / "study")
    assert policy.workspace == (tmp_path / "ws").resolve()
    assert policy.max_memory_bytes == 4_294_967_296 and policy.max_file_bytes == 1_073_741_824
    assert not policy.network
    assert policy.read_only == ((tmp_path / "study").resolve(),)
    assert policy.variables == (("GG_STUDY_DIR", str((tmp_path / "study").resolve())),)
    assert Path.cwd() / ".gg" in policy.hidden


def test_a_host_that_cannot_jail_refuses_the_study_at_launch_naming_why(tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total", "word-count"))
    ran = subprocess.run(
        without_namespaces([sys.executable, "-c", GG, "study", "run", str(file)]),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith(
        "gg study run: the check commands of tasks csv-total, word-count run only in a jail, and this host"
        " cannot make one: bwrap cannot create the jail here: "
    ), ran.stderr
    assert "namespace" in ran.stderr
    assert not (tmp_path / ".gg").exists()


def test_a_worker_that_cannot_jail_its_check_scores_it_not_run_naming_why(tmp_path: Path) -> None:
    file = arms_study(tmp_path / "study", repeats=1, tasks=("csv-total",))
    ran = subprocess.run(
        without_namespaces([sys.executable, "-c", CELL, str(file)]),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    status, verdict, detail = ran.stdout.split("\n", 2)
    assert (status, verdict) == ("completed", "not-run"), ran.stdout
    assert detail.startswith("the check cannot run in a jail on ") and "namespace" in detail
