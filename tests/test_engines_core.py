"""The five core engines (wikipedia, hackernews, arxiv, github, stackexchange) on saved responses.

Each engine is checked on what it sends (path appended to the endpoint, query
parameters, headers, time_range and language mapping, credential) and on what
it makes of every fixture: results field by field, and the failure reasons
of DECISIONS.md (429, 401, 403, 5xx, the engine's own error bodies, garbage,
HTML block pages). A shape check covers every engine module in the package.
"""

from __future__ import annotations

import ast
import datetime as dt
import gzip
import importlib
import inspect
import json
import pkgutil
import re
import typing
import zlib
from pathlib import Path
from types import ModuleType

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rypsok.engines
from rypsok.engines import arxiv, github, hackernews, stackexchange, wikipedia
from rypsok.engines.base import (
    CATEGORIES,
    TIME_RANGES,
    EngineFailure,
    EngineInfo,
    EngineRequest,
    EngineSearch,
    QueryLimit,
    RawResult,
    load_json,
    read_answer,
)
from rypsok.fast_json import has_long_digit_run
from tests import engine_samples as samples
from tests.engine_samples import CAPTCHA_PAGE, ERROR_PAGE, NOW, SINCE_DATE, USER_AGENT, fixture

NOW_EPOCH = 1790856000
CORE = (wikipedia, hackernews, arxiv, github, stackexchange)
SINCE_EPOCH = {"day": 1790769600, "week": 1790251200, "month": 1788177600, "year": 1759320000}
SINCE_MINUTE = {
    "day": "202609301200",
    "week": "202609241200",
    "month": "202608311200",
    "year": "202510011200",
}


def make_search(
    query: str = "search",
    *,
    max_results: int = 10,
    language: str | None = None,
    time_range: str | None = None,
) -> EngineSearch:
    return EngineSearch(
        query=query,
        category="general",
        max_results=max_results,
        language=language,
        time_range=time_range,
        now=NOW,
        user_agent=USER_AGENT,
    )


def request_for(
    module: ModuleType,
    search: EngineSearch | None = None,
    *,
    endpoint: str | None = None,
    credential: str | None = None,
) -> httpx.Request:
    return module.build_request(
        endpoint or module.INFO.default_endpoint, search or make_search(), credential
    ).as_httpx()


def parse(
    module: ModuleType,
    body: bytes,
    status: int = 200,
    headers: dict[str, str] | None = None,
    search: EngineSearch | None = None,
) -> list[RawResult] | EngineFailure:
    """The answer as the orchestrator reads it, with this module's default search."""
    return samples.parse(module, body, status, headers, search or make_search())


def params(request: httpx.Request) -> dict[str, str]:
    items = list(request.url.params.multi_items())
    assert len(items) == len(dict(items)), "a parameter is repeated"
    return dict(items)


# --- shape: every engine module in the package ------------------------------------------------

NOT_ENGINES = {"base", "registry", "request"}
ENGINE_MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(rypsok.engines.__path__)
    if info.name not in NOT_ENGINES and not info.name.startswith("_")
)


def test_the_core_engines_are_in_the_package() -> None:
    assert {module.INFO.id for module in CORE} <= set(ENGINE_MODULES)


