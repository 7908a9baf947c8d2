import { delegation, skills, views } from "gg";

const plan = skills.readSkill("triage");
const bolts = delegation.spawnSubagent({ agent: "worker", prompt: "Count the bolts." });
const nuts = delegation.spawnSubagent({ agent: "worker", prompt: "Count the nuts." });
delegation.fork("Check the washers.");
const done = delegation.waitForSubagents([bolts.id, nuts.id]);
views.openText("workers", [plan.trim(), ...done.map((d) => `${d.id}: ${d.status} - ${d.summary}`)].join("\n"));
