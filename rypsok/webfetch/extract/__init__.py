"""Main-content extraction for web_fetch: HTML text -> page title + main content as Markdown.

Pure: no I/O, no clock, no global state. The pipeline is parse (bounded) -> drop what a
browser would not render and page chrome -> choose the main content block by text and link
density -> drop boilerplate inside it -> render Markdown. docs/extraction.md explains the
choices and the benchmark figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from rypsok.net.charset import decode_html, decode_text
from rypsok.webfetch.extract.cleaning import (
    after_the_text,
    clean_main,
    echoes,
    figure_captions,
    image_link_twins,
    named_boilerplate,
    repeated_copies,
    title_headings,
    without_a_thread,
)
from rypsok.webfetch.extract.commonmark import inert
from rypsok.webfetch.extract.document import (
    base_of,
    body_of,
    declares_a_product,
    declares_an_article,
    title_of,
)
from rypsok.webfetch.extract.embedded import Carried, as_html, carried, sources
from rypsok.webfetch.extract.endless import the_titled_article
from rypsok.webfetch.extract.markdown import render
from rypsok.webfetch.extract.names import Names
from rypsok.webfetch.extract.orphans import orphan_headings
from rypsok.webfetch.extract.page_choice import kept_text, page_boilerplate, reads_as_a_page
from rypsok.webfetch.extract.prune import Pruned, prune
from rypsok.webfetch.extract.readability import main_content, with_adjacent_prose
from rypsok.webfetch.extract.standfirst import standfirst
from rypsok.webfetch.extract.text_page import markdown_page, plain_text_page
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
    "inert",
    "markdown_page",
    "plain_text_page",
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
    list of links has no article, but its list is its content). When the removed headers
    held most of the page's text, the page is read again with its chrome, and that reading
    is taken if it gives several times as much (an unclosed ``<header>`` can hold the whole
    document, and a skip link outside it is not the page). When what the page renders
    holds next to nothing, the article it carries as text (escaped HTML, a JSON-LD
    ``articleBody``) is read instead, if that holds several times as much."""
    root, partial, removed = parse(html)
    if root is None:
        return Extracted(title="", markdown="", partial=partial, removed=removed)
    title = title_of(root)
    base = base_of(root, base_url)
    markdown, pruned, left_text, left_prose = _content(root, base, title, drop_chrome=True)
    if (
        (not markdown and pruned.chrome_removed)
        or _CHROME_HELD_THE_PAGE * left_text < pruned.header_text
        or (
            left_prose < _SOME_PROSE
            and _CHROME_HELD_THE_PAGE * left_text < pruned.aside_text
            and not any(element.tag == "article" for element in pruned.holders)
        )
    ):
        root, _, _ = parse(html)
        if root is not None:
            with_chrome, _, _, _ = _content(root, base, title, drop_chrome=False)
            if len(with_chrome) > _CHROME_HELD_THE_PAGE * len(markdown):
                markdown = with_chrome
    unlinked = _MARKDOWN_LINK.sub("", markdown)
    if _text_length(unlinked) < _TINY_READING:
        root, _, _ = parse(html)  # pruning removed the <noscript>, <textarea> and <script>
        if root is not None:
            markdown, cut = _carried_reading(carried(root), base, title, markdown, len(unlinked))
            partial = partial or cut
    return Extracted(title=title, markdown=markdown, partial=partial, removed=removed)


# The page is read again with its chrome when the headers and navigation removed
# (<header>, role=banner, <nav>, <menu>, role=navigation, menu, menubar) held this many
# times the text that survived them, outside links (a menu holds next to none), and that
# reading is taken when it gives this many times as much: an unclosed <header> or <nav>
# holds the whole document, and a skip link or a footer line outside it is not the page.
# Footers and dialogs are not counted: a footer holding a shop's privacy policy and terms
# (100,000 characters on one wcxb-dev page) is still a footer.
_CHROME_HELD_THE_PAGE = 3
# An <aside> counts too when what survived it holds no <article> and under this many
# characters of paragraphs: a template that puts the page's one section in an <aside>
# leaves a form's line or two, while beside a short post an "about me" sidebar is still a
# sidebar.
_SOME_PROSE = 80


# A reading with less text than this outside its headings and its links holds next to
# nothing: a "Loading…", a notice, a footer line, a menu. The article a page carries as
# text is read then, if it holds at least _CARRIED_TEXT characters outside headings and
# this many times as much as the whole reading but its links, headings and all (a
# paywalled story's teaser in an <h2> is the teaser its JSON-LD holds too).
_TINY_READING = 200
_CARRIED_TEXT = 200
_CARRIED_OVER_READING = 3


