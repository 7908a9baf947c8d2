import { board, files, session, tasks } from "gg";

// I am the planner's copy: my own task list, the same board.
files.writeFile("CHANGELOG.md", "# Changelog\n\n- STOCK-1: src/report.js renders the stock report.\n- STOCK-2: src/parse.js reads data/stock.csv.\n");
tasks.completeTask("changelog");
board.updateIssue("STOCK-2", { description: "Its line is in CHANGELOG.md." });
session.finish("CHANGELOG.md names STOCK-1 and STOCK-2");
