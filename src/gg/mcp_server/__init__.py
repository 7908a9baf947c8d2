"""gg as an MCP server (`gg mcp serve CONFIG`): one tool per arm the capability set enables, each
call a program run as the model's next reply (`serve`: the server and its sessions; `bridge`: the
model a session stands in for; `command`: the command line). It runs through the public API
(`gg.api.run`), so it stands on the top floor; MCP servers as modules are `gg.mcp`."""
