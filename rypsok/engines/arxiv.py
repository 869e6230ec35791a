"""arXiv papers through the arXiv API, ``/api/query`` (Atom 1.0).

Docs: https://info.arxiv.org/help/api/user-manual.html (query syntax, the Atom
response, errors in section 3.4) and https://info.arxiv.org/help/api/tou.html
(one request every 3 seconds).

The query becomes ``all:`` terms joined by ``AND``; ``time_range`` becomes a
``submittedDate:[FROM TO NOW]`` clause (GMT). arXiv reports a bad request as
an ordinary feed holding one entry titled ``Error``.

The feed is read as feed readers read one, forgivingly: its bytes are decoded by the one
charset picker (``base.markup_text``: the Content-Type's charset, a BOM, the XML
declaration) and the characters XML forbids (NUL and the other C0 controls) are left out.
A feed that is still not well-formed (a bad entity or tag in one entry, a feed cut short)
is read entry by entry with lxml's recovering parser, so that the error costs at most the
entry it is in. Entities are never expanded and nothing is fetched: not a DTD, not an
external entity, not an XInclude.
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
    markup_text,
    web_url,
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
_FEED = f"{_ATOM}feed"
_ENTRY = f"{_ATOM}entry"
_FEED_START = re.compile(r"<(?:[\w.-]+:)?feed\b[^>]*>")
_ENTRY_START = re.compile(r"(?=<(?:[\w.-]+:)?entry[\s/>])")
_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
_SYNTAX = re.compile(r'[()\[\]{}:"\\]')
_OPERATORS = frozenset({"AND", "OR", "ANDNOT"})
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 does not allow in a document."""


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
def _xml_parser(recover: bool) -> lxml.etree.XMLParser:
    import lxml.etree

    return lxml.etree.XMLParser(
        encoding="utf-8", resolve_entities=False, no_network=True, recover=recover
    )


def _root(text: str, *, recover: bool) -> lxml.etree._Element | None:
    import lxml.etree

    try:
        return lxml.etree.fromstring(text.encode("utf-8"), _xml_parser(recover))
    except (lxml.etree.XMLSyntaxError, ValueError):
        return None


def _entries(headers: httpx.Headers, body: bytes) -> list[lxml.etree._Element] | None:
    """The feed's entries; None when the answer is not an Atom feed.

    A feed that is not well-formed is read by the recovering parser one entry at a time,
    each on its own behind the feed's start tag: the parser's recovery (a stray closing tag
    ends the document for it) then costs at most the entry it is in."""
    text = _NOT_XML.sub("", markup_text(headers, body))
    feed = _root(text, recover=False)
    if feed is not None:
        return list(feed.iter(_ENTRY)) if feed.tag == _FEED else None
    head, *chunks = _ENTRY_START.split(text)
    feed = _root(head, recover=True)
    if feed is None or feed.tag != _FEED:
        return None
    start = _FEED_START.search(head)
    opening = start[0] if start else ""
    entries = []
    for chunk in chunks:
        piece = _root(opening + chunk, recover=True)
        if piece is not None:
            entries.extend(piece.iter(_ENTRY))
    return entries


def _text(element: lxml.etree._Element | None) -> str:
    """An element's text, that of elements inside it included; an entity reference the
    parser left in place is left out, never expanded."""
    if element is None:
        return ""
    parts = [element.text or ""]
    for child in element:
        if isinstance(child.tag, str):
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _entry_url(entry: lxml.etree._Element) -> str | None:
    link = entry.find(f"{_ATOM}link[@rel='alternate']")
    url = web_url(link.get("href") or "") if link is not None else None
    return url or web_url(_text(entry.find(f"{_ATOM}id")))


def _is_error_entry(entry: lxml.etree._Element) -> bool:
    try:
        entry_id = _text(entry.find(f"{_ATOM}id"))
        title = _text(entry.find(f"{_ATOM}title")).strip()
        author = _text(entry.find(f"{_ATOM}author/{_ATOM}name")).strip()
    except UnicodeDecodeError:  # a surrogate written as a character reference
        return False
    return "/api/errors" in entry_id or (title == "Error" and author == "arXiv api core")


def _result(entry: lxml.etree._Element) -> RawResult | None:
    """The entry as a result; None when it has no title or no http(s) link, or when lxml
    cannot give its text (a surrogate written as a character reference)."""
    try:
        title = _text(entry.find(f"{_ATOM}title"))
        url = _entry_url(entry)
        if not title or url is None:
            return None
        return RawResult(
            title=title,
            url=url,
            snippet=_text(entry.find(f"{_ATOM}summary")),
            date=iso_date(entry.findtext(f"{_ATOM}published")),
        )
    except UnicodeDecodeError:
        return None


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    entries = _entries(headers, body)
    if entries is not None and any(_is_error_entry(entry) for entry in entries):
        return EngineFailure("parse_failure")
    failure = failure_for_status(status, headers)
    if failure is not None:
        return failure
    if entries is None:
        return EngineFailure("parse_failure")
    return [result for entry in entries if (result := _result(entry)) is not None]
