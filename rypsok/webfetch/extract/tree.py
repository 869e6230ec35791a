"""The bounded parse: HTML text -> an lxml tree of at most MAX_NODES elements, MAX_DEPTH
levels and MAX_ATTRIBUTES attributes, cut in document order at the first element past a
bound; attributes past MAX_ATTRIBUTES_PER_ELEMENT in a tag are dropped before parsing."""

from __future__ import annotations

import re
from itertools import islice

from lxml import etree

MAX_NODES = 100_000


MAX_DEPTH = 256


MAX_ATTRIBUTES_PER_ELEMENT = 256  # more are dropped: libxml2 checks each against the others


MAX_ATTRIBUTES = 200_000  # in the whole document, as MAX_NODES for elements


_CHUNK = 1 << 16


def _parser_options() -> dict[str, object]:
    # huge_tree lifts libxml2's own 256-level limit (it would stop the parse with a fatal
    # error); the bound is applied here instead, the same way whatever libxml2 version.
    return {
        "encoding": "utf-8",
        "huge_tree": True,
        "remove_comments": True,
        "remove_pis": True,
        "no_network": True,
    }


# What lxml cannot hold in a tree (it refuses to set such text, and libxml2 makes a NUL
# U+FFFD, a real character the cleaner would keep): the C0 controls but TAB, LF, CR and FF,
# and U+FFFE and U+FFFF, written as they are or as a numeric character reference. They are
# removed before parsing and counted with the characters the cleaner removes. FF, which is
# HTML white space, reads as a space.
_UNHOLDABLE = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20)])  # in UTF-8: one byte each
_NONCHARACTERS = re.compile(b"\xef\xbf[\xbe\xbf]")  # U+FFFE, U+FFFF in UTF-8
_UNHOLDABLE_REFERENCE = re.compile(  # one literal start, so the search runs at C speed
    rb"&#(?:0*(?:[0-8]|1[14-9]|2[0-9]|3[01]|6553[45])(?![0-9])"
    rb"|[xX]0*(?:[0-8bBeEfF]|1[0-9a-fA-F]|[fF]{3}[eEfF])(?![0-9a-fA-F]));?"
)
_FORM_FEED_REFERENCE = re.compile(rb"&#(?:0*12(?![0-9])|[xX]0*[cC](?![0-9a-fA-F]));?")

# The markup of a document as the HTML tokenizer reads it (WHATWG HTML 13.2.5, which
# libxml2 follows since 2.14), to find the tags with more than MAX_ATTRIBUTES_PER_ELEMENT
# attributes before libxml2 reads them. The patterns are bytes: they read the very bytes
# libxml2 is given, after what it cannot hold was removed (a removed control or reference
# can start a tag or end a tag's name: "<\x01div", "<html&#12;<html"), and the markup
# they read is all ASCII, which UTF-8 never uses inside a multi-byte character. Every tag is matched whole, so the scan never looks
# inside an attribute value; comments, bogus comments (``<!DOCTYPE``, ``<?xml``) and the text
# of script, style, title, textarea and the like are matched whole, so their text is never
# read as tags. Each attribute is an atomic group, and a run of markup within the bounds is
# one possessive match: one pass in C over an ordinary document.
_TAG_SPACE = "\t\n\f\r "
_ATTRIBUTE = (
    rf"(?>[{_TAG_SPACE}/]*+[^{_TAG_SPACE}/>][^{_TAG_SPACE}/>=]*+"
    rf"(?:[{_TAG_SPACE}]*+=[{_TAG_SPACE}]*+(?:\"[^\"]*+\"|'[^']*+'|[^{_TAG_SPACE}>]*+))?)"
)
_NAME_END = rf"(?=[{_TAG_SPACE}/>]|\Z)"
# Elements whose content is text up to their own end tag, and plaintext, after which all is
# text. One alternative each, without a backreference: Python 3.11's possessive loops fail
# on capturing groups.
_TEXT_ELEMENTS = ("script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes")
_TAG = rf"</?[A-Za-z][^{_TAG_SPACE}/>]*+"


