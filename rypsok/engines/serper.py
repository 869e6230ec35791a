"""Serper, Google search results as JSON.

Documented at https://serper.dev/playground and https://serper.dev/api-reference
(``POST /search`` and ``POST /news`` with a JSON body: ``q``, ``num``, ``page``, ``gl``,
``hl``, ``tbs``; ``X-API-KEY``; the answer's ``organic[]`` or ``news[]`` hold ``title``,
``link``, ``snippet``, ``date`` and ``position``, beside ``searchParameters``,
``knowledgeGraph``, ``peopleAlsoAsk``, ``relatedSearches`` and ``credits``, the credits
the call used; 2,500 free queries on sign-up). The playground's defaults are ``gl`` "us"
and ``hl`` "en" (also in the request schema transcribed at
https://schemas.apis.io/schemas/serper/serper-search-request/).

Choices:

- ``X-API-KEY`` carries ``SERPER_API_KEY``; the engine is not offered without it.
- The general category asks ``/search`` and reads ``organic``; news asks ``/news`` and
  reads ``news``. Answer boxes, knowledge graphs and the like are not results.
- ``num`` is ``search.max_results`` up to 10: Google stopped honouring more than ten
  results a request in 2025, so a larger ``num`` would cost more credits for the same
  ten; ``page`` is not sent (one page a search). ``tbs`` is Google's ``qdr:d``,
  ``qdr:w``, ``qdr:m`` or ``qdr:y`` for the time range.
- ``hl`` is the language (Google's ``pt-BR``, ``zh-TW`` … for a regional code of a
  language Google spells so). ``gl`` is sent only when the operator configured a region
  (``[engines.serper] region``); otherwise Serper applies its default, ``us``.
- ``credits`` is what the call cost, in Serper credits.
- ``date`` is Google's ``Mar 5, 2024`` or ``3 days ago`` (against the search's clock).
  The answer's order is Google's (``position``).
- ``rate_per_minute`` is 300 (5 a second; Serper publishes no per-minute rate for its
  credit plans); ``query_limit`` is rypsok's 400 characters.
- 401 and 403 are ``auth_failure``; 429 is ``rate_limited``; 402, and a 400 whose
  ``message`` says the credits are spent, are ``rate_limited`` and spent. Errors come as
  ``{"message", "statusCode"}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _keyed
from .base import (
    ANY_LANGUAGE,
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
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="serper",
    categories=frozenset({"general", "news"}),
    default_endpoint="https://google.serper.dev",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset({ANY_LANGUAGE}),
    query_limit=QueryLimit(400),
    credential_env="SERPER_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=300,
    docs="https://serper.dev/api-reference",
    listed_without_credential=False,
    takes_region=True,
    cost_unit="credits",
)

_MAX_RESULTS = 10
_PLAN_LIMITS = frozenset({402})
_TBS = {"day": "qdr:d", "week": "qdr:w", "month": "qdr:m", "year": "qdr:y"}
_REGIONAL_HL = frozenset({"pt", "zh"})
"""Languages whose Google ``hl`` carries the region (``pt-BR``, ``zh-CN``, ``zh-TW``)."""


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    path = "/news" if search.category == "news" else "/search"
    body: dict[str, Any] = {"q": search.query, "num": min(search.max_results, _MAX_RESULTS)}
    body.update(_language(search.language))
    if search.region:
        body["gl"] = search.region
    if search.time_range in _TBS:
        body["tbs"] = _TBS[search.time_range]
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    if credential:
        headers["X-API-KEY"] = credential
    return http_request("POST", endpoint_url(endpoint, path), json=body, headers=headers)


def _language(language: str | None) -> dict[str, str]:
    if not language:
        return {}
    primary, _, region = language.strip().lower().replace("_", "-").partition("-")
    region = region.split("-")[-1] if region else ""
    if len(region) == 2 and region.isalpha() and primary in _REGIONAL_HL:
        return {"hl": f"{primary}-{region.upper()}"}
    return {"hl": primary}


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
    failure = _status_failure(status, document, headers)
    if failure is not None:
        return failure
    if document is None:
        return EngineFailure("parse_failure")
    key = "news" if search.category == "news" else "organic"
    if key not in document:
        if document.get("message") or "statusCode" in document:
            return _error(document, headers)
        # Google found nothing: the answer holds its searchParameters and no result list.
        if isinstance(document.get("searchParameters"), dict):
            return []
        return EngineFailure("parse_failure")
    found = _keyed.items(document[key])
    if found is None:
        return EngineFailure("parse_failure")
    results = [
        result
        for item in found
        if (result := _keyed.read_result(item, search.now, url="link", date="date"))
    ]
    return results[: search.max_results]


def _usage(document: dict[str, Any] | None) -> Usage | None:
    """``credits``, the credits this call used."""
    credits = _keyed.number(document.get("credits")) if document is not None else None
    return None if credits is None else Usage("credits", cost=credits)


def _status_failure(
    status: int, document: dict[str, Any] | None, headers: httpx.Headers
) -> EngineFailure | None:
    """The failure a status means, None for a 2xx; Serper answers 400 "Not enough credits"
    when the credits are spent, which is a plan limit, not a bad request."""
    failure = _keyed.failure(status, headers, _PLAN_LIMITS)
    if failure is not None and status == 400 and document is not None:
        said = _keyed.failure_for_message(document.get("message"), headers)
        if said.reason == "rate_limited":
            return said
    return failure


def _error(document: dict[str, Any], headers: httpx.Headers) -> EngineFailure:
    """An error body under 200: by its ``statusCode`` when it has one, else its message."""
    code = document.get("statusCode")
    if isinstance(code, int) and not isinstance(code, bool):
        failure = _status_failure(code, document, headers)
        if failure is not None:
            return failure
    return _keyed.failure_for_message(document.get("message"), headers)
