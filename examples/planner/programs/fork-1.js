import { board, context, files, session, tasks } from "gg";

// I am the planner's copy: my own task list and archive, the same board.
// Each issue's last word came with the planning turn, which the archive keeps: one changelog line each.
const lines = context.searchArchive("The last word on it").hits
  .map((hit) => hit.text.match(/^Issue `(\S+)` is done\. The last word on it: (.*)$/s))
  .filter((m) => m !== null)
  .map(([, id, word]) => `- ${id}: ${word}`)
  .sort();
files.writeFile("CHANGELOG.md", `# Changelog\n\n${lines.join("\n")}\n`);
tasks.completeTask("changelog");
board.updateIssue("STOCK-2", { description: "Its line is in CHANGELOG.md." });
session.finish(`CHANGELOG.md names ${lines.length} issues`);
