"""`gg.replay(run, verify=True)`: the Python API's playback of a run `gg.run(record=...)` kept,
with the verdict `gg replay --verify` prints."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

import gg
from playback.recorded import EXAMPLES


def test_a_run_recorded_from_python_verifies_faithful_from_python(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "spec-audit", tmp_path / "spec-audit")
    result = gg.run(tmp_path / "spec-audit", record=tmp_path / "audit.jsonl", store=tmp_path)
    verdict = gg.replay(result.run_id, verify=True, store=tmp_path)
    assert isinstance(verdict, gg.Verdict) and verdict.faithful
    assert verdict.said() == "faithful (fingerprint exact): 12 steps of 1 agent played as recorded"
    store_file = tmp_path / ".gg" / "runs.db"
    assert gg.replay(result.run_id, verify=True, store=store_file, fingerprint="none").faithful


def test_a_run_recorded_without_its_start_or_a_wrong_argument_is_refused(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "spec-audit", tmp_path / "spec-audit")
    result = gg.run(tmp_path / "spec-audit", store=tmp_path)
    with pytest.raises(gg.Unverifiable, match="kept no starting workspace"):
        gg.replay(result.run_id, verify=True, store=tmp_path)
    with pytest.raises(ValueError, match="pass verify=True"):
        gg.replay(result.run_id, store=tmp_path)
    with pytest.raises(ValueError, match="fingerprint must be one of exact, shape, none, not 'loose'"):
        gg.replay(result.run_id, verify=True, store=tmp_path, fingerprint="loose")


def test_a_host_function_that_imports_is_answered_from_the_record_and_never_called_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shop's `reserve` takes stock away: were the playback to call it again, the shop would
    answer short where the record says reserved (and reserve twice)."""
    shutil.copytree(EXAMPLES / "python-api", tmp_path / "python-api")
    monkeypatch.syspath_prepend(str(tmp_path / "python-api"))
    monkeypatch.setitem(sys.modules, "shop", None)  # restored (gone) when the test ends
    del sys.modules["shop"]
    result = gg.run(tmp_path / "python-api", record=tmp_path / "shop.jsonl", store=tmp_path)
    import shop  # the family the run imported and called

    assert result.ok and shop.STOCK["A-1"] == {"north": 8, "south": 3}  # 4 of its 12 reserved
    verdict = gg.replay(result.run_id, verify=True, store=tmp_path)
    assert verdict.said() == "faithful (fingerprint exact): 6 steps of 1 agent played as recorded"
    assert shop.STOCK["A-1"] == {"north": 8, "south": 3}
