"""Properties of main-content extraction (rypsok.webfetch.extract and page.build_response).

Extraction never raises on any markup: misnested and unclosed tags, <html> inside <body>,
empty and comment-only documents, nests past the depth bound, random attributes (past the
attribute bound too), NULs and other controls, broken bytes in any charset. What it writes
is Markdown in which page text stays text: read by a CommonMark parser, the only links are
http(s) ones the page's own <a href> made, there is no image and no raw HTML, and the text
of a paragraph reads back as it was written.
"""

from __future__ import annotations

import html as html_module
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rypsok.errors import ToolError
from rypsok.webfetch.extract import (
    MAX_ATTRIBUTES_PER_ELEMENT,
    Extracted,
    decode_html,
    extract_html,
)
from rypsok.webfetch.extract.tree import parse
from rypsok.webfetch.page import RawPage, build_response
from tests import commonmark

BASE = "https://example.org/dir/page.html"
SETTINGS = settings(max_examples=150, deadline=None)
_WORD = re.compile(r"\w")

TAGS = (
    "html", "head", "body", "title", "meta", "base", "script", "style", "noscript", "template",
    "textarea", "xmp", "iframe", "plaintext", "div", "p", "span", "a", "b", "i", "em", "strong",
    "code", "pre", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "td",
    "th", "caption", "h1", "h2", "h3", "blockquote", "br", "hr", "img", "figure", "figcaption",
    "article", "main", "section", "nav", "header", "footer", "aside", "form", "input", "button",
    "select", "option", "svg", "math", "dialog", "details", "summary", "del", "s", "kbd", "sup",
)  # fmt: skip
ATTRIBUTE_NAMES = (
    "href", "src", "alt", "class", "id", "style", "hidden", "role", "aria-hidden", "itemprop",
    "open", "start", "lang", "title", "=", "x\"", "a'b", "data-x",
)  # fmt: skip
ATTRIBUTE_VALUES = (
    "/x", "x y", "javascript:alert(1)", "JaVaScRiPt:alert(1)", " java\tscript:x", "data:x,y",
    "https://example.org/a(b)c", "//cdn.example/x", "mailto:a@example.org", "#frag",
    "https://e.example/a\\b", "display:none", "main", "language-x`y", "language-py", "true",
    "content", "comments", ">", "<script>", "\x00", "&amp;amp;", "\"", "'",
)  # fmt: skip
SNIPPETS = (
    "[click](javascript:alert(1))", "![i](javascript:x)", "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&lt;img src=x onerror=alert(1)&gt;", "&lt;me@example.org&gt;", "&lt;https://e.example&gt;",
    "&amp;lt;", "&#0;", "&#1;", "&#x1f", "&#xFFFF;", "&#12;", "&#x110000;", "&bogus;", "&nbsp;",
    "<", "</", "<>", "<!", "<?x?>", "\x0c", "\ufffe",
    "<!-- c -->", "<!--", "-->", "<![CDATA[ x ]]>", "<!DOCTYPE html>", "\x00", "\x01\x7f\x85",
    "* _ ` # > - + 1. | ~~~ --- ===", "__init__", "Wow!", "\\", "\r\n", "\t", "\u00a0",
)  # fmt: skip

text = st.text(st.characters(codec="utf-8"), max_size=30) | st.sampled_from(SNIPPETS)
attribute_value = st.sampled_from(ATTRIBUTE_VALUES) | st.text(max_size=12)


@st.composite
def attribute(draw: st.DrawFn) -> str:
    name = draw(
        st.sampled_from(ATTRIBUTE_NAMES) | st.from_regex(r"[a-z][a-z0-9-]{0,6}", fullmatch=True)
    )
    if draw(st.booleans()):
        return name
    quote = draw(st.sampled_from(['"', "'", ""]))
    return f"{name}={quote}{draw(attribute_value)}{quote}"


@st.composite
def start_tag(draw: st.DrawFn) -> str:
    tag = draw(st.sampled_from(TAGS))
    if draw(st.booleans()):
        tag = tag.upper()
    attributes = draw(st.lists(attribute(), max_size=4))
    if draw(st.integers(0, 20)) == 0:  # past the bound, now and then
        attributes += [f"n{i}" for i in range(MAX_ATTRIBUTES_PER_ELEMENT + 5)]
    space = draw(st.sampled_from([" ", "\n", "\t", "/"]))
    end = draw(st.sampled_from([">", "/>", " >", ""]))
    return f"<{tag}" + "".join(space + a for a in attributes) + end


def end_tag(tag: str) -> str:
    return f"</{tag}>"


token = st.one_of(
    start_tag(),
    st.sampled_from(TAGS).map(end_tag),
    text,
    text.map(html_module.escape),
)


