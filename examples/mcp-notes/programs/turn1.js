import { notes, views } from "gg";

// What the server holds about the release, and its shape.
const found = notes.searchNotes("release", { tag: "release" });
views.openText("release notes", JSON.stringify(found, null, 2));
views.openText("stats", notes.stats());
views.openDocsView("notes.stats");
