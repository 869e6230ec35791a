"""What the two Brave Search API engines (brave, brave_news) share: the request, the
language mapping, the error signals and the reading of one result.

Documented at https://api-dashboard.search.brave.com/api-reference/web/search/get and
.../news/news_search/get (request, ``freshness``, ``search_lang``),
.../documentation/web-search/responses (results) and
.../documentation/web-search/response-headers (``X-RateLimit-*``). The choices are
written in ``brave.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import (
    EngineFailure,
    EngineRequest,
    EngineSearch,
    RawResult,
    endpoint_url,
    failure_for_status,
    http_request,
    iso_date,
    item_url,
    load_json,
    retry_after_seconds,
    string_field,
    strip_html,
)

if TYPE_CHECKING:
    import httpx

FRESHNESS = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}

_SEARCH_LANGS = frozenset(
    {
        "ar", "eu", "bn", "bg", "ca", "zh-hans", "zh-hant", "hr", "cs", "da", "nl", "en",
        "en-gb", "et", "fi", "fr", "gl", "de", "el", "gu", "he", "hi", "hu", "is", "it",
        "jp", "kn", "ko", "lv", "lt", "ms", "ml", "mr", "nb", "pl", "pt-br", "pt-pt", "pa",
        "ro", "ru", "sr", "sk", "sl", "es", "sv", "ta", "te", "th", "tr", "uk", "vi",
    }
)  # fmt: skip
"""``search_lang`` values in Brave's API reference."""

_SEARCH_LANG_ALIASES = {
    "ja": "jp",
    "no": "nb",
    "pt": "pt-pt",
    "zh": "zh-hans",
    "zh-cn": "zh-hans",
    "zh-sg": "zh-hans",
    "zh-tw": "zh-hant",
    "zh-hk": "zh-hant",
}
"""Common language codes that Brave spells its own way."""


def _bcp47_case(code: str) -> str:
    """``zh-hans`` as ``zh-Hans``, ``pt-br`` as ``pt-BR``: the casing operators write."""
    first, *rest = code.split("-")
    parts = [first.lower()]
    for part in rest:
        parts.append(part.title() if len(part) == 4 else part.upper() if len(part) == 2 else part)
    return "-".join(parts)


_LOWER_CODES = _SEARCH_LANGS | _SEARCH_LANG_ALIASES.keys()
LANGUAGES = frozenset(_LOWER_CODES | {_bcp47_case(code) for code in _LOWER_CODES})
"""Exact codes ``honours_language`` accepts, in lower case and in BCP 47 casing."""

_AUTH_ERROR_CODES = frozenset({"SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_NOT_FOUND"})


def _search_lang(language: str | None) -> str | None:
    """Brave's ``search_lang`` for a language code, or None when Brave has none."""
    if not language:
        return None
    code = language.strip().lower().replace("_", "-")
    for candidate in (code, code.split("-")[0]):
        candidate = _SEARCH_LANG_ALIASES.get(candidate, candidate)
        if candidate in _SEARCH_LANGS:
            return candidate
    return None


def request(
    endpoint: str,
    path: str,
    search: EngineSearch,
    credential: str | None,
    count: int,
    extra: dict[str, str] | None = None,
) -> EngineRequest:
    """The request both Brave engines send; ``path``, ``count`` and ``extra`` differ."""
    params = {"q": search.query, "count": str(count), **(extra or {})}
    if search.time_range in FRESHNESS:
        params["freshness"] = FRESHNESS[search.time_range]
    lang = _search_lang(search.language)
    if lang is not None:
        params["search_lang"] = lang
    headers = {"Accept": "application/json", "User-Agent": search.user_agent}
    if credential:
        headers["X-Subscription-Token"] = credential
    return http_request("GET", endpoint_url(endpoint, path), params=params, headers=headers)


def failure(status: int, headers: httpx.Headers, body: bytes) -> EngineFailure | None:
    """Brave's own error signals, then the shared mapping; None for a 2xx."""
    if 200 <= status < 300:
        return None
    code, loc_fields = _error_code(body)
    if code in _AUTH_ERROR_CODES or (code == "VALIDATION" and "x-subscription-token" in loc_fields):
        return EngineFailure("auth_failure")
    if status == 429:
        # QUOTA_LIMITED is the plan's quota spent ("Request quota limit exceeded for plan."),
        # which no minute clears: the search rests the engine. RATE_LIMITED is the rate.
        spent = code == "QUOTA_LIMITED"
        return EngineFailure("rate_limited", _rate_limit_wait(headers), spent=spent)
    return failure_for_status(status, headers)


def _rate_limit_wait(headers: httpx.Headers) -> float | None:
    """Retry-After, else the longest reset among windows with nothing remaining."""
    retry_after = retry_after_seconds(headers)
    if retry_after is not None:
        return retry_after
    remaining = _numbers(headers.get("x-ratelimit-remaining"))
    resets = _numbers(headers.get("x-ratelimit-reset"))
    exhausted = [
        reset
        for left, reset in zip(remaining, resets, strict=False)
        if left is not None and reset is not None and left <= 0
    ]
    return max(exhausted) if exhausted else None


def result(item: Any) -> RawResult | None:
    """One Brave web or news result."""
    url = item_url(item)
    if url is None:
        return None
    return RawResult(
        title=strip_html(string_field(item.get("title"))),
        url=url,
        snippet=strip_html(string_field(item.get("description"))),
        date=iso_date(item.get("page_age")),
    )


def _error_code(body: bytes) -> tuple[str | None, set[str]]:
    """The error's ``code`` and the header/field names in its ``meta.errors[].loc``.

    The schema has ``"error": {…}``; the reference's examples show
    ``"errors": [{…}]``; both are read.
    """
    try:
        document = load_json(body)
    except ValueError:
        return None, set()
    if not isinstance(document, dict):
        return None, set()
    error = document.get("error")
    if error is None and isinstance(document.get("errors"), list) and document["errors"]:
        error = document["errors"][0]
    if not isinstance(error, dict):
        return None, set()
    code = error.get("code") if isinstance(error.get("code"), str) else None
    locations: set[str] = set()
    meta = error.get("meta")
    details = meta.get("errors") if isinstance(meta, dict) else None
    for detail in details if isinstance(details, list) else ():
        loc = detail.get("loc") if isinstance(detail, dict) else None
        if isinstance(loc, list):
            locations.update(str(part).lower() for part in loc)
    return code, locations


def _numbers(value: str | None) -> list[float | None]:
    if not value:
        return []
    numbers: list[float | None] = []
    for part in value.split(","):
        try:
            numbers.append(float(part.strip()))
        except ValueError:
            numbers.append(None)
    return numbers
