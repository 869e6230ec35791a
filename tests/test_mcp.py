"""The MCP server as an agent sees it: rypsok started over stdio, driven by the mcp SDK clients."""

from __future__ import annotations

import json
import subprocess

import anyio
import pytest
from mcp import MCPError

from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.mcp_harness import (
    ROOT,
    assert_conforms,
    modern_client,
    session,
    structured,
    write_toml,
)
from tests.server_fork import rypsok_command

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}


@pytest.fixture
def config_file(engines, tmp_path):
    def make(enabled=CODE, **sections):
        return write_toml(config_data(engines, set(enabled), **sections), tmp_path / "rypsok.toml")

    return make


def tools_by_name(listed):
    return {tool.name: tool for tool in listed.tools}


async def test_tool_list_follows_the_configuration(config_file, transport):
    async with session(config_file(), transport=transport) as client:
        tools = tools_by_name(await client.list_tools())
    assert list(tools) == ["web_search", "engine_status", "web_fetch"]
    search = tools["web_search"]
    properties = search.input_schema["properties"]
    assert properties["category"]["anyOf"][0]["enum"] == ["code"]
    assert "language" not in properties
    described = "How many results to return at most; 1 to 20; null or left out: 5."
    assert properties["max_results"] == {
        "type": ["integer", "null"],
        "anyOf": [
            {"type": "integer", "minimum": 1, "maximum": 20, "description": described},
            {"type": "null"},
        ],
        "default": 5,
        "description": described,
    }
    assert properties["time_range"]["anyOf"][0]["enum"] == ["day", "week", "month", "year"]
    assert search.input_schema["required"] == ["query"]
    assert "additionalProperties" not in search.input_schema
    for tool in tools.values():
        assert tool.title and tool.description
        assert tool.annotations.read_only_hint is True
        assert tool.output_schema["type"] == "object"
        assert tool.output_schema["oneOf"][1] == {
            "type": "object",
            "properties": {"error": {"type": "object"}},
            "required": ["error"],
        }
    assert tools["web_search"].annotations.open_world_hint is True
    assert tools["web_fetch"].annotations.open_world_hint is True
    assert tools["engine_status"].annotations.open_world_hint is False
    fetch = tools["web_fetch"].input_schema["properties"]
    max_chars = fetch["max_chars"]["anyOf"][0]
    assert max_chars["minimum"] == 500 and max_chars["maximum"] == 20000
    assert fetch["url"]["maxLength"] == 2048


async def test_the_default_category_is_general_or_else_the_first_served(config_file, engines):
    """tools.md: category defaults to general, and only served categories are offered. Where
    no enabled engine serves general, the default is the first category served (docs/tools.md),
    so the schema's default is one of its values and a call without category searches it."""
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    for enabled, default in ((CODE | {"wikipedia"}, "general"), (CODE, "code")):
        engines.seen.clear()
        async with session(config_file(enabled=enabled)) as client:
            listed = tools_by_name(await client.list_tools())
            result = await client.call_tool("web_search", {"query": "asyncio"})
        category = listed["web_search"].input_schema["properties"]["category"]
        assert category["default"] == default and default in category["anyOf"][0]["enum"]
        assert category["description"].endswith(f"null or left out: {default}.")
        assert structured(result)["outcome"] == "ok", structured(result)
        asked = {seen.engine for seen in engines.seen}
        assert asked == ({"wikipedia"} if default == "general" else CODE)


async def test_languages_and_status_switch(config_file, transport):
    path = config_file(
        enabled={"wikipedia", "hackernews"},
        search={"languages": ["de", "en"]},
        status={"enabled": False},
    )
    async with session(path, transport=transport) as client:
        tools = tools_by_name(await client.list_tools())
        assert list(tools) == ["web_search", "web_fetch"]
        language = tools["web_search"].input_schema["properties"]["language"]
        assert language["anyOf"][0]["enum"] == ["de", "en"] and language["default"] == "de"
        assert tools["web_search"].input_schema["properties"]["category"]["anyOf"][0]["enum"] == [
            "general",
            "news",
        ]
        with pytest.raises(MCPError) as switched_off:  # not a tool there is
            await client.call_tool("engine_status", {})
    assert switched_off.value.code == -32602
    assert switched_off.value.message.endswith("the tools are: web_search, web_fetch")


