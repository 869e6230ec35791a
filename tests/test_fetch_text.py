"""Plain-text and Markdown pages through web_fetch, against a real server on loopback
(DECISIONS.md, Fetch; issue 25): returned as written, with only what a CommonMark renderer
would make live judged. In Markdown, an absolute http(s) link stays as written, a relative
one is resolved against the page's URL, an image becomes its alternative text, a link to
another scheme and raw HTML are made inert, and code is byte for byte as written. In plain
text, every link, image, autolink (but an http(s) one) and raw HTML is made inert, and a
text without them comes back exactly as written. tests/commonmark.py (markdown-it-py) reads
the answers again."""

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
        "A [data](data:text/html;base64,PHNjcmlwdD4=) link and a [reference][evil].",
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
HOSTILE_IN_MARKDOWN = "\n".join(
    [
        "# Release notes",
        "",
        "Read the \\[click\\](javascript:alert(1)) link and \\<javascript:alert(2)> too.",
        'Raw \\<a href="javascript:alert(3)">anchor\\</a> and \\<img src=x onerror=alert(4)> inline.',
        "An image pixel and one i.",
        "A \\[data\\](data:text/html;base64,PHNjcmlwdD4=) link and a \\[reference\\]\\[evil].",
        "",
        "[evil]: javascript:alert(6)",
        "",
        "\\<script>alert(7)\\</script>",
        "",
        "\\<div onclick=alert(8)>a block of HTML\\</div>",
        "",
        "An escaped \\<b> stays text, and so does an escaped backslash \\\\\\<i>kept\\</i>.",
        "\\<!-- a comment -->",
        "Plain words at the end: alpha beta gamma.",
    ]
)
# In plain text the images are made inert where they stand, not replaced.
HOSTILE_IN_PLAIN_TEXT = HOSTILE_IN_MARKDOWN.replace(
    "An image pixel and one i.",
    "An image !\\[pixel\\](https://a.test/p.png) and one !\\[i\\](javascript:alert(5)).",
)

LINKS = "\n".join(
    [
        "# Changelog",
        "",
        "See the [changelog](https://example.org/changelog), <https://example.org/>, the",
        '[guide](docs/guide.md "The guide"), the [root](/index.md), [up](../up.md) and the',
        "[section](#install). A [reference][ref] and a [shortcut] too.",
        "",
        "![Build status](https://ci.example.org/badge.svg) ![](/blank.png)",
        "",
        "[ref]: /reference.md",
        "[shortcut]: https://example.org/shortcut",
    ]
)

CODE = "\n".join(
    [
        "Index with `xs[0]`, compare with `a < b`, and `[x](javascript:y)` stays code.",
        "",
        "```python",
        "def first(xs: List[int]) -> int:",
        '    return xs[0] if len(xs) > 0 and "<script>" else -1  # [not](a link)',
        "```",
        "",
        "    <div>an indented code block</div> ![not](an-image.png)",
        "",
        "~~~",
        "<https://not.an/autolink> [ref]: /not-a-definition",
        "~~~",
    ]
)

PLAIN = (
    "Hypertext Transfer Protocol [RFC9110], section 8.3.\n"
    "When a < b and b > c, xs[0] is the least; dict[str, int] maps, and a<b holds.\n"
    "[1] A footnote, and [ref]: as written.\n"
)


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with open_site() as server:
        yield server


def page_url(site: Site, path: str) -> str:
    return f"http://127.0.0.2:{site.port}{path}"


def fetch(site: Site, path: str, max_chars: int = 20000, start_char: int = 0) -> FetchResponse:
    async def call() -> FetchResponse:
        async with Fetcher(site_config(site)) as fetcher:
            return await fetcher.fetch(page_url(site, path), max_chars, start_char)

    return trio.run(call)


def serve(site: Site, path: str, text: str, media_type: str) -> FetchResponse:
    site.route(path, Reply(body=text.encode(), content_type=f"{media_type}; charset=utf-8"))
    return fetch(site, path)


def test_a_markdown_page_keeps_its_links_as_written_and_resolves_relative_ones(site: Site) -> None:
    response = serve(site, "/docs/readme.md", LINKS, "text/markdown")
    origin = f"http://127.0.0.2:{site.port}"
    assert response.content == "\n".join(
        [
            "# Changelog",
            "",
            "See the [changelog](https://example.org/changelog), <https://example.org/>, the",
            f'[guide]({origin}/docs/docs/guide.md "The guide"), the [root]({origin}/index.md), '
            f"[up]({origin}/up.md) and the",
            f"[section]({origin}/docs/readme.md#install). A [reference][ref] and a [shortcut] too.",
            "",
            "Build status ",
            "",
            f"[ref]: {origin}/reference.md",
            "[shortcut]: https://example.org/shortcut",
        ]
    )
    reading = commonmark.read(response.content)
    assert reading.links == [
        "https://example.org/changelog",
        "https://example.org/",
        f"{origin}/docs/docs/guide.md",
        f"{origin}/index.md",
        f"{origin}/up.md",
        f"{origin}/docs/readme.md#install",
        f"{origin}/reference.md",
        "https://example.org/shortcut",
    ]
    assert reading.images == [] and reading.html == []
    assert response.title == ""


