"""The Markdown renderer: markdownify, with rypsok's rules in one ``MarkdownConverter``
subclass (docs/extraction.md, "Markdown"): page text stays text (escaped), links only to
absolute http(s) URLs, images as their alternative text, once.

markdownify walks a BeautifulSoup tree and rypsok's tree is lxml's, so the chosen content is
first copied into a small tree of its own (render_tree.py), and the converter walks it with
markdownify's walk (``process_tag``), written again here for those nodes.

Sentinels: the page's text can hold no C0 control other than TAB, LF, CR and FF (they are
removed before parsing: lxml refuses them), so ``\\x01``, ``\\x02`` and ``\\x03`` mark a table
cell's end, a table row's end and a table caption in the converter's strings, and ``\\x05``
is a line break inside a code block, kept from the blank-line clean-up at the end
(markdownify's joins leave three or four newlines after an empty block) and from the
splitting of blocks into lines.
"""

from __future__ import annotations

import re
from typing import Any

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
from rypsok.webfetch.extract.document import resolve
from rypsok.webfetch.extract.inline_layout import (
    BLOCKS,
    CAPTION,
    CELL,
    CODE_LINE,
    CONTAINERS,
    LISTS,
    PARAGRAPHS,
    ROW,
    before_white_space,
    children_tags,
    ends_a_number_at_line_start,
    flat,
    holds_a_block,
    is_br,
    joined,
    starts_a_line,
    trims_white_space_inside,
    trims_white_space_outside,
    wrap,
)
from rypsok.webfetch.extract.render_tree import (
    CLASSES,
    RAW,
    Element,
    dismantle,
    render_tree,
)

