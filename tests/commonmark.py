"""What a CommonMark reader makes of rypsok's Markdown: its links, images, raw HTML and text.

markdown-it-py's ``commonmark`` preset is the reader. Its own safety filter (``validateLink``,
which drops ``javascript:`` and ``data:`` targets) is switched off: the question is what the
Markdown says, not what one renderer would let through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it import MarkdownIt

_READER = MarkdownIt("commonmark")
_READER.validateLink = lambda url: True  # type: ignore[method-assign]
# paragraph-like blocks whose end separates words
_BLOCK_ENDS = {"paragraph_close", "heading_close", "list_item_close", "blockquote_close"}


@dataclass
class Reading:
    links: list[str] = field(default_factory=list)  # link targets as the reader resolved them
    images: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)  # html_inline and html_block tokens
    text: str = ""  # what a reader sees: text, code, line breaks between blocks

    @property
    def words(self) -> list[str]:
        return self.text.split()


def read(markdown: str) -> Reading:
    reading = Reading()
    parts: list[str] = []
    for token in _READER.parse(markdown):
        if token.type == "html_block":
            reading.html.append(token.content)
        elif token.type in ("fence", "code_block"):
            parts.append(token.content + "\n")
        elif token.type in _BLOCK_ENDS or token.type == "hr":
            parts.append("\n")
        for child in token.children or ():
            if child.type == "link_open":
                reading.links.append(str(child.attrGet("href")))
            elif child.type == "image":
                reading.images.append(str(child.attrGet("src")))
                parts.append(child.content)
            elif child.type == "html_inline":
                reading.html.append(child.content)
            elif child.type in ("text", "code_inline"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append("\n")
    reading.text = "".join(parts)
    return reading


def only_http_links(reading: Reading) -> bool:
    return all(link.startswith(("http://", "https://")) for link in reading.links)
