"""A real engine's page can be spoiled in its markup: a result without its link, a link that
leads nowhere, a title holding tags or bad entities, a body in another encoding, a document
cut short. The engines that read markup (DuckDuckGo's and Mojeek's HTML pages, arXiv's Atom
feed) are read here on their saved answers so spoiled: a spoiled result costs at most that
result, never the engine's whole answer, and the results around it come out exactly as from
the unspoiled answer. An answer that is not the engine's format at all is its documented
``parse_failure``, and nothing raises inside an engine module (``read_answer`` logs it).

The JSON engines are spoiled field by field in tests/test_engine_junk_fields.py."""

from __future__ import annotations

import datetime as dt
import html
import logging
import re
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from rypsok.engines.base import EngineFailure, RawResult, read_answer
from rypsok.engines.registry import engine_module
from tests.engine_samples import PLAIN_SEARCH
from tests.engine_servers import EngineServer

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Markup:
    """Where an engine's saved answer holds its results, as patterns over the answer's text."""

    content_type: str
    """What the engine sends in Content-Type."""
    block: str
    """Where each result block starts."""
    after: str
    """What follows the last block."""
    title: str
    """The title element: (opening, text, closing)."""
    snippet: str
    """The snippet element: (opening, text, closing)."""
    href: str
    """Each ``href="…"`` attribute that gives the result its link."""
    link: str
    """Each element that gives the result its link."""
    unclosed: str
    """The closing tag of a block, last in it."""
    charset: str
    """Where the document declares its charset: (before, name, after)."""
    declaration: str
    """The whole declaration of the charset, to leave it out."""


MARKUPS = {
    "duckduckgo": Markup(
        content_type="text/html; charset=UTF-8",
        block=r'<div class="result results_links results_links_deep web-result ',
        after='<div class="nav-link">',
        title=r'(class="result__a" href="[^"]*">)(.*?)(</a>)',
        snippet=r'(<a class="result__snippet"[^>]*>)(.*?)(</a>)',
        href=r'(?<=class="result__a") href="[^"]*"',
        link=r'<a rel="nofollow" class="result__a".*?</a>',
        unclosed=r"</div>\s*$",
        charset=r'(content="text/html; charset=)(UTF-8)(")',
        declaration=r'<meta http-equiv="content-type"[^>]*>',
    ),
    "mojeek": Markup(
        content_type="text/html; charset=utf-8",
        block=r'<li class="r\d',
        after="</ul>",
        title=r'(<a class="title" href="[^"]*">)(.*?)(</a>)',
        snippet=r'(<p class="s">)(.*?)(</p>)',
        href=r'(?<=class="ob") href="[^"]*"|(?<=class="title") href="[^"]*"',
        link=r'<a class="(?:ob|title)".*?</a>',
        unclosed=r"</li>\s*$",
        charset=r'(<meta charset=")(utf-8)(")',
        declaration=r'<meta charset="utf-8">',
    ),
    "arxiv": Markup(
        content_type="application/atom+xml; charset=utf-8",
        block=r"<entry>",
        after="</feed>",
        title=r"(<title>)(.*?)(</title>)",
        snippet=r"(<summary>)(.*?)(</summary>)",
        href=r'(?<=<link) href="[^"]*"(?= rel="alternate")',
        link=r'<link href="[^"]*" rel="alternate"[^>]*/>',
        unclosed=r"</entry>\s*$",
        charset=r'(<\?xml version="1.0" encoding=")(UTF-8)(")',
        declaration=r' encoding="UTF-8"',
    ),
}
ENGINES = tuple(MARKUPS)
SAVED = {"duckduckgo": "search.html", "mojeek": "search.html", "arxiv": "search.xml"}


def _text(engine: str) -> str:
    return (FIXTURES / engine / SAVED[engine]).read_text(encoding="utf-8")


def _blocks(markup: Markup, text: str) -> list[tuple[int, int]]:
    """Each result block's span in the answer."""
    starts = [match.start() for match in re.finditer(markup.block, text)]
    ends = [*starts[1:], text.index(markup.after, starts[-1])]
    return list(zip(starts, ends, strict=True))


