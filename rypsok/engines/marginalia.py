"""Marginalia Search through its current (v2) API.

Documented at https://about.marginalia-search.com/article/api/ :
``GET https://api2.marginalia-search.com/search?query=…&count=…`` with an
``API-Key`` header. The shared key ``public`` is used unless the operator
gives a personal one. (The ``api.marginalia.nu/{key}/search/{query}`` form
is the deprecated v1.)

Choices:

- Results are CC-BY-NC-SA 4.0, so ``attribution`` is True.
- No time filter and no documented language filter (``lang`` is read by the
  server but its effect is undocumented), so both sets are empty.
- ``count`` is ``search.max_results`` (the API takes 1 to 100).
- No date: results carry none.
- ``query_limit`` is 400 characters: no limit is documented, so rypsok's
  call-wide bound stands.
- ``rate_per_minute`` is 10: no number is published and the docs warn that the
  shared ``public`` key "often hits a rate limit".
- The limiter answers 429 (``QPM Limit Exceeded`` / ``Daily Limit Exceeded``):
  ``rate_limited``. An unknown key is a 401 with an empty body
  (``auth_failure``). The 503 that v1 gave for the shared limit is not read as
  a rate limit: on v2 a 503 is an outage (``request_failure``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import (
    EngineFailure,
    EngineInfo,
    EngineRequest,
    EngineSearch,
    QueryLimit,
    RawResult,
    endpoint_url,
    failure_for_status,
    http_request,
    item_url,
    load_json,
    string_field,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="marginalia",
    categories=frozenset({"general"}),
    default_endpoint="https://api2.marginalia-search.com",
    time_ranges=frozenset(),
    languages=frozenset(),
    query_limit=QueryLimit(400),
    credential_env="MARGINALIA_API_KEY",
    credential_required=False,
    attribution=True,
    rate_per_minute=10,
    docs="https://about.marginalia-search.com/article/api/",
)

_PUBLIC_KEY = "public"
_MAX_COUNT = 100


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    params = {"query": search.query, "count": str(min(search.max_results, _MAX_COUNT))}
    headers = {
        "API-Key": credential or _PUBLIC_KEY,
        "Accept": "application/json",
        "User-Agent": search.user_agent,
    }
    return http_request("GET", endpoint_url(endpoint, "/search"), params=params, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    failure = failure_for_status(status, headers)
    if failure is not None:
        return failure
    try:
        document = load_json(body)
    except ValueError:
        return EngineFailure("parse_failure")
    items = document.get("results") if isinstance(document, dict) else None
    if not isinstance(items, list):
        return EngineFailure("parse_failure")
    results = [result for item in items if (result := _result(item)) is not None]
    return results[: search.max_results]


def _result(item: Any) -> RawResult | None:
    url = item_url(item)
    if url is None:
        return None
    return RawResult(
        title=string_field(item.get("title")),
        url=url,
        snippet=string_field(item.get("description")),
    )
