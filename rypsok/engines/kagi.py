"""Kagi Search API.

Documented at https://help.kagi.com/kagi/api/search.html (``GET /api/v0/search`` with
``q`` and ``limit``; ``Authorization: Bot <key>``; the answer's ``data`` mixes search
results, ``t`` 0, with related searches, ``t`` 1; ``meta`` holds the request's id, time
and the account's balance) and https://help.kagi.com/kagi/api/overview.html (errors as an
``error`` list of ``code`` and ``msg``; pricing per search, paid from the API balance).

Choices:

- ``Authorization: Bot`` carries ``KAGI_API_KEY``; the engine is not offered without it.
- ``limit`` is ``search.max_results``; only ``t`` 0 objects are results (``url``,
  ``title``, ``snippet``, ``published``); related searches and any other kind are left
  out. Kagi's order is kept (it gives no score).
- The API has no time range or language parameter: calls with them skip the engine.
- ``rate_per_minute`` is 60: Kagi publishes no rate, and each search is paid.
  ``query_limit`` is rypsok's 400 characters (Kagi documents none).
- 401 and 403 are ``auth_failure``; 429 and 402 (no API balance left) ``rate_limited``;
  an ``error`` list under 200 is a failure read from its message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _keyed
from .base import (
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
    id="kagi",
    categories=frozenset({"general"}),
    default_endpoint="https://kagi.com",
    time_ranges=frozenset(),
    languages=frozenset(),
    query_limit=QueryLimit(400),
    credential_env="KAGI_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=60,
    docs="https://help.kagi.com/kagi/api/search.html",
    listed_without_credential=False,
)

_PLAN_LIMITS = frozenset({402})
_RESULT = 0


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> httpx.Request:
    params = {"q": search.query, "limit": str(search.max_results)}
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    if credential:
        headers["Authorization"] = f"Bot {credential}"
    return http_request(
        "GET", endpoint_url(endpoint, "/api/v0/search"), params=params, headers=headers
    )


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    found = _keyed.answer_items(
        status, headers, body, plan_limits=_PLAN_LIMITS, key="data", error=_error_message
    )
    if isinstance(found, EngineFailure):
        return found
    results = [
        result
        for item in found
        if isinstance(item, dict)
        and item.get("t") == _RESULT
        and (result := _keyed.read_result(item, search.now))
    ]
    return results[: search.max_results]


def _error_message(document: dict[str, Any]) -> str | None:
    """The first message of a non-empty ``error`` list (or a bare ``error`` string)."""
    error = document.get("error")
    if isinstance(error, list) and error:
        first = error[0]
        message = first.get("msg") if isinstance(first, dict) else first
        return string_field(message) or "error"
    if isinstance(error, str) and error:
        return error
    return None
