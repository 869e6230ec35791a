"""The bring-your-own-key engines on their documented failures, what their answers say a
call cost, and what real answers add.

Each documented error of each provider's current reference (by status and as a JSON error
under 200) maps to its reason, a spent plan marked ``spent`` (which rests the engine); the
cost or balance each answer reports is read (``usage``), and nothing that is not a number
is; unknown fields, nulls and other result kinds are read past.
"""

from __future__ import annotations

import json
from types import ModuleType

import httpx
import pytest

from rypsok.engines import exa, kagi, serper, tavily
from rypsok.engines.base import EngineFailure, RawResult, Usage, read_reading
from tests.engine_samples import CAPTCHA_PAGE, ERROR_PAGE, fixture, make_search, parse

KEYED = (tavily, exa, kagi, serper)


# --- errors ---------------------------------------------------------------------------------

RATE = EngineFailure("rate_limited")
AUTH = EngineFailure("auth_failure")
FAILED = EngineFailure("request_failure")
SPENT = "spent"
"""``rate_limited`` with the plan spent: the engine rests."""

ERRORS = [
    (tavily, "error_401.json", 401, AUTH),
    (tavily, "error_429.json", 429, RATE),
    (tavily, "error_432.json", 432, SPENT),
    (tavily, "error_433.json", 433, SPENT),
    (tavily, "error_400.json", 400, FAILED),
    (tavily, "error_500.json", 500, FAILED),
    (exa, "error_401.json", 401, AUTH),
    (exa, "error_402.json", 402, SPENT),
    (exa, "error_402_budget.json", 402, SPENT),
    (exa, "error_403.json", 403, AUTH),
    (exa, "error_403_robots.json", 403, FAILED),
    (exa, "error_403_moderation.json", 403, FAILED),
    (exa, "error_429.json", 429, RATE),
    (exa, "error_400.json", 400, FAILED),
    (exa, "error_500.json", 500, FAILED),
    (kagi, "error_401.json", 401, AUTH),
    (kagi, "error_403.json", 403, AUTH),
    (kagi, "error_400_credit.json", 400, SPENT),
    (kagi, "error_400_billing.json", 400, SPENT),
    (kagi, "error_400.json", 400, FAILED),
    (kagi, "error_429.json", 429, RATE),
    (kagi, "error_500.json", 500, FAILED),
    (kagi, "v0_error_401.json", 401, AUTH),
    (kagi, "v0_error_402.json", 402, SPENT),
    (kagi, "v0_error_402.json", 400, SPENT),
    (kagi, "v0_error_500.json", 500, FAILED),
    (serper, "error_403.json", 403, AUTH),
    (serper, "error_credits.json", 400, SPENT),
    (serper, "error_429.json", 429, RATE),
    (serper, "error_400.json", 400, FAILED),
    (serper, "error_500.json", 500, FAILED),
]


def expected_failure(expected) -> tuple[str, bool]:
    if expected == SPENT:
        return "rate_limited", True
    return expected.reason, False


@pytest.mark.parametrize(
    ("module", "name", "status", "expected"),
    ERRORS,
    ids=[f"{m.INFO.id}-{name}-{status}" for m, name, status, _ in ERRORS],
)
def test_documented_errors(module: ModuleType, name: str, status: int, expected) -> None:
    failure = parse(module, fixture(module.INFO.id, name), status)
    assert isinstance(failure, EngineFailure)
    assert (failure.reason, failure.spent) == expected_failure(expected)
    assert failure.retry_after_s is None


@pytest.mark.parametrize(
    ("module", "name", "expected"),
    [
        (tavily, "error_401.json", AUTH),
        (tavily, "error_432.json", SPENT),
        (tavily, "error_500.json", FAILED),
        (exa, "error_401.json", AUTH),
        (exa, "error_402.json", SPENT),
        (exa, "error_500.json", FAILED),
        (kagi, "error_401.json", AUTH),
        (kagi, "error_400_credit.json", SPENT),
        (kagi, "error_500.json", FAILED),
        (kagi, "v0_error_401.json", AUTH),
        (kagi, "v0_error_402.json", SPENT),
        (serper, "error_403.json", AUTH),
        (serper, "error_credits.json", SPENT),
        (serper, "error_500.json", FAILED),
    ],
    ids=lambda value: value.INFO.id if isinstance(value, ModuleType) else None,
)
def test_an_error_body_under_200_is_a_failure_not_an_empty_answer(module, name, expected) -> None:
    failure = parse(module, fixture(module.INFO.id, name))
    assert isinstance(failure, EngineFailure)
    assert (failure.reason, failure.spent) == expected_failure(expected)


