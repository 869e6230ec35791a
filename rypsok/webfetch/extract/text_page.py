"""A text/markdown or text/plain page as written, with only what a CommonMark renderer would
make live judged (DECISIONS.md, Fetch).

In Markdown, a link or autolink to an absolute http(s) target stays as written, a relative
one is resolved against the page's URL (in place: an inline link's destination, a reference
definition's), an image becomes its alternative text, and a link to any other scheme and raw
HTML are made inert. In plain text, every link, image, autolink (but an absolute http(s)
one) and raw HTML is made inert. Code spans and code blocks are never touched.

The constructs and their source positions come from pulldown-cmark (``pyromark``), a Rust
CommonMark parser: 5 MB dense with links parse in about half a second, where markdown-it-py
took 15 s on 2.7 MB (``bench/fetch.py``). Made inert means: a backslash before the ``[`` and
``]`` of a link's or image's text (and the ``[`` of its label), before the ``<`` of an
autolink, and before every ``<`` and ``[`` of a piece of raw HTML
(:func:`~rypsok.webfetch.extract.commonmark.inert`), so the page still reads as written.

Taking one construct away can give its brackets to another (``[a [b](javascript:x)`` gives
a link once the inner one is gone), so the result is parsed again until nothing is left to
judge; after :data:`MAX_ROUNDS` the page is escaped whole (every ``<`` and ``[``), which is
always inert.
"""

from __future__ import annotations

import pyromark

from rypsok.webfetch.extract.commonmark import escape, escape_line_start, inert, markdown_url
from rypsok.webfetch.extract.document import resolve

MAX_ROUNDS = 4
_HTTP = ("http://", "https://")
_REFERENCES = frozenset({"Reference", "Collapsed", "Shortcut"})
_LABELLED = frozenset({"Reference", "Collapsed"})  # the text's ``]`` is followed by a label
_AUTOLINKS = frozenset({"Autolink", "Email"})

Edit = tuple[int, int, bytes]  # UTF-8 byte range of the page and what replaces it


def markdown_page(text: str, base_url: str) -> str:
    """A text/markdown page: http(s) links kept, relative ones resolved against
    ``base_url``, images as their alternative text, other links and raw HTML inert."""
    return _judged(text, base_url)


def plain_text_page(text: str) -> str:
    """A text/plain page: every link, image, autolink (but an absolute http(s) one) and
    raw HTML inert; a text without such syntax is returned as it is."""
    return _judged(text, None)


def _judged(text: str, base_url: str | None) -> str:
    if "[" not in text and "<" not in text:
        return text  # every link, image, autolink and piece of HTML starts with one of them
    for _ in range(MAX_ROUNDS):
        data = text.encode()
        edits = _pending(text, data, base_url)
        if not edits:
            return text
        text = _applied(data, edits).decode()
    return text if not _pending(text, text.encode(), base_url) else inert(text)


# Unicode white space that is not CommonMark's (ASCII) white space, each as ASCII spaces of
# its UTF-8 length, so that byte offsets stay the same.
_WIDE_SPACES = "\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_AS_ASCII_SPACES = str.maketrans({c: " " * len(c.encode()) for c in _WIDE_SPACES})


def _pending(text: str, data: bytes, base_url: str | None) -> list[Edit]:
    """The edits that one reading of the page asks for. A second reading takes Unicode white
    space for white space, as renderers whose patterns use ``\\s`` do (markdown-it, in
    JavaScript and Python): ``<p\\xa0`` starts an HTML block there, not in CommonMark."""
    edits = _edits(data, text, base_url)
    if edits or text.isascii():
        return edits
    spaced = text.translate(_AS_ASCII_SPACES)
    return _edits(data, spaced, base_url) if spaced != text else edits


def _applied(data: bytes, edits: list[Edit]) -> bytes:
    edits.sort(key=lambda edit: edit[0])
    pieces, at = [], 0
    for start, end, replacement in edits:
        if start < at:
            continue  # inside a range already replaced
        pieces += (data[at:start], replacement)
        at = end
    pieces.append(data[at:])
    return b"".join(pieces)


class _Link:
    __slots__ = ("start", "end", "kind", "dest", "title", "image", "inner_end")

    def __init__(self, start: int, end: int, link: dict, image: bool) -> None:
        self.start, self.end, self.image = start, end, image
        self.kind, self.dest, self.title = link["link_type"], link["dest_url"], link["title"]
        self.inner_end = start + (2 if image else 1)  # past ``[`` or ``![``


def _edits(data: bytes, read: str, base_url: str | None) -> list[Edit]:
    """What to change in ``data`` (a page as UTF-8) so that nothing is left live but what
    the page's media type allows (``base_url`` None: plain text), as ``read`` parses: the
    page, or a copy of it with the same UTF-8 offsets."""
    markdown = base_url is not None
    edits: list[Edit] = []
    open_links: list[_Link] = []  # links (and, in plain text, images) around this event
    image: _Link | None = None  # in Markdown, the image being replaced by its alt text
    alt: list[str] = []
    image_depth = 0
    definitions_rewritten = markdown and _rewrite_definitions(data, read, base_url, edits)
    for event, span in pyromark.events_with_range(read, merge_text=True):
        start, end = span["start"], span["end"]
        tag = event.get("Start") if type(event) is dict else None
        link = (tag.get("Link") or tag.get("Image")) if type(tag) is dict else None
        if link is not None and link["link_type"] == "Collapsed":
            end = _with_empty_label(data, end)
        if image is not None:
            image_depth += _image_nesting(event)
            if image_depth:
                _read_alt(event, alt)
                continue
            edits.append((image.start, image.end, _alt(alt)))
            end, image = image.end, None
        elif type(event) is dict and event.get("End") in ("Link", "Image") and open_links:
            closed = open_links.pop()
            edits += _judge_link(data, closed, base_url, definitions_rewritten)
            end = closed.end
        if open_links:
            open_links[-1].inner_end = max(open_links[-1].inner_end, end)
        if link is not None:
            if markdown and "Image" in tag:
                image, image_depth, alt = _Link(start, end, link, True), 1, []
            else:
                open_links.append(_Link(start, end, link, "Image" in tag))
        elif tag == "HtmlBlock" or (type(event) is dict and "InlineHtml" in event):
            edits.append(_inert_html(data, start, end))
    return edits