def public_names_defined(module: ModuleType) -> set[str]:
    """Public names a module binds at top level (imports excluded)."""
    tree = ast.parse(inspect.getsource(module))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_engine_module_shape(name: str) -> None:
    module = importlib.import_module(f"rypsok.engines.{name}")
    # ``read`` is optional: the paid engines whose answers report a cost or a balance
    assert public_names_defined(module) - {"read"} == {"INFO", "build_request", "parse"}

    info = module.INFO
    assert isinstance(info, EngineInfo)
    assert info.id == name
    assert info.categories and info.categories <= set(CATEGORIES)
    assert info.time_ranges <= set(TIME_RANGES)
    assert isinstance(info.query_limit.amount, int) and info.query_limit.amount > 0
    assert info.query_limit.unit in ("characters", "bytes")
    assert isinstance(info.rate_per_minute, int) and info.rate_per_minute > 0
    assert not info.credential_required or info.credential_env
    assert info.docs.startswith("https://")
    assert module.__doc__ and info.docs in module.__doc__
    if info.default_endpoint:
        endpoint = httpx.URL(info.default_endpoint.replace("{lang}", "en"))
        assert endpoint.scheme == "https" and endpoint.path in ("", "/")

    # The engines import httpx for type checking only (it loads on first use): resolve
    # their annotations with it.
    annotation_names = {"httpx": httpx}
    build_hints = typing.get_type_hints(module.build_request, localns=annotation_names)
    assert list(inspect.signature(module.build_request).parameters) == [
        "endpoint",
        "search",
        "credential",
    ]
    assert build_hints == {
        "endpoint": str,
        "search": EngineSearch,
        "credential": str | None,
        "return": EngineRequest,
    }
    parse_hints = typing.get_type_hints(module.parse, localns=annotation_names)
    assert list(inspect.signature(module.parse).parameters) == [
        "status",
        "headers",
        "body",
        "search",
    ]
    assert parse_hints == {
        "status": int,
        "headers": httpx.Headers,
        "body": bytes,
        "search": EngineSearch,
        "return": list[RawResult] | EngineFailure,
    }


@pytest.mark.parametrize(
    (
        "module",
        "categories",
        "time_ranges",
        "query_limit",
        "credential_env",
        "attribution",
        "rate",
    ),
    [
        (wikipedia, {"general"}, set(), QueryLimit(300, "characters"), None, True, 60),
        (hackernews, {"news"}, set(TIME_RANGES), QueryLimit(512, "bytes"), None, False, 166),
        (arxiv, {"science"}, set(TIME_RANGES), QueryLimit(300, "characters"), None, False, 20),
        (
            github,
            {"code"},
            set(TIME_RANGES),
            QueryLimit(256, "characters"),
            "GITHUB_TOKEN",
            False,
            10,
        ),
        (
            stackexchange,
            {"code"},
            set(TIME_RANGES),
            QueryLimit(250, "characters"),
            "STACKEXCHANGE_KEY",
            True,
            1,
        ),
    ],
)
def test_engine_info(
    module: ModuleType,
    categories: set[str],
    time_ranges: set[str],
    query_limit: QueryLimit,
    credential_env: str | None,
    attribution: bool,
    rate: int,
) -> None:
    info = module.INFO
    assert info.categories == categories
    assert info.time_ranges == time_ranges
    assert info.query_limit == query_limit
    assert info.credential_env == credential_env
    assert info.credential_required is False
    assert info.attribution is attribution
    assert info.rate_per_minute == rate


def test_only_wikipedia_honours_languages() -> None:
    assert wikipedia.INFO.honours_language("de")
    assert wikipedia.INFO.honours_language("pt-BR")
    for module in (hackernews, arxiv, github, stackexchange):
        assert module.INFO.languages == frozenset()
        assert not module.INFO.honours_language("en")


# --- build_request: shared behaviour -------------------------------------------------------------

DEFAULT_URLS = {
    wikipedia: "https://en.wikipedia.org/w/api.php",
    hackernews: "https://hn.algolia.com/api/v1/search",
    arxiv: "https://export.arxiv.org/api/query",
    github: "https://api.github.com/search/repositories",
    stackexchange: "https://api.stackexchange.com/2.3/search/advanced",
}
ACCEPT = {
    wikipedia: "application/json",
    hackernews: "application/json",
    arxiv: "application/atom+xml",
    github: "application/vnd.github+json",
    stackexchange: "application/json",
}


@pytest.mark.parametrize("module", CORE, ids=lambda m: m.INFO.id)
def test_request_goes_to_the_documented_path_of_the_default_endpoint(module: ModuleType) -> None:
    request = request_for(module)
    assert request.method == "GET"
    assert str(request.url.copy_with(query=None)) == DEFAULT_URLS[module]
    assert request.headers["User-Agent"] == USER_AGENT
    assert request.headers["Accept"] == ACCEPT[module]
    assert "Authorization" not in request.headers


@pytest.mark.parametrize("module", CORE, ids=lambda m: m.INFO.id)
def test_request_appends_the_path_to_an_operator_endpoint(module: ModuleType) -> None:
    request = request_for(module, endpoint="http://127.0.0.1:8123/mirror/")
    documented_path = httpx.URL(DEFAULT_URLS[module]).path
    assert request.url.scheme == "http"
    assert request.url.host == "127.0.0.1"
    assert request.url.port == 8123
    assert request.url.path == "/mirror" + documented_path


