"""Mojeek through its HTML results page, parsed with parsel.

The web page takes the parameters of Mojeek's Search API
(https://www.mojeek.com/support/api/search/request_parameters.html): ``q``
and ``since=YYYYMMDD``. The markup (``ul.results-standard > li``, ``h2 >
a.title``, ``p.s``) is the one SearXNG's ``mojeek`` engine reads.

Choices:

- The request carries a browser-like User-Agent, not ``search.user_agent``,
  as every client of the page does; the JSON API that would not need one is
  paid.
- ``s`` (offset) is never sent: on page 1 it triggers Mojeek's rate limit.
- ``lb`` (language) is a boost, not a filter, so ``languages`` is empty.
- No date is read: the page shows none that is documented.
- ``rate_per_minute`` is 6: no limit is published; about ten quick requests
  from one IP earn a 403 that lasts minutes.
- ``query_limit`` is 400 characters: Mojeek documents no limit, so rypsok's
  call-wide bound stands.
- A 403 is ``blocked`` (the shared rule). A page with neither a result list
  nor Mojeek's search form is not Mojeek's results page: ``parse_failure`` here,
  which ``base.read_answer`` turns into ``blocked`` when it is a challenge (Mojeek
  serves its ALTCHA proof-of-work page under 200).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    id="mojeek",
    categories=frozenset({"general"}),
    default_endpoint="https://www.mojeek.com",
    time_ranges=frozenset({"day", "week", "month", "year"}),
    languages=frozenset(),
    query_limit=QueryLimit(400),
    credential_env=None,
    credential_required=False,
    attribution=False,
    rate_per_minute=6,
    docs="https://www.mojeek.com/support/api/search/request_parameters.html",
)


def build_request(endpoint: str, search: EngineSearch, credential: str | None) -> EngineRequest:
    params = {"q": search.query}
    since = search.since()
    if since is not None:
        params["since"] = since.strftime("%Y%m%d")
    return http_request(
        "GET", endpoint_url(endpoint, "/search"), params=params, headers=BROWSER_HEADERS
    )


def parse(
    status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    failure = failure_for_status(status, headers)
    if failure is not None:
        return failure
    import parsel

    page = parsel.Selector(text=markup_text(headers, body))
    rows = page.xpath(
        '//ul[contains(concat(" ", normalize-space(@class), " "), " results-standard ")]/li'
    )
    if not rows:
        if page.xpath('//form[@action="/search"]//input[@name="q"]'):
            return []
        return EngineFailure("parse_failure")
    results: list[RawResult] = []
    for row in rows:
        result = _result(row)
        if result is not None:
            results.append(result)
    return results[: search.max_results]


def _result(row: parsel.Selector) -> RawResult | None:
    anchor = row.xpath("./h2/a[@href]")
    if not anchor:
        anchor = row.css("a.ob[href]")
    if not anchor:
        return None
    url = web_url(anchor.attrib["href"])
    if url is None:
        return None
    title = selection_text(row.xpath("./h2"))
    snippet = selection_text(row.css("p.s"))
    return RawResult(title=title, url=url, snippet=snippet)
