"""Main-content extraction for web_fetch (tools.md, web_fetch: "content is the main content of
the page as Markdown: navigation, headers, footers, sidebars, scripts, styles, comments and
anything a browser would not render are excluded; links keep absolute http(s) targets,
images contribute their alternative text"; the node and depth bounds of extraction_partial;
DECISIONS.md, Fetch: the charset order)."""

from __future__ import annotations

import dataclasses
import html as html_module
import random
import re

import pytest

from rypsok.webfetch.extract import (
    MAX_ATTRIBUTES,
    MAX_ATTRIBUTES_PER_ELEMENT,
    MAX_DEPTH,
    MAX_NODES,
    Extracted,
    decode_html,
    extract_html,
)
from rypsok.webfetch.extract.tree import parse
from tests import commonmark

BASE = "https://example.org/news/story.html"
ARTICLE = (
    "<p>The committee met on Tuesday, for the third time this year, to discuss the budget "
    "for the coming season and the repairs to the old bridge.</p>"
    "<p>Members agreed, after a long debate, that the repairs could not wait, and that the "
    "cost would be shared between the two towns on either side of the river.</p>"
    "<p>Work is expected to begin in the spring, weather permitting, and to last until the "
    "end of the summer, when the bridge will open again to traffic.</p>"
)


# prose around links: a paragraph that is mostly links is a link list, dropped as boilerplate
PROSE = (
    " pages describe the plan in detail, with maps, costs, timetables and the names of the "
    "engineers responsible for each part of the work."
)


def page(body: str, head: str = "<title>Bridge repairs agreed</title>") -> str:
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"


def markdown_of(body: str, base: str = BASE, head: str = "<title>T</title>") -> str:
    return extract_html(page(body, head), base).markdown


# ---------------------------------------------------------------------------- the API


def test_bounds_are_the_specs():
    assert MAX_NODES == 100_000
    assert MAX_DEPTH == 256
    assert (MAX_ATTRIBUTES_PER_ELEMENT, MAX_ATTRIBUTES) == (256, 200_000)  # docs/extraction.md


def test_extracted_is_a_frozen_record():
    result = extract_html(page(ARTICLE), BASE)
    assert isinstance(result, Extracted)
    assert [field.name for field in dataclasses.fields(Extracted)] == [
        "title",
        "markdown",
        "partial",
        "removed",
    ]
    assert result.partial is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.title = "x"  # type: ignore[misc]


@pytest.mark.parametrize("html", ["", "   \n", "<!-- only a comment -->", "<html></html>"])
def test_a_document_without_content_gives_empty_fields(html):
    assert extract_html(html, BASE) == Extracted(title="", markdown="", partial=False)


def test_plain_text_is_read_as_a_paragraph():
    assert extract_html("just some words", BASE).markdown == "just some words"


def test_inline_text_straight_in_the_body_is_read():
    html = "<html><body>" + "<span>word</span> " * 30 + "</body></html>"
    assert extract_html(html, BASE).markdown == " ".join(["word"] * 30)


TAGS = (
    "div", "p", "span", "a", "b", "i", "em", "strong", "ul", "ol", "li", "table", "tr", "td",
    "th", "h1", "h2", "h3", "pre", "code", "blockquote", "br", "hr", "img", "article", "main",
    "section", "nav", "header", "footer", "aside", "form", "input", "button", "figure",
    "figcaption", "dl", "dt", "dd", "sup", "script", "style", "noscript", "template", "iframe",
    "svg", "details", "summary",
)  # fmt: skip


def random_document(rng: random.Random, size: int) -> str:
    parts = []
    open_tags: list[str] = []
    for _ in range(size):
        roll = rng.random()
        if roll < 0.45:
            tag = rng.choice(TAGS)
            attrs = rng.choice(
                ["", " class='content'", " class='comments'", " hidden", " href='/x'",
                 " style='display:none'", " alt='alt text'", " role='main'", " id='sidebar'"]
            )  # fmt: skip
            parts.append(f"<{tag}{attrs}>")
            open_tags.append(tag)
        elif roll < 0.7 and open_tags:
            parts.append(f"</{open_tags.pop()}>")
        elif roll < 0.75:
            parts.append(rng.choice(["</div>", "</p>", "<!-- c -->", "&amp;", "&nbsp;", "<"]))
        else:
            parts.append(rng.choice(["Some words, here.", " * _ ` # ", "\n", "x" * 40, "|"]))
    return "".join(parts)


def test_arbitrary_markup_never_fails():
    rng = random.Random(20240607)
    for index in range(300):
        html = random_document(rng, rng.randrange(1, 400))
        result = extract_html(html, BASE)
        assert isinstance(result.markdown, str), index
        assert "<script" not in result.markdown


