"""Main-content extraction for web_fetch: HTML text -> page title + main content as Markdown.

Pure: no I/O, no clock, no global state. The pipeline is parse (bounded) -> drop what a
browser would not render and page chrome -> choose the main content block by text and link
density -> drop boilerplate inside it -> render Markdown. docs/extraction.md explains the
choices and the benchmark figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice
from typing import NamedTuple
from urllib.parse import urljoin

from lxml import etree

from rypsok.webfetch.extract.decode import decode_html, decode_text
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


# ---------------------------------------------------------------------------- public API


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
    title = _title(root)
    base = _base_url(root, base_url)
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
    body = _body(root)
    declared_article = _declares_an_article(root)  # before _prune: a <meta> may be in the body
    names = _Names(product=not declared_article and _declares_a_product(root))
    holders, chrome_removed = _prune(body, names, drop_chrome)
    main, core, metrics = _main_content(body, names, holders)
    named: set[etree._Element] = set()
    dropped: set[etree._Element] = set()
    for element in main:
        by_name = _named_boilerplate(element, core, names, holders)
        named |= by_name
        dropped |= by_name | _clean_main(element, core, names, holders, by_name)
    kept = _kept_text(main, dropped, metrics)
    if main != [body] and kept < _CLEANED_AWAY * _kept_text(main, named, metrics):
        dropped = named  # the cleaning took most of it: this is not an article to trim
        kept = _kept_text(main, named, metrics)
    if _reads_as_a_page(kept, main, metrics, body, declared_article):
        main, dropped = [body], _page_boilerplate(body, metrics)
    dropped |= _title_headings(main, title)
    dropped |= _repeated_copies(main, metrics, dropped)
    markdown = _render(main, base, title, dropped)
    if drop_chrome and _scant(markdown):
        whole = _render([body], base, title, set())
        if len(whole) > len(markdown):
            markdown = whole
    return markdown, chrome_removed


# Readability's conditional cleaning trims an article of its link boxes and image strips;
# when it takes away more than 40% of the candidate it chose, that is not an article (a
# service page of short sections, a product page) and only names say what to drop. (When
# no candidate stands out and the whole body is read, the cleaning is what drops the
# navigation, and it stays.)
_CLEANED_AWAY = 0.6
# The article reading is a page's main content unless it keeps less than this share of the
# page's text (a listing, a collection, a page of short sections: a text-density reader
# picks one block of many) ...
_PAGE_SHARE = 0.15
_PAGE_SHARE_OF_AN_ARTICLE = 0.05  # ... or less than this when the page says it is an article
_LONG_READING = 1500  # ... and it holds less text than this ...
_MORE_UNLINKED = 1.5  # ... and the page has this many times as much text outside links.
# A page is also read whole when its largest run of similar siblings (cards, rows, posts:
# at least _LISTING_ITEMS children with the same tag and first class) holds half of its
# text and twice what the article reading kept, unless the run is a menu (mostly links,
# and short ones) or the page says it is an article (whose comments are such a run).
_LISTING_ITEMS = 4
_LISTING_SHARE = 0.5
_LISTING_OVER_READING = 2
_MENU_LINK_TEXT = 25


def _reads_as_a_page(
    kept: int,
    main: list[etree._Element],
    metrics: _Metrics,
    body: etree._Element,
    declared_article: bool,
) -> bool:
    """Whether the page as a whole (without its chrome) is its main content rather than
    what the article reading kept. A page whose other text is all links (a short news story
    among teasers) keeps its article."""
    if main == [body]:
        return False
    page_text = metrics.text(body)
    if not declared_article and kept * _LISTING_OVER_READING <= page_text:  # else none can
        listing = _largest_listing(body, metrics)
        if listing >= _LISTING_SHARE * page_text and listing >= _LISTING_OVER_READING * kept:
            return True
    if kept >= _LONG_READING:
        return False
    share = _PAGE_SHARE_OF_AN_ARTICLE if declared_article else _PAGE_SHARE
    if kept >= share * page_text:
        return False
    kept_unlinked = kept - sum(metrics.links(element) for element in main)
    return page_text - metrics.links(body) > _MORE_UNLINKED * kept_unlinked


def _page_boilerplate(body: etree._Element, metrics: _Metrics) -> set[etree._Element]:
    """What to drop when the whole page without its chrome is read: menus, the lists of
    short links (70% or more of their text linked, under 25 characters an item), and what
    is named like page furniture (_FURNITURE) unless it holds half of the page's text.
    Other boilerplate names are not used here: on pages that are not articles, most of the
    text that "comment", "header", "sidebar" or "footer" would drop is main content."""
    dropped: set[etree._Element] = set()
    for element in body.iter("ul", "ol"):
        items = sum(1 for child in element if child.tag == "li")
        if (
            items
            and metrics.link_density(element) >= _MENU_LINKS
            and metrics.text(element) < _MENU_ITEM * items
        ):
            dropped.add(element)
    page_text = metrics.text(body)
    for element in body.iter(etree.Element):
        if (
            element.tag not in _KEPT_WHATEVER_NAMED
            and _names_furniture(element)
            and metrics.text(element) < page_text / 2
        ):
            dropped.add(element)
    return dropped


_MENU_LINKS = 0.7
_MENU_ITEM = 25
# Names whose elements held under 10% main content on wcxb-dev's 600 pages (consent
# managers, newsletter sign-ups, pagination, pop-ups, recommendations, sponsored and
# trending boxes, share bars, breadcrumbs, advertising).
_FURNITURE = (
    "consent", "newsletter", "pagination", "pager", "popup", "recommend", "sponsor",
    "trending", "social", "breadcrumb", "signup", "gdpr", "advert", "outbrain", "taboola",
)  # fmt: skip
_FURNITURE_RE = re.compile("|".join(_FURNITURE))


def _names_furniture(element: etree._Element) -> bool:
    class_, id_ = element.get("class"), element.get("id")
    if class_ is None and id_ is None:
        return False
    return _FURNITURE_RE.search(f"{class_ or ''} {id_ or ''}".lower()) is not None


def _largest_listing(body: etree._Element, metrics: _Metrics) -> int:
    """Characters of text in the page's largest run of similar siblings, or 0 when that run
    is a menu (over 50% of its text linked, in links of under 25 characters on average)."""
    best_text, best_items = 0, []
    for parent in body.iter(etree.Element):
        if len(parent) < _LISTING_ITEMS or metrics.text(parent) <= best_text:
            continue
        runs: dict[tuple[str, str], list[etree._Element]] = {}
        for child in parent:
            if isinstance(child.tag, str) and metrics.text(child):
                names = (child.get("class") or "").split()
                runs.setdefault((child.tag, names[0] if names else ""), []).append(child)
        for items in runs.values():
            if len(items) >= _LISTING_ITEMS:
                text = sum(metrics.text(item) for item in items)
                if text > best_text:
                    best_text, best_items = text, items
    links = sum(metrics.links(item) for item in best_items)
    if links > 0.5 * best_text:
        anchors = sum(1 for item in best_items for _ in item.iter("a"))
        if links < _MENU_LINK_TEXT * anchors:
            return 0
    return best_text


_PRODUCT_LD = re.compile(r'"@type"\s*:\s*\[?\s*"Product(?:Group)?"')
# On a page that says it sells a product, its reviews are its comments.
_REVIEWS_RE = re.compile("review")


def _declares_a_product(root: etree._Element) -> bool:
    """Whether the page's Open Graph type is a product, or its JSON-LD describes one."""
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:type":
            if (meta.get("content") or "").strip().lower().startswith("product"):
                return True
            break
    for script in root.iter("script"):
        is_json_ld = (script.get("type") or "").lower() == "application/ld+json"
        if is_json_ld and script.text and _PRODUCT_LD.search(script.text):
            return True
    return False