@pytest.mark.parametrize("media_type", ["text/markdown", "text/plain"])
def test_code_comes_back_byte_for_byte(site: Site, media_type: str) -> None:
    response = serve(site, f"/code-{media_type.split('/')[1]}", CODE, media_type)
    assert response.content == CODE
    reading = commonmark.read(response.content)
    assert reading.links == [] and reading.images == [] and reading.html == []
    assert "`[x](javascript:y)`" in response.content


@pytest.mark.parametrize("media_type", ["text/markdown", "text/plain"])
def test_a_text_with_brackets_and_angles_but_no_markup_comes_back_as_written(
    site: Site, media_type: str
) -> None:
    response = serve(site, f"/plain-{media_type.split('/')[1]}", PLAIN, media_type)
    assert response.content == PLAIN
    assert response.title == ""


@pytest.mark.parametrize(
    ("media_type", "expected"),
    [("text/markdown", HOSTILE_IN_MARKDOWN), ("text/plain", HOSTILE_IN_PLAIN_TEXT)],
)
def test_other_schemes_and_raw_html_are_made_inert(
    site: Site, media_type: str, expected: str
) -> None:
    response = serve(site, f"/notes-{media_type.split('/')[1]}", HOSTILE, media_type)
    assert response.content == expected
    reading = commonmark.read(response.content)
    assert reading.links == [] and reading.images == [] and reading.html == []
    for words in ("Release notes", "click", "anchor", "a block of HTML", "alpha beta gamma."):
        assert words in reading.text  # readable
    assert response.title == ""


def test_a_plain_text_keeps_an_http_autolink_and_makes_every_other_link_inert(site: Site) -> None:
    text = (
        "Home: <https://example.org/>. Mail <me@a.test>, [x](javascript:alert(1)), "
        "[y](https://example.org/y), ![z](/z.png) and <script>alert(2)</script>."
    )
    response = serve(site, "/links.txt", text, "text/plain")
    assert response.content == (
        "Home: <https://example.org/>. Mail \\<me@a.test>, \\[x\\](javascript:alert(1)), "
        "\\[y\\](https://example.org/y), !\\[z\\](/z.png) and \\<script>alert(2)\\</script>."
    )
    reading = commonmark.read(response.content)
    assert reading.links == reading.autolinks == ["https://example.org/"]
    assert reading.images == [] and reading.html == []


def test_a_link_freed_by_an_inert_one_is_made_inert_too(site: Site) -> None:
    # once the inner link is inert, the outer brackets make a link: judged again
    text = "[a [b](javascript:x)](javascript:y) and [c [d](data:x) e](/rel)"
    response = serve(site, "/nested.md", text, "text/markdown")
    assert response.content == (
        "\\[a \\[b\\](javascript:x)\\](javascript:y) and "
        f"[c \\[d\\](data:x) e](http://127.0.0.2:{site.port}/rel)"
    )
    assert commonmark.read(response.content).links == [f"http://127.0.0.2:{site.port}/rel"]


def test_the_same_text_on_an_html_page_is_inert_too(site: Site) -> None:
    # the HTML path: the same rule holds across media types
    site.route("/notes.html", html(f"<pre>{HOSTILE.replace('&', '&amp;')}</pre><p>{HOSTILE}</p>"))
    reading = commonmark.read(fetch(site, "/notes.html").content)
    assert commonmark.only_http_links(reading)
    assert reading.images == [] and reading.html == []


def test_every_page_of_a_text_page_is_inert(site: Site) -> None:
    # 499 characters, then markup: the backslash made inert stands at character 499, where a
    # 500-character page ends. The page ends before it, so the next one starts escaped.
    body = "a" * 499 + "<script>alert(1)</script> [x](javascript:y) " + "b" * 600
    site.route("/paged.txt", Reply(body=body.encode(), content_type="text/plain"))
    pages, start = [], 0
    while start is not None:
        response = fetch(site, "/paged.txt", max_chars=500, start_char=start)
        reading = commonmark.read(response.content)
        assert reading.links == [] and reading.images == [] and reading.html == []
        pages.append(response.content)
        start = response.next_start_char
    assert pages[0] == "a" * 499
    assert pages[1].startswith("\\<script>")
    assert "".join(pages) == body.replace("<", "\\<").replace("[", "\\[").replace("]", "\\]")
