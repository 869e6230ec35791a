"""Stack Overflow questions through the Stack Exchange API 2.3, ``/2.3/search/advanced`` (JSON).

Docs: https://api.stackexchange.com/docs/advanced-search (parameters),
https://api.stackexchange.com/docs/throttle (300 requests a day per IP without an
app key, 10,000 with one; ``backoff``), https://api.stackexchange.com/docs/error-handling
(the error wrapper: ``error_id``, ``error_name``, ``error_message``) and
https://api.stackexchange.com/docs/compression (answers are always compressed).

``time_range`` becomes ``fromdate=EPOCH``; ``date`` is the question's
``creation_date``. The built-in ``withbody`` filter supplies the snippet.
Content is CC BY-SA, so results need attribution.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .base import (
    MAX_BODY_BYTES,
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
    id="stackexchange",
    categories=frozenset({"code"}),
    default_endpoint="https://api.stackexchange.com",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset(),
    query_limit=QueryLimit(250),
    credential_env="STACKEXCHANGE_KEY",
    credential_required=False,
    attribution=True,
    rate_per_minute=1,
    docs="https://api.stackexchange.com/docs/advanced-search",
)
"""query_limit: the API documents none; 250 characters is a conservative choice.
rate_per_minute: 300 a day is 0.2 a minute; 1 is the smallest budget, and the
daily quota itself comes back as ``throttle_violation`` with its wait."""

_PATH = "/2.3/search/advanced"
_SITE = "stackoverflow"
_MAX_PAGE_SIZE = 100
_GZIP_MAGIC = b"\x1f\x8b"
_ZLIB_FIRST_BYTE = b"\x78"
_SECONDS_IN_MESSAGE = re.compile(r"(\d+)\s+seconds?")
_NAMES_THE_KEY = re.compile(r"\bkey\b", re.IGNORECASE)


def _decompressed(body: bytes) -> bytes:
    """The body, inflated when it still holds gzip or zlib bytes (a proxy dropped
    Content-Encoding). The compressed and the inflated bytes together stay within the
    engine byte limit, as one answer does: BodyTooLarge beyond it."""
    from rypsok.net.body import inflate

    budget = MAX_BODY_BYTES - len(body)
    if body.startswith(_GZIP_MAGIC):
        return inflate(body, "gzip", budget)
    if body.startswith(_ZLIB_FIRST_BYTE):
        return inflate(body, "deflate", budget)
    return body


def _api_error(data: object) -> EngineFailure | None:
    """The error wrapper: 502 throttle_violation, 403 access_denied, a 400 bad_parameter
    naming ``key`` (the docs: bad_parameter covers "even high level parameters like key";
    the message names the parameter), anything else."""
    if not isinstance(data, dict) or "error_id" not in data:
        return None
    error_id = data.get("error_id")
    if error_id == 502:
        waits = [float(data["backoff"])] if isinstance(data.get("backoff"), int) else []
        found = _SECONDS_IN_MESSAGE.search(str(data.get("error_message", "")))
        if found:
            waits.append(float(found.group(1)))
        return EngineFailure("rate_limited", max(waits) if waits else None)
    if error_id == 403:
        return EngineFailure("blocked")
    if error_id == 400 and _NAMES_THE_KEY.search(str(data.get("error_message", ""))):
        return EngineFailure("auth_failure")
    return EngineFailure("request_failure")


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    params = {
        "q": search.query,
        "site": _SITE,
        "order": "desc",
        "sort": "relevance",
        "pagesize": str(max(1, min(search.max_results, _MAX_PAGE_SIZE))),
        "page": "1",
        "filter": "withbody",
    }
    since = search.since()
    if since is not None:
        params["fromdate"] = str(int(since.timestamp()))
    if credential:
        params["key"] = credential
    headers = {"User-Agent": search.user_agent, "Accept": "application/json"}
    return http_request("GET", endpoint_url(endpoint, _PATH), params=params, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    from rypsok.net.body import BodyTooLarge, BodyUndecodable

    try:
        body = _decompressed(body)
    except (BodyUndecodable, BodyTooLarge):
        return EngineFailure("parse_failure")
    try:
        data = load_json(body)
    except ValueError:
        data = None
    failure = _api_error(data) or failure_for_status(status, headers)
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
        title = item.get("title")
        url = item.get("link")
        if not isinstance(title, str) or not isinstance(url, str) or not url:
            continue
        results.append(
            RawResult(
                title=strip_html(title),
                url=url,
                snippet=strip_html(item.get("body")),
                date=iso_date(item.get("creation_date")),
            )
        )
    return results
