"""Pages over a session the real loop ran: compaction, program logs, a stray call, a throw."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from console.conftest import console_client
from console.recorded import SESSION_RUN, record_session
from gg.sandbox.arms.javascript import JavaScriptArm
from gg.sdk.catalogue import default_registry
from runs.session import program

OPEN = (
    'import { views } from "gg";\nconsole.log("logged <b>once</b>");\nviews.openText("notes <i>", "held");\n'
)
COMPACT = (
    'import { context, files } from "gg";\nfiles.writeFile("a.md", "alpha");\n'
    'context.compact("wrote a.md", ["a.md"]);\n'
)
THROW = 'throw new Error("on purpose");\n'
FINISH = 'import { session } from "gg";\nsession.finish("done");\n'


@pytest.fixture(scope="module")
def session_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    stray = {"text": "calling something else", "calls": [{"name": "read_file", "arguments": {"path": "x"}}]}
    replies = [program(OPEN, text="opening"), program(COMPACT), stray, program(THROW), program(FINISH)]
    with JavaScriptArm(default_registry()) as arm:
        store = record_session(tmp_path_factory.mktemp("session"), replies, arm)
    yield console_client(store)


def page(client: TestClient, file: str) -> str:
    response = client.get(f"/runs/{SESSION_RUN}/instances/root/{file}")
    assert response.status_code == 200
    return response.text


def test_the_compaction_file_shows_the_summary_and_the_files_re_read(session_client: TestClient):
    text = page(session_client, "compaction")
    assert "After turn 2" in text and "wrote a.md" in text and "<code>a.md</code>" in text


def test_the_prompt_after_a_compaction_sends_the_restarted_window(session_client: TestClient):
    text = page(session_client, "prompt?request=3")
    assert "restarted by a compaction" in text
    assert "Summary\n----\nwrote a.md" in text


def test_activity_shows_a_programs_logs_its_view_a_stray_call_and_a_throw(session_client: TestClient):
    text = page(session_client, "activity")
    assert "logged &lt;b&gt;once&lt;/b&gt;" in text
    assert "View: notes &lt;i&gt;" in text
    assert "<code>read_file</code>" in text
    assert "Error: on purpose" in text


def test_activity_counts_a_programs_source_lines_one_line_in_the_singular(session_client: TestClient):
    text = page(session_client, "activity")
    assert 'source <span class="muted">1 line</span>' in text  # the throw
    assert 'source <span class="muted">2 lines</span>' in text  # the finish
    assert "1 lines" not in text


def test_the_runs_page_counts_the_sessions_error_turns(session_client: TestClient):
    text = session_client.get("/").text
    row = text[text.index('<a class="row run-link"') :]
    assert '<span class="name">scripted</span>' in row
    assert '<span class="num bad">2</span>' in row  # the stray call's turn and the throw
