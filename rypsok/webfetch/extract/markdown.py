"""The Markdown renderer: the chosen elements as CommonMark in which page text stays text
(escaped), links and images only to absolute http(s) URLs."""

from __future__ import annotations

import re
from itertools import islice

from lxml import etree

from rypsok.webfetch.extract.document import BLOCK_TAGS, HEADINGS, resolve

_WS = re.compile(r"[ \t\n\r\f]+")
_SPACES = re.compile(r" {2,}")
_WORD = re.compile(r"\w")
# Text is text: what would make emphasis or code (``*``, `` ` ``, ``_`` unless between two
# letters or digits, as in snake_case), a link, an image or a reference definition (``[``,
# ``]``), an autolink or raw HTML (``<``) or an entity (``&`` that reads as one) in CommonMark
# is backslash-escaped, and so is ``\``.
_ENTITY_AMPERSAND = r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{0,31};)"
_ESCAPE = re.compile(r"[*`\\\[\]<]|(?<![^\W_])_|_(?![^\W_])|" + _ENTITY_AMPERSAND)
# A line that would start a heading, a list, a quote, a setext underline or thematic break
# (a line of ``=`` or ``-``) or a ``~~~`` fence.
_LINE_START = re.compile(
    r"^(?:(#{1,6}(?=\s|$)|[-+*](?=\s|$)|>|=+ *$|-+ *$|~~~)|(\d{1,9})([.)])(?=\s|$))"
)
# A fence's info string: a language name, nothing that could end or break the fence line.
_LANGUAGE = re.compile(r"[\w+#.-]{1,40}")
# What cannot stand in a link destination as it is: spaces and controls, parentheses and
# angle brackets (percent-encoded), and ``\`` and an entity-like ``&`` (backslash-escaped).
_URL_UNSAFE = re.compile(r"[\x00-\x20\x7f()<>]")
_URL_ESCAPE = re.compile(r"\\|" + _ENTITY_AMPERSAND)
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~"}
_CONTAINERS = frozenset(
    {
        "address",
        "article",
        "aside",
        "body",
        "center",
        "details",
        "dialog",
        "div",
        "dl",
        "fieldset",
        "figure",
        "footer",
        "form",
        "header",
        "hgroup",
        "html",
        "main",
        "nav",
        "section",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "td",
        "th",
    }
)
_PARAGRAPHS = frozenset({"p", "dt", "dd", "figcaption", "summary", "caption", "legend"})
# Blocks that make a link a card (HTML lets <a> wrap flow content): it is rendered as its
# blocks, the link on the heading, instead of one line with "###" inside the link text.
_CARD_BLOCKS = (
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "ul", "ol", "table", "section", "article",
    "header", "footer", "blockquote", "dl", "figure",
)  # fmt: skip
_HEADING_LINE = re.compile(r"#{1,6} ")
# An "alternative text" that is an image's file name or address (IMG_3886.jpg, what some
# upload tools fill in) describes nothing.
_FILE_NAME = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$", re.IGNORECASE)


def _collapse(text: str) -> str:
    """Runs of ASCII whitespace as one space (plain ``in`` tests first: most text has none)."""
    if "\n" in text or "  " in text or "\t" in text or "\r" in text or "\f" in text:
        return _WS.sub(" ", text)
    return text


def _escape(text: str) -> str:
    # plain ``in`` tests first: most text has none of these, and eight of them take a third
    # of the time of one regex search
    if (
        "*" in text
        or "_" in text
        or "`" in text
        or "\\" in text
        or "[" in text
        or "]" in text
        or "<" in text
        or "&" in text
    ):
        return _ESCAPE.sub(r"\\\g<0>", text)
    return text


def _escape_line_start(paragraph: str) -> str:
    match = _LINE_START.match(paragraph)
    if not match:
        return paragraph
    if match.group(1):
        return "\\" + paragraph
    end = match.end(2)
    return paragraph[:end] + "\\" + paragraph[end:]


