import { files, session } from "gg";

const washers = files.readFile("parts.txt").contents.split("\n").filter((l) => l.startsWith("washer "));
session.finish(`${washers.length} washers`);