# --- wikipedia ------------------------------------------------------------------------------------


def test_wikipedia_request_parameters() -> None:
    request = request_for(wikipedia, make_search("trio nursery", max_results=7))
    assert params(request) == {
        "action": "query",
        "list": "search",
        "srsearch": "trio nursery",
        "srlimit": "7",
        "srprop": "snippet",
        "format": "json",
        "formatversion": "2",
    }


@pytest.mark.parametrize(
    ("language", "host"),
    [
        (None, "en.wikipedia.org"),
        ("en", "en.wikipedia.org"),
        ("de", "de.wikipedia.org"),
        ("pt-BR", "pt.wikipedia.org"),
        ("zh_TW", "zh.wikipedia.org"),
        ("nb", "no.wikipedia.org"),
        ("nb-NO", "no.wikipedia.org"),
        ("gsw", "als.wikipedia.org"),
        ("yue", "zh-yue.wikipedia.org"),
        ("zh-min-nan", "zh-min-nan.wikipedia.org"),
        ("be-tarask", "be-tarask.wikipedia.org"),
        ("simple", "simple.wikipedia.org"),
    ],
)
def test_wikipedia_language_picks_the_subdomain(language: str | None, host: str) -> None:
    request = request_for(wikipedia, make_search(language=language))
    assert request.url.host == host
    assert request.url.path == "/w/api.php"


def test_wikipedia_language_fills_lang_in_an_operator_endpoint() -> None:
    request = request_for(
        wikipedia, make_search(language="fi"), endpoint="http://127.0.0.1:9000/{lang}"
    )
    assert str(request.url.copy_with(query=None)) == "http://127.0.0.1:9000/fi/w/api.php"


def test_wikipedia_rejects_a_language_that_cannot_be_a_subdomain() -> None:
    with pytest.raises(ValueError):
        request_for(wikipedia, make_search(language="e$"))


def test_wikipedia_limit_is_capped_at_the_api_maximum() -> None:
    assert params(request_for(wikipedia, make_search(max_results=900)))["srlimit"] == "500"


def test_wikipedia_sends_no_credential() -> None:
    assert "Authorization" not in request_for(wikipedia, credential="tok").headers


WIKIPEDIA_RESULTS = [
    RawResult(
        title="Python (programming language)",
        url="https://en.wikipedia.org/wiki/Python_(programming_language)",
        snippet=(
            "Python is a high-level, general-purpose programming language. Its design philosophy"
            ' emphasizes code "readability" with the use of significant indentation'
        ),
    ),
    RawResult(
        title="C++",
        url="https://en.wikipedia.org/wiki/C%2B%2B",
        snippet=(
            'C++ (pronounced "C plus plus") is a high-level, general-purpose programming language'
            " created by Bjarne Stroustrup. Unlike Python, it's compiled & statically typed"
        ),
    ),
    RawResult(
        title="Zürich",
        url="https://en.wikipedia.org/wiki/Z%C3%BCrich",
        snippet="Zürich is the largest city in Switzerland; its zoo keeps a reticulated python",
    ),
    RawResult(
        title="AC/DC",
        url="https://en.wikipedia.org/wiki/AC/DC",
        snippet="AC/DC are an Australian rock band; the Python-skin jacket",
    ),
    RawResult(title="Don't Look Up", url="https://en.wikipedia.org/wiki/Don%27t_Look_Up"),
    RawResult(
        title="What Is Life? (Schrödinger)",
        url="https://en.wikipedia.org/wiki/What_Is_Life%3F_(Schr%C3%B6dinger)",
        snippet="A 1944 book <by> Erwin Schrödinger, cited by Python users",
    ),
]


def test_wikipedia_parses_results_without_dates() -> None:
    assert parse(wikipedia, fixture("wikipedia", "search.json")) == WIKIPEDIA_RESULTS


