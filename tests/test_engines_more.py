"""The nine further engines on saved responses.

duckduckgo, mojeek, marginalia, brave, brave_news, searxng, gdelt, crossref and
openalex are checked on what they send (the documented path appended to the
endpoint, parameters, headers, time_range and language mapping with a fixed
``now``, the credential) and on what they make of every fixture: results field
by field, and the failure reasons of DECISIONS.md (429 with Retry-After, 401,
403, 5xx, each engine's own error bodies, garbage, block pages).
"""

from __future__ import annotations

import urllib.parse
from types import ModuleType

import httpx
import pytest

from rypsok.engines import (
    brave,
    brave_news,
    crossref,
    duckduckgo,
    gdelt,
    marginalia,
    mojeek,
    openalex,
    searxng,
)
from rypsok.engines.base import (
    TIME_RANGES,
    EngineFailure,
    EngineSearch,
    QueryLimit,
    RawResult,
)
from tests.engine_samples import (
    CAPTCHA_PAGE,
    ERROR_PAGE,
    SINCE_DATE,
    USER_AGENT,
    fixture,
    make_search,
    parse,
)

SEARXNG_ENDPOINT = "https://searx.example.org"
ENGINES = (duckduckgo, mojeek, marginalia, brave, brave_news, searxng, gdelt, crossref, openalex)
JSON_ENGINES = (marginalia, brave, brave_news, searxng, gdelt, crossref, openalex)

GARBAGE = b"\x00\x9f<<not a response>>\xff{"


def default_endpoint(module: ModuleType) -> str:
    return module.INFO.default_endpoint or SEARXNG_ENDPOINT


def request_for(
    module: ModuleType,
    search: EngineSearch | None = None,
    credential: str | None = None,
    endpoint: str | None = None,
) -> httpx.Request:
    return module.build_request(
        endpoint or default_endpoint(module), search or make_search(), credential
    ).as_httpx()


def params(request: httpx.Request) -> dict[str, str]:
    """The query string (or, for a form POST, the form) as a dict; no name may repeat."""
    if request.method == "POST":
        items = urllib.parse.parse_qsl(request.content.decode(), keep_blank_values=True)
    else:
        items = list(request.url.params.multi_items())
    assert len(items) == len(dict(items)), "a parameter is repeated"
    return dict(items)


# --- INFO ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    (
        "module",
        "category",
        "endpoint",
        "time_ranges",
        "query_limit",
        "credential_env",
        "required",
        "attribution",
        "rate",
    ),
    [
        (duckduckgo, "general", "https://html.duckduckgo.com", TIME_RANGES, QueryLimit(499, "characters"), None, False, False, 10),
        (mojeek, "general", "https://www.mojeek.com", TIME_RANGES, QueryLimit(400, "characters"), None, False, False, 6),
        (marginalia, "general", "https://api2.marginalia-search.com", (), QueryLimit(400, "characters"), "MARGINALIA_API_KEY", False, True, 10),
        (brave, "general", "https://api.search.brave.com", TIME_RANGES, QueryLimit(400, "characters"), "BRAVE_API_KEY", True, False, 60),
        (searxng, "general", "", TIME_RANGES, QueryLimit(400, "characters"), None, False, False, 60),
        (brave_news, "news", "https://api.search.brave.com", TIME_RANGES, QueryLimit(400, "characters"), "BRAVE_API_KEY", True, False, 60),
        (gdelt, "news", "https://api.gdeltproject.org", ("day", "week", "month"), QueryLimit(300, "characters"), None, False, False, 12),
        (crossref, "science", "https://api.crossref.org", TIME_RANGES, QueryLimit(400, "characters"), None, False, False, 60),
        (openalex, "science", "https://api.openalex.org", TIME_RANGES, QueryLimit(400, "characters"), "OPENALEX_API_KEY", True, False, 60),
    ],
    ids=lambda value: value.INFO.id if isinstance(value, ModuleType) else None,
)  # fmt: skip
def test_engine_info(
    module: ModuleType,
    category: str,
    endpoint: str,
    time_ranges: tuple[str, ...],
    query_limit: QueryLimit,
    credential_env: str | None,
    required: bool,
    attribution: bool,
    rate: int,
) -> None:
    info = module.INFO
    assert info.categories == {category}
    assert info.default_endpoint == endpoint
    assert info.time_ranges == set(time_ranges)
    assert info.query_limit == query_limit
    assert info.credential_env == credential_env
    assert info.credential_required is required
    assert info.attribution is attribution
    assert info.rate_per_minute == rate


def test_gdelt_cannot_honour_a_year() -> None:
    assert not gdelt.INFO.honours_time_range("year")
    assert gdelt.INFO.honours_time_range("month")


@pytest.mark.parametrize(
    "module", [duckduckgo, mojeek, marginalia, crossref], ids=lambda m: m.INFO.id
)
def test_engines_without_a_language_filter_honour_none(module: ModuleType) -> None:
    assert module.INFO.languages == frozenset()
    assert not module.INFO.honours_language("en")


