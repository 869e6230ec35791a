"""Checking a tool's arguments against its input schema, with the spec's error for each miss.

Shared by the MCP server (arguments as a JSON object) and the library (keyword
arguments), so both refuse the same input with the same words. An absent argument takes its
default, and so does an optional argument sent as JSON null: agent frameworks send null for
"not given" (LlamaIndex), and strict schema conversions (openai-agents) make a model send
every property, null where it means none. A required argument sent as null is refused as a
value of the wrong type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rypsok import bounds, errors, schemas
from rypsok.config import Config
from rypsok.engines.base import CATEGORIES, TIME_RANGES

if TYPE_CHECKING:
    from rypsok.net.url import FetchURL


@dataclass(frozen=True)
class SearchRequest:
    query: str
    """Trimmed."""
    raw_query: str
    """As the caller sent it: secret positions are counted in this string."""
    category: str
    max_results: int
    language: str | None
    """None when the caller did not name one (the default language is asked)."""
    time_range: str | None


@dataclass(frozen=True)
class FetchRequest:
    url: str
    max_chars: int
    start_char: int


ALSO_ACCEPTED = ("language", "category")
"""Accepted though the schema may not list them: with one configured language the schema has no
``language``, and a call naming that language is still answered (docs/tools.md); with no engine
enabled it has no ``category``, and a call naming one is answered unavailable no_engine."""


def _given(
    arguments: dict[str, Any], schema: dict[str, Any], also_accepted: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The arguments a call gave: an argument the input schema does not define is refused,
    listing exactly the schema's properties as ``allowed``; an optional one that is null is
    left out, so that it takes its default."""
    listed = list(schema["properties"])
    for name in arguments:
        if name not in listed and name not in also_accepted:
            raise errors.unknown_parameter(str(name), listed)
    required = schema.get("required", [])
    return {
        name: value for name, value in arguments.items() if value is not None or name in required
    }


def _integer(name: str, value: Any, minimum: int, maximum: int) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.ToolError(
            "invalid_request",
            f"{name} must be an integer between {minimum} and {maximum}",
            {"parameter": name, "min": minimum, "max": maximum},
        )
    if not minimum <= value <= maximum:
        raise errors.out_of_range(name, minimum, maximum)
    return value


def _shows_nothing(query: str) -> bool:
    """A query of only invisible characters and white space (U+200B, controls, tag
    characters ...) is empty after trimming: engines would be asked for nothing. Printable
    ASCII always shows something; other text is judged by the sanitizer's rule, loaded only
    then (the server lists its tools without it)."""
    if query.isascii() and query.isprintable():
        return False
    from rypsok.hygiene.text import shows_nothing

    return shows_nothing(query)


def is_unicode(text: str) -> bool:
    """Whether ``text`` holds no lone surrogate (UTF-8 can encode it); JSON can escape
    one, and a Python string can hold one."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def search_request(arguments: dict[str, Any], config: Config) -> SearchRequest:
    arguments = _given(arguments, schemas.search_input(config), ALSO_ACCEPTED)
    if "query" not in arguments:
        raise errors.missing_parameter(
            "query", bounds.MIN_QUERY_CHARS, config.search.max_query_chars
        )
    raw_query = arguments["query"]
    limit = config.search.max_query_chars
    if not isinstance(raw_query, str):
        raise errors.query_length(bounds.MIN_QUERY_CHARS, limit, given_text=False)
    if not is_unicode(raw_query):
        raise errors.query_not_unicode(bounds.MIN_QUERY_CHARS, limit)
    query = raw_query.strip()
    if not bounds.MIN_QUERY_CHARS <= len(query) <= limit or _shows_nothing(query):
        raise errors.query_length(bounds.MIN_QUERY_CHARS, limit)

    served = config.served_categories()
    category = arguments.get("category", bounds.default_category(served))
    if not served and category in CATEGORIES:
        raise errors.no_engine_enabled()
    if not isinstance(category, str) or category not in served:
        raise errors.not_allowed("category", served)

    max_results = _integer(
        "max_results",
        arguments.get("max_results", bounds.default_max_results(config.search.max_results)),
        bounds.MIN_MAX_RESULTS,
        config.search.max_results,
    )

    languages = list(config.search.languages)
    language = arguments.get("language")
    if "language" in arguments and (not isinstance(language, str) or language not in languages):
        raise errors.not_allowed("language", languages)

    time_range = arguments.get("time_range")
    if "time_range" in arguments and (
        not isinstance(time_range, str) or time_range not in TIME_RANGES
    ):
        raise errors.not_allowed("time_range", list(TIME_RANGES))

    return SearchRequest(query, raw_query, category, max_results, language, time_range)


def fetch_request(arguments: dict[str, Any], config: Config) -> FetchRequest:
    arguments = _given(arguments, schemas.fetch_input(config))
    if "url" not in arguments:
        raise errors.missing_parameter("url", bounds.MIN_URL_CHARS, bounds.MAX_URL_CHARS)
    url = arguments["url"]
    ceiling = config.fetch.max_chars
    _, max_chars, start_char = fetch_arguments(
        url,
        arguments.get("max_chars", bounds.default_max_chars(ceiling)),
        arguments.get("start_char", bounds.MIN_START_CHAR),
        ceiling,
    )
    return FetchRequest(url, max_chars, start_char)


def fetch_arguments(
    url: Any, max_chars: Any, start_char: Any, max_chars_ceiling: int
) -> tuple[FetchURL, int, int]:
    """web_fetch's three arguments checked, the URL read: ``(url, max_chars, start_char)``.

    URL length and syntax come before the numbers, as in DECISIONS.md's order of checks.
    :meth:`rypsok.webfetch.fetcher.Fetcher.fetch` calls this too, for its own callers.
    """
    if not isinstance(url, str) or not url:
        raise errors.wrong_type(
            "url", "a non-empty string", bounds.MIN_URL_CHARS, bounds.MAX_URL_CHARS
        )
    from rypsok.net.url import URLError, read_url  # at the first fetch: tools/list needs none

    try:
        target = read_url(url)
    except URLError as error:
        raise errors.url_unreadable(error) from None
    max_chars = _integer("max_chars", max_chars, bounds.MIN_MAX_CHARS, max_chars_ceiling)
    start_char = _integer("start_char", start_char, bounds.MIN_START_CHAR, bounds.MAX_START_CHAR)
    return target, max_chars, start_char


def status_request(arguments: dict[str, Any]) -> None:
    _given(arguments, schemas.STATUS_INPUT)
