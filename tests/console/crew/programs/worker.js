import { files, memories, session, skills } from "gg";

skills.readSkill("tally");
const lines = files.readFile("parts.txt").contents.split("\n").filter((l) => l.trim());
try {
  memories.createMemory({ name: "tally", description: "what the workers counted", body: `${lines.length} parts listed` });
} catch (e) {
  memories.editMemory({ name: "tally", search: "parts listed", replace: "parts listed, counted twice" });
}
session.finish(`${lines.length} parts listed; counted mine`);
