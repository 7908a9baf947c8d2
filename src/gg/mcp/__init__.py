"""MCP servers as SDK modules a program calls like gg's own: bound once at launch (`binding`),
held open (`connection`, over `stdio` or streamable HTTP), their tools read as host families
(`tools`, `schema`, `naming`) and each call judged, sent and answered (`arguments`, `calling`,
`results`). gg itself as an MCP server is `gg.mcp_server`. The `mcp` SDK is imported only by the
parts that speak MCP, so gg without the `mcp` extra still runs."""
