"""The command line, as a user meets it: run, check, schema, runs, show, and their exit codes."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gg.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "spec-audit"


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the spec-audit example, with the working directory set beside it."""
    copy = tmp_path / "spec-audit"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.md"))
    monkeypatch.chdir(tmp_path)
    return copy


def test_the_example_runs_to_its_end_and_is_kept_in_the_run_store(example: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(example)])
    assert result.exit_code == 0, result.output
    assert "3 of 8 specs lack a ## Rules section" in result.output
    assert "program_throw at program.js:11" in result.output
    assert (example / "workspace" / "report.md").read_text().count("- `specs/") == 3
    listing = runner.invoke(main, ["runs"])
    assert listing.exit_code == 0 and "spec-audit" in listing.output and "completed" in listing.output
    shown = runner.invoke(main, ["show", "latest"])
    assert shown.exit_code == 0
    assert "Runtime error" in shown.output and "report.md" in shown.output


def test_a_run_whose_reader_goes_away_goes_on_to_its_end_recorded_whole(example: Path) -> None:
    gg = Path(sys.executable).parent / "gg"
    piped = subprocess.Popen([str(gg), "run", str(example)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert piped.stdout is not None and piped.stdout.readline().startswith(b"gg")
    piped.stdout.close()  # as `gg run ... | head -1` does
    _, stderr = piped.communicate(timeout=300)
    assert piped.returncode == 0, stderr
    (shown,) = json.loads(CliRunner().invoke(main, ["runs", "--json"]).output)["runs"]
    assert shown["status"] == "completed"
    assert (example / "workspace" / "report.md").read_text().count("- `specs/") == 3


def test_a_refused_capability_set_exits_2_naming_every_defect(example: Path) -> None:
    config = json.loads((example / "gg.json").read_text())
    config["limits"] = {"maxTurns": 0}
    config["agents"][0]["capabilities"][0]["params"]["maxMemoryBytes"] = 1.5
    (example / "gg.json").write_text(json.dumps(config))
    result = CliRunner().invoke(main, ["run", str(example)])
    assert result.exit_code == 2
    assert "limits.maxTurns" in result.output and "params.maxMemoryBytes" in result.output
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 2 and "2 defects" in checked.output


def test_an_unreadable_config_is_refused_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "gg.json").write_text("{ not json")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "gg.json")])
    assert result.exit_code == 2 and "Traceback" not in result.output and "JSON" in result.output


def test_check_accepts_the_example_and_schema_is_json(example: Path) -> None:
    checked = CliRunner().invoke(main, ["check", str(example)])
    assert checked.exit_code == 0 and "valid" in checked.output
    schema = json.loads(CliRunner().invoke(main, ["schema"]).output)
    assert "agents" in schema["properties"]


def test_an_unreachable_provider_ends_the_run_with_one_line_and_exit_1(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = json.loads((example / "gg.json").read_text())
    config["agents"][0]["model"] = {
        "provider": "openai",
        "model": "gpt-test",
        "baseUrl": f"http://127.0.0.1:{port}/v1",
    }
    config["limits"] |= {"maxModelRetries": 1, "modelRetryMaxDelaySecs": 0.1}  # gives up at once
    (example / "gg.json").write_text(json.dumps(config))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(example)])
    assert result.exit_code == 1, result.output
    assert "model_error" in result.output and "Traceback" not in result.output
    assert "model_error" in runner.invoke(main, ["runs"]).output


def test_show_without_a_store_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["show", "latest"])
    assert result.exit_code == 1 and "gg show" in result.output
    assert "no runs yet" in CliRunner().invoke(main, ["runs"]).output


def test_a_workspace_that_does_not_exist_is_refused(example: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(example), "--workspace", str(example / "nope")])
    assert result.exit_code == 2 and "Traceback" not in result.output and "does not exist" in result.output


