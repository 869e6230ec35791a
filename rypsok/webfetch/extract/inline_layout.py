"""Where white space and line starts fall in Markdown (markdown.py's converter): which tags
are blocks, which trim white space, whether a node starts a line, how inline strings join and
how emphasis wraps text. Pure functions over render_tree.py's nodes."""

from __future__ import annotations

import re
from collections.abc import Callable

from rypsok.webfetch.extract.document import HEADINGS
from rypsok.webfetch.extract.render_tree import Element, Node

CONTAINERS = frozenset(
    {
        "address", "article", "aside", "body", "center", "details", "dialog", "div", "dl",
        "fieldset", "figure", "footer", "form", "header", "hgroup", "html", "main", "nav",
        "section", "tbody", "thead", "tfoot", "tr", "td", "th",
    }
)  # fmt: skip
PARAGRAPHS = frozenset({"p", "dt", "dd", "figcaption", "summary", "caption", "legend"})
# Blocks that make a link a card (HTML lets <a> wrap flow content): it is rendered as its
# blocks, the link on the heading, instead of one line with "###" inside the link text.
CARD_BLOCKS = frozenset(
    {
        "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "ul", "ol", "table", "section",
        "article", "header", "footer", "blockquote", "dl", "figure",
    }
)  # fmt: skip
# An "alternative text" that is an image's file name or address (IMG_3886.jpg, what some
# upload tools fill in) describes nothing.
CELL, ROW, CAPTION, CODE_LINE = "\x01", "\x02", "\x03", "\x05"
LISTS = frozenset({"ul", "ol", "menu"})
BLOCKS = (
    CONTAINERS | PARAGRAPHS | set(HEADINGS) | LISTS | {"li", "pre", "blockquote", "table", "hr"}
)
FLAT = re.compile(r"[ \n\x05]+")

# ---------------------------------------------------------------------------- line starts


def _may_be_empty(node: Node) -> bool:
    """Whether ``node`` may render nothing (no text but white space; an image's alternative
    text may be a repeat)."""
    if isinstance(node, str):
        return not node.strip(" \t\n\r\f")
    return not any(string.strip(" \t\n\r\f") for string in node.strings)


def starts_a_line(parent: Element, index: int) -> bool:
    """Whether the node at ``index`` in ``parent`` may be the first thing on a line:
    nothing but what may render empty before it since a block's start or a ``<br>``. (A
    heading's text follows its ``#``.)"""
    while True:
        siblings = parent.contents
        for before in reversed(siblings[:index]):
            if isinstance(before, Element) and (before.name == "br" or before.name in BLOCKS):
                return True
            if not _may_be_empty(before):
                return False
        if parent.name in BLOCKS or parent.name == "[document]":
            return parent.name not in HEADINGS
        if parent.parent is None:
            return True
        index, parent = parent.index, parent.parent


def ends_a_number_at_line_start(parent: Element, index: int) -> bool:
    """Whether the text before the node at ``index`` in ``parent`` is a number that starts
    a line (``<b>1</b>. x`` would be a list item)."""
    while True:
        siblings = parent.contents
        before = index - 1
        while before >= 0 and _may_be_empty(siblings[before]):
            before -= 1
        if before >= 0:
            node = siblings[before]
            text = node.get_text() if isinstance(node, Element) else node
            return text.strip(" ").isdigit() and starts_a_line(parent, before)
        if parent.name in BLOCKS or parent.parent is None:
            return False
        index, parent = parent.index, parent.parent


# ---------------------------------------------------------------------------- the walk

# What markdownify's walk reads of a node: its name. Blocks have the white space at their
# inner edges skipped (a heading is any name matching "h" and digits, as markdownify's
# ``re.match``), and pre the white space next to it too.
_TRIMMED_INSIDE = frozenset(
    {
        "p", "blockquote", "article", "div", "section", "ol", "ul", "li", "dl", "dt", "dd",
        "table", "thead", "tbody", "tfoot", "tr", "td", "th",
    }
)  # fmt: skip
_HEADING_NAME = re.compile(r"h(\d+)")


def trims_white_space_inside(name: str) -> bool:
    return name in _TRIMMED_INSIDE or _HEADING_NAME.match(name) is not None


def trims_white_space_outside(node: Node | None) -> bool:
    return isinstance(node, Element) and (node.name == "pre" or trims_white_space_inside(node.name))


def children_tags(parent_tags: frozenset[str], name: str) -> frozenset[str]:
    """What markdownify tells a node's children of their ancestors: the names, "_inline"
    in a heading or a table cell, "_noformat" in code."""
    tags = {*parent_tags, name}
    if name in ("td", "th") or _HEADING_NAME.match(name) is not None:
        tags.add("_inline")
    if name in ("pre", "code", "kbd", "samp"):
        tags.add("_noformat")
    return frozenset(tags)


def joined(strings: list[str]) -> str:
    """Children's strings joined, the newlines where two meet collapsed to the larger
    count, at most two (markdownify's join). ``strings`` is emptied as it is read, so
    that each string is freed once its part is taken."""
    parts: list[str] = []
    trailing = ""  # the newlines that end the string before, not yet written
    strings.reverse()
    while strings:
        string = strings.pop()
        if string[0] != "\n":
            leading, content = "", string
        else:
            content = string.lstrip("\n")
            leading = string[: len(string) - len(content)]
        if content and content[-1] == "\n":
            stripped = content.rstrip("\n")
            next_trailing = content[len(stripped) :]
            content = stripped
        else:
            next_trailing = ""
        if trailing and leading:
            leading = "\n" * min(2, max(len(trailing), len(leading)))
        elif trailing:
            parts.append(trailing)
        parts.append(leading)
        parts.append(content)
        trailing = next_trailing
    parts.append(trailing)
    return "".join(parts)


def before_white_space(siblings: list[Node], index: int) -> int:
    """``index``, or the one before when that is a text of spaces and newlines only."""
    if index >= 0 and isinstance(siblings[index], str) and not siblings[index].strip(" \n"):
        return index - 1
    return index


def is_br(node: Node) -> bool:
    return isinstance(node, Element) and node.name == "br"


# ---------------------------------------------------------------------------- the converter


def holds_a_block(link: Element) -> bool:
    """Whether a link wraps blocks (a card: HTML lets <a> wrap flow content)."""
    return any(isinstance(child, Element) for child in link.children) and any(
        isinstance(node, Element) and node.name in CARD_BLOCKS for node in link.descendants
    )


def flat(text: str) -> str:
    """Inline text on one line: blocks and breaks as single spaces."""
    return FLAT.sub(" ", text) if ("\n" in text or "  " in text or CODE_LINE in text) else text


def wrap(text: str, markup: Callable[[str], str]) -> str:
    """``markup`` around ``text`` stripped of its spaces, the spaces kept outside it."""
    stripped = text.strip(" ")
    if not stripped:
        return text
    return (
        (" " if text.startswith(" ") else "")
        + markup(stripped)
        + (" " if text.endswith(" ") else "")
    )
