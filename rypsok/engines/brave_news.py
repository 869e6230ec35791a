"""Brave Search API, news search.

Documented at
https://api-dashboard.search.brave.com/api-reference/news/news_search/get
(request: ``count`` 1 to 50, ``freshness``, ``search_lang``) and
https://api-dashboard.search.brave.com/app/documentation/news-search/responses
(top-level ``results[]`` of ``news_result``). Request headers, language
mapping, errors and the reading of a result are shared with brave (``_brave.py``); the
50-word note is brave's (see ``brave.py``).

Choices: ``count`` is ``search.max_results`` up to 50; ``date`` is
``page_age``; ``rate_per_minute`` 60 and ``query_limit`` 400 characters as for brave
(one key and one plan serve both).
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
    id="brave_news",
    categories=frozenset({"news"}),
    default_endpoint="https://api.search.brave.com",
    time_ranges=frozenset(_brave.FRESHNESS),
    languages=_brave.LANGUAGES,
    query_limit=QueryLimit(400),
    credential_env="BRAVE_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=60,
    docs="https://api-dashboard.search.brave.com/api-reference/news/news_search/get",
)

_MAX_COUNT = 50


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    count = min(search.max_results, _MAX_COUNT)
    return _brave.request(endpoint, "/res/v1/news/search", search, credential, count)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    failure = _brave.failure(status, headers, body)
    if failure is not None:
        return failure
    try:
        document = load_json(body)
    except ValueError:
        return EngineFailure("parse_failure")
    if not isinstance(document, dict) or document.get("type") != "news":
        return EngineFailure("parse_failure")
    items = document.get("results")
    if not isinstance(items, list):
        return EngineFailure("parse_failure")
    results = [found for item in items if (found := _brave.result(item)) is not None]
    return results[: search.max_results]
