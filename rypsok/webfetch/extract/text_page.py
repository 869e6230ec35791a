"""A text/markdown or text/plain page as written, with only what a CommonMark renderer would
make live judged (DECISIONS.md, Fetch).

In Markdown, a link or autolink to an absolute http(s) target stays as written, a relative
one is resolved against the page's URL (in place: an inline link's destination, a reference
definition's), an image becomes its alternative text, and a link to any other scheme and raw
HTML are made inert. In plain text, every link, image, autolink (but an absolute http(s)
one) and raw HTML is made inert. Code spans and code blocks are never touched.

The constructs and their source positions come from pulldown-cmark (``pyromark``), a Rust
CommonMark parser: a 5 MB README takes about a second to judge, where markdown-it-py took
15 s to parse 2.7 MB (``bench/text_pages.py``, ``bench/fetch.py``). Made inert means: a backslash before the ``[`` and
``]`` of a link's or image's text (and the ``[`` of its label), before the ``<`` of an
autolink, and before every ``<`` and ``[`` of a piece of raw HTML
(:func:`~rypsok.webfetch.extract.commonmark.inert`), so the page still reads as written.

Taking one construct away can give its brackets to another (``[a [b](javascript:x)`` gives
a link once the inner one is gone), so the result is parsed again until nothing is left to
judge; after :data:`MAX_ROUNDS` the page is escaped whole (every ``<`` and ``[``), which is
always inert.
"""

from __future__ import annotations

import bisect

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
        edits, settled = _edits(data, text, base_url)
        if edits:
            text = _applied(data, edits).decode()
        if edits and not settled:
            continue
        spaced = _spaced(text)
        if spaced is None:
            return text
        data = text.encode()
        edits, _ = _edits(data, spaced, base_url)
        if not edits:
            return text
        text = _applied(data, edits).decode()
    return inert(text) if _still_live(text, base_url) else text


def _still_live(text: str, base_url: str | None) -> bool:
    data, spaced = text.encode(), _spaced(text)
    return bool(_edits(data, text, base_url)[0] or spaced and _edits(data, spaced, base_url)[0])


# Unicode white space that is not CommonMark's (ASCII) white space, each as ASCII spaces of
# its UTF-8 length, so that byte offsets stay the same.
_WIDE_SPACES = "\xa0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    chr(code) for code in range(0x2000, 0x200B)
)
_AS_ASCII_SPACES = str.maketrans({c: " " * len(c.encode()) for c in _WIDE_SPACES})


def _spaced(text: str) -> str | None:
    """The page for a second reading, which takes Unicode white space for white space as
    renderers whose patterns use ``\\s`` do (markdown-it, in JavaScript and in Python):
    ``<p\\xa0`` starts an HTML block there, not in CommonMark. None when it reads the same."""
    if text.isascii():
        return None
    spaced = text.translate(_AS_ASCII_SPACES)
    return None if spaced == text else spaced


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

    def __init__(self, span: dict, link: dict, image: bool, data: bytes) -> None:
        self.start, self.end, self.image = span["start"], span["end"], image
        self.kind, self.dest, self.title = link["link_type"], link["dest_url"], link["title"]
        if self.kind == "Collapsed" and data[self.end : self.end + 2] == b"[]":
            self.end += 2  # pulldown-cmark's range leaves out the empty label
        self.inner_end = self.start + 1 + image  # past ``[`` or ``![``: an empty text


def _edits(data: bytes, read: str, base_url: str | None) -> tuple[list[Edit], bool]:
    """What to change in ``data`` (a page as UTF-8) so that nothing is left live but what
    the page's media type allows (``base_url`` None: plain text), as ``read`` parses: the
    page, or a copy of it with the same UTF-8 offsets. And whether they settle the page:
    only relative targets resolved, which frees nothing for another reading. One pass over
    the events, the most frequent (text, code, breaks) dealt with first: 5 MB of Markdown
    has a million."""
    markdown = base_url is not None
    edits: list[Edit] = []
    links: list[_Link] = []  # open links (and, in plain text, images), innermost last
    image: _Link | None = None  # in Markdown, the image being replaced by its alt text
    alt: list[str] = []
    depth = 0  # of images in that image
    previous: dict | None = None  # the previous event's range; None just after a link opens
    judge = _Judge(
        data, base_url, _rewrite_definitions(data, read, base_url, edits) if markdown else set()
    )
    cdata = _Cdata() if _CDATA in data else None
    for event, span in pyromark.events_with_range(read, merge_text=True):
        if image is not None:
            depth += _read_alt(event, alt)
            if depth:
                continue
            edits.append((image.start, image.end, _alt(alt)))
            previous, image, judge.settled = {"end": image.end}, None, False
            continue
        if type(event) is not dict or "Text" in event:
            previous = span
            continue
        if "Code" in event:
            if cdata is not None:
                cdata.code.append(span)
            previous = span
            continue
        if "Start" in event:
            tag = event["Start"]
            if cdata is not None:
                cdata.read(tag, span)
            if type(tag) is dict and ("Link" in tag or "Image" in tag):
                is_image = "Image" in tag
                link = _Link(span, tag["Image"] if is_image else tag["Link"], is_image, data)
                if markdown and is_image:
                    image, depth, alt = link, 1, []
                else:
                    links.append(link)
                    previous = None
                continue
            if tag == "HtmlBlock":
                edits.append(_inert_html(data, span["start"], span["end"]))
                judge.settled = False
        elif "End" in event:
            if links and event["End"] in ("Link", "Image"):
                closed = links.pop()
                if previous is not None:
                    closed.inner_end = previous["end"]
                edits += judge(closed)
                previous = {"end": closed.end}
                continue
        elif "InlineHtml" in event:
            edits.append(_inert_html(data, span["start"], span["end"]))
            judge.settled = False
        previous = span
    if cdata is not None:
        missed = cdata.missed(data, edits)
        edits += missed
        judge.settled = judge.settled and not missed
    return edits, judge.settled