def _read(
    engine: str, body: bytes, content_type: str | None = None
) -> list[RawResult] | EngineFailure:
    content_type = MARKUPS[engine].content_type if content_type is None else content_type
    headers = httpx.Headers({"content-type": content_type} if content_type else {})
    return read_answer(engine_module(engine), 200, headers, body, PLAIN_SEARCH)


def _whole(engine: str) -> list[RawResult]:
    whole = _read(engine, _text(engine).encode())
    assert isinstance(whole, list) and len(whole) >= 3
    return whole


@pytest.fixture(autouse=True)
def _nothing_raises(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """An exception inside an engine module is logged by ``read_answer``: none may be."""
    with caplog.at_level(logging.WARNING, logger="rypsok.engines"):
        yield
    assert [r.getMessage() for r in caplog.records if r.name == "rypsok.engines"] == []


def _sound(engine: str, result: RawResult) -> None:
    """What any result an engine gives holds, however spoiled its markup."""
    parts = urllib.parse.urlsplit(result.url)
    assert parts.scheme in ("http", "https") and parts.hostname, result
    assert isinstance(result.title, str) and isinstance(result.snippet, str)
    assert result.date is None or dt.date.fromisoformat(result.date).isoformat() == result.date
    if engine == "duckduckgo":
        redirect = (parts.hostname or "").endswith("duckduckgo.com") and parts.path in (
            "/l/",
            "/y.js",
        )
        assert not redirect, result


def _costs_at_most_the_first(engine: str, whole: list[RawResult], answer: object) -> None:
    assert isinstance(answer, list), answer
    assert len(answer) in (len(whole) - 1, len(whole)), answer
    assert answer[len(answer) - len(whole) + 1 :] == whole[1:]
    for result in answer:
        _sound(engine, result)


# --- a spoiled result ---------------------------------------------------------------------------

Spoil = Callable[[Markup, str], str]


def _inner(part: str, text: str) -> Spoil:
    def spoil(markup: Markup, block: str) -> str:
        pattern = getattr(markup, part)
        return re.sub(pattern, lambda m: m[1] + text + m[3], block, count=1, flags=re.S)

    return spoil


def _href(value: str, *, raw: bool = False) -> Spoil:
    attribute = value if raw else html.escape(value, quote=True)

    def spoil(markup: Markup, block: str) -> str:
        return re.sub(markup.href, lambda m: f' href="{attribute}"', block)

    return spoil


def _drop(pattern_of: Callable[[Markup], str]) -> Spoil:
    return lambda markup, block: re.sub(pattern_of(markup), "", block, flags=re.S)


TEXT_JUNK = {
    "empty": "",
    "blank": "  \n\t ",
    "nested tags": "<b><i>deeply</i> <span class='x'>nested <em>tags</em></span></b> end",
    "unclosed tag": "<b>never <i>closed",
    "stray closers": "text</b></i></em>",
    "entities": "&nbsp;&amp;nbsp;&#0;&#x110000;&#xD800;&#99999999999;&bogus;&#;&#x;&amp end",
    "NUL bytes": "a\x00b\x00",
    "script and style": "<script>alert(1)</script>shown<style>p{}</style>",
    "comment and CDATA": "<!-- hidden -->text<![CDATA[raw <b>]]>",
    "image": "<img src=x onerror=alert(1)>",
    "control characters": "\x01\x08\x0b\x0c\x1b\x7f\x85",
    "escaped markup": "&lt;b&gt;escaped&lt;/b&gt;",
}
HREF_JUNK = [
    "",
    "  \n ",
    "/relative/path",
    "relative/path",
    "?q=only",
    "#fragment",
    "//example.net/protocol-relative",
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "data:text/html,<b>x</b>",
    "mailto:a@example.org",
    "ftp://example.org/file",
    "http://[broken",
    "https://[::1",
    "https://",
    "http:///path-only",
    "https://exa mple.org/",
    "http://example.org:99999/",
    "https://example.org/\x00nul",
    "https://\x00/",
    "https://example.org/%ZZ%",
    "https://[v1.x]/",
]
DDG_REDIRECTS = [
    "//duckduckgo.com/l/?uddg=&rut=1",
    "//duckduckgo.com/l/?rut=1",
    "//duckduckgo.com/l/",
    "//duckduckgo.com/l/?uddg=not-a-url",
    "//duckduckgo.com/l/?uddg=javascript%3Aalert(1)",
    "//duckduckgo.com/l/?uddg=http%3A%2F%2F%5Bbroken",
    "//duckduckgo.com/l/?uddg=https%3A%2F%2F%5B%3A%3A1",
    "//duckduckgo.com/l/?uddg=%ZZ%",
    "//duckduckgo.com/l/?uddg=https%3A%2F%2F",
    "//duckduckgo.com/l/?uddg=%00",
    "//duckduckgo.com/l/?uddg=https%3A%2F%2F%00example.org",
    "//duckduckgo.com/l/?uddg=%2F%2Fexample.org%2Fx",
    "/l/?uddg=https%3A%2F%2Fexample.org%2Frelative-redirect",
    "https://duckduckgo.com/y.js?ad_domain=x.example",
    "//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fl%2F%3Fuddg%3Djavascript%253Ax",
]


def _spoils(engine: str) -> Iterator[tuple[str, Spoil]]:
    yield "link element removed", _drop(lambda m: m.link)
    yield "href removed", _drop(lambda m: m.href)
    for name, text in TEXT_JUNK.items():
        yield f"title {name}", _inner("title", text)
        yield f"snippet {name}", _inner("snippet", text)
    for value in HREF_JUNK:
        yield f"href {value!r}", _href(value)
    yield (
        "href holding bad entities",
        _href("https://example.org/?a=1&#0;&#x110000;&bogus;", raw=True),
    )
    yield (
        "title element unclosed",
        lambda markup, block: re.sub(
            markup.title, lambda m: m[1] + m[2], block, count=1, flags=re.S
        ),
    )
    yield "NUL bytes through the block", lambda markup, block: block.replace(">", ">\x00")
    if engine == "duckduckgo":
        for value in DDG_REDIRECTS:
            yield f"redirect {value!r}", _href(value)
    if engine == "arxiv":
        for element in ("id", "summary", "title", "published"):
            yield f"{element} removed", _drop(lambda m, e=element: rf"<{e}>.*?</{e}>")
        yield (
            "id, link and summary removed",
            lambda markup, block: re.sub(
                rf"<id>.*?</id>|<summary>.*?</summary>|{markup.link}", "", block, flags=re.S
            ),
        )
        for value in HREF_JUNK:
            yield (
                f"id {value!r} and no link",
                lambda markup, block, v=value: re.sub(
                    rf"<id>.*?</id>|{markup.link}",
                    lambda m: f"<id>{html.escape(v)}</id>" if m[0].startswith("<id>") else "",
                    block,
                    flags=re.S,
                ),
            )
        yield (
            "published junk",
            lambda markup, block: re.sub(
                r"<published>.*?</published>", "<published>not a date</published>", block
            ),
        )
        yield (
            "title as xhtml",
            _inner(
                "title", '<div xmlns="http://www.w3.org/1999/xhtml">An <b>xhtml</b> title</div>'
            ),
        )


SPOILS = [(engine, name, spoil) for engine in ENGINES for name, spoil in _spoils(engine)]


@pytest.mark.parametrize(
    ("engine", "name", "spoil"), SPOILS, ids=[f"{e}-{n}" for e, n, _ in SPOILS]
)
def test_a_spoiled_result_costs_at_most_itself(engine: str, name: str, spoil: Spoil) -> None:
    markup = MARKUPS[engine]
    text = _text(engine)
    whole = _whole(engine)
    (start, end), *_ = _blocks(markup, text)
    spoiled = spoil(markup, text[start:end])
    assert spoiled != text[start:end], "the spoil changed nothing"
    answer = _read(engine, (text[:start] + spoiled + text[end:]).encode())
    _costs_at_most_the_first(engine, whole, answer)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_repeated_block_keeps_the_rest(engine: str) -> None:
    markup = MARKUPS[engine]
    text = _text(engine)
    whole = _whole(engine)
    (start, end), *_ = _blocks(markup, text)
    answer = _read(engine, (text[:end] + text[start:end] + text[end:]).encode())
    assert answer in (whole, [whole[0], *whole])


@pytest.mark.parametrize("engine", ENGINES)
def test_an_unclosed_block_keeps_the_rest(engine: str) -> None:
    markup = MARKUPS[engine]
    text = _text(engine)
    whole = _whole(engine)
    (start, end), *_ = _blocks(markup, text)
    block = re.sub(markup.unclosed, "\n", text[start:end])
    assert block != text[start:end]
    _costs_at_most_the_first(
        engine, whole, _read(engine, (text[:start] + block + text[end:]).encode())
    )


# --- a spoiled document -------------------------------------------------------------------------


ACCENTED_TITLE = "Café naïve – façade"
ACCENTED_SNIPPET = "Grüße aus Köln: «Zitat» …"


def _accented(engine: str) -> str:
    """The saved answer with its first result's title and snippet in letters outside ASCII,
    written as characters, not as references (what another encoding changes)."""
    markup = MARKUPS[engine]
    text = _text(engine)
    (start, end), *_ = _blocks(markup, text)
    block = _inner("title", ACCENTED_TITLE)(markup, text[start:end])
    block = _inner("snippet", ACCENTED_SNIPPET)(markup, block)
    return text[:start] + block + text[end:]


def _accented_whole(engine: str) -> list[RawResult]:
    whole = _read(engine, _accented(engine).encode())
    assert isinstance(whole, list)
    assert (whole[0].title, whole[0].snippet) == (ACCENTED_TITLE, ACCENTED_SNIPPET)
    return whole


def _declared(markup: Markup, text: str, charset: str | None) -> str:
    if charset is None:
        return re.sub(markup.declaration, "", text, count=1)
    return re.sub(markup.charset, lambda m: m[1] + charset + m[3], text, count=1)


def _documents(engine: str) -> Iterator[tuple[str, bytes, str | None]]:
    """(what, body, Content-Type) of an answer in other encodings and wrappings that read as
    the very same answer."""
    markup = MARKUPS[engine]
    text = _accented(engine)
    mime = markup.content_type.split(";")[0]
    yield "UTF-8 byte-order mark", b"\xef\xbb\xbf" + text.encode(), None
    yield "no charset in the header", text.encode(), mime
    yield "no Content-Type", text.encode(), ""
    yield "no charset anywhere", _declared(markup, text, None).encode(), mime
    yield "charset in the header only", _declared(markup, text, None).encode(), None
    latin1 = _declared(markup, text, "ISO-8859-1").encode("latin-1", "xmlcharrefreplace")
    yield "latin-1 declared in the document", latin1, mime
    yield "latin-1 declared in both", latin1, f"{mime}; charset=iso-8859-1"
    undeclared = _declared(markup, text, None).encode("latin-1", "xmlcharrefreplace")
    yield "latin-1 declared in the header only", undeclared, f"{mime}; charset=iso-8859-1"
    yield "windows-1252 undeclared", _declared(markup, text, None).encode("cp1252"), mime
    utf16 = _declared(markup, text, "UTF-16")
    yield "UTF-16 with a BOM", utf16.encode("utf-16"), f"{mime}; charset=utf-16"
    yield "UTF-16 with a BOM, no charset in the header", utf16.encode("utf-16"), mime
    yield "UTF-16LE declared in the header", utf16.encode("utf-16-le"), f"{mime}; charset=utf-16le"
    yield "declared wrong, header right", _declared(markup, text, "ISO-8859-1").encode(), None
    nuls = re.sub(markup.block, lambda m: "\x00" + m[0], text)
    yield "NUL bytes between blocks", nuls.encode(), None


DOCUMENTS = [(engine, *document) for engine in ENGINES for document in _documents(engine)]


@pytest.mark.parametrize(
    ("engine", "what", "body", "content_type"),
    DOCUMENTS,
    ids=[f"{engine}-{what}" for engine, what, *_ in DOCUMENTS],
)
def test_an_encoding_or_wrapping_reads_as_the_same_answer(
    engine: str, what: str, body: bytes, content_type: str | None
) -> None:
    assert _read(engine, body, content_type) == _accented_whole(engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wrong_charset_costs_at_most_the_characters_outside_ascii(engine: str) -> None:
    """A UTF-8 answer declared latin-1 in its header and its document reads as latin-1, as a
    browser reads it: every result stays, its link the same and its ASCII text the same."""
    markup = MARKUPS[engine]
    text = _declared(markup, _accented(engine), "ISO-8859-1")
    mime = markup.content_type.split(";")[0]
    answer = _read(engine, text.encode(), f"{mime}; charset=iso-8859-1")
    whole = _accented_whole(engine)
    assert isinstance(answer, list) and len(answer) == len(whole)
    assert answer[0].title != whole[0].title
    for got, want in zip(answer, whole, strict=True):
        assert got.url == want.url and got.date == want.date
        for field in ("title", "snippet"):
            if getattr(want, field).isascii():
                assert getattr(got, field) == getattr(want, field)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_document_cut_short_keeps_the_results_before_the_cut(engine: str) -> None:
    markup = MARKUPS[engine]
    text = _text(engine)
    whole = _whole(engine)
    blocks = _blocks(markup, text)
    cuts = [(0, blocks[0][0])] + [
        (index, (start + end) // 2) for index, (start, end) in enumerate(blocks)
    ]
    cuts += [(index, start + 10) for index, (start, _) in enumerate(blocks)]
    cuts += [(len(blocks), blocks[-1][1]), (len(blocks), blocks[-1][1] + len(markup.after) + 3)]
    for kept, cut in cuts:
        answer = _read(engine, text[:cut].encode())
        assert isinstance(answer, list), (cut, answer)
        assert answer[:kept] == whole[:kept] and len(answer) in (kept, kept + 1), (cut, answer)
        for result in answer:
            _sound(engine, result)


# --- markup that would reach out ------------------------------------------------------------------


SECRET = "do not read me"


@pytest.fixture(scope="module")
def canary() -> Iterator[EngineServer]:
    """A loopback server that records every request: a parser must never send one. (The
    libxml2 lxml is built on here has no HTTP client; local files are what it could read,
    and the answers below name files that would put ``SECRET`` in a title.)"""
    with EngineServer() as server:
        yield server


@dataclass(frozen=True)
class Outside:
    """What an answer's markup may name: the canary server and local files."""

    base: str
    secret: Path
    """A file holding ``SECRET``."""
    dtd: Path
    """A DTD declaring the entity ``leak`` as ``SECRET``."""
    parameter: Path
    """A file declaring the entity ``pleak`` as ``SECRET``, for a parameter entity."""


def _with_first_title(markup: Markup, text: str, title: str) -> str:
    (start, end), *_ = _blocks(markup, text)
    return text[:start] + _inner("title", title)(markup, text[start:end]) + text[end:]


def _reaching(engine: str, outside: Outside) -> Iterator[tuple[str, str, bool]]:
    """(what, answer, whether it reads exactly as the saved one): answers whose markup names
    the canary server or a local file."""
    text = _text(engine)
    markup = MARKUPS[engine]
    base = outside.base
    if engine != "arxiv":
        rest = re.sub(r"^<!DOCTYPE[^>]*>", "", text)
        yield "DTD on the canary", f'<!DOCTYPE html SYSTEM "{base}/dtd">{rest}', True
        local = f'<!DOCTYPE html SYSTEM "file://{outside.dtd}">{rest}'
        yield "DTD on file", _with_first_title(markup, local, "A &leak; B"), False
        tags = f'<link rel="stylesheet" href="{base}/css"><img src="{base}/img">'
        yield "page resources", text.replace("</head>", tags + "</head>", 1), True
        return
    head, _, rest = text.partition("\n")
    yield "DTD on the canary", f'{head}\n<!DOCTYPE feed SYSTEM "{base}/dtd">\n{rest}', True
    local = f'{head}\n<!DOCTYPE feed SYSTEM "file://{outside.dtd}">\n{rest}'
    yield "DTD on file", _with_first_title(markup, local, "A &leak; B"), False
    stylesheet = f'<?xml-stylesheet type="text/xsl" href="{base}/xsl"?>'
    yield "stylesheet instruction", f"{head}\n{stylesheet}\n{rest}", True
    laughs = "".join(f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, 10))
    declarations = (
        f'<!ENTITY canary SYSTEM "{base}/entity">'
        f'<!ENTITY local SYSTEM "file://{outside.secret}">'
        f'<!ENTITY % remote SYSTEM "{base}/parameter"> %remote;'
        f'<!ENTITY % file SYSTEM "file://{outside.parameter}"> %file;'
        f'<!ENTITY lol0 "lol">{laughs}'
    )
    declared = f"{head}\n<!DOCTYPE feed [{declarations}]>\n{rest}"
    for entity in ("canary", "local", "pleak", "lol9"):
        title = f"Before &{entity}; after"
        yield (
            f"entity {entity} in the first title",
            _with_first_title(markup, declared, title),
            False,
        )
    xinclude = (
        '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude"'
        f' href="file://{outside.secret}" parse="text"/>'
    )
    yield "XInclude in the first title", _with_first_title(markup, text, f"T {xinclude}"), False


def test_markup_never_reaches_out(canary: EngineServer, tmp_path: Path) -> None:
    secret, dtd, parameter = tmp_path / "secret.txt", tmp_path / "feed.dtd", tmp_path / "p.ent"
    secret.write_text(SECRET)
    dtd.write_text(f'<!ENTITY leak "{SECRET}">')
    parameter.write_text(f'<!ENTITY pleak "{SECRET}">')
    outside = Outside(f"http://127.0.0.1:{canary.port}/e/canary", secret, dtd, parameter)
    for engine in ENGINES:
        whole = _whole(engine)
        for what, body, exact in _reaching(engine, outside):
            answer = _read(engine, body.encode())
            if exact:
                assert answer == whole, (engine, what)
            else:
                _costs_at_most_the_first(engine, whole, answer)
            for result in answer:
                assert SECRET not in result.title + result.snippet, (engine, what)
                assert "lollollol" not in result.title + result.snippet, (engine, what)
    assert canary.seen == []


# --- not the engine's format at all ---------------------------------------------------------------

NOT_THE_FORMAT = {
    "empty": b"",
    "blank": b" \r\n\t",
    "NUL bytes": b"\x00" * 64,
    "a BOM alone": b"\xef\xbb\xbf",
    "a UTF-16 BOM alone": b"\xff\xfe",
    "binary": bytes(range(256)) * 4,
    "JSON": b'{"results": [{"title": "x", "url": "https://example.org/"}]}',
    "JSON null": b"null",
    "plain text": b"Service temporarily unavailable",
    "another page": b"<!DOCTYPE html><html><head><title>Hi</title></head><body><p>Hello</p></body></html>",
    "an RSS feed": b'<?xml version="1.0"?><rss version="2.0"><channel><item><title>x</title>'
    b"<link>https://example.org/</link></item></channel></rss>",
    "an Atom feed without its namespace": b"<feed><entry><id>https://arxiv.org/abs/1</id>"
    b"<title>t</title></entry></feed>",
    "cut inside the head": b"<!DOCTYPE html><html><head><title>rust",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("what", NOT_THE_FORMAT)
def test_an_answer_not_in_the_format_is_a_parse_failure(engine: str, what: str) -> None:
    assert _read(engine, NOT_THE_FORMAT[what]) == EngineFailure("parse_failure")


@pytest.mark.parametrize("engine", ENGINES)
def test_another_engines_answer_is_a_parse_failure(engine: str) -> None:
    for other in ENGINES:
        if other != engine:
            assert _read(engine, _text(other).encode()) == EngineFailure("parse_failure"), other
