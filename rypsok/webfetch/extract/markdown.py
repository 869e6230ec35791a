"""The Markdown renderer: markdownify, with rypsok's rules in one ``MarkdownConverter``
subclass (docs/extraction.md, "Markdown"): page text stays text (escaped), links only to
absolute http(s) URLs, images as their alternative text, once.

markdownify walks a BeautifulSoup tree and rypsok's tree is lxml's, so the chosen content is
first copied into a soup (soup.py).

Sentinels: the page's text can hold no C0 control other than TAB, LF, CR and FF (they are
removed before parsing: lxml refuses them), so ``\\x01``, ``\\x02`` and ``\\x03`` mark a table
cell's end, a table row's end and a table caption in the converter's strings, and ``\\x05``
is a line break inside a code block, kept from the blank-line clean-up at the end
(markdownify's joins leave three or four newlines after an empty block) and from the
splitting of blocks into lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bs4 import NavigableString, Tag
from lxml import etree
from markdownify import ATX, MarkdownConverter

from rypsok.webfetch.extract.commonmark import (
    LANGUAGE,
    LINE_START,
    code_span,
    collapse,
    escape,
    escape_line_start,
    markdown_url,
)
from rypsok.webfetch.extract.document import HEADINGS, resolve
from rypsok.webfetch.extract.soup import CLASSES, RAW, soup

_CONTAINERS = frozenset(
    {
        "address", "article", "aside", "body", "center", "details", "dialog", "div", "dl",
        "fieldset", "figure", "footer", "form", "header", "hgroup", "html", "main", "nav",
        "section", "tbody", "thead", "tfoot", "tr", "td", "th",
    }
)  # fmt: skip
_PARAGRAPHS = frozenset({"p", "dt", "dd", "figcaption", "summary", "caption", "legend"})
# Blocks that make a link a card (HTML lets <a> wrap flow content): it is rendered as its
# blocks, the link on the heading, instead of one line with "###" inside the link text.
_CARD_BLOCKS = frozenset(
    {
        "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "ul", "ol", "table", "section",
        "article", "header", "footer", "blockquote", "dl", "figure",
    }
)  # fmt: skip
# An "alternative text" that is an image's file name or address (IMG_3886.jpg, what some
# upload tools fill in) describes nothing.
_FILE_NAME = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$", re.IGNORECASE)
_CELL, _ROW, _CAPTION, _CODE_LINE = "\x01", "\x02", "\x03", "\x05"
_LISTS = frozenset({"ul", "ol", "menu"})
_BLOCKS = (
    _CONTAINERS | _PARAGRAPHS | set(HEADINGS) | _LISTS | {"li", "pre", "blockquote", "table", "hr"}
)
_MARKERS = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~"}
_SAME_MARKER = {
    tag: {t for t, m in _MARKERS.items() if m == marker} for tag, marker in _MARKERS.items()
}
_HEADING_LINE = re.compile(r"#{1,6} ")
_WORD = re.compile(r"\w")
_FLAT = re.compile(r"[ \n\x05]+")
_BLANK_LINES = re.compile(r"\n{3,}")
_NEWLINES = re.compile(r"\n{2,}")
_LINE_END_SPACES = re.compile(r" +(?=\n)")
_CAPTIONS = re.compile("\x03([^\x03]*)\x03")
_MARKS = re.compile("[\x01-\x03]")
# A ". " or ") " that follows a number starting a line in the fragment before (``<b>1</b>. x``).
_FRAGMENT_START = re.compile(r"[.)](?=\s|$)")


def render(
    elements: list[etree._Element], base: str, title: str, dropped: set[etree._Element]
) -> str:
    """Markdown of ``elements`` without the ``dropped`` ones, links resolved against
    ``base``; an image's alternative text is given once, and never when it is the title."""
    converter = Converter(base, title)
    return "\n\n".join(
        filter(
            None,
            (converter.render(element, dropped) for element in elements if element not in dropped),
        )
    )


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
            return node is None or node.name not in HEADINGS
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
        isinstance(node, Tag) and node.name in _CARD_BLOCKS for node in link.descendants
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


class Converter(MarkdownConverter):
    """markdownify with rypsok's rules: ATX headings, ``-`` bullets, text escaped as
    CommonMark text (``commonmark.escape``, line starts), absolute http(s) links only, image
    alternative text once and never the title, fenced code with a fence longer than any
    backtick run, pipe tables, whitespace collapsed as a browser does."""

    class Options(MarkdownConverter.DefaultOptions):
        heading_style = ATX
        autolinks = False
        escape_asterisks = False  # escape() does it all
        escape_underscores = False

    def __init__(self, base: str, title: str, **options: Any) -> None:
        super().__init__(**options)
        self.base = base
        self.seen_alt = {" ".join(title.split()).casefold()}
        self.urls: dict[str, str | None] = {}
        self.numbers: dict[int, int] = {}  # a list's id -> the number of its next item

    def render(self, element: etree._Element, dropped: set) -> str:
        self.numbers.clear()  # keyed by id(): a new soup may reuse the ids
        return self.process_tag(soup(element, dropped), set())

    # ---- markdownify's walk, two changes

    def process_element(self, node: Any, parent_tags: set[str] | None = None) -> str:
        if isinstance(node, NavigableString):
            return self.process_text(node, parent_tags)
        if node.name in RAW:  # their text is all they give: their children are not walked
            return self.get_conv_fn_cached(node.name)(node, "", parent_tags)
        return self.process_tag(node, parent_tags)

    def process_text(self, el: NavigableString, parent_tags: set[str] | None = None) -> str:
        parent = el.parent
        if parent is not None and parent.name in _LISTS:
            return ""  # text between a list's items is not rendered
        text = collapse(str(el))
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
        if LINE_START.match(rest):
            if _starts_a_line(el):
                return lead + escape_line_start(rest)
        elif _FRAGMENT_START.match(rest) and _ends_a_number_at_line_start(el):
            return lead + "\\" + rest
        return text

    def escape(self, text: str, parent_tags: Any = None) -> str:
        if not text:
            return ""
        return escape(text)

    def convert__document_(self, el: Any, text: str, parent_tags: set[str]) -> str:
        text = text.strip("\n ")
        if " \n" in text:  # no line ends in spaces
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
        for candidate in (el.get("class") or "").split(CLASSES):  # the pre's, then its codes'
            for token in candidate.split():
                if token.startswith(("language-", "lang-")):
                    language = token.split("-", 1)[1]
                    if not LANGUAGE.fullmatch(language):
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
            resolved = resolve(self.base, href)
            url = self.urls[href] = None if resolved is None else markdown_url(resolved)
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
        return code_span(el.get_text())

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
        setattr(Converter, f"convert_{_name}", Converter._block)