class _Writer:
    """Collects a sequence of Markdown blocks; inline text accumulates into the current one.

    Whitespace collapses as a browser collapses it (ASCII whitespace only: a no-break space
    stays). A ``<br>`` is a line break and two or more in a row end the paragraph."""

    __slots__ = ("blocks", "parts")

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.parts: list[str] = []

    def text(self, text: str) -> None:
        self.parts.append(_escape(_collapse(text)))

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        if not self.parts:
            return
        paragraph = "".join(self.parts)
        self.parts = []
        if "  " in paragraph:
            paragraph = _SPACES.sub(" ", paragraph)
        if "\n" not in paragraph:
            paragraph = paragraph.strip(" ")
            if paragraph:
                self.blocks.append(_escape_line_start(paragraph))
            return
        lines: list[str] = []
        for line in paragraph.split("\n"):
            line = line.strip(" ")
            if line:
                lines.append(_escape_line_start(line))
            elif lines:
                self.blocks.append("\n".join(lines))
                lines = []
        if lines:
            self.blocks.append("\n".join(lines))

    def block(self, block: str) -> None:
        self.flush()
        if block:
            self.blocks.append(block)


class Renderer:
    """Markdown for one page. An image's alternative text is given once: a repeat of an
    earlier one, or of the page title, adds nothing.

    Containers and plain inline elements are walked by ``_children`` itself, and the other
    elements' handlers call it directly, so the recursion is one or two Python frames per
    level of nesting (the depth bound keeps that far below the recursion limit)."""

    def __init__(self, base: str, title: str, dropped: set[etree._Element]) -> None:
        self.base = base
        self.dropped = dropped
        self.seen_alt = {" ".join(title.split()).casefold()}
        self.urls: dict[str, str | None] = {}  # href -> target as written in Markdown
        self.emphasis: list[str] = []
        self.handlers = {
            **dict.fromkeys(HEADINGS, self._heading),
            **dict.fromkeys(_EMPHASIS, self._emphasis),
            **dict.fromkeys(("code", "kbd", "samp", "tt"), self._code),
            **dict.fromkeys(("ul", "ol", "menu"), self._list),
            "a": self._link,
            "img": self._image,
            "br": self._break,
            "hr": self._rule,
            "pre": self._pre,
            "li": self._orphan_item,
            "blockquote": self._blockquote,
            "table": self._table,
        }

    def render(self, element: etree._Element) -> str:
        writer = _Writer()
        self._one(element, writer)
        writer.flush()
        return "\n\n".join(writer.blocks)

    def _one(self, element: etree._Element, writer: _Writer) -> None:
        """One element, without its tail (what ``_children`` does for each child)."""
        tag = element.tag
        if tag in _CONTAINERS or tag in _PARAGRAPHS:
            writer.flush()
            self._children(element, writer)
            writer.flush()
        else:
            handler = self.handlers.get(tag)
            if handler is None:
                self._children(element, writer)
            else:
                handler(element, writer)

    def _children(self, element: etree._Element, writer: _Writer) -> None:
        if element.text:
            writer.text(element.text)
        handlers = self.handlers
        dropped = self.dropped
        for child in element:
            tag = child.tag
            if isinstance(tag, str) and child not in dropped:  # _one, written out (a frame less)
                if tag in _CONTAINERS or tag in _PARAGRAPHS:
                    writer.flush()
                    self._children(child, writer)
                    writer.flush()
                else:
                    handler = handlers.get(tag)
                    if handler is None:
                        self._children(child, writer)
                    else:
                        handler(child, writer)
            if child.tail:
                writer.text(child.tail)

    def _inline(self, element: etree._Element) -> str:
        """The element's content on one line (blocks inside it joined by spaces), with
        the whitespace at its ends kept (one space at most)."""
        if not len(element):
            return _escape(_collapse(element.text or ""))
        writer = _Writer()
        self._children(element, writer)
        if not writer.blocks:
            text = "".join(writer.parts).replace("\n", " ")
            return _SPACES.sub(" ", text) if "  " in text else text
        writer.flush()
        return " ".join(" ".join(block.split("\n")) for block in writer.blocks)

    def _heading(self, element: etree._Element, writer: _Writer) -> None:
        text = self._inline(element).strip()
        if text:
            writer.block("#" * HEADINGS[element.tag] + " " + text)

    def _image(self, element: etree._Element, writer: _Writer) -> None:
        alt = " ".join((element.get("alt") or "").split())
        if alt and alt.casefold() not in self.seen_alt and not _FILE_NAME.search(alt):
            self.seen_alt.add(alt.casefold())
            writer.text(alt)

    def _break(self, element: etree._Element, writer: _Writer) -> None:
        writer.raw("\n")

    def _rule(self, element: etree._Element, writer: _Writer) -> None:
        writer.block("---")

    def _code(self, element: etree._Element, writer: _Writer) -> None:
        writer.raw(_code_span("".join(element.itertext())))

    def _blockquote(self, element: etree._Element, writer: _Writer) -> None:
        inner = _Writer()
        self._children(element, inner)
        inner.flush()
        text = "\n\n".join(inner.blocks)
        if text:
            writer.block("\n".join("> " + line if line else ">" for line in text.split("\n")))

    def _link(self, element: etree._Element, writer: _Writer) -> None:
        if len(element) and next(element.iterdescendants(*_CARD_BLOCKS), None) is not None:
            self._card_link(element, writer)
            return
        text = self._inline(element)
        stripped = text.strip(" ")
        if not stripped:
            writer.raw(text)
            return
        href = element.get("href") or ""
        if href.startswith("#") and not _WORD.search(stripped):
            return  # a heading's permalink mark (¶, §, #)
        url = self.urls.get(href, "")
        if url == "":
            resolved = resolve(self.base, href)
            url = self.urls[href] = None if resolved is None else _markdown_url(resolved)
        if url is None:
            writer.raw(text)
            return
        if not text.startswith(" ") and writer.parts and writer.parts[-1].endswith("!"):
            writer.parts[-1] = writer.parts[-1][:-1] + "\\!"  # "![" would make an image
        _wrap(writer, text, f"[{stripped}]({url})")

    def _card_link(self, element: etree._Element, writer: _Writer) -> None:
        """A link around blocks (a card: a heading and a summary) as those blocks, with the
        link on its heading, else on its first block when that is one line of text."""
        inner = _Writer()
        self._children(element, inner)
        inner.flush()
        blocks = inner.blocks
        if not blocks:
            return
        url = self.urls.get(element.get("href") or "", "")
        if url == "":
            href = element.get("href") or ""
            url = self.urls[href] = resolve(self.base, href)
        if url is not None:
            index = next((i for i, block in enumerate(blocks) if _HEADING_LINE.match(block)), 0)
            block = blocks[index]
            heading = _HEADING_LINE.match(block)
            prefix = heading.group(0) if heading else ""
            text = block[len(prefix) :]
            if "\n" not in text and "](" not in text:
                text = text.replace("[", "\\[").replace("]", "\\]")
                blocks[index] = f"{prefix}[{text}]({_markdown_url(url)})"
        for block in blocks:
            writer.block(block)

    def _emphasis(self, element: etree._Element, writer: _Writer) -> None:
        marker = _EMPHASIS[element.tag]
        if marker in self.emphasis:  # <b> inside <strong> adds nothing
            self._children(element, writer)
            return
        self.emphasis.append(marker)
        text = self._inline(element)
        self.emphasis.pop()
        stripped = text.strip(" ")
        if stripped:
            _wrap(writer, text, f"{marker}{stripped}{marker}")
        else:
            writer.raw(text)

    def _pre(self, element: etree._Element, writer: _Writer) -> None:
        blocks = [child for child in element if child.tag == "code"]
        if len(blocks) > 1:  # variants of one example (say, ESM and CommonJS), one per line
            code = "\n".join("".join(block.itertext()).strip("\n") for block in blocks)
        else:
            code = "".join(element.itertext()).strip("\n")
        if not code.strip():
            return
        fence = "```"
        while fence in code:
            fence += "`"
        language = ""
        for candidate in (element, *element.iter("code")):
            for token in (candidate.get("class") or "").split():
                if token.startswith(("language-", "lang-")):
                    language = token.split("-", 1)[1]
                    if not _LANGUAGE.fullmatch(language):
                        language = ""
                    break
            if language:
                break
        writer.block(f"{fence}{language}\n{code}\n{fence}")

    def _list(self, element: etree._Element, writer: _Writer) -> None:
        ordered = element.tag == "ol"
        number = 1
        if ordered:
            try:
                number = int(element.get("start") or 1)
            except ValueError:
                number = 1
        items = _Writer()
        for child in element:
            if child in self.dropped:
                continue
            if child.tag == "li":
                item = self._list_item(child, f"{number}. " if ordered else "- ")
                if item:
                    items.blocks.append(item)
                    number += 1
            elif isinstance(child.tag, str):  # stray content between items
                self._one(child, items)
                items.flush()
        items.flush()
        writer.block("\n".join(items.blocks))

    def _orphan_item(self, element: etree._Element, writer: _Writer) -> None:
        writer.block(self._list_item(element, "- "))

    def _list_item(self, element: etree._Element, marker: str) -> str:
        inner = _Writer()
        self._children(element, inner)
        inner.flush()
        if not inner.blocks:
            return ""
        indent = " " * len(marker)
        lines = "\n".join(inner.blocks).split("\n")
        return marker + lines[0] + "".join("\n" + indent + line for line in lines[1:])

    def _table(self, table: etree._Element, writer: _Writer) -> None:
        rows = [
            row
            for row in table.iter("tr")
            if next(row.iterancestors("table"), None) is table
            and not any(ancestor in self.dropped for ancestor in _up_to(row, table))
        ]
        cells_by_row = [
            [cell for cell in row if cell.tag in ("td", "th") and cell not in self.dropped]
            for row in rows
        ]
        is_layout = (
            not rows
            or any(True for _ in islice(table.iter("table"), 1, 2))
            or max(len(cells) for cells in cells_by_row) < 2
            or len(rows) < 2
        )
        if not is_layout:
            for cells in cells_by_row:
                for cell in cells:
                    if any(
                        child.tag in BLOCK_TAGS and child.tag != "p"
                        for child in cell.iter(etree.Element)
                        if child is not cell
                    ):
                        is_layout = True
                        break
                if is_layout:
                    break
        if is_layout:
            writer.flush()
            self._children(table, writer)
            writer.flush()
            return
        texts = [
            [self._inline(cell).strip().replace("|", "\\|") for cell in cells]
            for cells in cells_by_row
        ]
        texts = [row for row in texts if any(row)]
        if not texts:
            return
        width = max(len(row) for row in texts)
        lines = []
        for index, row in enumerate(texts):
            row = row + [""] * (width - len(row))
            lines.append("| " + " | ".join(row) + " |")
            if index == 0:
                lines.append("|" + " --- |" * width)
        caption = next(table.iter("caption"), None)
        if caption is not None:
            writer.block(self._inline(caption).strip())
        writer.block("\n".join(lines))


def _up_to(element: etree._Element, top: etree._Element) -> list[etree._Element]:
    """``element`` and its ancestors below ``top``."""
    lineage = [element]
    for ancestor in element.iterancestors():
        if ancestor is top:
            break
        lineage.append(ancestor)
    return lineage


def _wrap(writer: _Writer, text: str, markup: str) -> None:
    """Write ``markup`` (the marked-up, stripped ``text``) keeping the spaces around it."""
    if text.startswith(" "):
        writer.raw(" ")
    writer.raw(markup)
    if text.endswith(" "):
        writer.raw(" ")


def _code_span(code: str) -> str:
    code = code.replace("\n", " ")
    if not code.strip():
        return code
    fence = "`"
    while fence in code:
        fence += "`"
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


def _markdown_url(url: str) -> str:
    if _URL_UNSAFE.search(url):
        url = _URL_UNSAFE.sub(lambda unsafe: f"%{ord(unsafe.group()):02X}", url)
    if "\\" in url or "&" in url:
        url = _URL_ESCAPE.sub(r"\\\g<0>", url)
    return url
