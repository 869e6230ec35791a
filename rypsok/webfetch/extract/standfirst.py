"""The article's standfirst: the paragraph of prose between the headline and the chosen
content, which an article's header holds beside its body (docs/extraction.md, "The
standfirst")."""

from __future__ import annotations

from itertools import islice

from lxml import etree

from rypsok.webfetch.extract.document import repeats_title, text_of
from rypsok.webfetch.extract.names import Names
from rypsok.webfetch.extract.readability import Metrics

# A standfirst holds this many characters outside links (a byline, a date or a category
# line holds fewer), under this share of its text linked, and at most _MOST characters in
# all (a lede, not a second article).
_LEAST = 80
_LINKS = 0.1
_MOST = 1000
# The headline and the chosen content share an ancestor at most this many levels above the
# content: the article that holds both.
_NEAR = 4
# A caption sits beside its picture: a paragraph with one among its siblings is not a lede.
_PICTURES = ("img", "picture", "figure", "video")
# Without an <h1>, a heading of these that repeats the page's title is the headline.
_HEADLINES = ("h2", "h3")


def standfirst(
    main: list[etree._Element],
    metrics: Metrics,
    names: Names,
    dropped: set[etree._Element],
    title: str,
) -> list[etree._Element]:
    """The paragraphs (``<p>``, and an ``<h2>`` right after the headline: a subtitle) of
    prose, in document order, after the first ``<h1>``
    before ``main`` and before ``main`` itself, inside the nearest ancestor holding both
    (at most ``_NEAR`` levels above ``main``): not in ``main``, not unlikely, not beside a
    picture (a caption), not named, nor inside what is named, like boilerplate or with a
    negative weight (a caption, a byline, metadata), and not repeated by ``main``. Empty
    without such a headline: the headline is what says the block is the article's
    header."""
    first = main[0]
    container = first
    headline = None
    for _ in range(_NEAR):
        container = container.getparent()
        if container is None:
            return []
        headline = _headline_before(container, first, title)
        if headline is not None:
            break
    if headline is None:
        return []
    main_text = None
    found: list[etree._Element] = []
    total = 0
    after_headline = False
    for element in container.iter(etree.Element):
        if element is headline:
            after_headline = True
            continue
        if element is first:
            break
        if not after_headline or not (
            element.tag == "p" or (element.tag == "h2" and element.getprevious() is headline)
        ):
            continue
        if element in metrics.unlikely or any(a in dropped for a in element.iterancestors()):
            continue
        unlinked = metrics.text(element) - metrics.links(element)
        if (
            unlinked < _LEAST
            or metrics.link_density(element) >= _LINKS
            or _beside_a_picture(element, metrics)
            or _named_away(element, container, names)
        ):
            continue
        text = text_of(element)
        if main_text is None:
            main_text = " ".join(text_of(top) for top in main)
        if text[:100] in main_text:
            continue
        total += len(text)
        if total > _MOST:
            return []
        found.append(element)
    return found


def _named_away(element: etree._Element, container: etree._Element, names: Names) -> bool:
    while element is not None and element is not container:
        judgement = names.judge(element)
        if judgement.droppable or judgement.weight < 0:
            return True
        element = element.getparent()
    return False


def _beside_a_picture(paragraph: etree._Element, metrics: Metrics) -> bool:
    """Whether a sibling of ``paragraph`` is a picture, or holds one and no text."""
    parent = paragraph.getparent()
    if parent is None:
        return False
    for sibling in parent.iterchildren(etree.Element):
        if sibling.tag in _PICTURES or (
            not metrics.text(sibling) and any(True for _ in islice(sibling.iter(*_PICTURES), 1))
        ):
            return True
    return False


def _headline_before(
    container: etree._Element, first: etree._Element, title: str
) -> etree._Element | None:
    """The first ``<h1>`` in ``container`` before ``first`` in document order, else the
    first ``<h2>`` or ``<h3>`` there that repeats the page's title (a headline set one
    level down, or whose ``<h1>`` went with the chrome), if any."""
    by_title = None
    for element in container.iter("h1", "h2", "h3", first.tag):
        if element is first:
            break
        if any(a is first for a in element.iterancestors()):
            continue
        if element.tag == "h1":
            return element
        if (
            by_title is None
            and element.tag in _HEADLINES
            and repeats_title(text_of(element), title)
        ):
            by_title = element
    return by_title
