"""MCP both ways: MCP servers as SDK modules a program calls like gg's own (`gg.mcp.binding`),
and gg itself as an MCP server whose tools run programs (`gg.mcp.serve`). The `mcp` SDK is
imported only by the parts that speak MCP, so gg without the `mcp` extra still runs."""
