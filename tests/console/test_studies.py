"""The studies pages, over a study `gg study run` really ran: every study listed, each study's
results per config, and every cell linked to the run it was answered in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from console.conftest import console_client
from gg.cli import main
from study.studies import arms_study

pytestmark = pytest.mark.timeout(600)  # a whole (small) study of real runs


@pytest.fixture(scope="module")
def study_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("study")
    study = arms_study(folder / "arms", repeats=1, tasks=("word-count", "csv-total"))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        done = CliRunner().invoke(main, ["study", "run", str(study), "--parallel", "1"])
    assert done.exit_code == 0, done.output
    return folder / ".gg" / "runs.db"


@pytest.fixture
def client(study_store: Path) -> TestClient:
    return console_client(study_store)


def test_the_studies_page_lists_each_study_with_its_shape(client: TestClient) -> None:
    page = client.get("/studies")
    assert page.status_code == 200
    assert "arms-under-test" in page.text
    assert re.search(r'href="/studies/(study-[^"]+)"', page.text)
    assert "javascript, typescript" in page.text and "word-count, csv-total" in page.text


def test_a_study_page_gives_each_config_its_results_and_links_each_cell_to_its_run(
    client: TestClient,
) -> None:
    page = client.get("/studies/latest")
    assert page.status_code == 200
    assert "4 of 4 cells finished" in page.text
    results = page.text.split('aria-label="results"')[1].split("</table>")[0]
    assert results.count("<tr>") == 3  # the header and one row per config
    runs = re.findall(r'href="/runs/([^"/]+)/instances"', page.text)
    assert len(runs) == 4 and len(set(runs)) == 4
    for run_id in runs:
        assert client.get(f"/runs/{run_id}/instances").status_code == 200


def test_an_unknown_study_is_a_clear_page_not_a_traceback(client: TestClient) -> None:
    page = client.get("/studies/study-nothing")
    assert page.status_code == 404
    assert "No such study" in page.text and "study-nothing" in page.text
    assert "Traceback" not in page.text


def test_a_store_no_study_wrote_to_lists_none_and_says_how_to_start_one(example_client: TestClient) -> None:
    page = example_client.get("/studies")
    assert page.status_code == 200 and "gg study run STUDY" in page.text
    assert example_client.get("/studies/latest").status_code == 404


def test_every_page_offers_the_way_to_the_studies(example_client: TestClient) -> None:
    assert 'href="/studies"' in example_client.get("/").text