def test_a_workspace_holding_the_run_store_is_refused(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(example / "workspace")
    result = CliRunner().invoke(main, ["run", str(example)])
    assert result.exit_code == 2 and "run store" in result.output
    assert not (example / "workspace" / ".gg").exists()


def test_a_damaged_run_store_is_named_in_one_line(example: Path) -> None:
    (example.parent / ".gg").mkdir()
    (example.parent / ".gg" / "runs.db").write_bytes(b"this is not a database" * 100)
    runner = CliRunner()
    for command in (["runs"], ["show", "latest"], ["run", str(example)]):
        result = runner.invoke(main, command)
        assert result.exit_code in (1, 2) and "runs.db" in result.output, command
        assert "Traceback" not in result.output


def test_check_refuses_a_capability_set_whose_journal_is_broken(example: Path) -> None:
    (example / "journal.jsonl").write_text('{"calls": [{"name": "submit_program"}]}\nnot json\n')
    result = CliRunner().invoke(main, ["check", str(example)])
    assert result.exit_code == 2 and "line 2" in result.output


def test_a_journal_replays_a_hosted_model_config_without_its_key(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = json.loads((example / "gg.json").read_text())
    config["agents"][0]["model"] = {"provider": "anthropic", "model": "claude-x"}
    (example / "gg.json").write_text(json.dumps(config))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    journal = str(example / "journal.jsonl")
    result = CliRunner().invoke(main, ["run", str(example), "--journal", journal])
    assert result.exit_code == 0, result.output


def test_a_recording_inside_the_workspace_or_onto_a_dangling_link_is_refused(example: Path) -> None:
    inside = CliRunner().invoke(
        main, ["run", str(example), "--record", str(example / "workspace" / "r.jsonl")]
    )
    assert inside.exit_code == 2 and "inside the workspace" in inside.output
    assert not (example / "workspace" / "r.jsonl").exists()
    link = example.parent / "dangling.jsonl"
    link.symlink_to(example.parent / "missing-target.jsonl")
    dangling = CliRunner().invoke(main, ["run", str(example), "--record", str(link)])
    assert (
        dangling.exit_code == 2
        and link.is_symlink()
        and not (example.parent / "missing-target.jsonl").exists()
    )


def test_a_launch_refused_before_anything_was_recorded_leaves_no_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop = tmp_path / "python-api"
    shutil.copytree(EXAMPLE.parent / "python-api", shop)
    config = shop / "gg.json"
    good = config.read_text()
    config.write_text(good.replace('"shop:inventory"', '"no_such_module:inventory"'))
    monkeypatch.chdir(tmp_path)
    refused = CliRunner().invoke(main, ["run", str(shop), "--record", "rec.jsonl"])
    assert refused.exit_code == 2 and "cannot be imported" in refused.output
    assert not (tmp_path / "rec.jsonl").exists()
    config.write_text(good)  # fixed, the same command records to the same path
    recorded = CliRunner().invoke(main, ["run", str(shop), "--record", "rec.jsonl"])
    assert recorded.exit_code == 0, recorded.output
    assert (tmp_path / "rec.jsonl").read_text().startswith("// gg recording: ")


def test_a_stop_while_the_start_is_kept_leaves_no_run_folder_and_no_journal(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gg.telemetry import start

    copy = start.shutil.copytree

    def stopped_midway(source: Path, target: Path, **options: object) -> None:
        copy(source / "specs", Path(target) / "specs")  # half the workspace, then Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(start.shutil, "copytree", stopped_midway)
    result = CliRunner().invoke(main, ["run", str(example), "--record", "rec.jsonl"])
    assert result.exit_code == 130, result.output
    assert "before run" in result.output and "recorded anything" in result.output
    assert not (example.parent / "rec.jsonl").exists()
    assert list((example.parent / ".gg" / "runs").iterdir()) == []  # no empty events file, no half start


def test_a_sigterm_before_the_run_exists_ends_gg_run_with_one_line_and_no_journal(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gg.agents.interruption import Terminated
    from gg.cli import session

    def terminated(*_: object, **__: object) -> None:
        raise Terminated  # as a SIGTERM raises it, once the journal exists and before the run does

    monkeypatch.setattr(session, "_telemetry", terminated)
    result = CliRunner().invoke(main, ["run", str(example), "--record", "rec.jsonl"])
    assert result.exit_code == 143 and result.output == "\ngg: interrupted by SIGTERM.\n", result.output
    assert not (example.parent / "rec.jsonl").exists()


def test_a_recording_among_the_run_stores_own_files_is_refused(example: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(example)]).exit_code == 0
    for place in (".gg/runs.db-wal", ".gg/runs.db-journal", ".gg/runs/x.jsonl"):
        refused = runner.invoke(main, ["run", str(example), "--record", place])
        assert refused.exit_code == 2 and "run store's own files" in refused.output, (place, refused.output)
    assert not (example.parent / ".gg" / "runs" / "x.jsonl").exists()
    assert len(json.loads(runner.invoke(main, ["runs", "--json"]).output)["runs"]) == 1  # none recorded


def test_runs_and_show_print_machine_readable_json_with_the_documented_keys(example: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(example)]).exit_code == 0
    listing = json.loads(runner.invoke(main, ["runs", "--json"]).output)
    assert listing["schema"] == 1
    (run,) = listing["runs"]
    assert (run["name"], run["status"], run["arm"], run["model"]) == (
        "spec-audit",
        "completed",
        "javascript",
        "replay",
    )
    assert (run["turns"], run["errorTurns"], run["inputTokens"], run["outputTokens"]) == (5, 1, 14840, 860)
    assert run["costUsd"] is None and run["unpricedReplies"] == 5 and run["exitCode"] == 0
    shown = json.loads(runner.invoke(main, ["show", run["id"], "--json"]).output)
    assert shown["run"] == run
    assert [turn["turn"] for turn in shown["turns"]] == [1, 2, 3, 4, 5]
    (failed,) = shown["turns"][1]["programs"]
    assert (failed["ok"], failed["errorType"], failed["location"]) == (
        False,
        "program_throw",
        "program.js:11:21",
    )
    (chain,) = shown["turns"][2]["programs"]
    assert [link["ok"] for link in chain["links"]] == [True, True]
    assert 'programs.get("' in chain["links"][0]["source"] and "read.contents" in chain["links"][1]["source"]


def test_runs_json_without_a_store_is_an_empty_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["runs", "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == {"schema": 1, "runs": []}


def test_show_json_keeps_the_texts_as_recorded_and_escapes_them_for_the_terminal(example: Path) -> None:
    journal = example / "journal.jsonl"
    lines = journal.read_text().splitlines()
    first = json.loads(lines[1])
    first["text"] = "look \x1b[2J here"
    lines[1] = json.dumps(first)
    journal.write_text("\n".join(lines) + "\n")
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(example)]).exit_code == 0
    output = runner.invoke(main, ["show", "--json"]).output
    assert "\x1b" not in output and "\\u001b[2J" in output
    assert json.loads(output)["turns"][0]["reply"]["text"] == "look \x1b[2J here"


def test_no_control_or_bidi_character_a_model_wrote_reaches_the_terminal_raw(example: Path) -> None:
    journal = example / "journal.jsonl"
    lines = journal.read_text().splitlines()
    first = json.loads(lines[1])
    first["text"] = "look \u202eexe.txt\x1b[2J\x85 here"
    lines[1] = json.dumps(first)
    journal.write_text("\n".join(lines) + "\n")
    runner = CliRunner()
    ran = runner.invoke(main, ["run", str(example), "--verbose"])
    shown = runner.invoke(main, ["show"]).output
    for output in (ran.output, shown):
        assert not {"\u202e", "\x1b", "\x85"} & set(output)
    assert "look \ufffdexe.txt\u241b[2J\ufffd here" in shown


def test_check_names_the_code_point_of_a_bidi_control_in_a_name_and_prints_it_escaped(
    example: Path,
) -> None:
    document = json.loads((example / "gg.json").read_text())
    document["name"] = "audit\u202egnp.exe"
    (example / "gg.json").write_text(json.dumps(document))
    result = CliRunner().invoke(main, ["check", str(example)])
    assert result.exit_code == 2 and "\u202e" not in result.output
    assert '- name: must hold no control or bidi character; U+202E is one (found "audit\\u202egnp.exe")' in (
        result.output
    )


def test_a_path_or_reference_a_command_refuses_is_printed_escaped(example: Path) -> None:
    folder = example.parent / "dir\x1b[31mX\u202e"
    folder.mkdir()
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(folder)])
    assert checked.exit_code == 2
    assert "dir\\u001b[31mX\\u202e: 1 defect" in checked.output
    ran = runner.invoke(main, ["run", str(folder / "nonexist")])
    assert ran.exit_code == 2
    assert "dir\\u001b[31mX\\u202e/nonexist: 1 defect" in ran.output
    journal = runner.invoke(main, ["run", str(example), "--journal", str(folder / "j")])
    assert journal.exit_code == 2 and "dir\\x1b[31mX\\u202e/j" in journal.output
    assert runner.invoke(main, ["run", str(example)]).exit_code == 0
    shown = runner.invoke(main, ["show", "zz\x1b[2J\u202e"])
    assert shown.exit_code == 1
    assert "gg show: no run matches `zz\\u001b[2J\\u202e`" in shown.output
    for output in (checked.output, ran.output, journal.output, shown.output):
        assert not {"\u202e", "\x1b"} & set(output)


