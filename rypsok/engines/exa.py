"""Exa Search API.

Documented at https://exa.ai/docs/reference/search (request: ``query``, ``type``,
``numResults``, ``category``, ``startPublishedDate``, ``contents``; response:
``results[]`` with ``title``, ``url``, ``publishedDate``, ``score``, ``text``,
``highlights``), https://exa.ai/docs/reference/error-codes (a JSON body with
``requestId``, ``error`` and ``tag``; 402 when credits or the key's budget are spent) and
https://exa.ai/docs/reference/rate-limits (``/search``: 10 queries a second).

Choices:

- ``POST /search`` with a JSON body; ``x-api-key`` carries ``EXA_API_KEY``; the engine is
  not offered without it.
- ``type`` is ``auto``; ``numResults`` is ``search.max_results`` up to 25, the most one
  base-priced request returns.
- ``category``: ``news`` for news, ``research paper`` for science; none for general.
- ``startPublishedDate`` is the start of the time range (ISO 8601, UTC); Exa has no
  language parameter.
- The snippet is the first highlights, asked for with ``maxCharacters`` 300 (rypsok's
  snippet bound), else ``text``, else ``summary``; ``publishedDate`` is the date; results
  are put in ``score`` order when Exa gives scores.
- ``rate_per_minute`` is 600 (10 a second); ``query_limit`` is rypsok's 400 characters
  (Exa documents none).
- 401 and 403 are ``auth_failure``; 429 and 402 (``NO_MORE_CREDITS``,
  ``API_KEY_BUDGET_EXCEEDED``) ``rate_limited``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _keyed
from .base import (
    TIME_RANGES,
    EngineFailure,
    EngineInfo,
    EngineSearch,
    QueryLimit,
    RawResult,
    endpoint_url,
    http_request,
    string_field,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="exa",
    categories=frozenset({"general", "news", "science"}),
    default_endpoint="https://api.exa.ai",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset(),
    query_limit=QueryLimit(400),
    credential_env="EXA_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=600,
    docs="https://exa.ai/docs/reference/search",
    listed_without_credential=False,
)

_MAX_RESULTS = 25
_PLAN_LIMITS = frozenset({402})
_CATEGORIES = {"news": "news", "science": "research paper"}
_HIGHLIGHT_CHARACTERS = 300


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> httpx.Request:
    body: dict[str, Any] = {
        "query": search.query,
        "type": "auto",
        "numResults": min(search.max_results, _MAX_RESULTS),
        "contents": {"highlights": {"maxCharacters": _HIGHLIGHT_CHARACTERS}},
    }
    category = _CATEGORIES.get(search.category)
    if category is not None:
        body["category"] = category
    since = search.since()
    if since is not None:
        body["startPublishedDate"] = since.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    if credential:
        headers["x-api-key"] = credential
    return http_request("POST", endpoint_url(endpoint, "/search"), json=body, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    found = _keyed.answer_items(
        status, headers, body, plan_limits=_PLAN_LIMITS, key="results", error=_error_message
    )
    if isinstance(found, EngineFailure):
        return found
    scored = [
        (result, item.get("score"))
        for item in found
        if (result := _keyed.read_result(item, search.now, snippet=_snippet, date="publishedDate"))
    ]
    return _keyed.by_score(scored)[: search.max_results]


def _error_message(document: dict[str, Any]) -> Any:
    """Exa's ``{"requestId", "error", "tag"}``; None when the answer has no error."""
    return document.get("error") or None


def _snippet(item: dict[str, Any]) -> str:
    highlights = item.get("highlights")
    if isinstance(highlights, list):
        joined = " … ".join(part.strip() for part in highlights if isinstance(part, str))
        if joined.strip():
            return joined
    for name in ("text", "summary"):
        text = string_field(item.get(name)).strip()
        if text:
            return text
    return ""
