"""Inside the chosen content: what to leave out (boilerplate by name, readability's
conditional cleaning, a heading that repeats the title, a second copy of a block). Nothing
is removed from the tree: the sets say what the renderer skips."""

from __future__ import annotations

from itertools import islice

from lxml import etree

from rypsok.webfetch.extract.document import (
    BLOCK_TAGS,
    HEADINGS,
    document_order,
    holds_prose,
    repeats_title,
    text_of,
    within,
)
from rypsok.webfetch.extract.names import KEPT_WHATEVER_NAMED, Names, names_furniture
from rypsok.webfetch.extract.readability import Metrics

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
        block_tags = BLOCK_TAGS
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
            elif tag in HEADINGS:
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


_CONDITIONAL_TAGS = frozenset({"div", "section", "ul", "ol", "table", "form", "fieldset", "dl"})


def named_boilerplate(
    main: etree._Element,
    core: etree._Element,
    names: Names,
    holders: set,
    captions: set[etree._Element],
) -> set[etree._Element]:
    """The elements inside the main content named like boilerplate (comments, share bars,
    related links, captions...) and the figure captions of ``captions`` it holds. The core
    candidate and its ancestors stay whatever their names, and so does what holds the
    article."""
    dropped = {caption for caption in main.iterdescendants("figcaption") if caption in captions}
    protected = {core, *core.iterancestors()}
    for element in main.iterdescendants(etree.Element):
        judgement = names.judge(element)
        if not judgement.droppable:
            continue
        if element in protected or element in holders or element.tag in KEPT_WHATEVER_NAMED:
            continue
        if names.names_a_link_list(element) and holds_prose(element):
            continue
        if not any(True for _ in element.iterancestors("pre", "code")):
            dropped.add(element)
    return dropped


def figure_captions(main: list[etree._Element], metrics: Metrics) -> set[etree._Element]:
    """The ``<figcaption>`` elements of the main content: a photo's caption and credit
    beside an article's text. Unless they hold a third of its text or more: then the
    captions are what the page says (a gallery, a step-by-step in pictures, an intro above
    captioned photos), as a reader sees it."""
    captions = {caption for element in main for caption in element.iterdescendants("figcaption")}
    caption_text = sum(metrics.text(caption) for caption in captions)
    if caption_text and caption_text * _CAPTIONS_ARE_THE_TEXT >= sum(map(metrics.text, main)):
        return set()
    return captions


_CAPTIONS_ARE_THE_TEXT = 3


def without_a_thread(
    by_name: set[etree._Element], core: etree._Element, metrics: Metrics
) -> set[etree._Element]:
    """``by_name`` without the thread, when the top candidate holds one: boilerplate names
    (comments, replies) on elements inside the core that hold _THREAD times the text the
    rest of the core holds name its content, the posts of a forum thread whose opening post
    is short. Each such element holding a quarter of that named text or more is kept,
    names inside it and all, but for page furniture; a share bar beside the posts still
    goes. (An article's comments are beside its body, not inside the candidate its
    paragraphs chose.)"""
    inside = [
        element
        for element in by_name
        if any(ancestor is core for ancestor in element.iterancestors())
        and not any(ancestor in by_name for ancestor in element.iterancestors())
    ]
    named_text = sum(metrics.text(element) for element in inside)
    if not named_text or named_text < _THREAD * (metrics.text(core) - named_text):
        return by_name
    posts = {
        descendant
        for element in inside
        if metrics.text(element) * 4 >= named_text
        for descendant in element.iter(etree.Element)
    }
    return {element for element in by_name if element not in posts or names_furniture(element)}


_THREAD = 3


def clean_main(
    main: etree._Element,
    core: etree._Element,
    names: Names,
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
    return first is not None and first.tag in HEADINGS


def repeated_copies(
    main: list[etree._Element], metrics: Metrics, dropped: set[etree._Element]
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
            text = text_of(element)
            first = first_of.setdefault(text, element)
            if first is not element and _near(first, element):
                copies.add(element)
    return copies


def echoes(main: list[etree._Element], metrics: Metrics) -> set[etree._Element]:
    """All but the first of _ECHOES or more sibling elements that are all their parent
    holds and whose text is the same short phrase: a scrolling ticker repeats its call to
    action a hundred times so that its loop has no gap, a rating its star, a grid its
    "Loading" placeholder. Written once, the text is still there; a hundred times, it
    outweighs the page. A table's equal cells are its data, each in its column, and stay."""
    found: set[etree._Element] = set()
    text = metrics.text
    for top in main:
        for parent in top.iter(etree.Element):
            if len(parent) < _ECHOES or parent.tag in _TABLE_PARTS:
                continue
            if parent.text and parent.text.strip():
                continue
            first = parent[0]
            length = text(first)
            if not length or length > _ECHO_TEXT:
                continue
            if any(
                not isinstance(child.tag, str)
                or text(child) != length
                or (child.tail and child.tail.strip())
                for child in parent
            ):
                continue
            phrase = text_of(first)
            if all(text_of(child) == phrase for child in parent[1:]):
                found.update(parent[1:])
    return found


_ECHOES = 5
_ECHO_TEXT = 50  # a phrase; paragraphs repeated word for word are _repeated_copies' to judge
_TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr"})


def image_link_twins(main: list[etree._Element]) -> set[etree._Element]:
    """The links that hold only an image and whose target the next link repeats with text
    of its own: a card links its picture and its title to the same page, and the picture's
    description between the title, the price and the summary adds nothing."""
    twins: set[etree._Element] = set()
    for top in main:
        links = list(top.iter("a"))
        for link, after in zip(links, links[1:], strict=False):
            if next(link.iter("img"), None) is None:
                continue
            href = link.get("href")
            if not href or href != after.get("href") or "".join(link.itertext()).strip():
                continue
            if "".join(after.itertext()).strip():
                twins.add(link)
    return twins


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


def title_headings(main: list[etree._Element], title: str) -> set[etree._Element]:
    """The ``<h1>`` elements that repeat the page title (the headline, which is returned
    on its own)."""
    return {h1 for top in main for h1 in top.iter("h1") if repeats_title(text_of(h1), title)}


def _should_drop(element: etree._Element, stats: _Stats, names: Names) -> bool:
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


def after_the_text(
    main: list[etree._Element], dropped: set[etree._Element], metrics: Metrics
) -> set[etree._Element]:
    """The elements of ``dropped`` that are mostly links (_LINK_BOX) and come after the last
    paragraph of prose the reading keeps (_PROSE_END characters or more, under
    _PROSE_LINKS linked), when those paragraphs add up to an article (_AN_ARTICLE): the
    "more from", "most read" and "see also" boxes after an article's end."""
    order = document_order(main)
    last, prose = -1, 0
    for paragraph, length, _ in metrics.paragraphs:
        if (
            length >= _PROSE_END
            and paragraph in order
            and metrics.link_density(paragraph) < _PROSE_LINKS
            and not within(paragraph, dropped)
        ):
            prose += length
            last = max(last, order[paragraph])
    if prose < _AN_ARTICLE:
        return set()
    return {
        element
        for element in dropped
        if order.get(element, -1) > last and metrics.link_density(element) >= _LINK_BOX
    }


_PROSE_END = 80
_PROSE_LINKS = 0.25
_AN_ARTICLE = 1000
_LINK_BOX = 0.5