@st.composite
def deep_nest(draw: st.DrawFn) -> str:
    tag = draw(st.sampled_from(("div", "b", "blockquote", "li", "table", "a", "span", "p")))
    depth = draw(st.integers(250, 300))
    closed = draw(st.booleans())
    inner = draw(text)
    return f"<{tag}>" * depth + inner + (f"</{tag}>" * depth if closed else "")


documents = st.one_of(
    st.lists(token, max_size=60).map("".join),
    st.tuples(st.lists(token, max_size=10), deep_nest(), st.lists(token, max_size=10)).map(
        lambda parts: "".join(parts[0]) + parts[1] + "".join(parts[2])
    ),
    st.sampled_from(["", " ", "\n", "<!-- -->", "<!---->", "<!--", "<html></html>"]),
    st.lists(st.sampled_from(["<!-- a -->", "<!--->", " ", "<!DOCTYPE html>"])).map("".join),
    st.lists(token, max_size=20).map(lambda parts: "<html><body>" + "".join(parts) + "<html>"),
    st.lists(token, max_size=20).map(lambda parts: "<body><html><body>" + "".join(parts)),
)


@SETTINGS
@given(documents)
def test_extraction_never_raises(document):
    result = extract_html(document, BASE)
    assert isinstance(result, Extracted)
    assert isinstance(result.title, str) and isinstance(result.markdown, str)
    assert isinstance(result.partial, bool)
    assert "\x00" not in result.markdown and "\x00" not in result.title


@SETTINGS
@given(documents)
def test_reading_a_page_raises_only_extraction_failed(document):
    raw = RawPage(BASE, "text/html", None, document.encode("utf-8", "surrogatepass"))
    try:
        response = build_response(raw, 0, 500)
    except ToolError as error:
        assert (error.kind, error.detail) == (
            "unsupported_content",
            {"reason": "extraction_failed"},
        )
    else:
        assert response.content.strip()


@SETTINGS
@given(
    st.binary(max_size=300),
    st.sampled_from([None, "utf-8", "utf-16", "shift_jis", "koi8-r", "x-bogus", "iso-2022-jp"]),
)
def test_any_bytes_in_any_charset_decode_and_extract(body, charset):
    assert isinstance(extract_html(decode_html(body, charset), BASE), Extracted)


@SETTINGS
@given(documents)
@example("<html&#12;<html " + " ".join(f"n{i}" for i in range(261)) + ">")
def test_no_tag_reaches_the_parser_with_more_attributes_than_the_bound(document):
    root, _, _ = parse(document)
    if root is not None:
        assert max(len(element.attrib) for element in root.iter()) <= MAX_ATTRIBUTES_PER_ELEMENT


@SETTINGS
@given(documents)
def test_the_only_links_are_http_and_there_is_no_image_or_raw_html(document):
    reading = commonmark.read(extract_html(document, BASE).markdown)
    assert commonmark.only_http_links(reading), reading.links
    assert reading.images == []
    assert reading.html == []


# printable text: what a paragraph of the page says (controls are the cleaner's business)
printable = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp", "Co", "Cn")),
    min_size=1,
    max_size=40,
)
MARKUP_AS_TEXT = (
    "[click](javascript:alert(1))", "![i](javascript:x)", "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>", "<me@example.org>", "<https://e.example>", "&lt;", "&#65;",
    "&amp;", "* _ ` # > - + 1. | ~~~ --- ===", "__init__", "Wow!", "\\", "---", "===", ">0",
    "1)", "# x", "~~~", "[x]: /url", "<!-- c -->",
)  # fmt: skip
line = printable | st.sampled_from(MARKUP_AS_TEXT)


@SETTINGS
@given(st.lists(line, min_size=1, max_size=5))
def test_the_text_of_a_paragraph_reads_back_as_written(lines):
    source = "<br>".join(html_module.escape(part) for part in lines)
    markdown = extract_html(f"<html><body><p>{source}</p></body></html>", BASE).markdown
    reading = commonmark.read(markdown)
    assert reading.links == [] and reading.images == [] and reading.html == []
    assert reading.words == " ".join(lines).split()


@SETTINGS
@given(st.lists(st.tuples(printable, st.sampled_from(ATTRIBUTE_VALUES)), min_size=1, max_size=4))
def test_link_text_is_text_and_targets_are_the_pages_http_ones(links):
    anchors = " ".join(
        f"<a href='{html_module.escape(href, quote=True)}'>{html_module.escape(label)}</a>"
        for label, href in links
    )
    markdown = extract_html(f"<html><body><p>{anchors}</p></body></html>", BASE).markdown
    reading = commonmark.read(markdown)
    assert commonmark.only_http_links(reading), reading.links
    assert reading.images == [] and reading.html == []
    assert len(reading.links) <= len(links)
    # a same-page link without a letter or digit is a heading's permalink mark, dropped
    kept = [
        label for label, href in links if not (href.startswith("#") and not _WORD.search(label))
    ]
    assert reading.words == " ".join(kept).split()
