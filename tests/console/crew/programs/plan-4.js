import { board, context, views } from "gg";

context.archiveThread([{ from: 2, to: 2 }]);
const issue = board.createIssue({
  title: "recount the bolts",
  inScope: "the bolt lines of parts.txt",
  outOfScope: "the nuts and the washers",
  completionCriteria: "a count the inspector approves",
  agent: "worker",
  reviewers: ["inspector"],
});
views.openText("filed", issue.id);
board.waitForIssue(issue.id);
