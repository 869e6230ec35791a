"""Teasers: runs of similar sibling cards (a link to another page and a short text), the
"more on this", "related posts" and "latest news" lists set around an article. A reader
sees them as a list of other pages; their summaries are prose, so text density alone takes
them for more of the article."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from lxml import etree

from rypsok.webfetch.extract.document import document_order, sibling_runs


class Metrics(Protocol):
    """What teasers read of readability's measures: an element's characters of text. (A
    protocol, so that readability, which calls in here, is not imported back.)"""

    def text(self, element: etree._Element) -> int: ...


_TEASERS = 4  # cards in a run at least
_TEASER_TEXT = 600  # characters a card holds at most: a title and a summary, not a section
_MOSTLY = 0.8  # the share of a run's items that must be cards


def teasers_after(top: etree._Element, metrics: Metrics, chosen: etree._Element) -> int:
    """Characters of text in the runs of teasers inside ``top`` that come after ``chosen``
    ends."""
    order = document_order([top])
    end = max(order[element] for element in chosen.iter(etree.Element))
    return sum(
        metrics.text(item)
        for run in _teaser_runs(top, metrics, {chosen})
        if order[run[0]] > end
        for item in run
    )


def _teaser_runs(
    top: etree._Element, metrics: Metrics, skip: set[etree._Element]
) -> Iterator[list[etree._Element]]:
    """The runs of teasers inside ``top``, outside ``skip``: at least _TEASERS siblings of
    one tag and first class, most of them (_MOSTLY) cards (``_is_teaser``)."""
    counted: set[etree._Element] = set()
    walker = etree.iterwalk(top, events=("start",))
    for _, parent in walker:
        if parent in skip or parent in counted:
            walker.skip_subtree()
            continue
        if len(parent) < _TEASERS:
            continue
        runs = sibling_runs(parent, lambda child: child not in skip and bool(metrics.text(child)))
        for items in runs:
            if len(items) < _TEASERS:
                continue
            if sum(_is_teaser(item, metrics) for item in items) >= _MOSTLY * len(items):
                counted.update(items)
                yield items


def _is_teaser(item: etree._Element, metrics: Metrics) -> bool:
    """Whether ``item`` is a card: at most _TEASER_TEXT characters, whose title (its first
    text) is a link to another page."""
    if metrics.text(item) > _TEASER_TEXT:
        return False
    for element in item.iter(etree.Element):
        if element.text and element.text.strip():
            link = next(element.iterancestors("a"), None) if element.tag != "a" else element
            if link is None:
                return False
            href = link.get("href")
            return bool(href) and not href.startswith("#")
    return False
