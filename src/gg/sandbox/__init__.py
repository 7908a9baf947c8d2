"""The sandbox: where a program runs and how its calls cross into gg. An arm (`arms`, one per
language: `deno` runs JavaScript and TypeScript, `monty` runs Python) runs one whole program in a
guest and hands back an `Execution` (`execution`); every SDK call crosses the membrane
(`membrane`); guest processes are started by one layer (`process`), leased to a running program
(`lease`), exchanged as jobs (`job`), stopped by the sentinel when gg goes (`sentinel`); logs
stream while a program runs (`livelogs`); a ceiling reached reads the same on every arm
(`ceilings`); the arms' language values are `languages`. Shell commands run in the jail (`jail`).
Each part is imported from its own module."""
