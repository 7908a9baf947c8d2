import { files, session } from "gg";

files.writeFile("report.md", "# Parts\n\n- bolts: 3\n- nuts: 3\n- washers: 2\n");
session.finish("report.md written: 3 bolts, 3 nuts, 2 washers");
