import { memories } from "gg";

// The report needs to know what parse() gives; note it in the memories we share.
memories.createMemory({
  name: "parse-shape",
  description: "what parse(text) returns",
  body: "parse(text) returns [{ name, count }] with count a Number; the header line is skipped.",
});
