"""Answers whose status or headers leave no whole page to read, against a real server on
loopback: 204 and 205 (no content by definition), a 206 (rypsok asks for no range), a
Content-Type without a media type, and a redirect loop."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import trio

from rypsok.errors import ToolError
from rypsok.model import FetchResponse
from rypsok.webfetch.fetcher import Fetcher
from rypsok.webfetch.page import is_whole_range
from rypsok.webfetch.resolver import StaticResolver
from tests.fetch_servers import Reply, Site, open_site, redirect, site_config

PAGE = (
    b"<!doctype html><html><head><title>Whole</title></head><body><main><p>"
    + b"The whole page, every word of it. " * 10
    + b"</p></main></body></html>"
)
TOO_MANY_REDIRECTS = "the site redirected more than 5 times; choose another page or retry later"


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with open_site() as running_site:
        yield running_site


def fetch(site: Site, path: str) -> FetchResponse:
    async def call() -> FetchResponse:
        resolver = StaticResolver({"a.test": [site.address]})
        async with Fetcher(site_config(site), resolver=resolver) as fetcher:
            return await fetcher.fetch(f"http://a.test:{site.port}{path}")

    return trio.run(call)


def fetch_error(site: Site, path: str) -> ToolError:
    with pytest.raises(ToolError) as raised:
        fetch(site, path)
    return raised.value


@pytest.mark.parametrize("status", [204, 205])
def test_no_content_is_nothing_to_read_not_a_media_type(site: Site, status: int) -> None:
    """RFC 9110 15.3.5/15.3.6: the answer has no content, so nothing could be extracted; it
    used to be unsupported_content media_type application/octet-stream, naming a type the
    site never sent."""
    site.route(f"/no-content-{status}", Reply(status=status, body=b"", content_type=None))
    error = fetch_error(site, f"/no-content-{status}")
    assert (error.kind, error.detail) == ("unsupported_content", {"reason": "extraction_failed"})


@pytest.mark.parametrize(
    "content_range", [None, "bytes 0-99/4000", "bytes 100-199/200", "bytes 0-99/*", "junk"]
)
def test_a_206_with_part_of_the_page_is_not_returned(site: Site, content_range: str) -> None:
    """rypsok sends no Range: a 206 holding part of the page is the page not retrieved (half
    a page is never returned as the page), retryable, and says so."""
    headers = {} if content_range is None else {"Content-Range": content_range}
    site.route("/part", Reply(status=206, body=PAGE[:100], headers=headers))
    error = fetch_error(site, "/part")
    assert (error.kind, error.detail) == ("unavailable", {"reason": "network"})
    assert error.message == "the site sent only part of the page; retry later"


def test_a_206_that_holds_the_whole_page_is_read(site: Site) -> None:
    whole = {"Content-Range": f"bytes 0-{len(PAGE) - 1}/{len(PAGE)}"}
    site.route("/whole", Reply(status=206, body=PAGE, headers=whole))
    response = fetch(site, "/whole")
    assert response.title == "Whole"
    assert response.content.startswith("The whole page, every word of it.")


@pytest.mark.parametrize("content_type", ["", "; charset=utf-8"])
def test_a_content_type_without_a_media_type_counts_as_octet_stream(
    site: Site, content_type: str
) -> None:
    """RFC 9110 8.3: as if there were none; detail.media_type is never empty."""
    site.route("/typeless", Reply(body=PAGE, content_type=content_type))
    error = fetch_error(site, "/typeless")
    assert (error.kind, error.detail) == (
        "unsupported_content",
        {"reason": "media_type", "media_type": "application/octet-stream"},
    )


@pytest.mark.parametrize("path", ["/loop", "/chain0"])
def test_a_redirect_loop_or_chain_past_the_bound_says_so(site: Site, path: str) -> None:
    site.route("/loop", redirect("/loop"))
    for hop in range(6):
        site.route(f"/chain{hop}", redirect(f"/chain{hop + 1}"))
    site.route("/chain6", Reply(body=PAGE))
    error = fetch_error(site, path)
    assert (error.kind, error.detail) == ("unavailable", {"reason": "network"})
    assert error.message == TOO_MANY_REDIRECTS
    assert len(error.message) <= 200


def test_a_chain_of_five_redirects_is_followed(site: Site) -> None:
    for hop in range(1, 6):
        site.route(f"/five{hop}", redirect(f"/five{hop + 1}"))
    site.route("/five6", Reply(body=PAGE))
    assert fetch(site, "/five1").url == f"http://a.test:{site.port}/five6"


@pytest.mark.parametrize(
    ("value", "whole"),
    [
        ("bytes 0-9/10", True),
        ("Bytes 0-9/10", True),
        ("bytes 0-8/10", False),
        ("bytes 1-9/10", False),
        ("bytes 0-9/*", False),
        ("bytes */10", False),
        ("items 0-9/10", False),
        ("bytes 0-٩/10", False),
        (None, False),
    ],
)
def test_is_whole_range(value: str | None, whole: bool) -> None:
    assert is_whole_range(value) is whole
