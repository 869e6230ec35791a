"""GitHub repositories through the REST API, ``GET /search/repositories`` (JSON).

Docs: https://docs.github.com/en/rest/search/search#search-repositories (parameters,
256-character query limit, response) and
https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api
(10 searches per minute without a token, 30 with one; 403/429 with
``x-ratelimit-remaining: 0`` or a "secondary rate limit" message).

``time_range`` becomes a ``pushed:>=YYYY-MM-DD`` qualifier; ``date`` is ``pushed_at``.
"""

from __future__ import annotations

import datetime as dt
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
    retry_after_seconds,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="github",
    categories=frozenset({"code"}),
    default_endpoint="https://api.github.com",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset(),
    query_limit=QueryLimit(256),
    credential_env="GITHUB_TOKEN",
    credential_required=False,
    attribution=False,
    rate_per_minute=10,
    docs="https://docs.github.com/en/rest/search/search#search-repositories",
)

_PATH = "/search/repositories"
_MAX_PER_PAGE = 100
_API_VERSION = "2022-11-28"
_SECONDARY_LIMIT_WAIT_S = 60.0
"""GitHub: without retry-after or a reset time, wait at least one minute."""


def _rate_limit(
    status: int, headers: httpx.Headers, data: object, now: dt.datetime
) -> EngineFailure | None:
    """GitHub's primary and secondary rate limits, answered with 403 or 429."""
    if status not in (403, 429):
        return None
    message = data.get("message") if isinstance(data, dict) else None
    exhausted = headers.get("x-ratelimit-remaining", "").strip() == "0"
    if not exhausted and not (isinstance(message, str) and "rate limit" in message.lower()):
        return None
    wait = retry_after_seconds(headers)
    reset = headers.get("x-ratelimit-reset", "").strip()
    if wait is None and exhausted and reset.isdigit():
        wait = max(0.0, int(reset) - now.timestamp())
    return EngineFailure("rate_limited", _SECONDARY_LIMIT_WAIT_S if wait is None else wait)


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    query = search.query
    since = search.since()
    if since is not None:
        if since.tzinfo is not None:
            since = since.astimezone(dt.UTC)
        query = f"{query} pushed:>={since.date().isoformat()}"
    params = {
        "q": query,
        "per_page": str(max(1, min(search.max_results, _MAX_PER_PAGE))),
        "page": "1",
    }
    headers = {
        "User-Agent": search.user_agent,
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": _API_VERSION,
    }
    if credential:
        headers["Authorization"] = f"Bearer {credential}"
    return http_request("GET", endpoint_url(endpoint, _PATH), params=params, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    try:
        data = load_json(body)
    except ValueError:
        data = None
    failure = _rate_limit(status, headers, data, search.now) or failure_for_status(status, headers)
    if failure is not None:
        return failure
    if data is None:
        return EngineFailure("parse_failure")
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return EngineFailure("parse_failure")
    results = []
    for item in items:
        if not isinstance(item, dict):
            continue
        title = item.get("full_name") or item.get("name")
        url = item.get("html_url")
        if not isinstance(title, str) or not isinstance(url, str) or not url:
            continue
        results.append(
            RawResult(
                title=title,
                url=url,
                snippet=item.get("description") or "",
                date=iso_date(item.get("pushed_at")),
            )
        )
    return results
