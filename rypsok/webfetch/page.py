"""Paging a fetched page's content: budgets count Unicode scalar values (Python characters)."""

from __future__ import annotations

from rypsok import errors


def page(content: str, start_char: int, max_chars: int) -> tuple[str, bool, int | None]:
    """``(text, truncated, next_start_char)`` for ``max_chars`` characters from ``start_char``.

    ``next_start_char`` is None unless content remains. A ``start_char`` at or beyond the
    end is invalid_request stating the length (an empty content never gets here: it is
    extraction_failed first).
    """
    if start_char >= len(content):
        raise errors.start_char_beyond(len(content))
    end = start_char + max_chars
    text = content[start_char:end]
    if end < len(content):
        return text, True, end
    return text, False, None
