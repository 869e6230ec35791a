"""Article text a page carries but does not render: HTML held as text (escaped in a
``<noscript>``, raw in a ``<textarea>``), a schema.org article's JSON-LD ``articleBody``,
and the HTML held in the strings of a script's data (JSON-LD, a JSON script such as
``__NEXT_DATA__``, or an object a script assigns: ``window.__DATA__ = {…}``).
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
    data: list[str]  # the scripts of data (JSON, or assigning an object) that hold a tag


def carried(root: etree._Element) -> Carried:
    """What the unpruned page carries that may be its article (one walk in C; nothing is
    read yet)."""
    held: list[str] = []
    json_ld: list[str] = []
    data: list[str] = []
    data_chars = 0
    for element in root.iter("noscript", "textarea", "script"):
        if element.tag != "script":
            if len(element) == 0 and element.text:
                held.append(element.text)
            continue
        text = element.text
        if not text:
            continue
        kind = (element.get("type") or "").strip().lower()
        if len(json_ld) < _MAX_SCRIPTS and kind == "application/ld+json" and "articleBody" in text:
            json_ld.append(text)
        if (
            len(data) < _MAX_SCRIPTS
            and data_chars + len(text) <= _MAX_SCRIPT_CHARS
            and kind in _DATA_TYPES
            and _HOLDS_A_TAG.search(text)
        ):
            data.append(text)
            data_chars += len(text)
    return Carried(held, json_ld, data)


def sources(page: Carried) -> list[Source]:
    """The page's carried article sources: the held texts that read as markup, then the
    ``articleBody`` of the JSON-LD articles, each kind longest first."""
    held = sorted((text for text in page.held if reads_as_markup(text)), key=len, reverse=True)
    bodies = sorted(
        (body for script in page.json_ld for body in _article_bodies(script)),
        key=len,
        reverse=True,
    )
    in_data = sorted(
        (markup for script in page.data if (markup := _markup_in_data(script))),
        key=len,
        reverse=True,
    )
    return (
        [Source(text, True) for text in held[:_MAX_SOURCES]]
        + [_body_source(text) for text in bodies[:_MAX_SOURCES]]
        + [Source(text, True) for text in in_data[:_MAX_SOURCES]]
    )


def _body_source(text: str) -> Source:
    """An ``articleBody`` as a source: markup, markup escaped as entities, or plain text."""
    if reads_as_markup(text):
        return Source(text, True)
    unescaped = _unescaped_markup(text)
    return Source(unescaped, True) if unescaped else Source(text, False)


def _unescaped_markup(text: str) -> str | None:
    """``text`` with its entities decoded, if it holds markup escaped as entities
    (``&lt;p&gt;``) and reads as markup then."""
    if "&lt;" not in text:
        return None
    unescaped = html.unescape(text)
    return unescaped if reads_as_markup(unescaped) else None


# Scripts read for the data they hold: JSON, JSON-LD, and plain scripts (no type, or a
# JavaScript one) that assign an object or a list.
_DATA_TYPES = frozenset(
    {"", "application/json", "application/ld+json", "text/javascript", "application/javascript"}
)
# A tag, raw or as a JSON or HTML escape: a script holding none holds no markup.
_HOLDS_A_TAG = re.compile(r"(?:<|\\u003c|&lt;)(?:p|div|h[1-6]|br)\b", re.IGNORECASE)
# Where an object or a list starts in a script: the whole text, or after an "=" or a "(".
_VALUE_START = re.compile(r"[=(]\s*(?=[\[{])")
# At most this many places tried in one plain script: the data scripts of a page hold at
# most _MAX_SCRIPT_CHARS together, so a hostile page costs a few reads of that at C speed.
_MAX_ASSIGNMENTS = 8


def _markup_in_data(script: str) -> str:
    """The strings of the script's data that read as markup (raw, or escaped as entities),
    in the order the data holds them, joined: the HTML fragments a script renders (an
    article's body, a how-to's steps). Empty when there are none."""
    if len(script) > _MAX_SCRIPT_CHARS:
        return ""
    fragments: list[str] = []
    for value in _values_in(script):
        for text in islice(_strings_in(value), _MAX_JSON_VALUES):
            if reads_as_markup(text):
                fragments.append(text)
            elif unescaped := _unescaped_markup(text):
                fragments.append(unescaped)
    return "\n".join(fragments)


def _values_in(script: str) -> Iterator[object]:
    """The JSON values a script holds: the whole script, else each object or list it
    assigns or passes (``window.__DATA__ = {…}``), as far as it is JSON."""
    decoder = json.JSONDecoder()
    stripped = script.strip()
    if stripped[:1] in ("{", "["):
        try:
            yield decoder.raw_decode(stripped)[0]
            return
        except (ValueError, RecursionError):
            pass
    for start in islice(_VALUE_START.finditer(script), _MAX_ASSIGNMENTS):
        try:
            yield decoder.raw_decode(script, start.end())[0]
        except (ValueError, RecursionError):
            continue


def _strings_in(data: object) -> Iterator[str]:
    """The strings in ``data``, depth first, in the order it holds them."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list):
            stack.extend(reversed(value))


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
