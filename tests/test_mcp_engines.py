"""Every engine end to end, as an agent meets it: rypsok over stdio, the engine on loopback.

One rypsok subprocess per category serves that category's engines, each pointed at
the loopback engine server (``tests/engine_servers.py``) that answers with the
engine's saved responses. For each engine, through ``tools/call``:

- its normal answer: outcome, every result's url, title and date, the first result
  field by field, ``engines`` exactly when the engine's terms require attribution;
  the one request it received (method, documented path, every parameter, the
  User-Agent, the credential for keyed engines);
- a call with ``time_range`` (and ``language`` where the engine honours languages):
  the engine's own mapping of both, and the skip notices of the category's other
  engines that cannot honour them;
- its own documented failure body beside a good engine of the same category: outcome
  partial with ``engine_unavailable`` naming the engine and the reason.

While one engine is under test the others of its category answer their "no results"
fixture, so every result comes from the engine under test. Credentials are passed to
the subprocess through its environment and must never appear in a response or in the
operator log (stderr, at level debug).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import anyio
import pytest
from mcp import ClientSession

from rypsok.engines.base import CATEGORIES, EngineInfo
from rypsok.engines.registry import ENGINE_IDS, engine_module
from tests.conftest import config_data
from tests.engine_servers import EngineServer, Play, fixture
from tests.mcp_harness import TRANSPORTS, assert_conforms, session, structured, write_toml

pytestmark = pytest.mark.anyio

BRAVE_KEY = "brave-test-key-5c81d07e"
OPENALEX_KEY = "openalex-test-key-93aa2f"
GITHUB_TOKEN = "github-test-token-4be1"
STACKEXCHANGE_KEY = "stackexchange-test-key-77d0"
CREDENTIALS = {
    "BRAVE_API_KEY": BRAVE_KEY,
    "OPENALEX_API_KEY": OPENALEX_KEY,
    "GITHUB_TOKEN": GITHUB_TOKEN,
    "STACKEXCHANGE_KEY": STACKEXCHANGE_KEY,
}
"""MARGINALIA_API_KEY is left unset on purpose: marginalia then sends the shared key."""

LANGUAGES = ["en", "de"]
MAX_RESULTS = 10
COOLDOWN_S = 0.05
"""A rate limit with a wait opens the engine; the breaker keeps that to 50 ms so the next
test finds it closed again (the probe after the cooldown is an ordinary request)."""

DOCUMENTED_PATHS = {
    "arxiv": "/api/query",
    "brave": "/res/v1/web/search",
    "brave_news": "/res/v1/news/search",
    "crossref": "/works",
    "duckduckgo": "/html/",
    "gdelt": "/api/v2/doc/doc",
    "github": "/search/repositories",
    "hackernews": "/api/v1/search",
    "marginalia": "/search",
    "mojeek": "/search",
    "openalex": "/works",
    "searxng": "/search",
    "stackexchange": "/2.3/search/advanced",
    "wikipedia": "/w/api.php",
}
"""DECISIONS.md, "The path appended to an engine's endpoint"."""

DAYS = {"day": 1, "week": 7, "month": 31, "year": 365}

HTML = "text/html; charset=UTF-8"
JSON = "application/json; charset=utf-8"
CONTENT_TYPES = {
    "arxiv": "application/atom+xml; charset=UTF-8",
    "duckduckgo": HTML,
    "mojeek": HTML,
}
EMPTY_FIXTURES = {
    "arxiv": "arxiv/empty.xml",
    "brave": "brave/no_web.json",
    "duckduckgo": "duckduckgo/empty.html",
    "mojeek": "mojeek/empty.html",
}
GOOD_FIXTURES = {
    "arxiv": "arxiv/search.xml",
    "duckduckgo": "duckduckgo/search.html",
    "mojeek": "mojeek/search.html",
}
COMPRESSED = {"stackexchange"}
"""The Stack Exchange API always answers gzip-compressed."""


def info(engine: str) -> EngineInfo:
    return engine_module(engine).INFO


TESTED_HERE = tuple(engine for engine in ENGINE_IDS if info(engine).listed_without_credential)
"""Every engine but the bring-your-own-key ones (tavily, exa, kagi, serper: not offered
without their keys, and several categories each), which tests/test_mcp_keyed.py covers."""


def engines_of(category: str) -> list[str]:
    return [engine for engine in TESTED_HERE if category in info(engine).categories]


def category_of(engine: str) -> str:
    (category,) = info(engine).categories
    return category


def answer(engine: str, body: bytes) -> Play:
    return Play(
        body=body,
        headers={"Content-Type": CONTENT_TYPES.get(engine, JSON)},
        gzip=engine in COMPRESSED,
    )


def good_play(engine: str) -> Play:
    return answer(engine, fixture(GOOD_FIXTURES.get(engine, f"{engine}/search.json")))


def empty_play(engine: str) -> Play:
    return answer(engine, fixture(EMPTY_FIXTURES.get(engine, f"{engine}/empty.json")))


@dataclass(frozen=True)
class Window:
    """The test's clock before and after a call; the engine's ``now`` lies between."""

    before: dt.datetime
    after: dt.datetime

    def moments(self) -> tuple[dt.datetime, dt.datetime]:
        return self.before, self.after

    def since(self, time_range: str, pattern: str) -> set[str]:
        delta = dt.timedelta(days=DAYS[time_range])
        return {(moment - delta).strftime(pattern) for moment in self.moments()}

    def since_epoch(self, time_range: str) -> set[str]:
        delta = dt.timedelta(days=DAYS[time_range])
        low = int((self.before - delta).timestamp())
        high = int((self.after - delta).timestamp())
        return {str(second) for second in range(low, high + 1)}


Expected = dict[str, "str | set[str]"]


@dataclass(frozen=True)
class Case:
    engine: str
    query: str
    params: dict[str, str]
    """Every parameter of the plain call (query string, or form body for a POST)."""
    first: dict[str, Any]
    """The first result field by field, ``engines`` aside."""
    titles: tuple[str, ...]
    urls: tuple[str, ...]
    dates: tuple[str | None, ...]
    failure: Play
    failure_reason: str
    failure_opens: bool
    """Whether the failure carries a wait, which opens the engine (engine_status "open")."""
    partner: str
    """An engine of the same category that answers well while this one fails."""
    variant: dict[str, str]
    """time_range and, where honoured, language for the second call."""
    variant_params: Callable[[Window], Expected] | None
    """Every parameter of the second call; a set lists the values the clock allows."""
    method: str = "GET"
    headers: dict[str, str] = field(default_factory=dict)
    """Request headers that must be sent (lower-case names)."""
    variant_body: bytes | None = None
    variant_urls: tuple[str, ...] | None = None
    endpoint_suffix: str = ""
    """An operator path prefix after ``/e/<engine>``; ``{lang}`` is filled in."""

    @property
    def category(self) -> str:
        return category_of(self.engine)


def changed(base: dict[str, str], **updates: str | set[str]) -> Callable[[Window], Expected]:
    return lambda window: {**base, **updates}


ARXIV = {
    "search_query": "all:sparse AND all:attention",
    "start": "0",
    "max_results": "10",
    "sortBy": "relevance",
    "sortOrder": "descending",
}
BRAVE = {"q": "rust async", "count": "10", "text_decorations": "false", "search_lang": "en"}
BRAVE_NEWS = {"q": "eu ai act", "count": "10", "search_lang": "en"}
CROSSREF = {
    "query": "graph neural networks",
    "rows": "10",
    "select": "DOI,URL,title,abstract,published,issued,container-title,type",
}
DUCKDUCKGO = {"q": "rust async", "b": "", "kl": "wt-wt"}
GDELT = {
    "query": "budget vote sourcelang:english",
    "mode": "artlist",
    "format": "json",
    "maxrecords": "10",
    "sort": "hybridrel",
}
GITHUB = {"q": "async runtime", "per_page": "10", "page": "1"}
HACKERNEWS = {"query": "search", "tags": "story", "hitsPerPage": "10"}
MARGINALIA = {"query": "linear b", "count": "10"}
MOJEEK = {"q": "rust async"}
OPENALEX = {
    "search": "graph neural networks",
    "per-page": "10",
    "select": "id,doi,display_name,title,publication_date,primary_location,abstract_inverted_index",
    "filter": "language:en",
    "api_key": OPENALEX_KEY,
}
SEARXNG = {"q": "rust async", "format": "json", "categories": "general", "language": "en"}
STACKEXCHANGE = {
    "q": "asyncio await",
    "site": "stackoverflow",
    "order": "desc",
    "sort": "relevance",
    "pagesize": "10",
    "page": "1",
    "filter": "withbody",
    "key": STACKEXCHANGE_KEY,
}
WIKIPEDIA = {
    "action": "query",
    "list": "search",
    "srsearch": "python",
    "srlimit": "10",
    "srprop": "snippet",
    "format": "json",
    "formatversion": "2",
}

API_AGENT = "rypsok/"
BROWSER_AGENT = "Mozilla/5.0 "

ABSENT = "(absent)"
TRACKED_HN_URL = "https://example.org/tool?utm_source=hn&id=7&fbclid=IwAR0x"


def arxiv_week(window: Window) -> Expected:
    queries = set()
    for moment in window.moments():
        since = moment - dt.timedelta(days=7)
        span = f"[{since:%Y%m%d%H%M} TO {moment:%Y%m%d%H%M}]"
        queries.add(f"(all:sparse AND all:attention) AND submittedDate:{span}")
    return {**ARXIV, "search_query": queries}


CASES = [
    Case(
        engine="arxiv",
        query="sparse attention",
        params=ARXIV,
        first={
            "title": "Sparse Attention for Long Documents",
            "url": "https://arxiv.org/abs/2609.01234v2",
            "snippet": "We study sparse attention over long documents & show that a block pattern"
            " matches dense attention at a fraction of the cost.",
            "date": "2026-09-02",
        },
        titles=(
            "Sparse Attention for Long Documents",
            "Attention to $\\mathcal{N}=4$ Sparse Branes <revisited>",
            "Attention Is Sparse, Mostly",
        ),
        urls=(
            "https://arxiv.org/abs/2609.01234v2",
            "http://arxiv.org/abs/hep-th/9901001v1",
            "https://arxiv.org/abs/2609.09999v1",
        ),
        dates=("2026-09-02", "1999-01-04", "2026-09-30"),
        failure=Play(
            body=fixture("arxiv/error.xml"),
            headers={"Content-Type": CONTENT_TYPES["arxiv"]},
        ),
        failure_reason="parse_failure",
        failure_opens=False,
        partner="crossref",
        variant={"time_range": "week"},
        variant_params=arxiv_week,
        headers={"accept": "application/atom+xml"},
    ),
    Case(
        engine="brave",
        query="rust async",
        params=BRAVE,
        first={
            "title": "Getting Started - Asynchronous Programming in Rust",
            "url": "https://rust-lang.github.io/async-book/",
            "snippet": "This book aims to be a comprehensive guide to async programming in Rust,"
            " from beginner to advanced.",
            "date": "2026-08-14",
        },
        titles=(
            "Getting Started - Asynchronous Programming in Rust",
            "Tutorial | Tokio - An asynchronous Rust runtime",
            "async - Rust",
            "Why async Rust?",
        ),
        urls=(
            "https://rust-lang.github.io/async-book/",
            "https://tokio.rs/tokio/tutorial",
            "https://doc.rust-lang.org/std/keyword.async.html",
            "https://without.boats/blog/why-async-rust/",
        ),
        dates=("2026-08-14", None, "2026-09-18", "2026-07-02"),
        failure=Play(body=fixture("brave/error_token_invalid.json"), status=422),
        failure_reason="auth_failure",
        failure_opens=False,
        partner="wikipedia",
        variant={"time_range": "week", "language": "de"},
        variant_params=changed(BRAVE, freshness="pw", search_lang="de"),
        headers={"x-subscription-token": BRAVE_KEY, "accept": "application/json"},
    ),
    Case(
        engine="brave_news",
        query="eu ai act",
        params=BRAVE_NEWS,
        first={
            "title": "EU AI Act enters next phase",
            "url": "https://news.example/2026/09/30/ai-act-next-phase",
            "snippet": "Lawmakers agreed on the timetable for general-purpose models & high-risk"
            " systems.",
            "date": "2026-09-30",
        },
        titles=(
            "EU AI Act enters next phase",
            "What the AI Act means for start-ups",
            "Brussels publishes AI Act guidance",
        ),
        urls=(
            "https://news.example/2026/09/30/ai-act-next-phase",
            "https://tech.example.com/ai-act-startups",
            "https://eu.example.eu/press/ai-act-guidance",
        ),
        dates=("2026-09-30", None, "2026-09-25"),
        failure=Play(
            body=fixture("brave/error_rate_limited.json"),
            status=429,
            headers={
                "Content-Type": JSON,
                "X-RateLimit-Limit": "1, 2000",
                "X-RateLimit-Remaining": "0, 1963",
                "X-RateLimit-Reset": "1, 1419704",
            },
        ),
        failure_reason="rate_limited",
        failure_opens=True,
        partner="hackernews",
        variant={"time_range": "day", "language": "de"},
        variant_params=changed(BRAVE_NEWS, freshness="pd", search_lang="de"),
        headers={"x-subscription-token": BRAVE_KEY, "accept": "application/json"},
    ),
    Case(
        engine="crossref",
        query="graph neural networks",
        params=CROSSREF,
        first={
            "title": "Graph Neural Networks: A Review of Methods and Applications",
            "url": "https://doi.org/10.1234/abcd.5678",
            "snippet": "We review graph neural networks (GNNs) & their message-passing variants."
            " Open problems are listed.",
            "date": "2024-03-01",
        },
        titles=(
            "Graph Neural Networks: A Review of Methods and Applications",
            "Scaling E. coli Growth Models with GNNs",
            "",
            "Networks of Neurons on Graphs",
            "Message Passing Revisited",
        ),
        urls=(
            "https://doi.org/10.1234/abcd.5678",
            "https://doi.org/10.5555/ex.2024.0042",
            "https://doi.org/10.9999/book-chapter-7",
            "https://doi.org/10.4321/old.1999.001",
            "https://doi.org/10.7777/preprint.2025",
        ),
        dates=("2024-03-01", None, "2023-11-05", None, None),
        failure=Play(body=fixture("crossref/error_validation.json"), status=400),
        failure_reason="request_failure",
        failure_opens=False,
        partner="arxiv",
        variant={"time_range": "year"},
        variant_params=lambda window: {
            **CROSSREF,
            "filter": {f"from-pub-date:{day}" for day in window.since("year", "%Y-%m-%d")},
        },
    ),
    Case(
        engine="duckduckgo",
        query="rust async",
        method="POST",
        params=DUCKDUCKGO,
        first={
            "title": "Getting Started - Asynchronous Programming in Rust",
            "url": "https://rust-lang.github.io/async-book/",
            "snippet": "This book aims to be a comprehensive guide to asynchronous programming in"
            " Rust, from beginner to advanced.",
        },
        titles=(
            "Getting Started - Asynchronous Programming in Rust",
            "Tutorial | Tokio - An asynchronous Rust runtime",
            "Nebenläufigkeit – Wikipedia",
            "Why async Rust?",
        ),
        urls=(
            "https://rust-lang.github.io/async-book/",
            "https://tokio.rs/tokio/tutorial?x=1&y=2",
            "https://de.wikipedia.org/wiki/Nebenl%C3%A4ufigkeit",
            "https://without.boats/blog/why-async-rust/",
        ),
        dates=(None, None, None, None),
        failure=Play(
            body=fixture("duckduckgo/anomaly_202.html"),
            status=202,
            headers={"Content-Type": HTML},
        ),
        failure_reason="blocked",
        failure_opens=False,
        partner="wikipedia",
        variant={"time_range": "month"},
        variant_params=changed(DUCKDUCKGO, df="m"),
        headers={"referer": "https://html.duckduckgo.com/"},
    ),
    Case(
        engine="gdelt",
        query="budget vote",
        params=GDELT,
        first={
            "title": "Parliament votes on budget amid protests",
            "url": "https://news.example.co.uk/2026/09/30/budget-vote.html",
            "snippet": "",
            "date": "2026-09-30",
        },
        titles=(
            "Parliament votes on budget amid protests",
            "Budget 2026 : markets react",
            "Haushalt: Abstimmung im Bundestag",
        ),
        urls=(
            "https://news.example.co.uk/2026/09/30/budget-vote.html",
            "https://www.example.in/economy/budget-2026-reaction-1234567",
            "https://zeitung.example.de/politik/haushalt-abstimmung",
        ),
        dates=("2026-09-30", "2026-09-29", "2026-09-29"),
        failure=Play(
            body=fixture("gdelt/error_phrase_too_short.txt"),
            headers={"Content-Type": "text/html; charset=utf-8"},
        ),
        failure_reason="parse_failure",
        failure_opens=False,
        partner="hackernews",
        variant={"time_range": "day", "language": "de"},
        variant_params=changed(GDELT, query="budget vote sourcelang:german", timespan="1d"),
    ),
    Case(
        engine="github",
        query="async runtime",
        params=GITHUB,
        first={
            "title": "tokio-rs/tokio",
            "url": "https://github.com/tokio-rs/tokio",
            "snippet": "A runtime for writing reliable asynchronous applications with Rust."
            " Provides I/O, networking, scheduling, timers, ...",
            "date": "2026-09-30",
        },
        titles=("tokio-rs/tokio", "python-trio/trio", "zoe-dev/async-notes"),
        urls=(
            "https://github.com/tokio-rs/tokio",
            "https://github.com/python-trio/trio",
            "https://github.com/zoe-dev/async-notes",
        ),
        dates=("2026-09-30", "2026-09-28", "2024-01-01"),
        failure=Play(
            body=fixture("github/rate_limited_primary.json"),
            status=403,
            headers={
                "Content-Type": JSON,
                "x-ratelimit-limit": "10",
                "x-ratelimit-remaining": "0",
                "x-ratelimit-used": "10",
                "x-ratelimit-reset": "4102444800",
                "x-ratelimit-resource": "search",
            },
        ),
        failure_reason="rate_limited",
        failure_opens=True,
        partner="stackexchange",
        variant={"time_range": "week"},
        variant_params=lambda window: {
            **GITHUB,
            "q": {f"async runtime pushed:>={day}" for day in window.since("week", "%Y-%m-%d")},
        },
        headers={
            "authorization": f"Bearer {GITHUB_TOKEN}",
            "accept": "application/vnd.github+json",
            "x-github-api-version": "2022-11-28",
        },
    ),
    Case(
        engine="hackernews",
        query="search",
        params=HACKERNEWS,
        first={
            "title": "Show HN: A tiny search engine",
            "url": "https://example.org/tool",
            "snippet": "",
            "date": "2026-09-20",
        },
        titles=(
            "Show HN: A tiny search engine",
            "Ask HN: How do you search old mail?",
            "The <blink> tag and search engines",
            "Full-text search in SQLite, revisited",
        ),
        urls=(
            "https://example.org/tool",
            "https://news.ycombinator.com/item?id=41230001",
            "https://news.ycombinator.com/item?id=41300000",
            "https://sqlite.example/fts5.html?ref=hn#intro",
        ),
        dates=("2026-09-20", "2026-09-19", "2026-09-30", "2025-10-01"),
        failure=Play(body=fixture("hackernews/error_rate_limited.json"), status=429),
        failure_reason="rate_limited",
        failure_opens=False,
        partner="gdelt",
        variant={"time_range": "day"},
        variant_params=lambda window: {
            **HACKERNEWS,
            "numericFilters": {f"created_at_i>{s}" for s in window.since_epoch("day")},
        },
        variant_body=fixture("hackernews/search.json").replace(
            b'"url": "https://example.org/tool"', f'"url": "{TRACKED_HN_URL}"'.encode()
        ),
        variant_urls=(
            "https://example.org/tool?id=7",
            "https://news.ycombinator.com/item?id=41230001",
            "https://news.ycombinator.com/item?id=41300000",
            "https://sqlite.example/fts5.html?ref=hn#intro",
        ),
    ),
    Case(
        engine="marginalia",
        query="linear b",
        params=MARGINALIA,
        first={
            "title": "Linear B",
            "url": "https://www.example.org/aegean/linear-b.html",
            "snippet": "Notes on the Mycenaean syllabic script, its signs and the decipherment"
            " by Michael Ventris.",
        },
        titles=("Linear B", "Evidence for Greek Dialect in the Mycenaean Archives", ""),
        urls=(
            "https://www.example.org/aegean/linear-b.html",
            "https://classics.example.edu/papers/ventris-1953.pdf",
            "http://oldsite.example.net/~kober/tablets.txt",
        ),
        dates=(None, None, None),
        failure=Play(
            body=fixture("marginalia/error_qpm_limit.txt"),
            status=429,
            headers={"Content-Type": "text/plain"},
        ),
        failure_reason="rate_limited",
        failure_opens=False,
        partner="wikipedia",
        variant={"time_range": "week"},
        variant_params=None,
        headers={"api-key": "public"},
    ),
    Case(
        engine="mojeek",
        query="rust async",
        params=MOJEEK,
        first={
            "title": "Getting Started - Asynchronous Programming in Rust",
            "url": "https://rust-lang.github.io/async-book/",
            "snippet": "This book aims to be a comprehensive guide to async programming in Rust,"
            " from beginner to advanced…",
        },
        titles=(
            "Getting Started - Asynchronous Programming in Rust",
            "Tutorial | Tokio - An asynchronous Rust runtime",
            "futures - Rust",
            "Why async Rust?",
        ),
        urls=(
            "https://rust-lang.github.io/async-book/",
            "https://tokio.rs/tokio/tutorial",
            "https://docs.rs/futures/latest/futures/",
            "https://without.boats/blog/why-async-rust/",
        ),
        dates=(None, None, None, None),
        failure=Play(
            body=fixture("mojeek/blocked_403.html"),
            status=403,
            headers={"Content-Type": HTML},
        ),
        failure_reason="blocked",
        failure_opens=False,
        partner="wikipedia",
        variant={"time_range": "week"},
        variant_params=lambda window: {**MOJEEK, "since": window.since("week", "%Y%m%d")},
    ),
    Case(
        engine="openalex",
        query="graph neural networks",
        params=OPENALEX,
        first={
            "title": "Graph neural networks: a review",
            "url": "https://journal.example/article/1",
            "snippet": "We review graph neural networks and compare graph neural models.",
            "date": "2024-03-01",
        },
        titles=(
            "Graph neural networks: a review",
            "Scaling E. coli growth models with GNNs",
            "Message passing revisited",
            "",
        ),
        urls=(
            "https://journal.example/article/1",
            "https://doi.org/10.5555/ex.2024.0042",
            "https://openalex.org/W4380000002",
            "https://doi.org/10.9999/untitled",
        ),
        dates=("2024-03-01", "2024-03-15", "2025-01-07", None),
        failure=Play(body=fixture("openalex/error_rate_limit_403.json"), status=403),
        failure_reason="rate_limited",
        failure_opens=False,
        partner="crossref",
        variant={"time_range": "year", "language": "de"},
        variant_params=lambda window: {
            **OPENALEX,
            "filter": {
                f"from_publication_date:{day},language:de"
                for day in window.since("year", "%Y-%m-%d")
            },
        },
    ),
    Case(
        engine="searxng",
        query="rust async",
        params=SEARXNG,
        first={
            "title": "Getting Started - Asynchronous Programming in Rust",
            "url": "https://rust-lang.github.io/async-book/",
            "snippet": "This book aims to be a comprehensive guide to async programming in Rust,"
            " from beginner to advanced.",
        },
        titles=(
            "Getting Started - Asynchronous Programming in Rust",
            "Tutorial | Tokio - An asynchronous Rust runtime",
            "Why async Rust?",
        ),
        urls=(
            "https://rust-lang.github.io/async-book/",
            "https://tokio.rs/tokio/tutorial",
            "https://without.boats/blog/why-async-rust/",
        ),
        dates=(None, "2026-08-14", "2026-09-30"),
        failure=Play(body=fixture("searxng/all_engines_failed.json")),
        failure_reason="request_failure",
        failure_opens=False,
        partner="wikipedia",
        variant={"time_range": "month", "language": "de"},
        variant_params=changed(SEARXNG, time_range="month", language="de"),
    ),
    Case(
        engine="stackexchange",
        query="asyncio await",
        params=STACKEXCHANGE,
        first={
            "title": 'How do I "await" a task in Python\'s asyncio?',
            "url": "https://stackoverflow.com/questions/7712345/how-do-i-await-a-task-in-pythons-asyncio",
            "snippet": "I have a coroutine and I want to wait for it from sync code: async def"
            " main() -> None: await asyncio.sleep(1) Is asyncio.run the right way & why?",
            "date": "2023-11-14",
        },
        titles=(
            'How do I "await" a task in Python\'s asyncio?',
            "What does <T> mean in List<T>?",
            "Why is 0.1 + 0.2 not 0.3?",
        ),
        urls=(
            "https://stackoverflow.com/questions/7712345/how-do-i-await-a-task-in-pythons-asyncio",
            "https://stackoverflow.com/questions/79999999/what-does-t-mean-in-listt",
            "https://stackoverflow.com/questions/54999999/why-is-0-1-0-2-not-0-3",
        ),
        dates=("2023-11-14", "2026-09-30", "2019-03-02"),
        failure=Play(
            body=fixture("stackexchange/throttle_violation.json"),
            status=400,
            headers={"Content-Type": JSON},
            gzip=True,
        ),
        failure_reason="rate_limited",
        failure_opens=True,
        partner="github",
        variant={"time_range": "month"},
        variant_params=lambda window: {**STACKEXCHANGE, "fromdate": window.since_epoch("month")},
    ),
    Case(
        engine="wikipedia",
        query="python",
        params=WIKIPEDIA,
        first={
            "title": "Python (programming language)",
            "url": "https://en.wikipedia.org/wiki/Python_(programming_language)",
            "snippet": "Python is a high-level, general-purpose programming language. Its design"
            ' philosophy emphasizes code "readability" with the use of significant indentation',
        },
        titles=(
            "Python (programming language)",
            "C++",
            "Zürich",
            "AC/DC",
            "Don't Look Up",
            "What Is Life? (Schrödinger)",
        ),
        urls=(
            "https://en.wikipedia.org/wiki/Python_(programming_language)",
            "https://en.wikipedia.org/wiki/C%2B%2B",
            "https://en.wikipedia.org/wiki/Z%C3%BCrich",
            "https://en.wikipedia.org/wiki/AC/DC",
            "https://en.wikipedia.org/wiki/Don%27t_Look_Up",
            "https://en.wikipedia.org/wiki/What_Is_Life%3F_(Schr%C3%B6dinger)",
        ),
        dates=(None,) * 6,
        failure=Play(
            body=fixture("wikipedia/error_ratelimited.json"),
            headers={"Content-Type": JSON, "MediaWiki-API-Error": "ratelimited"},
        ),
        failure_reason="rate_limited",
        failure_opens=False,
        partner="mojeek",
        variant={"language": "de"},
        variant_params=changed(WIKIPEDIA),
        variant_urls=(
            "https://de.wikipedia.org/wiki/Python_(programming_language)",
            "https://de.wikipedia.org/wiki/C%2B%2B",
            "https://de.wikipedia.org/wiki/Z%C3%BCrich",
            "https://de.wikipedia.org/wiki/AC/DC",
            "https://de.wikipedia.org/wiki/Don%27t_Look_Up",
            "https://de.wikipedia.org/wiki/What_Is_Life%3F_(Schr%C3%B6dinger)",
        ),
        endpoint_suffix="/{lang}",
    ),
]
CASE_BY_ENGINE = {case.engine: case for case in CASES}


def test_every_engine_has_a_case() -> None:
    assert [case.engine for case in CASES] == list(TESTED_HERE)
    for case in CASES:
        assert case.partner != case.engine and category_of(case.partner) == case.category


# --- rypsok subprocesses, one per category ---------------------------------------------


@dataclass
class Rypsok:
    """One running ``rypsok serve`` and everything it said."""

    client: ClientSession
    output_schemas: dict[str, dict[str, Any]]
    stderr: Path
    payloads: list[dict[str, Any]] = field(default_factory=list)

    async def call(self, tool: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        result = await self.client.call_tool(tool, arguments)
        payload = structured(result)
        assert_conforms(payload, self.output_schemas[tool])
        self.payloads.append(payload)
        return bool(result.is_error), payload

    async def search(self, arguments: dict[str, Any]) -> dict[str, Any]:
        is_error, payload = await self.call("web_search", arguments)
        assert not is_error, payload
        return payload

    def log_lines(self) -> list[dict[str, Any]]:
        lines = self.stderr.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]


def category_config(server: EngineServer, category: str) -> dict[str, Any]:
    enabled = set(engines_of(category))
    overrides = {
        case.engine: {"endpoint": server.endpoint(case.engine) + case.endpoint_suffix}
        for case in CASES
        if case.engine in enabled and case.endpoint_suffix
    }
    return config_data(
        server,
        enabled,
        overrides,
        search={"languages": LANGUAGES, "deadline_ms": 8000},
        breaker={"cooldown_s": COOLDOWN_S, "max_cooldown_s": COOLDOWN_S},
        log={"level": "debug"},
    )


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "trio"


@pytest.fixture(scope="module", params=TRANSPORTS)
async def rypsoks(
    engine_server: EngineServer,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> AsyncIterator[dict[str, Rypsok]]:
    """One rypsok per category over stdio, then the same over Streamable HTTP."""
    folder = tmp_path_factory.mktemp(f"rypsok_engines_{request.param}")
    async with contextlib.AsyncExitStack() as stack:
        running: dict[str, Rypsok] = {}
        for category in CATEGORIES:
            config_path = write_toml(
                category_config(engine_server, category), folder / f"{category}.toml"
            )
            stderr = folder / f"{category}.stderr"
            errlog = stack.enter_context(stderr.open("w", encoding="utf-8"))
            client = await stack.enter_async_context(
                session(config_path, CREDENTIALS, request.param, errlog)
            )
            tools = (await client.list_tools()).tools
            schemas = {tool.name: tool.output_schema for tool in tools}
            running[category] = Rypsok(client, schemas, stderr)
        yield running


# --- checking one exchange --------------------------------------------------------------


def serve(server: EngineServer, category: str, plays: dict[str, Play]) -> None:
    """The given plays; every other engine of the category answers "no results"."""
    for engine in engines_of(category):
        server.plays[engine] = plays.get(engine) or empty_play(engine)
    server.seen.clear()


def sent_parameters(case: Case, server: EngineServer, lang: str = "en") -> dict[str, str]:
    """The one request the engine received: method, path, headers; its parameters returned."""
    seen = server.requests_for(case.engine)
    assert len(seen) == 1, f"{case.engine} received {len(seen)} requests"
    request = seen[0]
    assert request.method == case.method
    target = urlsplit(request.path)
    prefix = case.endpoint_suffix.replace("{lang}", lang)
    assert target.path == f"/e/{case.engine}{prefix}{DOCUMENTED_PATHS[case.engine]}"
    headers = {name.lower(): value for name, value in request.headers.items()}
    raw = f"{request.path}\n{request.headers}\n".encode() + request.body
    own = info(case.engine).credential_env
    for name, secret in CREDENTIALS.items():
        if name != own:
            assert secret.encode() not in raw, f"{name} was sent to {case.engine}"
    for name, value in case.headers.items():
        assert headers.get(name) == value, (case.engine, name, headers.get(name))
    agent = BROWSER_AGENT if case.engine in ("duckduckgo", "mojeek") else API_AGENT
    assert headers["user-agent"].startswith(agent)
    if case.method == "POST":
        assert target.query == ""
        assert headers["content-type"] == "application/x-www-form-urlencoded"
        encoded = request.body.decode("ascii")
    else:
        assert request.body == b""
        encoded = target.query
    pairs = parse_qsl(encoded, keep_blank_values=True, strict_parsing=bool(encoded))
    parameters = dict(pairs)
    assert len(parameters) == len(pairs), f"repeated parameter in {pairs}"
    return parameters


def assert_parameters(sent: dict[str, str], expected: Expected) -> None:
    assert sorted(sent) == sorted(expected)
    for name, allowed in expected.items():
        if isinstance(allowed, set):
            assert sent[name] in allowed, (name, sent[name], sorted(allowed))
        else:
            assert sent[name] == allowed, (name, sent[name], allowed)


def assert_results(case: Case, payload: dict[str, Any], urls: tuple[str, ...]) -> None:
    results = payload["results"]
    assert [r["url"] for r in results] == list(urls)
    assert [r["title"] for r in results] == list(case.titles)
    assert [r.get("date", ABSENT) for r in results] == [d or ABSENT for d in case.dates]
    for result in results:
        if info(case.engine).attribution:
            assert result["engines"] == [case.engine]
        else:
            assert "engines" not in result


def assert_no_credential_leaked(rypsok: Rypsok) -> None:
    said = json.dumps(rypsok.payloads, ensure_ascii=False)
    log = rypsok.stderr.read_text(encoding="utf-8")
    for name, secret in CREDENTIALS.items():
        assert secret not in said, f"{name} appears in a response"
        assert secret not in log, f"{name} appears in the operator log"
    searches = sum(1 for line in rypsok.log_lines() if line.get("event") == "search")
    assert searches >= 1, "the operator log recorded no search: the leak check saw nothing"


def expected_skips(case: Case) -> list[dict[str, str]]:
    """engine_skipped for each engine of the category that cannot honour the variant."""
    time_range = case.variant.get("time_range")
    language = case.variant.get("language", LANGUAGES[0])
    skips = []
    for engine in engines_of(case.category):
        reason = None
        if time_range and not info(engine).honours_time_range(time_range):
            reason = "time_range"
        elif language != LANGUAGES[0] and not info(engine).honours_language(language):
            reason = "language"
        if reason:
            skips.append({"code": "engine_skipped", "engine": engine, "reason": reason})
    return skips


def by_engine(notices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(notices, key=lambda n: (n["code"], n.get("engine", ""), n.get("reason", "")))


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# --- the tests --------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.engine)
async def test_engine_answers_through_mcp(
    case: Case, rypsoks: dict[str, Rypsok], engine_server: EngineServer
) -> None:
    rypsok = rypsoks[case.category]
    arguments = {"query": case.query, "category": case.category, "max_results": MAX_RESULTS}

    serve(engine_server, case.category, {case.engine: good_play(case.engine)})
    payload = await rypsok.search(arguments)
    assert payload["outcome"] == "ok"
    assert payload["notices"] == []
    assert_results(case, payload, case.urls)
    first = dict(payload["results"][0])
    first.pop("engines", None)
    assert first == case.first
    assert_parameters(sent_parameters(case, engine_server), case.params)

    variant_play = good_play(case.engine)
    if case.variant_body is not None:
        variant_play = answer(case.engine, case.variant_body)
    serve(engine_server, case.category, {case.engine: variant_play})
    window_start = now()
    payload = await rypsok.search({**arguments, **case.variant})
    window = Window(window_start, now())
    skips = expected_skips(case)
    assert by_engine(payload["notices"]) == by_engine(skips)
    if case.variant_params is None:
        assert {"code": "engine_skipped", "engine": case.engine, "reason": "time_range"} in skips
        assert engine_server.requests_for(case.engine) == []
        assert payload["outcome"] == "empty" and payload["results"] == []
    else:
        assert payload["outcome"] == "ok"
        assert_results(case, payload, case.variant_urls or case.urls)
        language = case.variant.get("language", LANGUAGES[0])
        assert_parameters(
            sent_parameters(case, engine_server, lang=language), case.variant_params(window)
        )
    assert_no_credential_leaked(rypsok)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.engine)
async def test_engine_failure_is_a_notice_through_mcp(
    case: Case, rypsoks: dict[str, Rypsok], engine_server: EngineServer
) -> None:
    rypsok = rypsoks[case.category]
    partner = CASE_BY_ENGINE[case.partner]
    serve(
        engine_server,
        case.category,
        {case.engine: case.failure, case.partner: good_play(case.partner)},
    )
    payload = await rypsok.search(
        {"query": case.query, "category": case.category, "max_results": MAX_RESULTS}
    )
    is_error, status = await rypsok.call("engine_status", {})
    await anyio.sleep(COOLDOWN_S * 2)  # past any cooldown this failure opened
    assert payload["outcome"] == "partial"
    assert payload["notices"] == [
        {"code": "engine_unavailable", "engine": case.engine, "reason": case.failure_reason}
    ]
    assert [r["url"] for r in payload["results"]] == list(partner.urls[:MAX_RESULTS])
    sent_parameters(case, engine_server)
    assert not is_error
    listed = {entry["id"]: entry for entry in status["engines"]}
    assert listed[case.engine] == {
        "id": case.engine,
        "state": "open" if case.failure_opens else "closed",
        "latency_ms": listed[case.engine]["latency_ms"],
    }
    assert isinstance(listed[case.engine]["latency_ms"], int)
    assert_no_credential_leaked(rypsok)
