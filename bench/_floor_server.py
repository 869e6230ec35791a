"""The start-up floor: the smallest low-level MCP server on the same SDK and Trio as rypsok,
with one static tool. bench/startup.py launches it alternately with rypsok."""

from __future__ import annotations

import mcp_types as types
import trio
from mcp.server import Server
from mcp.server.stdio import stdio_server

TOOL = types.Tool(
    name="echo",
    description="Echo the text back.",
    input_schema={"type": "object", "properties": {"text": {"type": "string"}}},
)


async def on_list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[TOOL])


async def main() -> None:
    server = Server("floor", version="0", on_list_tools=on_list_tools)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    trio.run(main)
