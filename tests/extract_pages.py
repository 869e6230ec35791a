"""The fixture pages of tests/fixtures/pages/ read through extract_html, and the check the
page-kind tests share: the main text is in the Markdown and the page's chrome is not."""

from __future__ import annotations

from pathlib import Path

from rypsok.webfetch.extract import extract_html

PAGES = Path(__file__).parent / "fixtures" / "pages"
BASE = "https://example.org/page"


def markdown_of(name: str) -> str:
    return extract_html((PAGES / name).read_text(encoding="utf-8"), BASE).markdown


def assert_reads(markdown: str, main: tuple[str, ...], chrome: tuple[str, ...]) -> None:
    for text in main:
        assert text in markdown, text
    for text in chrome:
        assert text not in markdown, text
