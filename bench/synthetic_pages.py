"""A battery of small synthetic pages with their ground truth, for bench/extraction.py's
`--set synthetic` (issue 18: small, clean pages must come back whole, and the failure
classes seen on held-out sets).

Each page kind is a builder; each page is drawn from a seeded generator that varies the
text (English or German), the wrappers, the class names (none, neutral, random letters,
or names that mislead: "widget", "teaser", "sidebar-inner" on the content) and how much
chrome surrounds the content (none, a menu and a footer line, or a site's full header,
sidebar, footer, cookie banner and share bar, as divs or as semantic elements). The
truth is the text a reader takes for the page's content, the headline excluded (the
title is returned on its own).

    python bench/synthetic_pages.py OUT_DIR [--seed N] [--per-kind N]

writes OUT_DIR/html/<id>.html.gz and OUT_DIR/ground-truth/<id>.json (the shared scorer's
layout; `page_type` is the page's kind).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections.abc import Callable
from pathlib import Path

from synthetic_chrome import (
    Markup,
    Page,
    assemble,
    esc,
    filter_panel,
    links,
    numbered,
)
from synthetic_text import Words

DEFAULT_SEED = 18
DEFAULT_PER_KIND = 3


def in_a_block(kind: str, html: str, truth: list[str], w: Words, m: Markup) -> Page:
    """A page whose content is ``html`` in one block, with little to a full site's chrome."""
    return Page(
        kind, f"<div{m.cls('content')}>{html}</div>", truth, w.title(), chrome=w.rng.randint(0, 2)
    )


def single_article(w: Words, m: Markup) -> Page:
    paras = [w.paragraph() for _ in range(w.rng.randint(2, 6))]
    body = "".join(f"<p>{esc(p)}</p>" for p in paras)
    title = w.title()
    return Page("single-article", f"<article{m.cls('content')}><h1>{esc(title)}</h1>{body}</article>",
                paras, title, chrome=w.rng.randint(0, 1))  # fmt: skip


def div_of_paragraphs(w: Words, m: Markup) -> Page:
    paras = [w.paragraph(1, 4) for _ in range(w.rng.randint(2, 5))]
    inner = "".join(f"<p>{esc(p)}</p>" for p in paras)
    return Page("div-paragraphs", f"<div{m.cls('content')}>{inner}</div>", paras, w.title(),
                chrome=w.rng.choice([0, 0, 1]))  # fmt: skip


def headings_and_lists(w: Words, m: Markup) -> Page:
    truth, html = [], ""
    for _ in range(w.rng.randint(2, 4)):
        heading = w.title()
        items = [w.phrase(3, 8) for _ in range(w.rng.randint(3, 6))]
        tag = w.rng.choice(["ul", "ol"])
        html += f"<h2>{esc(heading)}</h2><{tag}>" + "".join(f"<li>{esc(i)}</li>" for i in items)
        html += f"</{tag}>"
        truth += [heading, *(numbered(items) if tag == "ol" else items)]
    return in_a_block("headings-lists", html, truth, w, m)


def data_table(w: Words, m: Markup) -> Page:
    intro = w.sentence() if w.rng.random() < 0.6 else ""
    heads = [w.phrase(1, 2) for _ in range(w.rng.randint(3, 5))]
    rows = [
        [w.phrase(1, 3) if c == 0 else str(w.rng.randint(1, 9999)) for c in range(len(heads))]
        for _ in range(w.rng.randint(5, 14))
    ]
    use_th = w.rng.random() < 0.7
    head_row = "".join(
        f"<th>{esc(h)}</th>" if use_th else f"<td><b>{esc(h)}</b></td>" for h in heads
    )
    table = (
        f"<table{m.cls('content')}><tr>{head_row}</tr>"
        + "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
        + "</table>"
    )
    main = (f"<p>{esc(intro)}</p>" if intro else "") + table
    truth = ([intro] if intro else []) + [" ".join(heads)] + [" ".join(r) for r in rows]
    return Page("data-table", main, truth, w.title(), chrome=w.rng.randint(0, 2))


def definition_list(w: Words, m: Markup) -> Page:
    truth, items = [], ""
    for _ in range(w.rng.randint(4, 9)):
        term, definition = w.phrase(1, 3), w.sentence()
        items += f"<dt>{esc(term)}</dt><dd>{esc(definition)}</dd>"
        truth += [term, definition]
    intro = w.sentence()
    return Page("definition-list", f"<p>{esc(intro)}</p><dl{m.cls('content')}>{items}</dl>",
                [intro, *truth], w.title(), chrome=w.rng.randint(0, 2))  # fmt: skip


