"""Page text stays text in CommonMark: what would start markup in text is escaped, a link
target cannot end early, and a code span or a fence's info string cannot break out. Text of
an HTML page is escaped as it is rendered (:func:`escape`, :func:`escape_line_start`); in a
plain-text or Markdown page, already text, raw HTML is made inert with :func:`inert`
(:mod:`rypsok.webfetch.extract.text_page` finds it and judges the rest)."""

from __future__ import annotations

import re

_WS = re.compile(r"[ \t\n\r\f]+")
# Text is text: what would make emphasis or code (``*``, `` ` ``, ``_`` unless between two
# letters or digits, as in snake_case), a link, an image or a reference definition (``[``,
# ``]``), an autolink or raw HTML (``<``) or an entity (``&`` that reads as one) in CommonMark
# is backslash-escaped, and so is ``\``.
_ENTITY_AMPERSAND = r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{0,31};)"
_ESCAPE = re.compile(r"[*`\\\[\]<]|(?<![^\W_])_|_(?![^\W_])|" + _ENTITY_AMPERSAND)
# A line that would start a heading, a list, a quote, a setext underline or thematic break
# (a line of ``=`` or ``-``) or a ``~~~`` fence.
LINE_START = re.compile(
    r"^(?:(#{1,6}(?=\s|$)|[-+*](?=\s|$)|>|=+ *$|-+ *$|~~~)|(\d{1,9})([.)])(?=\s|$))"
)
# A fence's info string: a language name, nothing that could end or break the fence line.
LANGUAGE = re.compile(r"[\w+#.-]{1,40}")
# What cannot stand in a link destination as it is: spaces and controls, parentheses and
# angle brackets (percent-encoded), and ``\`` and an entity-like ``&`` (backslash-escaped).
_URL_UNSAFE = re.compile(r"[\x00-\x20\x7f()<>]")
_URL_ESCAPE = re.compile(r"\\|" + _ENTITY_AMPERSAND)


# Once every ``<`` and ``[`` has a backslash added: a run of backslashes before one. When it
# is even, the page had escaped that one already (an odd run) and the added one goes.
_ESCAPED_TWICE = re.compile(r"(?<!\\)\\{2,}+(?=[<\[])")


def _once(run: re.Match[str]) -> str:
    backslashes = run.group()
    return backslashes if len(backslashes) % 2 else backslashes[:-1]


def inert(markdown: str) -> str:
    """Text with no link, image, autolink or raw HTML left for a CommonMark renderer: every
    ``<`` and ``[`` that no backslash escapes is escaped (one after an even run of
    backslashes too, since those escape each other). Every link, image, reference
    definition, autolink and HTML tag or block starts with one of the two; the rest of the
    text is returned as written. For a piece of raw HTML in a text page, and for a whole
    page whose judging did not settle (then the backslash shows in code too). Run after the
    cleaner: removing an invisible character between a backslash and ``<`` would change what
    the backslash escapes.

    Every one is escaped first (``str.replace``, in C), then the few the page had escaped
    already lose the second backslash: on 5 MB dense with links and tags, a fifth of the
    cleaner's time (``bench/text_pages.py``), where one regular expression took five times the
    cleaner's.
    """
    if "<" not in markdown and "[" not in markdown:
        return markdown
    markdown = markdown.replace("<", "\\<").replace("[", "\\[")
    if "\\\\<" in markdown or "\\\\[" in markdown:
        markdown = _ESCAPED_TWICE.sub(_once, markdown)
    return markdown


def collapse(text: str) -> str:
    """Runs of ASCII whitespace as one space (plain ``in`` tests first: most text has none)."""
    if "\n" in text or "  " in text or "\t" in text or "\r" in text or "\f" in text:
        return _WS.sub(" ", text)
    return text


def escape(text: str) -> str:
    # plain ``in`` tests first: most text has none of these, and eight of them take a third
    # of the time of one regex search
    if (
        "*" in text
        or "_" in text
        or "`" in text
        or "\\" in text
        or "[" in text
        or "]" in text
        or "<" in text
        or "&" in text
    ):
        return _ESCAPE.sub(r"\\\g<0>", text)
    return text


def escape_line_start(line: str) -> str:
    """``line`` escaped where it would start block markup (``LINE_START``)."""
    match = LINE_START.match(line)
    if not match:
        return line
    if match.group(1):
        return "\\" + line
    end = match.end(2)
    return line[:end] + "\\" + line[end:]


def code_span(code: str) -> str:
    code = code.replace("\n", " ")
    if not code.strip():
        return code
    fence = "`"
    while fence in code:
        fence += "`"
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


def markdown_url(url: str) -> str:
    if _URL_UNSAFE.search(url):
        url = _URL_UNSAFE.sub(lambda unsafe: f"%{ord(unsafe.group()):02X}", url)
    if "\\" in url or "&" in url:
        url = _URL_ESCAPE.sub(r"\\\g<0>", url)
    return url
