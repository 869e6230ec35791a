"""Redirects whose Location cannot be read, and robots.txt redirected where rypsok does not
go, against a real server on loopback (issue 17, items 1 and 6).

A Location that cannot be read is the site's fault: the page's own redirect is answered as a
redirect target that cannot be reached (``unavailable`` ``network``, tools.md), robots.txt's
as robots.txt that cannot be reached, which disallows (``denied`` ``robots_txt``,
DECISIONS.md), each saying that the site sent a redirect that cannot be read. robots.txt
redirected to a scheme rypsok does not follow stays ``denied`` ``scheme`` (reading-a-
response.md) and says it was the site's robots.txt. Hypothesis serves arbitrary Locations:
every answer is a response or one of the spec's errors, never an exception.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rypsok.errors import ToolError
from rypsok.model import FetchResponse
from rypsok.webfetch.fetcher import Fetcher
from rypsok.webfetch.resolver import StaticResolver
from tests.fetch_servers import REFUSED_SCHEME_TARGETS, Site, html, open_site, redirect, site_config

UNREADABLE = [
    "http://[zz]/",
    "http://[::1/",
    "http://[]/",
    "http://[127.0.0.1]/",
    "https://[zz]:443/",
    "//[zz]/",
    "http://a]b/",
]
PAGE_MESSAGE = (
    "the site sent a redirect whose target cannot be read; choose another page or retry later"
)
ROBOTS_MESSAGE = (
    "the site's robots.txt redirected to an address that cannot be read, so no page of the "
    "site may be fetched; choose another page"
)
# tools.md, Errors: each kind and the reasons it has.
SPEC_REASONS = {
    "invalid_request": None,
    "denied": {
        "secret_in_query", "secret_in_url", "egress", "robots_txt", "strict_mode", "scheme",
        "credential_in_url",
    },
    "unavailable": {
        "no_engine", "all_failed", "rate_limited", "network", "deadline", "http_status", "busy",
    },
    "redirected": None,
    "unsupported_content": {"media_type", "extraction_failed"},
    "too_large": None,
}  # fmt: skip
_hosts = itertools.count()


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with open_site() as server:
        server.route("/page", html("<p>The page a redirect may lead to, with its text.</p>"))
        yield server


def fresh_host() -> str:
    """A name of its own for each case: its robots.txt and its cache entry are its own."""
    return f"h{next(_hosts)}.test"


def answer(site: Site, host: str, path: str) -> FetchResponse | ToolError:
    """web_fetch of ``http://host:port/path`` (``host`` on the site), or its error. Only the
    site's port is allowed, so no Location can lead off this machine."""

    async def call() -> FetchResponse | ToolError:
        resolver = StaticResolver({host: ["127.0.0.2"], "a.test": ["127.0.0.2"]})
        async with Fetcher(site_config(site, timeout_ms=3000), resolver=resolver) as fetcher:
            try:
                return await fetcher.fetch(f"http://{host}:{site.port}{path}")
            except ToolError as error:
                return error

    return trio.run(call)


def page_redirecting_to(site: Site, location: str) -> FetchResponse | ToolError:
    host = fresh_host()
    site.route("/from", redirect(location), host=host)
    return answer(site, host, "/from")


def robots_redirecting_to(site: Site, location: str) -> FetchResponse | ToolError:
    host = fresh_host()
    site.route("/robots.txt", redirect(location), host=host)
    return answer(site, host, "/page")


def assert_spec_shaped(found: FetchResponse | ToolError) -> None:
    if isinstance(found, FetchResponse):
        assert found.content and found.url.startswith("http://")
        return
    assert found.kind in SPEC_REASONS, found
    reasons = SPEC_REASONS[found.kind]
    if reasons is not None:
        assert found.detail["reason"] in reasons, found
    assert 0 < len(found.message) <= 200
    if found.kind == "unavailable" and found.detail["reason"] != "http_status":
        assert found.message.endswith("retry later"), found  # reading-a-response.md
    assert "internal error" not in found.message


@pytest.mark.parametrize("location", UNREADABLE)
def test_a_redirect_that_cannot_be_read_is_network(site: Site, location: str) -> None:
    found = page_redirecting_to(site, location)
    assert isinstance(found, ToolError), found
    assert (found.kind, found.message, found.detail) == (
        "unavailable",
        PAGE_MESSAGE,
        {"reason": "network"},
    )


@pytest.mark.parametrize("location", UNREADABLE)
def test_robots_redirected_where_it_cannot_be_read_disallows(site: Site, location: str) -> None:
    host = fresh_host()
    site.route("/robots.txt", redirect(location), host=host)
    for _ in range(2):  # the verdict is cached for the origin, and so is why
        found = answer(site, host, "/page")
        assert isinstance(found, ToolError), found
        assert (found.kind, found.message, found.detail) == (
            "denied",
            ROBOTS_MESSAGE,
            {"reason": "robots_txt"},
        )
    assert not site.requests(host=host, path="/page")


@pytest.mark.parametrize("scheme", sorted(REFUSED_SCHEME_TARGETS))
def test_robots_redirected_to_a_scheme_not_followed_says_so(site: Site, scheme: str) -> None:
    found = robots_redirecting_to(site, REFUSED_SCHEME_TARGETS[scheme])
    assert isinstance(found, ToolError), found
    assert (found.kind, found.detail) == ("denied", {"reason": "scheme"})
    assert found.message == (
        "the site's robots.txt redirected to a scheme rypsok does not follow, so no page of "
        "the site can be fetched; choose another page"
    )
    assert "use https" not in found.message


# Locations from Hypothesis: what an HTTP/1.1 server can send in a header (Latin-1, no CR,
# LF or NUL), relative and absolute, with the pieces that break URL readers.
_HEADER_TEXT = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"),
    max_size=40,
)
_PIECES = st.sampled_from(
    ["[", "]", "[::1", "[zz]", ":", "@", "%", "%zz", "/", "//", "\\", "?", "#", "..", ".",
     "a.test", "127.0.0.2", "[::ffff:127.0.0.2]", "0x7f.1", "xn--", "\u00e9", " ", "\t"]
)  # fmt: skip
_SCHEMES = st.sampled_from(["http://", "https://", "//", "HTTP://", "ftp://", "javascript:", ""])


@st.composite
def locations(draw: st.DrawFn, port: int) -> str:
    kind = draw(st.sampled_from(["text", "pieces", "absolute", "same-site"]))
    if kind == "text":
        return draw(_HEADER_TEXT)
    pieces = "".join(draw(st.lists(st.one_of(_PIECES, _HEADER_TEXT), max_size=6)))
    if kind == "pieces":
        return pieces
    if kind == "absolute":
        return draw(_SCHEMES) + pieces
    return f"http://a.test:{port}/{pieces}"


FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def test_any_location_is_answered_as_the_spec_says(site: Site) -> None:
    @FUZZ
    @given(location=locations(site.port), robots_txt=st.booleans())
    def check(location: str, robots_txt: bool) -> None:
        location = location.strip(" \t")  # a header value's own spaces are not kept
        if robots_txt:
            found = robots_redirecting_to(site, location)
        else:
            found = page_redirecting_to(site, location)
        assert_spec_shaped(found)

    check()
