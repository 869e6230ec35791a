"""What the engine module tests share: the fixed clock, saved answers and block pages."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import ModuleType

import httpx

from rypsok.engines.base import EngineFailure, EngineSearch, RawResult, read_answer

FIXTURES = Path(__file__).parent / "fixtures"
NOW = dt.datetime(2026, 10, 1, 12, 0, 0, tzinfo=dt.UTC)
USER_AGENT = "rypsok/0.1 (https://example.org/rypsok; ops@example.org)"
PLAIN_SEARCH = EngineSearch(
    query="q",
    category="general",
    max_results=20,
    language="en",
    now=NOW,
    user_agent=USER_AGENT,
)
"""A search with nothing but a query: what the junk tests read every spoiled answer with."""
SINCE_DATE = {
    "day": "2026-09-30",
    "week": "2026-09-24",
    "month": "2026-08-31",
    "year": "2025-10-01",
}
CAPTCHA_PAGE = b"""<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta name="robots" content="noindex,nofollow"></head><body>
<div class="main-wrapper"><h1>Verify you are human</h1>
<form id="challenge-form" action="/?__cf_chl_f_tk=Qx1" method="POST">
<div class="cf-turnstile" data-sitekey="0x4AAA"></div><p>Please complete the CAPTCHA to continue.</p>
</form></div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>"""
ERROR_PAGE = b"""<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"""


KEYED_ENGINES = ("exa", "kagi", "serper", "tavily")
"""The bring-your-own-key engines, in id order."""
KEYED_KEYS = {
    "TAVILY_API_KEY": "tvly-dev-Zq81xTestKeyValue0001",
    "EXA_API_KEY": "exa-test-key-7c1e0f55-0002",
    "KAGI_API_KEY": "kagi-test-key.Ab9_0003",
    "SERPER_API_KEY": "serper0test0key0000000000000004",
}
"""Test keys for them, each in its default variable: none may appear in what rypsok says."""


MOJEEK_CHALLENGE = "mojeek/captcha_200.html"
"""Mojeek's ALTCHA proof-of-work page, which it serves under 200 instead of results: the
widget, ``/captcha/challenge`` and ``/captcha/verify`` as clients that solve it read
them (SearXNG's mojeek engine since 2026-09); the surrounding markup is reconstructed."""


def fixture(engine: str, name: str) -> bytes:
    return (FIXTURES / engine / name).read_bytes()


def make_search(
    query: str = "rust async",
    *,
    category: str = "general",
    max_results: int = 10,
    language: str | None = None,
    time_range: str | None = None,
    region: str | None = None,
) -> EngineSearch:
    """A search as the orchestrator hands it to an engine, at the fixed ``NOW``."""
    return EngineSearch(
        query=query,
        category=category,
        max_results=max_results,
        language=language,
        time_range=time_range,
        now=NOW,
        user_agent=USER_AGENT,
        region=region,
    )


def parse(
    module: ModuleType,
    body: bytes,
    status: int = 200,
    headers: dict[str, str] | None = None,
    search: EngineSearch | None = None,
) -> list[RawResult] | EngineFailure:
    """The answer as the orchestrator reads it: the engine's parse, then the shared checks."""
    return read_answer(module, status, httpx.Headers(headers or {}), body, search or make_search())


TAVILY_GENERAL_BODY = {
    "query": "rust async",
    "topic": "general",
    "search_depth": "basic",
    "max_results": 10,
    "include_answer": False,
    "include_raw_content": False,
    "include_images": False,
    "include_usage": True,
}
"""What tavily sends for a general search of "rust async" with max_results 10 (its docs)."""
