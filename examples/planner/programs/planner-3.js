import { delegation, memories, tasks, views } from "gg";

// The copy's task list is its own: here "changelog" is still open, so I close it from what it did.
const [copy] = delegation.waitForSubagents();
views.openText("the copy", `${copy.id} ${copy.status}: ${copy.summary}`);
tasks.completeTask("changelog");
memories.editMemory({ name: "plan", search: "(the Markdown).", replace: "(the Markdown). Both done; changelog by my fork." });
delegation.exec("reviewer", "Check src/parse.js, src/report.js and CHANGELOG.md against spec.md, then end the session.");
