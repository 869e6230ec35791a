"""The bring-your-own-key engines (tavily, exa, kagi, serper) on their documented answers.

Each is checked on the request it builds (method, the documented path appended to the
endpoint, headers, the JSON body or query field by field, time range, category and
language mapping with a fixed ``now``, where the key goes) and on what it makes of each
fixture: results field by field and in the engine's own order, and the empty answer.
Their errors, costs and tolerance are tests/test_engines_keyed_failures.py.
"""

from __future__ import annotations

import json
from types import ModuleType

import httpx
import pytest

from rypsok.bounds import MAX_SNIPPET_CHARS
from rypsok.engines import exa, kagi, serper, tavily
from rypsok.engines.base import (
    ANY_LANGUAGE,
    TIME_RANGES,
    EngineFailure,
    EngineSearch,
    QueryLimit,
    RawResult,
)
from tests.engine_samples import (
    SINCE_DATE,
    TAVILY_GENERAL_BODY,
    USER_AGENT,
    fixture,
    make_search,
    parse,
)

KEYED = (tavily, exa, kagi, serper)
KEY = "k3y-VALUE-0123456789abcdef"


def request_for(
    module: ModuleType,
    search: EngineSearch | None = None,
    endpoint: str | None = None,
    credential: str | None = KEY,
) -> httpx.Request:
    return module.build_request(
        endpoint or module.INFO.default_endpoint, search or make_search(), credential
    ).as_httpx()


def body_of(request: httpx.Request) -> dict:
    assert request.headers["content-type"] == "application/json"
    return json.loads(request.content)


# --- INFO -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "categories", "time_ranges", "languages", "env", "rate", "endpoint"),
    [
        (
            tavily,
            {"general", "news"},
            set(TIME_RANGES),
            set(),
            "TAVILY_API_KEY",
            100,
            "https://api.tavily.com",
        ),
        (
            exa,
            {"general", "news", "science"},
            set(TIME_RANGES),
            set(),
            "EXA_API_KEY",
            600,
            "https://api.exa.ai",
        ),
        (
            kagi,
            {"general", "news"},
            set(TIME_RANGES),
            set(),
            "KAGI_API_KEY",
            60,
            "https://kagi.com",
        ),
        (
            serper,
            {"general", "news"},
            set(TIME_RANGES),
            {ANY_LANGUAGE},
            "SERPER_API_KEY",
            300,
            "https://google.serper.dev",
        ),
    ],
    ids=lambda value: value.INFO.id if isinstance(value, ModuleType) else None,
)
def test_engine_info(module, categories, time_ranges, languages, env, rate, endpoint) -> None:
    info = module.INFO
    assert info.categories == categories
    assert info.time_ranges == time_ranges
    assert info.languages == languages
    assert info.credential_env == env
    assert info.credential_required is True
    assert info.listed_without_credential is False
    assert info.rate_per_minute == rate
    assert info.default_endpoint == endpoint
    assert info.query_limit == QueryLimit(400)
    assert info.attribution is False


# --- requests -------------------------------------------------------------------------------


def test_tavily_request() -> None:
    request = request_for(tavily)
    assert request.method == "POST"
    assert str(request.url) == "https://api.tavily.com/search"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["accept"] == "application/json"
    assert request.headers["user-agent"] == USER_AGENT
    assert body_of(request) == TAVILY_GENERAL_BODY


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_tavily_news_with_a_time_range(time_range: str) -> None:
    search = make_search(category="news", max_results=50, time_range=time_range)
    body = body_of(request_for(tavily, search))
    assert body["topic"] == "news"
    assert body["time_range"] == time_range
    assert body["max_results"] == 20
    assert "days" not in body


def test_tavily_news_without_a_time_range_is_not_tavilys_three_days() -> None:
    body = body_of(request_for(tavily, make_search(category="news")))
    assert body == {
        **TAVILY_GENERAL_BODY,
        "topic": "news",
        "days": 3650,
    }
    assert "time_range" not in body


