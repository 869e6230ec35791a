"""Main content of pages that are not news articles (issue 11: forums, documentation,
listings, collections, products, services). Each page in tests/fixtures/pages/ was written
for this project and shows one way the main content has been lost; each test asserts that
the main text is in the Markdown and that the page's chrome is not (tools.md, web_fetch:
"content is the main content of the page as Markdown: navigation, headers, footers,
sidebars, scripts, styles, comments and anything a browser would not render are
excluded")."""

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


def test_a_thread_served_in_noscript_is_read_and_the_notice_is_not():
    markdown = markdown_of("forum-in-noscript.html")
    assert_reads(
        markdown,
        main=(
            "Our water is very hard, and the kettle grows a white crust",
            "Citric acid at the usual strength will not hurt a stainless element",
            "Thank you, that settles it.",
        ),
        chrome=("enable JavaScript", "Log In", "Privacy Policy", "Related topics"),
    )


def test_content_swallowed_by_a_button_left_open_is_read():
    markdown = markdown_of("button-left-open.html")
    assert_reads(
        markdown,
        main=(
            "A heat pump moves heat instead of making it.",
            "## Why it uses less energy",
            "On very cold days there is less heat in the outside air",
        ),
        chrome=("Main menu", "Insulation", "Copyright", "Contact us"),
    )
