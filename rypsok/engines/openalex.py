"""OpenAlex, ``/works?search=``.

Documented at https://developers.openalex.org/api-reference/works (fields and
filters), https://developers.openalex.org/api-reference/works/list-works
(``search``, ``filter``, ``per-page``, ``select``),
https://developers.openalex.org/guides/filtering (comma = AND),
https://developers.openalex.org/guides/authentication (``api_key``, required
since 2026-02-13) and https://developers.openalex.org/api-reference/errors
(400, 403, 429).

Choices:

- ``api_key`` carries ``OPENALEX_API_KEY``; the engine is off without it.
- ``per-page`` is ``search.max_results`` (up to 200).
- ``filter`` joins ``from_publication_date:YYYY-MM-DD`` and ``language:xx``
  (ISO 639-1, the form of a work's ``language`` field; SearXNG's openalex
  engine sends the same) with a comma (AND); any language code is mapped to
  its primary subtag.
- Title: ``display_name`` (else ``title``), tags stripped. Snippet: the
  ``abstract_inverted_index`` put back in word order. URL: the landing page,
  else the DOI, else the OpenAlex id.
- ``date`` is ``publication_date``.
- ``rate_per_minute`` is 60. OpenAlex allows 100 requests a second, but a free
  key's daily budget covers about 1,000 searches, so this stays modest.
- ``query_limit`` is 400 characters: no limit is documented, so rypsok's
  call-wide bound stands.
- A 403 is OpenAlex's per-second limit (the errors reference gives 403 no other
  meaning: "Rate limit exceeded; slow down") when its body is OpenAlex's error object
  (``{"error": …, "message": …}``) or speaks of the rate limit: ``rate_limited``,
  whatever its words. Any other 403 (a proxy's or a CDN's page) is ``blocked``.
- A 429 is the daily budget spent ("Daily limit exceeded"; it resets at midnight UTC):
  ``rate_limited`` and ``spent``, so the search rests the engine.
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
    load_json,
    retry_after_seconds,
    string_field,
    strip_html,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="openalex",
    categories=frozenset({"science"}),
    default_endpoint="https://api.openalex.org",
    time_ranges=frozenset({"day", "week", "month", "year"}),
    languages=frozenset({ANY_LANGUAGE}),
    query_limit=QueryLimit(400),
    credential_env="OPENALEX_API_KEY",
    credential_required=True,
    attribution=False,
    rate_per_minute=60,
    docs="https://developers.openalex.org/api-reference/works",
)

_MAX_PER_PAGE = 200
_SELECT = "id,doi,display_name,title,publication_date,primary_location,abstract_inverted_index"


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    params = {
        "search": search.query,
        "per-page": str(min(search.max_results, _MAX_PER_PAGE)),
        "select": _SELECT,
    }
    filters = []
    since = search.since()
    if since is not None:
        filters.append(f"from_publication_date:{since.date().isoformat()}")
    if search.language:
        filters.append(
            f"language:{search.language.strip().lower().replace('_', '-').split('-')[0]}"
        )
    if filters:
        params["filter"] = ",".join(filters)
    if credential:
        params["api_key"] = credential
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    return http_request("GET", endpoint_url(endpoint, "/works"), params=params, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    if status == 403 and (b"rate limit" in body.lower() or _is_error_object(body)):
        return EngineFailure("rate_limited", retry_after_seconds(headers))
    if status == 429:  # "Daily limit exceeded": the day's budget, spent until midnight UTC
        return EngineFailure("rate_limited", retry_after_seconds(headers), spent=True)
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
    results = [found for item in items if (found := _result(item)) is not None]
    return results[: search.max_results]


def _is_error_object(body: bytes) -> bool:
    """Whether the body is OpenAlex's documented error object, ``{"error": …, "message": …}``."""
    try:
        document = load_json(body)
    except ValueError:
        return False
    return isinstance(document, dict) and any(
        isinstance(document.get(key), str) for key in ("error", "message")
    )


def _abstract_text(inverted_index: Any) -> str:
    """The abstract from ``{"word": [positions]}``: each word at its positions, in order."""
    if not isinstance(inverted_index, dict):
        return ""
    placed: dict[int, str] = {}
    for word, positions in inverted_index.items():
        if not isinstance(positions, list):
            continue
        for position in positions:
            if isinstance(position, int) and not isinstance(position, bool):
                placed[position] = word
    return " ".join(placed[position] for position in sorted(placed))


def _result(item: Any) -> RawResult | None:
    if not isinstance(item, dict):
        return None
    location = item.get("primary_location")
    landing = location.get("landing_page_url") if isinstance(location, dict) else None
    url = next(
        (value for value in (landing, item.get("doi"), item.get("id")) if _is_http(value)), None
    )
    if url is None:
        return None
    title = item.get("display_name") or item.get("title")
    return RawResult(
        title=" ".join(strip_html(string_field(title)).split()),
        url=url,
        snippet=_abstract_text(item.get("abstract_inverted_index")),
        date=iso_date(item.get("publication_date")),
    )


def _is_http(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(("https://", "http://"))
