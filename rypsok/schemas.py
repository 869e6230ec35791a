"""The tools' input and output schemas, built from the configuration.

The ``category`` enum lists only served categories, ``language`` is present only
when more than one language is configured, and every output schema also admits
the error envelope (strict clients validate error results against it too).

Input schemas are written for every agent framework's own MCP adapter (the matrix is
bench/schema_portability.py, docs/install.md): an optional argument is a type array with
null (``"type": ["integer", "null"]``, null in its ``enum`` too), not ``anyOf``, since
smolagents' adapter reads a property without a top-level ``type`` as a string; no
``additionalProperties`` is advertised on an input schema, since google-genai's MCP
conversion crashes on the boolean (rypsok still refuses unknown arguments, validate.py);
every bound is written into the description too (converters drop ``minimum``/``maxLength``
and the like). Output schemas keep ``anyOf`` for a nullable field and
``additionalProperties: false``, and each ``oneOf`` branch defines the properties it
requires (Ajv's strict mode refuses a ``required`` name its own schema object does not
define). bench/schema_portability.py compiles them with Ajv in strict mode.
"""

from __future__ import annotations

from typing import Any, get_args

from rypsok import bounds
from rypsok.config import Config
from rypsok.engines.base import TIME_RANGES, FailureReason
from rypsok.engines.registry import ENGINE_IDS

NOTICE_CODES = [
    "engine_unavailable",
    "engine_skipped",
    "snippet_truncated",
    "title_truncated",
    "characters_removed",
    "instruction_like_content",
    "results_dropped",
    "credential_masked",
    "from_cache",
    "extraction_partial",
]
NOTICE_REASONS: dict[str, tuple[str, ...]] = {
    "engine_unavailable": get_args(FailureReason),
    "engine_skipped": ("time_range", "language", "query_too_long", "cooldown", "rate_limited"),
    "results_dropped": ("instruction_like_content", "url_too_long", "url_invalid"),
}
"""The codes that carry a reason, and each one's reasons (tools.md: notices come "all from
fixed vocabularies")."""
ERROR_KINDS = [
    "invalid_request",
    "denied",
    "unavailable",
    "redirected",
    "unsupported_content",
    "too_large",
]

