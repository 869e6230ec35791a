"""A page that loads the next stories under its own (endless scrolling): each story is an
``<article>`` with its own headline, and the one the page is about is the one whose
headline repeats the page's title, not the longest (docs/extraction.md, "How the main
content is chosen")."""

from __future__ import annotations

from lxml import etree

from rypsok.webfetch.extract.document import repeats_title, text_of


def the_titled_article(
    core: etree._Element, title: str, body: etree._Element
) -> etree._Element | None:
    """The ``<article>`` beside the one holding the top candidate ``core`` (a sibling, or in
    a sibling of its box of the same tag and class) whose headline repeats the page's
    title, when the one holding ``core`` is headed by another headline (an ``<h1>`` or
    ``<h2>``): a page that loads the next stories under its own (endless scrolling) is the
    story its title names, not the longest of them. Sibling articles without headlines of
    their own are sections of one story, and are left to the usual choice."""
    if not title or core is body:
        return None
    article = core if core.tag == "article" else next(core.iterancestors("article"), None)
    if (
        article is None
        or next(article.iter("h1", "h2"), None) is None
        or _headed_by_title(article, title)
    ):
        return None
    box = article
    for _ in range(_BOX_LEVELS):
        parent = box.getparent()
        if parent is None or parent is body:
            return None
        titled = [
            candidate
            for sibling in parent.iterchildren(box.tag)
            if sibling is not box and sibling.get("class") == box.get("class")
            for candidate in sibling.iter("article")
            if _headed_by_title(candidate, title)
        ]
        if titled:
            return titled[0] if len(titled) == 1 else None
        box = parent
    return None


# An article's box of this many levels (the article, the block around it) is repeated for
# each story an endless page loads.
_BOX_LEVELS = 2


def _headed_by_title(article: etree._Element, title: str) -> bool:
    return any(repeats_title(text_of(heading), title) for heading in article.iter("h1", "h2"))
