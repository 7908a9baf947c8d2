import { files, views } from "gg";

const read = files.readFile("parts.txt");
const kinds = {};
for (const line of read.content.split("\n")) {
  const kind = line.split(" ")[0];
  if (kind) kinds[kind] = (kinds[kind] ?? 0) + 1;
}
views.openText("kinds", JSON.stringify(kinds));
