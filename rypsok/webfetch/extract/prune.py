"""Before reading: what a browser does not render and, on request, the page chrome go."""

from __future__ import annotations

import re
from itertools import islice

from lxml import etree

from rypsok.webfetch.extract.document import text_of
from rypsok.webfetch.extract.names import Names

_UNRENDERED_TAGS = (
    "head",
    "title",
    "script",
    "style",
    "noscript",
    "template",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "svg",
    "canvas",
    "video",
    "audio",
    "source",
    "track",
    "map",
    "button",
    "input",
    "select",
    "textarea",
    "option",
    "optgroup",
    "datalist",
    "label",
    "meta",
    "link",
    "base",
)

_HIDDEN_STYLE = re.compile(
    r"(?<![\w-])(?:display\s*:\s*none|visibility\s*:\s*hidden)(?![\w-])", re.IGNORECASE
)


def _remove(element: etree._Element) -> None:
    """Detach ``element`` with its subtree, keeping the text that follows it."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


# A <noscript> holding this much text is the page as a browser without scripts shows it (a
# forum thread, a post, a listing); a shorter one is a notice ("enable JavaScript") or a
# tracking pixel. rypsok runs no scripts, so it reads the first kind.
_NOSCRIPT_CONTENT = 200
# A <button> holds phrasing content only. One that holds any of these was left open by
# libxml2, which does not close it at </button> while a <div> inside it is open
# (<button><div><div></button>), and it swallowed whatever followed: the page's content.
_NOT_IN_A_BUTTON = (
    "a", "article", "button", "form", "h1", "h2", "h3", "h4", "h5", "h6", "input", "main", "ol",
    "p", "section", "table", "ul",
)  # fmt: skip


def _read_without_scripts(body: etree._Element) -> None:
    """Turn into plain containers the ``<noscript>`` elements that hold content and the
    ``<button>`` elements that hold what cannot be in a button, so that they are read;
    the other ones are removed with what a browser does not render."""
    for element in list(body.iter("noscript", "button")):
        if element.tag == "noscript":
            if len(text_of(element)) >= _NOSCRIPT_CONTENT:
                element.tag = "div"
        elif any(True for _ in islice(element.iterdescendants(*_NOT_IN_A_BUTTON), 1)):
            element.tag = "div"


# A hidden element with this much text, found nowhere else on the page, is content that
# a script shows (a product description behind an age gate, a streamed page, a tab): a
# hidden copy of what is visible, a closed menu or a dialog's few words are not.
_SHOWN_BY_SCRIPT = 200
_SECTIONING = ("article", "aside", "main", "nav", "section")


def _in_a_section(element: etree._Element) -> bool:
    """Whether ``element`` is inside sectioning content or ``<main>``, where a ``<header>``
    is that section's header, not the page's banner (HTML-AAM)."""
    return any(True for _ in element.iterancestors(*_SECTIONING))


_CHROME_TAGS = frozenset({"nav", "header", "footer", "aside", "menu"})
_CHROME_ROLES = frozenset(
    {
        "navigation",
        "banner",
        "contentinfo",
        "complementary",
        "search",
        "menubar",
        "menu",
        "dialog",
        "alertdialog",
    }
)


def prune(body: etree._Element, names: Names, drop_chrome: bool) -> tuple[set, int]:
    """Remove what a browser does not render and, with ``drop_chrome``, the page chrome
    (navigation, headers, footers, sidebars). Returns the elements that are or hold an
    article (``<article>``, ``<main>``, role=main, itemprop=articleBody, a class named
    like an article body) and how many chrome elements were removed.

    A chrome element that holds the article stays: the markup put the document inside it
    (an unclosed ``<header>`` swallows what follows). So does an ``aria-hidden`` one, which
    a browser renders anyway (a page served with a dialog open hides the rest from screen
    readers). The body itself is never hidden: scripts that would reveal it do not run."""
    _read_without_scripts(body)
    etree.strip_elements(body, *_UNRENDERED_TAGS, with_tail=False)
    hidden = []
    aria_hidden = []
    chrome = []
    markers = []
    for element in body.iter(etree.Element):
        tag = element.tag
        style = element.get("style")
        if element is not body and (
            element.get("hidden") is not None
            or (tag == "dialog" and element.get("open") is None)
            or (style and _HIDDEN_STYLE.search(style))
        ):
            hidden.append(element)
            continue
        if (element.get("aria-hidden") or "").strip().lower() == "true":
            aria_hidden.append(element)
        role = element.get("role")
        if (tag in _CHROME_TAGS and not (tag == "header" and _in_a_section(element))) or (
            role in _CHROME_ROLES
        ):
            chrome.append(element)
        if (
            tag == "article"
            or tag == "main"
            or role == "main"
            or element.get("itemprop") == "articleBody"
            or names.judge(element).content
        ):
            markers.append(element)
    page_text = None
    for element in hidden:
        text = text_of(element)
        if len(text) >= _SHOWN_BY_SCRIPT:
            if page_text is None:
                page_text = text_of(body)
            if page_text.count(text[:100]) < 2:
                continue  # content that a script would show: nothing else on the page has it
        _remove(element)
    holders: set[etree._Element] = set()
    for element in markers:
        while element is not None and element not in holders:
            holders.add(element)
            element = element.getparent()
    for element in aria_hidden:
        if element not in holders and element is not body:
            _remove(element)
    removed = 0
    if drop_chrome:
        for element in chrome:
            if element not in holders and element.getparent() is not None:
                _remove(element)
                removed += 1
    return holders, removed