@pytest.mark.parametrize("module", KEYED, ids=lambda m: m.INFO.id)
@pytest.mark.parametrize(
    ("status", "headers", "body", "expected"),
    [
        (429, {"Retry-After": "30"}, b"", EngineFailure("rate_limited", 30.0)),
        (401, {}, b"Unauthorized", AUTH),
        (403, {}, ERROR_PAGE, AUTH),
        (502, {}, ERROR_PAGE, FAILED),
        (503, {"Retry-After": "5"}, b"", FAILED),
        (200, {}, CAPTCHA_PAGE, EngineFailure("blocked")),
        (200, {}, ERROR_PAGE, EngineFailure("parse_failure")),
        (200, {}, b"\x00\xff garbage", EngineFailure("parse_failure")),
        (200, {}, b"", EngineFailure("parse_failure")),
        (200, {}, b'{"results": [', EngineFailure("parse_failure")),
        (200, {}, b"[1, 2]", EngineFailure("parse_failure")),
        (200, {}, b'{"unexpected": true}', EngineFailure("parse_failure")),
    ],
    ids=[
        "429-retry-after",
        "401",
        "403",
        "502",
        "503",
        "captcha",
        "html",
        "garbage",
        "empty",
        "truncated",
        "list",
        "wrong-object",
    ],
)
def test_failure_mapping(module: ModuleType, status, headers, body, expected) -> None:
    assert parse(module, body, status, headers) == expected


@pytest.mark.parametrize(
    ("tag", "message", "expected"),
    [
        ("ACCESS_DENIED", "Your API key has no access to this endpoint.", "auth_failure"),
        ("SOME_NEW_TAG", "Invalid API key for this team", "auth_failure"),
        ("SOME_NEW_TAG", "Something else went wrong", "request_failure"),
        (
            "ROBOTS_FILTER_FAILED",
            "Forbidden: the API key may not read this site",
            "request_failure",
        ),
        ("CONTENT_POLICY_VIOLATION", "Blocked by policy", "request_failure"),
    ],
)
def test_an_exa_403_is_the_key_only_when_it_says_so(tag: str, message: str, expected: str) -> None:
    body = json.dumps({"requestId": "x", "error": message, "tag": tag}).encode()
    assert parse(exa, body, 403) == EngineFailure(expected)


def test_plan_limit_statuses_carry_retry_after() -> None:
    body = fixture("tavily", "error_432.json")
    assert parse(tavily, body, 432, {"Retry-After": "60"}) == EngineFailure("rate_limited", 60.0)
    assert parse(exa, fixture("exa", "error_402.json"), 402, {"Retry-After": "7"}) == (
        EngineFailure("rate_limited", 7.0)
    )


def test_a_rate_limit_is_not_a_spent_plan() -> None:
    for module in KEYED:
        failure = parse(module, b"", 429, {"Retry-After": "30"})
        assert isinstance(failure, EngineFailure) and failure.spent is False


# --- what each call cost ----------------------------------------------------------------------


def usage_of(module: ModuleType, body: bytes, status: int = 200) -> Usage | None:
    """What the answer says the call cost, as the orchestrator reads it with the answer."""
    return read_reading(module, status, httpx.Headers(), body, make_search()).usage


def test_the_cost_of_a_failed_answer_is_read_with_the_failure() -> None:
    reading = read_reading(
        kagi, 402, httpx.Headers(), fixture("kagi", "v0_error_402.json"), make_search()
    )
    assert (reading.answer.reason, reading.answer.spent) == ("rate_limited", True)
    assert reading.usage == Usage("usd", balance=0.0)


USAGES = [
    (tavily, "search.json", Usage("credits", cost=1.0)),
    (tavily, "news.json", Usage("credits", cost=1.0)),
    (tavily, "empty.json", None),
    (tavily, "error_432.json", None),
    (exa, "search.json", Usage("usd", cost=0.006)),
    (exa, "empty.json", Usage("usd", cost=0.005)),
    (exa, "error_402.json", None),
    (kagi, "v0_search.json", Usage("usd", balance=8.935)),
    (kagi, "v0_error_402.json", Usage("usd", balance=0.0)),
    (kagi, "search.json", None),
    (serper, "search.json", Usage("credits", cost=1.0)),
    (serper, "empty.json", Usage("credits", cost=1.0)),
    (serper, "error_credits.json", None),
]


