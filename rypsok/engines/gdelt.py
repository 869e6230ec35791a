"""GDELT DOC 2.0 API, article list as JSON.

Documented at https://blog.gdeltproject.org/gdelt-doc-2-0-api-debuts/ :
``GET https://api.gdeltproject.org/api/v2/doc/doc?query=…&mode=artlist&format=json``
with ``maxrecords`` (up to 250), ``timespan`` and ``sort``; operators such as
``sourcelang:`` go inside ``query``. Language names are those of
http://data.gdeltproject.org/api/v2/guides/LOOKUP-LANGUAGES.TXT .

Choices:

- ``timespan`` is ``1d``, ``7d`` or ``31d`` (rypsok's day, week, month). The
  API searches only the last 3 months, so ``year`` is not offered.
- A language becomes ``sourcelang:<name>`` appended to the query.
- ``sort=hybridrel`` (relevance with a bias to recent articles).
- The query is sent as given: GDELT rejects some short terms ("The specified
  phrase is too short.") and un-bracketed ``OR``; those come back as
  ``parse_failure`` rather than a silently changed question.
- ``date`` is ``seendate`` (``YYYYMMDDTHHMMSSZ``, when GDELT saw the article);
  there is no snippet.
- ``rate_per_minute`` is 12: GDELT asks for one request every 5 seconds.
- ``query_limit`` is 300 characters: no limit is documented; this leaves room for the
  ``sourcelang:`` operator and stays clear of queries GDELT times out on.
- Errors arrive as plain text, usually under HTTP 200: the rate-limit text is
  ``rate_limited`` whatever the status, any other text ``parse_failure``.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from .base import (
    TIME_RANGE_DAYS,
    EngineFailure,
    EngineInfo,
    EngineRequest,
    EngineSearch,
    QueryLimit,
    RawResult,
    endpoint_url,
    failure_for_status,
    http_request,
    item_url,
    retry_after_seconds,
    string_field,
)

if TYPE_CHECKING:
    import httpx

_SOURCE_LANGUAGES = {
    "af": "afrikaans", "sq": "albanian", "ar": "arabic", "hy": "armenian", "az": "azerbaijani",
    "bn": "bengali", "bs": "bosnian", "bg": "bulgarian", "ca": "catalan", "zh": "chinese",
    "hr": "croatian", "cs": "czech", "da": "danish", "nl": "dutch", "en": "english",
    "et": "estonian", "fi": "finnish", "fr": "french", "gl": "galician", "ka": "georgian",
    "de": "german", "el": "greek", "gu": "gujarati", "he": "hebrew", "hi": "hindi",
    "hu": "hungarian", "is": "icelandic", "id": "indonesian", "it": "italian", "ja": "japanese",
    "kn": "kannada", "kk": "kazakh", "ko": "korean", "lv": "latvian", "lt": "lithuanian",
    "mk": "macedonian", "ms": "malay", "ml": "malayalam", "mr": "marathi", "mn": "mongolian",
    "ne": "nepali", "no": "norwegian", "nb": "norwegian", "fa": "persian", "pl": "polish",
    "pt": "portuguese", "pa": "punjabi", "ro": "romanian", "ru": "russian", "sr": "serbian",
    "si": "sinhalese", "sk": "slovak", "sl": "slovenian", "so": "somali", "es": "spanish",
    "sw": "swahili", "sv": "swedish", "ta": "tamil", "te": "telugu", "th": "thai",
    "bo": "tibetan", "tr": "turkish", "uk": "ukrainian", "ur": "urdu", "vi": "vietnamese",
}  # fmt: skip
"""ISO 639-1 code to the language name GDELT's ``sourcelang:`` takes."""

_TIME_RANGES = frozenset({"day", "week", "month"})

INFO = EngineInfo(
    id="gdelt",
    categories=frozenset({"news"}),
    default_endpoint="https://api.gdeltproject.org",
    time_ranges=_TIME_RANGES,
    languages=frozenset(_SOURCE_LANGUAGES),
    query_limit=QueryLimit(300),
    credential_env=None,
    credential_required=False,
    attribution=False,
    rate_per_minute=12,
    docs="https://blog.gdeltproject.org/gdelt-doc-2-0-api-debuts/",
)

_MAX_RECORDS = 250
_RATE_LIMIT_TEXT = b"limit requests"


def _source_language(language: str | None) -> str | None:
    """GDELT's name for a language code (``en``, ``pt-BR`` …), or None."""
    if not language:
        return None
    return _SOURCE_LANGUAGES.get(language.strip().lower().replace("_", "-").split("-")[0])


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    query = search.query
    name = _source_language(search.language)
    if name is not None:
        query = f"{query} sourcelang:{name}"
    params = {
        "query": query,
        "mode": "artlist",
        "format": "json",
        "maxrecords": str(min(search.max_results, _MAX_RECORDS)),
        "sort": "hybridrel",
    }
    if search.time_range in _TIME_RANGES:
        params["timespan"] = f"{TIME_RANGE_DAYS[search.time_range]}d"
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    return http_request(
        "GET", endpoint_url(endpoint, "/api/v2/doc/doc"), params=params, headers=headers
    )


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    is_json = body.lstrip().startswith(b"{")
    if not is_json and _RATE_LIMIT_TEXT in body.lower():
        return EngineFailure("rate_limited", retry_after_seconds(headers))
    failure = failure_for_status(status, headers)
    if failure is not None:
        return failure
    if not is_json:
        return EngineFailure("parse_failure")
    try:
        # GDELT's JSON sometimes holds raw control characters inside strings.
        document = json.loads(body.decode("utf-8", errors="replace"), strict=False)
    except ValueError:
        return EngineFailure("parse_failure")
    if not isinstance(document, dict):
        return EngineFailure("parse_failure")
    items = document.get("articles", [])
    if not isinstance(items, list):
        return EngineFailure("parse_failure")
    results = [found for item in items if (found := _result(item)) is not None]
    return results[: search.max_results]


def _seen_date(value: Any) -> str | None:
    """``20260930T081500Z`` as ``2026-09-30``; None when it is not that shape."""
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.strptime(value.strip(), "%Y%m%dT%H%M%SZ").date().isoformat()
    except ValueError:
        return None


def _result(item: Any) -> RawResult | None:
    url = item_url(item)
    if url is None:
        return None
    return RawResult(
        title=string_field(item.get("title")),
        url=url,
        date=_seen_date(item.get("seendate")),
    )