_CODE = [
    "def area(width, height):\n    return width * height\n",
    "for name in names:\n    print(name.upper())\n",
    "$ make install PREFIX=/usr/local\n$ hello --version\n",
    "[server]\nport = 8080\nworkers = 4\n",
    "SELECT title, year FROM books\nWHERE year > 1990\nORDER BY year;\n",
    "const total = items.reduce((sum, x) => sum + x.price, 0);\nconsole.log(total);\n",
]


def code_blocks(w: Words, m: Markup) -> Page:
    truth, html = [], ""
    for code in w.rng.sample(_CODE, w.rng.randint(2, 4)):
        para = w.paragraph(1, 2)
        html += f"<p>{esc(para)}</p><pre><code>{esc(code)}</code></pre>"
        truth += [para, code]
    return in_a_block("code-blocks", html, truth, w, m)


def one_paragraph_big_chrome(w: Words, m: Markup) -> Page:
    para = w.paragraph(2, 4)
    return Page("one-paragraph", f"<p>{esc(para)}</p>", [para], w.title(), chrome=2)


def blockquotes(w: Words, m: Markup) -> Page:
    truth, html = [], ""
    for _ in range(w.rng.randint(2, 3)):
        para, quote = w.paragraph(1, 3), w.paragraph(1, 2)
        inner = f"<p>{esc(quote)}</p>" if w.rng.random() < 0.5 else esc(quote)
        html += f"<p>{esc(para)}</p><blockquote>{inner}</blockquote>"
        truth += [para, quote]
    return in_a_block("blockquotes", html, truth, w, m)


def table_layout(w: Words, m: Markup) -> Page:
    """An old table-layout page: a menu cell, a content cell of <b>, <i> and <br> text with
    no <p>, and a price-and-reviews cell or a footer row."""
    title = w.title()
    lines = [w.paragraph(1, 3) for _ in range(w.rng.randint(3, 6))]
    cell = ""
    for line in lines:
        if w.rng.random() < 0.3:
            cell += f"<b>{esc(line)}</b><br><br>"
        elif w.rng.random() < 0.3:
            cell += f"{esc(line[:40])}<i>{esc(line[40:])}</i><br><br>"
        else:
            cell += f"{esc(line)}<br><br>"
    menu = "<br>".join(links(w, w.chrome["nav"], 5, 10))
    side = "".join(
        f"<b>{esc(w.product())}</b><br>{w.price()}<br><a href='/rev'>{w.rng.randint(2, 60)} "
        f"reviews</a><br><br>"
        for _ in range(w.rng.randint(2, 4))
    )
    foot = " | ".join(links(w, w.chrome["footer"], 3, 6))
    layout = (
        f'<table width="100%"><tr><td colspan="3"><font size="5">{esc(title)}</font></td></tr>'
        f'<tr><td width="20%" valign="top">{menu}</td>'
        f'<td valign="top"{m.cls("content")}>{cell}</td>'
        f'<td width="20%" valign="top">{side}</td></tr>'
        f'<tr><td colspan="3">{foot}</td></tr></table>'
    )
    return Page("table-layout", "", lines, title, layout=layout)


def german_blog(w: Words, m: Markup) -> Page:
    """A German blog post among a share bar, related posts and a comment form."""
    paras = [w.paragraph() for _ in range(w.rng.randint(2, 5))]
    body = "".join(f"<p>{esc(p)}</p>" for p in paras)
    if w.rng.random() < 0.5:
        sub = w.title()
        body = body.replace("</p>", f"</p><h2>{esc(sub)}</h2>", 1)
        paras.insert(1, sub)
    comments = (
        f"<div{m.cls('wrap')}><h3>{w.chrome['comments']}</h3><form><textarea></textarea>"
        "<button>Senden</button></form></div>"
    )
    meta = f"<p>Veröffentlicht am {w.rng.randint(1, 28)}. März 2025 von {esc(w.phrase(1, 2))}</p>"
    title = w.title()
    main = f"<article{m.cls('content')}><h1>{esc(title)}</h1>{meta}{body}</article>"
    return Page("german-blog", main, paras, title, lang="de", chrome=2, extra=[comments])


