"""rypsok's Markdown rules carried by one markdownify ``MarkdownConverter`` subclass.

The candidate of issue 10, item 2, measured against rypsok's own renderer by the
``rypsok-markdownify`` row of ``bench/extraction.py``. ``render(elements, base, title,
dropped)`` is a drop-in for the extractor's render step; ``use_in_rypsok()`` swaps it in.

markdownify walks a BeautifulSoup tree, and rypsok's tree is lxml's, so the chosen content is
first copied into a soup (``_soup``), without the dropped elements (their tails stay, as
rypsok keeps them). The copy also does what markdownify cannot see from one element: a
layout table (nested tables, one row or one column, blocks in cells) is copied as ``div``s,
so that markdownify renders it as blocks, as rypsok does; only the attributes the converter
reads are copied.

The rules (docs/extraction.md, "Markdown") are rypsok's; the helpers that state them
(escaping, link resolution, link targets, code spans) are rypsok's own, imported.

Sentinels: the page's text can hold no C0 control other than TAB, LF, CR and FF (rypsok
removes them before parsing: lxml refuses them), so ``\\x01``, ``\\x02`` and ``\\x03`` mark a
table cell's end, a table row's end and a table caption in the converter's strings, and
``\\x04`` separates the classes of a ``pre`` and of its ``code`` elements. ``\\x05`` is a line
break inside a code block, kept from the blank-line clean-up at the end (markdownify's
joins leave three or four newlines after an empty block) and from the splitting of blocks
into lines.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from typing import Any

from bs4 import NavigableString, Tag
from lxml import etree
from markdownify import ATX, MarkdownConverter


def _rypsok(*names: str) -> Any:
    """One of rypsok's Markdown helpers, wherever (and by whichever name) the extractor
    package keeps it."""
    for module in (
        "rypsok.webfetch.extract.markdown",
        "rypsok.webfetch.extract.document",
        "rypsok.webfetch.extract",
    ):
        try:
            found = importlib.import_module(module)
        except ImportError:
            continue
        for name in names:
            if hasattr(found, name):
                return getattr(found, name)
    raise ImportError(f"rypsok's {names[0]} not found")


_escape: Callable[[str], str] = _rypsok("_escape")
_collapse: Callable[[str], str] = _rypsok("_collapse")
_markdown_url: Callable[[str], str] = _rypsok("_markdown_url")
_code_span: Callable[[str], str] = _rypsok("_code_span")
_resolve: Callable[[str, str], str | None] = _rypsok("_resolve", "resolve")
_LINE_START: re.Pattern[str] = _rypsok("_LINE_START")
_LANGUAGE: re.Pattern[str] = _rypsok("_LANGUAGE")
_FILE_NAME: re.Pattern[str] = _rypsok("_FILE_NAME")
_BLOCK_TAGS: frozenset[str] = _rypsok("_BLOCK_TAGS", "BLOCK_TAGS")
_CONTAINERS: frozenset[str] = _rypsok("_CONTAINERS")
_PARAGRAPHS: frozenset[str] = _rypsok("_PARAGRAPHS")
_CARD_SET = frozenset(_rypsok("_CARD_BLOCKS"))

_CELL, _ROW, _CAPTION, _CLASSES, _CODE_LINE = "\x01", "\x02", "\x03", "\x04", "\x05"
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_LISTS = frozenset({"ul", "ol", "menu"})
_RAW = frozenset({"pre", "code", "kbd", "samp", "tt"})  # rendered from their text alone
_BLOCKS = (
    _CONTAINERS | _PARAGRAPHS | _HEADINGS | _LISTS | {"li", "pre", "blockquote", "table", "hr"}
)
_MARKERS = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~"}
_SAME_MARKER = {
    tag: {t for t, m in _MARKERS.items() if m == marker} for tag, marker in _MARKERS.items()
}
_ATTRIBUTES = ("href", "alt", "class", "start")
_HEADING_LINE = re.compile(r"#{1,6} ")
_WORD = re.compile(r"\w")
_FLAT = re.compile(r"[ \n\x05]+")
_BLANK_LINES = re.compile(r"\n{3,}")
_NEWLINES = re.compile(r"\n{2,}")
_LINE_END_SPACES = re.compile(r" +(?=\n)")
_CAPTIONS = re.compile("\x03([^\x03]*)\x03")
_MARKS = re.compile("[\x01-\x04]")
# A ". " or ") " that follows a number starting a line in the fragment before (``<b>1</b>. x``).
_FRAGMENT_START = re.compile(r"[.)](?=\s|$)")


def render(elements: list[etree._Element], base: str, title: str, dropped: set) -> str:
    converter = RypsokConverter(base=base, title=title)
    return "\n\n".join(
        filter(
            None,
            (converter.render(element, dropped) for element in elements if element not in dropped),
        )
    )


def use_in_rypsok() -> None:
    """Make rypsok's extractor render with ``render`` (for the benchmark and the tests)."""
    render_holder().set(render)