# ---------------------------------------------------------------------------- title


def test_title_is_the_raw_title_element_text():
    result = extract_html(page(ARTICLE, "<title>\n  Bridge &amp; river |  News\n</title>"), BASE)
    assert result.title == "\n  Bridge & river |  News\n"


def test_title_falls_back_to_og_title_then_h1():
    og = '<meta property="og:title" content="From Open Graph">'
    assert extract_html(page(ARTICLE, og), BASE).title == "From Open Graph"
    assert extract_html(page("<h1>The headline</h1>" + ARTICLE, ""), BASE).title == "The headline"
    assert extract_html(page(ARTICLE, "<title> </title>" + og), BASE).title == "From Open Graph"


def test_an_svg_title_is_not_the_page_title():
    body = "<svg><title>icon</title></svg>" + ARTICLE
    assert extract_html(page(body, ""), BASE).title == ""


def test_the_headline_repeating_the_title_is_not_repeated_in_content():
    result = extract_html(page("<h1>Bridge repairs agreed</h1>" + ARTICLE), BASE)
    assert "Bridge repairs agreed" not in result.markdown
    assert result.markdown.startswith("The committee met")


# ---------------------------------------------------------------------------- exclusions


def test_navigation_header_footer_and_sidebar_are_excluded():
    body = (
        "<header><a href='/'>Site name</a> tagline</header>"
        "<nav><ul><li><a href='/a'>Home</a></li><li><a href='/b'>World</a></li></ul></nav>"
        "<div role='navigation'>Breadcrumb trail</div>"
        f"<main>{ARTICLE}</main>"
        "<aside><p>Sidebar: the most read stories of the week, all of them, every one.</p></aside>"
        "<div role='complementary'>Complementary box</div>"
        "<footer><p>Copyright 2024, the publisher, all rights reserved everywhere.</p></footer>"
        "<div role='contentinfo'>Contact us</div>"
    )
    markdown = markdown_of(body)
    assert "The committee met on Tuesday" in markdown
    assert "Work is expected to begin" in markdown
    for chrome in (
        "Site name",
        "tagline",
        "Home",
        "World",
        "Breadcrumb",
        "Sidebar",
        "Complementary",
        "Copyright",
        "Contact us",
    ):
        assert chrome not in markdown


def test_scripts_styles_noscript_templates_iframes_and_comments_are_excluded():
    body = (
        "<script>var secret = 'script text';</script>"
        "<style>.x { content: 'style text' }</style>"
        "<noscript>Please enable JavaScript</noscript>"
        "<template><p>template text that is never rendered at all</p></template>"
        "<iframe src='/frame'>iframe fallback</iframe>"
        "<!-- an HTML comment -->" + ARTICLE + "<script type='application/ld+json'>{}</script>"
    )
    markdown = markdown_of(body)
    assert "The committee met" in markdown
    for hidden in ("script text", "style text", "JavaScript", "template text", "iframe", "comment"):
        assert hidden not in markdown


def test_form_controls_are_excluded_but_text_in_a_form_stays():
    body = (
        "<form action='/post'>" + ARTICLE + "<label for='q'>Your email</label>"
        "<input id='q' value='input value'><button>Subscribe now</button>"
        "<select><option>Option one</option></select><textarea>Text area</textarea></form>"
    )
    markdown = markdown_of(body)
    assert "The committee met" in markdown
    for control in ("Your email", "input value", "Subscribe", "Option one", "Text area"):
        assert control not in markdown


@pytest.mark.parametrize(
    "hidden",
    [
        "<p hidden>HIDDEN TEXT</p>",
        "<p hidden='until-found'>HIDDEN TEXT</p>",
        "<div aria-hidden='true'>HIDDEN TEXT</div>",
        "<div aria-hidden='TRUE'>HIDDEN TEXT</div>",
        "<p style='display:none'>HIDDEN TEXT</p>",
        "<p style='color: red; DISPLAY : None !important'>HIDDEN TEXT</p>",
        "<span style='visibility:hidden'>HIDDEN TEXT</span>",
        "<template>HIDDEN TEXT</template>",
        "<dialog>HIDDEN TEXT</dialog>",
    ],
)
def test_what_a_browser_does_not_render_is_excluded(hidden):
    markdown = markdown_of(f"<article>{ARTICLE}{hidden}</article>")
    assert "The committee met" in markdown
    assert "HIDDEN" not in markdown


def test_an_aria_hidden_wrapper_around_the_article_is_read():
    # Served with a dialog open, the page hides the rest from screen readers only.
    body = (
        "<div aria-hidden='true'><div aria-hidden='true'>ICON</div>"
        f"<article>{ARTICLE}</article></div><div role='dialog'>Subscribe!</div>"
    )
    markdown = markdown_of(body)
    assert "The committee met" in markdown
    assert "ICON" not in markdown
    assert "Subscribe" not in markdown