def test_wikipedia_result_urls_are_on_the_public_site_of_the_language() -> None:
    results = parse(
        wikipedia, fixture("wikipedia", "search.json"), search=make_search(language="de")
    )
    assert isinstance(results, list)
    assert [r.url for r in results[:2]] == [
        "https://de.wikipedia.org/wiki/Python_(programming_language)",
        "https://de.wikipedia.org/wiki/C%2B%2B",
    ]
    assert all(r.date is None for r in results)


def test_wikipedia_empty_answer() -> None:
    assert parse(wikipedia, fixture("wikipedia", "empty.json")) == []


@pytest.mark.parametrize(
    ("name", "headers", "expected"),
    [
        ("error_query_too_long.json", {}, EngineFailure("request_failure")),
        ("error_search_title_disabled.json", {}, EngineFailure("request_failure")),
        ("error_ratelimited.json", {}, EngineFailure("rate_limited")),
        ("error_too_busy.json", {}, EngineFailure("rate_limited")),
        ("error_maxlag.json", {"Retry-After": "5"}, EngineFailure("rate_limited", 5.0)),
    ],
)
def test_wikipedia_error_object_under_200(
    name: str, headers: dict[str, str], expected: EngineFailure
) -> None:
    assert parse(wikipedia, fixture("wikipedia", name), headers=headers) == expected


def test_wikipedia_error_header_without_a_json_body() -> None:
    failure = parse(
        wikipedia, b"", headers={"MediaWiki-API-Error": "ratelimited", "Retry-After": "12"}
    )
    assert failure == EngineFailure("rate_limited", 12.0)


def test_wikipedia_user_agent_policy_page_is_blocked() -> None:
    body = fixture("wikipedia", "ua_policy_403.html")
    assert parse(wikipedia, body, status=403) == EngineFailure("blocked")


# --- hackernews -----------------------------------------------------------------------------------


def test_hackernews_request_parameters() -> None:
    request = request_for(hackernews, make_search("sqlite fts", max_results=15))
    assert params(request) == {"query": "sqlite fts", "tags": "story", "hitsPerPage": "15"}


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_hackernews_time_range_is_a_created_at_filter(time_range: str) -> None:
    request = request_for(hackernews, make_search(time_range=time_range))
    assert params(request)["numericFilters"] == f"created_at_i>{SINCE_EPOCH[time_range]}"
    assert f"created_at_i%3E{SINCE_EPOCH[time_range]}" in str(request.url)


def test_hackernews_ignores_a_credential() -> None:
    request = request_for(hackernews, credential="tok")
    assert "Authorization" not in request.headers
    assert "tok" not in str(request.url)


HACKERNEWS_RESULTS = [
    RawResult(
        title="Show HN: A tiny search engine",
        url="https://example.org/tool",
        date="2026-09-20",
    ),
    RawResult(
        title="Ask HN: How do you search old mail?",
        url="https://news.ycombinator.com/item?id=41230001",
        snippet='I keep /archive/ & "sent" folders …\nAny tips? See notmuch.',
        date="2026-09-19",
    ),
    RawResult(
        title="The <blink> tag and search engines",
        url="https://news.ycombinator.com/item?id=41300000",
        date="2026-09-30",
    ),
    RawResult(
        title="Full-text search in SQLite, revisited",
        url="https://sqlite.example/fts5.html?ref=hn#intro",
        date="2025-10-01",
    ),
]


def test_hackernews_parses_stories_and_text_posts() -> None:
    assert parse(hackernews, fixture("hackernews", "search.json")) == HACKERNEWS_RESULTS


def test_hackernews_empty_answer() -> None:
    assert parse(hackernews, fixture("hackernews", "empty.json")) == []


def test_hackernews_error_bodies() -> None:
    assert parse(
        hackernews, fixture("hackernews", "error_bad_request.json"), status=400
    ) == EngineFailure("request_failure")
    assert parse(
        hackernews,
        fixture("hackernews", "error_rate_limited.json"),
        status=429,
        headers={"Retry-After": "3600"},
    ) == EngineFailure("rate_limited", 3600.0)


