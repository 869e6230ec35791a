"""Tavily Search API.

Documented at https://docs.tavily.com/documentation/api-reference/endpoint/search
(request: ``query``, ``topic``, ``max_results`` 0 to 20, ``time_range``, ``days``,
``include_usage``; response: ``results[]`` with ``title``, ``url``, ``content``,
``score``, ``published_date``, and ``usage.credits`` when asked),
https://docs.tavily.com/changelog (``include_usage``: the credits a call used, in the
answer), https://docs.tavily.com/documentation/rate-limits (100 requests a minute for a
development key, 1,000 for a production key; 432 and 433 when the plan's or the
pay-as-you-go limit is reached) and https://docs.tavily.com/documentation/api-credits
(1,000 free credits a month; a basic search costs one). The official client
(tavily-python ``tavily.py``) still sends ``days``, ``start_date`` and ``end_date``.

Choices:

- ``POST /search`` with a JSON body; ``Authorization: Bearer`` carries
  ``TAVILY_API_KEY`` (the key in the body is the older form); the engine is not offered
  without it.
- ``topic`` is ``news`` for the news category, else ``general``; ``search_depth`` is
  ``basic`` (one credit); no answer, raw content or images are asked for.
- ``max_results`` is ``search.max_results`` up to the documented 20; ``time_range`` is
  rypsok's own (``day``, ``week``, ``month``, ``year``). Tavily has no language parameter.
- No time range means no time filter: the news topic has a documented default of
  ``days`` 3 (the API reference's ``days`` field, "available only if topic is news"), so
  a news search without a time range sends ``days`` 3650 (ten years) instead of leaving
  Tavily's three days to apply. A general search sends no time field.
- ``include_usage`` is true: the credits a call used come back in ``usage.credits`` at no
  extra cost.
- ``content`` is the snippet; ``published_date`` (RFC 2822 on news, ISO elsewhere) the
  date; results are put in ``score`` order, Tavily's relevance.
- ``query_limit`` is the 400 characters Tavily refuses beyond; ``rate_per_minute`` is
  100, the development key's rate.
- 401 and 403 are ``auth_failure``; 429 is ``rate_limited``; Tavily's plan limits 432
  (the plan's or the key's credits) and 433 (the pay-as-you-go limit) are
  ``rate_limited`` and spent, which rests the engine; errors come as
  ``{"detail": {"error": "..."}}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    id="tavily",
    categories=frozenset({"general", "news"}),
    default_endpoint="https://api.tavily.com",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset(),
    query_limit=QueryLimit(400),
    credential_env="TAVILY_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=100,
    docs="https://docs.tavily.com/documentation/api-reference/endpoint/search",
    listed_without_credential=False,
    cost_unit="credits",
)

_MAX_RESULTS = 20
_PLAN_LIMITS = frozenset({432, 433})
_NEWS_DAYS = 3650
"""``days`` for a news search with no time range: ten years, so that "no time filter" is
not Tavily's news default of three days."""


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    body: dict[str, Any] = {
        "query": search.query,
        "topic": "news" if search.category == "news" else "general",
        "search_depth": "basic",
        "max_results": min(search.max_results, _MAX_RESULTS),
        "include_answer": False,
        "include_raw_content": False,
        "include_images": False,
        "include_usage": True,
    }
    if search.time_range is not None:
        body["time_range"] = search.time_range
    elif body["topic"] == "news":
        body["days"] = _NEWS_DAYS
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    if credential:
        headers["Authorization"] = f"Bearer {credential}"
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
    found = _keyed.answer_items(
        status, headers, document, plan_limits=_PLAN_LIMITS, key="results", error=_error_message
    )
    if isinstance(found, EngineFailure):
        return found
    scored = [
        (result, item.get("score"))
        for item in found
        if (
            result := _keyed.read_result(item, search.now, snippet="content", date="published_date")
        )
    ]
    return _keyed.by_score(scored)[: search.max_results]


def _usage(document: dict[str, Any] | None) -> Usage | None:
    """``usage.credits``, the credits this call used (``include_usage``)."""
    spent = document.get("usage") if document is not None else None
    credits = _keyed.number(spent.get("credits")) if isinstance(spent, dict) else None
    return None if credits is None else Usage("credits", cost=credits)


def _error_message(document: dict[str, Any]) -> str | None:
    """Tavily's ``{"detail": {"error": "..."}}`` (or a bare ``error``); None when absent."""
    detail = document.get("detail")
    if isinstance(detail, dict) and "error" in detail:
        return string_field(detail.get("error"))
    if isinstance(detail, str) and detail:
        return detail
    error = document.get("error")
    if error:
        return string_field(error) or "error"
    return None
