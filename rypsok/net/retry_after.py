"""Retry-After (RFC 9110 section 10.2.3), read once for engines and for fetches.

The header holds delta-seconds (ASCII digits) or an HTTP date. The two callers differ only
in what they do with it: an engine's rate limit waits for either
(:func:`rypsok.engines.base.retry_after_seconds`); a fetch passes on whole seconds up to
an hour and ignores a date, as the spec asks (:func:`rypsok.webfetch.page.retry_after_ms`).
"""

from __future__ import annotations

import datetime as dt
import email.utils


def read_retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """The seconds ``value`` asks to wait, or None when it is absent or unreadable.

    Delta-seconds are read as they are; an HTTP date only when ``now`` is given, as the
    time from ``now`` to it (0 when it has passed; a date without a zone is UTC).
    """
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    if now is None:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max(0.0, (when - now).total_seconds())
