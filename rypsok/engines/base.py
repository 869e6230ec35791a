"""The shape every engine module shares.

An engine is sans-IO: it turns a search into an :class:`EngineRequest` (the arguments of
an ``httpx.Request``, :mod:`rypsok.engines.request`) and turns
the response's status, headers and bytes into results or a failure. It never
sends anything and never reads a clock; the orchestrator does both and passes
``now`` in.

Each engine module defines exactly:

``INFO``
    an :class:`EngineInfo` describing what the engine can do.
``build_request(endpoint, search, credential) -> EngineRequest``
    ``endpoint`` is the operator's (or the default) base URL, possibly holding
    ``{lang}``; the module appends its documented path.
``parse(status, headers, body, search) -> list[RawResult] | EngineFailure``
    the engine's own reading: its format, its documented errors. Nothing calls it
    directly: every answer goes through :func:`read_answer`, which runs the block-page
    check before a ``parse_failure`` stands.

A paid engine whose answers say what a call cost or what is left also defines
``read(status, headers, body, search) -> Reading``: the answer and its :class:`Usage` from
one reading of the body (``parse`` is then ``read(...).answer``). :func:`read_reading` is
the one way to both.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import urllib.parse
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from rypsok.engines.request import EngineRequest
from rypsok.fast_json import has_long_digit_run
from rypsok.net.retry_after import read_retry_after

if TYPE_CHECKING:
    import httpx
    import parsel

Category = Literal["general", "news", "science", "code"]
CATEGORIES: tuple[Category, ...] = ("general", "news", "science", "code")
TimeRange = Literal["day", "week", "month", "year"]
TIME_RANGES: tuple[TimeRange, ...] = ("day", "week", "month", "year")
TIME_RANGE_DAYS: dict[str, int] = {"day": 1, "week": 7, "month": 31, "year": 365}

FailureReason = Literal[
    "timeout", "rate_limited", "blocked", "parse_failure", "auth_failure", "request_failure"
]

BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
BROWSER_HEADERS = {
    "User-Agent": BROWSER_USER_AGENT,
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Language": "en-US,en;q=0.5",
}
"""What the HTML engines (duckduckgo, mojeek) send, as a browser would: they filter out
non-browser agents."""

ANY_LANGUAGE = "*"
"""Put in ``EngineInfo.languages`` when the engine maps any language code."""

MAX_BODY_BYTES = 8 * 1024 * 1024
"""The most an engine's answer may hold, decoded (docs/engines.md, "Failures"): no API here
sends more than a few hundred KiB for its largest page of results."""

log = logging.getLogger("rypsok.engines")

QueryUnit = Literal["characters", "bytes"]
UsageUnit = Literal["usd", "credits"]


@dataclass(frozen=True)
class QueryLimit:
    """An engine's bound on the query, in the unit the engine counts.

    ``characters`` are code points (Python's ``len``, PHP's ``mb_strlen``); ``bytes`` are
    the bytes of the query encoded as UTF-8, as the engine receives it once the URL
    encoding is undone (Algolia counts so).
    """

    amount: int
    unit: QueryUnit = "characters"

    def admits(self, query: str) -> bool:
        size = len(query.encode("utf-8")) if self.unit == "bytes" else len(query)
        return size <= self.amount


@dataclass(frozen=True)
class EngineInfo:
    id: str
    categories: frozenset[str]
    default_endpoint: str
    time_ranges: frozenset[str] = frozenset()
    languages: frozenset[str] = frozenset()
    """Language codes honoured; ``{ANY_LANGUAGE}`` for any; empty for none."""
    query_limit: QueryLimit = QueryLimit(400)
    """The documented bound on the query (rypsok's call-wide 400 characters where the
    engine documents none); longer queries are skipped with ``query_too_long``."""
    credential_env: str | None = None
    credential_required: bool = False
    attribution: bool = False
    """Whether the engine's terms require naming it beside its results."""
    rate_per_minute: int = 60
    """Default budget, from the engine's published unauthenticated limits."""
    docs: str = ""
    listed_without_credential: bool = True
    """False for the bring-your-own-key engines (tavily, exa, kagi, serper): without their
    key they are not offered at all, not even as ``disabled`` in engine_status."""
    takes_region: bool = False
    """Whether the engine sends the operator's ``region`` (``EngineSearch.region``)."""
    cost_unit: UsageUnit | None = None
    """The unit of the per-call cost the engine's answers report (``Reading.usage``); None when
    they report none. ``max_cost_per_month`` is counted in it."""

    def honours_time_range(self, time_range: str) -> bool:
        return time_range in self.time_ranges

    def honours_language(self, language: str) -> bool:
        """Exact codes match, and so does a regional code whose primary language is listed
        (``pt-br`` for ``pt``): the request builders map regional codes themselves."""
        if ANY_LANGUAGE in self.languages:
            return True
        listed = {code.lower() for code in self.languages}
        language = language.lower()
        return language in listed or language.split("-", 1)[0] in listed


