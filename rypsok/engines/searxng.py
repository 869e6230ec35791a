"""An operator's SearXNG instance, through its JSON output.

Documented at https://docs.searxng.org/dev/search_api.html :
``GET {instance}/search?q=…&format=json`` with ``categories``, ``language``
and ``time_range`` (``day``, ``week``, ``month``, ``year``). The instance must
list ``json`` in ``search.formats``; otherwise it answers 403.

Choices:

- ``default_endpoint`` is empty: there is no public instance to assume, so the
  engine is off until the operator sets one.
- ``categories=general``; ``language`` is passed as given (SearXNG accepts any
  locale code and falls back to all languages), so ``languages`` is any.
- There is no result-count parameter: the first page is cut to
  ``search.max_results``.
- ``date`` comes from ``publishedDate`` (null or ISO 8601).
- ``content`` is plain text already, so it is not run through ``strip_html``.
- ``rate_per_minute`` 60 and ``query_limit`` 400 characters: both depend on
  the instance; these are rypsok's defaults (the operator can change the rate).
- An empty ``results`` with ``unresponsive_engines`` listed means the
  instance's own engines failed, not that nothing matched: a
  ``request_failure``, so the caller is not told to change their words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import (
    ANY_LANGUAGE,
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
    item_url,
    load_json,
    string_field,
)

if TYPE_CHECKING:
    import httpx

_TIME_RANGES = frozenset({"day", "week", "month", "year"})

INFO = EngineInfo(
    id="searxng",
    categories=frozenset({"general"}),
    default_endpoint="",
    time_ranges=_TIME_RANGES,
    languages=frozenset({ANY_LANGUAGE}),
    query_limit=QueryLimit(400),
    credential_env=None,
    credential_required=False,
    attribution=False,
    rate_per_minute=60,
    docs="https://docs.searxng.org/dev/search_api.html",
)


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    params = {"q": search.query, "format": "json", "categories": "general"}
    if search.language:
        params["language"] = search.language
    if search.time_range in _TIME_RANGES:
        params["time_range"] = search.time_range
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
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
    if not items and document.get("unresponsive_engines"):
        return EngineFailure("request_failure")
    results = [found for item in items if (found := _result(item)) is not None]
    return results[: search.max_results]


def _result(item: Any) -> RawResult | None:
    url = item_url(item)
    if url is None:
        return None
    return RawResult(
        title=string_field(item.get("title")),
        url=url,
        snippet=string_field(item.get("content")),
        date=iso_date(item.get("publishedDate")),
    )
