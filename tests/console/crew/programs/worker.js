import { files, session, skills } from "gg";

skills.readSkill("tally");
const lines = files.readFile("parts.txt").contents.split("\n").filter((l) => l.trim());
session.finish(`${lines.length} parts listed; counted mine`);
