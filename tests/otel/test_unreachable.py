"""An unreachable collector (issue 24, "Tests and done"): the run completes and exits 0, the operator
reads one warning naming the collector and, at the end, how many spans were dropped; sending a
stored run to it is a failure of the export alone (exit 1), the run untouched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from otel.conftest import free_port, gg, run_id_of, shown


def test_a_run_whose_collector_is_unreachable_completes_with_one_warning(planner: Path) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    result = gg(["run", str(planner), "--otel"], planner.parent, {"OTEL_EXPORTER_OTLP_ENDPOINT": nowhere})
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line.lower()]
    assert warnings == [
        f"gg: warning: OpenTelemetry: the collector at {nowhere}/v1/traces did not take the spans;"
        " the rest of them are dropped and counted"
    ]
    (dropped,) = re.findall(r"gg: OpenTelemetry: (\d+) of (\d+) spans were dropped", result.stderr)
    assert dropped[0] == dropped[1] and int(dropped[0]) > 50
    assert "Traceback" not in result.stderr and "Transient error" not in result.stderr
    assert shown(planner.parent, run_id_of(result.stdout))["run"]["status"] == "completed"


def test_gg_otel_asks_for_the_export_too(planner: Path) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    env = {"GG_OTEL": "1", "OTEL_EXPORTER_OTLP_ENDPOINT": nowhere}
    result = gg(["run", str(planner)], planner.parent, env)
    assert result.returncode == 0, result.stderr
    assert f"the collector at {nowhere}/v1/traces did not take the spans" in result.stderr


def test_sending_a_stored_run_to_an_unreachable_collector_fails_the_export(planner: Path) -> None:
    ran = gg(["run", str(planner)], planner.parent)
    assert ran.returncode == 0, ran.stderr
    nowhere = f"http://127.0.0.1:{free_port()}"
    sent = gg(
        ["export", "otel", run_id_of(ran.stdout)], planner.parent, {"OTEL_EXPORTER_OTLP_ENDPOINT": nowhere}
    )
    assert sent.returncode == 1
    assert f"the collector at {nowhere}/v1/traces did not take the spans" in sent.stderr
    assert "spans were dropped" in sent.stderr and sent.stdout == ""


def test_gg_run_with_otel_completes_past_an_unreachable_collector(
    planner: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    import gg

    nowhere = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", nowhere)
    result = gg.run(planner, otel=True, store=tmp_path)
    assert result.status == "completed" and result.exit_code == 0
    said = capfd.readouterr().err
    assert said.count("gg: warning: OpenTelemetry") == 1 and "spans were dropped" in said


def test_asking_for_the_export_without_the_extra_refuses_the_launch_and_records_nothing(
    planner: Path, tmp_path: Path
) -> None:
    shadow = tmp_path / "shadow" / "opentelemetry"  # an SDK that cannot be imported, first on the path
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('no OpenTelemetry here')\n")
    base = tmp_path / "base"
    base.mkdir()
    result = gg(["run", str(planner), "--otel"], base, {"PYTHONPATH": str(shadow.parent)})
    assert result.returncode == 2
    assert "gg: OpenTelemetry export needs gg's `otel` extra: pip install 'gg[otel]'" in result.stderr
    assert not (base / ".gg").exists()
