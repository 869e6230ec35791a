"""Exa Search API.

Documented at https://exa.ai/docs/reference/search (request: ``query``, ``type``,
``numResults``, ``category``, ``startPublishedDate``, ``contents``; response:
``results[]`` with ``title``, ``url``, ``publishedDate``, ``text``, ``highlights``, and
``costDollars``), https://exa.ai/docs/search/highlights (``highlights: true`` is the
recommended default: Exa sizes each result's passages to the query; 500 characters of
highlights match the first 8,000 of page text), https://exa.ai/docs/reference/error-codes
(a JSON body with ``requestId``, ``error`` and ``tag``; 401 a missing or invalid key;
402 credits or the key's budget spent; 403 a valid key without the permission, or
content blocked by robots.txt or content moderation) and
https://exa.ai/docs/reference/rate-limits (``/search``: 10 queries a second). The
categories are the official SDKs' (exa-js ``src/index.ts``: company, publication, news,
personal site, financial report, people; exa-py 2.16.2 "update Category values",
2026-07-27): ``research paper`` is no longer one of them.

Choices:

- ``POST /search`` with a JSON body; ``x-api-key`` carries ``EXA_API_KEY``; the engine is
  not offered without it.
- ``type`` is ``auto``; ``numResults`` is ``search.max_results`` up to 25, the most one
  base-priced request returns.
- ``category``: ``news`` for news, ``publication`` for science; none for general.
- ``startPublishedDate`` is the start of the time range (ISO 8601, UTC); Exa has no
  language parameter.
- The snippet is the highlights, asked for as ``highlights: true`` (Exa's advice, not a
  short ``maxCharacters``) and cut to rypsok's snippet bound here, else ``text``, else
  ``summary``; ``publishedDate`` is the date. Results keep Exa's order: the per-result
  ``score`` is not returned for the default search type and is not read.
- ``costDollars.total`` is what the call cost, in US dollars.
- ``rate_per_minute`` is 600 (10 a second); ``query_limit`` is rypsok's 400 characters
  (Exa documents none).
- 401 is ``auth_failure``, and so is a 403 for the key's permissions (``ACCESS_DENIED``,
  ``FEATURE_DISABLED``, no tag, or a message that names the key); a 403 whose tag names
  robots.txt or moderation, or any other, is the query refused, ``request_failure``. 429 is ``rate_limited``; 402
  (``NO_MORE_CREDITS``, ``API_KEY_BUDGET_EXCEEDED``) ``rate_limited`` and spent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rypsok.bounds import MAX_SNIPPET_CHARS

from . import _keyed
from .base import (
    TIME_RANGES,
    EngineFailure,
    EngineInfo,
    EngineRequest,
    EngineSearch,
    QueryLimit,
    RawResult,
    Reading,
    Usage,
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
    cost_unit="usd",
)

_MAX_RESULTS = 25
_PLAN_LIMITS = frozenset({402})
_CATEGORIES = {"news": "news", "science": "publication"}
_KEY_TAGS = frozenset({"ACCESS_DENIED", "FEATURE_DISABLED", "INVALID_API_KEY"})
"""403 tags about the key's rights."""
_QUERY_TAG_WORDS = ("ROBOT", "MODERAT", "CONTENT", "POLICY", "PROHIBIT")
"""What a 403 tag that refuses the query (robots.txt, content moderation) says."""


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    body: dict[str, Any] = {
        "query": search.query,
        "type": "auto",
        "numResults": min(search.max_results, _MAX_RESULTS),
        "contents": {"highlights": True},
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
    return read(status, headers, body, search).answer


def read(status: int, headers: httpx.Headers, body: bytes, search: EngineSearch) -> Reading:
    document = _keyed.json_object(body)
    return Reading(_answer(status, headers, document, search), _usage(document))


def _answer(
    status: int, headers: httpx.Headers, document: dict[str, Any] | None, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    if status == 403 and not _refuses_the_key(document):
        return EngineFailure("request_failure")
    found = _keyed.answer_items(
        status, headers, document, plan_limits=_PLAN_LIMITS, key="results", error=_error_message
    )
    if isinstance(found, EngineFailure):
        return found
    results = [
        result
        for item in found
        if (result := _keyed.read_result(item, search.now, snippet=_snippet, date="publishedDate"))
    ]
    return results[: search.max_results]


def _usage(document: dict[str, Any] | None) -> Usage | None:
    """``costDollars.total``, what the call cost in US dollars."""
    cost = document.get("costDollars") if document is not None else None
    total = _keyed.number(cost.get("total")) if isinstance(cost, dict) else None
    return None if total is None else Usage("usd", cost=total)


def _refuses_the_key(document: dict[str, Any] | None) -> bool:
    """Whether a 403 is about the key: no JSON error tag, a tag about its rights, or another
    tag whose message names the key; a robots.txt or moderation tag refuses the query."""
    tag = document.get("tag") if document is not None else None
    if not isinstance(tag, str) or not tag or tag.upper() in _KEY_TAGS:
        return True
    if any(word in tag.upper() for word in _QUERY_TAG_WORDS):
        return False
    return _keyed.names_the_key(document.get("error") if document is not None else None)


def _error_message(document: dict[str, Any]) -> Any:
    """Exa's ``{"requestId", "error", "tag"}``; None when the answer has no error."""
    return document.get("error") or None


def _snippet(item: dict[str, Any]) -> str:
    """The highlights joined, else ``text``, else ``summary``, cut to the snippet bound
    (highlights sized by Exa may run to thousands of characters). The cutter is imported
    here, not at the top: the engine modules are listed at tools/list, the sanitizer is not."""
    from rypsok.hygiene.text import cut

    highlights = item.get("highlights")
    if isinstance(highlights, list):
        joined = " … ".join(part.strip() for part in highlights if isinstance(part, str))
        if joined.strip():
            return cut(joined, MAX_SNIPPET_CHARS)
    for name in ("text", "summary"):
        text = string_field(item.get(name)).strip()
        if text:
            return cut(text, MAX_SNIPPET_CHARS)
    return ""
