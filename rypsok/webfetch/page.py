"""A fetched page's content: extraction, cleaning and paging, and the readings of its
headers (media type and charset, Retry-After); pure (no I/O, no clock).

The fetcher (the I/O shell) reads the page and runs :func:`build_response` in a child
process (:mod:`rypsok.webfetch.worker`), which imports this module and what it imports:
keep it free of the network side (httpx, anyio, the client). Budgets count Unicode scalar
values (Python characters).
"""

from __future__ import annotations

from dataclasses import dataclass

from w3lib.encoding import http_content_type_encoding

from rypsok import errors
from rypsok.hygiene.instructions import is_instruction_like
from rypsok.hygiene.text import clean_content, clean_title
from rypsok.model import FetchResponse, Notice, Notices
from rypsok.net.retry_after import read_retry_after
from rypsok.webfetch.extract import (
    decode_html,
    decode_text,
    extract_html,
    markdown_page,
    plain_text_page,
)

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({"text/plain", "text/markdown"})
NO_CONTENT_TYPE = "application/octet-stream"  # RFC 9110 section 8.3: what a recipient may assume
MAX_RETRY_AFTER_S = 3600
NO_CONTENT_STATUSES = frozenset({204, 205})
"""2xx answers that carry no content by definition (RFC 9110 sections 15.3.5 and 15.3.6)."""


@dataclass(frozen=True)
class RawPage:
    """A 2xx answer of a readable media type, before extraction."""

    url: str
    media_type: str
    charset: str | None
    body: bytes


def build_response(raw: RawPage, start_char: int, max_chars: int) -> FetchResponse:
    """Extraction, cleaning and paging; a plain-text or Markdown page comes back as written,
    only what a renderer would make live judged (:mod:`rypsok.webfetch.extract.text_page`).
    Raises ToolError (extraction_failed, start_char beyond the content); anything else it
    raises is a bug."""
    removed = 0  # before the cleaner: what extraction removed
    if raw.media_type in HTML_TYPES:
        extracted = extract_html(decode_html(raw.body, raw.charset), raw.url)
        title, markdown, partial = extracted.title, extracted.markdown, extracted.partial
        removed = extracted.removed
    else:
        title, markdown, partial = "", decode_text(raw.body, raw.charset), False
    cleaned_title = clean_title(title)
    cleaned = clean_content(markdown)
    # An HTML page's text was escaped as it was rendered; a text page is judged after the
    # cleaner (removing an invisible character could join what the judging kept apart).
    content = cleaned.text
    if raw.media_type == "text/markdown":
        content = markdown_page(content, raw.url)
    elif raw.media_type == "text/plain":
        content = plain_text_page(content)
    if not content.strip():
        raise errors.extraction_failed()
    notices = Notices()
    if cleaned_title.truncated:
        notices.count("title_truncated")
    notices.count("characters_removed", removed + cleaned_title.removed + cleaned.removed)
    if is_instruction_like(content) or is_instruction_like(cleaned_title.text):
        notices.count("instruction_like_content")
    if partial:
        notices.add(Notice("extraction_partial"))
    text, truncated, next_start_char = page(content, start_char, max_chars)
    return FetchResponse(
        url=raw.url,
        title=cleaned_title.text,
        content=text,
        truncated=truncated,
        next_start_char=next_start_char,
        notices=notices.as_list(),
    )


def page(content: str, start_char: int, max_chars: int) -> tuple[str, bool, int | None]:
    """``(text, truncated, next_start_char)`` for ``max_chars`` characters from ``start_char``.

    ``next_start_char`` is None unless content remains. A ``start_char`` at or beyond the
    end is invalid_request stating the length (an empty content never gets here: it is
    extraction_failed first). A page does not end inside a run of backslashes: the next one
    would start with what they escaped, unescaped (``\\<script>`` cut after the backslash),
    so it ends before the run unless the run is all the page holds.
    """
    if start_char >= len(content):
        raise errors.start_char_beyond(len(content))
    end = start_char + max_chars
    if end < len(content) and content[end - 1] == "\\":
        run_start = len(content[start_char:end].rstrip("\\")) + start_char
        if run_start > start_char:
            end = run_start
    text = content[start_char:end]
    if end < len(content):
        return text, True, end
    return text, False, None


def media_type_of(content_type: str | None) -> tuple[str, str | None]:
    """``(media type, charset)`` from a Content-Type header; none, or one without a media
    type (empty, or only parameters), means application/octet-stream."""
    if content_type is None:
        return NO_CONTENT_TYPE, None
    media_type = content_type.split(";", 1)[0].strip().lower()
    return media_type or NO_CONTENT_TYPE, http_content_type_encoding(content_type)


def is_whole_range(content_range: str | None) -> bool:
    """Whether a 206's Content-Range (RFC 9110 section 14.4) covers the whole representation:
    ``bytes 0-(n-1)/n``. rypsok sends no Range, so any other 206 is part of a page."""
    if content_range is None:
        return False
    unit, _, spec = content_range.strip().partition(" ")
    first_last, _, complete = spec.strip().partition("/")
    first, _, last = first_last.partition("-")
    numbers = (first, last, complete)
    if unit.lower() != "bytes" or not all(n.isascii() and n.isdigit() for n in numbers):
        return False
    return int(first) == 0 and int(last) + 1 == int(complete)


def retry_after_ms(value: str | None) -> int | None:
    """Retry-After as milliseconds when it is whole seconds up to 3600; a date is ignored."""
    seconds = read_retry_after(value)
    if seconds is None or seconds > MAX_RETRY_AFTER_S:
        return None
    return int(seconds) * 1000
