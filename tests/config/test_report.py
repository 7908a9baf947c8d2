"""`gg check FILE`: exit 0 with a one-line summary, or exit 2 with every defect on its own line."""

from __future__ import annotations

import copy
from pathlib import Path

from gg.config import check_report

from .documents import example, root, write


def test_a_valid_set_exits_zero_with_a_one_line_summary(folder: Path) -> None:
    path = write(folder, example())
    code, text = check_report(path)
    assert code == 0
    assert text == (
        f'{path}: valid capability set "spec-audit": '
        "root (standard, javascript, replay journal.jsonl, library keep 20 idLength 4); limits maxTurns 12"
    )


def test_the_summary_names_every_agent_its_language_and_model(folder: Path) -> None:
    document = example()
    del document["limits"]
    reviewer = {
        "slug": "reviewer",
        "role": "review",
        "model": {"provider": "openai", "model": "gpt-4o"},
        "capabilities": [{"id": "responses-as-code", "params": {"language": "python"}}],
    }
    document["agents"].append(reviewer)
    code, text = check_report(write(folder, document))
    assert code == 0 and "\n" not in text
    assert "reviewer (review, python, openai gpt-4o)" in text
    assert text.endswith("; no limits armed")


def test_a_library_keeping_every_program_says_so(folder: Path) -> None:
    document = example()
    root(document)["capabilities"][1]["params"]["keep"] = 0
    assert "library keep all idLength 4" in check_report(write(folder, document))[1]


def test_a_refused_set_exits_two_with_every_defect_on_its_own_line(folder: Path) -> None:
    document = example()
    document["limits"]["maxTurns"] = 0
    root(document)["role"] = "boss"
    path = write(folder, document)
    code, text = check_report(path)
    assert code == 2
    assert text.splitlines() == [
        f"{path}: 2 defects",
        "  - limits.maxTurns: must be a whole number, 1 or more (found 0)",
        '  - agents[0].role: must be one of standard, review (found "boss")',
    ]


def test_a_missing_file_is_reported_rather_than_raised(tmp_path: Path) -> None:
    code, text = check_report(tmp_path / "absent.json")
    assert code == 2
    assert text.endswith("(document): does not exist (found (absent))")


def test_two_profiles_defining_one_mcp_server_otherwise_are_named_beside_every_other_defect(
    folder: Path,
) -> None:
    document = example()
    document["limits"]["maxTurns"] = 0
    helper = copy.deepcopy(root(document))
    helper["slug"] = "helper"
    for profile, script in ((root(document), "server.py"), (helper, "other.py")):
        servers = {"notes": {"command": ["python3", script]}}
        profile["capabilities"].append({"id": "mcp", "params": {"servers": servers}})
    document["agents"].append(helper)
    path = write(folder, document)
    code, text = check_report(path)
    assert code == 2
    assert text.splitlines() == [
        f"{path}: 2 defects",
        "  - limits.maxTurns: must be a whole number, 1 or more (found 0)",
        "  - agents[1].capabilities[2].params.servers.notes: defines the server otherwise than"
        ' agents[0].capabilities[2].params.servers.notes (found ["python3", "other.py"])',
    ]


def test_max_turns_past_what_a_store_holds_is_refused_not_shown_as_a_whole_number(folder: Path) -> None:
    document = example()
    document["limits"]["maxTurns"] = 1e300
    path = write(folder, document)
    assert check_report(path) == (
        2,
        f"{path}: 1 defect\n  - limits.maxTurns: must be a whole number from 1 to 9223372036854775807, "
        "the most a store holds (found 1e+300)",
    )
