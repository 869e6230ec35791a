"""Page chrome and markup for bench/synthetic_pages.py: class names drawn in one of four
modes, wrappers, a site's header, menus, footer, sidebar, cookie notice, share bar, related
posts and filter panel, and the whole document around a page's content."""

from __future__ import annotations

import html as htmllib
import random
import string
from dataclasses import dataclass, field

from synthetic_text import Words

_NEUTRAL = {
    "wrap": ["container", "wrapper", "page", "layout", "inner", "row", "col-md-8"],
    "content": ["content", "main", "body-text", "text", "copy", "entry"],
    "card": ["item", "card", "tile", "box", "cell"],
}
_MISLEADING = {
    "wrap": ["widget-area", "module", "region-top", "block", "zone"],
    "content": ["widget", "teaser", "sidebar-inner", "extra", "promo-text", "module-body"],
    "card": ["teaser", "promo", "widget", "slot", "spot"],
}


def esc(text: str) -> str:
    return htmllib.escape(text, quote=False)


class Markup:
    """Class names and wrappers of one page, drawn in one of four modes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.mode = rng.choice(["none", "neutral", "random", "misleading"])
        self.semantic = rng.random() < 0.5  # chrome as <nav>/<footer> or as plain divs

    def cls(self, role: str) -> str:
        rng = self.rng
        if self.mode == "none" or (self.mode != "random" and role not in _NEUTRAL):
            return ""
        if self.mode == "random":
            name = rng.choice(string.ascii_lowercase) + "".join(
                rng.choices(string.ascii_lowercase + string.digits, k=rng.randint(3, 7))
            )
        elif self.mode == "misleading" and rng.random() < 0.7:
            name = rng.choice(_MISLEADING[role])
        else:
            name = rng.choice(_NEUTRAL[role])
        return f' class="{name}"'

    def wrap(self, inner: str, low: int = 0, high: int = 2) -> str:
        for _ in range(self.rng.randint(low, high)):
            inner = f"<div{self.cls('wrap')}>{inner}</div>"
        return inner

    def chrome_tag(self, semantic: str) -> tuple[str, str]:
        """An opening and closing tag for a piece of chrome: the semantic element, or a
        div with a name (or none) when the page is built of divs."""
        if self.semantic:
            return f"<{semantic}>", f"</{semantic}>"
        return f"<div{self.cls('wrap')}>", "</div>"


@dataclass
class Page:
    kind: str
    main: str  # the content's markup
    truth: list[str]
    title: str
    lang: str = "en"
    chrome: int = 1  # 0: none, 1: a menu and a footer line, 2: a full site's chrome
    extra: list[str] = field(default_factory=list)  # more chrome, placed around the content
    layout: str = ""  # a whole body given by the builder (old table layouts)


def numbered(items: list[str]) -> list[str]:
    """An ordered list's items as a reader sees them (the numbers are text)."""
    return [f"{number}. {item}" for number, item in enumerate(items, 1)]


def links(w: Words, labels: list[str], low: int, high: int) -> list[str]:
    count = w.rng.randint(low, min(high, len(labels)))
    return [
        f'<a href="/{i}">{esc(label)}</a>' for i, label in enumerate(w.rng.sample(labels, count))
    ]


def _menu(w: Words, m: Markup, low: int = 4, high: int = 9) -> str:
    items = "".join(f"<li>{link}</li>" for link in links(w, w.chrome["nav"], low, high))
    start, end = m.chrome_tag("nav")
    return f"{start}<ul{m.cls('wrap')}>{items}</ul>{end}"


def _header(w: Words, m: Markup, chrome: int) -> str:
    start, end = m.chrome_tag("header")
    logo = f'<a href="/"{m.cls("wrap")}>{esc(w.phrase(1, 3))}</a>'
    search = (
        '<form action="/s"><input name="q"><button>Search</button></form>' if chrome > 1 else ""
    )
    return f"{start}{logo}{_menu(w, m, 4 + 3 * (chrome - 1), 8 + 6 * (chrome - 1))}{search}{end}"