@pytest.mark.parametrize(
    ("module", "honoured", "not_honoured"),
    [
        (brave, ["en", "de", "ja", "jp", "pt-BR", "pt-br", "zh-Hant", "zh-TW", "en-GB", "en-US", "nb"], ["xx", "sw", "sw-KE"]),
        (brave_news, ["en", "fr", "zh-Hans"], ["xx"]),
        (gdelt, ["en", "de", "es", "ja", "sw", "bo", "pt-BR"], ["xx", "eo", "eo-XX"]),
        (searxng, ["en", "pt-BR", "fr-CA", "anything"], []),
        (openalex, ["en", "pt-BR", "fr"], []),
    ],
    ids=lambda value: value.INFO.id if isinstance(value, ModuleType) else None,
)  # fmt: skip
def test_languages_honoured(
    module: ModuleType, honoured: list[str], not_honoured: list[str]
) -> None:
    for language in honoured:
        assert module.INFO.honours_language(language), language
    for language in not_honoured:
        assert not module.INFO.honours_language(language), language


# --- build_request: shared behaviour -----------------------------------------------------------

DEFAULT_URLS = {
    duckduckgo: "https://html.duckduckgo.com/html/",
    mojeek: "https://www.mojeek.com/search",
    marginalia: "https://api2.marginalia-search.com/search",
    brave: "https://api.search.brave.com/res/v1/web/search",
    brave_news: "https://api.search.brave.com/res/v1/news/search",
    searxng: "https://searx.example.org/search",
    gdelt: "https://api.gdeltproject.org/api/v2/doc/doc",
    crossref: "https://api.crossref.org/works",
    openalex: "https://api.openalex.org/works",
}
PATHS = {module: httpx.URL(url).path for module, url in DEFAULT_URLS.items()}


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
def test_request_goes_to_the_documented_path_of_the_default_endpoint(module: ModuleType) -> None:
    request = request_for(module)
    assert request.method == ("POST" if module is duckduckgo else "GET")
    assert str(request.url.copy_with(query=None)) == DEFAULT_URLS[module]


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
@pytest.mark.parametrize("endpoint", ["http://127.0.0.1:8931", "http://127.0.0.1:8931/proxy/"])
def test_request_appends_the_path_to_an_operator_endpoint(
    module: ModuleType, endpoint: str
) -> None:
    request = request_for(module, endpoint=endpoint)
    prefix = endpoint.rstrip("/").removeprefix("http://127.0.0.1:8931")
    assert request.url.scheme == "http"
    assert request.url.host == "127.0.0.1"
    assert request.url.port == 8931
    assert request.url.path == prefix + PATHS[module]


@pytest.mark.parametrize("module", JSON_ENGINES, ids=lambda m: m.INFO.id)
def test_api_requests_carry_rypsok_user_agent_and_ask_for_json(module: ModuleType) -> None:
    request = request_for(module)
    assert request.headers["User-Agent"] == USER_AGENT
    assert request.headers["Accept"] == "application/json"


@pytest.mark.parametrize("module", [duckduckgo, mojeek], ids=lambda m: m.INFO.id)
def test_html_engines_send_a_browser_user_agent(module: ModuleType) -> None:
    request = request_for(module)
    assert request.headers["User-Agent"].startswith("Mozilla/5.0 (")
    assert "Firefox/" in request.headers["User-Agent"]
    assert request.headers["Accept"].startswith("text/html")
    assert request.headers["Accept-Language"]


@pytest.mark.parametrize(
    "module",
    [duckduckgo, mojeek, searxng, gdelt, crossref],
    ids=lambda m: m.INFO.id,
)
def test_engines_without_a_key_send_no_credential(module: ModuleType) -> None:
    request = request_for(module, credential="s3cr3t-value")
    assert "s3cr3t-value" not in str(request.url)
    assert "s3cr3t-value" not in request.content.decode()
    assert all("s3cr3t-value" not in value for value in request.headers.values())


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
def test_no_time_range_and_no_language_add_no_filter(module: ModuleType) -> None:
    sent = params(request_for(module))
    for name in ("df", "since", "freshness", "time_range", "timespan", "filter", "language"):
        assert name not in sent
    assert "sourcelang" not in sent.get("query", "")
    assert "search_lang" not in sent


# --- build_request: each engine ------------------------------------------------------------


def test_duckduckgo_posts_the_form_of_the_html_endpoint() -> None:
    request = request_for(duckduckgo, credential="ignored")
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert request.headers["Referer"] == "https://html.duckduckgo.com/"
    assert params(request) == {"q": "rust async", "b": "", "kl": "wt-wt"}
    assert request.url.query == b""


@pytest.mark.parametrize(
    ("time_range", "df"), [("day", "d"), ("week", "w"), ("month", "m"), ("year", "y")]
)
def test_duckduckgo_time_range_is_df(time_range: str, df: str) -> None:
    assert params(request_for(duckduckgo, make_search(time_range=time_range)))["df"] == df


def test_mojeek_request_parameters() -> None:
    request = request_for(mojeek)
    assert params(request) == {"q": "rust async"}


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_mojeek_time_range_is_since_a_day_computed_from_now(time_range: str) -> None:
    sent = params(request_for(mojeek, make_search(time_range=time_range)))
    assert sent == {"q": "rust async", "since": SINCE_DATE[time_range].replace("-", "")}


def test_marginalia_uses_the_shared_public_key_without_a_credential() -> None:
    request = request_for(marginalia, make_search(max_results=7))
    assert request.headers["API-Key"] == "public"
    assert params(request) == {"query": "rust async", "count": "7"}


