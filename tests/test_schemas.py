"""The tools' schemas as strict and simple clients read them.

Structure: every required name defined beside it (Ajv's strict mode refuses the schema
otherwise), a top-level ``type`` on every property. Shape decisions for the agent
frameworks' own MCP adapters (the matrix is bench/schema_portability.py): an optional
argument is both a type array with null and an ``anyOf`` of the same two (smolagents reads
only ``type``, LlamaIndex only ``anyOf``), and input schemas advertise no
``additionalProperties`` (google-genai crashes on the boolean) while rypsok still refuses
unknown arguments. Meaning: the error envelope and real responses validate under JSON
Schema 2020-12, and a payload of neither shape does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from rypsok import Client, errors
from rypsok.config import Config, config_from_dict
from rypsok.engines.registry import ENGINE_IDS
from rypsok.server import tool_list
from tests.conftest import make_config
from tests.engine_servers import json_play
from tests.fetch_servers import Site, html, robots, running
from tests.mcp_harness import SPEC_NOTICES, session, structured, write_toml

pytestmark = pytest.mark.anyio

CONFIGS = {
    "default": {},
    "two languages": {"search": {"languages": ["de", "en"]}},
    "no engine_status": {"status": {"enabled": False}},
    "no engine": {"engines": {engine_id: {"enabled": False} for engine_id in ENGINE_IDS}},
}


def schemas_of(config: Config) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each listed tool's (input schema, output schema), as tools/list sends them."""
    return {tool.name: (tool.input_schema, tool.output_schema) for tool in tool_list(config)}


def every_schema() -> Iterator[tuple[str, dict[str, Any]]]:
    for label, data in CONFIGS.items():
        for name, (input_schema, output_schema) in schemas_of(
            config_from_dict(data, env={})
        ).items():
            yield f"{label}/{name}/input", input_schema
            yield f"{label}/{name}/output", output_schema


