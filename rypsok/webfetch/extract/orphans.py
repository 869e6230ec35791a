"""Headings left alone: when everything a heading introduces was dropped (the links under
"Related posts", the teasers under "Mehr zum Thema", the comments under "3 Kommentare"),
the heading is what remains of a box a reader would not count as the article, in any
language. It goes too."""

from __future__ import annotations

from lxml import etree

from rypsok.webfetch.extract.document import HEADINGS, within

_CLIMB = 3  # levels a heading's box may wrap it alone ("<div class=head><h3>…</h3></div>")


def orphan_headings(
    main: list[etree._Element], dropped: set[etree._Element]
) -> set[etree._Element]:
    """The headings in ``main`` whose section kept nothing: the siblings after the heading
    (or after the box that holds only it), up to the next heading, hold no text the reading
    keeps, and at least one of them had text that was dropped."""
    orphans: set[etree._Element] = set()
    for top in main:
        for heading in top.iter(*HEADINGS):
            if within(heading, dropped) or not _text(heading, dropped):
                continue
            unit = heading
            for _ in range(_CLIMB):
                parent = unit.getparent()
                if (
                    parent is None
                    or parent is top
                    or _text(parent, dropped) != _text(heading, dropped)
                ):
                    break
                unit = parent
            if _introduces_nothing(unit, dropped):
                orphans.add(heading)
    return orphans


def _introduces_nothing(unit: etree._Element, dropped: set[etree._Element]) -> bool:
    """Whether the siblings after ``unit``, up to the next heading, keep no text and had
    some."""
    if unit.tail and unit.tail.strip():
        return False
    lost = False
    for sibling in unit.itersiblings(etree.Element):
        if sibling.tag in HEADINGS:
            break
        if _text(sibling, dropped) or (sibling.tail and sibling.tail.strip()):
            return False
        lost = lost or any(text.strip() for text in sibling.itertext())
    return lost


def _text(element: etree._Element, dropped: set[etree._Element]) -> int:
    """Characters of text in ``element`` outside the dropped elements (their tails stay)."""
    if element in dropped:
        return 0
    total = len((element.text or "").strip())
    walker = etree.iterwalk(element, events=("start",))
    for _, inner in walker:
        if inner is element:
            continue
        total += len((inner.tail or "").strip())
        if inner in dropped:
            walker.skip_subtree()
        else:
            total += len((inner.text or "").strip())
    return total