def test_marginalia_sends_an_operator_key_in_its_header() -> None:
    request = request_for(marginalia, credential="personal-key-123")
    assert request.headers["API-Key"] == "personal-key-123"
    assert "personal-key-123" not in str(request.url)


def test_marginalia_count_is_capped_at_the_api_maximum() -> None:
    assert params(request_for(marginalia, make_search(max_results=500)))["count"] == "100"


def test_brave_request_parameters_and_key_header() -> None:
    request = request_for(brave, make_search(max_results=5), credential="BSA-key-value")
    assert params(request) == {"q": "rust async", "count": "5", "text_decorations": "false"}
    assert request.headers["X-Subscription-Token"] == "BSA-key-value"
    assert "BSA-key-value" not in str(request.url)


def test_brave_news_request_parameters_and_key_header() -> None:
    request = request_for(brave_news, make_search(max_results=5), credential="BSA-key-value")
    assert params(request) == {"q": "rust async", "count": "5"}
    assert request.headers["X-Subscription-Token"] == "BSA-key-value"


@pytest.mark.parametrize("module", [brave, brave_news], ids=lambda m: m.INFO.id)
def test_brave_sends_no_key_header_without_a_credential(module: ModuleType) -> None:
    assert "X-Subscription-Token" not in request_for(module).headers


@pytest.mark.parametrize(("module", "cap"), [(brave, 20), (brave_news, 50)])
def test_brave_count_is_capped_at_the_documented_maximum(module: ModuleType, cap: int) -> None:
    assert params(request_for(module, make_search(max_results=200)))["count"] == str(cap)


@pytest.mark.parametrize("module", [brave, brave_news], ids=lambda m: m.INFO.id)
@pytest.mark.parametrize(
    ("time_range", "freshness"), [("day", "pd"), ("week", "pw"), ("month", "pm"), ("year", "py")]
)
def test_brave_time_range_is_freshness(module: ModuleType, time_range: str, freshness: str) -> None:
    assert params(request_for(module, make_search(time_range=time_range)))["freshness"] == freshness


@pytest.mark.parametrize("module", [brave, brave_news], ids=lambda m: m.INFO.id)
@pytest.mark.parametrize(
    ("language", "search_lang"),
    [
        ("en", "en"),
        ("de", "de"),
        ("ja", "jp"),
        ("pt-BR", "pt-br"),
        ("pt", "pt-pt"),
        ("zh-TW", "zh-hant"),
        ("zh-Hans", "zh-hans"),
        ("en_GB", "en-gb"),
        ("de-AT", "de"),
        ("no", "nb"),
    ],
)
def test_brave_language_is_search_lang(module: ModuleType, language: str, search_lang: str) -> None:
    assert params(request_for(module, make_search(language=language)))["search_lang"] == search_lang


def test_brave_sends_no_search_lang_for_a_language_it_lacks() -> None:
    assert "search_lang" not in params(request_for(brave, make_search(language="xx")))


def test_searxng_request_parameters() -> None:
    request = request_for(searxng, make_search(max_results=3))
    assert params(request) == {"q": "rust async", "format": "json", "categories": "general"}


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_searxng_time_range_is_passed_by_name(time_range: str) -> None:
    assert params(request_for(searxng, make_search(time_range=time_range)))["time_range"] == (
        time_range
    )


@pytest.mark.parametrize("language", ["de", "pt-BR"])
def test_searxng_language_is_passed_as_given(language: str) -> None:
    assert params(request_for(searxng, make_search(language=language)))["language"] == language


def test_gdelt_request_parameters() -> None:
    request = request_for(gdelt, make_search("budget vote", category="news", max_results=8))
    assert params(request) == {
        "query": "budget vote",
        "mode": "artlist",
        "format": "json",
        "maxrecords": "8",
        "sort": "hybridrel",
    }


def test_gdelt_maxrecords_is_capped_at_250() -> None:
    assert params(request_for(gdelt, make_search(max_results=1000)))["maxrecords"] == "250"


@pytest.mark.parametrize(
    ("time_range", "timespan"), [("day", "1d"), ("week", "7d"), ("month", "31d")]
)
def test_gdelt_time_range_is_a_timespan(time_range: str, timespan: str) -> None:
    assert params(request_for(gdelt, make_search(time_range=time_range)))["timespan"] == timespan


def test_gdelt_sends_no_timespan_for_a_year_it_cannot_search() -> None:
    assert "timespan" not in params(request_for(gdelt, make_search(time_range="year")))


@pytest.mark.parametrize(
    ("language", "query"),
    [
        ("en", "budget vote sourcelang:english"),
        ("de", "budget vote sourcelang:german"),
        ("pt-BR", "budget vote sourcelang:portuguese"),
        ("zh_TW", "budget vote sourcelang:chinese"),
        ("xx", "budget vote"),
    ],
)
def test_gdelt_language_is_sourcelang_inside_the_query(language: str, query: str) -> None:
    sent = params(request_for(gdelt, make_search("budget vote", language=language)))
    assert sent["query"] == query


