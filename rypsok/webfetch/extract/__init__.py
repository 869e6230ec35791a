"""Main-content extraction for web_fetch: HTML text -> page title + main content as Markdown.

Pure: no I/O, no clock, no global state. The pipeline is parse (bounded) -> drop what a
browser would not render and page chrome -> choose the main content block by text and link
density -> drop boilerplate inside it -> render Markdown. docs/extraction.md explains the
choices and the benchmark figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from rypsok.webfetch.extract.cleaning import (
    clean_main,
    named_boilerplate,
    repeated_copies,
    title_headings,
)
from rypsok.webfetch.extract.decode import decode_html, decode_text
from rypsok.webfetch.extract.document import (
    base_of,
    body_of,
    declares_a_product,
    declares_an_article,
    title_of,
)
from rypsok.webfetch.extract.markdown import render
from rypsok.webfetch.extract.names import Names
from rypsok.webfetch.extract.page_choice import kept_text, page_boilerplate, reads_as_a_page
from rypsok.webfetch.extract.prune import prune
from rypsok.webfetch.extract.readability import main_content
from rypsok.webfetch.extract.tree import (
    MAX_ATTRIBUTES,
    MAX_ATTRIBUTES_PER_ELEMENT,
    MAX_DEPTH,
    MAX_NODES,
    parse,
)

__all__ = [
    "MAX_ATTRIBUTES",
    "MAX_ATTRIBUTES_PER_ELEMENT",
    "MAX_DEPTH",
    "MAX_NODES",
    "Extracted",
    "decode_html",
    "decode_text",
    "extract_html",
]


@dataclass(frozen=True)
class Extracted:
    title: str  # raw text of <title>, else og:title, else the first <h1>; the caller cleans it
    markdown: str  # the main content
    partial: bool  # the document hit a bound (nodes, depth, attributes): it was read in part
    removed: int = 0  # characters removed before parsing (controls lxml cannot hold)


def extract_html(html: str, base_url: str) -> Extracted:
    """Title and main content (Markdown) of an HTML or XHTML page, links resolved against
    ``base_url`` (and the page's ``<base href>``).

    When the main-content heuristics leave nothing but headings and a line or two, the
    whole page without its chrome is returned instead if it holds more (a page that is a
    list of links has no article, but its list is its content); when that is empty too and
    chrome was removed, the page is read again with its chrome (an unclosed ``<header>`` or
    ``<aside>`` can hold the whole document)."""
    root, partial, removed = parse(html)
    if root is None:
        return Extracted(title="", markdown="", partial=partial, removed=removed)
    title = title_of(root)
    base = base_of(root, base_url)
    markdown, chrome_removed = _content(root, base, title, drop_chrome=True)
    if not markdown and chrome_removed:
        root, _, _ = parse(html)
        if root is not None:
            markdown, _ = _content(root, base, title, drop_chrome=False)
    return Extracted(title=title, markdown=markdown, partial=partial, removed=removed)


def _scant(markdown: str) -> bool:
    """Whether Markdown holds less than 25 characters outside its headings."""
    return sum(len(line) for line in markdown.split("\n") if not line.startswith("#")) < 25


def _content(root: etree._Element, base: str, title: str, drop_chrome: bool) -> tuple[str, int]:
    """Markdown of the main content, and how many chrome elements were removed. Without its
    chrome, a page whose main content is scant gives all it holds if that is more; with its
    chrome it does not (a page of navigation only has no content)."""
    body = body_of(root)
    declared_article = declares_an_article(root)  # before prune: a <meta> may be in the body
    names = Names(product=not declared_article and declares_a_product(root))
    holders, chrome_removed = prune(body, names, drop_chrome)
    main, core, metrics = main_content(body, names, holders)
    named: set[etree._Element] = set()
    dropped: set[etree._Element] = set()
    for element in main:
        by_name = named_boilerplate(element, core, names, holders)
        named |= by_name
        dropped |= by_name | clean_main(element, core, names, holders, by_name)
    kept = kept_text(main, dropped, metrics)
    if main != [body] and kept < _CLEANED_AWAY * kept_text(main, named, metrics):
        dropped = named  # the cleaning took most of it: this is not an article to trim
        kept = kept_text(main, named, metrics)
    if reads_as_a_page(kept, main, metrics, body, declared_article):
        main, dropped = [body], page_boilerplate(body, metrics)
    dropped |= title_headings(main, title)
    dropped |= repeated_copies(main, metrics, dropped)
    markdown = render(main, base, title, dropped)
    if drop_chrome and _scant(markdown):
        whole = render([body], base, title, set())
        if len(whole) > len(markdown):
            markdown = whole
    return markdown, chrome_removed


# Readability's conditional cleaning trims an article of its link boxes and image strips;
# when it takes away more than 40% of the candidate it chose, that is not an article (a
# service page of short sections, a product page) and only names say what to drop. (When
# no candidate stands out and the whole body is read, the cleaning is what drops the
# navigation, and it stays.)
_CLEANED_AWAY = 0.6
