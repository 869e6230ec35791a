"""DuckDuckGo through its HTML endpoint (no JavaScript), parsed with parsel.

DuckDuckGo publishes no search API. What is documented is the set of URL
parameters its pages take (``kl`` region, ``df`` date filter):
https://duckduckgo.com/duckduckgo-help-pages/settings/params/ . The HTML
endpoint ``https://html.duckduckgo.com/html/`` takes them as a form POST; the
markup (``#links > div.web-result``, ``a.result__a``, ``a.result__snippet``)
and the block pages are those SearXNG's ``duckduckgo`` engine reads.

Choices:

- Only page 1 is asked (later pages need a ``vqd`` token; asking without it
  flags the client as a bot).
- The request carries a browser-like User-Agent, not ``search.user_agent``:
  DuckDuckGo's bot detector filters library-like agents.
- No language filter exists (``kl`` is a region), so ``languages`` is empty;
  ``kl=wt-wt`` (all regions) is sent.
- No date is read: the timestamp some result blocks carry is undocumented.
- ``rate_per_minute`` is 10: no limit is published and DuckDuckGo blocks an IP
  for about an hour when it sees too many requests.
- ``query_limit`` is 499 characters: DuckDuckGo rejects longer queries (SearXNG
  counts code points: "DDG does not accept queries with more than 499 chars").
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import SplitResult, parse_qs, urljoin, urlsplit

from .base import (
    BROWSER_HEADERS,
    EngineFailure,
    EngineInfo,
    EngineRequest,
    EngineSearch,
    QueryLimit,
    RawResult,
    endpoint_url,
    failure_for_status,
    http_request,
    markup_text,
    selection_text,
    web_url,
)

if TYPE_CHECKING:
    import httpx
    import parsel

INFO = EngineInfo(
    id="duckduckgo",
    categories=frozenset({"general"}),
    default_endpoint="https://html.duckduckgo.com",
    time_ranges=frozenset({"day", "week", "month", "year"}),
    languages=frozenset(),
    query_limit=QueryLimit(499),
    credential_env=None,
    credential_required=False,
    attribution=False,
    rate_per_minute=10,
    docs="https://duckduckgo.com/duckduckgo-help-pages/settings/params/",
)


_DATE_FILTER = {"day": "d", "week": "w", "month": "m", "year": "y"}

_PAGE_BASE = "https://html.duckduckgo.com/html/"

_BLOCK_MARKERS = (
    "anomaly-modal",
    "anomaly.js",
    "bots use duckduckgo too",
    "confirm this search was made by a human",
    "select all squares containing a duck",
)


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    form = {"q": search.query, "b": "", "kl": "wt-wt"}
    if search.time_range in _DATE_FILTER:
        form["df"] = _DATE_FILTER[search.time_range]
    headers = {**BROWSER_HEADERS, "Referer": "https://html.duckduckgo.com/"}
    return http_request("POST", endpoint_url(endpoint, "/html/"), data=form, headers=headers)


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    # A 202 carries the anomaly page; any 2xx but 200 is not a results page.
    if 200 < status < 300:
        return EngineFailure("blocked")
    failure = failure_for_status(status, headers)
    if failure is not None:
        return failure
    import parsel

    text = markup_text(headers, body)
    page = parsel.Selector(text=text)
    if page.xpath('//form[@id="challenge-form"]'):
        return EngineFailure("blocked")
    links = page.xpath('//div[@id="links"]')
    if not links:
        lowered = text.lower()
        if any(marker in lowered for marker in _BLOCK_MARKERS):
            return EngineFailure("blocked")
        return EngineFailure("parse_failure")
    results: list[RawResult] = []
    # Descendants, not children: a block left unclosed holds the blocks after it.
    for block in links.xpath(
        './/div[contains(concat(" ", normalize-space(@class), " "), " web-result ")]'
    ):
        result = _result(block)
        if result is not None:
            results.append(result)
    return results[: search.max_results]


def _result(block: parsel.Selector) -> RawResult | None:
    classes = block.attrib.get("class", "").split()
    if "result--ad" in classes or "result--no-result" in classes:
        return None
    # The block's own title and snippet: a block left unclosed holds the next ones' too.
    anchor = block.css("a.result__a")[:1]
    if not anchor:
        return None
    url = _target_url(anchor.attrib.get("href", ""))
    if url is None:
        return None
    title = selection_text(anchor)
    snippet = selection_text(block.css(".result__snippet")[:1])
    return RawResult(title=title, url=url, snippet=snippet)


def _target_url(href: str) -> str | None:
    """The result's own URL: ``uddg`` unwrapped from DuckDuckGo's redirect; None for ads,
    for a redirect without a target or whose target is another redirect, and for a link
    that is not http or https."""
    try:
        absolute = urljoin(_PAGE_BASE, href.strip())
    except ValueError:
        return None
    own = _duckduckgo_link(absolute)
    if own is None:
        return web_url(absolute)
    if own.path != "/l/":
        return None
    targets = parse_qs(own.query).get("uddg")
    target = web_url(targets[0]) if targets else None
    if target is None:
        return None
    inner = _duckduckgo_link(target)
    return None if inner is not None and inner.path in ("/l/", "/y.js") else target


def _duckduckgo_link(url: str) -> SplitResult | None:
    """``url``'s parts when it leads to DuckDuckGo itself; None otherwise."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    return parts if host == "duckduckgo.com" or host.endswith(".duckduckgo.com") else None
