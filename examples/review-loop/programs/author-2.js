import { delegation, files, views } from "gg";

const path = "src/stock.js";
const source = files.readTextFile(path);
files.writeFile(path, source + `
export function restock(items, n) {
  for (const item of items) item.count += n;
  return items;
}
`);

const reviewer = delegation.spawnSubagent({
  agent: "reviewer",
  prompt: "Review `restock` in src/stock.js: it should return the items with n more of each in stock.",
});
const [review] = delegation.waitForSubagents([reviewer.id]);
views.openText("review", review.approved ? "approved" : (review.changes ?? [review.summary]).join("\n"));