def test_a_body_hidden_until_a_script_runs_is_read():
    html = f"<html><body style='display:none' hidden>{ARTICLE}</body></html>"
    assert "The committee met" in extract_html(html, BASE).markdown


def test_visible_look_alikes_are_kept():
    body = (
        "<article>" + ARTICLE + "<p aria-hidden='false'>Shown one.</p>"
        "<p style='display:block'>Shown two.</p><p style='visibility:visible'>Shown three.</p>"
        "<dialog open>Shown four.</dialog></article>"
    )
    markdown = markdown_of(body)
    for shown in ("Shown one.", "Shown two.", "Shown three.", "Shown four."):
        assert shown in markdown


# ---------------------------------------------------------------------------- main content


def test_the_article_is_chosen_over_comments_related_links_and_share_bars():
    body = (
        "<div class='share-bar'><a href='/fb'>Share on Facebook</a> "
        "<a href='/tw'>Share on Twitter</a></div>"
        "<div id='content'><article><h1>Bridge repairs agreed</h1>"
        "<div class='social-share'>Share this article</div>"
        f"{ARTICLE}"
        "<div class='related-posts'><h3>Related</h3><ul>"
        "<li><a href='/1'>Another story about bridges and rivers</a></li>"
        "<li><a href='/2'>Yet another story about the council</a></li></ul></div>"
        "</article>"
        "<section id='comments' class='comments-area'><h2>12 comments</h2>"
        "<p>I think this is a terrible decision, the bridge was fine, and the money, "
        "frankly, should have gone to the schools instead of this.</p>"
        "<p>Agreed, and furthermore, the council never listens, never has, never will, "
        "and I am tired of writing to them about it every year.</p></section></div>"
        "<div class='cookie-banner'>We use cookies to improve your experience.</div>"
    )
    markdown = markdown_of(body)
    assert "The committee met on Tuesday" in markdown
    assert "Work is expected to begin" in markdown
    for boilerplate in ("Share", "Related", "Another story", "comments", "terrible", "cookies"):
        assert boilerplate not in markdown


def test_the_densest_text_block_wins_without_semantic_markup():
    menu = "".join(
        f"<div><a href='/s{i}'>Section number {i} of the site</a></div>" for i in range(30)
    )
    teasers = "".join(
        f"<div class='teaser'><a href='/t{i}'>A teaser headline that links elsewhere {i}</a></div>"
        for i in range(10)
    )
    body = f"<div>{menu}</div><div><div>{ARTICLE}</div></div><div>{teasers}</div>"
    markdown = markdown_of(body)
    assert "The committee met" in markdown
    assert "Section number" not in markdown
    assert "teaser headline" not in markdown


def test_an_article_split_across_sibling_blocks_is_kept_whole():
    second = ARTICLE.replace("committee", "council").replace("Members", "Officials")
    body = f"<div class='story'><div class='part'>{ARTICLE}</div><div class='part'>{second}</div></div>"
    markdown = markdown_of(body)
    assert "The committee met" in markdown
    assert "The council met" in markdown


def test_text_written_between_line_breaks_counts_as_paragraphs():
    loose = (
        "The committee met on Tuesday, for the third time this year, to discuss the budget.<br>"
        "<br>Members agreed, after a long debate, that the repairs could not wait any longer.<br>"
        "<br>Work is expected to begin in the spring, weather permitting, and last all summer."
    )
    links = "".join(f"<li><a href='/{i}'>Link number {i}</a></li>" for i in range(20))
    body = f"<div class='links'><ul>{links}</ul></div><div class='post'>{loose}</div>"
    assert markdown_of(body) == (
        "The committee met on Tuesday, for the third time this year, to discuss the budget."
        "\n\nMembers agreed, after a long debate, that the repairs could not wait any longer."
        "\n\nWork is expected to begin in the spring, weather permitting, and last all summer."
    )


def test_an_unclosed_header_does_not_lose_the_page():
    # The header is never closed, so the parser nests the whole document inside it.
    body = "<header><div class='logo'>Logo</div>" + ARTICLE
    markdown = markdown_of(body)
    assert "The committee met" in markdown


def test_a_page_that_is_a_list_of_links_gives_its_list():
    items = "".join(f"<li><a href='/p{i}'>Project number {i}</a></li>" for i in range(12))
    markdown = markdown_of(f"<h1>Projects</h1><ul>{items}</ul>")
    assert "- [Project number 0](https://example.org/p0)" in markdown
    assert "- [Project number 11](https://example.org/p11)" in markdown