_FILE_NAME = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$", re.IGNORECASE)
_MARKERS = {"strong": "**", "b": "**", "em": "*", "i": "*", "del": "~~", "s": "~~"}
_SAME_MARKER = {
    tag: {t for t, m in _MARKERS.items() if m == marker} for tag, marker in _MARKERS.items()
}
_HEADING_LINE = re.compile(r"#{1,6} ")
_WORD = re.compile(r"\w")
_BLANK_LINES = re.compile(r"\n{3,}")
_NEWLINES = re.compile(r"\n{2,}")
_LINE_END_SPACES = re.compile(r" +(?=\n)")
_CAPTIONS = re.compile("\x03([^\x03]*)\x03")
_MARKS = re.compile("[\x01-\x03]")
# A ". " or ") " that follows a number starting a line in the fragment before (``<b>1</b>. x``).
_FRAGMENT_START = re.compile(r"[.)](?=\s|$)")
# What LINE_START or _FRAGMENT_START can start with, but a digit
_MAY_START_MARKUP = frozenset("#-+*>=~.)")


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
        # (the ancestors' names, a name) -> what the walk needs: the children's ancestors,
        # whether white space at the inner edges is skipped, the conversion
        self.how_to_walk: dict[tuple[frozenset[str], str], tuple[frozenset[str], bool, Any]] = {}

    def render(self, element: etree._Element, dropped: set) -> str:
        self.numbers.clear()  # keyed by id(): a new tree may reuse the ids
        tree = render_tree(element, dropped)
        try:
            return self.process_tag(tree, frozenset())
        finally:
            dismantle(tree)

    # ---- markdownify's walk, for render_tree's nodes, with two changes

    def process_tag(self, node: Element, parent_tags: frozenset[str] | None = None) -> str:
        """markdownify 1.2's ``process_tag``, the same output: white-space text at a block's
        inner edges or next to a block is skipped, the other children are converted, the
        newlines where two meet are collapsed to the larger count (at most two) unless in a
        ``pre``, and the node's own conversion is applied. Two changes: text between a
        list's items is not rendered (``process_text``), and code elements are converted
        from their text alone, their children not walked."""
        if parent_tags is None:
            parent_tags = frozenset()
        name = node.name
        how = self.how_to_walk.get((parent_tags, name))
        if how is None:
            how = self.how_to_walk[(parent_tags, name)] = (
                children_tags(parent_tags, name),
                trims_white_space_inside(name),
                self.get_conv_fn_cached(name),
            )
        tags_inside, trims_inside, convert = how
        if name in LISTS and convert is not None:
            items = self._plain_items(node)
            if items is not None:
                text = "\n" + "\n".join(items) + "\n" if items else ""
                return convert(node, text, parent_tags=parent_tags)
        strings = []
        newlines = False  # whether a string starts or ends with one
        contents = node.contents
        last = len(contents) - 1
        for index, child in enumerate(contents):
            if child.__class__ is Element:
                if child.name in RAW:
                    string = self.get_conv_fn_cached(child.name)(child, "", tags_inside)
                else:
                    string = self.process_tag(child, tags_inside)
            else:
                if not child.strip() and (
                    (trims_inside and (index == 0 or index == last))
                    or (index and trims_white_space_outside(contents[index - 1]))
                    or (index < last and trims_white_space_outside(contents[index + 1]))
                ):
                    continue
                string = self.render_text(node, index, tags_inside)
            if string:
                strings.append(string)
                if string[0] == "\n" or string[-1] == "\n":
                    newlines = True
        # the text is handed over in a list, so that only the conversion holds it, and the
        # children's strings are freed first: on a 5 MB page each is a copy of the page
        text = [joined(strings) if newlines and name != "pre" and "pre" not in parent_tags
                else "".join(strings)]  # fmt: skip
        del strings
        return text.pop() if convert is None else convert(node, text.pop(), parent_tags=parent_tags)

    def _plain_items(self, node: Element) -> list[str] | None:
        """The lines of a list whose items each hold one run of text or nothing (most of
        a page of 100,000 items), the same as the walk and ``convert_li`` make of it, its
        text between items not rendered; None for any other list, nothing numbered then."""
        texts = []
        for child in node.contents:
            if child.__class__ is not Element:
                continue
            contents = child.contents
            if child.name != "li" or len(contents) > 1:
                return None
            if not contents:
                continue
            text = contents[0]
            if text.__class__ is not str:
                return None
            if not text.strip():
                continue  # white space at a block's inner edge is skipped
            text = collapse(text).strip(" ")  # a block's edges, nothing before nor after
            if text:
                text = escape(text)
                if (text[0] in _MAY_START_MARKUP or text[0].isdigit()) and LINE_START.match(text):
                    text = escape_line_start(text)  # an item's text starts a line
                text = text.strip(" \n")
            if "\n" in text or CODE_LINE in text:
                return None
            if text:
                texts.append(text)
        if node.name != "ol" or not texts:
            return ["- " + text for text in texts]
        number = self.numbers.get(id(node))
        if number is None:
            try:
                number = int(node.get("start") or 1)
            except ValueError:
                number = 1
        self.numbers[id(node)] = number + len(texts)
        return [f"{number + offset}. {text}" for offset, text in enumerate(texts)]

    def render_text(self, parent: Element, index: int, parent_tags: frozenset[str]) -> str:
        """The text at ``index`` in ``parent`` (markdownify's ``process_text``)."""
        if parent.name in LISTS:
            return ""  # text between a list's items is not rendered
        siblings = parent.contents
        text = collapse(siblings[index])
        before = siblings[index - 1] if index else None
        after = siblings[index + 1] if index + 1 < len(siblings) else None
        if (before is None and parent.name in BLOCKS) or (
            isinstance(before, Element) and (before.name in BLOCKS or before.name == "br")
        ):
            text = text.lstrip(" ")
        if (after is None and parent.name in BLOCKS) or (
            isinstance(after, Element) and (after.name in BLOCKS or after.name == "br")
        ):
            text = text.rstrip(" ")
        if text:
            text = escape(text)
        if text.endswith("!") and isinstance(after, Element) and after.name == "a":
            text = text[:-1] + "\\!"  # "![" would make an image
        lead, rest = ("", text) if not text.startswith(" ") else (" ", text[1:])
        if not rest or (rest[0] not in _MAY_START_MARKUP and not rest[0].isdigit()):
            return text
        if LINE_START.match(rest):
            if starts_a_line(parent, index):
                return lead + escape_line_start(rest)
        elif _FRAGMENT_START.match(rest) and ends_a_number_at_line_start(parent, index):
            return lead + "\\" + rest
        return text

    def escape(self, text: str, parent_tags: Any = None) -> str:
        if not text:
            return ""
        return escape(text)

    def convert__document_(self, el: Any, text: str, parent_tags: frozenset[str]) -> str:
        text = text.strip("\n ")
        if " \n" in text:  # no line ends in spaces
            text = _LINE_END_SPACES.sub("", text)
        if "\n\n\n" in text:  # markdownify's joins leave them after an empty block
            text = _BLANK_LINES.sub("\n\n", text)
        if CELL in text or ROW in text or CAPTION in text:  # table parts out of place
            text = _MARKS.sub("", text)
        return text.replace(CODE_LINE, "\n")

    # ---- blocks

    def _block(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        if "_inline" in parent_tags:
            return " " + text.strip(" \n") + " "
        text = text.strip(" \n")
        return f"\n\n{text}\n\n" if text else "\n\n"  # an empty block still separates

    def convert_br(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        if "_inline" in parent_tags:
            return " "
        siblings = el.parent.contents if el.parent is not None else [el]
        before = before_white_space(siblings, el.index - 1)
        if before >= 0 and is_br(siblings[before]):
            earlier = before_white_space(siblings, before - 1)
            if earlier >= 0 and is_br(siblings[earlier]):
                return ""  # two breaks end the paragraph; more add nothing
        return "\n"

    def convert_hN(self, n: int, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        text = flat(text).strip()
        if "_inline" in parent_tags or n > 6:  # <h7> is no heading
            return text
        return f"\n\n{'#' * min(6, n)} {text}\n\n" if text else ""

    def convert_hr(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        return "\n\n---\n\n"

    def convert_blockquote(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        text = text.strip(" \n")
        if "_inline" in parent_tags:
            return " " + flat(text) + " "
        if not text:
            return ""
        if "\n\n\n" in text:
            text = _BLANK_LINES.sub("\n\n", text)
        lines = ("> " + line if line else ">" for line in text.split("\n"))
        return "\n\n" + "\n".join(lines).replace(CODE_LINE, CODE_LINE + "> ") + "\n\n"

    def convert_pre(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        blocks = [
            child for child in el.children if isinstance(child, Element) and child.name == "code"
        ]
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
        code = code.replace("\n", CODE_LINE)
        return f"\n\n{fence}{language}{CODE_LINE}{code}{CODE_LINE}{fence}\n\n"

    # ---- lists

    def convert_list(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        text = text.strip("\n")
        if not text:
            return "\n\n"
        return f"\n{text}\n" if "li" in parent_tags else f"\n\n{text}\n\n"

    convert_ul = convert_ol = convert_menu = convert_list

    def convert_li(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
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
        if "\n" not in text and CODE_LINE not in text:
            item = marker + text  # one line, the common item
        else:
            indent = " " * len(marker)
            if "\n\n" in text:  # an item's blocks go on lines of their own, without blank lines
                text = _NEWLINES.sub("\n", text)
            lines = text.replace(CODE_LINE, CODE_LINE + indent).split("\n")
            item = (
                marker
                + lines[0]
                + "".join("\n" + indent + line if line else "\n" for line in lines[1:])
            )
        if parent is None or parent.name not in LISTS:
            return f"\n\n{item}\n\n"  # an item outside a list is a block of its own
        return f"\n{item}\n"

    # ---- tables (only data tables: layout tables were copied as divs)

    def convert_td(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        return flat(text).strip(" ").replace("|", "\\|") + CELL

    convert_th = convert_td

    def convert_tr(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        return text.replace("\n", "") + ROW if CELL in text else ""

    def convert_table(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        caption = ""
        if CAPTION in text:  # the first caption is the table's (rypsok reads no other)
            caption = _CAPTIONS.search(text).group(1).strip(" ")  # type: ignore[union-attr]
            text = _CAPTIONS.sub("", text)
        rows = []
        for row in text.split(ROW)[:-1]:
            cells = [cell.strip(" \n") for cell in row.split(CELL)[:-1]]
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

    def convert_caption(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        if el.parent is not None and el.parent.name == "table" and CAPTION not in text:
            return CAPTION + flat(text).strip(" ") + CAPTION  # a data table's, set above it
        return self._block(el, text, parent_tags)

    # ---- inline

    def convert_a(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        href = el.get("href") or ""
        if holds_a_block(el):
            return self._card(href, text)
        text = flat(text)
        stripped = text.strip(" ")
        if not stripped:
            return text
        if href.startswith("#") and not _WORD.search(stripped):
            return ""  # a heading's permalink mark (¶, §, #)
        url = self._url(href)
        if url is None:
            return text
        return wrap(text, lambda inner: f"[{inner}]({url})")

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
            if "\n" not in inner and CODE_LINE not in inner and "](" not in inner:
                inner = inner.replace("[", "\\[").replace("]", "\\]")
                blocks[index] = f"{prefix}[{inner}]({url})"
        return "\n\n" + "\n\n".join(blocks) + "\n\n"

    def convert_img(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        alt = " ".join((el.get("alt") or "").split())
        if alt and alt.casefold() not in self.seen_alt and not _FILE_NAME.search(alt):
            self.seen_alt.add(alt.casefold())
            return self.escape(alt)
        return ""

    def _emphasis(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        if parent_tags & _SAME_MARKER[el.name]:  # <b> inside <strong> adds nothing
            return text
        marker = _MARKERS[el.name]
        return wrap(flat(text), lambda inner: f"{marker}{inner}{marker}")

    convert_b = convert_strong = convert_em = convert_i = convert_del = convert_s = _emphasis

    def convert_code(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        return code_span(el.get_text())

    convert_kbd = convert_samp = convert_tt = convert_code

    # ---- markdownify's other conversions, which rypsok does not make

    def convert_q(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        return text

    def convert_sub(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        return text

    convert_sup = convert_sub

    def convert_video(self, el: Element, text: str, parent_tags: frozenset[str]) -> str:
        return text


# p, div, dt, dd and the other containers and paragraphs are blocks of their text
for _name in CONTAINERS | PARAGRAPHS:
    if _name not in ("td", "th", "tr", "caption"):
        setattr(Converter, f"convert_{_name}", Converter._block)
