import { context, delegation, tasks, views } from "gg";

// Both issues are done. The planning turn has served: move it out of the window into the archive.
tasks.completeTask("parser");
tasks.completeTask("report");
const reclaimed = context.archiveThread([{ from: 1, to: 1 }]);
views.openText("archived", JSON.stringify(reclaimed.detail));

// A copy of me writes the changelog while I carry on.
delegation.fork("Write CHANGELOG.md: one line for STOCK-1 and one for STOCK-2, then finish.");