def test_short_code_snippets_and_small_tables_in_an_article_are_kept():
    body = (
        f"<article>{ARTICLE}<div class='highlight'><pre>ls -l</pre></div>"
        "<div><code>x = 1</code></div></article>"
    )
    markdown = markdown_of(body)
    assert "```\nls -l\n```" in markdown
    assert "`x = 1`" in markdown


def test_heading_permalink_marks_are_dropped():
    body = f"<article><h2>Budget <a href='#budget'>¶</a></h2>{ARTICLE}</article>"
    assert markdown_of(body).startswith("## Budget\n\nThe committee met")


def test_a_page_whose_best_candidate_is_the_body_is_read_whole():
    # Four equal blocks straight in <body>: the body outscores each of them and three of
    # them score within 25% of it, which readability's move up would take above <body>.
    part = "word " * 110 + ", , , , , ,"
    html = "<html><body>" + "".join(f"<div><p>Part {i}: {part}</p></div>" for i in range(4))
    markdown = extract_html(html + "</body></html>", BASE).markdown
    assert [line.split(":")[0] for line in markdown.split("\n\n")] == [
        "Part 0",
        "Part 1",
        "Part 2",
        "Part 3",
    ]


def test_a_page_of_navigation_only_has_no_main_content():
    body = "<nav><ul>" + "".join(f"<li><a href='/{i}'>Item {i}</a></li>" for i in range(9))
    assert markdown_of(body + "</ul></nav>") == ""


# ---------------------------------------------------------------------------- Markdown


def test_headings_lists_and_emphasis():
    body = (
        "<article><h2>What was decided</h2>" + ARTICLE + "<h3>Next steps</h3>"
        "<ul><li>Close the bridge</li><li>Repair the <strong>deck</strong><ul>"
        "<li>Steel</li><li>Paint</li></ul></li></ul>"
        "<ol start='3'><li>Third</li><li>Fourth</li></ol>"
        "<p>It is <em>very</em> <b>important</b>, said <i>the mayor</i>.</p></article>"
    )
    markdown = markdown_of(body)
    assert "## What was decided\n\nThe committee met" in markdown
    assert "### Next steps" in markdown
    assert "- Close the bridge\n- Repair the **deck**\n  - Steel\n  - Paint" in markdown
    assert "3. Third\n4. Fourth" in markdown
    assert "It is *very* **important**, said *the mayor*." in markdown


def test_tables_become_pipe_tables():
    body = (
        "<article>" + ARTICLE + "<table><thead><tr><th>Town</th><th>Share</th></tr></thead>"
        "<tbody><tr><td>North | East</td><td>60%</td></tr><tr><td>South</td><td>40%</td></tr>"
        "</tbody></table></article>"
    )
    markdown = markdown_of(body)
    assert "| Town | Share |\n| --- | --- |\n| North \\| East | 60% |\n| South | 40% |" in markdown


def test_pre_becomes_a_fenced_code_block_and_code_an_inline_span():
    code = "def f(x):\n    return x * 2  # ``` inside\n"
    body = (
        "<article>" + ARTICLE + "<p>Call <code>f(2)</code> or <code>a`b</code>.</p>"
        f"<pre><code class='language-python'>{code}</code></pre></article>"
    )
    markdown = markdown_of(body)
    assert "Call `f(2)` or ``a`b``." in markdown
    assert "````python\ndef f(x):\n    return x * 2  # ``` inside\n````" in markdown


def test_blockquotes_and_line_breaks():
    body = (
        "<article>" + ARTICLE + "<blockquote><p>We will build it.</p><p>And soon.</p></blockquote>"
        "<p>Line one<br>line two</p></article>"
    )
    markdown = markdown_of(body)
    assert "> We will build it.\n>\n> And soon." in markdown
    assert "Line one\nline two" in markdown


def test_whitespace_collapses_like_a_browser_but_no_break_spaces_stay():
    markdown = markdown_of("<article>" + ARTICLE + "<p>  a \n\t b&nbsp;&nbsp;c </p></article>")
    assert markdown.endswith("\n\na b\u00a0\u00a0c")


def test_markdown_syntax_in_text_is_escaped():
    body = (
        "<article>" + ARTICLE + "<p>2 * 3 = 6, a_b, _x_ and `y`</p><p>1. not a list</p></article>"
    )
    markdown = markdown_of(body)
    assert "2 \\* 3 = 6, a_b, \\_x\\_ and \\`y\\`" in markdown
    assert "1\\. not a list" in markdown


# ---------------------------------------------------------------------------- links and images