async def test_search_result_is_structured_and_conforms(config_file, engines, transport):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = Play(status=429, headers={"Retry-After": "3"})
    async with session(config_file(), transport=transport) as client:
        tools = tools_by_name(await client.list_tools())
        result = await client.call_tool(
            "web_search", {"query": "async runtime", "category": "code", "max_results": 3}
        )
    assert not result.is_error
    payload = structured(result)
    assert_conforms(payload, tools["web_search"].output_schema)
    assert payload["outcome"] == "partial"
    assert {"code": "engine_unavailable", "engine": "stackexchange", "reason": "rate_limited"} in (
        payload["notices"]
    )
    assert 1 <= len(payload["results"]) <= 3
    assert payload["results"][0]["url"] == "https://github.com/tokio-rs/tokio"


async def test_errors_are_results_with_the_envelope_and_the_server_keeps_serving(
    config_file, engines, transport
):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    bad_calls = [
        ("web_search", {}),
        ("web_search", {"query": 5}),
        ("web_search", {"query": "x", "max_results": 99}),
        ("web_search", {"query": "x", "category": "news"}),
        ("web_search", {"query": "x", "colour": "red"}),
        ("web_search", {"query": "x", "max_results": True}),
        ("engine_status", {"verbose": True}),
        ("web_fetch", {"url": "x" * 3000}),
    ]
    async with session(config_file(), transport=transport) as client:
        tools = tools_by_name(await client.list_tools())
        for name, arguments in bad_calls:
            result = await client.call_tool(name, arguments)
            assert result.is_error, (name, arguments)
            payload = structured(result)
            assert set(payload) == {"error"}
            error = payload["error"]
            assert error["kind"] == "invalid_request", (name, arguments, error)
            assert len(error["message"]) <= 200 and "Traceback" not in error["message"]
            assert "parameter" in error["detail"]
            schema = tools.get(name, tools["web_search"]).output_schema
            assert_conforms(payload, schema)
        example = await client.call_tool(
            "web_search", {"query": "x", "category": "code", "max_results": 99}
        )
        result = await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
    assert example.is_error  # tools.md's own example, to the letter
    assert structured(example) == {
        "error": {
            "kind": "invalid_request",
            "message": "max_results must be between 1 and 20",
            "detail": {"parameter": "max_results", "min": 1, "max": 20},
        }
    }
    assert not result.is_error
    assert structured(result)["outcome"] == "ok"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_an_unknown_tool_is_the_protocol_error_naming_the_tools(
    config_file, engines, mode, transport
):
    """MCP 2025-06-18 and later: an unknown tool is JSON-RPC -32602, not a tool result."""
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with modern_client(
        config_file(status={"enabled": False}), mode=mode, transport=transport
    ) as client:
        for name in ("no_such_tool", "engine_status", "web_search\u200b"):
            with pytest.raises(MCPError) as raised:
                await client.call_tool(name, {"query": "asyncio"})
            assert raised.value.code == -32602, name
            shown = name.replace("\u200b", "\\u200b")
            assert raised.value.message == (
                f"Unknown tool: '{shown}'; the tools are: web_search, web_fetch"
            )
        result = await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
        invalid = await client.call_tool("web_search", {"query": "asyncio", "colour": "red"})
    assert structured(result)["outcome"] == "ok"
    assert invalid.is_error
    assert structured(invalid)["error"]["kind"] == "invalid_request"
    assert structured(invalid)["error"]["detail"]["parameter"] == "colour"


