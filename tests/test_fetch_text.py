"""Plain-text and Markdown pages through web_fetch, against a real server on loopback: what
comes back holds no link or image whose target is not absolute http(s) and no raw HTML for a
CommonMark reader, whatever the media type, and the text still reads as written (issue 17,
item 5; tools.md, web_fetch: "links keep absolute http(s) targets, images contribute their
alternative text"). tests/commonmark.py is the reader (markdown-it-py's CommonMark)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import trio

from rypsok.model import FetchResponse
from rypsok.webfetch.fetcher import Fetcher
from tests import commonmark
from tests.fetch_servers import Reply, Site, html, open_site, site_config

HOSTILE = "\n".join(
    [
        "# Release notes",
        "",
        "Read the [click](javascript:alert(1)) link and <javascript:alert(2)> too.",
        'Raw <a href="javascript:alert(3)">anchor</a> and <img src=x onerror=alert(4)> inline.',
        "An image ![pixel](https://a.test/p.png) and one ![i](javascript:alert(5)).",
        "A relative [page](/docs/page) and a [reference][evil] and <mailto:me@a.test>.",
        "",
        "[evil]: javascript:alert(6)",
        "",
        "<script>alert(7)</script>",
        "",
        "<div onclick=alert(8)>a block of HTML</div>",
        "",
        "An escaped \\<b> stays text, and so does an escaped backslash \\\\<i>kept</i>.",
        "<!-- a comment -->",
        "Plain words at the end: alpha beta gamma.",
    ]
)
# As written, with a backslash before each < and [ that none escaped (the one already
# escaped stays as it was).
INERT = HOSTILE.replace("<", "\\<").replace("[", "\\[").replace("\\\\<b>", "\\<b>")


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with open_site() as server:
        yield server


def fetch(site: Site, path: str, max_chars: int = 20000, start_char: int = 0) -> FetchResponse:
    async def call() -> FetchResponse:
        async with Fetcher(site_config(site)) as fetcher:
            return await fetcher.fetch(f"http://127.0.0.2:{site.port}{path}", max_chars, start_char)

    return trio.run(call)


def assert_inert(content: str) -> commonmark.Reading:
    reading = commonmark.read(content)
    assert reading.links == [] or commonmark.only_http_links(reading), reading.links
    assert reading.images == [], reading.images
    assert reading.html == [], reading.html
    return reading


@pytest.mark.parametrize("media_type", ["text/markdown", "text/plain"])
def test_a_text_page_comes_back_inert_and_readable(site: Site, media_type: str) -> None:
    path = f"/notes-{media_type.split('/')[1]}"
    site.route(path, Reply(body=HOSTILE.encode(), content_type=media_type))
    response = fetch(site, path)
    reading = assert_inert(response.content)
    assert response.content == INERT
    for words in ("Release notes", "click", "anchor", "a block of HTML", "alpha beta gamma."):
        assert words in reading.text  # readable
    assert "\\<b> stays text" in response.content
    assert response.title == ""


def test_the_same_text_on_an_html_page_is_inert_too(site: Site) -> None:
    # the HTML path was already inert: the same rule holds across media types
    site.route("/notes.html", html(f"<pre>{HOSTILE.replace('&', '&amp;')}</pre><p>{HOSTILE}</p>"))
    assert_inert(fetch(site, "/notes.html").content)


def test_every_page_of_a_text_page_is_inert(site: Site) -> None:
    # 499 characters, then markup: the backslash made inert stands at character 499, where a
    # 500-character page ends. The page ends before it, so the next one starts escaped.
    body = "a" * 499 + "<script>alert(1)</script> [x](javascript:y) " + "b" * 600
    site.route("/paged.txt", Reply(body=body.encode(), content_type="text/plain"))
    pages, start = [], 0
    while start is not None:
        response = fetch(site, "/paged.txt", max_chars=500, start_char=start)
        assert_inert(response.content)
        pages.append(response.content)
        start = response.next_start_char
    assert pages[0] == "a" * 499
    assert pages[1].startswith("\\<script>")
    assert "".join(pages) == body.replace("<", "\\<").replace("[", "\\[")