def intro_and_figures(w: Words, m: Markup) -> Page:
    intro = w.paragraph(1, 3)
    truth, figures = [intro], ""
    for i in range(w.rng.randint(2, 5)):
        caption = w.sentence()
        figures += (
            f'<figure><img src="/img/{i}.jpg" alt=""><figcaption>{esc(caption)}</figcaption>'
            "</figure>"
        )
        truth.append(caption)
    return Page("intro-figures", f"<div{m.cls('content')}><p>{esc(intro)}</p>{figures}</div>",
                truth, w.title(), chrome=w.rng.randint(0, 2))  # fmt: skip


def feature_cards(w: Words, m: Markup) -> Page:
    """A service page of many short <h3> + <p> cards, and one long testimonial."""
    truth, cards = [], ""
    card_class = m.cls("card")
    for _ in range(w.rng.randint(6, 12)):
        heading, text = w.phrase(2, 4), w.sentence()
        cards += f"<div{card_class}><h3>{esc(heading)}</h3><p>{esc(text)}</p></div>"
        truth += [heading, text]
    intro = w.sentence()
    testimonial = (
        f"<blockquote{m.cls('card')}><p>{esc(w.paragraph(4, 6))}</p>"
        f"<cite>{esc(w.phrase(1, 2))}</cite></blockquote>"
    )
    main = f"<p>{esc(intro)}</p><div{m.cls('wrap')}>{cards}</div>"
    return Page("feature-cards", main, [intro, *truth], w.title(), chrome=w.rng.randint(1, 2),
                extra=[testimonial] if w.rng.random() < 0.7 else [])  # fmt: skip


def column_cards(w: Words, m: Markup) -> Page:
    """A service page of short <h3> + <p> cards each in a grid column (row > column >
    card), and a long testimonial in a block of its own: the cards are the content."""
    truth, rows = [], ""
    column, card = m.cls("wrap"), m.cls("card")
    for _ in range(w.rng.randint(2, 3)):
        cells = ""
        for _ in range(3):
            heading, text = w.phrase(2, 4), w.sentence()
            cells += (
                f"<div{column}><div{card}><h3>{esc(heading)}</h3><p>{esc(text)}</p></div></div>"
            )
            truth += [heading, text]
        rows += f"<div{m.cls('wrap')}>{cells}</div>"
    testimonial = (
        f"<div{m.cls('card')}><div><p>{esc(w.paragraph(5, 8))}</p>"
        f"<p>{esc(w.phrase(1, 2))}</p></div></div>"
    )
    return Page("column-cards", f"<section>{rows}</section>", truth, w.title(),
                chrome=w.rng.randint(1, 2), extra=[testimonial])  # fmt: skip


def link_strong_cards(w: Words, m: Markup) -> Page:
    """Event or product cards whose whole text sits inside <a><strong>…</strong></a>, beside
    a filter panel."""
    truth, cards = [], ""
    card_class = m.cls("card")
    for i in range(w.rng.randint(5, 10)):
        name, text = w.product() if w.rng.random() < 0.5 else w.title(), w.sentence()
        cards += (
            f'<div{card_class}><a href="/e/{i}"><strong>{esc(name)}</strong><br>'
            f"<span>{esc(text)}</span></a></div>"
        )
        truth += [name, text]
    intro = w.sentence() if w.rng.random() < 0.5 else ""
    main = (f"<p>{esc(intro)}</p>" if intro else "") + f"<div{m.cls('wrap')}>{cards}</div>"
    return Page("link-strong-cards", main, ([intro] if intro else []) + truth, w.title(),
                chrome=w.rng.randint(1, 2), extra=[filter_panel(w, m)])  # fmt: skip


def intro_above_grid(w: Words, m: Markup) -> Page:
    """A collection page: a short intro above a large product grid and related products;
    the intro is the content."""
    intro = [w.paragraph(1, 3) for _ in range(w.rng.randint(1, 2))]
    card_class = m.cls("card")

    def grid(count: int) -> str:
        return (
            f"<div{m.cls('wrap')}>"
            + "".join(
                f'<div{card_class}><a href="/p/{w.rng.randint(1, 9999)}"><img src="/i.jpg" alt="">'
                f"</a><h3><a href='/p'>{esc(w.product())}</a></h3><span>{w.price()}</span>"
                f"<button>{w.chrome['buy']}</button></div>"
                for _ in range(count)
            )
            + "</div>"
        )

    related = f"<h2>{w.chrome['related']}</h2>{grid(w.rng.randint(4, 6))}"
    main = "".join(f"<p>{esc(p)}</p>" for p in intro) + grid(w.rng.randint(16, 40))
    return Page("intro-grid", main, intro, w.title(), chrome=w.rng.randint(1, 2), extra=[related])


