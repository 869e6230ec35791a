"""Properties of what a text/markdown and a text/plain page go through
(:mod:`rypsok.webfetch.extract.text_page`, issue 25): read again by another CommonMark parser
(tests/commonmark.py, markdown-it-py), a Markdown page holds no link but to an absolute
http(s) target, no image and no raw HTML, whatever it wrote; a plain text holds no link but
an http(s) autolink, no image and no raw HTML; a plain text in which the reader finds none
of them comes back exactly as written; and a Markdown page's code reads as it did."""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rypsok.hygiene.text import clean_content
from rypsok.webfetch.extract import markdown_page, plain_text_page
from tests import commonmark

SETTINGS = settings(max_examples=250, deadline=None)
PAGE_URL = "https://docs.a.test/guide/page.md"

MARKUP = [
    "<", ">", "[", "]", "(", ")", "\\", "\\\\", "`", "``", "```", "~~~", "!", ":", "*", "_",
    "&", "&lt;", "&#92;", "&#60;", "#", "-", "1.", "\n", "\n\n", "    ", "\t", " ", '"', "'",
    "> ", "- ", "javascript:alert(1)", "mailto:me@a.test", "https://a.test/x", "/relative",
    "//a.test/", "../up", "#frag", "<a href=\"javascript:x\">", "</a>", "<script>",
    "</script>", "<div>", "<img src=x>", "<!--", "-->", "<?php", "?>", "<![CDATA[", "]]>",
    "<!DOCTYPE html>", "<javascript:y>", "<https://a.test/>", "<me@a.test>", "[x]: javascript:z",
    "[x]: /rel", "[y]: https://a.test/y", "[x]", "[y]", "[]", "![i](javascript:w)",
    "[t](javascript:v)", "[t][x]", "[t](/rel)", "[t](<javascript:u>)", "[t](https://a.test/t)",
    "![i](/p.png)", '[t](/rel "ti\\"tle")', "\\<", "\\[", "`[x](javascript:c)`", "xs[0]",
]  # fmt: skip
WORDS = st.from_regex(r"[a-z]{1,8}", fullmatch=True)


def pages(text: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Pages as the judging gets them: after the cleaner (no CR, no controls but TAB, LF)."""
    pieces = st.lists(st.one_of(st.sampled_from(MARKUP), WORDS, text), max_size=40)
    return pieces.map(lambda chosen: clean_content("".join(chosen)).text)


PAGES = pages(st.text(max_size=4))
# Where the two parsers read Unicode white space apart (markdown-it's patterns take U+00A0
# for white space, CommonMark does not), rypsok makes inert what either reads as markup:
# "comes back as written" is asked of pages both read alike.
ASCII_PAGES = pages(st.text(st.characters(max_codepoint=127), max_size=4))


@SETTINGS
@given(PAGES)
@example("<p\xa0")  # an HTML block for markdown-it, text for CommonMark
@example('<a\xa0href="javascript:x">y</a>')
def test_a_markdown_page_keeps_only_http_links(page: str) -> None:
    reading = commonmark.read(markdown_page(page, PAGE_URL))
    assert commonmark.only_http_links(reading), reading.links
    assert reading.images == [] and reading.html == [], reading


@SETTINGS
@given(PAGES)
def test_a_plain_text_keeps_only_http_autolinks(page: str) -> None:
    reading = commonmark.read(plain_text_page(page))
    assert commonmark.only_http_autolinks(reading), reading.links
    assert reading.images == [] and reading.html == [], reading


@SETTINGS
@given(ASCII_PAGES)
def test_a_plain_text_without_markup_comes_back_as_written(page: str) -> None:
    reading = commonmark.read(page)
    if reading.images or reading.html or not commonmark.only_http_autolinks(reading):
        return
    assert plain_text_page(page) == page


@SETTINGS
@given(ASCII_PAGES)
def test_a_markdown_page_whose_markup_is_allowed_comes_back_as_written(page: str) -> None:
    reading = commonmark.read(page)
    if reading.images or reading.html or not commonmark.only_http_links(reading):
        return
    if not all(
        target.lower().startswith(("http://", "https://")) for target in reading.definitions
    ):
        return  # a relative one is resolved
    assert markdown_page(page, PAGE_URL) == page


@SETTINGS
@given(PAGES)
def test_the_code_of_a_markdown_page_reads_as_it_did(page: str) -> None:
    before = Counter(commonmark.read(page).code)
    after = Counter(commonmark.read(markdown_page(page, PAGE_URL)).code)
    assert before - after == Counter(), (before, after)
