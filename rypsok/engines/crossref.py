"""Crossref REST API, ``/works``.

Documented at https://www.crossref.org/documentation/retrieve-metadata/rest-api/
and https://api.crossref.org/swagger-ui/index.html : ``GET /works?query=…``
with ``rows``, ``select`` and ``filter=from-pub-date:YYYY-MM-DD``; the answer
is ``{"status": "ok", "message": {"items": […]}}``. Rate limits from
"Announcing changes to REST API rate limits" (Crossref blog, 2025-11-05).

Choices:

- ``rows`` is ``search.max_results``; ``select`` keeps the answer small.
- No language filter exists, so ``languages`` is empty.
- ``mailto`` (the polite pool) is not added, so requests go to the public
  pool (1 list request a second); rypsok has no contact address to give.
- Title: the first of ``title[]``, tags (``<i>``, ``<sub>`` …) stripped.
  Snippet: the JATS ``abstract`` as plain text, without its "Abstract"
  heading.
- ``date`` is the first full year-month-day of ``published``, then
  ``issued``. A partial date (``[[2024, 3]]``, ``[[2024]]``) cannot be written
  as YYYY-MM-DD, so it is left out rather than padded with invented days.
- ``rate_per_minute`` is 60: list queries in the public pool get 1 request per
  second, one at a time.
- ``query_limit`` is 400 characters: no limit is documented, so rypsok's
  call-wide bound stands.
"""

from __future__ import annotations

import datetime as dt
import re
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
    load_json,
    strip_html,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="crossref",
    categories=frozenset({"science"}),
    default_endpoint="https://api.crossref.org",
    time_ranges=frozenset({"day", "week", "month", "year"}),
    languages=frozenset(),
    query_limit=QueryLimit(400),
    credential_env=None,
    credential_required=False,
    attribution=False,
    rate_per_minute=60,
    docs="https://www.crossref.org/documentation/retrieve-metadata/rest-api/",
)

_MAX_ROWS = 1000
_SELECT = "DOI,URL,title,abstract,published,issued,container-title,type"

_ABSTRACT_HEADING = re.compile(r"^\s*<jats:title>\s*abstract\s*</jats:title>", re.IGNORECASE)
_JATS_BLOCK_EDGE = re.compile(r"</?jats:(?:p|title|sec|list-item|list)\b[^>]*>", re.IGNORECASE)


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    params = {
        "query": search.query,
        "rows": str(min(search.max_results, _MAX_ROWS)),
        "select": _SELECT,
    }
    since = search.since()
    if since is not None:
        params["filter"] = f"from-pub-date:{since.date().isoformat()}"
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    return http_request("GET", endpoint_url(endpoint, "/works"), params=params, headers=headers)


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
    if not isinstance(document, dict) or document.get("status") != "ok":
        return EngineFailure("parse_failure")
    message = document.get("message")
    items = message.get("items") if isinstance(message, dict) else None
    if not isinstance(items, list):
        return EngineFailure("parse_failure")
    results = [found for item in items if (found := _result(item)) is not None]
    return results[: search.max_results]


def _full_date(date_field: Any) -> str | None:
    """YYYY-MM-DD from a ``{"date-parts": [[y, m, d]]}``; None when any part is missing."""
    if not isinstance(date_field, dict):
        return None
    parts = date_field.get("date-parts")
    if not isinstance(parts, list) or not parts or not isinstance(parts[0], list):
        return None
    first = parts[0]
    if len(first) < 3 or not all(isinstance(part, int) for part in first[:3]):
        return None
    try:
        return dt.date(*first[:3]).isoformat()
    except ValueError:
        return None


def _jats_text(abstract: Any) -> str:
    """Plain text of a JATS abstract, blocks separated by spaces, heading dropped."""
    if not isinstance(abstract, str) or not abstract:
        return ""
    spaced = _JATS_BLOCK_EDGE.sub(" ", _ABSTRACT_HEADING.sub("", abstract))
    return " ".join(strip_html(spaced).split())


def _result(item: Any) -> RawResult | None:
    if not isinstance(item, dict):
        return None
    url = item.get("URL")
    if not isinstance(url, str) or not url:
        doi = item.get("DOI")
        if not isinstance(doi, str) or not doi:
            return None
        url = f"https://doi.org/{doi}"
    titles = item.get("title")
    title = titles[0] if isinstance(titles, list) and titles and isinstance(titles[0], str) else ""
    return RawResult(
        title=" ".join(strip_html(title).split()),
        url=url,
        snippet=_jats_text(item.get("abstract")),
        date=_full_date(item.get("published")) or _full_date(item.get("issued")),
    )
