import { delegation, memories, skills, tasks, views } from "gg";

tasks.addTask({ id: "bolts", title: "count the bolts" });
tasks.addTask({ id: "nuts", title: "count the nuts" });
tasks.addTask({ id: "washers", title: "check the washers" });
tasks.addTask({ id: "report", title: "write report.md", blockedBy: ["bolts", "nuts", "washers"] });
const plan = skills.readSkill("triage");
memories.createMemory({ name: "plan", description: "how the count is split", body: "bolts and nuts to workers, washers to a copy" });
const bolts = delegation.spawnSubagent({ agent: "worker", prompt: "Count the bolts." });
const nuts = delegation.spawnSubagent({ agent: "worker", prompt: "Count the nuts." });
delegation.fork("Check the washers.");
const done = delegation.waitForSubagents([bolts.id, nuts.id]);
tasks.completeTask("bolts");
tasks.completeTask("nuts");
views.openText("workers", [plan.trim(), ...done.map((d) => `${d.id}: ${d.status} - ${d.summary}`)].join("\n"));
