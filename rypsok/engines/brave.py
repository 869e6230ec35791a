"""Brave Search API, web search.

Documented at
https://api-dashboard.search.brave.com/api-reference/web/search/get (request,
``freshness``, ``search_lang``), .../documentation/web-search/responses
(``web.results[]``) and .../documentation/web-search/response-headers
(``X-RateLimit-*``). What brave and brave_news share (the request, the language
mapping, the errors, one result) is in ``_brave.py``; the choices below hold for both
but ``count``.

Choices:

- ``X-Subscription-Token`` carries ``BRAVE_API_KEY``; the engine is off
  without it.
- ``count`` is ``search.max_results`` up to the documented 20.
- ``text_decorations=false``; titles and snippets still go through
  ``strip_html`` because descriptions carry entities.
- ``search_lang`` takes Brave's own codes (``jp`` for Japanese, ``zh-hans``,
  ``pt-br`` …): the languages below are mapped to them.
- ``date`` comes from ``page_age`` (ISO-like); ``age`` is prose.
- ``query_limit`` is the documented 400 characters. Brave's second limit, 50 words,
  is not enforced here: cutting words would change the question silently,
  so a longer query gets Brave's 422 and a ``request_failure``.
- ``rate_per_minute`` is 60, the documented 1 request per second of the
  basic plans.
- A bad or missing key is reported as 422 (``SUBSCRIPTION_TOKEN_INVALID``, or
  ``VALIDATION`` on the ``x-subscription-token`` header) and a key without a
  plan as 404 ``SUBSCRIPTION_NOT_FOUND``: all ``auth_failure``. On 429 the
  wait is ``Retry-After`` or else the reset of the exhausted window in
  ``X-RateLimit-Reset``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _brave
from .base import (
    EngineFailure,
    EngineInfo,
    EngineRequest,
    EngineSearch,
    QueryLimit,
    RawResult,
    load_json,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="brave",
    categories=frozenset({"general"}),
    default_endpoint="https://api.search.brave.com",
    time_ranges=frozenset(_brave.FRESHNESS),
    languages=_brave.LANGUAGES,
    query_limit=QueryLimit(400),
    credential_env="BRAVE_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=60,
    docs="https://api-dashboard.search.brave.com/api-reference/web/search/get",
)

_MAX_COUNT = 20


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    count = min(search.max_results, _MAX_COUNT)
    extra = {"text_decorations": "false"}
    return _brave.request(endpoint, "/res/v1/web/search", search, credential, count, extra)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    brave_failure = _brave.failure(status, headers, body)
    if brave_failure is not None:
        return brave_failure
    try:
        document = load_json(body)
    except ValueError:
        return EngineFailure("parse_failure")
    if not isinstance(document, dict) or document.get("type") != "search":
        return EngineFailure("parse_failure")
    web = document.get("web")
    if web is None:
        return []
    items = web.get("results") if isinstance(web, dict) else None
    if not isinstance(items, list):
        return EngineFailure("parse_failure")
    results = [found for item in items if (found := _brave.result(item)) is not None]
    return results[: search.max_results]