# --- arxiv ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "search_query"),
    [
        ("sparse attention", "all:sparse AND all:attention"),
        (
            'transformer "long  context" AND (memory)',
            'all:transformer AND all:"long context" AND all:memory',
        ),
        ("ti:graphs OR cat:cs.LG", "all:ti AND all:graphs AND all:cat AND all:cs.LG"),
        ("C++ templates", "all:C++ AND all:templates"),
        ('()[]:"', 'all:""'),
    ],
)
def test_arxiv_query_becomes_all_terms(query: str, search_query: str) -> None:
    request = request_for(arxiv, make_search(query, max_results=12))
    assert params(request) == {
        "search_query": search_query,
        "start": "0",
        "max_results": "12",
        "sortBy": "relevance",
        "sortOrder": "descending",
    }


def test_arxiv_spaces_are_sent_as_plus() -> None:
    assert "search_query=all%3Asparse+AND+all%3Aattention" in str(
        request_for(arxiv, make_search("sparse attention")).url
    )


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_arxiv_time_range_is_a_submitted_date_clause(time_range: str) -> None:
    request = request_for(arxiv, make_search("sparse attention", time_range=time_range))
    assert params(request)["search_query"] == (
        "(all:sparse AND all:attention) AND "
        f"submittedDate:[{SINCE_MINUTE[time_range]} TO 202610011200]"
    )


def test_arxiv_time_range_is_in_gmt_whatever_the_offset_of_now() -> None:
    helsinki = dt.timezone(dt.timedelta(hours=3))
    search = EngineSearch(
        query="x",
        category="science",
        max_results=5,
        time_range="day",
        now=NOW.astimezone(helsinki),
        user_agent=USER_AGENT,
    )
    assert params(request_for(arxiv, search))["search_query"] == (
        "(all:x) AND submittedDate:[202609301200 TO 202610011200]"
    )


ARXIV_RESULTS = [
    RawResult(
        title="Sparse Attention for\n  Long Documents",
        url="https://arxiv.org/abs/2609.01234v2",
        snippet=(
            "  We study sparse attention over long documents & show that\n"
            "a block pattern matches dense attention at a fraction of the cost.\n"
        ),
        date="2026-09-02",
    ),
    RawResult(
        title="Attention to $\\mathcal{N}=4$ Sparse Branes <revisited>",
        url="http://arxiv.org/abs/hep-th/9901001v1",
        snippet="  A note on branes.\n",
        date="1999-01-04",
    ),
    RawResult(
        title="Attention Is Sparse, Mostly",
        url="https://arxiv.org/abs/2609.09999v1",
        snippet="We show that most attention heads are sparse.",
        date="2026-09-30",
    ),
]


def test_arxiv_parses_entries() -> None:
    assert parse(arxiv, fixture("arxiv", "search.xml")) == ARXIV_RESULTS


def test_arxiv_empty_feed() -> None:
    assert parse(arxiv, fixture("arxiv", "empty.xml")) == []


@pytest.mark.parametrize("status", [200, 400])
def test_arxiv_error_entry_is_a_parse_failure(status: int) -> None:
    assert parse(arxiv, fixture("arxiv", "error.xml"), status=status) == EngineFailure(
        "parse_failure"
    )


def test_arxiv_outage_page() -> None:
    body = fixture("arxiv", "unavailable.html")
    assert parse(arxiv, body, status=503) == EngineFailure("request_failure")
    assert parse(arxiv, body, status=200) == EngineFailure("parse_failure")