def _footer(w: Words, m: Markup, chrome: int) -> str:
    start, end = m.chrome_tag("footer")
    columns = ""
    if chrome > 1:
        for _ in range(w.rng.randint(2, 4)):
            items = "".join(f"<li>{link}</li>" for link in links(w, w.chrome["footer"], 3, 6))
            columns += f"<div{m.cls('wrap')}><h4>{esc(w.phrase(1, 2))}</h4><ul>{items}</ul></div>"
    line = f"<p>© 2026 {esc(w.phrase(1, 3))}. {w.chrome['copyright']}</p>"
    return f"{start}{columns}{line}{end}"


def _sidebar(w: Words, m: Markup) -> str:
    start, end = m.chrome_tag("aside")
    blocks = ""
    for _ in range(w.rng.randint(1, 3)):
        links = "".join(
            f'<li><a href="/p{w.rng.randint(1, 999)}">{esc(w.title())}</a></li>'
            for _ in range(w.rng.randint(3, 6))
        )
        blocks += f"<div{m.cls('wrap')}><h3>{esc(w.phrase(1, 3))}</h3><ul>{links}</ul></div>"
    return start + blocks + end


def _cookie(w: Words, m: Markup) -> str:
    return f"<div{m.cls('wrap')}><p>{w.chrome['cookie']}</p><button>OK</button></div>"


def _share(w: Words, m: Markup) -> str:
    shares = " ".join(links(w, w.chrome["share"], 2, 4))
    return f"<div{m.cls('wrap')}>{shares}</div>"


def _related(w: Words, m: Markup) -> str:
    items = "".join(
        f'<li><a href="/r{i}">{esc(w.title())}</a></li>' for i in range(w.rng.randint(3, 5))
    )
    return f"<div{m.cls('wrap')}><h3>{w.chrome['related']}</h3><ul>{items}</ul></div>"


def assemble(page: Page, w: Words, m: Markup) -> str:
    """The whole document: head, chrome by level, the content with its headline."""
    rng = w.rng
    if page.layout:
        body = page.layout
    else:
        headline = f"<h1>{esc(page.title)}</h1>"
        content = m.wrap(page.main if "<h1>" in page.main else headline + page.main, 0, 2)
        parts = []
        if page.chrome >= 1:
            parts.append(_header(w, m, page.chrome))
        if page.chrome >= 2:
            if rng.random() < 0.5:
                parts.append(_cookie(w, m))
            side = _sidebar(w, m)
            around = [content, *page.extra]
            if rng.random() < 0.5:
                around.insert(0, _share(w, m))
            else:
                around.append(_share(w, m))
            around.append(_related(w, m))
            column = m.wrap("".join(around), 1, 1)
            parts.append(m.wrap(column + side if rng.random() < 0.6 else side + column, 0, 1))
        else:
            parts.append(content + "".join(page.extra))
        if page.chrome >= 1:
            parts.append(_footer(w, m, page.chrome))
        body = "".join(parts)
    site = w.phrase(1, 2)
    return (
        f'<!DOCTYPE html><html lang="{page.lang}"><head><meta charset="utf-8">'
        f"<title>{esc(page.title)} | {esc(site)}</title></head><body>{body}</body></html>"
    )


def filter_panel(w: Words, m: Markup) -> str:
    groups = ""
    for name in w.rng.sample(w.chrome["filter"], w.rng.randint(3, 5)):
        options = "".join(
            f'<li><a href="/f?{name}={i}">{esc(w.phrase(1, 2))} ({w.rng.randint(1, 80)})</a></li>'
            for i in range(w.rng.randint(3, 6))
        )
        groups += f"<h4>{esc(name)}</h4><ul>{options}</ul>"
    return f"<div{m.cls('wrap')}>{groups}</div>"
