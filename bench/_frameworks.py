"""One agent framework's own MCP adapter against a running ``rypsok serve``: run by
bench/schema_portability.py inside the framework's own virtual environment (it does not
import rypsok, only the framework).

    python _frameworks.py FRAMEWORK '{"command": ..., "args": [...], "env": {...}}'

Prints one JSON object: the framework's version, and per tool the schema the framework
hands its model (``schema``, in the framework's own form) and what became of the calls its
agent would make with the arguments a model sends (``calls``: "answered", or why not).
"""

from __future__ import annotations

import asyncio
import json
import sys
from importlib.metadata import version
from typing import Any

QUERY = "rypsok schema portability"
FETCH_URL = "https://example.org/"


def calls(tool: str, schema_properties: list[str], every_property: bool) -> list[dict[str, Any]]:
    """What a model sends: the optional integers given as integers; under a strict schema
    (every property required) also every other property, null where it means "not given"."""
    given = {
        "web_search": [{"query": QUERY, "max_results": 5}, {"query": QUERY}],
        "engine_status": [{}],
        "web_fetch": [{"url": FETCH_URL, "max_chars": 2000}, {"url": FETCH_URL}],
    }[tool]
    if every_property:
        given = [{name: call.get(name) for name in schema_properties} for call in given]
    return given


def refused_by_rypsok(payload: Any) -> str | None:
    """The invalid_request message when rypsok refused the arguments, else None (any other
    answer, an unreachable engine or page included, means the arguments were accepted)."""
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except ValueError:
            return None
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        error = payload["error"]
        if error.get("kind") == "invalid_request":
            return f"refused by rypsok: {error.get('message')}"
    return None


def structured_of(result: Any) -> Any:
    """The JSON payload of a call result, whatever wrapper the framework returns."""
    for attribute in ("structured_content", "structuredContent", "structured_output"):
        value = getattr(result, attribute, None)
        if value:
            return value
    content = getattr(result, "content", None)
    if isinstance(content, list) and content:
        return getattr(content[0], "text", content[0])
    if isinstance(result, list | tuple) and result:
        return structured_of(result[0])
    return getattr(result, "raw_output", None) or getattr(result, "text", None) or result


async def answer(call) -> str:
    try:
        result = await call()
    except Exception as error:  # noqa: BLE001 - the framework's refusal is the finding
        return raised(error)
    return refused_by_rypsok(structured_of(result)) or "answered"


def raised(error: Exception) -> str:
    """What an exception from a call means: some frameworks raise rypsok's error result
    (pydantic-ai's ModelRetry carries its JSON), which is an answer unless it refuses the
    arguments; anything else is the framework refusing the call."""
    text = str(error)
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if isinstance(payload, dict) and "error" in payload:
        return refused_by_rypsok(payload) or "answered"
    return f"refused by the framework: {type(error).__name__}: {text[:200]}"


async def llamaindex(server: dict[str, Any]) -> dict[str, Any]:
    from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

    client = BasicMCPClient(server["command"], args=server["args"], env=server["env"])
    tools = await McpToolSpec(client=client).to_tool_list_async()
    found = {}
    for tool in tools:
        schema = tool.metadata.get_parameters_dict()
        outcomes = []
        for arguments in calls(tool.metadata.name, list(schema.get("properties", {})), False):

            async def call(tool=tool, arguments=arguments):
                checked = tool.metadata.fn_schema(**arguments).model_dump(exclude_unset=True)
                return await tool.acall(**checked)

            outcomes.append(await answer(call))
        found[tool.metadata.name] = {"schema": schema, "calls": outcomes}
    return {"version": version("llama-index-tools-mcp"), "tools": found}


async def openai_agents(server: dict[str, Any], strict: bool) -> dict[str, Any]:
    from agents import Agent, RunContextWrapper
    from agents.mcp import MCPServerStdio, MCPUtil
    from agents.tool_context import ToolContext

    params = {"command": server["command"], "args": server["args"], "env": server["env"]}
    async with MCPServerStdio(
        params=params, name="rypsok", client_session_timeout_seconds=30
    ) as mcp:
        agent = Agent(name="bench")
        tools = await MCPUtil.get_function_tools(mcp, strict, RunContextWrapper(None), agent)
        found = {}
        for tool in tools:
            schema = tool.params_json_schema
            outcomes = []
            every = bool(tool.strict_json_schema)
            for arguments in calls(tool.name, list(schema.get("properties", {})), every):
                text = json.dumps(arguments)

                async def call(tool=tool, text=text):
                    context = ToolContext(
                        context=None, tool_name=tool.name, tool_call_id="1", tool_arguments=text
                    )
                    return await tool.on_invoke_tool(context, text)

                outcomes.append(await answer(call))
            found[tool.name] = {
                "schema": schema,
                "strict": tool.strict_json_schema,
                "calls": outcomes,
            }
    return {"version": version("openai-agents"), "tools": found}


