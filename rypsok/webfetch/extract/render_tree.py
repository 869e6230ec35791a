"""The chosen content copied from lxml's tree into a BeautifulSoup tree, which markdownify
walks: without the dropped elements (their tails stay), with only the attributes the
converter reads, and with each layout table (nested tables, one row or one column, blocks
in cells) copied as ``div``s, so that it renders as blocks. Code (``pre``, ``code``,
``kbd``, ``samp``, ``tt``) is copied as its text, all of it, dropped or not."""

from __future__ import annotations

from typing import Any

from bs4 import NavigableString, Tag
from lxml import etree

from rypsok.webfetch.extract.document import BLOCK_TAGS

RAW = frozenset({"pre", "code", "kbd", "samp", "tt"})  # rendered from their text alone
# separates the classes of a pre and of its code elements in the pre's copy (the page's
# text holds no C0 control but TAB, LF, CR and FF: they are removed before parsing)
CLASSES = "\x04"
_ATTRIBUTES = ("href", "alt", "class", "start")
_TABLE_PARTS = frozenset({"tbody", "thead", "tfoot", "tr", "td", "th"})


def soup(element: etree._Element, dropped: set[etree._Element]) -> Tag:
    """``element`` as a ``[document]`` tag, the root markdownify converts.

    Built as bs4's tree builders build it (each node linked to its parent, its previous
    sibling and the node before it), without a BeautifulSoup parser or tree builder: they
    cost twice as much for the same tree."""
    root = _Tag(None, None, "[document]")
    _Copier().copy(root, element, dropped, None)
    return root


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


class _Tag(Tag):
    """A Tag whose ``find_parent("pre")``, which markdownify asks of every element it walks,
    is a plain walk up (bs4's own goes through its filter machinery: a third of the time)."""

    def find_parent(self, name: Any = None, attrs: Any = None, **kwargs: Any) -> Any:
        if isinstance(name, str) and not attrs and not kwargs:
            parent = self.parent
            while parent is not None and parent.name != name:
                parent = parent.parent
            return parent
        return super().find_parent(name, attrs or {}, **kwargs)


class _Copier:
    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: Any = None  # the node made last, in document order

    def text(self, parent: Tag, pieces: list[str]) -> None:
        text = "".join(pieces)
        if text:
            string = NavigableString(text)
            string.setup(parent, self.last)
            parent.contents.append(string)
            self.last = string

    def copy(self, parent: Tag, element: etree._Element, dropped: set, data: bool | None) -> None:
        """``element`` and what it holds, but the dropped elements, into ``parent``. ``data``
        says whether the nearest table is a data table (None: no table). The parts of a
        layout table, and table parts outside any table, are copied as ``div``s: containers,
        as rypsok reads them."""
        tag = element.tag
        if tag == "table":
            data = not _is_layout(element, dropped)
            name = tag if data else "div"
        elif tag in _TABLE_PARTS:
            name = tag if data else "div"
        else:
            name = tag
        attributes = {key: element.get(key) for key in _ATTRIBUTES if element.get(key) is not None}
        node = _Tag(None, None, name, attrs=attributes or None, parent=parent, previous=self.last)
        parent.contents.append(node)
        self.last = node
        if tag in RAW:
            self.code(node, element)
            return
        pieces = [element.text] if element.text else []
        for child in element:
            if isinstance(child.tag, str) and child not in dropped:
                self.text(node, pieces)
                pieces = []
                self.copy(node, child, dropped, data)
            if child.tail:
                pieces.append(child.tail)
        self.text(node, pieces)

    def code(self, node: Tag, element: etree._Element) -> None:
        """Code as its text alone (all of it, dropped or not): a
        ``pre`` keeps its ``code`` children, and the classes of the ``code`` inside it."""
        if element.tag != "pre":
            self.text(node, ["".join(element.itertext())])
            return
        classes = [node.get("class") or ""]
        pieces = [element.text] if element.text else []
        for child in element:
            if child.tag == "code":
                self.text(node, pieces)
                pieces = []
                code = _Tag(None, None, "code", parent=node, previous=self.last)
                node.contents.append(code)
                self.last = code
                self.text(code, ["".join(child.itertext())])
            elif isinstance(child.tag, str):
                pieces.append("".join(child.itertext()))
            if child.tail:
                pieces.append(child.tail)
        self.text(node, pieces)
        classes += [code.get("class") or "" for code in element.iter("code")]
        node["class"] = CLASSES.join(classes)
