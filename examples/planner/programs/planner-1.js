import { board, memories, skills, tasks, views } from "gg";

// Read the spec and the house way of splitting work, then plan it as a task list.
views.openFile("spec.md");
views.openText("how to split", skills.readSkill("split-by-module"));
tasks.addTask({ id: "file", title: "file the parser and the report as issues" });
tasks.addTask({ id: "parser", title: "src/parse.js is implemented", blockedBy: ["file"] });
tasks.addTask({ id: "report", title: "src/report.js is implemented and reviewed", blockedBy: ["file"] });
tasks.addTask({ id: "changelog", title: "CHANGELOG.md names both issues", blockedBy: ["parser", "report"] });
tasks.addTask({ id: "check", title: "a reviewer checks the whole", blockedBy: ["changelog"] });
memories.createMemory({
  name: "plan",
  description: "how the stock report is split",
  body: "Two modules, one issue each: src/parse.js (the CSV) and src/report.js (the Markdown).",
});

// One epic, two issues for implementers; the report also goes to a reviewer.
const epic = board.createEpic({ prefix: "STOCK", title: "The stock report", description: "spec.md, in two modules" });
const report = board.createIssue({
  title: "Render the report", epicId: epic.id, agent: "implementer", reviewers: ["reviewer"],
  inScope: "src/report.js: report(items) as spec.md says", outOfScope: "reading the CSV (the parser's issue)",
  completionCriteria: "src/report.js exports report(items), marking items below 5 (low)",
});
const parser = board.createIssue({
  title: "Parse the stock CSV", epicId: epic.id, agent: "implementer",
  inScope: "src/parse.js: parse(text) as spec.md says", outOfScope: "rendering (the report's issue)",
  completionCriteria: "src/parse.js exports parse(text) giving numeric counts",
});
tasks.completeTask("file");
report.wait();
parser.wait();
