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
    autolinks: list[str] = field(default_factory=list)  # those of them written as <autolink>
    images: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)  # code spans and blocks, as the reader reads them
    html: list[str] = field(default_factory=list)  # html_inline and html_block tokens
    definitions: list[str] = field(default_factory=list)  # link reference definitions' targets
    text: str = ""  # what a reader sees: text, code, line breaks between blocks

    @property
    def words(self) -> list[str]:
        return self.text.split()


def read(markdown: str) -> Reading:
    reading = Reading()
    parts: list[str] = []
    env: dict = {}
    tokens = _READER.parse(markdown, env)
    reading.definitions = [str(ref["href"]) for ref in env.get("references", {}).values()]
    for token in tokens:
        if token.type == "html_block":
            reading.html.append(token.content)
        elif token.type in ("fence", "code_block"):
            parts.append(token.content + "\n")
            reading.code.append(token.content)
        elif token.type in _BLOCK_ENDS or token.type == "hr":
            parts.append("\n")
        for child in token.children or ():
            if child.type == "link_open":
                reading.links.append(str(child.attrGet("href")))
                if child.markup == "autolink":
                    reading.autolinks.append(reading.links[-1])
            elif child.type == "image":
                reading.images.append(str(child.attrGet("src")))
                parts.append(child.content)
            elif child.type == "html_inline":
                reading.html.append(child.content)
            elif child.type in ("text", "code_inline"):
                parts.append(child.content)
                if child.type == "code_inline":
                    reading.code.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append("\n")
    reading.text = "".join(parts)
    return reading


def only_http_links(reading: Reading) -> bool:
    return all(link.lower().startswith(("http://", "https://")) for link in reading.links)


def only_http_autolinks(reading: Reading) -> bool:
    return reading.links == reading.autolinks and only_http_links(reading)
