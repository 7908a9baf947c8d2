import { session } from "gg";

session.finish("Added restock to src/stock.js; the reviewer asked for 2 changes, both made, and approved the second round.");