NOTICE = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "enum": NOTICE_CODES},
        "engine": {"type": "string", "enum": list(ENGINE_IDS)},
        "reason": {
            "type": "string",
            "enum": sorted({r for rs in NOTICE_REASONS.values() for r in rs}),
        },
        "count": {"type": "integer", "minimum": 1},
    },
    "required": ["code"],
    "additionalProperties": False,
}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null, spelled so that single-type schema converters can read it."""
    return {"anyOf": [schema, {"type": "null"}]}


ERROR = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ERROR_KINDS},
        "message": {"type": "string", "maxLength": bounds.MAX_MESSAGE_CHARS},
        "detail": nullable({"type": "object"}),
    },
    "required": ["kind", "message", "detail"],
    "additionalProperties": False,
}


def _shape(schema: dict[str, Any]) -> dict[str, Any]:
    """Only the type of ``schema``: what a ``oneOf`` branch restates of a property it requires
    (the full definition is at the top, where it validates the value)."""
    if "anyOf" in schema:
        return {"anyOf": [_shape(branch) for branch in schema["anyOf"]]}
    return {"type": schema["type"]}


def _output(success: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """Every field at the top (for clients that read ``properties``), and one ``oneOf``
    branch for a response and one for the error envelope, each defining what it requires."""

    def branch(fields: dict[str, Any], names: list[str]) -> dict[str, Any]:
        properties = {name: _shape(fields[name]) for name in names}
        return {"type": "object", "properties": properties, "required": names}

    return {
        "type": "object",
        "properties": {**success, "error": ERROR},
        "oneOf": [branch(success, required), branch({"error": ERROR}, ["error"])],
    }


def _describe(
    meaning: str, between: tuple[int, int] | None = None, unit: str = "", when_null: str = ""
) -> str:
    """A parameter's description: what it means, its range (several converters drop
    ``minimum``/``maximum``/``minLength``/``maxLength``, so the range is written here too),
    and what a null or absent value stands for."""
    parts = [meaning]
    if between is not None:
        parts.append(f"{between[0]} to {between[1]}{unit}")
    if when_null:
        parts.append(f"null or left out: {when_null}")
    return "; ".join(parts) + "."


def _optional(schema: dict[str, Any], default: Any = None) -> dict[str, Any]:
    """An optional argument: ``schema`` or null, null taken as left out. Strict converters
    (openai-agents, LangChain's strict) make every property required, so null is how a
    model says "not given".

    Both spellings of "or null", as each adapter reads one: ``anyOf`` (LlamaIndex builds
    ``Optional[int]`` from it, and reads only the first type of a type array) and a type
    array beside it (smolagents' adapter reads a property without ``type`` as a string, then
    refuses an integer). The description stands beside the ``anyOf`` (where clients read
    it) and inside the typed branch (google-genai keeps only that branch's)."""
    optional: dict[str, Any] = {
        "type": [schema["type"], "null"],
        "anyOf": [schema, {"type": "null"}],
    }
    if default is not None:
        optional["default"] = default
    optional["description"] = schema["description"]
    return optional


def search_input(config: Config) -> dict[str, Any]:
    query_chars = (bounds.MIN_QUERY_CHARS, config.search.max_query_chars)
    results = (bounds.MIN_MAX_RESULTS, config.search.max_results)
    default_results = bounds.default_max_results(config.search.max_results)
    properties: dict[str, Any] = {
        "query": {
            "type": "string",
            "minLength": query_chars[0],
            "maxLength": query_chars[1],
            "description": _describe(
                "What to search for", query_chars, " characters after trimming"
            ),
        },
    }
    served = config.served_categories()
    if served:  # an empty enum is not valid JSON Schema (Ajv refuses it): no engine, no category
        properties["category"] = _optional(
            {
                "type": "string",
                "enum": served,
                "description": _describe(
                    "Which kind of engines to ask", when_null=bounds.default_category(served)
                ),
            },
            bounds.default_category(served),
        )
    properties["max_results"] = _optional(
        {
            "type": "integer",
            "minimum": results[0],
            "maximum": results[1],
            "description": _describe(
                "How many results to return at most", results, when_null=str(default_results)
            ),
        },
        default_results,
    )
    if len(config.search.languages) > 1:
        properties["language"] = _optional(
            {
                "type": "string",
                "enum": list(config.search.languages),
                "description": _describe(
                    "Which language the results should be in", when_null=config.default_language
                ),
            },
            config.default_language,
        )
    properties["time_range"] = _optional(
        {
            "type": "string",
            "enum": list(TIME_RANGES),
            "description": _describe(
                "Only results from this period; engines that cannot honour it are skipped",
                when_null="no time filter",
            ),
        }
    )
    return {
        "type": "object",
        "properties": properties,
        "required": ["query"],
    }


def search_output() -> dict[str, Any]:
    result = {
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": bounds.MAX_TITLE_CHARS},
            "url": {"type": "string", "maxLength": bounds.MAX_URL_CHARS},
            "snippet": {"type": "string", "maxLength": bounds.MAX_SNIPPET_CHARS},
            "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
            "engines": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["title", "url", "snippet"],
        "additionalProperties": False,
    }
    return _output(
        {
            "outcome": {"type": "string", "enum": ["ok", "partial", "empty"]},
            "notices": {"type": "array", "items": NOTICE},
            "results": {"type": "array", "items": result},
        },
        ["outcome", "notices", "results"],
    )


STATUS_INPUT = {"type": "object", "properties": {}}
"""Input schemas advertise no ``additionalProperties``: google-genai's MCP conversion crashes
on the boolean (googleapis/python-genai#2393); validate.py refuses unknown arguments."""


def status_output() -> dict[str, Any]:
    engine = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "state": {"type": "string", "enum": ["disabled", "closed", "open", "half_open"]},
            "latency_ms": nullable({"type": "integer", "minimum": 0}),
            "reason": {"type": "string", "enum": ["disabled", "no_credential"]},
        },
        "required": ["id", "state", "latency_ms"],
        "additionalProperties": False,
    }
    return _output(
        {
            "outcome": {"type": "string", "enum": ["ok"]},
            "notices": {"type": "array", "items": NOTICE},
            "engines": {"type": "array", "items": engine},
        },
        ["outcome", "notices", "engines"],
    )


def fetch_input(config: Config) -> dict[str, Any]:
    url_chars = (bounds.MIN_URL_CHARS, bounds.MAX_URL_CHARS)
    chars = (bounds.MIN_MAX_CHARS, config.fetch.max_chars)
    default_chars = bounds.default_max_chars(config.fetch.max_chars)
    start = (bounds.MIN_START_CHAR, bounds.MAX_START_CHAR)
    return {
        "type": "object",
        "properties": {
            "url": {
                "type": "string",
                "minLength": url_chars[0],
                "maxLength": url_chars[1],
                "description": _describe(
                    "The page to read (https; http is tried over https)", url_chars, " characters"
                ),
            },
            "max_chars": _optional(
                {
                    "type": "integer",
                    "minimum": chars[0],
                    "maximum": chars[1],
                    "description": _describe(
                        "How many characters of content to return at most",
                        chars,
                        when_null=str(default_chars),
                    ),
                },
                default_chars,
            ),
            "start_char": _optional(
                {
                    "type": "integer",
                    "minimum": start[0],
                    "maximum": start[1],
                    "description": _describe(
                        "Where to continue: next_start_char of the previous call",
                        start,
                        when_null=str(start[0]),
                    ),
                },
                start[0],
            ),
        },
        "required": ["url"],
    }


def fetch_output() -> dict[str, Any]:
    return _output(
        {
            "outcome": {"type": "string", "enum": ["ok"]},
            "notices": {"type": "array", "items": NOTICE},
            "url": {"type": "string"},
            "title": {"type": "string", "maxLength": bounds.MAX_TITLE_CHARS},
            "content": {"type": "string"},
            "truncated": {"type": "boolean"},
            "next_start_char": {"type": "integer", "minimum": 1},
        },
        ["outcome", "notices", "url", "title", "content", "truncated"],
    )
