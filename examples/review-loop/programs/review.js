import { files, session } from "gg";

// Read the module and judge `restock` against what a caller may rely on.
const source = files.readTextFile("src/restock.js");
const body = source.slice(source.indexOf("export function restock"));
const changes = [];
if (!source.includes("export function restock")) changes.push("src/restock.js exports no `restock`");
if (/\.count\s*(\+=|=[^=])/.test(body)) changes.push("`restock` changes the items it is given: return new objects instead");
if (!body.includes("RangeError")) changes.push("a negative `n` must be refused with a RangeError");
if (changes.length === 0) {
  session.approve();
} else {
  session.requestChanges(changes);
}