def test_crossref_request_parameters() -> None:
    request = request_for(crossref, make_search("graph neural networks", max_results=5))
    assert params(request) == {
        "query": "graph neural networks",
        "rows": "5",
        "select": "DOI,URL,title,abstract,published,issued,container-title,type",
    }


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_crossref_time_range_is_from_pub_date(time_range: str) -> None:
    sent = params(request_for(crossref, make_search(time_range=time_range)))
    assert sent["filter"] == f"from-pub-date:{SINCE_DATE[time_range]}"


def test_crossref_rows_are_capped_at_1000() -> None:
    assert params(request_for(crossref, make_search(max_results=5000)))["rows"] == "1000"


def test_openalex_request_parameters_with_the_key() -> None:
    request = request_for(openalex, make_search("graph neural networks", max_results=5), "oa-key")
    assert params(request) == {
        "search": "graph neural networks",
        "per-page": "5",
        "select": (
            "id,doi,display_name,title,publication_date,primary_location,abstract_inverted_index"
        ),
        "api_key": "oa-key",
    }


def test_openalex_sends_no_api_key_without_a_credential() -> None:
    assert "api_key" not in params(request_for(openalex))


def test_openalex_per_page_is_capped_at_200() -> None:
    assert params(request_for(openalex, make_search(max_results=999)))["per-page"] == "200"


@pytest.mark.parametrize("time_range", TIME_RANGES)
def test_openalex_time_range_is_a_publication_date_filter(time_range: str) -> None:
    sent = params(request_for(openalex, make_search(time_range=time_range)))
    assert sent["filter"] == f"from_publication_date:{SINCE_DATE[time_range]}"


@pytest.mark.parametrize(("language", "code"), [("en", "en"), ("pt-BR", "pt"), ("DE", "de")])
def test_openalex_language_is_a_language_filter(language: str, code: str) -> None:
    sent = params(request_for(openalex, make_search(language=language)))
    assert sent["filter"] == f"language:{code}"


def test_openalex_filters_are_joined_with_a_comma() -> None:
    sent = params(request_for(openalex, make_search(language="fr", time_range="week")))
    assert sent["filter"] == "from_publication_date:2026-09-24,language:fr"


# --- parse: the saved answers ---------------------------------------------------------------