def aside_content(w: Words, m: Markup) -> Page:
    """A template that puts the page's one section in an <aside class="section">, and a
    feedback form in a modal elsewhere."""
    heading = w.title()
    paras = [w.paragraph(1, 3) for _ in range(w.rng.randint(1, 3))]
    inner = f"<h2>{esc(heading)}</h2>" + "".join(f"<p>{esc(p)}</p>" for p in paras)
    modal = (
        f'<div{m.cls("wrap")} role="dialog"><h3>{esc(w.chrome["feedback"])}</h3><form>'
        "<textarea></textarea><label><input type=checkbox> Yes</label><button>Send</button>"
        "</form></div>"
    )
    main = f'<aside class="section">{inner}</aside>'
    return Page("aside-content", main, [heading, *paras], w.title(), chrome=1, extra=[modal])


def shortcodes(w: Words, m: Markup) -> Page:
    paras = [w.paragraph(1, 3) for _ in range(w.rng.randint(2, 4))]
    text = ""
    for p in paras:
        style = w.rng.choice(["vc", "et"])
        if style == "vc":
            text += (
                f'<p>[vc_row full_width="stretch"][vc_column width="1/2"][vc_column_text]'
                f"{esc(p)}[/vc_column_text][/vc_column][/vc_row]</p>"
            )
        else:
            text += (
                f'<p>[et_pb_section admin_label="section"][et_pb_text]{esc(p)}[/et_pb_text]'
                "[/et_pb_section]</p>"
            )
    return Page("shortcodes", f"<div{m.cls('content')}>{text}</div>", paras, w.title(),
                chrome=w.rng.randint(0, 2))  # fmt: skip


def faq(w: Words, m: Markup) -> Page:
    truth, html = [], ""
    use_details = w.rng.random() < 0.5
    for _ in range(w.rng.randint(4, 8)):
        question = w.phrase(3, 6) + "?"
        answer = w.paragraph(1, 2)
        if use_details:
            html += f"<details><summary>{esc(question)}</summary><p>{esc(answer)}</p></details>"
        else:
            html += f"<h3>{esc(question)}</h3><p>{esc(answer)}</p>"
        truth += [question, answer]
    return in_a_block("faq", html, truth, w, m)


def recipe(w: Words, m: Markup) -> Page:
    intro = w.paragraph(1, 2)
    ingredients = [f"{w.rng.randint(1, 500)} g {w.phrase(1, 2).lower()}" for _ in range(6)]
    steps = [w.sentence() for _ in range(w.rng.randint(3, 6))]
    head1, head2 = w.phrase(1, 2), w.phrase(1, 2)
    html = (
        f"<p>{esc(intro)}</p><h2>{esc(head1)}</h2><ul>"
        + "".join(f"<li>{esc(i)}</li>" for i in ingredients)
        + f"</ul><h2>{esc(head2)}</h2><ol>"
        + "".join(f"<li>{esc(s)}</li>" for s in steps)
        + "</ol>"
    )
    return Page("recipe", f"<div{m.cls('content')}>{html}</div>",
                [intro, head1, *ingredients, head2, *numbered(steps)], w.title(),
                chrome=w.rng.randint(0, 2))  # fmt: skip


def short_note(w: Words, m: Markup) -> Page:
    paras = [w.sentence() for _ in range(w.rng.randint(1, 3))]
    inner = "".join(f"<p>{esc(p)}</p>" for p in paras)
    return Page("short-note", f"<div{m.cls('content')}>{inner}</div>", paras, w.title(),
                chrome=w.rng.randint(1, 2))  # fmt: skip