@pytest.mark.parametrize(
    ("module", "name", "expected"),
    USAGES,
    ids=[f"{m.INFO.id}-{name}" for m, name, _ in USAGES],
)
def test_usage_is_what_the_answer_reports(module: ModuleType, name: str, expected) -> None:
    body = fixture(module.INFO.id, name)
    assert usage_of(module, body) == expected


@pytest.mark.parametrize("module", KEYED, ids=lambda m: m.INFO.id)
@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"[1]",
        b'{"costDollars": {"total": -1}, "credits": true, "usage": {"credits": "1"}}',
        b'{"meta": {"api_balance": "NaN"}, "credits": null, "costDollars": null}',
    ],
    ids=["empty", "list", "negative-or-wrong-type", "null"],
)
def test_usage_that_is_not_a_number_is_not_read(module: ModuleType, body: bytes) -> None:
    assert usage_of(module, body) is None


def test_engines_without_a_cost_report_none() -> None:
    from rypsok.engines import wikipedia

    assert usage_of(wikipedia, b'{"credits": 5}') is None
    assert {m.INFO.id: m.INFO.cost_unit for m in KEYED} == {
        "tavily": "credits",
        "exa": "usd",
        "kagi": None,
        "serper": "credits",
    }


# --- tolerance of what real answers add -----------------------------------------------------

TOLERANT = {
    tavily: {
        "query": "q",
        "answer": None,
        "images": [{"url": "https://img.example/a.png", "description": None}],
        "results": [
            None,
            "a string",
            {"title": None, "url": "https://a.example/", "content": None, "score": None},
            {"url": "https://b.example/", "title": "B", "content": "b", "published_date": "soon"},
            {"url": "", "title": "empty url"},
        ],
        "new_field": {"nested": [1, 2]},
    },
    exa: {
        "results": [
            {"url": "https://a.example/", "title": "A", "highlights": [None, 3], "text": "a"},
            {"url": "https://b.example/", "highlights": [], "summary": "b", "score": "high"},
            {"id": "no-url"},
        ],
        "context": "…",
        "statuses": [{"id": "x", "status": "success"}],
    },
    kagi: {
        "meta": {"id": "x"},
        "data": [
            {"t": 0, "url": "https://a.example/", "title": "A", "snippet": "a", "published": None},
            {"t": 2, "url": "https://ignored.example/", "title": "another kind"},
            {"t": 1, "list": None},
            {"url": "https://no-kind.example/", "title": "no t"},
            {"t": 0, "url": "https://b.example/", "title": None, "snippet": "b", "extra": {}},
        ],
        "error": [],
    },
    serper: {
        "searchParameters": {"q": "q"},
        "answerBox": {"answer": "42"},
        "organic": [
            {"title": "A", "link": "https://a.example/", "snippet": None, "date": "2 years ago"},
            {"title": "no link"},
            {"title": None, "link": "https://b.example/", "snippet": "b", "date": None},
        ],
        "topStories": [{"title": "T", "link": "https://top.example/"}],
    },
}
TOLERATED = {
    tavily: [RawResult("", "https://a.example/"), RawResult("B", "https://b.example/", "b")],
    exa: [RawResult("A", "https://a.example/", "a"), RawResult("", "https://b.example/", "b")],
    kagi: [RawResult("A", "https://a.example/", "a"), RawResult("", "https://b.example/", "b")],
    serper: [RawResult("A", "https://a.example/"), RawResult("", "https://b.example/", "b")],
}


@pytest.mark.parametrize("module", KEYED, ids=lambda m: m.INFO.id)
def test_unknown_fields_nulls_and_other_kinds_are_tolerated(module: ModuleType) -> None:
    body = json.dumps(TOLERANT[module]).encode()
    assert parse(module, body) == TOLERATED[module]


@pytest.mark.parametrize("module", (tavily, exa), ids=lambda m: m.INFO.id)
def test_null_results_are_an_empty_answer(module: ModuleType) -> None:
    assert parse(module, b'{"results": null, "requestId": "x"}') == []


def test_kagi_null_data_without_error_is_an_empty_answer() -> None:
    assert parse(kagi, b'{"meta": {"id": "x"}, "data": null}') == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Unauthorized: missing or invalid API key.", AUTH),
        ("Invalid token", AUTH),
        ("Your request has been blocked due to excessive requests.", RATE),
        ("This request exceeds your plan's set usage limit.", RATE),
        ("max_results: the limit must be at most 20", FAILED),
        ("Query is too long. Max query length is 400 characters.", FAILED),
        ("", FAILED),
    ],
)
def test_an_error_message_under_200_is_read_for_its_kind(message: str, expected) -> None:
    body = json.dumps({"detail": {"error": message}}).encode()
    assert parse(tavily, body) == expected