@dataclass(frozen=True)
class EngineSearch:
    """One engine's view of a search: everything ``build_request`` may use."""

    query: str
    category: str
    max_results: int
    language: str | None = None
    """None when the engine does not honour languages and the call asked none."""
    time_range: str | None = None
    now: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    user_agent: str = "rypsok"
    region: str | None = None
    """The operator's ``[engines.<id>] region`` (ISO 3166-1 alpha-2, lower case); None for
    none, and then the engine sends no region and its provider applies its own default."""

    def since(self) -> dt.datetime | None:
        if self.time_range is None:
            return None
        return self.now - dt.timedelta(days=TIME_RANGE_DAYS[self.time_range])


@dataclass(frozen=True)
class RawResult:
    """A result as the engine gave it, before cleaning and merging."""

    title: str
    url: str
    snippet: str = ""
    date: str | None = None
    """YYYY-MM-DD, only when the engine supplied a publication date."""


@dataclass(frozen=True)
class EngineFailure:
    reason: FailureReason
    retry_after_s: float | None = None
    spent: bool = field(default=False, compare=False)
    """The provider said the plan's money or credits are gone (a ``rate_limited`` that does
    not clear in a minute): the search rests the engine (``[engines.<id>] spent_rest_s``).
    Not part of equality: a failure is its reason and its wait."""


@dataclass(frozen=True)
class Usage:
    """What a paid engine's answer says of its cost, in the provider's own unit: ``cost``
    what this call cost (None when the answer does not say), ``balance`` what is left on
    the account (None when the answer does not say)."""

    unit: UsageUnit
    cost: float | None = None
    balance: float | None = None


PARSER_MODULES = (
    "httpx",
    "lxml.etree",
    "lxml.html",
    "parsel",
    "email.utils",
    "orjson",
    "rypsok.net.charset",
)
"""What the engines import on first use: loaded ahead by a search's warm-up, so that no
answer pays an import under its deadline."""


def http_request(method: str, url: str, **parts: Any) -> EngineRequest:
    """``httpx.Request(method, url, **parts)`` as an :class:`EngineRequest`: every engine's
    ``build_request`` ends here.

    Parameters of text (what the engines send) are put in the URL here, encoded as httpx
    encodes them (``urllib.parse.urlencode``: each name and value by ``quote_plus``), so
    that the URL is read once instead of being parsed, merged with the parameters and
    parsed again (a Hypothesis property in tests/test_engine_request.py holds it to httpx's
    request)."""
    params = parts.get("params")
    if (
        isinstance(params, dict)
        and "?" not in url
        and "#" not in url
        and all(type(k) is str and type(v) is str for k, v in params.items())
    ):
        del parts["params"]
        if params:
            url += "?" + "&".join(f"{_quote_plus(k)}={_quote_plus(v)}" for k, v in params.items())
    return EngineRequest(method, url, parts)