def subschemas(schema: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object inside ``schema``, with its JSON pointer."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for keyword in ("properties", "$defs"):
        for name, sub in schema.get(keyword, {}).items():
            yield from subschemas(sub, f"{path}/{keyword}/{name}")
    for keyword in ("items", "not", "additionalProperties"):
        yield from subschemas(schema.get(keyword), f"{path}/{keyword}")
    for keyword in ("oneOf", "anyOf", "allOf"):
        for i, sub in enumerate(schema.get(keyword, [])):
            yield from subschemas(sub, f"{path}/{keyword}/{i}")


SCHEMAS = dict(every_schema())


@pytest.mark.parametrize("label", sorted(SCHEMAS))
def test_a_type_array_is_one_type_and_null_beside_an_any_of_of_the_same(label):
    for path, schema in subschemas(SCHEMAS[label]):
        if isinstance(schema.get("type"), list):
            kind, null = schema["type"]
            assert null == "null" and kind != "null", f"{label} {path}"
            typed, untyped = schema["anyOf"]
            assert typed["type"] == kind and untyped == {"type": "null"}, f"{label} {path}"


@pytest.mark.parametrize("label", sorted(SCHEMAS))
def test_every_required_name_is_defined_in_the_same_schema_object(label):
    for path, schema in subschemas(SCHEMAS[label]):
        missing = set(schema.get("required", [])) - set(schema.get("properties", {}))
        assert not missing, f"{label} {path}: required {sorted(missing)} not defined there"


@pytest.mark.parametrize("label", sorted(SCHEMAS))
def test_every_property_has_a_type_or_an_any_of_of_types(label):
    for path, schema in subschemas(SCHEMAS[label]):
        for name, sub in schema.get("properties", {}).items():
            where = f"{label} {path}/properties/{name}"
            if "anyOf" in sub:
                assert all("type" in branch for branch in sub["anyOf"]), where
            else:
                assert isinstance(sub.get("type"), str), where


INPUTS = {label: schema for label, schema in SCHEMAS.items() if label.endswith("/input")}


@pytest.mark.parametrize("label", sorted(INPUTS))
def test_every_input_property_has_a_type_at_its_top(label):
    """smolagents' adapter (mcpadapt) reads a property without ``type`` as a string, and
    smolagents then refuses ``max_results: 5``."""
    schema = INPUTS[label]
    for name, prop in schema["properties"].items():
        assert "type" in prop, f"{label} {name}"
        if name in schema.get("required", []):
            assert isinstance(prop["type"], str) and "anyOf" not in prop, f"{label} {name}"


@pytest.mark.parametrize("label", sorted(INPUTS))
def test_optional_arguments_are_a_type_array_and_an_any_of_with_null(label):
    """LlamaIndex builds ``Optional[int]`` from the ``anyOf`` (and takes only the first type
    of an array); smolagents, google-genai and the strict converters read the array."""
    schema = INPUTS[label]
    optional = [name for name in schema["properties"] if name not in schema.get("required", [])]
    assert optional or "engine_status" in label
    for name in optional:
        prop = schema["properties"][name]
        typed = prop["anyOf"][0]
        assert prop["type"] == [typed["type"], "null"], f"{label} {name}"
        assert prop["anyOf"] == [typed, {"type": "null"}], f"{label} {name}"
        assert typed["description"] == prop["description"], f"{label} {name}"
        assert "enum" not in prop and "minimum" not in prop, f"{label} {name}"


@pytest.mark.parametrize("label", sorted(INPUTS))
def test_input_schemas_advertise_no_additional_properties(label):
    """google-genai's ``mcp_to_gemini_tool`` crashes on ``additionalProperties: false``
    (googleapis/python-genai#2393); the refusal is rypsok's (the next test)."""
    for path, schema in subschemas(INPUTS[label]):
        assert "additionalProperties" not in schema, f"{label} {path}"


def test_optional_integers_validate_as_integers_and_null_and_nothing_else():
    schema = INPUTS["default/web_search/input"]
    validator = jsonschema.Draft202012Validator(schema)
    for value in (5, None):
        assert validator.is_valid({"query": "x", "max_results": value})
        assert validator.is_valid({"query": "x", "time_range": value and "day"})
    for value in ("5", 5.5, 0, 21, True):
        assert not validator.is_valid({"query": "x", "max_results": value}), value
    assert not validator.is_valid({"query": "x", "time_range": "decade"})


async def test_unknown_arguments_are_still_refused_through_the_mcp_client(tmp_path):
    path = write_toml({}, tmp_path / "rypsok.toml")
    async with session(path) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        for name, arguments in [
            ("web_search", {"query": "x", "max_results": 5, "colour": "red"}),
            ("engine_status", {"colour": "red"}),
            ("web_fetch", {"url": "https://example.org/", "colour": "red"}),
        ]:
            assert "additionalProperties" not in tools[name].input_schema
            payload = structured(await client.call_tool(name, arguments))
            assert payload == {
                "error": {
                    "kind": "invalid_request",
                    "message": "unknown parameter 'colour'; remove it",
                    "detail": {
                        "parameter": "colour",
                        "allowed": list(tools[name].input_schema["properties"]),
                    },
                }
            }, name


@pytest.mark.parametrize("label", sorted(SCHEMAS))
def test_every_enum_offers_at_least_one_value(label):
    """Ajv (the TypeScript SDK's validator) refuses a schema with an empty ``enum``: with no
    engine enabled, web_search offers no ``category`` rather than an empty choice."""
    for path, sub in subschemas(SCHEMAS[label]):
        assert sub.get("enum", ["a value"]), f"{label}{path}"
    if label == "no engine/web_search/input":
        assert "category" not in SCHEMAS[label]["properties"]


@pytest.mark.parametrize("label", sorted(SCHEMAS))
def test_every_schema_is_valid_json_schema_2020_12(label):
    jsonschema.Draft202012Validator.check_schema(SCHEMAS[label])


OUTPUT_SCHEMAS = schemas_of(config_from_dict({}, env={}))
ENVELOPES = [
    errors.out_of_range("max_results", 1, 20),
    errors.unknown_parameter("\u200b" * 29, ["query"]),
    errors.secret_in_url("github_token", 8),
    errors.http_status(503, 7000),
    errors.redirected("https://example.org/moved"),
    errors.unsupported_media_type("application/pdf"),
    errors.too_large(5 * 2**20),
    errors.internal(),
    errors.ToolError("unavailable", "no detail"),
]


@pytest.mark.parametrize("tool", sorted(OUTPUT_SCHEMAS))
def test_every_output_schema_accepts_the_error_envelope_and_only_one_shape(tool):
    validator = jsonschema.Draft202012Validator(OUTPUT_SCHEMAS[tool][1])
    for error in ENVELOPES:
        validator.validate(error.to_json())
    envelope = ENVELOPES[0].to_json()
    validator.validate({"error": {**envelope["error"], "detail": None}})
    refused = [
        {},
        {"outcome": "ok"},
        {"error": {"kind": "internal", "message": "m", "detail": {}}},
        {"error": {"kind": "denied", "message": "m" * 201, "detail": {}}},
        {"error": {"kind": "denied", "message": "m", "detail": []}},
    ]
    for payload in refused:
        assert not validator.is_valid(payload), (tool, payload)


async def test_real_responses_validate_and_an_error_beside_one_does_not(engines):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    site = Site("127.0.0.2")
    site.route("/robots.txt", robots("User-agent: *\nAllow: /\n"))
    site.route("/page", html("<h1>Heading</h1>" + "<p>Some words here.</p>" * 200, "A page"))
    with running(site):
        config = make_config(
            engines,
            {"github", "stackexchange"},
            search={"attribution": True},
            fetch={"allow_http": True, "allow_networks": ["127.0.0.2/32"], "ports": [site.port]},
        )
        async with Client(config) as client:
            responses = {
                "web_search": await client.search("asyncio", category="code", max_results=3),
                "engine_status": await client.engine_status(),
                "web_fetch": await client.fetch(
                    f"http://127.0.0.2:{site.port}/page", max_chars=500
                ),
            }
    schemas = schemas_of(config)
    for tool, response in responses.items():
        payload = response.to_json()
        validator = jsonschema.Draft202012Validator(schemas[tool][1])
        validator.validate(payload)
        assert not validator.is_valid({**payload, **ENVELOPES[0].to_json()}), tool
    assert responses["web_fetch"].truncated is True
    assert responses["web_fetch"].next_start_char == 500
    assert all(result.engines for result in responses["web_search"].results)


def test_notices_in_every_output_schema_come_from_the_spec_s_vocabularies():
    """tools.md: a notice's code, engine and reason are "all from fixed vocabularies"."""
    spec_reasons = set().union(*(reasons for _, reasons in SPEC_NOTICES.values()))
    for label, schema in SCHEMAS.items():
        if not label.endswith("/output"):
            continue
        notice = schema["properties"]["notices"]["items"]
        properties = notice["properties"]
        assert set(properties["code"]["enum"]) == set(SPEC_NOTICES), label
        assert set(properties["reason"]["enum"]) == spec_reasons, label
        assert properties["engine"]["enum"] == list(ENGINE_IDS), label
        assert properties["count"] == {"type": "integer", "minimum": 1}, label
        assert notice["required"] == ["code"] and notice["additionalProperties"] is False
