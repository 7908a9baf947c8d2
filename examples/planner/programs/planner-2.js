import { delegation, tasks } from "gg";

// Both issues are done. A copy of me writes the changelog while I carry on.
tasks.completeTask("parser");
tasks.completeTask("report");
delegation.fork("Write CHANGELOG.md: one line for STOCK-1 and one for STOCK-2, then finish.");