async def test_deadline_holds_through_mcp(config_file, engines, transport):
    engines.plays["github"] = Play(mode="hang")
    engines.plays["stackexchange"] = Play(mode="dribble")
    async with session(config_file(search={"deadline_ms": 800}), transport=transport) as client:
        started = anyio.current_time()
        result = await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
        elapsed = anyio.current_time() - started
        assert elapsed <= 0.8 + 0.3
        error = structured(result)["error"]
        assert (error["kind"], error["detail"]["reason"]) == ("unavailable", "deadline")
        engines.plays["github"] = json_play("github/search.json")
        started = anyio.current_time()
        result = await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
        assert anyio.current_time() - started <= 0.8 + 0.3
    payload = structured(result)
    assert payload["outcome"] == "partial"
    assert {"code": "engine_unavailable", "engine": "stackexchange", "reason": "timeout"} in (
        payload["notices"]
    )


async def test_engine_status_through_mcp(config_file, engines, transport):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with session(config_file(), transport=transport) as client:
        tools = tools_by_name(await client.list_tools())
        await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
        result = await client.call_tool("engine_status", {})
    payload = structured(result)
    assert_conforms(payload, tools["engine_status"].output_schema)
    states = {e["id"]: e for e in payload["engines"]}
    assert states["github"]["state"] == "closed"
    assert isinstance(states["github"]["latency_ms"], int)
    assert states["brave"] == {
        "id": "brave",
        "state": "disabled",
        "latency_ms": None,
        "reason": "disabled",
    }


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_both_protocol_eras(config_file, engines, mode, transport):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with modern_client(config_file(), mode=mode, transport=transport) as client:
        listed = await client.list_tools()
        tools = tools_by_name(listed)
        result = await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
        error = await client.call_tool("web_search", {"query": ""})
    assert structured(result)["outcome"] == "ok"
    assert_conforms(structured(result), tools["web_search"].output_schema)
    assert error.is_error
    assert_conforms(structured(error), tools["web_search"].output_schema)
    assert structured(error)["error"]["detail"]["parameter"] == "query"


def test_stdout_carries_only_mcp_messages(config_file, engines):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = Play(status=500)
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "web_search", "arguments": {"query": "asyncio", "category": "code"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "web_search", "arguments": ["not", "an", "object"]},
        },
    ]
    process = subprocess.Popen(
        rypsok_command("serve", "--config", str(config_file())),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        text=True,
    )
    try:
        for message in messages:
            process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()
        replies = {}
        while len(replies) < 3:
            line = process.stdout.readline()
            assert line, process.stderr.read()
            reply = json.loads(line)
            assert reply["jsonrpc"] == "2.0"
            replies[reply["id"]] = reply
        process.stdin.close()
        process.wait(timeout=10)
        assert process.stdout.read() == ""
    finally:
        process.kill()
    assert replies[2]["result"]["structuredContent"]["outcome"] == "partial"
    third = replies[3]
    assert "error" in third or third["result"]["isError"] is True
    logs = [json.loads(line) for line in process.stderr.read().splitlines() if line.startswith("{")]
    assert any(entry.get("event") == "search" for entry in logs)
    assert all("asyncio" not in json.dumps(entry) for entry in logs)


HOSTILE_NAMES = [
    "\u200b" * 29,  # repr() of it alone is 176 characters
    "\u200b" * 5000,
    "a" * 100_000,
    "\U000e0041" * 40 + "colour",  # tag characters
    "\u202ename\u202c",  # a bidi override
    "ghp_" + "A1b2C3d4" * 4 + "ZZZZ",  # a GitHub token's shape
    "x\\" * 300,
]