def br_letter(w: Words, m: Markup) -> Page:
    """Text in one <div> or <p>, lines and paragraphs split by <br>."""
    lines = [w.paragraph(1, 2) for _ in range(w.rng.randint(3, 6))]
    tag = w.rng.choice(["div", "p", "td"])
    sep = w.rng.choice(["<br>", "<br><br>", "<br/>\n<br/>"])
    inner = sep.join(esc(line) for line in lines)
    if tag == "td":
        inner = f"<table><tr><td{m.cls('content')}>{inner}</td></tr></table>"
    else:
        inner = f"<{tag}{m.cls('content')}>{inner}</{tag}>"
    return Page("br-text", inner, lines, w.title(), chrome=w.rng.randint(0, 2))


def nested_spans(w: Words, m: Markup) -> Page:
    """Paragraphs deep in divs and spans, as page builders write them."""
    paras = [w.paragraph(1, 3) for _ in range(w.rng.randint(2, 4))]
    html = ""
    for p in paras:
        inner = f"<span{m.cls('wrap')}>{esc(p)}</span>"
        for _ in range(w.rng.randint(2, 5)):
            inner = f"<div{m.cls('wrap')}>{inner}</div>"
        html += inner
    return Page("nested-divs", html, paras, w.title(), chrome=w.rng.randint(0, 2))


def sections(w: Words, m: Markup) -> Page:
    truth, html = [], ""
    for _ in range(w.rng.randint(3, 6)):
        heading, para = w.title(), w.paragraph(1, 2)
        html += f"<section{m.cls('card')}><h2>{esc(heading)}</h2><p>{esc(para)}</p></section>"
        truth += [heading, para]
    return Page("sections", f"<main>{html}</main>" if w.rng.random() < 0.5 else html, truth,
                w.title(), chrome=w.rng.randint(0, 2))  # fmt: skip


def uneven_sections(w: Words, m: Markup) -> Page:
    """A guide of one long section and a few short ones (a heading and a sentence or two),
    each in a block of its own: the short ones are the page's text as much as the long."""
    tag = w.rng.choice(["div", "section"])
    truth, html = [], ""
    sections = [w.rng.randint(3, 5)] + [1] * w.rng.randint(2, 4)
    if w.rng.random() < 0.5:
        sections.reverse()
    for count in sections:
        heading = w.title()
        paras = [w.paragraph(3, 5) if count > 1 else w.sentence() for _ in range(count)]
        inner = "".join(f"<p>{esc(p)}</p>" for p in paras)
        html += f"<{tag}{m.cls('card')}><h2>{esc(heading)}</h2>{inner}</{tag}>"
        truth += [heading, *paras]
    return Page("uneven-sections", html, truth, w.title(), chrome=w.rng.randint(0, 2))


def mixed_main(w: Words, m: Markup) -> Page:
    intro, after = w.paragraph(), w.paragraph(1, 2)
    sub = w.title()
    items = [w.phrase(2, 6) for _ in range(4)]
    quote = w.sentence()
    html = (
        f"<p>{esc(intro)}</p><h2>{esc(sub)}</h2><ul>"
        + "".join(f"<li>{esc(i)}</li>" for i in items)
        + f"</ul><blockquote>{esc(quote)}</blockquote><p>{esc(after)}</p>"
    )
    return Page("mixed", f"<main{m.cls('content')}>{html}</main>", [intro, sub, *items, quote, after],
                w.title(), chrome=w.rng.randint(0, 2))  # fmt: skip


def changelog(w: Words, m: Markup) -> Page:
    truth, html = [], ""
    for major in range(w.rng.randint(3, 5), 0, -1):
        version = f"{major}.{w.rng.randint(0, 9)}.{w.rng.randint(0, 9)}"
        items = [w.phrase(3, 7) for _ in range(w.rng.randint(2, 4))]
        html += f"<h2>{version}</h2><ul>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"
        truth += [version, *items]
    return in_a_block("changelog", html, truth, w, m)


def poem(w: Words, m: Markup) -> Page:
    stanzas = [[w.phrase(3, 7) for _ in range(4)] for _ in range(w.rng.randint(2, 4))]
    html = "".join("<p>" + "<br>".join(esc(line) for line in s) + "</p>" for s in stanzas)
    return Page("poem", f"<div{m.cls('content')}>{html}</div>",
                [line for s in stanzas for line in s], w.title(),
                chrome=w.rng.randint(0, 2))  # fmt: skip


def body_text(w: Words, m: Markup) -> Page:
    """Paragraphs straight in the <body>, no wrapper and no chrome."""
    paras = [w.paragraph(1, 4) for _ in range(w.rng.randint(1, 4))]
    return Page("body-text", "".join(f"<p>{esc(p)}</p>" for p in paras), paras, w.title(),
                chrome=0)  # fmt: skip