def test_tavily_general_without_a_time_range_sends_no_time_field() -> None:
    body = body_of(request_for(tavily))
    assert "days" not in body and "time_range" not in body


def test_exa_request() -> None:
    request = request_for(exa)
    assert request.method == "POST"
    assert str(request.url) == "https://api.exa.ai/search"
    assert request.headers["x-api-key"] == KEY
    assert "authorization" not in request.headers
    assert request.headers["user-agent"] == USER_AGENT
    assert body_of(request) == {
        "query": "rust async",
        "type": "auto",
        "numResults": 10,
        "contents": {"highlights": True},
    }


@pytest.mark.parametrize(
    ("category", "expected"), [("general", None), ("news", "news"), ("science", "publication")]
)
def test_exa_category(category: str, expected: str | None) -> None:
    body = body_of(request_for(exa, make_search(category=category, max_results=40)))
    assert body.get("category") == expected
    assert body["numResults"] == 25


@pytest.mark.parametrize(
    ("time_range", "since"),
    [
        ("day", "2026-09-30T12:00:00.000Z"),
        ("week", "2026-09-24T12:00:00.000Z"),
        ("month", "2026-08-31T12:00:00.000Z"),
        ("year", "2025-10-01T12:00:00.000Z"),
    ],
)
def test_exa_time_range_is_a_start_published_date(time_range: str, since: str) -> None:
    body = body_of(request_for(exa, make_search(time_range=time_range)))
    assert body["startPublishedDate"] == since


def test_kagi_request() -> None:
    request = request_for(kagi, make_search(max_results=7))
    assert request.method == "POST"
    assert str(request.url) == "https://kagi.com/api/v1/search"
    assert request.headers["authorization"] == f"Bot {KEY}"
    assert request.headers["accept"] == "application/json"
    assert request.headers["user-agent"] == USER_AGENT
    assert body_of(request) == {"query": "rust async", "workflow": "search", "limit": 7}


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_kagi_news_with_a_time_range_filters_after_its_first_day(time_range: str) -> None:
    search = make_search(category="news", time_range=time_range, region="de")
    assert body_of(request_for(kagi, search)) == {
        "query": "rust async",
        "workflow": "news",
        "limit": 10,
        "filters": {"after": SINCE_DATE[time_range], "region": "de"},
    }


def test_serper_request() -> None:
    request = request_for(serper, make_search(language="en"))
    assert request.method == "POST"
    assert str(request.url) == "https://google.serper.dev/search"
    assert request.headers["x-api-key"] == KEY
    assert "authorization" not in request.headers
    assert body_of(request) == {"q": "rust async", "num": 10, "hl": "en"}


def test_serper_asks_at_most_ten_results() -> None:
    body = body_of(request_for(serper, make_search(max_results=50)))
    assert body["num"] == 10
    assert "page" not in body


def test_serper_sends_gl_only_for_a_configured_region() -> None:
    assert "gl" not in body_of(request_for(serper, make_search(language="de-at")))
    body = body_of(request_for(serper, make_search(language="de-at", region="at")))
    assert body == {"q": "rust async", "num": 10, "hl": "de", "gl": "at"}


@pytest.mark.parametrize(
    ("time_range", "tbs"),
    [("day", "qdr:d"), ("week", "qdr:w"), ("month", "qdr:m"), ("year", "qdr:y")],
)
def test_serper_news_with_a_time_range(time_range: str, tbs: str) -> None:
    request = request_for(serper, make_search(category="news", time_range=time_range))
    assert str(request.url) == "https://google.serper.dev/news"
    assert body_of(request) == {"q": "rust async", "num": 10, "tbs": tbs}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", {"hl": "de"}),
        ("de-AT", {"hl": "de"}),
        ("pt-br", {"hl": "pt-BR"}),
        ("zh-TW", {"hl": "zh-TW"}),
        ("zh-Hant", {"hl": "zh"}),
    ],
)
def test_serper_language_is_hl(language: str, expected: dict) -> None:
    body = body_of(request_for(serper, make_search(language=language)))
    assert {k: v for k, v in body.items() if k in ("hl", "gl")} == expected