EXPECTED = {
    (duckduckgo, "search.html"): [
        RawResult(
            title="Getting Started - Asynchronous Programming in Rust",
            url="https://rust-lang.github.io/async-book/",
            snippet=(
                "This book aims to be a comprehensive guide to asynchronous programming in Rust,"
                " from beginner to advanced."
            ),
        ),
        RawResult(
            title="Tutorial | Tokio - An asynchronous Rust runtime",
            url="https://tokio.rs/tokio/tutorial?x=1&y=2",
            snippet='Tokio is an async runtime & a set of "batteries included" libraries.',
        ),
        RawResult(
            title="Nebenläufigkeit – Wikipedia",
            url="https://de.wikipedia.org/wiki/Nebenl%C3%A4ufigkeit",
            snippet=(
                "Die Nebenläufigkeit ist in der Informatik die Eigenschaft eines Systems,"
                " mehrere Berechnungen …"
            ),
        ),
        RawResult(
            title="Why async Rust?",
            url="https://without.boats/blog/why-async-rust/",
            snippet="Async/await syntax in Rust was initially released to much fanfare.",
        ),
    ],
    (mojeek, "search.html"): [
        RawResult(
            title="Getting Started - Asynchronous Programming in Rust",
            url="https://rust-lang.github.io/async-book/",
            snippet=(
                "This book aims to be a comprehensive guide to async programming in Rust,"
                " from beginner to advanced…"
            ),
        ),
        RawResult(
            title="Tutorial | Tokio - An asynchronous Rust runtime",
            url="https://tokio.rs/tokio/tutorial",
            snippet=(
                'Tokio is an asynchronous runtime for the Rust programming language & its "batteries".'
            ),
        ),
        RawResult(title="futures - Rust", url="https://docs.rs/futures/latest/futures/"),
        RawResult(
            title="Why async Rust?",
            url="https://without.boats/blog/why-async-rust/",
            snippet="Async/await syntax in Rust was initially released to much fanfare and excitement.",
        ),
    ],
    (marginalia, "search.json"): [
        RawResult(
            title="Linear B",
            url="https://www.example.org/aegean/linear-b.html",
            snippet=(
                "Notes on the Mycenaean syllabic script, its signs and the decipherment by"
                " Michael Ventris."
            ),
        ),
        RawResult(
            title="Evidence for Greek Dialect in the Mycenaean Archives",
            url="https://classics.example.edu/papers/ventris-1953.pdf",
        ),
        RawResult(
            title="",
            url="http://oldsite.example.net/~kober/tablets.txt",
            snippet="Tablet transcriptions from Knossos & Pylos, with the ideograms listed.",
        ),
    ],
    (brave, "search.json"): [
        RawResult(
            title="Getting Started - Asynchronous Programming in Rust",
            url="https://rust-lang.github.io/async-book/",
            snippet=(
                "This book aims to be a comprehensive guide to async programming in Rust,"
                " from beginner to advanced."
            ),
            date="2026-08-14",
        ),
        RawResult(
            title="Tutorial | Tokio - An asynchronous Rust runtime",
            url="https://tokio.rs/tokio/tutorial",
            snippet=(
                'Tokio is an asynchronous runtime for the Rust programming language & its "batteries".'
            ),
        ),
        RawResult(
            title="async - Rust",
            url="https://doc.rust-lang.org/std/keyword.async.html",
            snippet="Returns a Future instead of blocking the current thread.",
            date="2026-09-18",
        ),
        RawResult(
            title="Why async Rust?",
            url="https://without.boats/blog/why-async-rust/",
            date="2026-07-02",
        ),
    ],
    (brave_news, "search.json"): [
        RawResult(
            title="EU AI Act enters next phase",
            url="https://news.example/2026/09/30/ai-act-next-phase",
            snippet=(
                "Lawmakers agreed on the timetable for general-purpose models & high-risk systems."
            ),
            date="2026-09-30",
        ),
        RawResult(
            title="What the AI Act means for start-ups",
            url="https://tech.example.com/ai-act-startups",
            snippet="A guide to the obligations that apply from 2026.",
        ),
        RawResult(
            title="Brussels publishes AI Act guidance",
            url="https://eu.example.eu/press/ai-act-guidance",
            snippet="The Commission released guidance on prohibited practices.",
            date="2026-09-25",
        ),
    ],
    (searxng, "search.json"): [
        RawResult(
            title="Getting Started - Asynchronous Programming in Rust",
            url="https://rust-lang.github.io/async-book/",
            snippet=(
                "This book aims to be a comprehensive guide to async programming in Rust,"
                " from beginner to advanced."
            ),
        ),
        RawResult(
            title="Tutorial | Tokio - An asynchronous Rust runtime",
            url="https://tokio.rs/tokio/tutorial",
            snippet="Tokio is an asynchronous runtime for the Rust programming language.",
            date="2026-08-14",
        ),
        RawResult(
            title="Why async Rust?",
            url="https://without.boats/blog/why-async-rust/",
            date="2026-09-30",
        ),
    ],
    (gdelt, "search.json"): [
        RawResult(
            title="Parliament votes on budget amid protests",
            url="https://news.example.co.uk/2026/09/30/budget-vote.html",
            date="2026-09-30",
        ),
        RawResult(
            title="Budget 2026 : markets react",
            url="https://www.example.in/economy/budget-2026-reaction-1234567",
            date="2026-09-29",
        ),
        RawResult(
            title="Haushalt:\tAbstimmung im Bundestag",
            url="https://zeitung.example.de/politik/haushalt-abstimmung",
            date="2026-09-29",
        ),
    ],
    (crossref, "search.json"): [
        RawResult(
            title="Graph Neural Networks: A Review of Methods and Applications",
            url="https://doi.org/10.1234/abcd.5678",
            snippet=(
                "We review graph neural networks (GNNs) & their message-passing variants."
                " Open problems are listed."
            ),
            date="2024-03-01",
        ),
        RawResult(
            title="Scaling E. coli Growth Models with GNNs",
            url="https://doi.org/10.5555/ex.2024.0042",
        ),
        RawResult(title="", url="https://doi.org/10.9999/book-chapter-7", date="2023-11-05"),
        RawResult(
            title="Networks of Neurons on Graphs",
            url="https://doi.org/10.4321/old.1999.001",
            snippet="Background Early work on graph-structured networks.",
        ),
        RawResult(title="Message Passing Revisited", url="https://doi.org/10.7777/preprint.2025"),
    ],
    (openalex, "search.json"): [
        RawResult(
            title="Graph neural networks: a review",
            url="https://journal.example/article/1",
            snippet="We review graph neural networks and compare graph neural models.",
            date="2024-03-01",
        ),
        RawResult(
            title="Scaling E. coli growth models with GNNs",
            url="https://doi.org/10.5555/ex.2024.0042",
            date="2024-03-15",
        ),
        RawResult(
            title="Message passing revisited",
            url="https://openalex.org/W4380000002",
            snippet="Message passing, again.",
            date="2025-01-07",
        ),
        RawResult(title="", url="https://doi.org/10.9999/untitled"),
    ],
}


@pytest.mark.parametrize(
    ("module", "name"), list(EXPECTED), ids=lambda value: getattr(value, "__name__", value)
)
def test_parse_fixture_field_by_field(module: ModuleType, name: str) -> None:
    expected = EXPECTED[(module, name)]
    results = parse(module, fixture(module.INFO.id, name))
    assert isinstance(results, list)
    assert len(results) == len(expected)
    for got, want in zip(results, expected, strict=True):
        assert got.title == want.title
        assert got.url == want.url
        assert got.snippet == want.snippet
        assert got.date == want.date


@pytest.mark.parametrize(
    ("module", "name"), list(EXPECTED), ids=lambda value: getattr(value, "__name__", value)
)
def test_parse_keeps_at_most_max_results(module: ModuleType, name: str) -> None:
    results = parse(module, fixture(module.INFO.id, name), search=make_search(max_results=2))
    assert results == EXPECTED[(module, name)][:2]


