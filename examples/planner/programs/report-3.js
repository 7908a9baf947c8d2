import { files, session } from "gg";

// The parser's note is in (see the notice): counts are Numbers, so "below 5" is a plain comparison.
files.writeFile("src/report.js", `// The stock report: one Markdown line per item, low stock marked.

export const LOW = 5;

export function report(items) {
  return items.map(({ name, count }) => \`- \${name}: \${count}\${count < LOW ? " (low)" : ""}\`).join("\\n");
}
`);
session.finish("src/report.js: report(items) renders one line per item, below 5 marked (low).");
