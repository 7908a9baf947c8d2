import { files, memories, session } from "gg";

// Judge the report module against the completion criteria.
const source = files.readTextFile("src/report.js");
memories.writeMemory({ name: "seen", description: "what I reviewed", body: "src/report.js" });
const changes = [];
if (!source.includes("export function report(items)")) changes.push("src/report.js must export report(items)");
if (!source.includes("(low)")) changes.push("items below 5 must be marked (low)");
if (changes.length === 0) session.approve();
else session.requestChanges(changes);