@pytest.mark.parametrize(
    ("module", "name"),
    [
        (duckduckgo, "empty.html"),
        (mojeek, "empty.html"),
        (marginalia, "empty.json"),
        (brave, "no_web.json"),
        (brave_news, "empty.json"),
        (searxng, "empty.json"),
        (gdelt, "empty.json"),
        (crossref, "empty.json"),
        (openalex, "empty.json"),
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
def test_empty_answer_is_no_results(module: ModuleType, name: str) -> None:
    assert parse(module, fixture(module.INFO.id, name)) == []


def test_duckduckgo_skips_ads_and_unwraps_redirects() -> None:
    results = parse(duckduckgo, fixture("duckduckgo", "search.html"))
    assert isinstance(results, list)
    assert all("duckduckgo.com" not in result.url for result in results)
    assert all("learnrust" not in result.url for result in results)
    assert all(not result.title.startswith("Async/await") for result in results)


def test_duckduckgo_drops_a_redirect_without_a_target_and_an_ad_link_outside_ad_blocks() -> None:
    body = b"""<html><body><div id="links" class="results">
    <div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=x.example&amp;rut=1">Ad</a></h2>
    <a class="result__snippet" href="#">Buy</a></div></div>
    <div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?rut=9f2c">No target</a></h2></div></div>
    <div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="/l/?uddg=https%3A%2F%2Fok.example%2F&amp;rut=1">Relative</a></h2></div></div>
    </div></body></html>"""
    assert parse(duckduckgo, body) == [RawResult(title="Relative", url="https://ok.example/")]


# --- parse: failures shared by every engine ------------------------------------------------


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
def test_429_is_rate_limited_with_retry_after(module: ModuleType) -> None:
    assert parse(module, b"Too Many Requests", 429, {"Retry-After": "30"}) == EngineFailure(
        "rate_limited", 30.0
    )


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
def test_401_is_auth_failure(module: ModuleType) -> None:
    assert parse(module, b"", 401) == EngineFailure("auth_failure")


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
@pytest.mark.parametrize("body", [CAPTCHA_PAGE, b"Forbidden"], ids=["captcha", "text"])
def test_403_is_blocked(module: ModuleType, body: bytes) -> None:
    assert parse(module, body, 403) == EngineFailure("blocked")


@pytest.mark.parametrize("module", JSON_ENGINES, ids=lambda m: m.INFO.id)
def test_a_captcha_page_instead_of_json_is_blocked(module: ModuleType) -> None:
    assert parse(module, CAPTCHA_PAGE, 200) == EngineFailure("blocked")


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_is_request_failure(module: ModuleType, status: int) -> None:
    assert parse(module, ERROR_PAGE, status) == EngineFailure("request_failure")


@pytest.mark.parametrize("module", ENGINES, ids=lambda m: m.INFO.id)
@pytest.mark.parametrize("body", [GARBAGE, b"", ERROR_PAGE], ids=["garbage", "empty", "html"])
def test_an_unreadable_200_is_parse_failure(module: ModuleType, body: bytes) -> None:
    assert parse(module, body) == EngineFailure("parse_failure")


WRONG_SHAPES = [b"[]", b'"ok"', b"null", b'{"unexpected": {"shape": 1}}']


@pytest.mark.parametrize(
    ("module", "body"),
    [
        (module, body)
        for module in JSON_ENGINES
        for body in WRONG_SHAPES
        # For GDELT an object without "articles" is its documented empty answer.
        if not (module is gdelt and body.startswith(b"{"))
    ],
    ids=lambda value: getattr(value, "__name__", None),
)
def test_json_of_the_wrong_shape_is_parse_failure(module: ModuleType, body: bytes) -> None:
    assert parse(module, body) == EngineFailure("parse_failure")


@pytest.mark.parametrize(
    ("module", "body"),
    [
        (marginalia, b'{"license": "CC-BY-NC-SA 4.0", "query": "q", "results": {"url": "x"}}'),
        (brave, b'{"type": "search", "web": {"type": "search", "results": "none"}}'),
        (brave_news, b'{"type": "news", "results": {"0": {}}}'),
        (searxng, b'{"query": "q", "results": null}'),
        (gdelt, b'{"articles": {"url": "https://a.example/"}}'),
        (crossref, b'{"status": "ok", "message-type": "work-list", "message": {"items": null}}'),
        (openalex, b'{"meta": {"count": 1}, "results": {"id": "W1"}}'),
    ],
    ids=lambda value: getattr(value, "__name__", None),
)
def test_a_result_list_that_is_not_a_list_is_parse_failure(module: ModuleType, body: bytes) -> None:
    assert parse(module, body) == EngineFailure("parse_failure")


# --- parse: each engine's own signals ------------------------------------------------------


def test_duckduckgo_202_anomaly_page_is_blocked() -> None:
    assert parse(duckduckgo, fixture("duckduckgo", "anomaly_202.html"), 202) == EngineFailure(
        "blocked"
    )


@pytest.mark.parametrize("name", ["anomaly_202.html", "challenge_200.html"])
def test_duckduckgo_block_pages_under_200_are_blocked(name: str) -> None:
    assert parse(duckduckgo, fixture("duckduckgo", name)) == EngineFailure("blocked")


@pytest.mark.parametrize("status", [201, 202, 204, 206])
def test_duckduckgo_any_2xx_but_200_is_blocked(status: int) -> None:
    assert parse(duckduckgo, fixture("duckduckgo", "search.html"), status) == EngineFailure(
        "blocked"
    )


def test_duckduckgo_a_snippet_quoting_block_markers_is_still_a_result() -> None:
    body = b"""<html><body><div id="links" class="results">
    <div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://blog.example/ddg">Why bots use DuckDuckGo too</a></h2>
    <a class="result__snippet" href="https://blog.example/ddg">Its anomaly-modal and anomaly.js explained.</a></div></div>
    </div></body></html>"""
    assert parse(duckduckgo, body) == [
        RawResult(
            title="Why bots use DuckDuckGo too",
            url="https://blog.example/ddg",
            snippet="Its anomaly-modal and anomaly.js explained.",
        )
    ]


def test_duckduckgo_redirect_is_request_failure() -> None:
    assert parse(duckduckgo, b"", 303, {"Location": "/html/"}) == EngineFailure("request_failure")


def test_mojeek_403_page_is_blocked() -> None:
    assert parse(mojeek, fixture("mojeek", "blocked_403.html"), 403) == EngineFailure("blocked")


@pytest.mark.parametrize("body", [CAPTCHA_PAGE, fixture("mojeek", "captcha_200.html")])
def test_mojeek_challenge_pages_under_200_are_blocked(body: bytes) -> None:
    assert parse(mojeek, body) == EngineFailure("blocked")


def test_mojeek_page_without_results_or_search_form_is_parse_failure() -> None:
    assert parse(mojeek, ERROR_PAGE) == EngineFailure("parse_failure")


@pytest.mark.parametrize("name", ["error_qpm_limit.txt", "error_daily_limit.txt"])
def test_marginalia_limit_bodies_are_rate_limited(name: str) -> None:
    assert parse(marginalia, fixture("marginalia", name), 429) == EngineFailure("rate_limited")


def test_marginalia_unknown_key_and_bad_request() -> None:
    assert parse(marginalia, b"", 401) == EngineFailure("auth_failure")
    assert parse(marginalia, b"", 400) == EngineFailure("request_failure")


@pytest.mark.parametrize("module", [brave, brave_news], ids=lambda m: m.INFO.id)
@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("error_token_invalid.json", 422),
        ("error_token_invalid_examples_shape.json", 422),
        ("error_token_missing.json", 422),
        ("error_subscription_not_found.json", 404),
    ],
)
def test_brave_key_errors_are_auth_failure(module: ModuleType, name: str, status: int) -> None:
    assert parse(module, fixture("brave", name), status) == EngineFailure("auth_failure")