class _Holder:
    """The name by which rypsok's pipeline calls its render step, in the module it reads it
    from: ``own`` is rypsok's renderer, ``set`` puts another in its place, ``captured``
    gives the arguments of each render call that ``call`` makes."""

    def __init__(self, names: dict[str, Any], name: str) -> None:
        self.names, self.name = names, name
        self.own: Callable[..., str] = names[name]

    def set(self, render_function: Callable[..., str]) -> None:
        self.names[self.name] = render_function

    def captured(self, call: Callable[[], object]) -> list[tuple]:
        calls: list[tuple] = []
        before = self.names[self.name]

        def capture(*args: Any) -> str:
            calls.append(args)
            return before(*args)

        self.set(capture)
        try:
            call()
        finally:
            self.set(before)
        return calls


@functools.cache
def render_holder() -> _Holder:
    from rypsok.webfetch import extract

    content = getattr(extract, "_content", None) or _rypsok("_content")
    names = content.__globals__
    for name in ("_render", "render", "render_markdown"):
        if name in names:
            return _Holder(names, name)
    raise RuntimeError("no render function next to _content")


# ---------------------------------------------------------------------------- lxml -> soup


def _is_layout(table: etree._Element, dropped: set) -> bool:
    """rypsok's rule: a table is data when it has two rows, a row of two cells, no nested
    table and no block (other than ``p``) in a cell."""
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
        child.tag in _BLOCK_TAGS and child.tag != "p"
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


_TABLE_PARTS = frozenset({"tbody", "thead", "tfoot", "tr", "td", "th"})


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


def _soup(element: etree._Element, dropped: set) -> Tag:
    """A soup of ``element``: a ``[document]`` tag, the root markdownify converts.

    Built as bs4's tree builders build it (each node linked to its parent, its previous
    sibling and the node before it), without a BeautifulSoup parser or tree builder: they
    cost twice as much for the same tree."""
    root = _Tag(None, None, "[document]")
    _Copier().copy(root, element, dropped, None)
    return root


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
        if tag in _RAW:
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
        """Code as its text alone (all of it, dropped or not, as rypsok renders it): a
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
        node["class"] = _CLASSES.join(classes)


# ---------------------------------------------------------------------------- line starts


def _may_be_empty(node: Any) -> bool:
    """Whether ``node`` may render nothing (no text but white space; an image's alternative
    text may be a repeat)."""
    if isinstance(node, NavigableString):
        return not node.strip(" \t\n\r\f")
    return not any(string.strip(" \t\n\r\f") for string in node.strings)


def _starts_a_line(node: Any) -> bool:
    """Whether ``node`` may be the first thing on a line: nothing but what may render empty
    before it since a block's start or a ``<br>``. (A heading's text follows its ``#``.)"""
    while node is not None:
        before = node.previous_sibling
        while before is not None:
            if isinstance(before, Tag) and (before.name == "br" or before.name in _BLOCKS):
                return True
            if not _may_be_empty(before):
                return False
            before = before.previous_sibling
        node = node.parent
        if node is None or node.name in _BLOCKS or node.name == "[document]":
            return node is None or node.name not in _HEADINGS
    return True


