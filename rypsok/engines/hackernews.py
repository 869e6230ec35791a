"""Hacker News stories through the HN Search API (Algolia), ``/api/v1/search`` (JSON).

Docs: https://hn.algolia.com/api (parameters, 10,000 requests per hour per IP) and
https://www.algolia.com/doc/api-reference/api-parameters/query (a query is at most 512 bytes).

Relevance order; ``time_range`` becomes ``numericFilters=created_at_i>EPOCH``.
Text posts (Ask HN) have no ``url`` and link to their discussion page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import (
    TIME_RANGES,
    EngineFailure,
    EngineInfo,
    EngineRequest,
    EngineSearch,
    QueryLimit,
    RawResult,
    endpoint_url,
    failure_for_status,
    http_request,
    iso_date,
    load_json,
    strip_html,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="hackernews",
    categories=frozenset({"news"}),
    default_endpoint="https://hn.algolia.com",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset(),
    query_limit=QueryLimit(512, "bytes"),
    credential_env=None,
    credential_required=False,
    attribution=False,
    rate_per_minute=166,
    docs="https://hn.algolia.com/api",
)
"""query_limit: Algolia takes query strings of up to 512 bytes (UTF-8), so a 400-character
English query passes and 200 CJK characters (600 bytes) do not
(https://www.algolia.com/doc/api-reference/api-parameters/query)."""

_PATH = "/api/v1/search"
_MAX_HITS = 1000
_ITEM_URL = "https://news.ycombinator.com/item?id={}"


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    params = {
        "query": search.query,
        "tags": "story",
        "hitsPerPage": str(max(1, min(search.max_results, _MAX_HITS))),
    }
    since = search.since()
    if since is not None:
        params["numericFilters"] = f"created_at_i>{int(since.timestamp())}"
    headers = {"User-Agent": search.user_agent, "Accept": "application/json"}
    return http_request("GET", endpoint_url(endpoint, _PATH), params=params, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    failure = failure_for_status(status, headers)
    if failure is not None:
        return failure
    try:
        data = load_json(body)
    except ValueError:
        return EngineFailure("parse_failure")
    hits = data.get("hits") if isinstance(data, dict) else None
    if not isinstance(hits, list):
        return EngineFailure("parse_failure")
    results = []
    for hit in hits:
        if not isinstance(hit, dict):
            continue
        title = hit.get("title")
        object_id = hit.get("objectID")
        if not isinstance(title, str) or not object_id:
            continue
        url = hit.get("url") or _ITEM_URL.format(object_id)
        results.append(
            RawResult(
                title=title,
                url=url,
                snippet=strip_html(hit.get("story_text")),
                date=iso_date(hit.get("created_at_i")) or iso_date(hit.get("created_at")),
            )
        )
    return results