def test_links_are_absolute_http_targets():
    body = (
        "<article>" + ARTICLE + "<p>"
        "<a href='/about'>root-relative</a> "
        "<a href='other.html'>relative</a> "
        "<a href='//cdn.example.net/x'>scheme-relative</a> "
        "<a href='https://elsewhere.example/page?q=1#top'>absolute</a> "
        "<a href='#section'>fragment</a> "
        "<a href='/a b(c)'>awkward</a>"
        f"{PROSE}</p></article>"
    )
    markdown = markdown_of(body)
    assert "[root-relative](https://example.org/about)" in markdown
    assert "[relative](https://example.org/news/other.html)" in markdown
    assert "[scheme-relative](https://cdn.example.net/x)" in markdown
    assert "[absolute](https://elsewhere.example/page?q=1#top)" in markdown
    assert "[fragment](https://example.org/news/story.html#section)" in markdown
    assert "[awkward](https://example.org/a%20b%28c%29)" in markdown


def test_base_href_is_honoured():
    head = "<title>T</title><base href='https://static.example.com/docs/'>"
    body = f"<article>{ARTICLE}<p><a href='guide.html'>guide</a>{PROSE}</p></article>"
    assert "[guide](https://static.example.com/docs/guide.html)" in markdown_of(body, head=head)


def test_links_with_other_schemes_keep_their_text_only():
    body = (
        "<article>" + ARTICLE + "<p>"
        "<a href='javascript:alert(1)'>run</a> <a href='mailto:a@example.org'>write</a> "
        "<a href='data:text/html,hi'>data</a> <a href='tel:+123'>call</a> "
        "<a href='ftp://example.org/f'>ftp</a> <a>anchor</a> <a href='http://[::1'>broken</a>"
        f"{PROSE}</p></article>"
    )
    markdown = markdown_of(body)
    assert "run write data call ftp anchor broken" + PROSE in markdown
    assert "](" not in markdown


def test_images_give_their_alternative_text_only():
    body = (
        "<article>" + ARTICLE + "<p>Before <img src='/a.png' alt='A map of the bridge'> after "
        "<img src='/b.png'> <img src='/c.png' alt=''> "
        "<a href='/big.png'><img src='/small.png' alt='Zoom in'></a></p></article>"
    )
    markdown = markdown_of(body)
    assert "Before A map of the bridge after" in markdown
    assert "[Zoom in](https://example.org/big.png)" in markdown
    assert "![" not in markdown
    assert ".png)" not in markdown.replace("(https://example.org/big.png)", "")


# ---------------------------------------------------------------------------- text stays text

# Page text (as the HTML source writes it) that would be a link, an image, an autolink, raw
# HTML or an entity if it were written into Markdown as it reads.
INJECTIONS = [
    "[click](javascript:alert(1))",
    "![i](javascript:alert(1))",
    "[a link](https://evil.example/)",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&lt;img src=x onerror=alert(1)&gt;",
    "&lt;!-- a comment --&gt; and &lt;?pi?&gt;",
    "&lt;javascript:alert(1)&gt;",
    "&lt;https://evil.example/&gt;",
    "&lt;me@evil.example&gt;",
    "&amp;lt;b&amp;gt; and &amp;#65; and &amp;amp;",
    "[x]</p><p>[x]: javascript:alert(1)",  # a reference definition starts its own block
    "[x][ref]</p><p>[ref]: https://evil.example/",
]


@pytest.mark.parametrize("source", INJECTIONS)
def test_text_that_reads_as_markup_stays_text(source):
    markdown = markdown_of(f"<article>{ARTICLE}<p>{source}</p></article>")
    reading = commonmark.read(markdown)
    assert reading.links == []
    assert reading.images == []
    assert reading.html == []
    visible = html_module.unescape(source.replace("</p><p>", " "))
    assert " ".join(visible.split()) in " ".join(reading.words)


@pytest.mark.parametrize(
    "line", ["---", "===", "- - -", "___", "***", "~~~ fence", "``` fence", "# hash", "> quote"]
)
def test_a_line_that_would_be_block_markup_stays_text(line):
    markdown = markdown_of(f"<article>{ARTICLE}<p>Above<br>{line}<br>below</p></article>")
    reading = commonmark.read(markdown)
    assert "Above\n" + line + "\nbelow" in reading.text


def test_link_text_and_alt_text_are_text_too():
    body = (
        f"<article>{ARTICLE}<p>"
        "<a href='/one'>one](javascript:alert(1)) [two</a> "
        "<a href='/two'><img src='/i.png' alt='](javascript:alert(2))'></a> "
        "<a href='javascript:alert(3)'>[three](javascript:alert(3))</a>"
        f"{PROSE}</p></article>"
    )
    reading = commonmark.read(markdown_of(body))
    assert reading.links == ["https://example.org/one", "https://example.org/two"]
    assert reading.html == [] and reading.images == []
    text = " ".join(reading.words)
    assert (
        "one](javascript:alert(1)) [two ](javascript:alert(2)) [three](javascript:alert(3))" in text
    )