# libxml2 ends a text element (plaintext too) at a self-closing start tag, ``<title/>``,
# where WHATWG HTML ignores the slash: what follows is markup, not the element's text.
_SELF_CLOSING = rf"[{_TAG_SPACE}]*+/>"
_STARTS_SELF_CLOSED = re.compile(_SELF_CLOSING.encode())


def _element_alternatives(attributes: str) -> str:
    """A text element (its start tag, then its text), plaintext, or any other tag, with
    ``attributes`` after the name."""
    texts = "|".join(
        rf"<(?i:{name}){_NAME_END}{attributes}"
        rf"(?:{_SELF_CLOSING}|(?:[^<]++|<(?!/(?i:{name}){_NAME_END}))*+)"
        for name in _TEXT_ELEMENTS
    )
    plaintext = rf"<(?i:plaintext){_NAME_END}{attributes}(?:{_SELF_CLOSING}|(?s:.*+))"
    return rf"{texts}|{plaintext}|{_TAG}{attributes}"


_WITHIN_BOUNDS = re.compile(
    (
        r"(?:[^<]++"
        r"|<!--(?:-?>|(?:[^-]++|-(?!-!?>))*+(?:--!?>)?)"  # a comment
        r"|<(?:[!?]|/(?![A-Za-z]))[^>]*+>?"  # a bogus comment
        + "|"
        + _element_alternatives(rf"{_ATTRIBUTE}{{0,{MAX_ATTRIBUTES_PER_ELEMENT}}}(?!{_ATTRIBUTE})")
        + r"|<(?!/?[A-Za-z]))*+"  # a "<" that starts nothing
    ).encode()
)
# Where a run within the bounds stops: a tag with too many attributes. Its name and first
# attributes, then the excess, then the text of a text element.
_TAG_WITH_ALL_IT_KEEPS = re.compile(
    rf"(?P<name>{_TAG}){_ATTRIBUTE}{{{MAX_ATTRIBUTES_PER_ELEMENT}}}".encode()
)
_MORE_ATTRIBUTES = re.compile(rf"(?:{_ATTRIBUTE})++".encode())
_TEXT_OF = {
    name.encode(): re.compile(rf"(?:[^<]++|<(?!/(?i:{name}){_NAME_END}))*+".encode())
    for name in _TEXT_ELEMENTS
}


# Anywhere, even inside a script or an attribute value: what starts more attributes than
# the bound. A document without it has no such tag (a real tag is read the same from its
# own "<"), and the scan above is skipped: one search in C, a third of the scan's time.
_TOO_MANY_ANYWHERE = re.compile(rf"{_TAG}{_ATTRIBUTE}{{{MAX_ATTRIBUTES_PER_ELEMENT + 1}}}".encode())


def _bound_attributes(html: bytes) -> bytes:
    """``html`` without the attributes past MAX_ATTRIBUTES_PER_ELEMENT of each tag."""
    if _TOO_MANY_ANYWHERE.search(html) is None:
        return html
    pieces: list[bytes] = []
    copied = scan = 0
    while True:
        stop = _WITHIN_BOUNDS.match(html, scan).end()
        if stop >= len(html):
            break
        head = _TAG_WITH_ALL_IT_KEEPS.match(html, stop)
        if head is None:  # not expected (a run stops only at such a tag): "<" as text
            scan = stop + 1
            continue
        excess_end = _MORE_ATTRIBUTES.match(html, head.end()).end()
        pieces.append(html[copied : head.end()])
        copied = scan = excess_end
        name = head.group("name")[1:].lower()
        if _STARTS_SELF_CLOSED.match(html, scan):
            continue
        if name == b"plaintext":
            break
        if name in _TEXT_OF:
            scan = _TEXT_OF[name].match(html, scan).end()
    if not pieces:
        return html
    pieces.append(html[copied:])
    return b"".join(pieces)


def _holdable(data: bytes) -> tuple[bytes, int]:
    """UTF-8 ``data`` without what lxml cannot hold (FF as a space), and how many characters
    were removed. On bytes: ``bytes.translate`` deletes at memory speed, where a regular
    expression or ``str.translate`` over non-ASCII text takes up to a second for 5 MB."""
    held = data.replace(b"\x0c", b" ").translate(None, _UNHOLDABLE)
    removed = len(data) - len(held)
    if _NONCHARACTERS.search(held):
        held, noncharacters = _NONCHARACTERS.subn(b"", held)
        removed += noncharacters
    if b"&#" in held:
        held = _FORM_FEED_REFERENCE.sub(b" ", held)
        held, references = _UNHOLDABLE_REFERENCE.subn(b"", held)
        removed += references
    return held, removed


