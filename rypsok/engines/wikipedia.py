"""Wikipedia through the MediaWiki Action API, ``list=search`` (JSON, formatversion 2).

Docs: https://www.mediawiki.org/wiki/API:Search (parameters, response),
https://www.mediawiki.org/wiki/API:Errors_and_warnings (the error object) and
https://foundation.wikimedia.org/wiki/Policy:Wikimedia_Foundation_User-Agent_Policy
(a descriptive User-Agent is required).

The language picks the wiki (``{lang}.wikipedia.org``). Results carry no date:
the only timestamp MediaWiki gives is the last edit, not a publication date.
``query_limit`` is CirrusSearch's 300 characters (``CirrusSearchMaxFullTextQueryLength``,
counted with ``mb_strlen``: code points).
"""

from __future__ import annotations

import re
import urllib.parse
from typing import TYPE_CHECKING

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
    load_json,
    retry_after_seconds,
    strip_html,
)

if TYPE_CHECKING:
    import httpx

INFO = EngineInfo(
    id="wikipedia",
    categories=frozenset({"general"}),
    default_endpoint="https://{lang}.wikipedia.org",
    time_ranges=frozenset(),
    languages=frozenset({ANY_LANGUAGE}),
    query_limit=QueryLimit(300),
    credential_env=None,
    credential_required=False,
    attribution=True,
    rate_per_minute=60,
    docs="https://www.mediawiki.org/wiki/API:Search",
)

_PATH = "/w/api.php"
_MAX_LIMIT = 500

_WIKI_CODES_WITH_HYPHEN = frozenset(
    {
        "be-tarask",
        "zh-yue",
        "zh-min-nan",
        "zh-classical",
        "nds-nl",
        "roa-rup",
        "roa-tara",
        "map-bms",
        "fiu-vro",
        "bat-smg",
        "cbk-zam",
    }
)
"""Wiki subdomains that are not a bare language subtag."""

_WIKI_CODE_FOR_LANGUAGE = {
    "nb": "no",
    "gsw": "als",
    "yue": "zh-yue",
    "nan": "zh-min-nan",
    "lzh": "zh-classical",
    "rup": "roa-rup",
    "sgs": "bat-smg",
    "vro": "fiu-vro",
    "be-x-old": "be-tarask",
}
"""Language codes whose Wikipedia lives under another subdomain."""

_WIKI_CODE = re.compile(r"[a-z]{2,8}")

_RATE_LIMIT_CODES = frozenset({"ratelimited", "cirrussearch-too-busy-error", "maxlag"})


def _wiki_code(language: str | None) -> str:
    """The wiki subdomain for a language tag: ``pt-BR`` -> ``pt``, ``nb`` -> ``no``."""
    if not language:
        return "en"
    tag = language.strip().lower().replace("_", "-")
    if tag in _WIKI_CODE_FOR_LANGUAGE:
        return _WIKI_CODE_FOR_LANGUAGE[tag]
    if tag in _WIKI_CODES_WITH_HYPHEN:
        return tag
    primary = tag.split("-", 1)[0]
    primary = _WIKI_CODE_FOR_LANGUAGE.get(primary, primary)
    if primary not in _WIKI_CODES_WITH_HYPHEN and not _WIKI_CODE.fullmatch(primary):
        raise ValueError(f"not a Wikipedia language code: {language!r}")
    return primary


_ARTICLE_PATH_SAFE = ";@$!*(),/~:"
_ARTICLE_PATH_KEPT = re.compile("[A-Za-z0-9_.~" + re.escape(_ARTICLE_PATH_SAFE + "-") + "]*")
"""A title path ``quote`` leaves as it is (the characters it always keeps, and the safe ones):
most titles, which then skip its encoding."""


def _article_url(lang: str, title: str) -> str | None:
    """The public article URL, percent-encoded as MediaWiki's wfUrlencode does; None for a
    title that is not Unicode text (a lone surrogate, which JSON can escape), which names no
    article."""
    path = title.replace(" ", "_")
    if not _ARTICLE_PATH_KEPT.fullmatch(path):
        try:
            path = urllib.parse.quote(path, safe=_ARTICLE_PATH_SAFE)
        except UnicodeEncodeError:
            return None
    return f"https://{lang}.wikipedia.org/wiki/{path}"


def _api_error(data: object, headers: httpx.Headers) -> EngineFailure | None:
    """MediaWiki's error object (usually under HTTP 200), or its MediaWiki-API-Error header."""
    code = None
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        code = str(data["error"].get("code", ""))
    elif headers.get("mediawiki-api-error"):
        code = headers["mediawiki-api-error"].strip()
    if code is None:
        return None
    if code in _RATE_LIMIT_CODES:
        return EngineFailure("rate_limited", retry_after_seconds(headers))
    return EngineFailure("request_failure")


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    lang = _wiki_code(search.language)
    params = {
        "action": "query",
        "list": "search",
        "srsearch": search.query,
        "srlimit": str(max(1, min(search.max_results, _MAX_LIMIT))),
        "srprop": "snippet",
        "format": "json",
        "formatversion": "2",
    }
    headers = {"User-Agent": search.user_agent, "Accept": "application/json"}
    return http_request("GET", endpoint_url(endpoint, _PATH, lang), params=params, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    try:
        data = load_json(body)
    except ValueError:
        data = None
    failure = _api_error(data, headers) or failure_for_status(status, headers)
    if failure is not None:
        return failure
    if data is None:
        return EngineFailure("parse_failure")
    query = data.get("query") if isinstance(data, dict) else None
    hits = query.get("search") if isinstance(query, dict) else None
    if not isinstance(hits, list):
        return EngineFailure("parse_failure")
    lang = _wiki_code(search.language)
    results = []
    for hit in hits:
        if not isinstance(hit, dict) or not isinstance(hit.get("title"), str) or not hit["title"]:
            continue
        url = _article_url(lang, hit["title"])
        if url is None:
            continue
        results.append(
            RawResult(title=hit["title"], url=url, snippet=strip_html(hit.get("snippet")))
        )
    return results