def test_link_targets_keep_their_characters():
    body = (
        f"<article>{ARTICLE}<p>"
        "<a href='https://example.org/a\\b?q=1&amp;amp;r=2'>escaped</a> "
        "<a href='https://example.org/x y(1)&lt;2&gt;'>encoded</a>"
        f"{PROSE}</p></article>"
    )
    reading = commonmark.read(markdown_of(body))
    assert reading.links == [
        "https://example.org/a%5Cb?q=1&amp;r=2",  # the attribute says "&amp;", not "&"
        "https://example.org/x%20y%281%29%3C2%3E",
    ]


def test_a_code_block_language_cannot_break_its_fence():
    body = (
        f"<article>{ARTICLE}<pre class='language-x`y'><code>&lt;img src=x onerror=alert(1)&gt;"
        "</code></pre><pre><code class='language-c++'>int x;</code></pre></article>"
    )
    markdown = markdown_of(body)
    reading = commonmark.read(markdown)
    assert reading.html == []
    assert "<img src=x onerror=alert(1)>\n" in reading.text
    assert "```c++\nint x;\n```" in markdown


# ---------------------------------------------------------------------------- controls


@pytest.mark.parametrize(
    ("written", "removed"),
    [
        ("\x00", 1),  # libxml2 would make it U+FFFD
        ("\x01\x08\x0b\x1f", 4),
        ("\ufffe\uffff", 2),
        ("&#0;&#1;&#x1F;&#xFFFF;&#8", 5),  # as numeric character references
        ("\x0c&#12;", 0),  # FF is HTML white space: a space
    ],
)
def test_controls_lxml_cannot_hold_are_removed_and_counted(written, removed):
    # next to an element that is removed, where text is moved, which lxml refuses to do
    # with such characters (it raised ValueError)
    html = page(f"<article>{ARTICLE}<p>Before{written}<nav>menu</nav>{written}after</p></article>")
    result = extract_html(html, BASE)
    assert result.removed == 2 * removed
    assert result.markdown.endswith("Before after" if written.startswith("\x0c") else "Beforeafter")


# ---------------------------------------------------------------------------- XHTML


def test_xhtml_with_an_xml_declaration():
    xhtml = (
        '<?xml version="1.0" encoding="iso-8859-1"?>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head>'
        f"<body><article>{ARTICLE}<p>Self-closing<br/>break and <img alt='alt' /></p>"
        "</article></body></html>"
    )
    result = extract_html(xhtml, BASE)
    assert result.title == "X"
    assert "The committee met" in result.markdown
    assert "Self-closing\nbreak and alt" in result.markdown


# ---------------------------------------------------------------------------- bounds


DEEP = "DEEP TEXT, long enough to be a paragraph of its own, written at the bottom."


def nested(depth: int, opening: str = "<div>", closing: str = "</div>") -> str:
    return opening * depth + DEEP + closing * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH - 3, MAX_DEPTH - 2, 300, 10_000, 100_000])
def test_nesting_past_the_depth_bound_is_cut_there(depth):
    # html, body and article are levels 1 to 3: MAX_DEPTH - 3 divs end exactly at the bound
    html = f"<html><body><article>{ARTICLE}{nested(depth)}<p>AFTER TEXT</p></article></body></html>"
    result = extract_html(html, BASE)
    assert "The committee met" in result.markdown
    if depth <= MAX_DEPTH - 3:
        assert result.partial is False
        assert "DEEP TEXT" in result.markdown and "AFTER TEXT" in result.markdown
    else:
        assert result.partial is True
        assert "DEEP TEXT" not in result.markdown
        assert "AFTER TEXT" not in result.markdown


@pytest.mark.parametrize(
    ("opening", "closing"),
    [
        ("<b>", "</b>"),
        ("<span>", "</span>"),
        ("<blockquote>", "</blockquote>"),
        ("<ul><li>", "</li></ul>"),
        ("<ol><li><p>", "</p></li></ol>"),
        ("<table><tr><td>", "</td></tr></table>"),
        ("<em><code>", "</code></em>"),
    ],
)
def test_nesting_up_to_the_bound_renders_and_past_it_is_cut(opening, closing):
    levels = opening.count("<")
    fits = (MAX_DEPTH - 3) // levels
    html = f"<html><body><article>{ARTICLE}{nested(fits, opening, closing)}</article></body></html>"
    result = extract_html(html, BASE)
    assert result.partial is False
    assert "The committee met" in result.markdown
    assert "DEEP TEXT" in result.markdown
    html = f"<html><body><article>{ARTICLE}{nested(5000, opening, closing)}</article></body></html>"
    result = extract_html(html, BASE)
    assert result.partial is True
    assert "The committee met" in result.markdown
    assert "DEEP TEXT" not in result.markdown