def _ends_a_number_at_line_start(node: Any) -> bool:
    """Whether the text before ``node`` is a number that starts a line (``<b>1</b>. x``
    would be a list item)."""
    while node is not None:
        before = node.previous_sibling
        while before is not None and _may_be_empty(before):
            before = before.previous_sibling
        if before is not None:
            text = before.get_text() if isinstance(before, Tag) else str(before)
            return text.strip(" ").isdigit() and _starts_a_line(before)
        node = node.parent
        if node is None or node.name in _BLOCKS:
            return False
    return False


# ---------------------------------------------------------------------------- the converter


def _holds_a_block(link: Tag) -> bool:
    """Whether a link wraps blocks (a card: HTML lets <a> wrap flow content)."""
    return any(isinstance(child, Tag) for child in link.children) and any(
        isinstance(node, Tag) and node.name in _CARD_SET for node in link.descendants
    )


def _flat(text: str) -> str:
    """Inline text on one line: blocks and breaks as single spaces."""
    return _FLAT.sub(" ", text) if ("\n" in text or "  " in text or _CODE_LINE in text) else text


def _wrap(text: str, markup: Callable[[str], str]) -> str:
    """``markup`` around ``text`` stripped of its spaces, the spaces kept outside it."""
    stripped = text.strip(" ")
    if not stripped:
        return text
    return (
        (" " if text.startswith(" ") else "")
        + markup(stripped)
        + (" " if text.endswith(" ") else "")
    )


