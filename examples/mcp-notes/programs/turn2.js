import { files, notes, session } from "gg";

const scope = notes.readNote(1);
const risks = notes.readNote(3);
let missing = "";
try {
  notes.readNote(99);
} catch (e) {
  missing = `${e.code}: ${e.message}`;
}
const report = [
  "# Release 2.4",
  "",
  `## ${scope.title}`,
  scope.body,
  "",
  `## ${risks.title}`,
  risks.body,
  "",
].join("\n");
files.writeFile("report.md", report);
const kept = notes.addNote("Release 2.4 report", "Written to report.md from notes 1 and 3.", { tags: ["release"] });
session.finish(`report.md written from notes 1 and 3; kept as note ${kept.id}. Asking for note 99: ${missing}`);