async def langchain(server: dict[str, Any], strict: bool) -> dict[str, Any]:
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langchain_mcp_adapters.client import MultiServerMCPClient

    client = MultiServerMCPClient({"rypsok": {**server, "transport": "stdio"}})
    tools = await client.get_tools()
    found = {}
    for tool in tools:
        if strict:
            converted = convert_to_openai_tool(tool, strict=True)["function"]
            schema = converted["parameters"]
        else:
            schema = (
                tool.args_schema
                if isinstance(tool.args_schema, dict)
                else tool.get_input_jsonschema()
            )
        outcomes = []
        for arguments in calls(tool.name, list(schema.get("properties", {})), strict):

            async def call(tool=tool, arguments=arguments):
                return await tool.ainvoke(arguments)

            outcomes.append(await answer(call))
        found[tool.name] = {"schema": schema, "calls": outcomes}
    return {"version": version("langchain-mcp-adapters"), "tools": found}


async def pydantic_ai(server: dict[str, Any]) -> dict[str, Any]:
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai.mcp import MCPToolset

    transport = StdioTransport(server["command"], server["args"], env=server["env"])
    toolset = MCPToolset(transport)
    found = {}
    async with toolset:
        for tool in await toolset.list_tools():
            schema = tool.input_schema
            outcomes = []
            for arguments in calls(tool.name, list(schema.get("properties", {})), False):

                async def call(tool=tool, arguments=arguments):
                    return await toolset.direct_call_tool(tool.name, arguments)

                outcomes.append(await answer(call))
            found[tool.name] = {"schema": schema, "calls": outcomes}
    return {"version": version("pydantic-ai-slim"), "tools": found}


async def fastmcp(server: dict[str, Any]) -> dict[str, Any]:
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport

    transport = StdioTransport(server["command"], server["args"], env=server["env"])
    found = {}
    async with Client(transport) as client:
        for tool in await client.list_tools():
            schema = getattr(tool, "input_schema", None) or tool.inputSchema
            outcomes = []
            for arguments in calls(tool.name, list(schema.get("properties", {})), False):

                async def call(tool=tool, arguments=arguments):
                    return await client.call_tool(tool.name, arguments, raise_on_error=False)

                outcomes.append(await answer(call))
            found[tool.name] = {"schema": schema, "calls": outcomes}
    return {"version": version("fastmcp"), "tools": found}


async def google_genai(server: dict[str, Any]) -> dict[str, Any]:
    from google.genai import _mcp_utils
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    parameters = StdioServerParameters(**server)
    found = {}
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        for tool in (await session.list_tools()).tools:
            try:
                declared = _mcp_utils.mcp_to_gemini_tool(tool).function_declarations[0]
            except Exception as error:  # noqa: BLE001 - the crash is the finding
                found[tool.name] = {
                    "schema": None,
                    "calls": [f"not loaded: {type(error).__name__}: {str(error)[:200]}"],
                }
                continue
            schema = declared.parameters.model_dump(exclude_none=True, mode="json")
            outcomes = []
            for arguments in calls(tool.name, list(schema.get("properties", {})), False):

                async def call(tool=tool, arguments=arguments):
                    return await session.call_tool(tool.name, arguments)

                outcomes.append(await answer(call))
            found[tool.name] = {"schema": schema, "calls": outcomes}
    return {"version": version("google-genai"), "tools": found}


def smolagents(server: dict[str, Any]) -> dict[str, Any]:
    from mcp import StdioServerParameters
    from smolagents import ToolCollection
    from smolagents.tools import validate_tool_arguments

    found = {}
    parameters = StdioServerParameters(**server)
    with ToolCollection.from_mcp(parameters, trust_remote_code=True) as collection:
        for tool in collection.tools:
            outcomes = []
            # smolagents' own check requires every input not marked with its `nullable`
            # key (not JSON Schema), so its agent sends every argument, null for "not given"
            for arguments in calls(tool.name, list(tool.inputs), True):
                try:
                    validate_tool_arguments(tool, arguments)
                    result = tool(**arguments)
                except Exception as error:  # noqa: BLE001 - the framework's refusal is the finding
                    outcomes.append(raised(error))
                    continue
                outcomes.append(refused_by_rypsok(structured_of(result)) or "answered")
            found[tool.name] = {"schema": tool.inputs, "calls": outcomes}
    return {
        "version": f"smolagents {version('smolagents')}, mcpadapt {version('mcpadapt')}",
        "tools": found,
    }


FRAMEWORKS = {
    "llamaindex": llamaindex,
    "openai-agents": lambda server: openai_agents(server, False),
    "openai-agents strict": lambda server: openai_agents(server, True),
    "langchain": lambda server: langchain(server, False),
    "langchain strict": lambda server: langchain(server, True),
    "pydantic-ai": pydantic_ai,
    "fastmcp": fastmcp,
    "google-genai": google_genai,
    "smolagents": smolagents,
}


def main() -> None:
    name, server = sys.argv[1], json.loads(sys.argv[2])
    run = FRAMEWORKS[name]
    try:
        found = run(server) if name == "smolagents" else asyncio.run(run(server))
    except Exception as error:  # noqa: BLE001 - reported, not raised
        found = {"error": f"{type(error).__name__}: {str(error)[:300]}"}
    print(json.dumps(found, default=str))


if __name__ == "__main__":
    main()
