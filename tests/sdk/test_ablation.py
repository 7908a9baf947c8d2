"""The ablation decider (`gg.sdk.ablation`): what `disabledOperations` withholds, which entries
withhold nothing and why, and the SDK a profile is offered, read by every surface alike: the
documentation, `gg.d.ts`, the Python stubs and the system prompt's module list."""

from __future__ import annotations

from gg.config.catalogue import Role, RosterScope
from gg.config.delegation import RosterEntry
from gg.loop.system import Delegating, delegation_segment, system_prompt
from gg.sandbox.deno.declarations import declarations
from gg.sandbox.languages import LANGUAGES
from gg.sandbox.monty.spelling import stubs
from gg.sdk.ablation import Refused, offered, withholding
from gg.sdk.catalogue import default_registry
from gg.sdk.docs.surface import build_surface

REGISTRY = default_registry()
MEMORY_CALLS = (
    "memories.write_memory",
    "memories.update_memory",
    "memories.create_memory",
    "memories.read_memory",
    "memories.edit_memory",
    "memories.delete_memory",
    "memories.search_memories",
)


def test_an_entry_names_one_operation_by_its_key_or_a_whole_module_with_a_star():
    decided = withholding(REGISTRY, ["memories.*", "files.write_file", "shell.shell"])
    assert decided.refused == ()
    assert decided.withheld == ("files.write_file", "shell.shell", *MEMORY_CALLS)  # registry order


def test_each_entry_that_withholds_nothing_is_refused_naming_what_there_is():
    decided = withholding(REGISTRY, ["files.wirte_file", "files.read_file", "fils.*", "session.*"])
    assert decided.withheld == ("files.read_file",)
    wrong, module, ending = decided.refused
    assert wrong.index == 0 and wrong.reason.startswith("names no operation of `files`; it holds read_file, ")
    assert "write_file" in wrong.reason
    assert module == Refused(2, "fils.*", module.reason)
    assert module.reason.startswith("names no module; the modules are files, shell, board, tasks, views, ")
    assert (ending.index, ending.entry) == (3, "session.*")
    assert ending.reason.startswith("would withhold the ending call session.finish, ")


def test_the_offered_registry_holds_back_what_is_withheld_and_names_it_when_asked():
    narrowed = offered(REGISTRY, ["files.write_file"])
    assert narrowed.get("files.write_file") is None and narrowed.get("files.read_file") is not None
    held = narrowed.held_back("files.write_file")
    assert held is not None and held.qualified("javascript") == "gg.files.writeFile"
    assert narrowed.withheld == ("files.write_file",)
    assert offered(REGISTRY, []) is REGISTRY


def test_a_whole_module_withheld_leaves_with_its_records_and_brief():
    narrowed = offered(REGISTRY, MEMORY_CALLS)
    assert "memories" not in narrowed.families() and narrowed.brief("memories") == ""
    assert not [decl for decl in narrowed.types.values() if decl.family == "memories"]
    assert [decl for decl in REGISTRY.types.values() if decl.family == "memories"]  # the run's keeps them


def test_a_withheld_operation_is_absent_from_the_declarations_and_the_stubs():
    narrowed = offered(REGISTRY, ["files.write_file", *MEMORY_CALLS])
    whole, ablated = declarations(REGISTRY), declarations(narrowed)
    assert "function writeFile(" in whole and 'declare module "gg:memories"' in whole
    assert "function writeFile(" not in ablated and 'declare module "gg:memories"' not in ablated
    assert "function readFile(" in ablated
    typed = stubs(narrowed)
    assert "def write_file(" in stubs(REGISTRY)["gg.files"] and "def write_file(" not in typed["gg.files"]
    assert "gg.memories" not in typed and "memories" not in typed["gg"]


def test_a_withheld_operation_is_absent_from_the_documentation_and_the_module_list():
    narrowed = offered(REGISTRY, ["files.write_file", *MEMORY_CALLS])
    granted = frozenset({"memories"})
    for language in (LANGUAGES["javascript"], LANGUAGES["python"]):
        keys = {entry.key for entry in build_surface(narrowed, language, Role.STANDARD, granted).docs}
        write = REGISTRY.spelling(language.id)("files.write_file")
        assert write not in keys and not any(key.startswith("gg.memories") for key in keys)
        assert REGISTRY.spelling(language.id)("files.read_file") in keys
        prompt = system_prompt(narrowed, language, Role.STANDARD, granted)
        assert "`gg.memories`" not in prompt and "`gg.files`" in prompt
        assert "`gg.memories`" in system_prompt(REGISTRY, language, Role.STANDARD, granted)


def test_a_module_partly_withheld_says_which_of_its_calls_the_agent_is_offered():
    narrowed = offered(REGISTRY, ["files.write_file", "files.edit_file"])
    prompt = system_prompt(narrowed, LANGUAGES["javascript"], Role.STANDARD, frozenset())
    (line,) = [line for line in prompt.splitlines() if line.startswith("- `gg.files`")]
    assert "Of it you are offered only `gg.files.readFile`, `gg.files.readTextFile`," in line
    assert "writeFile" not in line and "editFile" not in line
    whole = system_prompt(REGISTRY, LANGUAGES["javascript"], Role.STANDARD, frozenset())
    assert "offered only" not in whole


def test_the_delegation_segment_names_no_withheld_call():
    roster = (RosterEntry(agent="worker", scopes=(RosterScope.SUBAGENT,)),)
    facts = Delegating(roster, max_depth=1)
    language, granted = LANGUAGES["javascript"], frozenset({"subagents"})
    whole = delegation_segment(REGISTRY, language, granted, facts)
    narrowed = offered(REGISTRY, ["delegation.wait_for_subagents", "delegation.send_message"])
    ablated = delegation_segment(narrowed, language, granted, facts)
    assert "`gg.delegation.waitForSubagents(ids?)` blocks your program" in whole
    assert "`gg.delegation.spawnSubagent({ agent, prompt })` starts a subagent" in ablated
    assert "blocks your program" not in ablated and "in a child's next prompt" not in ablated
    assert "``" not in ablated