def test_a_huge_flat_document_is_cut_at_the_node_bound():
    count = MAX_NODES + 20_000
    html = (
        "<html><body><article>"
        + "".join(f"<p>paragraph {i}</p>" for i in range(count))
        + "</article></body></html>"
    )
    result = extract_html(html, BASE)
    assert result.partial is True
    numbers = [int(n) for n in re.findall(r"paragraph (\d+)", result.markdown)]
    assert numbers[0] == 0
    # html, body and article are elements too: the last paragraph read is the 100000th element
    assert numbers[-1] == MAX_NODES - 4
    assert numbers == list(range(len(numbers)))


def test_a_document_at_the_node_bound_is_whole():
    # html and body are two of the MAX_NODES elements
    html = "<html><body>" + "<p>x</p>" * (MAX_NODES - 2) + "</body></html>"
    assert extract_html(html, BASE).partial is False
    html = "<html><body>" + "<p>x</p>" * (MAX_NODES - 1) + "</body></html>"
    assert extract_html(html, BASE).partial is True


def test_markup_like_text_in_scripts_does_not_count_as_elements():
    # more "<" than MAX_NODES, but inside a script: the document is read whole
    script = "<script>" + "if (a<b) {}\n" * (MAX_NODES + 10) + "</script>"
    html = f"<html><body>{script}<article>{ARTICLE}</article><p>END</p></body></html>"
    result = extract_html(html, BASE)
    assert result.partial is False
    assert "The committee met" in result.markdown


def attributes(count: int, value: str = "") -> str:
    return " ".join(f"a{i}{value}" for i in range(count))


def test_attributes_past_the_per_element_bound_are_dropped():
    over = MAX_ATTRIBUTES_PER_ELEMENT
    body = (
        f"<article>{ARTICLE}<p>"
        f"<a href='/kept' {attributes(over)}>kept link</a> "
        f"<a {attributes(over)} href='/dropped'>dropped link</a> "
        f"<span {attributes(over - 1)} hidden>HIDDEN TEXT</span>"
        f"<span {attributes(over)} hidden>shown text</span>"
        f"{PROSE}</p></article>"
    )
    result = extract_html(page(body), BASE)
    assert "[kept link](https://example.org/kept)" in result.markdown
    assert " dropped link shown text" + PROSE in result.markdown
    assert "HIDDEN" not in result.markdown
    assert result.partial is True


@pytest.mark.parametrize(
    "tag",
    [
        "<div {} {}>",  # plain names
        '<div x="a b" {}/{}>',  # a quoted value with a space, a slash between attributes
        '<div x" {} {}>',  # a quote inside a name does not open a value
        "<div x='>' {} {}>",  # a quoted '>' does not end the tag
        '<div x=a"b {} {}>',  # an unquoted value runs to the next space
        "<DIV\n{}\t{}\f>",  # upper case, and every kind of tag space
    ],
)
def test_the_attribute_bound_reads_tags_as_the_parser_does(tag):
    # 150 + 150 attributes in one start tag, written in ways a tokenizer can misread
    html = tag.format(attributes(150, "=v"), " ".join(f"b{i}" for i in range(150)))
    root, partial, _ = parse(f"<html><body>{html}text</div></body></html>")
    counts = [len(element.attrib) for element in root.iter()]
    assert max(counts) == MAX_ATTRIBUTES_PER_ELEMENT
    assert partial is True


@pytest.mark.parametrize(
    "document",
    [
        # found by Hypothesis: "&#12;" in a tag's name is a form feed to the parser, so the
        # "<html" after it is an attribute, the 257th
        pytest.param("<html&#12;<html " + " ".join(f"n{i}" for i in range(261)) + ">", id="ff"),
        pytest.param("<html&#x0C;<html {}>", id="ff-hex"),
        pytest.param("<p x=a&#12;b {}>text", id="ff-in-a-value"),  # one value read as two
        pytest.param("<\x01div {}>text", id="control"),  # removed: "<div" starts a tag
        pytest.param("<&#1;div {}>text", id="control-reference"),
        pytest.param("<\ufffediv {}>text", id="noncharacter"),
    ],
)
def test_the_attribute_bound_reads_the_markup_the_parser_is_given(document):
    # what lxml cannot hold is removed (a form feed reference read as a space) before the
    # attribute bound reads the tags, so it reads them where the parser reads them
    root, partial, _ = parse(document.format(attributes(300)))
    assert max(len(element.attrib) for element in root.iter()) == MAX_ATTRIBUTES_PER_ELEMENT
    assert partial is True