def test_arxiv_does_not_expand_external_entities(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read me")
    body = (
        f'<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x SYSTEM "file://{secret}">]>'
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>https://arxiv.org/abs/1</id>'
        "<title>&x;</title><published>2026-01-01T00:00:00Z</published></entry></feed>"
    ).encode()
    results = parse(arxiv, body)
    assert not (isinstance(results, list) and any("do not read me" in r.title for r in results))


# --- github ---------------------------------------------------------------------------------------


def test_github_request_parameters_and_headers() -> None:
    request = request_for(github, make_search("async runtime", max_results=20))
    assert params(request) == {"q": "async runtime", "per_page": "20", "page": "1"}
    assert request.headers["X-GitHub-Api-Version"] == "2022-11-28"
    assert request.headers["Accept"] == "application/vnd.github+json"
    assert "Authorization" not in request.headers


def test_github_token_goes_in_a_bearer_header() -> None:
    request = request_for(github, credential="ghp_exampletoken")
    assert request.headers["Authorization"] == "Bearer ghp_exampletoken"
    assert "ghp_exampletoken" not in str(request.url)


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_github_time_range_is_a_pushed_qualifier(time_range: str) -> None:
    request = request_for(github, make_search("async runtime", time_range=time_range))
    assert params(request)["q"] == f"async runtime pushed:>={SINCE_DATE[time_range]}"


def test_github_per_page_is_capped_at_100() -> None:
    assert params(request_for(github, make_search(max_results=250)))["per_page"] == "100"


GITHUB_RESULTS = [
    RawResult(
        title="tokio-rs/tokio",
        url="https://github.com/tokio-rs/tokio",
        snippet=(
            "A runtime for writing reliable asynchronous applications with Rust. Provides I/O,"
            " networking, scheduling, timers, ..."
        ),
        date="2026-09-30",
    ),
    RawResult(
        title="python-trio/trio",
        url="https://github.com/python-trio/trio",
        snippet="Trio – a friendly Python library for async concurrency and I/O",
        date="2026-09-28",
    ),
    RawResult(
        title="zoe-dev/async-notes",
        url="https://github.com/zoe-dev/async-notes",
        snippet="",
        date="2024-01-01",
    ),
]


def test_github_parses_repositories() -> None:
    assert parse(github, fixture("github", "search.json")) == GITHUB_RESULTS


def test_github_incomplete_results_are_still_results() -> None:
    assert parse(github, fixture("github", "incomplete.json")) == GITHUB_RESULTS[:1]


def test_github_empty_answer() -> None:
    assert parse(github, fixture("github", "empty.json")) == []


@pytest.mark.parametrize("status", [403, 429])
def test_github_primary_rate_limit_waits_until_reset_relative_to_now(status: int) -> None:
    headers = {
        "x-ratelimit-limit": "10",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": "10",
        "x-ratelimit-reset": str(NOW_EPOCH + 42),
        "x-ratelimit-resource": "search",
    }
    body = fixture("github", "rate_limited_primary.json")
    assert parse(github, body, status=status, headers=headers) == EngineFailure(
        "rate_limited", 42.0
    )


def test_github_rate_limit_header_alone_is_enough() -> None:
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(NOW_EPOCH + 7)}
    assert parse(github, b"", status=403, headers=headers) == EngineFailure("rate_limited", 7.0)


def test_github_reset_in_the_past_means_no_wait() -> None:
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(NOW_EPOCH - 5)}
    body = fixture("github", "rate_limited_primary.json")
    assert parse(github, body, status=403, headers=headers) == EngineFailure("rate_limited", 0.0)


def test_github_secondary_rate_limit() -> None:
    body = fixture("github", "rate_limited_secondary.json")
    assert parse(github, body, status=403, headers={"retry-after": "90"}) == EngineFailure(
        "rate_limited", 90.0
    )
    assert parse(github, body, status=403) == EngineFailure("rate_limited", 60.0)


@pytest.mark.parametrize(
    ("name", "status", "expected"),
    [
        ("forbidden_no_user_agent.json", 403, EngineFailure("blocked")),
        ("bad_credentials.json", 401, EngineFailure("auth_failure")),
        ("validation_failed.json", 422, EngineFailure("request_failure")),
    ],
)
def test_github_error_bodies(name: str, status: int, expected: EngineFailure) -> None:
    headers = {"x-ratelimit-remaining": "9", "x-ratelimit-reset": str(NOW_EPOCH + 60)}
    assert parse(github, fixture("github", name), status=status, headers=headers) == expected


# --- stackexchange --------------------------------------------------------------------------------


def test_stackexchange_request_parameters() -> None:
    request = request_for(stackexchange, make_search("asyncio await task", max_results=25))
    assert params(request) == {
        "q": "asyncio await task",
        "site": "stackoverflow",
        "order": "desc",
        "sort": "relevance",
        "pagesize": "25",
        "page": "1",
        "filter": "withbody",
    }
    assert "Authorization" not in request.headers


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_stackexchange_time_range_is_fromdate(time_range: str) -> None:
    request = request_for(stackexchange, make_search(time_range=time_range))
    assert params(request)["fromdate"] == str(SINCE_EPOCH[time_range])