def _declares_an_article(root: etree._Element) -> bool:
    """Whether the page's Open Graph type is ``article``."""
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:type":
            return (meta.get("content") or "").strip().lower() == "article"
    return False


def _kept_text(main: list[etree._Element], dropped: set[etree._Element], metrics: _Metrics) -> int:
    """Characters of text in ``main`` outside the dropped elements."""
    kept = sum(metrics.text(element) for element in main)
    for element in dropped:
        if not any(ancestor in dropped for ancestor in element.iterancestors()):
            kept -= metrics.text(element)
    return kept


def _render(
    elements: list[etree._Element], base: str, title: str, dropped: set[etree._Element]
) -> str:
    renderer = _Renderer(base, title, dropped)
    return "\n\n".join(
        filter(None, (renderer.render(element) for element in elements if element not in dropped))
    )


# ---------------------------------------------------------------------------- title, base


def _text_of(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _title(root: etree._Element) -> str:
    """``<title>``, else og:title, else the first ``<h1>``."""
    for element in root.iter("title"):
        if element.getparent() is not None and element.getparent().tag != "svg":
            text = "".join(element.itertext())
            if text.strip():
                return text
            break
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:title":
            content = meta.get("content") or ""
            if content.strip():
                return content
    for h1 in root.iter("h1"):
        text = "".join(h1.itertext())
        if text.strip():
            return text
    return ""


def _base_url(root: etree._Element, base_url: str) -> str:
    for base in root.iter("base"):
        href = base.get("href")
        if href is None:
            continue
        resolved = _resolve(base_url, href)
        return resolved or base_url
    return base_url


_URL_STRIP = re.compile(r"[\t\n\r]")


def _resolve(base: str, href: str) -> str | None:
    """Absolute http(s) URL for ``href``, or None for any other scheme or a malformed URL."""
    href = _URL_STRIP.sub("", href).strip(" \x00\x0b\x0c")
    if not href:
        return None
    try:
        url = urljoin(base, href)
    except ValueError:
        return None
    scheme = url[:8].lower()
    if not (scheme.startswith("https://") or scheme.startswith("http://")):
        return None
    return url


def _body(root: etree._Element) -> etree._Element:
    for child in root:
        if child.tag == "body":
            return child
    found = next(root.iter("body"), None)
    return found if found is not None else root


# ---------------------------------------------------------------------------- pruning

_UNRENDERED_TAGS = (
    "head",
    "title",
    "script",
    "style",
    "noscript",
    "template",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "svg",
    "canvas",
    "video",
    "audio",
    "source",
    "track",
    "map",
    "button",
    "input",
    "select",
    "textarea",
    "option",
    "optgroup",
    "datalist",
    "label",
    "meta",
    "link",
    "base",
)

_HIDDEN_STYLE = re.compile(
    r"(?<![\w-])(?:display\s*:\s*none|visibility\s*:\s*hidden)(?![\w-])", re.IGNORECASE
)


def _remove(element: etree._Element) -> None:
    """Detach ``element`` with its subtree, keeping the text that follows it."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


# A <noscript> holding this much text is the page as a browser without scripts shows it (a
# forum thread, a post, a listing); a shorter one is a notice ("enable JavaScript") or a
# tracking pixel. rypsok runs no scripts, so it reads the first kind.
_NOSCRIPT_CONTENT = 200
# A <button> holds phrasing content only. One that holds any of these was left open by
# libxml2, which does not close it at </button> while a <div> inside it is open
# (<button><div><div></button>), and it swallowed whatever followed: the page's content.
_NOT_IN_A_BUTTON = (
    "a", "article", "button", "form", "h1", "h2", "h3", "h4", "h5", "h6", "input", "main", "ol",
    "p", "section", "table", "ul",
)  # fmt: skip


def _read_without_scripts(body: etree._Element) -> None:
    """Turn into plain containers the ``<noscript>`` elements that hold content and the
    ``<button>`` elements that hold what cannot be in a button, so that they are read;
    the other ones are removed with what a browser does not render."""
    for element in list(body.iter("noscript", "button")):
        if element.tag == "noscript":
            if len(_text_of(element)) >= _NOSCRIPT_CONTENT:
                element.tag = "div"
        elif any(True for _ in islice(element.iterdescendants(*_NOT_IN_A_BUTTON), 1)):
            element.tag = "div"


# A hidden element with this much text, found nowhere else on the page, is content that
# a script shows (a product description behind an age gate, a streamed page, a tab): a
# hidden copy of what is visible, a closed menu or a dialog's few words are not.
_SHOWN_BY_SCRIPT = 200
_SECTIONING = ("article", "aside", "main", "nav", "section")


def _in_a_section(element: etree._Element) -> bool:
    """Whether ``element`` is inside sectioning content or ``<main>``, where a ``<header>``
    is that section's header, not the page's banner (HTML-AAM)."""
    return any(True for _ in element.iterancestors(*_SECTIONING))


_CHROME_TAGS = frozenset({"nav", "header", "footer", "aside", "menu"})
_CHROME_ROLES = frozenset(
    {
        "navigation",
        "banner",
        "contentinfo",
        "complementary",
        "search",
        "menubar",
        "menu",
        "dialog",
        "alertdialog",
    }
)


def _prune(body: etree._Element, names: _Names, drop_chrome: bool) -> tuple[set, int]:
    """Remove what a browser does not render and, with ``drop_chrome``, the page chrome
    (navigation, headers, footers, sidebars). Returns the elements that are or hold an
    article (``<article>``, ``<main>``, role=main, itemprop=articleBody, a class named
    like an article body) and how many chrome elements were removed.

    A chrome element that holds the article stays: the markup put the document inside it
    (an unclosed ``<header>`` swallows what follows). So does an ``aria-hidden`` one, which
    a browser renders anyway (a page served with a dialog open hides the rest from screen
    readers). The body itself is never hidden: scripts that would reveal it do not run."""
    _read_without_scripts(body)
    etree.strip_elements(body, *_UNRENDERED_TAGS, with_tail=False)
    hidden = []
    aria_hidden = []
    chrome = []
    markers = []
    for element in body.iter(etree.Element):
        tag = element.tag
        style = element.get("style")
        if element is not body and (
            element.get("hidden") is not None
            or (tag == "dialog" and element.get("open") is None)
            or (style and _HIDDEN_STYLE.search(style))
        ):
            hidden.append(element)
            continue
        if (element.get("aria-hidden") or "").strip().lower() == "true":
            aria_hidden.append(element)
        role = element.get("role")
        if (tag in _CHROME_TAGS and not (tag == "header" and _in_a_section(element))) or (
            role in _CHROME_ROLES
        ):
            chrome.append(element)
        if (
            tag == "article"
            or tag == "main"
            or role == "main"
            or element.get("itemprop") == "articleBody"
            or names.judge(element).content
        ):
            markers.append(element)
    page_text = None
    for element in hidden:
        text = _text_of(element)
        if len(text) >= _SHOWN_BY_SCRIPT:
            if page_text is None:
                page_text = _text_of(body)
            if page_text.count(text[:100]) < 2:
                continue  # content that a script would show: nothing else on the page has it
        _remove(element)
    holders: set[etree._Element] = set()
    for element in markers:
        while element is not None and element not in holders:
            holders.add(element)
            element = element.getparent()
    for element in aria_hidden:
        if element not in holders and element is not body:
            _remove(element)
    removed = 0
    if drop_chrome:
        for element in chrome:
            if element not in holders and element.getparent() is not None:
                _remove(element)
                removed += 1
    return holders, removed


# ---------------------------------------------------------------------------- class names

# Readability's name lists (matched as substrings of the lower-cased class and id), plus
# BOILERPLATE: what to drop inside an article.
_POSITIVE = (
    "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "post", "text",
    "blog", "story",
)  # fmt: skip
_NEGATIVE = (
    "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr",
    "masthead", "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox",
    "sidebar", "skyscraper", "sponsor", "shopping", "tags", "widget",
)  # fmt: skip
_UNLIKELY = (
    "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap",
    "disqus", "extra", "footer", "gdpr", "header", "legends", "menu", "related", "remark",
    "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor", "supplemental",
    "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote", "consent",
)  # fmt: skip
_MAYBE_CANDIDATE = ("and", "article", "body", "column", "content", "main", "mathjax", "shadow")
_BOILERPLATE = (
    "comment", "disqus", "respond", "replies", "share", "sharing", "social", "related",
    "recommend", "newsletter", "subscri", "signup", "sign-up", "promo", "advert", "sponsor",
    "outbrain", "taboola", "cookie", "consent", "gdpr", "breadcrumb", "pagination", "pager",
    "readnext", "read-next", "readmore", "read-more", "more-stories", "morestories", "most-read",
    "mostread", "most-popular", "trending", "popular", "tags", "tag-list", "taglist", "keywords",
    "byline", "author", "dateline", "timestamp", "published", "caption", "credit", "toolbar",
    "print-", "widget", "sidebar", "footer", "masthead",
)  # fmt: skip
_CONTENT_NAMES = (
    "article-body",
    "article__body",
    "articlebody",
    "article-content",
    "article__content",
    "entry-content",
    "post-content",
    "post-body",
    "post-entry",
    "story-body",
    "story-content",
    "content-body",
    "article-text",
)


def _any_of(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(word) for word in sorted(words, key=len, reverse=True)))


# Names of a part of a page rather than of boilerplate: "section-header" and "card-header"
# hold a heading and its introduction, and page builders name every block a "widget"
# (elementor-widget-text-editor). They count against a candidate, but do not on their own
# drop a block from the chosen content (measured on wcxb-dev: most of the text they dropped
# was main content).
_PART_NAMES = ("header", "widget")
_PART_NAMES_RE = _any_of(_PART_NAMES)
_POSITIVE_RE = _any_of(_POSITIVE)
_NEGATIVE_RE = _any_of(_NEGATIVE)
_UNLIKELY_RE = _any_of(_UNLIKELY)
_MAYBE_RE = _any_of(_MAYBE_CANDIDATE)
_BOILERPLATE_RE = _any_of(_BOILERPLATE)
_CONTENT_RE = _any_of(_CONTENT_NAMES)


class _Judgement(NamedTuple):
    weight: int  # readability's class weight: +25 for a content-like name, -25 for boilerplate
    unlikely: bool  # readability's "unlikely candidate" name (comments, sidebars, menus...)
    boilerplate: bool  # named like something to drop inside an article
    content: bool  # named like an article body
    droppable: bool  # unlikely or boilerplate by a name other than a _PART_NAMES one


_NO_NAMES = _Judgement(0, False, False, False, False)


class _Names:
    """What an element's class and id say, memoised for one page (pages repeat them). On a
    page that declares a product (and not an article), "review" names boilerplate too: a
    shop's reviews are its comments (on wcxb-dev's product pages, 9% of the text under
    "reviews" names was main content; on articles, which review things, 88%)."""

    __slots__ = ("_cache", "_product")

    def __init__(self, product: bool = False) -> None:
        self._cache: dict[tuple[str | None, str | None], _Judgement] = {}
        self._product = product

    def judge(self, element: etree._Element) -> _Judgement:
        key = (element.get("class"), element.get("id"))
        if key == (None, None):
            return _NO_NAMES
        found = self._cache.get(key)
        if found is None:
            found = _judge_names(*key)
            if (
                self._product
                and not found.droppable
                and not found.content
                and _REVIEWS_RE.search(f"{key[0] or ''} {key[1] or ''}".lower())
            ):
                found = found._replace(boilerplate=True, droppable=True)
            self._cache[key] = found
        return found


def _judge_names(class_: str | None, id_: str | None) -> _Judgement:
    """Plain regular expressions over the lower-cased names: an IGNORECASE alternation is
    several times slower, and every class and id of a page is judged."""
    names = f"{class_ or ''} {id_ or ''}".lower().replace("_", "-")
    weight = 0
    if _NEGATIVE_RE.search(names) or "hid" in names.split():
        weight -= 25
    if _POSITIVE_RE.search(names):
        weight += 25
    content = _CONTENT_RE.search(names) is not None
    unlikely = _UNLIKELY_RE.search(names) is not None and not _MAYBE_RE.search(names)
    boilerplate = not content and _BOILERPLATE_RE.search(names) is not None
    droppable = (unlikely or boilerplate) and not content
    if droppable and _PART_NAMES_RE.search(names):
        rest = _PART_NAMES_RE.sub(" ", names)
        droppable = bool(
            (_UNLIKELY_RE.search(rest) and not _MAYBE_RE.search(rest))
            or _BOILERPLATE_RE.search(rest)
        )
    return _Judgement(weight, unlikely, boilerplate, content, droppable)


# ---------------------------------------------------------------------------- scoring

_BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    }
)

_TAG_WEIGHT = {
    "div": 5,
    "article": 10,
    "main": 5,
    "section": 3,
    "pre": 3,
    "td": 3,
    "blockquote": 3,
    "address": -3,
    "ol": -3,
    "ul": -3,
    "dl": -3,
    "dd": -3,
    "dt": -3,
    "li": -3,
    "form": -3,
    "h1": -5,
    "h2": -5,
    "h3": -5,
    "h4": -5,
    "h5": -5,
    "h6": -5,
    "th": -5,
}
_NEVER_UNLIKELY = frozenset({"html", "body", "article", "main", "a"})


class _Metrics:
    """Per-element text measures of a subtree, in one walk (children end before parents).

    For each element: characters of text; characters inside ``<a>``; characters not inside
    a nested block element (its own paragraph text); characters of paragraphs within (of
    blocks with 25+ characters of their own), outside unlikely elements. Also: the
    paragraphs, with their length and commas; the elements with a block-level child; the
    unlikely elements (readability's unlikely candidates, by class or id, and what is
    inside them, unless they hold the article).
    """

    __slots__ = ("counts", "paragraphs", "has_block", "unlikely")

    def __init__(self, top: etree._Element, names: _Names, holders: set) -> None:
        unlikely: set[etree._Element] = set()
        # (a loop, not the XPath .//*[@class or @id], which libxml2 takes quadratic time
        # over on some pages: 0.5 s for a 12,000-element source listing)
        for element in top.iterdescendants(etree.Element):
            if (
                element not in unlikely
                and names.judge(element).unlikely
                and element.tag not in _NEVER_UNLIKELY
                and element not in holders
            ):
                unlikely.update(element.iter(etree.Element))
        counts: dict[etree._Element, list[int]] = {}
        paragraphs: list[tuple[etree._Element, int, int]] = []
        has_block: set[etree._Element] = set()
        block_tags = _BLOCK_TAGS
        # per open element: text, links, own paragraph text, paragraph text within, commas
        # of its own paragraph text, whether a child is a block
        stack: list[list[int]] = []
        for event, element in etree.iterwalk(top, events=("start", "end")):
            if event == "start":
                own = element.text
                if own:
                    length = len(own.strip())
                    commas = own.count(",")
                    if not own.isascii():
                        commas += own.count("，") + own.count("、")
                    stack.append([length, 0, length, 0, commas, 0])
                else:
                    stack.append([0, 0, 0, 0, 0, 0])
                continue
            mine = stack.pop()
            tag = element.tag
            if tag == "a":
                mine[1] = mine[0]
            loose = mine[2]
            if loose >= 25 and (tag in block_tags or element is top):
                paragraphs.append((element, loose, mine[4]))
                mine[3] += loose
            if element in unlikely:
                mine[3] = 0
            if mine[5]:
                has_block.add(element)
            counts[element] = mine
            if not stack:
                continue
            theirs = stack[-1]
            tail = element.tail
            if tail:
                tail_length = len(tail.strip())
                tail_commas = tail.count(",")
                if not tail.isascii():
                    tail_commas += tail.count("，") + tail.count("、")
            else:
                tail_length = tail_commas = 0
            theirs[0] += mine[0] + tail_length
            theirs[1] += mine[1]
            theirs[3] += mine[3]
            if tag in block_tags:
                theirs[5] = 1
                theirs[2] += tail_length
                theirs[4] += tail_commas
            else:
                theirs[2] += loose + tail_length
                theirs[4] += mine[4] + tail_commas
        self.counts = counts
        self.paragraphs = paragraphs
        self.has_block = has_block
        self.unlikely = unlikely

    def text(self, element: etree._Element) -> int:
        return self.counts[element][0] if element in self.counts else 0

    def links(self, element: etree._Element) -> int:
        return self.counts[element][1] if element in self.counts else 0

    def good(self, element: etree._Element) -> int:
        return self.counts[element][3] if element in self.counts else 0

    def link_density(self, element: etree._Element) -> float:
        counts = self.counts.get(element)
        return counts[1] / counts[0] if counts and counts[0] else 0.0


# A candidate with less text than this is scaled down in proportion, so that a short block
# with a content-like class name does not outrank the article.
_SHORT = 500


def _paragraph_scores(
    body: etree._Element,
    metrics: _Metrics,
    names: _Names,
    skip: set[etree._Element] | None = None,
) -> dict[etree._Element, float]:
    """Readability's scores: each paragraph of 25+ characters adds 1 + commas + length/100
    (at most 3) to its container, half to the next ancestor, less further up; a container
    starts from its tag's and class's weight and ends scaled by 1 - its link density.

    A paragraph is the text of a block element outside its nested blocks, so text written
    straight into a ``<div>`` between ``<br>`` counts as readability's wrapped paragraphs do.
    Paragraphs in ``skip`` (by default, the unlikely elements) are not scored.
    """
    scores: dict[etree._Element, float] = {}
    has_block = metrics.has_block
    unlikely = metrics.unlikely if skip is None else skip
    for element, length, commas in metrics.paragraphs:
        if element in unlikely:
            continue
        score = 1 + commas + min(length // 100, 3)
        ancestor = element if element in has_block or element is body else element.getparent()
        level = 0
        while ancestor is not None and level < 5:
            if ancestor not in scores:
                scores[ancestor] = _TAG_WEIGHT.get(ancestor.tag, 0) + names.judge(ancestor).weight
                if ancestor.get("itemprop") == "articleBody":
                    scores[ancestor] += 50
            divider = 1 if level == 0 else 2 if level == 1 else level * 3
            scores[ancestor] += score / divider
            if ancestor is body:
                break
            ancestor = ancestor.getparent()
            level += 1
    for element in scores:
        scores[element] *= (1 - metrics.link_density(element)) * min(
            1.0, metrics.text(element) / _SHORT
        )
    return scores


_SENTENCE_END = re.compile(r"\.( |$)")


def _main_content(
    body: etree._Element, names: _Names, holders: set
) -> tuple[list[etree._Element], etree._Element, _Metrics]:
    """The elements holding the main content, in document order, the top candidate (the
    core that cleaning must not remove), and the text measures of the page.

    Readability's choice: the best-scored candidate, moved up to an ancestor shared by close
    runners-up or scoring higher, then joined by the siblings that score well. Two
    additions: the candidate widens to an ancestor that adds mostly paragraph text, and a
    sibling counts with its best descendant's score (readability scores only five levels up
    from a paragraph, which deep layouts and documentation pages defeat)."""
    metrics = _Metrics(body, names, holders)
    scores = _paragraph_scores(body, metrics, names)
    if not scores or metrics.good(body) < _OWN_PARAGRAPHS:
        # The paragraphs are all inside unlikely elements but for a title or a line (a
        # forum thread under comment-like names, a Q&A page): those elements hold the
        # content, and cleaning keeps them; page furniture (a consent dialog) does not.
        furniture: set[etree._Element] = set()
        for element in body.iter(etree.Element):
            if element not in furniture and _names_furniture(element):
                furniture.update(element.iter(etree.Element))
        scores = _paragraph_scores(body, metrics, names, skip=furniture)
        unlikely = metrics.unlikely
        for paragraph, _, _ in metrics.paragraphs:
            element = paragraph
            while (
                element is not None
                and element in unlikely
                and element not in holders
                and element not in furniture
            ):
                holders.add(element)
                element = element.getparent()
    if not scores:
        return [body], body, metrics
    core = max(scores, key=scores.__getitem__)
    top = _widen(_promote(core, scores, body), metrics, body)
    while top is not body and top.getparent() is not body and len(top.getparent()) == 1:
        top = top.getparent()
    if top is body:
        return [body], core, metrics
    return _with_siblings(top, scores[core], scores, metrics, names, body), core, metrics


# Paragraph text outside comment-like names below which those names are taken to name the
# page's content (a blog post's own text, however short, is more than a title and a line).
_OWN_PARAGRAPHS = 150


def _promote(
    top: etree._Element, scores: dict[etree._Element, float], body: etree._Element
) -> etree._Element:
    """Readability's moves up from the top candidate: to an ancestor of three of the four
    runners-up scoring within 25% of it, else to the first ancestor scoring higher. Never
    above ``body``: when the body itself is the candidate, it stays."""
    if top is body:
        return top
    top_score = scores[top]
    ranked = sorted(scores.values(), reverse=True)
    cutoff = ranked[min(4, len(ranked) - 1)]
    alternatives = [
        element
        for element, score in scores.items()
        if element is not top and score >= cutoff and score >= top_score * 0.75
    ][:4]
    if len(alternatives) >= 3:
        lineages = [set(alternative.iterancestors()) for alternative in alternatives]
        for ancestor in top.iterancestors():
            if ancestor is body:
                break
            if sum(ancestor in lineage for lineage in lineages) >= 3:
                return ancestor
    last = top_score
    for ancestor in top.iterancestors():
        if ancestor is body:
            break
        score = scores.get(ancestor)
        if score is None:
            continue
        if score < top_score / 3:
            break
        if score > last:
            return ancestor
        last = score
    return top


def _widen(top: etree._Element, metrics: _Metrics, body: etree._Element) -> etree._Element:
    """The highest ancestor, before one that adds text other than paragraphs, that adds at
    least half as much again of paragraph text, little of it linked. Never above ``body``."""
    if top is body:
        return top
    good, text, links = metrics.good, metrics.text, metrics.links
    chosen = top
    for ancestor in top.iterancestors():
        if ancestor is body:
            break
        extra_good = good(ancestor) - good(chosen)
        extra_text = text(ancestor) - text(chosen)
        extra_links = links(ancestor) - links(chosen)
        if (
            extra_good >= good(chosen) / 2
            and extra_good >= 0.6 * extra_text
            and extra_links <= 0.15 * extra_text
        ):
            chosen = ancestor
        elif extra_text - extra_good > 0.1 * text(chosen):
            break
    return chosen


def _with_siblings(
    top: etree._Element,
    core_score: float,
    scores: dict[etree._Element, float],
    metrics: _Metrics,
    names: _Names,
    body: etree._Element,
) -> list[etree._Element]:
    """``top`` and the siblings that belong with it, in document order: siblings scoring
    at least a fifth of it (more easily with its class), siblings holding a candidate
    scoring 30% of the core's with few links, and paragraphs of prose."""
    parent = top.getparent()
    top_score = scores.get(top, 0.0)
    threshold = max(10.0, top_score * 0.2)
    top_class = top.get("class")
    best_within: dict[etree._Element, float] = {}
    for element, score in scores.items():
        for ancestor in element.iterancestors():
            if ancestor is parent:
                best_within[element] = max(score, best_within.get(element, 0.0))
                break
            if ancestor is body:
                break
            element = ancestor
    chosen = []
    for sibling in parent:
        if sibling is top:
            chosen.append(sibling)
            continue
        judgement = names.judge(sibling)
        if judgement.boilerplate or judgement.unlikely:
            continue
        bonus = top_score * 0.2 if top_class and sibling.get("class") == top_class else 0.0
        scores_well = sibling in scores and scores[sibling] + bonus >= threshold
        holds_candidate = (
            best_within.get(sibling, 0.0) >= core_score * 0.3
            and judgement.weight >= 0
            and metrics.link_density(sibling) < 0.25
        )
        if scores_well or holds_candidate or (sibling.tag == "p" and _is_prose(sibling, metrics)):
            chosen.append(sibling)
    return chosen


