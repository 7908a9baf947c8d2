import { memories } from "gg";

// Say what the report relies on, in the memories the implementers share: the parser hears of it.
memories.createMemory({
  name: "report-needs",
  description: "what report(items) relies on",
  body: "report(items) takes parse()'s items as they are: a list of { name, count }, count a Number.",
});
