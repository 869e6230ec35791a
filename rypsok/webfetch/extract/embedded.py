"""Article text a page carries but does not render: HTML held as text (escaped in a
``<noscript>``, raw in a ``<textarea>``) and a schema.org article's JSON-LD ``articleBody``.
A script renders it from there; rypsok runs none, so it reads the sources themselves when
what the page renders holds next to nothing (docs/extraction.md, "Text a page carries but
does not render")."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from itertools import islice
from typing import NamedTuple

from lxml import etree

# Text reads as markup when it holds this many tags of HTML's block and phrasing elements:
# a notice or a sentence about "<p>" holds one or two.
_MARKUP_TAGS = 3
_TAG = re.compile(
    r"</?(?:a|article|b|blockquote|br|div|em|figure|h[1-6]|i|img|li|ol|p|section|span"
    r"|strong|table|td|tr|ul)(?:\s[^<>]{0,1000})?/?>",
    re.IGNORECASE,
)
# At most this many sources of each kind are read, the longest first.
_MAX_SOURCES = 3
# JSON-LD: at most this many scripts, each at most this long, and this many values walked
# in one (a graph of a few dozen entities; a hostile one is cut, not followed).
_MAX_SCRIPTS = 16
_MAX_SCRIPT_CHARS = 2_000_000
_MAX_JSON_VALUES = 10_000
_ARTICLE_TYPE = re.compile(r"(?:\w*Article|BlogPosting|Report|LiveBlogPosting|SocialMediaPosting)")


class Source(NamedTuple):
    text: str
    markup: bool  # HTML to read through the pipeline; else plain text, one paragraph a line


def reads_as_markup(text: str) -> bool:
    """Whether ``text`` holds HTML tags rather than words (escaped HTML read as text)."""
    return sum(1 for _ in islice(_TAG.finditer(text), _MARKUP_TAGS)) >= _MARKUP_TAGS


class Carried(NamedTuple):
    held: list[str]  # the text of the <noscript> and <textarea> elements holding only text
    json_ld: list[str]  # the JSON-LD scripts that name an articleBody


def carried(root: etree._Element) -> Carried:
    """What the unpruned page carries that may be its article (one walk in C; nothing is
    read yet)."""
    held: list[str] = []
    json_ld: list[str] = []
    for element in root.iter("noscript", "textarea", "script"):
        if element.tag != "script":
            if len(element) == 0 and element.text:
                held.append(element.text)
        elif (
            len(json_ld) < _MAX_SCRIPTS
            and (element.get("type") or "").strip().lower() == "application/ld+json"
            and (text := element.text)
            and "articleBody" in text
        ):
            json_ld.append(text)
    return Carried(held, json_ld)


def sources(page: Carried) -> list[Source]:
    """The page's carried article sources: the held texts that read as markup, then the
    ``articleBody`` of the JSON-LD articles, each kind longest first."""
    held = sorted((text for text in page.held if reads_as_markup(text)), key=len, reverse=True)
    bodies = sorted(
        (body for script in page.json_ld for body in _article_bodies(script)),
        key=len,
        reverse=True,
    )
    return [Source(text, True) for text in held[:_MAX_SOURCES]] + [
        Source(text, reads_as_markup(text)) for text in bodies[:_MAX_SOURCES]
    ]


def _article_bodies(script: str) -> list[str]:
    if len(script) > _MAX_SCRIPT_CHARS:
        return []
    try:
        data = json.loads(script)
    except (ValueError, RecursionError):
        return []
    return _bodies_in(data)


def _bodies_in(data: object) -> list[str]:
    """The ``articleBody`` strings of the objects typed as articles in ``data``, walked
    breadth first up to ``_MAX_JSON_VALUES`` values."""
    bodies: list[str] = []
    queue = [data]
    for value in islice(_walk(queue), _MAX_JSON_VALUES):
        if isinstance(value, dict):
            body = value.get("articleBody")
            if isinstance(body, str) and body.strip() and _typed_as_article(value.get("@type")):
                bodies.append(body)
    return bodies


def _walk(queue: list[object]) -> Iterator[object]:
    index = 0
    while index < len(queue):
        value = queue[index]
        index += 1
        yield value
        if isinstance(value, dict):
            queue.extend(value.values())
        elif isinstance(value, list):
            queue.extend(value)


def _typed_as_article(kind: object) -> bool:
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(name, str) and _ARTICLE_TYPE.fullmatch(name) for name in kinds)


def as_html(source: Source) -> str:
    """The source as HTML for the bounded parse: markup as it is, plain text as one
    ``<p>`` per non-empty line."""
    if source.markup:
        return source.text
    return "".join(
        f"<p>{html.escape(line.strip(), quote=False)}</p>"
        for line in source.text.splitlines()
        if line.strip()
    )
