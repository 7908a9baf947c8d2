import { files, session } from "gg";

// The report agreed to the shape (see the notice), so the parser can be written.
files.writeFile("src/parse.js", `// Reading data/stock.csv: a header line, then one "name,count" line per item.

export function parse(text) {
  const [, ...rows] = text.trim().split("\\n");
  return rows.map((row) => {
    const [name, count] = row.split(",");
    return { name, count: Number(count) };
  });
}
`);
session.finish("src/parse.js: parse(text) gives [{ name, count }], count a Number.");
