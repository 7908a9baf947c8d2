import { delegation, files, views } from "gg";

// What the reviewer asked: leave the caller's items alone, and refuse a negative n.
const path = "src/restock.js";
files.editFile(path, `export function restock(items, n) {
  for (const item of items) item.count += n;
  return items;
}`, `export function restock(items, n) {
  if (n < 0) throw new RangeError(\`restock by \${n}: n must not be negative\`);
  return items.map((item) => ({ ...item, count: item.count + n }));
}`);

const reviewer = delegation.spawnSubagent({
  agent: "reviewer",
  prompt: "Review the revised `restock` in src/restock.js: it no longer changes the items it is given and refuses a negative n.",
});
const [review] = delegation.waitForSubagents([reviewer.id]);
views.openText("review", review.approved ? "approved" : (review.changes ?? [review.summary]).join("\n"));
