"""What an element's class and id names say: readability's lists, the names of boilerplate
inside an article and of page furniture, judged once per page."""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree

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


class Names:
    """What an element's class and id say, memoised for one page (pages repeat them). On a
    page that declares a product (and not an article), "review" names boilerplate too: a
    shop's reviews are its comments (on wcxb-dev's product pages, 9% of the text under
    "reviews" names was main content; on articles, which review things, 88%)."""

    __slots__ = ("_cache", "_link_list_cache", "_product")

    def __init__(self, product: bool = False) -> None:
        self._cache: dict[tuple[str | None, str | None], _Judgement] = {}
        self._link_list_cache: dict[tuple[str | None, str | None], bool] = {}
        self._product = product

    def names_a_link_list(self, element: etree._Element) -> bool:
        """Whether ``element`` is unlikely or boilerplate by its name only through a word
        for a list of links (``_LINK_LISTS``): "pane-taxomenu", "APageRoot__Wrapper"."""
        key = (element.get("class"), element.get("id"))
        found = self._link_list_cache.get(key)
        if found is None:
            found = False
            if self.judge(element).droppable:
                names = f"{key[0] or ''} {key[1] or ''}".lower().replace("_", "-")
                if _LINK_LISTS_RE.search(names):
                    found = not _judge_names(_LINK_LISTS_RE.sub(" ", names), None).droppable
            self._link_list_cache[key] = found
        return found

    def names_reviews(self, element: etree._Element) -> bool:
        """Whether the page declares a product and ``element`` is named like its reviews."""
        if not self._product:
            return False
        class_, id_ = element.get("class"), element.get("id")
        if class_ is None and id_ is None:
            return False
        return _REVIEWS_RE.search(f"{class_ or ''} {id_ or ''}".lower()) is not None

    def judge(self, element: etree._Element) -> _Judgement:
        if not element.keys():  # half the cost of one get(): most elements have no names
            return _NO_NAMES
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
    several times slower, and every class and id of a page is judged. A word found across
    the words of a camel-cased name counts only when it covers them whole (``_in_words``):
    "APageRoot" is not a pager."""
    names, written = _cased(f"{class_ or ''} {id_ or ''}".replace("_", "-"))

    def found(words: re.Pattern[str]) -> bool:
        return _found(words, names, written)

    weight = 0
    if found(_NEGATIVE_RE) or "hid" in names.split():
        weight -= 25
    if found(_POSITIVE_RE):
        weight += 25
    content = found(_CONTENT_RE)
    unlikely = found(_UNLIKELY_RE) and not found(_MAYBE_RE)
    boilerplate = not content and found(_BOILERPLATE_RE)
    droppable = (unlikely or boilerplate) and not content
    if droppable and found(_PART_NAMES_RE):
        rest = _PART_NAMES_RE.sub(" ", names)
        droppable = bool(
            (_UNLIKELY_RE.search(rest) and not _MAYBE_RE.search(rest))
            or _BOILERPLATE_RE.search(rest)
        )
    return _Judgement(weight, unlikely, boilerplate, content, droppable)


def _cased(written: str) -> tuple[str, str]:
    """The names lower-cased, and as written when capitals split their words; else "" (no
    capitals, or a lower case of another length): then words are found as substrings."""
    names = written.lower()
    return names, "" if len(names) != len(written) or names == written else written


def _found(words: re.Pattern[str], names: str, written: str) -> bool:
    """Whether ``words`` occur in the lower-cased ``names``; with ``written``, only where
    they lie within one written word or cover whole ones (``_in_words``)."""
    if not written:
        return words.search(names) is not None
    return any(_in_words(match, written) for match in words.finditer(names))


# The words of a name as its capitals split it: runs of capitals, and a capital or none
# followed by lower-case letters, digits and hyphens ("APageRoot" is A, Page, Root;
# "sideBar" is side, Bar; "dcom-theme" is one word, as it was lower-cased).
_WRITTEN_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9-]+")


def _in_words(match: re.Match[str], written: str) -> bool:
    """Whether ``match`` (in the lower-cased name) lies within one written word or covers
    whole words: "menu" in "taxomenu" and "sidebar" in "sideBar" count, "pager" in
    "APageRoot" (Page + the R of Root) does not."""
    start, end = match.span()
    for word in _WRITTEN_WORD.finditer(written):
        word_start, word_end = word.span()
        if word_end <= start or word_start >= end:
            continue
        if word_start >= start and word_end <= end:
            continue  # covered whole
        # within this one word, or else cut: it begins or ends inside a word it leaves
        return word_start <= start and word_end >= end
    return True


NEVER_UNLIKELY = frozenset({"html", "body", "article", "main", "a"})


# elements that class and id names do not remove: "code-header" names a heading, not a header
KEPT_WHATEVER_NAMED = NEVER_UNLIKELY | {"h1", "h2", "h3", "h4", "h5", "h6", "pre", "code"}


# Names whose elements held under 10% main content on wcxb-dev's 600 pages (consent
# managers, newsletter sign-ups, pagination, pop-ups, recommendations, sponsored and
# trending boxes, share bars, breadcrumbs, advertising), and related items and comment
# forms (a collection's "related products", a post's related posts and reply form).
_FURNITURE = (
    "consent", "newsletter", "pagination", "pager", "popup", "recommend", "sponsor",
    "trending", "social", "breadcrumb", "signup", "gdpr", "advert", "outbrain", "taboola",
    "respond", "related",
)  # fmt: skip
_FURNITURE_RE = re.compile("|".join(_FURNITURE))


def names_furniture(element: etree._Element) -> bool:
    class_, id_ = element.get("class"), element.get("id")
    if class_ is None and id_ is None:
        return False
    return _found(_FURNITURE_RE, *_cased(f"{class_ or ''} {id_ or ''}"))


# Names of a list of links: a menu, a pager, a trail of breadcrumbs. An element so named
# that holds paragraphs of prose is not one (names_a_link_list); matched as substrings,
# they are found inside other words ("taxomenu", "APageRoot").
_LINK_LISTS = ("menu", "pager", "pagination", "breadcrumbs", "breadcrumb")
_LINK_LISTS_RE = _any_of(_LINK_LISTS)


# On a page that says it sells a product, its reviews are its comments.
_REVIEWS_RE = re.compile("review")
