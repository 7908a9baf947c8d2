import { delegation, files, views } from "gg";

// The new function goes in a module of its own, beside the one it serves.
files.writeFile("src/restock.js", `// Restocking the shop's items: a list of { name, count }.

export function restock(items, n) {
  for (const item of items) item.count += n;
  return items;
}
`);

const reviewer = delegation.spawnSubagent({
  agent: "reviewer",
  prompt: "Review `restock` in src/restock.js: it should return the items with n more of each in stock.",
});
const [review] = delegation.waitForSubagents([reviewer.id]);
views.openText("review", review.approved ? "approved" : (review.changes ?? [review.summary]).join("\n"));
