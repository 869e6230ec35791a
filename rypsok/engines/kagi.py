"""Kagi Search API, v1.

Documented at https://help.kagi.com/kagi/api/search.html (the current Search API,
``https://kagi.com/api/v1/search`` with ``Authorization: Bot <key>``; the v0 API is
"Search API (Legacy)", deprecated, at https://help.kagi.com/kagi/api/search-legacy.html)
and in Kagi's OpenAPI reference, https://kagi.redocly.app/openapi, as the official
clients carry it (github.com/kagisearch/kagi-openapi-golang ``api/openapi.yaml``, v1
preview): ``POST /search`` with a JSON body (``query``, ``workflow`` ``search`` or
``news``, ``limit``, ``filters`` with ``region``, ``after`` and ``before`` dates); the
answer's ``data`` is an object of result lists by kind (``search``, ``news``, ``video``,
``related_search`` …), each result ``url``, ``title``, ``snippet``, ``time``; errors are
an ``error`` list of ``{code, url, message, location}``. The envelope and the error codes
(0 internal, 1 malformed request, 2 unauthorized, 100 no billing information, 101
insufficient credit) are https://help.kagi.com/kagi/api/intro/response-format.html.

Choices:

- ``Authorization: Bot`` carries ``KAGI_API_KEY``; the engine is not offered without it.
- ``workflow`` is ``news`` for the news category, else ``search``; ``limit`` is
  ``search.max_results``; ``filters.after`` is the first day of the time range;
  ``filters.region`` the operator's region, when one is configured.
- Results are ``data.search`` (or ``data.news``) in Kagi's order (it gives no score); the
  other kinds (videos, related searches, infoboxes …) are not results. A v0 answer, whose
  ``data`` is a list of objects typed by ``t``, is read too: its ``t`` 0 objects are the
  results (``published`` its date).
- Error codes decide before the status: 2 is ``auth_failure``; 100 and 101 are the API
  balance spent (``rate_limited``, resting the engine), whatever the status (Kagi answers
  400 when the balance is spent); others fall back to the status, then to the message.
- ``rate_per_minute`` is 60: a guess, as Kagi publishes no rate. ``query_limit`` is
  rypsok's 400 characters (Kagi documents none).
- ``meta.api_balance`` (dollars, in v0 answers; v1's ``meta`` documents none) is read as
  the balance; Kagi reports no per-call cost.
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
    id="kagi",
    categories=frozenset({"general", "news"}),
    default_endpoint="https://kagi.com",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset(),
    query_limit=QueryLimit(400),
    credential_env="KAGI_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=60,
    docs="https://help.kagi.com/kagi/api/search.html",
    listed_without_credential=False,
    takes_region=True,
)

_PLAN_LIMITS = frozenset({402})
_UNAUTHORIZED = 2
_NO_BILLING = 100
_NO_CREDIT = 101


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    body: dict[str, Any] = {
        "query": search.query,
        "workflow": "news" if search.category == "news" else "search",
        "limit": search.max_results,
    }
    filters: dict[str, str] = {}
    since = search.since()
    if since is not None:
        filters["after"] = since.date().isoformat()
    if search.region:
        filters["region"] = search.region
    if filters:
        body["filters"] = filters
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    if credential:
        headers["Authorization"] = f"Bot {credential}"
    return http_request(
        "POST", endpoint_url(endpoint, "/api/v1/search"), json=body, headers=headers
    )


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
    coded = _error_code_failure(document, headers)
    if coded is not None:
        return coded
    failed = _keyed.failure(status, headers, _PLAN_LIMITS)
    if failed is not None:
        return failed
    if document is None:
        return EngineFailure("parse_failure")
    message = _error_message(document)
    if message is not None:
        return _keyed.failure_for_message(message, headers)
    if "data" not in document:
        return EngineFailure("parse_failure")
    data = document["data"]
    if isinstance(data, dict):  # v1: result lists by kind
        kind = "news" if search.category == "news" else "search"
        found = _keyed.items(data.get(kind))
        date = "time"
    else:  # v0: one list of objects typed by ``t`` (0: a search result)
        found = _keyed.items(data)
        if found is not None:
            found = [item for item in found if isinstance(item, dict) and item.get("t") == 0]
        date = "published"
    if found is None:
        return EngineFailure("parse_failure")
    results = [
        result for item in found if (result := _keyed.read_result(item, search.now, date=date))
    ]
    return results[: search.max_results]


def _usage(document: dict[str, Any] | None) -> Usage | None:
    """``meta.api_balance``, the account's balance in dollars, when the answer gives it."""
    meta = document.get("meta") if document is not None else None
    balance = _keyed.number(meta.get("api_balance")) if isinstance(meta, dict) else None
    return None if balance is None else Usage("usd", balance=balance)


def _errors(document: dict[str, Any] | None) -> list[dict[str, Any]]:
    error = document.get("error") if document is not None else None
    return [item for item in error if isinstance(item, dict)] if isinstance(error, list) else []


def _code(item: dict[str, Any]) -> int | None:
    """An error's code: v0 writes a number, v1 a string (``"2"``)."""
    code = item.get("code")
    if isinstance(code, bool):
        return None
    if isinstance(code, int):
        return code
    if isinstance(code, str) and code.strip().isdigit():
        return int(code)
    return None


def _error_code_failure(
    document: dict[str, Any] | None, headers: httpx.Headers
) -> EngineFailure | None:
    """The failure Kagi's documented error codes name, whatever the status; None when the
    answer carries none of them."""
    codes = {_code(item) for item in _errors(document)}
    if _UNAUTHORIZED in codes:
        return EngineFailure("auth_failure")
    if codes & {_NO_BILLING, _NO_CREDIT}:
        return _keyed.spent(headers)
    return None


def _error_message(document: dict[str, Any]) -> str | None:
    """The first message of a non-empty ``error`` list (v1 ``message``, v0 ``msg``), or a
    bare ``error`` string; None when there is no error."""
    error = document.get("error")
    if isinstance(error, list) and error:
        first = error[0]
        message = (first.get("message") or first.get("msg")) if isinstance(first, dict) else first
        return string_field(message) or "error"
    if isinstance(error, str) and error:
        return error
    return None
