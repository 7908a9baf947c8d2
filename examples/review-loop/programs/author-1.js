import { files, views } from "gg";

// Look at the module before changing it, and at what else lives beside it.
views.openFile("src/stock.js");
views.openText("sources", files.glob("src/**/*.js").matches.map((m) => m.path).join("\n"));