def test_stackexchange_app_key_is_a_parameter() -> None:
    request = request_for(stackexchange, credential="k3yAbc((")
    assert params(request)["key"] == "k3yAbc(("
    assert "Authorization" not in request.headers
    assert "key" not in params(request_for(stackexchange))


def test_stackexchange_pagesize_is_capped_at_100() -> None:
    assert params(request_for(stackexchange, make_search(max_results=101)))["pagesize"] == "100"


STACKEXCHANGE_RESULTS = [
    RawResult(
        title='How do I "await" a task in Python\'s asyncio?',
        url="https://stackoverflow.com/questions/7712345/how-do-i-await-a-task-in-pythons-asyncio",
        snippet=(
            "I have a coroutine and I want to wait for it from sync code:\n\n\n"
            "async def main() -> None:\n    await asyncio.sleep(1)\n\n\n\n"
            "Is asyncio.run the right way & why?"
        ),
        date="2023-11-14",
    ),
    RawResult(
        title="What does <T> mean in List<T>?",
        url="https://stackoverflow.com/questions/79999999/what-does-t-mean-in-listt",
        snippet="Seen in List<T>.",
        date="2026-09-30",
    ),
    RawResult(
        title="Why is 0.1 + 0.2 not 0.3?",
        url="https://stackoverflow.com/questions/54999999/why-is-0-1-0-2-not-0-3",
        snippet="",
        date="2019-03-02",
    ),
]


@pytest.mark.parametrize(
    "encode",
    [lambda b: b, lambda b: gzip.compress(b, mtime=0), zlib.compress],
    ids=["plain", "gzip", "zlib"],
)
def test_stackexchange_parses_questions_compressed_or_not(encode: typing.Callable) -> None:
    body = encode(fixture("stackexchange", "search.json"))
    assert parse(stackexchange, body) == STACKEXCHANGE_RESULTS


def test_stackexchange_empty_answer() -> None:
    assert parse(stackexchange, fixture("stackexchange", "empty.json")) == []


def test_stackexchange_backoff_on_a_good_answer_keeps_the_results() -> None:
    results = parse(stackexchange, fixture("stackexchange", "search_with_backoff.json"))
    assert results == [
        RawResult(
            title="Borrow checker and async",
            url="https://stackoverflow.com/questions/80000001/borrow-checker-and-async",
            snippet="Why?",
            date="2026-09-30",
        )
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("throttle_violation.json", EngineFailure("rate_limited", 80643.0)),
        ("backoff_violation.json", EngineFailure("rate_limited", 25.0)),
        ("access_denied.json", EngineFailure("blocked")),
        ("bad_parameter.json", EngineFailure("request_failure")),
        # api.stackexchange.com/docs/error-handling: bad_parameter (400) covers "even high
        # level parameters like key"; the message names the parameter, as bad_parameter.json's
        # does ("key" is a guess of the exact words): the operator's key refused.
        ("bad_parameter_key.json", EngineFailure("auth_failure")),
        ("temporarily_unavailable.json", EngineFailure("request_failure")),
    ],
)
def test_stackexchange_error_wrapper(name: str, expected: EngineFailure) -> None:
    body = fixture("stackexchange", name)
    assert parse(stackexchange, body, status=400) == expected
    assert parse(stackexchange, gzip.compress(body, mtime=0), status=400) == expected


def test_stackexchange_truncated_gzip_is_a_parse_failure() -> None:
    body = gzip.compress(fixture("stackexchange", "search.json"), mtime=0)[:40]
    assert parse(stackexchange, body) == EngineFailure("parse_failure")


# --- failure mapping shared by all five -----------------------------------------------------------


