"""Bytes as text: one charset picker, for web_fetch's pages and plain text and for the
engines' HTML and XML answers.

DECISIONS.md, Charset: the header's charset, then a BOM, then (a page only) its ``<meta>``
or XML declaration, else UTF-8 when the bytes are valid UTF-8, else windows-1252.
"""

from __future__ import annotations

from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding, to_unicode


def decode_html(body: bytes, content_type_charset: str | None) -> str:
    """An HTML or XHTML page as text (:func:`decode` with ``markup``)."""
    return decode(body, content_type_charset, markup=True)


def decode_text(body: bytes, charset: str | None) -> str:
    """Plain text or Markdown as text (:func:`decode` without ``markup``)."""
    return decode(body, charset, markup=False)


def decode(body: bytes, charset: str | None, *, markup: bool) -> str:
    """``body`` as text: the header's ``charset``, then a BOM, then with ``markup`` the
    document's ``<meta>`` or XML declaration, else UTF-8 when the bytes are valid UTF-8,
    else windows-1252.

    Where the two kinds differ, each keeps what it did before they shared this picker. A
    page (``markup``) is decoded as w3lib decodes one (GB18030's lead byte 0x80 is the euro
    sign) and loses a leading U+FEFF whatever the header says; plain text under a header
    charset loses a BOM only when the BOM names that charset.
    """
    encoding = resolve_encoding(charset) if charset else None
    bom_encoding, bom = read_bom(body)
    if bom_encoding is not None and (
        encoding is None
        or (not markup and resolve_encoding(bom_encoding) == resolve_encoding(encoding))
    ):
        encoding = encoding or bom_encoding
        body = body[len(bom) :]
    if encoding is None and markup:
        declared = html_body_declared_encoding(body)
        encoding = resolve_encoding(declared) if declared else None
        if encoding is not None and encoding.startswith(("utf-16", "utf-32")):
            # ASCII-compatible bytes were read to find the declaration, so it cannot be true.
            encoding = "utf-8"
    if encoding is None:
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            encoding = "cp1252"
    if not markup:
        return body.decode(encoding, errors="replace")
    return _strip_bom(to_unicode(body, encoding))


def _strip_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text
