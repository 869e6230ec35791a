"""Before reading: what a browser does not render and, on request, the page chrome go."""

from __future__ import annotations

import re
from itertools import islice
from typing import NamedTuple

from lxml import etree

from rypsok.webfetch.extract.document import text_of
from rypsok.webfetch.extract.embedded import reads_as_markup
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

# Ruby annotations: the reading a <rt> shows above its base text (furigana, pinyin), and
# the parentheses <rp> gives a browser without ruby. Read inline, they split the words they
# annotate (子<rt>こ</rt>ども reads 子こども); the base text is the sentence.
_RUBY_ANNOTATIONS = ("rt", "rp")

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
    the other ones are removed with what a browser does not render, and so is a
    ``<noscript>`` whose only content is HTML escaped as text (embedded.py reads that)."""
    for element in list(body.iter("noscript", "button")):
        if element.tag == "noscript":
            if len(text_of(element)) >= _NOSCRIPT_CONTENT and not (
                len(element) == 0 and reads_as_markup(element.text or "")
            ):
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
# The roles of a dialog (_is_a_dialog). Chrome with one goes even when the page is read
# again with its chrome (an unclosed <header> or a page whose one section is an <aside>): a
# dialog over the page (a feedback form, a consent box) is never the page's text, unless it
# holds the article.
_DIALOG_ROLES = frozenset({"dialog", "alertdialog"})
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


# A page-builder shortcode that reached the page unexpanded ([vc_row], [et_pb_section
# admin_label="…"], [/vc_column]): markup for a plugin, not words for the reader. A bracketed
# name is taken for one when the page also closes it ([/name]) or when it carries
# attributes (name="value"); a footnote [1], an editor's [sic] or a bracketed phrase has
# neither.
_SHORTCODE_CLOSE = re.compile(r"\[/([A-Za-z][\w-]*)\]")
_SHORTCODE = re.compile(
    r"""\[/?([A-Za-z][\w-]*)((?:\s+[\w-]+(?:=(?:"[^"\]]*"|'[^'\]]*'|[^\s"'\]]+))?)*)\s*/?\]"""
)


def _strip_shortcodes(body: etree._Element) -> None:
    """Remove unexpanded shortcodes from the text of ``body``."""
    closed = set()
    texts = []
    for element in body.iter(etree.Element):
        for text in (element.text, element.tail if element is not body else None):
            if text and "[" in text:
                texts.append(text)
                closed.update(name.lower() for name in _SHORTCODE_CLOSE.findall(text))
    if not texts:
        return

    def is_shortcode(match: re.Match[str]) -> bool:
        return match.group(1).lower() in closed or "=" in match.group(2)

    if not closed and not any(
        is_shortcode(match) for text in texts for match in _SHORTCODE.finditer(text)
    ):
        return

    def strip(text: str) -> str:
        return _SHORTCODE.sub(lambda m: " " if is_shortcode(m) else m.group(0), text)

    for element in body.iter(etree.Element):
        if element.text and "[" in element.text:
            element.text = strip(element.text)
        if element is not body and element.tail and "[" in element.tail:
            element.tail = strip(element.tail)


# Chrome that holds links and a few words: text outside links in it is the page that an
# unclosed one swallowed (Pruned.header_text).
_BANNERS = frozenset({"header", "nav", "menu"})
_BANNER_ROLES = frozenset({"banner", "navigation", "menubar", "menu"})


class Pruned(NamedTuple):
    holders: set[etree._Element]
    chrome_removed: int
    header_text: int
    aside_text: int
    folded: set[etree._Element]


def prune(body: etree._Element, names: Names, drop_chrome: bool) -> Pruned:
    """Remove what a browser does not render and, with ``drop_chrome``, the page chrome
    (navigation, headers, footers, sidebars; dialogs in any case). Returns the elements that
    are or hold an article (``<article>``, ``<main>``, role=main, itemprop=articleBody, a
    class named like an article body), how many chrome elements were removed and how much
    text outside links the removed headers and navigation and, apart, the removed asides
    held, and the folded elements: what is ``aria-hidden`` but kept, being long text that
    nothing else on the page holds.

    A chrome element that holds the article stays: the markup put the document inside it
    (an unclosed ``<header>`` swallows what follows). So does an ``aria-hidden`` one, which
    a browser renders anyway (a page served with a dialog open hides the rest from screen
    readers). The body itself is never hidden: scripts that would reveal it do not run."""
    _read_without_scripts(body)
    etree.strip_elements(body, *_UNRENDERED_TAGS, *_RUBY_ANNOTATIONS, with_tail=False)
    _strip_shortcodes(body)
    hidden = []
    aria_hidden = []
    chrome = []
    markers = []
    dialog_markers = []
    in_dialog: set[etree._Element] = set()
    for element in body.iter(etree.Element):
        tag = element.tag
        if not element.keys():  # most elements of a big page: no attribute to read
            if tag == "dialog" and element is not body:
                hidden.append(element)
                continue
            if in_dialog and element.getparent() in in_dialog:
                in_dialog.add(element)
            if tag in _CHROME_TAGS and not (tag == "header" and _in_a_section(element)):
                chrome.append(element)
            if tag == "article" or tag == "main":
                (dialog_markers if element in in_dialog else markers).append(element)
            continue
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
        if (in_dialog and element.getparent() in in_dialog) or (
            element is not body and _is_a_dialog(element, tag, role)
        ):
            in_dialog.add(element)
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
            (dialog_markers if element in in_dialog else markers).append(element)
    if not markers:
        markers = dialog_markers  # the page's only article is in a dialog: it is the page
    page_text = None
    folded: set[etree._Element] = set()

    def shown_by_script(element: etree._Element) -> bool:
        nonlocal page_text
        text = text_of(element)
        if len(text) < _SHOWN_BY_SCRIPT:
            return False
        if page_text is None:
            page_text = text_of(body)
        return page_text.count(text[:100]) < 2  # nothing else on the page has it

    for element in hidden:
        if not shown_by_script(element):
            _remove(element)
    holders: set[etree._Element] = set()
    for element in markers:
        while element is not None and element not in holders:
            holders.add(element)
            element = element.getparent()
    for element in aria_hidden:
        if element in holders or element is body:
            continue
        if shown_by_script(element):
            folded.update(element.iter(etree.Element))
        else:
            _remove(element)
    removed = header_text = aside_text = 0
    for element in chrome:
        if (
            (drop_chrome or element.get("role") in _DIALOG_ROLES)
            and element not in holders
            and element.getparent() is not None
            and not _heads_the_article(element)
            and not _a_note_in_the_article(element)
        ):
            if element.tag in _BANNERS or element.get("role") in _BANNER_ROLES:
                header_text += _unlinked_length(element)
            elif element.tag == "aside":
                aside_text += _unlinked_length(element)
            _remove(element)
            removed += 1
    return Pruned(holders, removed, header_text, aside_text, folded)


def _is_a_dialog(element: etree._Element, tag: str, role: str | None) -> bool:
    """Whether ``element`` is a dialog: ``<dialog>``, role ``dialog`` or ``alertdialog``,
    or ``aria-modal="true"``. (Not by class name: "modal" names a product's details panel,
    a filter drawer and an article that can open one as often as a dialog.)"""
    return (
        tag == "dialog"
        or role in _DIALOG_ROLES
        or (element.get("aria-modal") or "").strip().lower() == "true"
    )


# A <header> holding the page's <h1> and a paragraph of this many characters outside links
# is the article's own header (its title and standfirst), not the site's banner.
_STANDFIRST = 80


def _heads_the_article(element: etree._Element) -> bool:
    """Whether ``element`` is a ``<header>`` holding an ``<h1>`` and a paragraph of prose."""
    if element.tag != "header" or not any(True for _ in islice(element.iter("h1"), 1)):
        return False
    return _holds_a_prose_paragraph(element)


def _a_note_in_the_article(element: etree._Element) -> bool:
    """Whether ``element`` is an ``<aside>`` inside an ``<article>`` holding a paragraph of
    prose: the article's own note, tip or box, which a browser shows in its text, not the
    page's sidebar (an aside of links, a bio or a "related" box is still cleaned out of
    the reading by its link density and its names)."""
    if element.tag != "aside" or not any(True for _ in element.iterancestors("article")):
        return False
    return _holds_a_prose_paragraph(element)


def _holds_a_prose_paragraph(element: etree._Element) -> bool:
    return any(_unlinked_length(p) >= _STANDFIRST for p in element.iter("p"))


def _unlinked_length(element: etree._Element) -> int:
    """Characters of ``element``'s text outside its links (a menu's are nearly none)."""
    return len(text_of(element)) - sum(len(text_of(link)) for link in element.iter("a"))