@pytest.mark.parametrize("module", CORE, ids=lambda m: m.INFO.id)
@pytest.mark.parametrize(
    ("status", "headers", "body", "expected"),
    [
        (429, {"Retry-After": "30"}, b"Too Many Requests", EngineFailure("rate_limited", 30.0)),
        (429, {}, b"", EngineFailure("rate_limited")),
        (401, {}, b'{"message": "Unauthorized"}', EngineFailure("auth_failure")),
        (403, {}, ERROR_PAGE, EngineFailure("blocked")),
        (403, {}, CAPTCHA_PAGE, EngineFailure("blocked")),
        (404, {}, b"Not Found", EngineFailure("request_failure")),
        (500, {}, b'{"message": "Internal Server Error"}', EngineFailure("request_failure")),
        (502, {}, ERROR_PAGE, EngineFailure("request_failure")),
        (503, {"Retry-After": "120"}, b"", EngineFailure("request_failure")),
        (200, {}, CAPTCHA_PAGE, EngineFailure("blocked")),
        (200, {}, ERROR_PAGE, EngineFailure("parse_failure")),
        (200, {}, b"\x00\xff\xfe garbage", EngineFailure("parse_failure")),
        (200, {}, b"", EngineFailure("parse_failure")),
        (200, {}, b'{"truncated": [', EngineFailure("parse_failure")),
        (200, {}, b"[1, 2, 3]", EngineFailure("parse_failure")),
        (200, {}, b'{"unexpected": true}', EngineFailure("parse_failure")),
    ],
    ids=[
        "429-retry-after",
        "429",
        "401",
        "403-page",
        "403-captcha",
        "404",
        "500",
        "502-page",
        "503",
        "captcha-under-200",
        "html-under-200",
        "garbage",
        "empty-body",
        "truncated-json",
        "json-list",
        "json-wrong-object",
    ],
)
def test_failure_mapping(
    module: ModuleType,
    status: int,
    headers: dict[str, str],
    body: bytes,
    expected: EngineFailure,
) -> None:
    assert parse(module, body, status=status, headers=headers) == expected


@pytest.mark.parametrize("module", CORE, ids=lambda m: m.INFO.id)
def test_a_good_body_under_an_error_status_is_still_a_failure(module: ModuleType) -> None:
    name = "search.xml" if module is arxiv else "search.json"
    body = fixture(module.INFO.id, name)
    assert parse(module, body, status=500) == EngineFailure("request_failure")
    assert parse(module, body, status=401) == EngineFailure("auth_failure")


def test_a_regional_language_is_honoured_where_its_primary_language_is():
    info = EngineInfo(
        id="x", categories=frozenset({"general"}), default_endpoint="", languages=frozenset({"pt"})
    )
    assert info.honours_language("pt")
    assert info.honours_language("pt-br")
    assert not info.honours_language("es")
    assert not info.honours_language("ptx")


@pytest.mark.parametrize(
    "body",
    [
        b'{"results": [{"title": "t", "url": "https://a.org/"}]}',
        b'{"score": NaN, "big": 123456789012345678901234567890}',
        b'{"title": "\\ud800 alone"}',
        '{"title": "caf\u00e9"}'.encode("utf-16"),
        b'{"a": 1, "a": 2}',
        b'{"id": 123456789012345678901234567890, "n": -99999999999999999999}',
        b'{"id": 18446744073709551616}',
    ],
)
def test_an_answer_reads_as_the_standard_library_reads_it(body: bytes) -> None:
    """orjson reads answers faster; whatever it refuses, the standard library reads."""
    assert repr(load_json(body)) == repr(json.loads(body))


DIGIT_RUNS = st.lists(
    st.one_of(
        st.binary(max_size=8),
        st.integers(0, 40).map(lambda n: b"7" * n),
        st.sampled_from([b"0123456789", b"9876543210", b"/", b":", b"\x00", b"\xb9", b"\xd9"]),
    ),
    max_size=12,
).map(b"".join)


@given(DIGIT_RUNS)
def test_the_long_digit_run_check_answers_as_the_regular_expression(body: bytes) -> None:
    assert has_long_digit_run(body) == (re.search(rb"[0-9]{19}", body) is not None)


@pytest.mark.parametrize("body", [b"", b"{", b"\xff\xfe{", b"[1,]"])
def test_an_unreadable_answer_raises_value_error(body: bytes) -> None:
    with pytest.raises(ValueError):
        load_json(body)


def test_an_answer_nested_deeper_than_any_parser_reads_is_a_parse_failure_not_a_crash():
    """orjson before 3.9.15 overflowed the native stack on such a body (CVE-2024-27454),
    killing the process; now the nest is refused and the engine's answer is a failure."""
    body = b'{"results": ' + b"[" * 500_000 + b"]" * 500_000 + b"}"
    assert read_answer(wikipedia, 200, httpx.Headers(), body, make_search("q")) == EngineFailure(
        "parse_failure"
    )