def parse(html: str) -> tuple[etree._Element | None, bool, int]:
    """The document's root element, cut to the bounds, whether it was cut, and how many
    characters lxml could not hold were removed.

    Before parsing, attributes past MAX_ATTRIBUTES_PER_ELEMENT in a start tag are dropped
    (libxml2 compares each attribute with the ones before it: 40,000 of them take 13 s).
    The other bounds cut the tree: a document that may exceed MAX_NODES or MAX_ATTRIBUTES
    is parsed in chunks and feeding stops at the cut."""
    held, removed = _holdable(html.encode("utf-8", "replace"))
    data = _bound_attributes(held)
    dropped = len(data) != len(held)
    if data.count(b"<") - data.count(b"</") <= MAX_NODES and data.count(b"=") <= MAX_ATTRIBUTES:
        try:
            root = etree.fromstring(data, etree.HTMLParser(**_parser_options()))
        except etree.XMLSyntaxError:
            return None, False, removed
        if root is None:
            return None, False, removed
        # an attribute takes two characters at least: a shorter document is within the bound
        cut = _find_cut(root, attributes=len(data) > 2 * MAX_ATTRIBUTES)
    else:
        root, cut = _parse_streaming(data)
        if root is None:
            return None, False, removed
    if cut is None:
        return root, dropped, removed
    _truncate_at(cut)
    return root, True, removed


def _parse_streaming(data: bytes) -> tuple[etree._Element | None, etree._Element | None]:
    """Parse in chunks and stop at the first element past a bound, so that a huge document
    never becomes a huge tree."""
    parser = etree.HTMLPullParser(events=("start", "end"), **_parser_options())
    count = depth = attributes = 0
    cut = None
    for offset in range(0, len(data), _CHUNK):
        parser.feed(data[offset : offset + _CHUNK])
        for event, element in parser.read_events():
            if event == "start":
                count += 1
                depth += 1
                attributes += len(element.attrib)
                if count > MAX_NODES or depth > MAX_DEPTH or attributes > MAX_ATTRIBUTES:
                    cut = element
                    break
            else:
                depth -= 1
        if cut is not None:
            break
    try:
        root = parser.close()
    except etree.XMLSyntaxError:
        return None, None
    return root, cut


def _find_cut(root: etree._Element, attributes: bool = True) -> etree._Element | None:
    """The first element, in document order, past MAX_NODES elements, MAX_DEPTH levels or
    (when ``attributes``) MAX_ATTRIBUTES attributes, its own included."""
    cuts: list[tuple[int, etree._Element]] = []  # (elements before it, the element)
    if root.xpath("count(//*)") > MAX_NODES:
        cuts.append((MAX_NODES, next(islice(root.iter(etree.Element), MAX_NODES, None))))
    too_deep = root.xpath("/*" + "/*" * MAX_DEPTH)
    if too_deep:
        first_deep = too_deep[0]
        cuts.append((int(first_deep.xpath("count(preceding::*) + count(ancestor::*)")), first_deep))
    if attributes and root.xpath("count(//@*)") > MAX_ATTRIBUTES:
        seen = 0
        for index, element in enumerate(root.iter(etree.Element)):
            seen += len(element.attrib)
            if seen > MAX_ATTRIBUTES:
                cuts.append((index, element))
                break
    return min(cuts, key=lambda cut: cut[0])[1] if cuts else None


def _truncate_at(cut: etree._Element) -> None:
    """Remove ``cut`` and everything after it in document order; text before it stays."""
    node = cut
    while node is not None:
        parent = node.getparent()
        if parent is None:
            break
        for following in list(node.itersiblings()):
            parent.remove(following)
        if node is not cut:
            node.tail = None
        node = parent
    parent = cut.getparent()
    if parent is not None:
        cut.tail = None
        parent.remove(cut)
