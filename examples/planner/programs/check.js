import { files, memories, session, tasks } from "gg";

// Check each file against spec.md, note the verdict, and end the session with it.
const parse = files.readTextFile("src/parse.js");
const report = files.readTextFile("src/report.js");
const changelog = files.readTextFile("CHANGELOG.md");
const found = [];
if (!parse.includes("export function parse(text)") || !parse.includes("Number(count)")) found.push("src/parse.js must give numeric counts");
if (!report.includes("export function report(items)") || !report.includes("(low)")) found.push("src/report.js must mark low stock");
for (const id of ["STOCK-1", "STOCK-2"]) if (!changelog.includes(id)) found.push(`CHANGELOG.md must name ${id}`);
memories.writeMemory({ name: "verdict", description: "the final check", body: found.length ? found.join("; ") : "all three files match spec.md" });
files.writeFile("REVIEW.md", found.length ? found.map((f) => `- ${f}`).join("\n") + "\n" : "Approved: src/parse.js, src/report.js and CHANGELOG.md match spec.md.\n");
tasks.completeTask("check");
if (found.length === 0) session.approve();
else session.requestChanges(found);