@pytest.mark.parametrize("module", [brave, brave_news], ids=lambda m: m.INFO.id)
def test_brave_other_validation_errors_are_request_failure(module: ModuleType) -> None:
    body = fixture("brave", "error_validation.json")
    assert parse(module, body, 422) == EngineFailure("request_failure")


@pytest.mark.parametrize("module", [brave, brave_news], ids=lambda m: m.INFO.id)
@pytest.mark.parametrize(
    ("name", "remaining", "wait"),
    [("error_rate_limited.json", "0, 1963", 1.0), ("error_quota_limited.json", "1, 0", 1419704.0)],
)
def test_brave_429_waits_for_the_exhausted_window(
    module: ModuleType, name: str, remaining: str, wait: float
) -> None:
    headers = {
        "X-RateLimit-Limit": "1, 2000",
        "X-RateLimit-Policy": "1;w=1, 2000;w=2592000",
        "X-RateLimit-Remaining": remaining,
        "X-RateLimit-Reset": "1, 1419704",
    }
    assert parse(module, fixture("brave", name), 429, headers) == EngineFailure(
        "rate_limited", wait
    )


@pytest.mark.parametrize("module", [brave, brave_news], ids=lambda m: m.INFO.id)
def test_brave_quota_limited_is_the_plan_spent_and_rate_limited_is_not(module: ModuleType) -> None:
    """The API reference's 429 codes: QUOTA_LIMITED "Request quota limit exceeded for plan."
    (the month's quota: the engine rests, ``spent``), RATE_LIMITED "Request rate limit
    exceeded for plan." (the per-second rate: it does not)."""
    quota = parse(module, fixture("brave", "error_quota_limited.json"), 429)
    rate = parse(module, fixture("brave", "error_rate_limited.json"), 429)
    assert quota == rate == EngineFailure("rate_limited")
    assert isinstance(quota, EngineFailure) and quota.spent
    assert isinstance(rate, EngineFailure) and not rate.spent


def test_brave_429_prefers_retry_after_and_tolerates_missing_rate_headers() -> None:
    body = fixture("brave", "error_rate_limited.json")
    headers = {"Retry-After": "7", "X-RateLimit-Remaining": "0, 5", "X-RateLimit-Reset": "1, 99"}
    assert parse(brave, body, 429, headers) == EngineFailure("rate_limited", 7.0)
    assert parse(brave, body, 429) == EngineFailure("rate_limited")
    odd = {"X-RateLimit-Remaining": "zero", "X-RateLimit-Reset": "soon"}
    assert parse(brave, body, 429, odd) == EngineFailure("rate_limited")


def test_brave_web_answer_of_another_type_is_parse_failure() -> None:
    assert parse(brave, fixture("brave_news", "search.json")) == EngineFailure("parse_failure")
    assert parse(brave_news, fixture("brave", "search.json")) == EngineFailure("parse_failure")


def test_searxng_json_format_disabled_is_blocked() -> None:
    body = fixture("searxng", "json_disabled_403.html")
    assert parse(searxng, body, 403) == EngineFailure("blocked")


