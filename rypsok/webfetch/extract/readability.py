"""Readability's scoring and the choice of the main-content block: text measures of the
page, paragraph scores, the top candidate moved up and widened, and its siblings."""

from __future__ import annotations

import re
from itertools import islice

from lxml import etree

from rypsok.webfetch.extract.document import BLOCK_TAGS, HEADINGS, holds_prose, text_of
from rypsok.webfetch.extract.names import NEVER_UNLIKELY, Names, names_furniture
from rypsok.webfetch.extract.teasers import teasers_after

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


class Metrics:
    """Per-element text measures of a subtree, in one walk (children end before parents).

    For each element: characters of text; characters inside ``<a>``; characters not inside
    a nested block element (its own paragraph text); characters of paragraphs within (of
    blocks with 25+ characters of their own), outside unlikely elements. Also: the
    paragraphs, with their length and commas; the elements with a block-level child; the
    unlikely elements (readability's unlikely candidates, by class or id, and what is
    inside them, unless they hold the article).
    """

    __slots__ = ("counts", "paragraphs", "has_block", "unlikely")

    def __init__(self, top: etree._Element, names: Names, holders: set) -> None:
        unlikely: set[etree._Element] = set()
        # (a loop, not the XPath .//*[@class or @id], which libxml2 takes quadratic time
        # over on some pages: 0.5 s for a 12,000-element source listing)
        for element in top.iterdescendants(etree.Element):
            if (
                element not in unlikely
                and names.judge(element).unlikely
                and element.tag not in NEVER_UNLIKELY
                and element not in holders
                and not (names.names_a_link_list(element) and holds_prose(element))
            ):
                unlikely.update(element.iter(etree.Element))
        counts: dict[etree._Element, list[int]] = {}
        paragraphs: list[tuple[etree._Element, int, int]] = []
        has_block: set[etree._Element] = set()
        block_tags = BLOCK_TAGS
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
    metrics: Metrics,
    names: Names,
    skip: set[etree._Element] | None = None,
    folded: set[etree._Element] | None = None,
) -> dict[etree._Element, float]:
    """Readability's scores: each paragraph of 25+ characters adds 1 + commas + length/100
    (at most 3) to its container, half to the next ancestor, less further up; a container
    starts from its tag's and class's weight and ends scaled by 1 - its link density.

    A paragraph is the text of a block element outside its nested blocks, so text written
    straight into a ``<div>`` between ``<br>`` counts as readability's wrapped paragraphs do.
    Paragraphs in ``skip`` (by default, the unlikely elements) are not scored, and those
    in ``folded`` score _FOLDED_WEIGHT of their due. The body's class and id do not
    weigh: they name the page's template (WordPress gives every post's body
    ``single-post``), not a block of it.
    """
    scores: dict[etree._Element, float] = {}
    has_block = metrics.has_block
    unlikely = metrics.unlikely if skip is None else skip
    for element, length, commas in metrics.paragraphs:
        if element in unlikely:
            continue
        score = 1 + commas + min(length // 100, 3)
        if folded and element in folded:
            score *= _FOLDED_WEIGHT
        ancestor = (
            element
            if element in has_block or element is body or _a_cell_of_text(element, length, metrics)
            else element.getparent()
        )
        level = 0
        while ancestor is not None and level < 5:
            if ancestor not in scores:
                scores[ancestor] = _TAG_WEIGHT.get(ancestor.tag, 0) + (
                    names.judge(ancestor).weight if ancestor is not body else 0
                )
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


def _a_cell_of_text(element: etree._Element, length: int, metrics: Metrics) -> bool:
    """Whether ``element`` is a table cell whose own text (lines between ``<br>``, in
    ``<b>`` and ``<i>``, no ``<p>``) is the page's text: _CELL_OF_TEXT characters or more
    and most of its row's. It is scored as a container, as a ``<div>`` of paragraphs is,
    not as a paragraph of its row: in an old table layout the row holds the menu's cell and
    the price-and-reviews cell beside it."""
    if element.tag != "td" or length < _CELL_OF_TEXT:
        return False
    row = element.getparent()
    return row is not None and length * 2 >= metrics.text(row)


_CELL_OF_TEXT = 200


# The weight of a paragraph in ``folded``: at full weight a closed glossary panel outranked
# a fees page's tables; at half, a category page whose visible text is its filters still
# gives its closed buying guide.
_FOLDED_WEIGHT = 0.5
_SENTENCE_END = re.compile(r"\.( |$)")


def main_content(
    body: etree._Element, names: Names, holders: set, folded: set[etree._Element]
) -> tuple[list[etree._Element], etree._Element, Metrics]:
    """The elements holding the main content, in document order, the top candidate (the
    core that cleaning must not remove), and the text measures of the page.

    Readability's choice: the best-scored candidate, moved up to an ancestor shared by close
    runners-up or scoring higher, then joined by the siblings that score well. Two
    additions: the candidate widens to an ancestor that adds mostly paragraph text, and a
    sibling counts with its best descendant's score (readability scores only five levels up
    from a paragraph, which deep layouts and documentation pages defeat).

    Paragraphs in ``folded`` (long ``aria-hidden`` text found nowhere else: a closed
    accordion panel, a carousel's other slides) score half: what a page shows outranks what
    it folds away, which wins only where the page shows little else."""
    metrics = Metrics(body, names, holders)
    scores = _paragraph_scores(body, metrics, names, folded=folded)
    if not scores or metrics.good(body) < _OWN_PARAGRAPHS:
        # The paragraphs are all inside unlikely elements but for a title or a line (a
        # forum thread under comment-like names, a Q&A page): those elements hold the
        # content, and cleaning keeps them; page furniture (a consent dialog) does not.
        furniture: set[etree._Element] = set()
        for element in body.iter(etree.Element):
            if element not in furniture and names_furniture(element):
                furniture.update(element.iter(etree.Element))
        scores = _paragraph_scores(body, metrics, names, skip=furniture, folded=folded)
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
    core = _under_its_longest_paragraph(max(scores, key=scores.__getitem__), scores, metrics)
    top = _widen(_promote(core, scores, body), metrics, body)
    while top is not body and top.getparent() is not body and len(top.getparent()) == 1:
        top = top.getparent()
    if top is body:
        return [body], core, metrics
    chosen = _with_siblings(top, scores[core], scores, metrics, names, body)
    return _with_sections_beside(chosen, metrics, names), core, metrics


def _with_sections_beside(
    chosen: list[etree._Element], metrics: Metrics, names: Names
) -> list[etree._Element]:
    """``chosen`` and, in document order, its other siblings that hold text, when each is a
    heading or a section of prose (a heading, _PROSE_SHARE of its text paragraphs, under
    _PROSE_LINKS linked, no boilerplate or unlikely name) and together they hold no more
    text than ``chosen``, itself a short reading: a small page of little chrome whose
    shorter sections scored too little to join its longest one. Else ``chosen`` alone
    (beside a long article, a box of the author's other stories or of a press contact has
    a heading and a paragraph too: trafilatura-eval lost 2 pages when long readings took
    them)."""
    parent = chosen[0].getparent()
    if parent is None:
        return chosen
    others = [
        sibling
        for sibling in parent
        if isinstance(sibling.tag, str) and sibling not in chosen and metrics.text(sibling)
    ]
    reading = sum(map(metrics.text, chosen))
    if not others or reading >= _SECTIONED_READING or sum(map(metrics.text, others)) > reading:
        return chosen
    for sibling in others:
        if sibling.tag in HEADINGS:
            continue
        text = metrics.text(sibling)
        judgement = names.judge(sibling)
        if (
            judgement.boilerplate
            or judgement.unlikely
            or sibling in metrics.unlikely
            or metrics.good(sibling) < _PROSE_SHARE * text
            or metrics.links(sibling) >= _PROSE_LINKS * text
            or not any(True for _ in islice(sibling.iter(*_SECTION_HEADINGS), 1))
        ):
            return chosen
    return sorted(chosen + others, key=parent.index)


_SECTION_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
_SECTIONED_READING = 3000  # a small page's longest section; a news story is longer


def _under_its_longest_paragraph(
    core: etree._Element, scores: dict[etree._Element, float], metrics: Metrics
) -> etree._Element:
    """``core``, unless one paragraph of prose outside it holds _PARAGRAPH_OVER_CORE times
    all of its text: then the scored container of that paragraph. On a small page a class
    name outweighs the paragraphs (readability's +25 for "page" or "text" on a cookie
    notice), and the main content is never shorter than a paragraph beside it."""
    if metrics.text(core) * _PARAGRAPH_OVER_CORE >= _LONGEST_SHORT_CORE:
        return core
    longest, length = None, metrics.text(core) * _PARAGRAPH_OVER_CORE
    for paragraph, own, _ in metrics.paragraphs:
        if (
            own > length
            and paragraph not in metrics.unlikely
            and metrics.link_density(paragraph) < _PROSE_LINKS
        ):
            longest, length = paragraph, own
    if longest is None or core in longest.iterancestors():
        return core
    for container in (longest, *longest.iterancestors()):
        if container in scores:
            return container
    return core


# A core is checked against the page's paragraphs only when twice its text is under this
# (a short block); a paragraph outside it replaces it when it holds twice its text.
_PARAGRAPH_OVER_CORE = 2
_LONGEST_SHORT_CORE = 1000


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


# The candidate does not widen to an ancestor whose added text is this much teasers.
_TEASERS_ADDED = 0.5


def _widen(top: etree._Element, metrics: Metrics, body: etree._Element) -> etree._Element:
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
            if (
                extra_text
                and teasers_after(ancestor, metrics, chosen) >= _TEASERS_ADDED * extra_text
            ):
                break
            chosen = ancestor
        elif extra_text - extra_good > 0.1 * text(chosen):
            break
    return chosen


def _with_siblings(
    top: etree._Element,
    core_score: float,
    scores: dict[etree._Element, float],
    metrics: Metrics,
    names: Names,
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


def with_adjacent_prose(
    chosen: list[etree._Element], metrics: Metrics, names: Names
) -> list[etree._Element]:
    """``chosen`` (siblings, in document order) and the siblings right before it (past
    siblings without text) that are prose: a standfirst above the article, an intro block
    of its own. Such a block scores too little to pass readability's floor on a small page.
    After it, only blocks of the chosen block's tag and class are taken (the next column):
    there, other prose is an author's bio, a rating widget or a newsletter's pitch as
    often as a closing paragraph."""
    parent = chosen[0].getparent()
    if parent is None:
        return chosen
    top = max(chosen, key=metrics.text)
    short = sum(metrics.text(element) for element in chosen) < _SHORT_READING
    before = []
    sibling = chosen[0].getprevious()
    while sibling is not None:
        if isinstance(sibling.tag, str) and metrics.text(sibling):
            if not _is_prose_block(sibling, top, metrics, names) or not (
                short or _is_plain_prose(sibling, metrics)
            ):
                break
            before.append(sibling)
        sibling = sibling.getprevious()
    after = []
    key = (top.tag, top.get("class"))
    sibling = chosen[-1].getnext()
    while sibling is not None and key[1] and short:
        if isinstance(sibling.tag, str) and metrics.text(sibling):
            if (sibling.tag, sibling.get("class")) != key or not _is_prose_block(
                sibling, top, metrics, names
            ):
                break
            after.append(sibling)
        sibling = sibling.getnext()
    return before[::-1] + chosen + after


# What a lede does not hold, and a byline, a caption or a box of key points does.
_NOT_IN_A_LEDE = ("a", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "img", "li", "time")


def _is_plain_prose(element: etree._Element, metrics: Metrics) -> bool:
    """Whether ``element`` is paragraphs of plain text only: a lede (a standfirst)."""
    return metrics.good(element) >= _LEDE_SHARE * metrics.text(element) and not any(
        True for _ in islice(element.iterdescendants(*_NOT_IN_A_LEDE), 1)
    )


_LEDE_SHARE = 0.9


def _is_prose_block(
    element: etree._Element, top: etree._Element, metrics: Metrics, names: Names
) -> bool:
    text = metrics.text(element)
    if not text or text > min(_PROSE_BLOCK, metrics.text(top)) or element in metrics.unlikely:
        return False
    judgement = names.judge(element)
    if judgement.boilerplate or judgement.unlikely:
        return False
    return (
        metrics.good(element) >= max(_PROSE_SHARE * text, _PROSE_LEAST)
        and metrics.link_density(element) < _PROSE_LINKS
    )


# A sibling next to the chosen content joins it when it holds at most this much text (and
# no more than the chosen block: a standfirst, not a second block), when this share
# of its text is paragraphs and under this share is linked.
_PROSE_BLOCK = 1000
_SHORT_READING = 1500  # only a reading shorter than this is joined by its prose siblings
_PROSE_SHARE = 0.7
_PROSE_LEAST = 80  # characters of paragraph text: a sentence or two, not a status line
_PROSE_LINKS = 0.1


def _is_prose(paragraph: etree._Element, metrics: Metrics) -> bool:
    length = metrics.text(paragraph)
    density = metrics.link_density(paragraph)
    if length > 80:
        return density < 0.25
    return length > 0 and density == 0 and bool(_SENTENCE_END.search(text_of(paragraph)))
