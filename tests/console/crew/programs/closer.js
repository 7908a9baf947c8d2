import { files, memories, programs, session, tasks } from "gg";

console.log(`held: ${programs.history().map((p) => p.id).join(" ")}`);
files.writeFile("report.md", "# Parts\n\n- bolts: 3\n- nuts: 3\n- washers: 2\n");
memories.writeMemory({ name: "report", description: "what the closer wrote", body: "report.md: 3 bolts, 3 nuts, 2 washers" });
tasks.completeTask("report");
session.finish("report.md written: 3 bolts, 3 nuts, 2 washers");
