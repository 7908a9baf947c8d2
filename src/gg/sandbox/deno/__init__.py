"""The Deno engine, which runs JavaScript and TypeScript programs: a pool of long-lived processes
(`pool`) spoken to over a private socket (`wire`), the guest SDK bundle (`bundle`, `guest/`) and
its TypeScript declarations (`declarations`), the TypeScript checker (`tscheck`, `lsp`,
`tsdiag`), how a failure reads (`failure`) and what a guest may hold (`memory`)."""