def _is_prose(paragraph: etree._Element, metrics: _Metrics) -> bool:
    length = metrics.text(paragraph)
    density = metrics.link_density(paragraph)
    if length > 80:
        return density < 0.25
    return length > 0 and density == 0 and bool(_SENTENCE_END.search(_text_of(paragraph)))


# ---------------------------------------------------------------------------- cleaning


# indexes into _Stats.counts
_N_TEXT, _N_LINKS, _N_COMMAS, _N_PARAGRAPHS, _N_IMAGES, _N_ITEMS, _N_HEADINGS, _N_CODE = range(8)
_N_BLOCK_CHILD, _N_TEXT_BLOCKS = 8, 9


class _Stats:
    """Counts over a main-content subtree for readability's conditional cleaning (text,
    linked text, commas, paragraphs, images, list items, heading text, code elements),
    leaving out the subtrees already dropped, and taken once: each element is judged by
    what it held when the conditional cleaning started.

    The paragraph count is of ``<p>`` elements; in an article written without them (text
    in ``<div>`` and ``<br>``) it counts blocks holding 25+ characters and no nested block.
    """

    __slots__ = ("counts",)

    def __init__(self, top: etree._Element, dropped: set[etree._Element]) -> None:
        counts: dict[etree._Element, list[int]] = {}
        block_tags = _BLOCK_TAGS
        queried = _CONDITIONAL_TAGS | {"p"}
        stack: list[list[int] | None] = []  # the counts of each open element
        walker = etree.iterwalk(top, events=("start", "end"))
        for event, element in walker:
            if event == "start":
                if element in dropped:
                    walker.skip_subtree()
                    stack.append(None)
                    continue
                own = element.text
                if own:
                    stack.append([len(own.strip()), 0, own.count(","), 0, 0, 0, 0, 0, 0, 0])
                else:
                    stack.append([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
                continue
            mine = stack.pop()
            theirs = stack[-1] if stack else None
            if mine is None:  # dropped: only the text after it stays
                tail = element.tail
                if tail and theirs is not None:
                    theirs[_N_TEXT] += len(tail.strip())
                    theirs[_N_COMMAS] += tail.count(",")
                continue
            tag = element.tag
            if tag == "a":
                mine[_N_LINKS] = mine[_N_TEXT]
            elif tag == "img":
                mine[_N_IMAGES] += 1
            elif tag == "li":
                mine[_N_ITEMS] += 1
            elif tag in _HEADINGS:
                mine[_N_HEADINGS] = mine[_N_TEXT]
            elif tag == "pre" or tag == "code":
                mine[_N_CODE] += 1
            elif tag == "p":
                mine[_N_PARAGRAPHS] += 1
            if tag in block_tags and mine[_N_TEXT] >= 25 and not mine[_N_BLOCK_CHILD]:
                mine[_N_TEXT_BLOCKS] += 1
            if tag in queried or theirs is None:
                counts[element] = mine
            if theirs is None:
                continue
            tail = element.tail
            if tail:
                theirs[_N_TEXT] += len(tail.strip())
                theirs[_N_COMMAS] += tail.count(",")
            if tag in block_tags:
                theirs[_N_BLOCK_CHILD] = 1
            theirs[0] += mine[0]
            theirs[1] += mine[1]
            theirs[2] += mine[2]
            if mine[3] or mine[4] or mine[5] or mine[6] or mine[7] or mine[9]:
                theirs[3] += mine[3]
                theirs[4] += mine[4]
                theirs[5] += mine[5]
                theirs[6] += mine[6]
                theirs[7] += mine[7]
                theirs[9] += mine[9]
        if counts[top][_N_PARAGRAPHS] < 3:  # no <p>: count blocks of text
            for found in counts.values():
                found[_N_PARAGRAPHS] = found[_N_TEXT_BLOCKS]
        self.counts = counts

    def get(self, element: etree._Element, index: int) -> int:
        found = self.counts.get(element)
        return found[index] if found is not None else 0


# elements that class and id names do not remove: "code-header" names a heading, not a header
_KEPT_WHATEVER_NAMED = _NEVER_UNLIKELY | {"h1", "h2", "h3", "h4", "h5", "h6", "pre", "code"}
_CONDITIONAL_TAGS = frozenset({"div", "section", "ul", "ol", "table", "form", "fieldset", "dl"})


def _named_boilerplate(
    main: etree._Element, core: etree._Element, names: _Names, holders: set
) -> set[etree._Element]:
    """The elements inside the main content named like boilerplate (comments, share bars,
    related links, captions...) and the figure captions. The core candidate and its
    ancestors stay whatever their names, and so does what holds the article."""
    dropped: set[etree._Element] = set(main.iterdescendants("figcaption"))
    protected = {core, *core.iterancestors()}
    for element in main.iterdescendants(etree.Element):
        judgement = names.judge(element)
        if not judgement.droppable:
            continue
        if element in protected or element in holders or element.tag in _KEPT_WHATEVER_NAMED:
            continue
        if not any(True for _ in element.iterancestors("pre", "code")):
            dropped.add(element)
    return dropped


def _clean_main(
    main: etree._Element,
    core: etree._Element,
    names: _Names,
    holders: set,
    named: set[etree._Element],
) -> set[etree._Element]:
    """What readability's conditional cleaning drops inside the main content, besides the
    ``named`` boilerplate: elements by link density and by the ratio of paragraphs to
    images and list items, and paragraphs and lists that are mostly links. The core
    candidate and its ancestors stay.

    Nothing is removed from the tree, so the page can still be rendered whole."""
    dropped: set[etree._Element] = set()
    protected = {core, *core.iterancestors()}
    stats = _Stats(main, named)
    most = stats.get(main, _N_TEXT) / 2
    sections = _section_kinds(core, main)
    for element in reversed(list(main.iter(*_CONDITIONAL_TAGS))):
        if element is main or element in protected or element not in stats.counts:
            continue
        if stats.get(element, _N_TEXT) > most and stats.get(element, _N_LINKS) < most / 5:
            continue  # it holds most of the article
        if (element.tag, element.get("class")) in sections and _starts_with_a_heading(element):
            continue  # a section of the document, like the one holding the core
        if _should_drop(element, stats, names):
            dropped.add(element)
    for element in main.iter("p", "ul", "ol"):
        length = stats.get(element, _N_TEXT)
        if length and stats.get(element, _N_LINKS) / length >= 0.7:
            dropped.add(element)
    return dropped


def _section_kinds(core: etree._Element, main: etree._Element) -> set[tuple[str, str | None]]:
    """The tag and class of the sections that hold the core or are its children
    (docutils' ``div.section``, ``<section>``): a nested section of the same kind is a part
    of the same document, however many cross-reference links it holds."""
    kinds = set()
    for element in (*core.iterchildren(etree.Element), core, *core.iterancestors()):
        is_section = element.tag == "section" or (element.tag == "div" and element.get("class"))
        if is_section and _starts_with_a_heading(element):
            kinds.add((element.tag, element.get("class")))
        if element is main:
            break
    return kinds


def _starts_with_a_heading(element: etree._Element) -> bool:
    first = next(element.iterchildren(etree.Element), None)
    return first is not None and first.tag in _HEADINGS


def _repeated_copies(
    main: list[etree._Element], metrics: _Metrics, dropped: set[etree._Element]
) -> set[etree._Element]:
    """The blocks whose text repeats, word for word, that of a nearby earlier block (their
    closest common ancestor at most _COPY_NEAR levels up): responsive layouts put a second
    copy of a description or of a whole product panel beside the first for small screens,
    and a stylesheet shows one of the two. Only blocks of _COPY_MIN characters or more
    count, and text repeated far apart (a parameter described under two API methods, a
    quoted post) stays."""
    by_length: dict[int, list[etree._Element]] = {}
    for top in main:
        walker = etree.iterwalk(top, events=("start",), tag=_COPY_TAGS)
        for _, element in walker:
            if element in dropped:
                walker.skip_subtree()
                continue
            length = metrics.text(element)
            if length >= _COPY_MIN:
                by_length.setdefault(length, []).append(element)
    copies: set[etree._Element] = set()
    for elements in by_length.values():
        if len(elements) < 2:
            continue
        first_of: dict[str, etree._Element] = {}
        for element in elements:
            text = _text_of(element)
            first = first_of.setdefault(text, element)
            if first is not element and _near(first, element):
                copies.add(element)
    return copies


def _near(first: etree._Element, later: etree._Element) -> bool:
    """Whether neither holds the other and their closest common ancestor is at most
    _COPY_NEAR levels above each."""
    above_first = list(islice(first.iterancestors(), _COPY_NEAR))
    if later in above_first:
        return False
    for ancestor in islice(later.iterancestors(), _COPY_NEAR):
        if ancestor is first:
            return False
        if ancestor in above_first:
            return True
    return False


_COPY_MIN = 200
_COPY_NEAR = 3
_COPY_TAGS = ("div", "section", "article", "aside", "ul", "ol", "table", "p", "dl", "form")


def _title_headings(main: list[etree._Element], title: str) -> set[etree._Element]:
    """The ``<h1>`` elements that repeat the page title (the headline, which is returned
    on its own)."""
    dropped = set()
    title_words = " ".join(title.split())
    for top in main:
        for h1 in top.iter("h1"):
            text = _text_of(h1)
            if text and text in title_words and len(text) * 5 >= len(title_words) * 2:
                dropped.add(h1)
    return dropped


def _should_drop(element: etree._Element, stats: _Stats, names: _Names) -> bool:
    weight = names.judge(element).weight
    if weight < 0:
        return True
    counts = stats.counts.get(element)
    if counts is None:
        return False
    length, links, commas, paragraphs, images, items, headings, code = counts[:8]
    if commas >= 10 or (code and links * 2 < length):
        return False  # prose, or code (readability's rules would drop a short snippet)
    tag = element.tag
    is_list = tag in ("ul", "ol", "dl")
    link_density = links / length if length else 0.0
    items -= 100
    heading_density = headings / length if length else 0.0
    in_figure = any(True for _ in element.iterancestors("figure"))
    if tag == "table" and _is_data_table(element):
        return False
    remove = (
        (images > 1 and paragraphs / images < 0.5 and not in_figure)
        or (not is_list and items > paragraphs)
        or (
            not is_list
            and heading_density < 0.9
            and length < 25
            and (images == 0 or images > 2)
            and not in_figure
        )
        or (not is_list and weight < 25 and link_density > 0.2)
        or (weight >= 25 and link_density > 0.5)
    )
    if remove and is_list:
        return not all(
            len(item) == 1 and item[0].tag == "img" for item in element if item.tag == "li"
        )
    return remove


def _is_data_table(table: etree._Element) -> bool:
    if (table.get("role") or "") == "presentation":
        return False
    if table.find(".//th") is not None or table.find(".//caption") is not None:
        return True
    rows = table.findall(".//tr")
    return len(rows) >= 2 and any(len(row) >= 2 for row in rows)


# ---------------------------------------------------------------------------- Markdown

_WS = re.compile(r"[ \t\n\r\f]+")
_SPACES = re.compile(r" {2,}")
_WORD = re.compile(r"\w")
# Text is text: what would make emphasis or code (``*``, `` ` ``, ``_`` unless between two
# letters or digits, as in snake_case), a link, an image or a reference definition (``[``,
# ``]``), an autolink or raw HTML (``<``) or an entity (``&`` that reads as one) in CommonMark
# is backslash-escaped, and so is ``\``.
_ENTITY_AMPERSAND = r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{0,31};)"
_ESCAPE = re.compile(r"[*`\\\[\]<]|(?<![^\W_])_|_(?![^\W_])|" + _ENTITY_AMPERSAND)
# A line that would start a heading, a list, a quote, a setext underline or thematic break
# (a line of ``=`` or ``-``) or a ``~~~`` fence.
_LINE_START = re.compile(
    r"^(?:(#{1,6}(?=\s|$)|[-+*](?=\s|$)|>|=+ *$|-+ *$|~~~)|(\d{1,9})([.)])(?=\s|$))"
)
# A fence's info string: a language name, nothing that could end or break the fence line.
_LANGUAGE = re.compile(r"[\w+#.-]{1,40}")
# What cannot stand in a link destination as it is: spaces and controls, parentheses and
# angle brackets (percent-encoded), and ``\`` and an entity-like ``&`` (backslash-escaped).
_URL_UNSAFE = re.compile(r"[\x00-\x20\x7f()<>]")
_URL_ESCAPE = re.compile(r"\\|" + _ENTITY_AMPERSAND)
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~"}
_CONTAINERS = frozenset(
    {
        "address",
        "article",
        "aside",
        "body",
        "center",
        "details",
        "dialog",
        "div",
        "dl",
        "fieldset",
        "figure",
        "footer",
        "form",
        "header",
        "hgroup",
        "html",
        "main",
        "nav",
        "section",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "td",
        "th",
    }
)
_PARAGRAPHS = frozenset({"p", "dt", "dd", "figcaption", "summary", "caption", "legend"})
# Blocks that make a link a card (HTML lets <a> wrap flow content): it is rendered as its
# blocks, the link on the heading, instead of one line with "###" inside the link text.
_CARD_BLOCKS = (
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "ul", "ol", "table", "section", "article",
    "header", "footer", "blockquote", "dl", "figure",
)  # fmt: skip
_HEADING_LINE = re.compile(r"#{1,6} ")
# An "alternative text" that is an image's file name or address (IMG_3886.jpg, what some
# upload tools fill in) describes nothing.
_FILE_NAME = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$", re.IGNORECASE)


def _collapse(text: str) -> str:
    """Runs of ASCII whitespace as one space (plain ``in`` tests first: most text has none)."""
    if "\n" in text or "  " in text or "\t" in text or "\r" in text or "\f" in text:
        return _WS.sub(" ", text)
    return text


def _escape(text: str) -> str:
    # plain ``in`` tests first: most text has none of these, and eight of them take a third
    # of the time of one regex search
    if (
        "*" in text
        or "_" in text
        or "`" in text
        or "\\" in text
        or "[" in text
        or "]" in text
        or "<" in text
        or "&" in text
    ):
        return _ESCAPE.sub(r"\\\g<0>", text)
    return text


def _escape_line_start(paragraph: str) -> str:
    match = _LINE_START.match(paragraph)
    if not match:
        return paragraph
    if match.group(1):
        return "\\" + paragraph
    end = match.end(2)
    return paragraph[:end] + "\\" + paragraph[end:]


class _Writer:
    """Collects a sequence of Markdown blocks; inline text accumulates into the current one.

    Whitespace collapses as a browser collapses it (ASCII whitespace only: a no-break space
    stays). A ``<br>`` is a line break and two or more in a row end the paragraph."""

    __slots__ = ("blocks", "parts")

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.parts: list[str] = []

    def text(self, text: str) -> None:
        self.parts.append(_escape(_collapse(text)))

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        if not self.parts:
            return
        paragraph = "".join(self.parts)
        self.parts = []
        if "  " in paragraph:
            paragraph = _SPACES.sub(" ", paragraph)
        if "\n" not in paragraph:
            paragraph = paragraph.strip(" ")
            if paragraph:
                self.blocks.append(_escape_line_start(paragraph))
            return
        lines: list[str] = []
        for line in paragraph.split("\n"):
            line = line.strip(" ")
            if line:
                lines.append(_escape_line_start(line))
            elif lines:
                self.blocks.append("\n".join(lines))
                lines = []
        if lines:
            self.blocks.append("\n".join(lines))

    def block(self, block: str) -> None:
        self.flush()
        if block:
            self.blocks.append(block)


class _Renderer:
    """Markdown for one page. An image's alternative text is given once: a repeat of an
    earlier one, or of the page title, adds nothing.

    Containers and plain inline elements are walked by ``_children`` itself, and the other
    elements' handlers call it directly, so the recursion is one or two Python frames per
    level of nesting (the depth bound keeps that far below the recursion limit)."""

    def __init__(self, base: str, title: str, dropped: set[etree._Element]) -> None:
        self.base = base
        self.dropped = dropped
        self.seen_alt = {" ".join(title.split()).casefold()}
        self.urls: dict[str, str | None] = {}  # href -> target as written in Markdown
        self.emphasis: list[str] = []
        self.handlers = {
            **dict.fromkeys(_HEADINGS, self._heading),
            **dict.fromkeys(_EMPHASIS, self._emphasis),
            **dict.fromkeys(("code", "kbd", "samp", "tt"), self._code),
            **dict.fromkeys(("ul", "ol", "menu"), self._list),
            "a": self._link,
            "img": self._image,
            "br": self._break,
            "hr": self._rule,
            "pre": self._pre,
            "li": self._orphan_item,
            "blockquote": self._blockquote,
            "table": self._table,
        }

    def render(self, element: etree._Element) -> str:
        writer = _Writer()
        self._one(element, writer)
        writer.flush()
        return "\n\n".join(writer.blocks)

    def _one(self, element: etree._Element, writer: _Writer) -> None:
        """One element, without its tail (what ``_children`` does for each child)."""
        tag = element.tag
        if tag in _CONTAINERS or tag in _PARAGRAPHS:
            writer.flush()
            self._children(element, writer)
            writer.flush()
        else:
            handler = self.handlers.get(tag)
            if handler is None:
                self._children(element, writer)
            else:
                handler(element, writer)

    def _children(self, element: etree._Element, writer: _Writer) -> None:
        if element.text:
            writer.text(element.text)
        handlers = self.handlers
        dropped = self.dropped
        for child in element:
            tag = child.tag
            if isinstance(tag, str) and child not in dropped:  # _one, written out (a frame less)
                if tag in _CONTAINERS or tag in _PARAGRAPHS:
                    writer.flush()
                    self._children(child, writer)
                    writer.flush()
                else:
                    handler = handlers.get(tag)
                    if handler is None:
                        self._children(child, writer)
                    else:
                        handler(child, writer)
            if child.tail:
                writer.text(child.tail)

    def _inline(self, element: etree._Element) -> str:
        """The element's content on one line (blocks inside it joined by spaces), with
        the whitespace at its ends kept (one space at most)."""
        if not len(element):
            return _escape(_collapse(element.text or ""))
        writer = _Writer()
        self._children(element, writer)
        if not writer.blocks:
            text = "".join(writer.parts).replace("\n", " ")
            return _SPACES.sub(" ", text) if "  " in text else text
        writer.flush()
        return " ".join(" ".join(block.split("\n")) for block in writer.blocks)

    def _heading(self, element: etree._Element, writer: _Writer) -> None:
        text = self._inline(element).strip()
        if text:
            writer.block("#" * _HEADINGS[element.tag] + " " + text)

    def _image(self, element: etree._Element, writer: _Writer) -> None:
        alt = " ".join((element.get("alt") or "").split())
        if alt and alt.casefold() not in self.seen_alt and not _FILE_NAME.search(alt):
            self.seen_alt.add(alt.casefold())
            writer.text(alt)

    def _break(self, element: etree._Element, writer: _Writer) -> None:
        writer.raw("\n")

    def _rule(self, element: etree._Element, writer: _Writer) -> None:
        writer.block("---")

    def _code(self, element: etree._Element, writer: _Writer) -> None:
        writer.raw(_code_span("".join(element.itertext())))

    def _blockquote(self, element: etree._Element, writer: _Writer) -> None:
        inner = _Writer()
        self._children(element, inner)
        inner.flush()
        text = "\n\n".join(inner.blocks)
        if text:
            writer.block("\n".join("> " + line if line else ">" for line in text.split("\n")))

    def _link(self, element: etree._Element, writer: _Writer) -> None:
        if len(element) and next(element.iterdescendants(*_CARD_BLOCKS), None) is not None:
            self._card_link(element, writer)
            return
        text = self._inline(element)
        stripped = text.strip(" ")
        if not stripped:
            writer.raw(text)
            return
        href = element.get("href") or ""
        if href.startswith("#") and not _WORD.search(stripped):
            return  # a heading's permalink mark (¶, §, #)
        url = self.urls.get(href, "")
        if url == "":
            resolved = _resolve(self.base, href)
            url = self.urls[href] = None if resolved is None else _markdown_url(resolved)
        if url is None:
            writer.raw(text)
            return
        if not text.startswith(" ") and writer.parts and writer.parts[-1].endswith("!"):
            writer.parts[-1] = writer.parts[-1][:-1] + "\\!"  # "![" would make an image
        _wrap(writer, text, f"[{stripped}]({url})")

    def _card_link(self, element: etree._Element, writer: _Writer) -> None:
        """A link around blocks (a card: a heading and a summary) as those blocks, with the
        link on its heading, else on its first block when that is one line of text."""
        inner = _Writer()
        self._children(element, inner)
        inner.flush()
        blocks = inner.blocks
        if not blocks:
            return
        url = self.urls.get(element.get("href") or "", "")
        if url == "":
            href = element.get("href") or ""
            url = self.urls[href] = _resolve(self.base, href)
        if url is not None:
            index = next((i for i, block in enumerate(blocks) if _HEADING_LINE.match(block)), 0)
            block = blocks[index]
            heading = _HEADING_LINE.match(block)
            prefix = heading.group(0) if heading else ""
            text = block[len(prefix) :]
            if "\n" not in text and "](" not in text:
                text = text.replace("[", "\\[").replace("]", "\\]")
                blocks[index] = f"{prefix}[{text}]({_markdown_url(url)})"
        for block in blocks:
            writer.block(block)

    def _emphasis(self, element: etree._Element, writer: _Writer) -> None:
        marker = _EMPHASIS[element.tag]
        if marker in self.emphasis:  # <b> inside <strong> adds nothing
            self._children(element, writer)
            return
        self.emphasis.append(marker)
        text = self._inline(element)
        self.emphasis.pop()
        stripped = text.strip(" ")
        if stripped:
            _wrap(writer, text, f"{marker}{stripped}{marker}")
        else:
            writer.raw(text)

    def _pre(self, element: etree._Element, writer: _Writer) -> None:
        blocks = [child for child in element if child.tag == "code"]
        if len(blocks) > 1:  # variants of one example (say, ESM and CommonJS), one per line
            code = "\n".join("".join(block.itertext()).strip("\n") for block in blocks)
        else:
            code = "".join(element.itertext()).strip("\n")
        if not code.strip():
            return
        fence = "```"
        while fence in code:
            fence += "`"
        language = ""
        for candidate in (element, *element.iter("code")):
            for token in (candidate.get("class") or "").split():
                if token.startswith(("language-", "lang-")):
                    language = token.split("-", 1)[1]
                    if not _LANGUAGE.fullmatch(language):
                        language = ""
                    break
            if language:
                break
        writer.block(f"{fence}{language}\n{code}\n{fence}")

    def _list(self, element: etree._Element, writer: _Writer) -> None:
        ordered = element.tag == "ol"
        number = 1
        if ordered:
            try:
                number = int(element.get("start") or 1)
            except ValueError:
                number = 1
        items = _Writer()
        for child in element:
            if child in self.dropped:
                continue
            if child.tag == "li":
                item = self._list_item(child, f"{number}. " if ordered else "- ")
                if item:
                    items.blocks.append(item)
                    number += 1
            elif isinstance(child.tag, str):  # stray content between items
                self._one(child, items)
                items.flush()
        items.flush()
        writer.block("\n".join(items.blocks))

    def _orphan_item(self, element: etree._Element, writer: _Writer) -> None:
        writer.block(self._list_item(element, "- "))

    def _list_item(self, element: etree._Element, marker: str) -> str:
        inner = _Writer()
        self._children(element, inner)
        inner.flush()
        if not inner.blocks:
            return ""
        indent = " " * len(marker)
        lines = "\n".join(inner.blocks).split("\n")
        return marker + lines[0] + "".join("\n" + indent + line for line in lines[1:])

    def _table(self, table: etree._Element, writer: _Writer) -> None:
        rows = [
            row
            for row in table.iter("tr")
            if next(row.iterancestors("table"), None) is table
            and not any(ancestor in self.dropped for ancestor in _up_to(row, table))
        ]
        cells_by_row = [
            [cell for cell in row if cell.tag in ("td", "th") and cell not in self.dropped]
            for row in rows
        ]
        is_layout = (
            not rows
            or any(True for _ in islice(table.iter("table"), 1, 2))
            or max(len(cells) for cells in cells_by_row) < 2
            or len(rows) < 2
        )
        if not is_layout:
            for cells in cells_by_row:
                for cell in cells:
                    if any(
                        child.tag in _BLOCK_TAGS and child.tag != "p"
                        for child in cell.iter(etree.Element)
                        if child is not cell
                    ):
                        is_layout = True
                        break
                if is_layout:
                    break
        if is_layout:
            writer.flush()
            self._children(table, writer)
            writer.flush()
            return
        texts = [
            [self._inline(cell).strip().replace("|", "\\|") for cell in cells]
            for cells in cells_by_row
        ]
        texts = [row for row in texts if any(row)]
        if not texts:
            return
        width = max(len(row) for row in texts)
        lines = []
        for index, row in enumerate(texts):
            row = row + [""] * (width - len(row))
            lines.append("| " + " | ".join(row) + " |")
            if index == 0:
                lines.append("|" + " --- |" * width)
        caption = next(table.iter("caption"), None)
        if caption is not None:
            writer.block(self._inline(caption).strip())
        writer.block("\n".join(lines))


def _up_to(element: etree._Element, top: etree._Element) -> list[etree._Element]:
    """``element`` and its ancestors below ``top``."""
    lineage = [element]
    for ancestor in element.iterancestors():
        if ancestor is top:
            break
        lineage.append(ancestor)
    return lineage


def _wrap(writer: _Writer, text: str, markup: str) -> None:
    """Write ``markup`` (the marked-up, stripped ``text``) keeping the spaces around it."""
    if text.startswith(" "):
        writer.raw(" ")
    writer.raw(markup)
    if text.endswith(" "):
        writer.raw(" ")


def _code_span(code: str) -> str:
    code = code.replace("\n", " ")
    if not code.strip():
        return code
    fence = "`"
    while fence in code:
        fence += "`"
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


def _markdown_url(url: str) -> str:
    if _URL_UNSAFE.search(url):
        url = _URL_UNSAFE.sub(lambda unsafe: f"%{ord(unsafe.group()):02X}", url)
    if "\\" in url or "&" in url:
        url = _URL_ESCAPE.sub(r"\\\g<0>", url)
    return url