async def test_unknown_parameter_names_are_quoted_bounded_visible_and_without_secrets(
    config_file, engines
):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with session(config_file()) as client:
        tools = tools_by_name(await client.list_tools())
        for name in HOSTILE_NAMES:
            for tool, arguments in [
                ("web_search", {"query": "asyncio", name: 1}),
                ("web_fetch", {"url": "https://example.org/", name: 1}),
                ("engine_status", {name: 1}),
            ]:
                result = await client.call_tool(tool, arguments)
                payload = structured(result)
                assert_conforms(payload, tools[tool].output_schema)
                error = payload["error"]
                assert error["kind"] == "invalid_request", (tool, name[:20], error)
                secret = name.startswith("ghp_")
                assert error["detail"]["parameter"] == ("***" if secret else name[:100])
                message = error["message"]
                assert message.startswith("unknown parameter '") and message.endswith(
                    "'; remove it"
                )
                assert len(message) <= 200
                assert all(ch.isprintable() for ch in message), message
                assert "ghp_" not in message and "ghp_" not in json.dumps(error)
                quoted = message.removeprefix("unknown parameter ").removesuffix("; remove it")
                if len(name) > 40:
                    assert quoted.endswith("…'"), message
        first = await client.call_tool("web_search", {"query": "x", "\u200b" * 29: 1})
        assert structured(first)["error"]["message"] == (
            "unknown parameter '" + "\\u200b" * 9 + "…'; remove it"
        )
        result = await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
    assert structured(result)["outcome"] == "ok"


@pytest.mark.parametrize("languages", [["en"], ["de", "en"]])
async def test_unknown_parameter_lists_exactly_the_schema_properties(config_file, languages):
    path = config_file(enabled={"wikipedia", "github"}, search={"languages": languages})
    async with session(path) as client:
        tools = tools_by_name(await client.list_tools())
        for name, tool in tools.items():
            arguments = {"colour": "red"} | ({"query": "x"} if name == "web_search" else {})
            result = await client.call_tool(name, arguments)
            detail = structured(result)["error"]["detail"]
            assert detail == {
                "parameter": "colour",
                "allowed": list(tool.input_schema["properties"]),
            }
    assert ("language" in tools["web_search"].input_schema["properties"]) == (len(languages) > 1)


REQUIRED_NULLS = [
    ("web_search", {"query": None}, {"parameter": "query", "min": 1, "max": 400}),
    (
        "web_search",
        {"query": None, "time_range": None},
        {"parameter": "query", "min": 1, "max": 400},
    ),
    ("web_fetch", {"url": None}, {"parameter": "url", "min": 1, "max": 2048}),
    ("web_fetch", {"url": None, "max_chars": None}, {"parameter": "url", "min": 1, "max": 2048}),
    # Left out, not a string or not a URL: still the bounds, as every invalid_request.
    ("web_search", {"max_results": 3}, {"parameter": "query", "min": 1, "max": 400}),
    ("web_fetch", {}, {"parameter": "url", "min": 1, "max": 2048}),
    ("web_fetch", {"url": 7}, {"parameter": "url", "min": 1, "max": 2048}),
    ("web_fetch", {"url": "https://exa mple.org/"}, {"parameter": "url", "min": 1, "max": 2048}),
    (
        "web_search",
        {"query": "x", "colour": None},
        {"parameter": "colour", "allowed": ["query", "category", "max_results", "time_range"]},
    ),
]