@pytest.mark.parametrize("element", ["title", "script", "style", "textarea", "plaintext"])
@pytest.mark.parametrize("own", [1, 300])
def test_a_self_closed_text_element_ends_where_the_parser_ends_it(element, own):
    # libxml2 ends <title/> (and the other text elements) at the slash, so the tag after it
    # is markup the bound must read, not the element's text (found by Hypothesis)
    root, _, _ = parse(f"<{element} {attributes(own)} /><p {attributes(300)}>text</p>")
    counts = {child.tag: len(child.attrib) for child in root.iter()}
    assert counts[element] == min(own, MAX_ATTRIBUTES_PER_ELEMENT)
    assert counts["p"] == MAX_ATTRIBUTES_PER_ELEMENT


@pytest.mark.parametrize("value", ["", "=1"])
def test_a_document_is_cut_at_the_attribute_bound(value):
    # 250 attributes a paragraph: the 801st paragraph takes the document past 200,000
    per = 250
    paragraphs = "".join(f"<p {attributes(per, value)}>paragraph {i}</p>" for i in range(1000))
    result = extract_html(f"<html><body><article>{paragraphs}</article></body></html>", BASE)
    assert result.partial is True
    numbers = [int(n) for n in re.findall(r"paragraph (\d+)", result.markdown)]
    assert numbers == list(range(MAX_ATTRIBUTES // per))


def test_a_document_at_the_attribute_bound_is_whole():
    per = 200
    paragraphs = "".join(
        f"<p {attributes(per)}>paragraph {i}</p>" for i in range(MAX_ATTRIBUTES // per)
    )
    result = extract_html(f"<html><body><article>{paragraphs}</article></body></html>", BASE)
    assert result.partial is False
    assert result.markdown.count("paragraph") == MAX_ATTRIBUTES // per


def test_a_five_megabyte_page_extracts_whole():
    paragraph = (
        "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
        "incididunt ut labore et dolore magna aliqua. <a href='/x'>A link</a> and "
        "<b>bold</b> text.</p>\n"
    )
    html = page("<nav>menu</nav><article>" + paragraph * 30_000 + "</article>")
    assert len(html) > 5_000_000
    result = extract_html(html, BASE)
    assert result.partial is False
    assert result.markdown.count("Lorem ipsum") == 30_000


# ---------------------------------------------------------------------------- decoding


def test_the_header_charset_comes_first():
    body = '<meta charset="utf-8"><p>caf\xe9</p>'.encode("latin-1")
    assert "café" in decode_html(body, "iso-8859-1")
    assert "café" in decode_html(b"\xef\xbb\xbf" + body, "windows-1252")


def test_latin1_labels_decode_as_windows_1252():
    assert decode_html(b"\x93quoted\x94", "ISO-8859-1") == "\u201cquoted\u201d"


def test_a_bom_comes_before_the_meta_declaration():
    text = '<meta charset="windows-1252"><p>naïve</p>'
    assert decode_html(b"\xef\xbb\xbf" + text.encode("utf-8"), None) == text
    assert decode_html(b"\xff\xfe" + text.encode("utf-16-le"), None) == text


def test_the_meta_declaration_comes_before_sniffing():
    text = '<html><head><meta charset="windows-1251"></head><body><p>привет</p></body></html>'
    assert decode_html(text.encode("cp1251"), None) == text
    pragma = '<meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p>日本語</p>'
    assert decode_html(pragma.encode("shift_jis"), None) == pragma


def test_an_xml_declaration_names_the_charset_of_xhtml():
    text = '<?xml version="1.0" encoding="ISO-8859-15"?><html><body><p>€</p></body></html>'
    assert decode_html(text.encode("iso-8859-15"), None) == text


def test_without_a_declaration_valid_utf8_is_utf8_else_windows_1252():
    assert decode_html("<p>café €</p>".encode(), None) == "<p>café €</p>"
    assert decode_html(b"<p>caf\xe9 \x80</p>", None) == "<p>café €</p>"


def test_an_unknown_header_charset_falls_through():
    assert decode_html("<p>café</p>".encode(), "no-such-charset") == "<p>café</p>"
    assert "<p>пр</p>" in decode_html(b'<meta charset="koi8-r"><p>\xd0\xd2</p>', "bogus")


def test_a_meta_claiming_utf16_is_read_as_utf8():
    text = '<meta charset="utf-16"><p>café</p>'
    assert decode_html(text.encode("utf-8"), None) == text


def test_undecodable_bytes_are_replaced_not_fatal():
    assert decode_html(b"<p>\xff\xfe\xfd</p>", "utf-8") == "<p>\ufffd\ufffd\ufffd</p>"
