import { session } from "gg";

session.finish("Added restock in src/restock.js; the reviewer asked for 2 changes, both made, and approved the second round.");