class RypsokConverter(MarkdownConverter):
    """markdownify with rypsok's rules: ATX headings, ``-`` bullets, text escaped as
    CommonMark text (``_escape`` and line starts), absolute http(s) links only, image
    alternative text once and never the title, fenced code with a fence longer than any
    backtick run, pipe tables, whitespace collapsed as a browser does."""

    class Options(MarkdownConverter.DefaultOptions):
        heading_style = ATX
        autolinks = False
        escape_asterisks = False  # _escape does it all
        escape_underscores = False

    def __init__(self, base: str, title: str, **options: Any) -> None:
        super().__init__(**options)
        self.base = base
        self.seen_alt = {" ".join(title.split()).casefold()}
        self.urls: dict[str, str | None] = {}
        self.numbers: dict[int, int] = {}  # a list's id -> the number of its next item

    def render(self, element: etree._Element, dropped: set) -> str:
        self.numbers.clear()  # keyed by id(): a new soup may reuse the ids
        return self.process_tag(_soup(element, dropped), set())

    # ---- markdownify's walk, two changes

    def process_element(self, node: Any, parent_tags: set[str] | None = None) -> str:
        if isinstance(node, NavigableString):
            return self.process_text(node, parent_tags)
        if node.name in _RAW:  # their text is all they give: their children are not walked
            return self.get_conv_fn_cached(node.name)(node, "", parent_tags)
        return self.process_tag(node, parent_tags)

    def process_text(self, el: NavigableString, parent_tags: set[str] | None = None) -> str:
        parent = el.parent
        if parent is not None and parent.name in _LISTS:
            return ""  # text between a list's items is not rendered
        text = _collapse(str(el))
        before, after = el.previous_sibling, el.next_sibling
        if (before is None and parent is not None and parent.name in _BLOCKS) or (
            isinstance(before, Tag) and (before.name in _BLOCKS or before.name == "br")
        ):
            text = text.lstrip(" ")
        if (after is None and parent is not None and parent.name in _BLOCKS) or (
            isinstance(after, Tag) and (after.name in _BLOCKS or after.name == "br")
        ):
            text = text.rstrip(" ")
        text = self.escape(text, parent_tags)
        if text.endswith("!") and isinstance(after, Tag) and after.name == "a":
            text = text[:-1] + "\\!"  # "![" would make an image
        lead, rest = ("", text) if not text.startswith(" ") else (" ", text[1:])
        match = _LINE_START.match(rest)
        if match:
            if _starts_a_line(el):
                if match.group(1):
                    return lead + "\\" + rest
                end = match.end(2)
                return lead + rest[:end] + "\\" + rest[end:]
        elif _FRAGMENT_START.match(rest) and _ends_a_number_at_line_start(el):
            return lead + "\\" + rest
        return text

    def escape(self, text: str, parent_tags: Any = None) -> str:
        if not text:
            return ""
        return _escape(text)

    def convert__document_(self, el: Any, text: str, parent_tags: set[str]) -> str:
        text = text.strip("\n ")
        if " \n" in text:  # lines end without spaces, as rypsok strips them
            text = _LINE_END_SPACES.sub("", text)
        if "\n\n\n" in text:  # markdownify's joins leave them after an empty block
            text = _BLANK_LINES.sub("\n\n", text)
        if _CELL in text or _ROW in text or _CAPTION in text:  # table parts out of place
            text = _MARKS.sub("", text)
        return text.replace(_CODE_LINE, "\n")

    # ---- blocks

    def _block(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "_inline" in parent_tags:
            return " " + text.strip(" \n") + " "
        text = text.strip(" \n")
        return f"\n\n{text}\n\n" if text else "\n\n"  # an empty block still separates

    def convert_br(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "_inline" in parent_tags:
            return " "
        before = el.previous_sibling
        if isinstance(before, NavigableString) and not before.strip(" \n"):
            before = before.previous_sibling
        if isinstance(before, Tag) and before.name == "br":
            earlier = before.previous_sibling
            if isinstance(earlier, NavigableString) and not earlier.strip(" \n"):
                earlier = earlier.previous_sibling
            if isinstance(earlier, Tag) and earlier.name == "br":
                return ""  # two breaks end the paragraph; more add nothing
        return "\n"

    def convert_hN(self, n: int, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = _flat(text).strip()
        if "_inline" in parent_tags or n > 6:  # <h7> is no heading
            return text
        return f"\n\n{'#' * min(6, n)} {text}\n\n" if text else ""

    def convert_hr(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return "\n\n---\n\n"

    def convert_blockquote(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \n")
        if "_inline" in parent_tags:
            return " " + _flat(text) + " "
        if not text:
            return ""
        if "\n\n\n" in text:
            text = _BLANK_LINES.sub("\n\n", text)
        lines = ("> " + line if line else ">" for line in text.split("\n"))
        return "\n\n" + "\n".join(lines).replace(_CODE_LINE, _CODE_LINE + "> ") + "\n\n"

    def convert_pre(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        blocks = [child for child in el.children if isinstance(child, Tag) and child.name == "code"]
        if len(blocks) > 1:  # variants of one example, one per line
            code = "\n".join(block.get_text().strip("\n") for block in blocks)
        else:
            code = el.get_text().strip("\n")
        if not code.strip():
            return ""
        fence = "```"
        while fence in code:
            fence += "`"
        language = ""
        for candidate in (el.get("class") or "").split(_CLASSES):  # the pre's, then its codes'
            for token in candidate.split():
                if token.startswith(("language-", "lang-")):
                    language = token.split("-", 1)[1]
                    if not _LANGUAGE.fullmatch(language):
                        language = ""
                    break
            if language:
                break
        code = code.replace("\n", _CODE_LINE)
        return f"\n\n{fence}{language}{_CODE_LINE}{code}{_CODE_LINE}{fence}\n\n"

    # ---- lists

    def convert_list(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip("\n")
        if not text:
            return "\n\n"
        return f"\n{text}\n" if "li" in parent_tags else f"\n\n{text}\n\n"

    convert_ul = convert_ol = convert_menu = convert_list

    def convert_li(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \n")
        parent = el.parent
        if not text:
            return ""
        if parent is not None and parent.name == "ol":
            number = self.numbers.get(id(parent))
            if number is None:
                try:
                    number = int(parent.get("start") or 1)
                except ValueError:
                    number = 1
            self.numbers[id(parent)] = number + 1
            marker = f"{number}. "
        else:
            marker = "- "
        indent = " " * len(marker)
        if "\n\n" in text:  # an item's blocks go on lines of their own, without blank lines
            text = _NEWLINES.sub("\n", text)
        lines = text.replace(_CODE_LINE, _CODE_LINE + indent).split("\n")
        item = (
            marker
            + lines[0]
            + "".join("\n" + indent + line if line else "\n" for line in lines[1:])
        )
        if parent is None or parent.name not in _LISTS:
            return f"\n\n{item}\n\n"  # an item outside a list is a block of its own
        return f"\n{item}\n"

    # ---- tables (only data tables: layout tables were copied as divs)

    def convert_td(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return _flat(text).strip(" ").replace("|", "\\|") + _CELL

    convert_th = convert_td

    def convert_tr(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text.replace("\n", "") + _ROW if _CELL in text else ""

    def convert_table(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        caption = ""
        if _CAPTION in text:  # the first caption is the table's (rypsok reads no other)
            caption = _CAPTIONS.search(text).group(1).strip(" ")  # type: ignore[union-attr]
            text = _CAPTIONS.sub("", text)
        rows = []
        for row in text.split(_ROW)[:-1]:
            cells = [cell.strip(" \n") for cell in row.split(_CELL)[:-1]]
            if any(cells):
                rows.append(cells)
        if not rows:
            return ""
        width = max(len(row) for row in rows)
        lines = []
        for index, row in enumerate(rows):
            row = row + [""] * (width - len(row))
            lines.append("| " + " | ".join(row) + " |")
            if index == 0:
                lines.append("|" + " --- |" * width)
        table = "\n".join(lines)
        return f"\n\n{caption}\n\n{table}\n\n" if caption else f"\n\n{table}\n\n"

    def convert_caption(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if el.parent is not None and el.parent.name == "table" and _CAPTION not in text:
            return _CAPTION + _flat(text).strip(" ") + _CAPTION  # a data table's, set above it
        return self._block(el, text, parent_tags)

    # ---- inline

    def convert_a(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        href = el.get("href") or ""
        if _holds_a_block(el):
            return self._card(href, text)
        text = _flat(text)
        stripped = text.strip(" ")
        if not stripped:
            return text
        if href.startswith("#") and not _WORD.search(stripped):
            return ""  # a heading's permalink mark (¶, §, #)
        url = self._url(href)
        if url is None:
            return text
        return _wrap(text, lambda inner: f"[{inner}]({url})")

    def _url(self, href: str) -> str | None:
        url = self.urls.get(href, "")
        if url == "":
            resolved = _resolve(self.base, href)
            url = self.urls[href] = None if resolved is None else _markdown_url(resolved)
        return url

    def _card(self, href: str, text: str) -> str:
        """A link around blocks: the blocks, the link on the heading, else on the first
        block when that is one line."""
        blocks = [block.strip(" \n") for block in text.split("\n\n")]
        blocks = [block for block in blocks if block]
        if not blocks:
            return ""
        url = self._url(href)
        if url is not None:
            index = next((i for i, block in enumerate(blocks) if _HEADING_LINE.match(block)), 0)
            heading = _HEADING_LINE.match(blocks[index])
            prefix = heading.group(0) if heading else ""
            inner = blocks[index][len(prefix) :]
            if "\n" not in inner and _CODE_LINE not in inner and "](" not in inner:
                inner = inner.replace("[", "\\[").replace("]", "\\]")
                blocks[index] = f"{prefix}[{inner}]({url})"
        return "\n\n" + "\n\n".join(blocks) + "\n\n"

    def convert_img(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        alt = " ".join((el.get("alt") or "").split())
        if alt and alt.casefold() not in self.seen_alt and not _FILE_NAME.search(alt):
            self.seen_alt.add(alt.casefold())
            return self.escape(alt)
        return ""

    def _emphasis(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if parent_tags & _SAME_MARKER[el.name]:  # <b> inside <strong> adds nothing
            return text
        marker = _MARKERS[el.name]
        return _wrap(_flat(text), lambda inner: f"{marker}{inner}{marker}")

    convert_b = convert_strong = convert_em = convert_i = convert_del = convert_s = _emphasis

    def convert_code(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return _code_span(el.get_text())

    convert_kbd = convert_samp = convert_tt = convert_code

    # ---- markdownify's other conversions, which rypsok does not make

    def convert_q(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text

    def convert_sub(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text

    convert_sup = convert_sub

    def convert_video(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text


# p, div, dt, dd and the other containers and paragraphs are blocks of their text
for _name in _CONTAINERS | _PARAGRAPHS:
    if _name not in ("td", "th", "tr", "caption"):
        setattr(RypsokConverter, f"convert_{_name}", RypsokConverter._block)