def article_with_note(w: Words, m: Markup) -> Page:
    """An article with a note box of its own in an <aside> (a tip, a warning): part of the
    article's text as a browser shows it."""
    paras = [w.paragraph() for _ in range(w.rng.randint(2, 4))]
    note = w.paragraph(1, 2)
    label = w.rng.choice(["Note:", "Tip:", "Hinweis:", "Good to know:"])
    at = w.rng.randint(1, len(paras))
    body = [f"<p>{esc(p)}</p>" for p in paras]
    body.insert(at, f"<aside{m.cls('card')}><p><strong>{label}</strong> {esc(note)}</p></aside>")
    title = w.title()
    truth = [*paras[:at], f"{label} {note}", *paras[at:]]
    main = f"<article{m.cls('content')}><h1>{esc(title)}</h1>{''.join(body)}</article>"
    return Page("article-note", main, truth, title, chrome=w.rng.randint(0, 2))


def linked_prose(w: Words, m: Markup) -> Page:
    """Paragraphs with links in their sentences (never two runs of eight words in a row),
    and a list of links each with a line of description: a small page of references."""
    truth, html = [], ""
    for _ in range(w.rng.randint(2, 3)):
        words = w.paragraph(2, 3).split(" ")
        out = []
        for index in range(0, len(words), 8):
            chunk = esc(" ".join(words[index : index + 8]))
            linked = w.rng.random() < 0.5 and not (out and out[-1].startswith("<a"))
            out.append(f'<a href="/l{index}">{chunk}</a>' if linked else chunk)
        html += f"<p>{' '.join(out)}</p>"
        truth.append(" ".join(words))
    items = []
    for index in range(w.rng.randint(3, 6)):
        name, line = w.phrase(2, 4), w.sentence()
        items.append(f'<li><a href="/r{index}">{esc(name)}</a>: {esc(line)}</li>')
        truth.append(f"{name}: {line}")
    html += f"<ul>{''.join(items)}</ul>"
    return in_a_block("linked-prose", html, truth, w, m)


KINDS: dict[str, Callable[[Words, Markup], Page]] = {
    builder.__name__: builder
    for builder in (
        single_article, div_of_paragraphs, headings_and_lists, data_table, definition_list,
        code_blocks, one_paragraph_big_chrome, blockquotes, table_layout, german_blog,
        intro_and_figures, feature_cards, column_cards, link_strong_cards, intro_above_grid,
        aside_content, shortcodes, faq, recipe, short_note, br_letter, nested_spans, sections,
        mixed_main, changelog, poem, body_text, article_with_note, linked_prose,
        uneven_sections,
    )
}  # fmt: skip


def generate(seed: int = DEFAULT_SEED, per_kind: int = DEFAULT_PER_KIND):
    """Yield (id, html, truth record) for every page: per_kind pages of each kind, a third
    of the ordinary kinds in German."""
    for name, builder in KINDS.items():
        for index in range(per_kind):
            rng = random.Random(f"{seed}-{name}-{index}")
            lang = "de" if name == "german_blog" or rng.random() < 0.3 else "en"
            words, markup = Words(rng, lang), Markup(rng)
            page = builder(words, markup)
            page.lang = lang
            html = assemble(page, words, markup)
            page_id = f"{page.kind}-{index:02d}"
            record = {
                "articleBody": "\n\n".join(page.truth),
                "url": f"https://example.org/{page_id}",
                "page_type": page.kind,
            }
            yield page_id, html, record


def write(out: Path, seed: int = DEFAULT_SEED, per_kind: int = DEFAULT_PER_KIND) -> int:
    (out / "html").mkdir(parents=True, exist_ok=True)
    (out / "ground-truth").mkdir(parents=True, exist_ok=True)
    count = 0
    for page_id, html, record in generate(seed, per_kind):
        (out / "html" / f"{page_id}.html.gz").write_bytes(
            gzip.compress(html.encode("utf-8"), mtime=0)
        )
        (out / "ground-truth" / f"{page_id}.json").write_text(
            json.dumps(record, ensure_ascii=False), encoding="utf-8"
        )
        count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--per-kind", type=int, default=DEFAULT_PER_KIND)
    args = parser.parse_args()
    print(f"{write(args.out, args.seed, args.per_kind)} pages under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
