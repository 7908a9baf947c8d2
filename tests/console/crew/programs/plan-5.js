import { delegation, tasks, views } from "gg";

const fork = delegation.waitForSubagents();
tasks.completeTask("washers");
views.openText("fork", fork.map((d) => `${d.id}: ${d.summary}`).join("\n"));
delegation.exec("closer", "Write report.md: 3 bolts, 3 nuts, 2 washers.");
