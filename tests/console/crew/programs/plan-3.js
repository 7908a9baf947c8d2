import { programs } from "gg";

const failed = programs.get("{{receipt 2.1}}");
programs.rerun(failed.replace("read.content.split", "read.contents.split"));
