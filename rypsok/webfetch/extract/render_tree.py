"""The chosen content copied from lxml's tree into the small tree the Markdown converter
walks: without the dropped elements (their tails stay), with only the attributes the
converter reads, and with each layout table (nested tables, one row or one column, blocks
in cells) copied as ``div``s, so that it renders as blocks. Code (``pre``, ``code``,
``kbd``, ``samp``, ``tt``) is copied as its text, all of it, dropped or not.

An element is an ``Element``: its ``name``, ``attrs`` (None when it has none of those
attributes), ``contents``, ``parent`` and ``index`` in its parent's contents, and what
markdownify's conversions read of a BeautifulSoup tag (``children``, ``get``, ``strings``,
``get_text``, ``descendants``). A run of text is a plain ``str`` in ``contents``, never
empty. A BeautifulSoup tree of the 30,000-paragraph page took 155 MiB at the render's
peak, and the garbage collector's passes over its objects a third of the render's time
(docs/extraction.md, "Big pages").
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from rypsok.webfetch.extract.document import BLOCK_TAGS

RAW = frozenset({"pre", "code", "kbd", "samp", "tt"})  # rendered from their text alone
# separates the classes of a pre and of its code elements in the pre's copy (the page's
# text holds no C0 control but TAB, LF, CR and FF: they are removed before parsing)
CLASSES = "\x04"
# The one attribute the converter reads of each element that has one: a link's target, an
# image's alternative text, a pre's classes (and its code's: see _code), an ordered list's
# start. Only these are copied.
_ATTRIBUTE_READ = {"a": "href", "img": "alt", "pre": "class", "ol": "start"}
_TABLE_PARTS = frozenset({"tbody", "thead", "tfoot", "tr", "td", "th"})
# what _copy treats apart from other elements: an element of any other name without
# children is copied as its name and text alone (most of a page of 100,000 list items)
_COPIED_APART = RAW | _TABLE_PARTS | _ATTRIBUTE_READ.keys() | {"table"}


class Element:
    __slots__ = ("name", "attrs", "contents", "parent", "index")

    def __init__(self, name: str, attrs: dict[str, str] | None, parent: Element | None) -> None:
        self.name = name
        self.attrs = attrs
        self.contents: list[Node] | tuple[Node, ...] = []
        self.parent = parent
        if parent is None:
            self.index = 0
        else:
            self.index = len(parent.contents)
            parent.contents.append(self)

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrs.get(key, default) if self.attrs else default

    @property
    def children(self) -> Iterator[Node]:
        return iter(self.contents)

    @property
    def descendants(self) -> Iterator[Node]:
        """Every node below, in document order."""
        stack = [iter(self.contents)]
        while stack:
            node = next(stack[-1], None)
            if node is None:
                stack.pop()
                continue
            yield node
            if node.__class__ is Element and node.contents:
                stack.append(iter(node.contents))

    @property
    def strings(self) -> Iterator[str]:
        for node in self.descendants:
            if node.__class__ is not Element:
                yield node

    def get_text(self) -> str:
        return "".join(self.strings)


Node = Element | str


def render_tree(element: etree._Element, dropped: set[etree._Element]) -> Element:
    """``element`` under a ``[document]`` root, the node the converter converts."""
    root = Element("[document]", None, None)
    _copy(root, element, element.tag, dropped, None)
    return root


def dismantle(root: Element) -> None:
    """Empty the contents of every element that holds elements: the tree holds no cycle
    then (a child's ``parent`` is the only way back), and is freed as soon as it is
    dropped, not at a later pass of the garbage collector (some 30 MiB for the
    30,000-paragraph page, while the page's Markdown is still being checked). Elements
    without elements in them are not visited: most of a big page."""
    stack = [root]
    while stack:
        node = stack.pop()
        contents = node.contents
        node.contents = ()
        for child in contents:
            if child.__class__ is Element and child.contents:
                stack.append(child)


def _is_layout(table: etree._Element, dropped: set) -> bool:
    """Whether a table is for layout: a data table has two rows, a row of two cells, no
    nested table and no block (other than ``p``) in a cell."""
    rows = [
        row
        for row in table.iter("tr")
        if next(row.iterancestors("table"), None) is table
        and not _dropped_below(row, table, dropped)
    ]
    if len(rows) < 2 or any(True for _ in table.iterdescendants("table")):
        return True
    cells = [
        [cell for cell in row if cell.tag in ("td", "th") and cell not in dropped] for row in rows
    ]
    if max(len(row) for row in cells) < 2:
        return True
    return any(
        child.tag in BLOCK_TAGS and child.tag != "p"
        for row in cells
        for cell in row
        for child in cell.iterdescendants(etree.Element)
    )


def _dropped_below(element: etree._Element, top: etree._Element, dropped: set) -> bool:
    if element in dropped:
        return True
    for ancestor in element.iterancestors():
        if ancestor is top:
            return False
        if ancestor in dropped:
            return True
    return False


def _text(parent: Element, pieces: list[str]) -> None:
    text = "".join(pieces)
    if text:
        parent.contents.append(text)


def _copy(
    parent: Element, element: etree._Element, tag: str, dropped: set, data: bool | None
) -> None:
    """``element`` (whose ``tag`` is read once, by the caller) and what it holds, but the
    dropped elements, into ``parent``. ``data`` says whether the nearest table is a data
    table (None: no table). The parts of a layout table, and table parts outside any table,
    are copied as ``div``s: containers, as rypsok reads them."""
    if tag == "table":
        data = not _is_layout(element, dropped)
        name = tag if data else "div"
    elif tag in _TABLE_PARTS:
        name = tag if data else "div"
    else:
        name = tag
    attributes = None
    read = _ATTRIBUTE_READ.get(tag)
    if read is not None:
        value = element.get(read)
        if value is not None:
            attributes = {read: value}
    node = Element(name, attributes, parent)
    if tag in RAW:
        _code(node, element)
        return
    contents = node.contents
    text = element.text
    pieces = [text] if text else []
    for child in element:
        child_tag = child.tag
        if child_tag.__class__ is str and child not in dropped:
            if pieces:
                text = "".join(pieces)
                if text:
                    contents.append(text)
                pieces = []
            if child_tag in _COPIED_APART or len(child):
                _copy(node, child, child_tag, dropped, data)
            else:
                text = child.text
                Element(child_tag, None, node).contents = (text,) if text else ()
        tail = child.tail
        if tail:
            pieces.append(tail)
    if pieces:
        text = "".join(pieces)
        if text:
            contents.append(text)
    node.contents = tuple(contents)  # a tuple takes less than a list grown by appends


def _code(node: Element, element: etree._Element) -> None:
    """Code as its text alone (all of it, dropped or not): a ``pre`` keeps its ``code``
    children, and the classes of the ``code`` inside it."""
    if element.tag != "pre":
        _text(node, ["".join(element.itertext())])
        return
    classes = [node.get("class") or ""]
    pieces = [element.text] if element.text else []
    for child in element:
        if child.tag == "code":
            _text(node, pieces)
            pieces = []
            _text(Element("code", None, node), ["".join(child.itertext())])
        elif isinstance(child.tag, str):
            pieces.append("".join(child.itertext()))
        if child.tail:
            pieces.append(child.tail)
    _text(node, pieces)
    classes += [code.get("class") or "" for code in element.iter("code")]
    node.attrs = {**(node.attrs or {}), "class": CLASSES.join(classes)}