@pytest.mark.parametrize("module", KEYED, ids=lambda m: m.INFO.id)
def test_operator_endpoint_gets_the_documented_path(module: ModuleType) -> None:
    request = request_for(module, endpoint="http://127.0.0.1:9/e/prefix/")
    path = {tavily: "/search", exa: "/search", kagi: "/api/v1/search", serper: "/search"}[module]
    assert request.url.path == "/e/prefix" + path


@pytest.mark.parametrize("module", KEYED, ids=lambda m: m.INFO.id)
def test_the_key_goes_only_in_its_header(module: ModuleType) -> None:
    request = request_for(module)
    assert KEY not in str(request.url)
    assert KEY.encode() not in request.content
    holding = [name for name, value in request.headers.items() if KEY in value]
    expected = {tavily: "authorization", exa: "x-api-key", kagi: "authorization"}
    assert holding == [expected.get(module, "x-api-key")]
    bare = request_for(module, credential=None)
    assert all(KEY not in value for value in bare.headers.values())


# --- answers --------------------------------------------------------------------------------

BOOK = (
    "Getting Started - Asynchronous Programming in Rust",
    "https://rust-lang.github.io/async-book/",
)
BOOK_SNIPPET = (
    "This book aims to be a comprehensive guide to async programming in Rust, from beginner to"
    " advanced."
)
TOKIO = ("Tutorial | Tokio - An asynchronous Rust runtime", "https://tokio.rs/tokio/tutorial")
TOKIO_SNIPPET = "Tokio is an asynchronous runtime for the Rust programming language."
BOATS = ("Why async Rust?", "https://without.boats/blog/why-async-rust/")
BOATS_SNIPPET = "Async/await syntax in Rust was initially released to much fanfare and excitement."


def test_tavily_results_in_score_order() -> None:
    assert parse(tavily, fixture("tavily", "search.json")) == [
        RawResult(
            *BOOK,
            BOOK_SNIPPET,
        ),
        RawResult(
            *TOKIO,
            "Tokio is an asynchronous runtime for the Rust programming language. It provides the"
            " building blocks needed for writing network applications.",
        ),
        RawResult(
            "Why async Rust? & other questions",
            BOATS[1],
            BOATS_SNIPPET,
        ),
    ]


def test_tavily_news_dates_are_rfc_2822() -> None:
    results = parse(tavily, fixture("tavily", "news.json"), search=make_search(category="news"))
    assert [(r.url, r.date) for r in results] == [
        ("https://news.example/2026/09/30/ai-act-next-phase", "2026-09-30"),
        ("https://tech.example.com/ai-act-startups", "2026-09-25"),
    ]


def test_exa_results_in_its_order_with_highlights_as_snippets() -> None:
    assert parse(exa, fixture("exa", "search.json")) == [
        RawResult(
            *BOOK,
            BOOK_SNIPPET,
            "2026-08-14",
        ),
        RawResult(
            *TOKIO,
            "Tokio is an asynchronous runtime for the Rust programming language. … It provides"
            " the building blocks needed for writing network applications.",
            None,
        ),
        RawResult(
            "",
            BOATS[1],
            BOATS_SNIPPET,
            "2026-07-02",
        ),
    ]


def test_exa_reads_no_score_where_one_still_comes() -> None:
    """A search type that still returns ``score`` keeps Exa's order all the same."""
    body = json.loads(fixture("exa", "search.json"))
    for item, score in zip(body["results"], (0.1, 0.9, 0.5), strict=True):
        item["score"] = score
    results = parse(exa, json.dumps(body).encode())
    assert [r.url for r in results] == [BOOK[1], TOKIO[1], BOATS[1]]


def test_exa_cuts_long_highlights_to_the_snippet_bound() -> None:
    sentence = "Exa sizes highlights to the query, so one may run long. "
    body = {
        "requestId": "x",
        "results": [{"url": "https://a.example/", "title": "A", "highlights": [sentence * 40]}],
    }
    (result,) = parse(exa, json.dumps(body).encode())
    assert len(result.snippet) <= MAX_SNIPPET_CHARS
    assert len(result.snippet) > MAX_SNIPPET_CHARS - 60
    assert result.snippet.startswith(sentence.strip())
    assert (sentence * 40).startswith(result.snippet)