_CDATA = b"<![CDATA["


class _Cdata:
    """The CDATA sections pulldown-cmark did not read as raw HTML: with a ``[`` inside
    (``<![CDATA[[t](x)]]>``) it reads a link where CommonMark, and markdown-it, read the
    section. Each one in a paragraph or heading that holds its ``]]>`` gets a backslash
    before its ``<``, unless it is in code or in what is already edited."""

    def __init__(self) -> None:
        self.code: list[dict] = []
        self.blocks: list[dict] = []  # paragraphs and headings: where inline HTML can be

    def read(self, tag: object, span: dict) -> None:
        if tag == "Paragraph" or type(tag) is dict and "Heading" in tag:
            self.blocks.append(span)
        elif type(tag) is dict and "CodeBlock" in tag:
            self.code.append(span)

    def missed(self, data: bytes, edits: list[Edit]) -> list[Edit]:
        taken = _Ranges(
            [(span["start"], span["end"]) for span in self.code] + [e[:2] for e in edits]
        )
        blocks = _Ranges([(span["start"], span["end"]) for span in self.blocks])
        missed: list[Edit] = []
        at = data.find(_CDATA)
        while at >= 0:
            block_end = blocks.end_around(at)
            if (
                block_end is not None
                and data.find(b"]]>", at, block_end) >= 0
                and taken.end_around(at) is None
                and not _escaped(data, at)
            ):
                missed.append((at, at + 1, b"\\<"))
            at = data.find(_CDATA, at + len(_CDATA))
        return missed


class _Ranges:
    """Ranges, nested or not, and which one reaches furthest around a position."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        ranges.sort()
        self.starts = [start for start, _ in ranges]
        self.reach: list[int] = []  # the furthest end of the ranges so far
        furthest = 0
        for _, end in ranges:
            furthest = max(furthest, end)
            self.reach.append(furthest)

    def end_around(self, at: int) -> int | None:
        before = bisect.bisect_right(self.starts, at) - 1
        if before < 0 or self.reach[before] <= at:
            return None
        return self.reach[before]


def _read_alt(event: object, alt: list[str]) -> int:
    """Reads an event inside an image into its alternative text; the change in the depth
    of images."""
    if type(event) is not dict:
        if event in ("SoftBreak", "HardBreak"):
            alt.append(" ")
    elif "Text" in event:
        alt.append(event["Text"])
    elif "Code" in event:
        alt.append(event["Code"])
    elif type(event.get("Start")) is dict and "Image" in event["Start"]:
        return 1
    elif event.get("End") == "Image":
        return -1
    return 0


class _Judge:
    """A link's verdict: the edits that keep, resolve or make it inert (relative targets
    resolved once each). ``settled`` turns false once one is made inert."""

    def __init__(self, data: bytes, base_url: str | None, rewritten: set[str]) -> None:
        self.data, self.base_url = data, base_url
        self.rewritten = rewritten  # targets of the definitions resolved in place
        self.resolved: dict[str, str | None] = {}
        self.settled = True

    def __call__(self, link: _Link) -> list[Edit]:
        if link.dest[:8].lower().startswith(_HTTP):
            if self.base_url is not None or link.kind == "Autolink":
                return []  # an absolute http(s) target stays as written
        elif self.base_url is not None and link.kind not in _AUTOLINKS:
            if link.dest not in self.resolved:
                self.resolved[link.dest] = resolve(self.base_url, link.dest)
            url = self.resolved[link.dest]
            if url is not None:
                if link.kind in _REFERENCES and link.dest in self.rewritten:
                    return []  # its definition is resolved in place
                edits = _resolved(self.data, link, url)
                if edits:
                    return edits
        self.settled = False
        return _made_inert(self.data, link)


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
        return []
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


def _alt(parts: list[str]) -> bytes:
    text = " ".join("".join(parts).split())
    return escape_line_start(escape(text)).encode() if text else b""


def _inert_html(data: bytes, start: int, end: int) -> Edit:
    return start, end, inert(data[start:end].decode()).encode()


def _rewrite_definitions(data: bytes, read: str, base_url: str, edits: list[Edit]) -> set[str]:
    """Each link reference definition with a relative destination gets it resolved (the
    first of each label: the one a renderer uses). The destinations so resolved."""
    rewritten: set[str] = set()
    if b"]:" not in data:
        return rewritten
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
        rewritten.add(dest)
    return rewritten


def _label_end(data: bytes, start: int, end: int) -> int | None:
    """The ``]`` before the ``:`` of a definition: the first ``]`` no backslash escapes."""
    at = data.find(b"]", start, end)
    while at >= 0:
        if not _escaped(data, at):
            return at if data[at + 1 : at + 2] == b":" else None
        at = data.find(b"]", at + 1, end)
    return None


def _escaped(data: bytes, at: int) -> bool:
    """Whether an odd run of backslashes stands before ``data[at]``."""
    run = 0
    while run < at and data[at - run - 1] == 0x5C:
        run += 1
    return run % 2 == 1


def _destination(url: str, title: str | None, before: str, after: str) -> bytes:
    written = before + markdown_url(url)
    if title:
        escaped = title.replace("\\", "\\\\").replace('"', '\\"').replace("&", "\\&")
        written += f' "{escaped}"'
    return (written + after).encode()
