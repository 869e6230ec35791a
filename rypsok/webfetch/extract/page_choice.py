"""Whether a page is read whole rather than as the article reading chose (a listing, a
collection, a page of short sections), and what a page read whole leaves out."""

from __future__ import annotations

from lxml import etree

from rypsok.webfetch.extract.document import sibling_runs
from rypsok.webfetch.extract.names import KEPT_WHATEVER_NAMED, Names, names_furniture
from rypsok.webfetch.extract.readability import Metrics

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
# A table's rows of which one holds more than this share of their text are not a run of
# similar items: they are a layout (a title row, the content's row, a footer row).
_ONE_ITEM = 0.5
# A reading holding this share of the page's paragraph text is the page's main content,
# unless the largest run of siblings holds more text and not all of it in links (a grid).
_MOST_PROSE = 0.8
_LINKS_ONLY = 0.8
# A run of cards whose whole text is links (an event's or a product's name and summary in
# one <a>) is the page's content rather than a reading this short that holds the page's
# only paragraph (a cookie notice, a footer line): a story among teasers is longer. And
# when no candidate stood out and the body was read and cleaned, such a run is what the
# cleaning took as link-dense.
_A_STORY = 200


def reads_as_a_page(
    kept: int,
    main: list[etree._Element],
    metrics: Metrics,
    body: etree._Element,
    declared_article: bool,
    names: Names,
    takes_replies: bool = False,
) -> bool:
    """Whether the page as a whole (without its chrome) is its main content rather than
    what the article reading kept. A page whose other text is all links (a short news story
    among teasers) keeps its article, and so does a reading that holds nearly all of the
    page's paragraphs: what else the page holds is menus, link lists and short items, and
    a listing's cards have paragraphs of their own. ``takes_replies``: the page had a
    ``<textarea>`` (a comment box) before pruning."""
    prose = _prose(metrics)
    holds_the_prose = sum(
        prose.get(paragraph, 0) for element in main for paragraph in element.iter(etree.Element)
    ) >= _MOST_PROSE * sum(prose.values())
    page_text = metrics.text(body)
    if kept * _LISTING_OVER_READING <= page_text and (  # else no run can
        not declared_article or kept < _LONG_READING
    ):
        column = _reading_and_above(main) if holds_the_prose else set()
        comments = holds_the_prose and takes_replies
        listing, linked = _largest_listing(body, metrics, names, declared_article, column, comments)
        if (
            listing >= _LISTING_SHARE * page_text
            and listing >= _LISTING_OVER_READING * kept
            and not (linked >= _LINKS_ONLY * listing and holds_the_prose and kept >= _A_STORY)
        ):
            return True
    if main == [body] or kept >= _LONG_READING or holds_the_prose:
        return False
    share = _PAGE_SHARE_OF_AN_ARTICLE if declared_article else _PAGE_SHARE
    if kept >= share * page_text:
        return False
    kept_unlinked = kept - sum(metrics.links(element) for element in main)
    return page_text - metrics.links(body) > _MORE_UNLINKED * kept_unlinked


def _prose(metrics: Metrics) -> dict[etree._Element, int]:
    """The paragraphs of the page that are mostly not link text (a link of a menu or a
    navigation tree is long enough to be a paragraph), with their lengths."""
    return {
        element: length
        for element, length, _ in metrics.paragraphs
        if element not in metrics.unlikely and metrics.link_density(element) < _MENU_LINKS
    }


def page_boilerplate(body: etree._Element, metrics: Metrics) -> set[etree._Element]:
    """What to drop when the whole page without its chrome is read: menus, the lists of
    short links (70% or more of their text linked, under 25 characters an item), and what
    is named like page furniture (``names_furniture``) unless it holds half of the page's text.
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
            element.tag not in KEPT_WHATEVER_NAMED
            and names_furniture(element)
            and metrics.text(element) < page_text / 2
        ):
            dropped.add(element)
    return dropped


_MENU_LINKS = 0.7


_MENU_ITEM = 25


def _reading_and_above(main: list[etree._Element]) -> set[etree._Element]:
    """The elements of the reading and their ancestors: a run's one item among them is the
    page's content column."""
    return {above for element in main for above in (element, *element.iterancestors())}


def _largest_listing(
    body: etree._Element,
    metrics: Metrics,
    names: Names,
    declared_article: bool,
    column: set[etree._Element],
    comments: bool = False,
) -> tuple[int, int]:
    """Characters of text and of link text in the page's largest run of similar siblings
    (not a layout table's rows, one of which holds half of their text), or 0 when that run
    is a menu (over 50% of its text linked, in links of under 25 characters on average).
    A run whose one item holds the reading (in ``column``: given when the reading holds
    the page's prose) is measured without it: that item is the page's content column, the
    others its top bar, header and sidebar, a layout, not a listing. With ``comments`` (the
    reading holds the prose and the page takes replies: it has a comment box), a run of
    items all named like comments is the post's comments, not a listing.
    A product's reviews are not a listing: they are its comments; nor, on a page that says
    it is an article, is what is named like boilerplate (its comments, related stories)."""
    best_text, best_items = 0, []
    walker = etree.iterwalk(body, events=("start",))
    for _, parent in walker:
        if parent is not body and (
            names.names_reviews(parent)
            or (
                declared_article
                and parent.tag not in KEPT_WHATEVER_NAMED
                and names.judge(parent).droppable
            )
        ):
            walker.skip_subtree()
            continue
        if len(parent) < _LISTING_ITEMS or metrics.text(parent) <= best_text:
            continue
        runs = sibling_runs(
            parent,
            lambda child: (
                bool(metrics.text(child))
                and not names.names_reviews(child)
                and not (declared_article and names.judge(child).droppable)
            ),
        )
        for items in runs:
            holding = [item for item in items if item in column]
            if len(holding) == 1:
                items = [item for item in items if item is not holding[0]]
            if comments and all(item in metrics.unlikely for item in items):
                continue
            if len(items) >= _LISTING_ITEMS:
                text = sum(metrics.text(item) for item in items)
                if text > best_text and not (
                    items[0].tag == "tr" and max(map(metrics.text, items)) > _ONE_ITEM * text
                ):
                    best_text, best_items = text, items
    links = sum(metrics.links(item) for item in best_items)
    if links > 0.5 * best_text:
        anchors = sum(1 for item in best_items for _ in item.iter("a"))
        if links < _MENU_LINK_TEXT * anchors:
            return 0, 0
    return best_text, links


def kept_text(main: list[etree._Element], dropped: set[etree._Element], metrics: Metrics) -> int:
    """Characters of text in ``main`` outside the dropped elements."""
    kept = sum(metrics.text(element) for element in main)
    for element in dropped:
        if not any(ancestor in dropped for ancestor in element.iterancestors()):
            kept -= metrics.text(element)
    return kept
