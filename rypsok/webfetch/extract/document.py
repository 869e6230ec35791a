"""What a document says of itself, and the HTML the readers share: block and heading tags,
an element's text, the title, the base URL, the body, og:type and JSON-LD declarations, and
link targets resolved to absolute http(s) URLs."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from urllib.parse import urljoin

from lxml import etree

BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    }
)


HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}


def text_of(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def repeats_title(text: str, title: str) -> bool:
    """Whether a heading's ``text`` (whitespace collapsed) is the page's ``title``, or most
    of it: the headline, which a ``<title>`` often follows with the site's name."""
    title_words = " ".join(title.split())
    return bool(text) and text in title_words and len(text) * 5 >= len(title_words) * 2


# An element holding this many characters of paragraph text outside links holds prose: a
# menu, a pager or a breadcrumb trail holds links and a few words, not paragraphs.
PROSE = 500


def holds_prose(element: etree._Element) -> bool:
    """Whether ``element``'s ``<p>`` elements hold ``PROSE`` characters outside links."""
    total = 0
    for paragraph in element.iter("p"):
        total += len(text_of(paragraph)) - sum(len(text_of(a)) for a in paragraph.iter("a"))
        if total >= PROSE:
            return True
    return False


def document_order(tops: Iterable[etree._Element]) -> dict[etree._Element, int]:
    """Each element of ``tops``, and in them, numbered in document order."""
    order: dict[etree._Element, int] = {}
    for top in tops:
        for element in top.iter(etree.Element):
            order[element] = len(order)
    return order


def within(element: etree._Element, dropped: set[etree._Element]) -> bool:
    """Whether ``element`` or an element around it is in ``dropped``."""
    return element in dropped or any(above in dropped for above in element.iterancestors())


def sibling_runs(
    parent: etree._Element, counts: Callable[[etree._Element], bool]
) -> list[list[etree._Element]]:
    """``parent``'s element children that ``counts`` takes, grouped by tag and first class:
    the runs of similar siblings a listing, a grid of cards or a list of teasers is made of."""
    runs: dict[tuple[str, str], list[etree._Element]] = {}
    for child in parent:
        if isinstance(child.tag, str) and counts(child):
            classes = (child.get("class") or "").split()
            runs.setdefault((child.tag, classes[0] if classes else ""), []).append(child)
    return list(runs.values())


def title_of(root: etree._Element) -> str:
    """``<title>``, else og:title, else the first ``<h1>``."""
    for element in root.iter("title"):
        if element.getparent() is not None and element.getparent().tag != "svg":
            text = "".join(element.itertext())
            if text.strip():
                return text
            break
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:title":
            content = meta.get("content") or ""
            if content.strip():
                return content
    for h1 in root.iter("h1"):
        text = "".join(h1.itertext())
        if text.strip():
            return text
    return ""


def base_of(root: etree._Element, base_url: str) -> str:
    for base in root.iter("base"):
        href = base.get("href")
        if href is None:
            continue
        resolved = resolve(base_url, href)
        return resolved or base_url
    return base_url


_URL_STRIP = re.compile(r"[\t\n\r]")


def resolve(base: str, href: str) -> str | None:
    """Absolute http(s) URL for ``href``, or None for any other scheme or a malformed URL."""
    href = _URL_STRIP.sub("", href).strip(" \x00\x0b\x0c")
    if not href:
        return None
    try:
        url = urljoin(base, href)
    except ValueError:
        return None
    scheme = url[:8].lower()
    if not (scheme.startswith("https://") or scheme.startswith("http://")):
        return None
    return url


def body_of(root: etree._Element) -> etree._Element:
    for child in root:
        if child.tag == "body":
            return child
    found = next(root.iter("body"), None)
    return found if found is not None else root


_PRODUCT_LD = re.compile(r'"@type"\s*:\s*\[?\s*"Product(?:Group)?"')


def declares_a_product(root: etree._Element) -> bool:
    """Whether the page's Open Graph type is a product, or its JSON-LD describes one."""
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:type":
            if (meta.get("content") or "").strip().lower().startswith("product"):
                return True
            break
    for script in root.iter("script"):
        is_json_ld = (script.get("type") or "").lower() == "application/ld+json"
        if is_json_ld and script.text and _PRODUCT_LD.search(script.text):
            return True
    return False


def declares_an_article(root: etree._Element) -> bool:
    """Whether the page's Open Graph type is ``article``."""
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:type":
            return (meta.get("content") or "").strip().lower() == "article"
    return False