def test_exa_news_keeps_its_order() -> None:
    results = parse(exa, fixture("exa", "news.json"), search=make_search(category="news"))
    assert results == [
        RawResult(
            "EU AI Act enters next phase",
            "https://news.example/2026/09/30/ai-act-next-phase",
            "Lawmakers agreed on the timetable for general-purpose models and high-risk systems.",
            "2026-09-30",
        )
    ]


def test_kagi_reads_only_search_results() -> None:
    """v1: ``data.search`` only; videos, related searches and the rest are not results."""
    assert parse(kagi, fixture("kagi", "search.json")) == [
        RawResult(*BOOK, BOOK_SNIPPET, "2026-08-14"),
        RawResult(*TOKIO, TOKIO_SNIPPET),
        RawResult(*BOATS, "", "2026-07-02"),
    ]


def test_kagi_news_reads_data_news() -> None:
    results = parse(kagi, fixture("kagi", "news.json"), search=make_search(category="news"))
    assert [(r.title, r.url, r.date) for r in results] == [
        (
            "EU AI Act enters next phase",
            "https://news.example/2026/09/30/ai-act-next-phase",
            "2026-09-30",
        ),
        (
            "What the AI Act means for start-ups",
            "https://tech.example.com/ai-act-startups",
            "2026-09-25",
        ),
    ]


def test_kagi_still_reads_v0_answers() -> None:
    """The legacy shape: ``data`` one list, ``t`` 0 the results, ``published`` the date."""
    assert parse(kagi, fixture("kagi", "v0_search.json")) == [
        RawResult(
            *BOOK,
            BOOK_SNIPPET,
            "2026-08-14",
        ),
        RawResult(
            *TOKIO,
            TOKIO_SNIPPET,
        ),
        RawResult(
            "Why async Rust?", "https://without.boats/blog/why-async-rust/", "", "2026-07-02"
        ),
    ]


def test_serper_reads_organic_results_with_google_dates() -> None:
    assert parse(serper, fixture("serper", "search.json")) == [
        RawResult(
            *BOOK,
            BOOK_SNIPPET,
        ),
        RawResult(
            *TOKIO,
            TOKIO_SNIPPET,
            "2026-09-12",
        ),
        RawResult(
            *BOATS,
            BOATS_SNIPPET,
            "2026-09-28",
        ),
    ]


def test_serper_news() -> None:
    results = parse(serper, fixture("serper", "news.json"), search=make_search(category="news"))
    assert [(r.title, r.url, r.date) for r in results] == [
        (
            "EU AI Act enters next phase",
            "https://news.example/2026/09/30/ai-act-next-phase",
            "2026-10-01",
        ),
        (
            "What the AI Act means for start-ups",
            "https://tech.example.com/ai-act-startups",
            "2026-09-25",
        ),
    ]


@pytest.mark.parametrize("module", KEYED, ids=lambda m: m.INFO.id)
def test_max_results_cuts_the_answer(module: ModuleType) -> None:
    results = parse(
        module, fixture(module.INFO.id, "search.json"), search=make_search(max_results=2)
    )
    assert len(results) == 2


@pytest.mark.parametrize("module", KEYED, ids=lambda m: m.INFO.id)
def test_empty_answer(module: ModuleType) -> None:
    assert parse(module, fixture(module.INFO.id, "empty.json")) == []


def test_kagi_v0_empty_answer() -> None:
    assert parse(kagi, fixture("kagi", "v0_empty.json")) == []


def test_serper_news_answer_read_for_general_is_a_parse_failure() -> None:
    """A news answer holds no ``organic`` key: without searchParameters it is not an answer."""
    body = json.dumps({"news": []}).encode()
    assert parse(serper, body) == EngineFailure("parse_failure")
