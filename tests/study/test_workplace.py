"""A worker's workplace: every cell at one workspace path, each in a fresh copy of its template, and
one check jail for all the cells of a study."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gg.study.check import Check, run_check
from gg.study.check_jail import CheckJail
from gg.study.workplace import Workplace


def _template(tmp_path: Path) -> Path:
    template = tmp_path / "template"
    template.mkdir()
    (template / "task.txt").write_text("the task\n")
    return template


def _etc_copies() -> set[Path]:
    """The `/etc` copies this process's jails hold (one per opened jail)."""
    return set(Path(tempfile.gettempdir()).glob(f"gg-jail-etc-{os.getpid()}-*"))


def test_every_cell_works_at_one_path_in_a_fresh_copy_of_its_template(tmp_path: Path) -> None:
    workplace = Workplace()
    first = workplace.fresh_workspace(_template(tmp_path))
    (first / "left.txt").write_text("by the first cell\n")
    workplace.clear()
    assert not first.exists()
    second = workplace.fresh_workspace(tmp_path / "template")
    assert second == first
    assert sorted(p.name for p in second.iterdir()) == ["task.txt"]
    workplace.close()
    assert not second.parent.exists()


def test_the_cells_of_a_study_share_one_check_jail_and_another_study_gets_its_own(tmp_path: Path) -> None:
    template, check = _template(tmp_path), Check("cat task.txt", 10)
    for name in ("study-a", "study-b"):
        (tmp_path / name).mkdir()
    before, workplace = _etc_copies(), Workplace()
    jails: list[CheckJail] = []  # held, so no jail is collected (and its /etc copy removed) meanwhile
    for study in ("study-a", "study-a", "study-a", "study-b"):
        workspace = workplace.fresh_workspace(template)
        jails.append(workplace.check_jail(tmp_path / study))
        outcome = run_check(check, jails[-1])
        assert jails[-1].workspace == workspace and outcome.solved and outcome.detail == "the task\n"
        workplace.clear()
    assert jails[0] is jails[1] is jails[2] and jails[3] is not jails[0]
    assert len(_etc_copies() - before) == 2
    workplace.close()


def test_a_workspace_that_cannot_be_removed_is_left_and_the_next_cell_works_elsewhere(
    tmp_path: Path,
) -> None:
    workplace = Workplace()
    first = workplace.fresh_workspace(_template(tmp_path))
    jail = workplace.check_jail(tmp_path)
    (first / "stuck").mkdir()
    (first / "stuck" / "file").write_text("kept\n")
    try:
        with _unremovable(first / "stuck" / "file"):
            workplace.clear()
            assert (first / "stuck" / "file").read_text() == "kept\n"
            second = workplace.fresh_workspace(tmp_path / "template")
            assert second.parent != first.parent
            assert sorted(p.name for p in second.iterdir()) == ["task.txt"]
            moved = workplace.check_jail(tmp_path)
            assert moved is not jail and moved.workspace == second
            workplace.close()
            assert not second.parent.exists()
    finally:
        shutil.rmtree(first.parent)


@contextmanager
def _unremovable(path: Path) -> Iterator[None]:
    """`path` cannot be removed while inside: immutable for root, its folder read-only otherwise."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    else:
        path.parent.chmod(0o500)
    try:
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.parent.chmod(0o700)