async def test_null_optional_arguments_are_taken_as_left_out(config_file, engines):
    """LlamaIndex sends null for an optional argument it was not given, and a strict schema
    makes a model send every property: null is "not given" for every optional argument."""
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    nulls = {"max_results": None, "language": None, "time_range": None}
    calls = {
        "general": ({"query": "asyncio"}, {"query": "asyncio", "category": None, **nulls}),
        "code": (
            {"query": "asyncio", "category": "code"},
            {"query": "asyncio", "category": "code", **nulls},
        ),
    }
    answers, asked = {}, {}
    async with session(config_file(enabled=CODE | {"wikipedia"})) as client:
        tools = tools_by_name(await client.list_tools())
        for label, pair in calls.items():
            for which, arguments in zip(("omitted", "null"), pair, strict=True):
                engines.seen.clear()
                answers[label, which] = await client.call_tool("web_search", arguments)
                asked[label, which] = sorted((seen.engine, seen.path) for seen in engines.seen)
        refused = {}
        for name, arguments, _ in REQUIRED_NULLS:
            refused[name, json.dumps(arguments)] = await client.call_tool(name, arguments)
    for label in calls:
        omitted, with_nulls = answers[label, "omitted"], answers[label, "null"]
        assert not with_nulls.is_error, structured(with_nulls)
        assert structured(with_nulls) == structured(omitted)
        assert structured(with_nulls)["outcome"] == "ok"
        assert asked[label, "null"] == asked[label, "omitted"]  # no time filter, no language
    assert {engine for engine, _ in asked["general", "null"]} == {"wikipedia"}
    assert {engine for engine, _ in asked["code", "null"]} == CODE
    assert len(structured(answers["code", "null"])["results"]) == 5  # the default
    for name, arguments, detail in REQUIRED_NULLS:
        result = refused[name, json.dumps(arguments)]
        assert result.is_error, (name, arguments)
        payload = structured(result)
        assert_conforms(payload, tools[name].output_schema)
        assert payload["error"]["kind"] == "invalid_request", (arguments, payload)
        assert payload["error"]["detail"] == detail


def optional_properties(schema: dict) -> dict[str, dict]:
    return {
        name: prop
        for name, prop in schema["properties"].items()
        if name not in schema.get("required", [])
    }


@pytest.mark.parametrize("languages", [["en"], ["de", "en"]])
async def test_the_input_schemas_advertise_null_and_write_every_range_in_words(
    config_file, languages
):
    import jsonschema

    path = config_file(search={"languages": languages, "max_results": 12})
    async with session(path) as client:
        tools = tools_by_name(await client.list_tools())
    search, fetch = tools["web_search"].input_schema, tools["web_fetch"].input_schema
    expected = {"category", "max_results", "time_range"} | (
        {"language"} if len(languages) > 1 else set()
    )
    assert set(optional_properties(search)) == expected
    assert set(optional_properties(fetch)) == {"max_chars", "start_char"}
    ranges = {}
    for tool in tools.values():
        schema = tool.input_schema
        validator = jsonschema.Draft202012Validator(schema)
        for name, prop in optional_properties(schema).items():
            assert {"type": "null"} in prop["anyOf"], (tool.name, name)
            (typed,) = [branch for branch in prop["anyOf"] if branch != {"type": "null"}]
            assert typed["description"] == prop["description"]
            assert prop["description"].endswith(
                f"null or left out: {prop.get('default', 'no time filter')}."
            ), prop["description"]
        for name in schema.get("required", []):
            assert "anyOf" not in schema["properties"][name]
        nulls = {name: None for name in optional_properties(schema)}
        required = {"query": "x", "url": "https://example.org/"}
        given = {name: required[name] for name in schema.get("required", [])}
        assert validator.is_valid({**given, **nulls}), (tool.name, nulls)
        if given:
            assert not validator.is_valid({**given, **dict.fromkeys(given)})
        for name, prop in schema["properties"].items():
            typed = prop["anyOf"][0] if "anyOf" in prop else prop
            for low, high in (("minimum", "maximum"), ("minLength", "maxLength")):
                if low in typed:
                    ranges[tool.name, name] = prop["description"]
                    assert f"{typed[low]} to {typed[high]}" in prop["description"], name
    assert ranges == {
        ("web_search", "query"): "What to search for; 1 to 400 characters after trimming.",
        ("web_search", "max_results"): "How many results to return at most; 1 to 12; "
        "null or left out: 5.",
        ("web_fetch", "url"): "The page to read (https; http is tried over https); "
        "1 to 2048 characters.",
        ("web_fetch", "max_chars"): "How many characters of content to return at most; "
        "500 to 20000; null or left out: 3000.",
        ("web_fetch", "start_char"): "Where to continue: next_start_char of the previous call; "
        "0 to 2147483647; null or left out: 0.",
    }
