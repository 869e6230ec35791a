"""arXiv papers through the arXiv API, ``/api/query`` (Atom 1.0).

Docs: https://info.arxiv.org/help/api/user-manual.html (query syntax, the Atom
response, errors in section 3.4) and https://info.arxiv.org/help/api/tou.html
(one request every 3 seconds).

The query becomes ``all:`` terms joined by ``AND``; ``time_range`` becomes a
``submittedDate:[FROM TO NOW]`` clause (GMT). arXiv reports a bad request as
an ordinary feed holding one entry titled ``Error``.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import TYPE_CHECKING

from .base import (
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
)

if TYPE_CHECKING:
    import httpx
    import lxml.etree

INFO = EngineInfo(
    id="arxiv",
    categories=frozenset({"science"}),
    default_endpoint="https://export.arxiv.org",
    time_ranges=frozenset(TIME_RANGES),
    languages=frozenset(),
    query_limit=QueryLimit(300),
    credential_env=None,
    credential_required=False,
    attribution=False,
    rate_per_minute=20,
    docs="https://info.arxiv.org/help/api/user-manual.html",
)
"""query_limit: arXiv documents none; 300 characters match Wikipedia's and keep URLs short."""

_PATH = "/api/query"
_MAX_RESULTS = 2000
_ATOM = "{http://www.w3.org/2005/Atom}"
_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
_SYNTAX = re.compile(r'[()\[\]{}:"\\]')
_OPERATORS = frozenset({"AND", "OR", "ANDNOT"})


def _search_query(query: str) -> str:
    """Plain words and "quoted phrases" as ``all:`` terms, all required; query syntax removed."""
    terms = []
    for match in _TOKEN.finditer(query):
        phrase, word = match.groups()
        if phrase is not None:
            cleaned = " ".join(_SYNTAX.sub(" ", phrase).split())
            if cleaned:
                terms.append(f'all:"{cleaned}"')
        elif word not in _OPERATORS:
            terms.extend(f"all:{part}" for part in _SYNTAX.sub(" ", word).split())
    return " AND ".join(terms) if terms else 'all:""'


def _arxiv_minute(moment: dt.datetime) -> str:
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC)
    return moment.strftime("%Y%m%d%H%M")


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    search_query = _search_query(search.query)
    since = search.since()
    if since is not None:
        span = f"[{_arxiv_minute(since)} TO {_arxiv_minute(search.now)}]"
        search_query = f"({search_query}) AND submittedDate:{span}"
    params = {
        "search_query": search_query,
        "start": "0",
        "max_results": str(max(1, min(search.max_results, _MAX_RESULTS))),
        "sortBy": "relevance",
        "sortOrder": "descending",
    }
    headers = {"User-Agent": search.user_agent, "Accept": "application/atom+xml"}
    return http_request("GET", endpoint_url(endpoint, _PATH), params=params, headers=headers)


@functools.cache
def _xml_parser() -> lxml.etree.XMLParser:
    import lxml.etree

    return lxml.etree.XMLParser(resolve_entities=False, no_network=True)


def _feed(body: bytes) -> lxml.etree._Element | None:
    import lxml.etree

    try:
        root = lxml.etree.fromstring(body, _xml_parser())
    except (lxml.etree.XMLSyntaxError, ValueError):
        return None
    return root if root is not None and root.tag == f"{_ATOM}feed" else None


def _is_error_entry(entry: lxml.etree._Element) -> bool:
    entry_id = entry.findtext(f"{_ATOM}id") or ""
    title = (entry.findtext(f"{_ATOM}title") or "").strip()
    author = (entry.findtext(f"{_ATOM}author/{_ATOM}name") or "").strip()
    return "/api/errors" in entry_id or (title == "Error" and author == "arXiv api core")


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    feed = _feed(body)
    entries = feed.findall(f"{_ATOM}entry") if feed is not None else []
    if any(_is_error_entry(entry) for entry in entries):
        return EngineFailure("parse_failure")
    failure = failure_for_status(status, headers)
    if failure is not None:
        return failure
    if feed is None:
        return EngineFailure("parse_failure")
    results = []
    for entry in entries:
        title = entry.findtext(f"{_ATOM}title")
        link = entry.find(f"{_ATOM}link[@rel='alternate']")
        url = link.get("href") if link is not None else None
        url = url or (entry.findtext(f"{_ATOM}id") or "").strip()
        if not title or not url:
            continue
        results.append(
            RawResult(
                title=title,
                url=url,
                snippet=entry.findtext(f"{_ATOM}summary") or "",
                date=iso_date(entry.findtext(f"{_ATOM}published")),
            )
        )
    return results
