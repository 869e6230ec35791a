"""Properties of :func:`rypsok.webfetch.extract.inert`, what raw HTML in a plain-text or
Markdown page goes through, and a whole page that the judging of
:mod:`rypsok.webfetch.extract.text_page` could not settle (issue 17, item 5; issue 25): read by
a CommonMark parser (tests/commonmark.py, markdown-it-py),
its output holds no link, image, autolink or raw HTML, whatever the page wrote; it is the
page as written with a backslash added before some ``<`` and ``[``; and the words of the
page read back."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.webfetch.extract import inert
from tests import commonmark

SETTINGS = settings(max_examples=300, deadline=None)

MARKUP = [
    "<", ">", "[", "]", "(", ")", "\\", "\\\\", "`", "``", "```", "~~~", "!", ":", "*", "_",
    "&", "&lt;", "&#92;", "&#60;", "#", "-", "1.", "\n", "\n\n", "    ", "\t", " ", '"', "'",
    "javascript:alert(1)", "mailto:me@a.test", "https://a.test/x", "/relative", "//a.test/",
    "<a href=\"javascript:x\">", "</a>", "<script>", "</script>", "<div>", "<img src=x>",
    "<!--", "-->", "<?php", "?>", "<![CDATA[", "]]>", "<!DOCTYPE html>", "<javascript:y>",
    "<https://a.test/>", "<me@a.test>", "[x]: javascript:z", "[x]", "![i](javascript:w)",
    "[t](javascript:v)", "[t][x]", "[t](/rel)", "[t](<javascript:u>)", "\\<", "\\[",
]  # fmt: skip
WORDS = st.from_regex(r"[a-z]{1,8}", fullmatch=True)
PAGES = st.lists(st.one_of(st.sampled_from(MARKUP), WORDS, st.text(max_size=4)), max_size=40)

# Markup that keeps every word in text a reader sees: no code (a fence's info string is not
# text), no entities (``&amp;`` reads as ``&``).
READABLE_MARKUP = [m for m in MARKUP if not any(c in m for c in "`~&")]
READABLE_PAGES = st.lists(
    st.one_of(st.sampled_from(READABLE_MARKUP), WORDS, st.just(" ")), max_size=40
)
_WORD = re.compile(r"[a-z]+")


def _added_backslashes_removed(text: str, source: str) -> bool:
    """Whether ``text`` is ``source`` with backslashes inserted, each right before a < or [."""
    at = 0
    for index, char in enumerate(text):
        if at < len(source) and char == source[at]:
            at += 1
        elif char != "\\" or index + 1 >= len(text) or text[index + 1] not in "<[\\":
            return False
    return at == len(source)


@SETTINGS
@given(PAGES)
def test_no_link_image_or_html_survives(pieces: list[str]) -> None:
    page = "".join(pieces)
    reading = commonmark.read(inert(page))
    assert reading.links == [] and reading.images == [] and reading.html == [], reading


@SETTINGS
@given(PAGES)
def test_the_page_is_returned_as_written_with_backslashes_added(pieces: list[str]) -> None:
    page = "".join(pieces)
    made = inert(page)
    assert _added_backslashes_removed(made, page)
    assert made.count("\\") - page.count("\\") == len(made) - len(page)
    assert inert(made) == made  # nothing left to escape


@SETTINGS
@given(READABLE_PAGES)
def test_the_words_read_back(pieces: list[str]) -> None:
    page = "".join(pieces)
    seen = commonmark.read(inert(page)).text
    for word in _WORD.findall(page):
        assert word in seen, (word, seen)