_QUERY_KEPT = re.compile(r"[A-Za-z0-9_.\-~]*")
"""Text ``urllib.parse.quote_plus`` leaves as it is (most parameter names and values)."""


def _quote_plus(text: str) -> str:
    """``urllib.parse.quote_plus(text)``, as ``urlencode`` encodes each name and value."""
    return text if _QUERY_KEPT.fullmatch(text) else urllib.parse.quote_plus(text)


def endpoint_url(endpoint: str, path: str, language: str | None = None) -> str:
    """The operator's endpoint with ``{lang}`` filled in and the documented path appended."""
    base = endpoint.replace("{lang}", language or "en").rstrip("/")
    return base + path


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """Retry-After as seconds, from delta-seconds or an HTTP date; None when absent or bad."""
    return read_retry_after(headers.get("retry-after"), now=dt.datetime.now(dt.UTC))


def failure_for_status(status: int, headers: httpx.Headers) -> EngineFailure | None:
    """The spec's mapping of HTTP outcomes shared by every engine; None for 2xx.

    429 is rate_limited, 401 auth_failure, 403 blocked, 5xx and other codes
    request_failure. Engines with their own signals (GitHub's rate-limit 403,
    Brave's 422) check those before calling this.
    """
    if 200 <= status < 300:
        return None
    if status == 429:
        return EngineFailure("rate_limited", retry_after_seconds(headers))
    if status == 401:
        return EngineFailure("auth_failure")
    if status == 403:
        return EngineFailure("blocked")
    return EngineFailure("request_failure")


BLOCK_PAGE_MARKERS = (
    b"captcha",
    b"challenge-form",
    b"cf-chl",
    b"are you a robot",
    b"unusual traffic",
    b"access denied",
    b"altcha-widget",  # Mojeek's proof-of-work challenge
)


BLOCK_PAGE_SCAN_BYTES = 256 * 1024
"""How much of an unreadable body is searched for block markers: challenge pages put
kilobytes of inline style and script before their text."""


def _block_page_or_parse_failure(body: bytes) -> EngineFailure:
    """A body the engine could not read: ``blocked`` for a CAPTCHA or block page, else
    ``parse_failure``."""
    lowered = body[:BLOCK_PAGE_SCAN_BYTES].lower()
    if any(marker in lowered for marker in BLOCK_PAGE_MARKERS):
        return EngineFailure("blocked")
    return EngineFailure("parse_failure")


@dataclass(frozen=True)
class Reading:
    """What one answer says: its results or failure, and what it cost (for a paid engine
    whose answers say so)."""

    answer: list[RawResult] | EngineFailure
    usage: Usage | None = None