# A Markdown link or image, and the link text with it: [text](target "title").
_MARKDOWN_LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.)*\]\([^()\s]*(?:\s+\"[^\"]*\")?\)")


def _text_length(markdown: str) -> int:
    """Characters of Markdown outside its headings (and its newlines)."""
    length = len(markdown) - markdown.count("\n")
    if "#" in markdown:
        length -= sum(map(len, _HEADING_LINE.findall(markdown)))
    return length


_HEADING_LINE = re.compile(r"^#[^\n]*", re.MULTILINE)


def _carried_reading(
    page: Carried, base: str, title: str, markdown: str, unlinked_length: int
) -> tuple[str, bool]:
    """The longest reading of the article the page carries as text, each source through
    the bounded parse and the same pipeline, if it holds several times what ``markdown``
    does without its links (``unlinked_length`` characters), and whether that source was
    cut at a bound; else ``markdown`` and False."""
    best, best_length, best_cut = (
        markdown,
        max(_CARRIED_TEXT, _CARRIED_OVER_READING * unlinked_length),
        False,
    )
    for source in sources(page):
        root, cut, _ = parse(as_html(source))
        if root is None:
            continue
        reading, _, _, _ = _content(root, base, title, drop_chrome=True)
        if _text_length(reading) >= best_length:
            best, best_length, best_cut = reading, _text_length(reading), cut
    return best, best_cut


def _scant(markdown: str) -> bool:
    """Whether Markdown holds less than 25 characters outside its headings."""
    return _text_length(markdown) < 25


def _content(
    root: etree._Element, base: str, title: str, drop_chrome: bool
) -> tuple[str, Pruned, int, int]:
    """Markdown of the main content, what pruning removed, and the text outside links and
    the paragraph text left in the page after it. Without its chrome, a page whose main content is
    scant gives all it holds if that is more; with its chrome it does not (a page of
    navigation only has no content)."""
    body = body_of(root)
    declared_article = declares_an_article(root)  # before prune: a <meta> may be in the body
    names = Names(product=not declared_article and declares_a_product(root))
    takes_replies = next(body.iter("textarea"), None) is not None  # before prune drops it
    pruned = prune(body, names, drop_chrome)
    holders, folded = pruned.holders, pruned.folded
    main, core, metrics = main_content(body, names, holders, folded)
    titled = the_titled_article(core, title, body)
    if titled is not None:
        main, core = [titled], titled
    named: set[etree._Element] = set()
    dropped: set[etree._Element] = set()
    captions = figure_captions(main, metrics)
    for element in main:
        by_name = without_a_thread(
            named_boilerplate(element, core, names, holders, captions), core, metrics
        )
        named |= by_name
        dropped |= by_name | clean_main(element, core, names, holders, by_name)
    kept = kept_text(main, dropped, metrics)
    if main != [body] and kept < _CLEANED_AWAY * kept_text(main, named, metrics):
        # the cleaning took most of it: this is not an article to trim, unless link boxes
        # after the end of its text took it
        dropped = named | after_the_text(main, dropped, metrics)
        kept = kept_text(main, named, metrics)
    if titled is None and reads_as_a_page(
        kept, main, metrics, body, declared_article, names, takes_replies
    ):
        main, dropped = [body], page_boilerplate(body, metrics)
    elif main != [body]:
        main = with_adjacent_prose(main, metrics, names)
        main = standfirst(main, metrics, names, dropped, title) + main
    dropped |= title_headings(main, title)
    dropped |= repeated_copies(main, metrics, dropped)
    dropped |= echoes(main, metrics)
    dropped |= image_link_twins(main)
    dropped |= orphan_headings(main, dropped)
    markdown = render(main, base, title, dropped)
    if drop_chrome and _scant(markdown):
        whole = render([body], base, title, set())
        if len(whole) > len(markdown):
            markdown = whole
    return markdown, pruned, metrics.text(body) - metrics.links(body), metrics.good(body)


# Readability's conditional cleaning trims an article of its link boxes and image strips;
# when it takes away more than 40% of the candidate it chose, that is not an article (a
# service page of short sections, a product page) and only names say what to drop. (When
# no candidate stands out and the whole body is read, the cleaning is what drops the
# navigation, and it stays.)
_CLEANED_AWAY = 0.6
