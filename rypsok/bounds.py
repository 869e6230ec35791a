"""The spec's fixed bounds and defaults of the tools' arguments and answers, written once.

Read by the schemas, the argument checks, the fetcher, the sanitizer, the URL reader and
the error messages, so that what a schema advertises is what is enforced. Pure and at the
bottom of the import graph: it imports nothing from rypsok. The operator's ceilings
(``[search] max_results``, ``[fetch] max_chars``) are in the configuration; the two
defaults below are the spec's, lowered to the ceiling when the operator set it lower.
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_QUERY_CHARS = 1
"""The shortest query, after trimming (the longest is ``[search] max_query_chars``)."""
MIN_MAX_RESULTS = 1
"""The least ``max_results`` (the most is ``[search] max_results``)."""

MIN_URL_CHARS = 1
MAX_URL_CHARS = 2048
"""The longest URL web_fetch reads, and the longest result URL web_search keeps."""

MIN_MAX_CHARS = 500
"""The least ``max_chars`` a fetch may ask for (and so the least ``[fetch] max_chars``)."""
DEFAULT_MAX_CHARS = 3000
MIN_START_CHAR = 0
MAX_START_CHAR = 2**31 - 1
"""The largest ``start_char`` (a 32-bit signed integer, what every client can send)."""

DEFAULT_MAX_RESULTS = 5
DEFAULT_CATEGORY = "general"

MAX_TITLE_CHARS = 150
"""A result's or a page's title, after cleaning."""
MAX_SNIPPET_CHARS = 300
"""A result's snippet, after cleaning."""

MAX_MESSAGE_CHARS = 200
"""An error's message."""

FETCH_EXTRACTION_S = 1.0
"""What web_fetch may spend extracting after its network timeout (docs/web_fetch.md)."""
FETCH_STOP_RESERVE_S = 0.3
"""Kept from web_fetch's extraction second for stopping the child that reads the page and
answering, so the call ends within timeout_ms + 1 s of its start: killing and reaping a
child holding 300 MB took up to 0.11 s on the loaded 2-core test machine."""


def default_max_results(ceiling: int) -> int:
    """``max_results`` when a call names none: 5, or the configured ceiling when lower."""
    return min(DEFAULT_MAX_RESULTS, ceiling)


def default_max_chars(ceiling: int) -> int:
    """``max_chars`` when a call names none: 3000, or the configured ceiling when lower."""
    return min(DEFAULT_MAX_CHARS, ceiling)


def default_category(served: Sequence[str]) -> str:
    """``category`` when a call names none: general; where no enabled engine serves general,
    the first category served (in the spec's order), so that a call without one searches
    what the schema offers instead of failing on a parameter its caller never gave."""
    if DEFAULT_CATEGORY in served or not served:
        return DEFAULT_CATEGORY
    return served[0]