def read_answer(
    module: ModuleType, status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> list[RawResult] | EngineFailure:
    """The one way from an engine's answer to results or a failure (:func:`read_reading`
    without the cost)."""
    return read_reading(module, status, headers, body, search).answer


def read_reading(
    module: ModuleType, status: int, headers: httpx.Headers, body: bytes, search: EngineSearch
) -> Reading:
    """The one way from an engine's answer to results or a failure, and its cost.

    The engine's ``read`` (or ``parse``) reads its format and its documented errors.
    Whatever it cannot read (``parse_failure``, or an exception inside the module, which
    is logged) may be a CAPTCHA or block page served under 2xx by any engine, so the
    block-page check runs here, for every engine, before a ``parse_failure`` stands.
    """
    reader = getattr(module, "read", None)
    try:
        if reader is not None:
            reading = reader(status, headers, body, search)
        else:
            reading = Reading(module.parse(status, headers, body, search))
    except Exception:
        log.warning(
            "engine_parse_failed", extra={"fields": {"engine": module.INFO.id}}, exc_info=True
        )
        reading = Reading(EngineFailure("parse_failure"))
    answer = reading.answer
    if isinstance(answer, EngineFailure) and answer.reason == "parse_failure":
        return Reading(_block_page_or_parse_failure(body), reading.usage)
    return reading


def load_json(body: bytes) -> Any:
    """Parse JSON or raise ValueError (``read_answer`` turns it into parse_failure).

    orjson reads an answer two to three times faster; what it refuses and the standard
    library reads (NaN, lone surrogate escapes, UTF-16 bodies, nests deeper than its 1,024
    levels) is read by the standard library, so every body reads as it always did. A body
    with a run of 19 digits goes to the standard library at once: orjson reads an integer
    past 64 bits as a float."""
    import orjson

    if not has_long_digit_run(body):
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            pass
    return json.loads(body)


def web_url(link: str) -> str | None:
    """A result's link, stripped of surrounding whitespace, when it is an absolute http or
    https URL with a host; None for anything else (a relative or protocol-relative link,
    ``javascript:``, ``data:``, an address ``urllib`` cannot read), and the result is then
    left out."""
    text = link.strip()
    try:
        parts = urllib.parse.urlsplit(text)
        host = parts.hostname
    except ValueError:
        return None
    return text if parts.scheme in ("http", "https") and host else None


def markup_text(headers: httpx.Headers, body: bytes) -> str:
    """An HTML or XML answer as text, its charset picked as web_fetch picks a page's
    (:mod:`rypsok.net.charset`): the Content-Type's charset, then a BOM, then the document's
    ``<meta>`` or XML declaration, else UTF-8 when the bytes are valid UTF-8, else
    windows-1252."""
    from w3lib.encoding import http_content_type_encoding

    from rypsok.net.charset import decode_html

    return decode_html(body, http_content_type_encoding(headers.get("content-type")))


def item_url(item: Any) -> str | None:
    """The ``url`` of one result in a JSON answer; None when the item is not an object or
    its ``url`` is not a non-empty string (the result is then left out)."""
    if not isinstance(item, dict):
        return None
    url = item.get("url")
    return url if isinstance(url, str) and url else None


def string_field(value: Any) -> str:
    """A JSON field that should hold text: the value when it is a string, else ``""``."""
    return value if isinstance(value, str) else ""


def iso_date(value: Any) -> str | None:
    """YYYY-MM-DD from an ISO-8601-ish string or epoch seconds; None when it is not a date."""
    if value is None or value == "":
        return None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return dt.datetime.fromtimestamp(value, dt.UTC).date().isoformat()
        text = str(value).strip()
        if len(text) >= 10:
            return dt.date.fromisoformat(text[:10]).isoformat()
    except (ValueError, OverflowError, OSError):
        return None
    return None


BLOCK_TAGS = (
    "p",
    "br",
    "div",
    "li",
    "ul",
    "ol",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "dd",
    "dt",
    "hr",
    "table",
)


def strip_html(fragment: object) -> str:
    """Plain text of an HTML fragment (tags dropped, entities decoded), for titles and snippets;
    ``""`` for anything but a string (a JSON field an engine filled with a number or null).

    Block elements are set apart by a line break so that ``a<p>b`` does not read ``ab``;
    line breaks are kept because the instruction-like detector reads chat-turn layouts
    (the sanitizer collapses whitespace for display).
    """
    if not isinstance(fragment, str) or not fragment:
        return ""
    if "<" not in fragment and "&" not in fragment:
        return fragment
    import lxml.html

    try:
        root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    except (ValueError, lxml.etree.ParserError):
        return fragment
    for junk in root.xpath("//script|//style"):
        junk.drop_tree()
    for block in root.iter(*BLOCK_TAGS):
        if not (block.text or "").startswith(("\n", " ")):
            block.text = "\n" + (block.text or "")
        if not (block.tail or "").startswith(("\n", " ")):
            block.tail = "\n" + (block.tail or "")
    return root.text_content().strip()


def selection_text(selection: parsel.SelectorList[parsel.Selector]) -> str:
    """The text of an HTML results page's elements, whitespace collapsed, for titles and
    snippets (the HTML engines read their pages with parsel)."""
    return " ".join("".join(selection.xpath(".//text()").getall()).split())