@pytest.mark.parametrize(
    "imported",
    [
        "import gg.cli",
        "import gg.cli, gg.agents.run, gg.providers.factory, gg.terminal.show, gg.record.export",
    ],
)
def test_the_command_line_imports_no_provider_sdk_until_a_run_uses_it(imported: str) -> None:
    checked = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys\n{imported}\nprint(sorted({{'anthropic', 'openai'}} & set(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert checked.stdout.strip() == "[]"


def test_a_run_on_a_hosted_model_imports_that_providers_sdk_alone() -> None:
    program = (
        "import sys\n"
        "from gg.providers.factory import build_client\n"
        "from gg.providers.tool_choice import ToolChoiceMemory\n"
        "build_client(provider='openai', model='m', tool_choice_memory=ToolChoiceMemory(),"
        " log=lambda *a: None, environ={'OPENAI_API_KEY': 'k'})\n"
        "print(sorted({'anthropic', 'openai'} & set(sys.modules)))\n"
    )
    checked = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert checked.stdout.strip() == "['openai']"


def test_version_prints_the_installed_packages_version_and_loads_nothing_else() -> None:
    from importlib.metadata import version

    result = CliRunner().invoke(main, ["--version"], prog_name="gg")
    assert result.exit_code == 0 and result.output == f"gg, version {version('gg')}\n"
    program = (
        "import sys\nfrom gg.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
        "loaded = {'rich', 'pydantic', 'jinja2', 'sqlite3', 'gg.run', 'gg.config', 'importlib.metadata'}\n"
        "print(sorted(loaded & set(sys.modules)), file=sys.stderr)\n"
    )
    checked = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert checked.stderr.strip() == "[]"


@pytest.mark.parametrize(
    ("arm", "signature"),
    [
        (
            "javascript",
            "files.readFile(path: string, options?: { offset?: number; limit?: number }): FileRead",
        ),
        (
            "typescript",
            "files.readFile(path: string, options?: { offset?: number; limit?: number }): FileRead",
        ),
        (
            "python",
            "gg.files.read_file(path: str, *, offset: int | None = None, limit: int | None = None)"
            " -> FileRead",
        ),
    ],
)
def test_docs_prints_the_sdk_reference_spelled_for_the_arm(arm: str, signature: str) -> None:
    result = CliRunner().invoke(main, ["docs", "--arm", arm])
    assert result.exit_code == 0
    assert result.output.startswith("# gg SDK reference: ")
    for heading in ["## gg.files", "## gg.views", "## gg.session", "### gg.files.FileRead"]:
        assert f"\n{heading}\n" in result.output, heading
    assert f"\n{signature}\n" in result.output
    assert "Fails with an `ApiError` whose `code` is:" in result.output and "`not-found`" in result.output


@pytest.mark.parametrize(
    ("arm", "method"),
    [
        ("javascript", "  send(message: string): void; //"),
        ("typescript", "  send(message: string): void; //"),
        ("python", "    def send(self, message: str) -> None: ...  #"),
        ("python-typed", "    def send(self, message: str) -> None: ...  #"),
    ],
)
def test_docs_gives_a_record_each_method_once_though_two_calls_return_it(arm: str, method: str) -> None:
    """`spawnSubagent` and `fork` both return a `SubagentHandle`, whose `send` is one method."""
    result = CliRunner().invoke(main, ["docs", "--arm", arm, "delegation"])
    assert result.exit_code == 0, result.output
    handles = [block for block in result.output.split("\n\n") if method in block]
    assert handles and all(block.count(method) == 1 for block in handles)


def test_docs_usage_names_its_argument_a_module_as_the_reference_and_the_readme_do() -> None:
    result = CliRunner().invoke(main, ["docs", "--help"], prog_name="gg")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "Usage: gg docs [OPTIONS] [MODULE]"
    assert "--arm [javascript|typescript|python|python-typed]" in " ".join(result.output.split())


def test_docs_of_one_module_prints_that_module_alone() -> None:
    result = CliRunner().invoke(main, ["docs", "--arm", "python", "views"])
    assert result.exit_code == 0
    headings = [line for line in result.output.splitlines() if line.startswith("## ")]
    assert headings == ["## gg.views"] and "### gg.views.open_text" in result.output


def test_docs_documents_a_host_family_named_by_its_importable_path() -> None:
    result = CliRunner().invoke(main, ["docs", "--arm", "typescript", "warehouse:warehouse"])
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if line.startswith("## ")] == ["## gg.warehouse"]
    assert "warehouse.weigh(box: Box, options?: { extra?: number }): number" in result.output
    assert "### gg.warehouse.Shipment" in result.output


def test_docs_of_a_module_the_sdk_does_not_hold_exits_2_naming_those_it_does() -> None:
    unknown = CliRunner().invoke(main, ["docs", "inventory"])
    assert (
        unknown.exit_code == 2 and "no module `inventory` in the SDK; it has files, shell" in unknown.output
    )
    unimportable = CliRunner().invoke(main, ["docs", "nowhere.at_all:tools"])
    assert unimportable.exit_code == 2 and "No module named 'nowhere'" in unimportable.output


def test_run_refuses_a_host_family_it_cannot_import_naming_the_entry(example: Path) -> None:
    config = json.loads((example / "gg.json").read_text())
    families = {
        "id": "host-functions",
        "params": {"families": ["warehouse:warehouse", "no_such_module:tools"]},
    }
    config["agents"][0]["capabilities"].append(families)
    (example / "gg.json").write_text(json.dumps(config))
    result = CliRunner().invoke(main, ["run", str(example)])
    assert result.exit_code == 2
    assert (
        "families[1]: cannot be imported (ModuleNotFoundError: No module named 'no_such_module')"
        in result.output
    )


def test_a_disabled_operation_that_withholds_nothing_is_named_with_every_other_defect(example: Path) -> None:
    """`gg check` and `gg run` name an ablation's typo in the same refusal as the set's other defects."""
    document = json.loads((example / "gg.json").read_text())
    document["agents"][0]["disabledOperations"] = ["files.wirte_file"]
    document["limits"] = {"maxTurns": -1}
    (example / "gg.json").write_text(json.dumps(document))
    for command in (["check", str(example)], ["run", str(example)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2 and "gg.json: 2 defects" in result.output, result.output
        assert "limits.maxTurns" in result.output
        assert "agents[0].disabledOperations[0]: names no operation of `files`" in result.output


def test_check_judges_every_module_a_profile_names_when_it_binds_none_of_its_own(example: Path) -> None:
    """A profile with no host functions and no MCP server has gg's modules alone: a typo of one is
    named by gg check as by gg run."""
    document = json.loads((example / "gg.json").read_text())
    document["agents"][0]["disabledOperations"] = ["file.read_file", "FILES.read_file"]
    (example / "gg.json").write_text(json.dumps(document))
    result = CliRunner().invoke(main, ["check", str(example)])
    assert result.exit_code == 2 and "gg.json: 2 defects" in result.output, result.output
    assert "agents[0].disabledOperations[0]: names no module; the modules are" in result.output


def test_check_refuses_a_disabled_operation_of_ggs_own_modules_that_withholds_nothing(example: Path) -> None:
    document = json.loads((example / "gg.json").read_text())
    document["agents"][0]["disabledOperations"] = ["files.wirte_file", "notes.add_note", "memories.*"]
    server = {"servers": {"notes": {"command": ["python3", "notes_server.py"]}}}
    document["agents"][0]["capabilities"].append({"id": "mcp", "params": server})
    (example / "gg.json").write_text(json.dumps(document))
    result = CliRunner().invoke(main, ["check", str(example)])
    assert result.exit_code == 2
    assert "gg.json: 1 defect" in result.output, result.output  # `notes` is bound at launch
    wrong = "agents[0].disabledOperations[0]: names no operation of `files`; it holds read_file,"
    assert wrong in result.output


def test_an_empty_record_path_is_a_usage_error_naming_the_option(example: Path) -> None:
    refused = CliRunner().invoke(main, ["run", str(example), "--record", ""])
    assert refused.exit_code == 2 and "'--record': it names no file" in refused.output, refused.output


def test_a_root_whose_model_is_null_is_refused_at_launch_naming_the_way_out(example: Path) -> None:
    """`"model": null` (a root left for the model handed to the run): gg check says the run must
    be given one; gg run, given none, refuses the run (exit 2, recorded `refused`) naming the
    key and the way out, never a traceback."""
    document = json.loads((example / "gg.json").read_text())
    document["agents"][0]["model"] = None
    (example / "gg.json").write_text(json.dumps(document))
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(example)])
    assert checked.exit_code == 0 and "no model named: give the run one" in checked.output, checked.output
    refused = runner.invoke(main, ["run", str(example)])
    assert refused.exit_code == 2, refused.output
    assert "agents[root].model: names no model: name one here, or give the run one" in refused.output
    (row,) = json.loads(runner.invoke(main, ["runs", "--json"]).output)["runs"]
    assert (row["status"], row["exitCode"]) == ("refused", 2)