def test_searxng_limiter_is_rate_limited() -> None:
    body = fixture("searxng", "limiter_429.html")
    assert parse(searxng, body, 429) == EngineFailure("rate_limited")


def test_searxng_every_upstream_engine_failing_is_request_failure() -> None:
    body = fixture("searxng", "all_engines_failed.json")
    assert parse(searxng, body) == EngineFailure("request_failure")


@pytest.mark.parametrize(
    "name",
    ["error_phrase_too_short.txt", "error_or_parentheses.txt", "error_timespan_too_short.txt"],
)
def test_gdelt_plain_text_errors_under_200_are_parse_failure(name: str) -> None:
    headers = {"Content-Type": "text/html; charset=utf-8"}
    assert parse(gdelt, fixture("gdelt", name), 200, headers) == EngineFailure("parse_failure")


@pytest.mark.parametrize(
    ("status", "headers", "wait"), [(200, {}, None), (429, {"Retry-After": "5"}, 5.0)]
)
def test_gdelt_rate_limit_text_is_rate_limited_whatever_the_status(
    status: int, headers: dict[str, str], wait: float | None
) -> None:
    body = fixture("gdelt", "error_rate_limit.txt")
    assert parse(gdelt, body, status, headers) == EngineFailure("rate_limited", wait)


def test_gdelt_article_mentioning_limits_is_still_an_article() -> None:
    body = (
        b'{"articles": [{"url": "https://n.example/a", "title": "Please limit requests to'
        b' the council", "seendate": "20260930T000000Z"}]}'
    )
    assert parse(gdelt, body) == [
        RawResult(
            title="Please limit requests to the council",
            url="https://n.example/a",
            date="2026-09-30",
        )
    ]


def test_gdelt_an_unreadable_seendate_gives_no_date() -> None:
    body = b'{"articles": [{"url": "https://n.example/a", "title": "T", "seendate": "2026-09-30"}]}'
    assert parse(gdelt, body) == [RawResult(title="T", url="https://n.example/a")]


def test_crossref_validation_failure_is_request_failure() -> None:
    body = fixture("crossref", "error_validation.json")
    assert parse(crossref, body, 400) == EngineFailure("request_failure")


def test_crossref_not_found_is_request_failure() -> None:
    assert parse(crossref, fixture("crossref", "error_not_found.txt"), 404) == EngineFailure(
        "request_failure"
    )


def test_crossref_failed_status_under_200_is_parse_failure() -> None:
    assert parse(crossref, fixture("crossref", "error_validation.json")) == EngineFailure(
        "parse_failure"
    )


def test_crossref_impossible_date_gives_no_date() -> None:
    body = (
        b'{"status": "ok", "message": {"items": [{"URL": "https://doi.org/10.1/x", "title": ["T"],'
        b' "published": {"date-parts": [[2024, 2, 31]]}}]}}'
    )
    assert parse(crossref, body) == [RawResult(title="T", url="https://doi.org/10.1/x")]


def test_crossref_builds_the_url_from_the_doi_when_url_is_missing() -> None:
    body = b'{"status": "ok", "message": {"items": [{"DOI": "10.1/y", "title": ["T"]}, {}]}}'
    assert parse(crossref, body) == [RawResult(title="T", url="https://doi.org/10.1/y")]


def test_openalex_per_second_limit_403_is_rate_limited() -> None:
    body = fixture("openalex", "error_rate_limit_403.json")
    assert parse(openalex, body, 403, {"Retry-After": "1"}) == EngineFailure("rate_limited", 1.0)


def test_openalex_403_in_its_error_format_is_the_rate_limit_whatever_its_words() -> None:
    """developers.openalex.org/api-reference/errors: "403 Forbidden: Rate limit exceeded;
    slow down" is the only meaning a 403 has, and errors come as ``{"error", "message"}``.
    The fixture's words are not documented (a guess that names no rate limit); its shape is."""
    body = fixture("openalex", "error_forbidden_403.json")
    assert b"rate limit" not in body.lower()
    assert parse(openalex, body, 403, {"Retry-After": "2"}) == EngineFailure("rate_limited", 2.0)


def test_openalex_daily_limit_429_is_rate_limited() -> None:
    body = fixture("openalex", "error_daily_limit_429.json")
    found = parse(openalex, body, 429)
    assert found == EngineFailure("rate_limited")
    # developers.openalex.org/api-reference/errors: "429 Too Many Requests: Daily limit
    # exceeded", the day's budget (per-second limits are 403): the plan spent, the engine rests.
    assert isinstance(found, EngineFailure) and found.spent
    per_second = parse(openalex, fixture("openalex", "error_rate_limit_403.json"), 403)
    assert isinstance(per_second, EngineFailure) and not per_second.spent


@pytest.mark.parametrize("name", ["error_invalid_param.json", "error_invalid_filter.json"])
def test_openalex_bad_request_is_request_failure(name: str) -> None:
    assert parse(openalex, fixture("openalex", name), 400) == EngineFailure("request_failure")


def test_openalex_a_work_with_no_usable_url_is_dropped() -> None:
    body = (
        b'{"results": [{"id": "W1", "doi": null, "primary_location": null, "display_name": "x"}]}'
    )
    assert parse(openalex, body) == []
