import { memories } from "gg";

// The report needs to know what parse() gives; note it in the memories we share, then wait for its answer.
memories.createMemory({
  name: "parse-shape",
  description: "what parse(text) returns",
  body: "parse(text) returns [{ name, count }] with count a Number; the header line is skipped.",
});
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  try { memories.readMemory("report-needs"); break; } catch { Atomics.wait(pause, 0, 0, 50); }
}
