"""The renderer's fast paths for big pages (docs/performance.md, "Big pages") give the same
Markdown as the general walk: a list whose items each hold one run of text
(``Converter._plain_items``), and an element without children copied into the render tree
as its name and text (``render_tree._COPIED_APART``)."""

from __future__ import annotations

from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.webfetch.extract import markdown as markdown_module
from rypsok.webfetch.extract import render_tree
from rypsok.webfetch.extract.markdown import render
from rypsok.webfetch.extract.tree import parse

BASE = "https://example.org/list.html"


class _Everything:
    def __contains__(self, item: object) -> bool:
        return True


# text an item may hold: what starts block markup (a number and a dot, a bullet, a heading
# mark, a quote), what is escaped, white space of every kind, nothing at all
_PIECES = st.sampled_from(
    ["1. ", "2) ", "12", "- ", "+ ", "* ", "# ", "> ", "=", "~~~", "```", "---", ".", ")",
     "word", "two words", " ", "  ", "\n", "\t", "\u00a0", "\u2003", "*", "_", "`", "\\",
     "[", "]", "<", "&amp;", "&lt;", "!", "é", "日本", ""]
)  # fmt: skip
_ITEM_TEXT = st.lists(_PIECES, max_size=6).map("".join)


def _markup(kind: str, start: str | None, items: list[str | None], between: str) -> str:
    """A list of ``kind``; an item is its text, or None for an item that holds an element
    (which takes the general walk for the whole list)."""
    opening = f"<{kind} start='{start}'>" if start is not None else f"<{kind}>"
    parts = [
        "<li><b>bold</b> item</li>" if item is None else f"<li>{escape(item, quote=False)}</li>"
        for item in items
    ]
    return (
        "<div><p>Before the list, a sentence.</p>"
        + opening
        + between.join(parts)
        + f"</{kind}><p>After it.</p><ul><li>x</li></ul></div>"
    )


def _render(html: str) -> str:
    root, _, _ = parse(f"<html><body>{html}</body></html>")
    assert root is not None
    return render([root.find("body")], BASE, "", set())


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(["ul", "ol", "menu"]),
    start=st.one_of(st.none(), st.sampled_from(["1", "3", "-2", "x", "", " 7 ", "0"])),
    items=st.lists(st.one_of(_ITEM_TEXT, st.none()), max_size=8),
    between=st.sampled_from(["", " ", "\n", "text between"]),
)
def test_plain_lists_render_as_the_general_walk_renders_them(
    kind: str, start: str | None, items: list[str | None], between: str
) -> None:
    html = _markup(kind, start, items, between)
    fast = _render(html)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_module.Converter, "_plain_items", lambda self, node: None)
        patch.setattr(render_tree, "_COPIED_APART", _Everything())
        general = _render(html)
    assert fast == general


def test_a_plain_list_is_numbered_from_its_start_and_escaped() -> None:
    html = "<ol start='3'><li>1. not a list</li><li> </li><li>*star* [x]</li><li></li><li>z"
    assert _render(html + "</ol>") == "3. 1\\. not a list\n4. \\*star\\* \\[x\\]\n5. z"