def _image_nesting(event: object) -> int:
    if type(event) is not dict:
        return 0
    if type(event.get("Start")) is dict and "Image" in event["Start"]:
        return 1
    return -1 if event.get("End") == "Image" else 0


def _read_alt(event: object, alt: list[str]) -> None:
    if type(event) is not dict:
        if event in ("SoftBreak", "HardBreak"):
            alt.append(" ")
    elif "Text" in event:
        alt.append(event["Text"])
    elif "Code" in event:
        alt.append(event["Code"])


def _judge_link(
    data: bytes, link: _Link, base_url: str | None, definitions_rewritten: bool
) -> list[Edit]:
    if link.dest[:8].lower().startswith(_HTTP):
        if base_url is not None or link.kind == "Autolink":
            return []  # an absolute http(s) target stays as written
    elif base_url is not None and link.kind not in _AUTOLINKS:
        resolved = resolve(base_url, link.dest)
        if resolved is not None:
            if link.kind in _REFERENCES and definitions_rewritten:
                return []  # its definition is rewritten: judged again in the next round
            return _resolved(data, link, resolved)
    return _made_inert(data, link)


def _made_inert(data: bytes, link: _Link) -> list[Edit]:
    start = link.start + link.image
    if link.kind in _AUTOLINKS:
        return [(start, start + 1, b"\\<")] if data[start : start + 1] == b"<" else []
    edits: list[Edit] = []
    if data[start : start + 1] == b"[":
        edits.append((start, start + 1, b"\\["))
    close = _text_close(data, link)
    if close is not None:
        edits.append((close, close + 1, b"\\]"))
        if link.kind in _LABELLED and data[close + 1 : close + 2] == b"[":
            edits.append((close + 1, close + 2, b"\\["))
    return edits


def _resolved(data: bytes, link: _Link, url: str) -> list[Edit]:
    """A relative link with ``url`` as its destination: what follows its text becomes
    ``(url "title")``; an inline link's text stays as written, and so does a reference
    link's (which becomes an inline one: its definition could not be rewritten)."""
    close = _text_close(data, link)
    if close is None:
        return _made_inert(data, link)
    return [(close + 1, link.end, _destination(url, link.title, "(", ")"))]


def _text_close(data: bytes, link: _Link) -> int | None:
    """Where the ``]`` that ends a link's text is: the first one after all that the text
    holds (every piece of the text has a range, an escaped ``\\]`` included)."""
    close = data.find(b"]", link.inner_end, link.end)
    if close < 0:
        return None
    if link.kind == "Inline" and data[close + 1 : close + 2] != b"(":
        return None
    return close


def _with_empty_label(data: bytes, end: int) -> int:
    """A collapsed reference's range leaves out its ``[]``."""
    return end + 2 if data[end : end + 2] == b"[]" else end


def _alt(parts: list[str]) -> bytes:
    text = " ".join("".join(parts).split())
    return escape_line_start(escape(text)).encode() if text else b""


def _inert_html(data: bytes, start: int, end: int) -> Edit:
    return start, end, inert(data[start:end].decode()).encode()


def _rewrite_definitions(data: bytes, read: str, base_url: str, edits: list[Edit]) -> bool:
    """Each link reference definition with a relative destination gets it resolved (the
    first of each label: the one a renderer uses). Whether any was."""
    if b"]:" not in data:
        return False
    rewritten = False
    for definition in pyromark.reference_definitions(read).values():
        dest, span = definition["dest"], definition["span"]
        if dest[:8].lower().startswith(_HTTP):
            continue
        resolved = resolve(base_url, dest)
        if resolved is None:
            continue  # every link that uses it is made inert where it stands
        start, end = span["start"], span["end"]
        colon = _label_end(data, start, end)
        if colon is None:
            continue
        edits.append((colon + 2, end, _destination(resolved, definition["title"], " ", "")))
        rewritten = True
    return rewritten


def _label_end(data: bytes, start: int, end: int) -> int | None:
    """The ``]`` before the ``:`` of a definition: the first ``]`` no backslash escapes."""
    at = data.find(b"]", start, end)
    while at >= 0:
        backslashes = at - len(data[start:at].rstrip(b"\\")) - start
        if not backslashes % 2:
            return at if data[at + 1 : at + 2] == b":" else None
        at = data.find(b"]", at + 1, end)
    return None


def _destination(url: str, title: str | None, before: str, after: str) -> bytes:
    written = before + markdown_url(url)
    if title:
        escaped = title.replace("\\", "\\\\").replace('"', '\\"').replace("&", "\\&")
        written += f' "{escaped}"'
    return (written + after).encode()
