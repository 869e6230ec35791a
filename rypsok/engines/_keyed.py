"""What the bring-your-own-key engines (tavily, exa, kagi, serper) share: the mapping of
their HTTP outcomes, the reading of an error body, dates and the order of scored results.

These are paid APIs reached with the operator's key. Their outcomes map as the issues of
record (#19, #26) settle: 401 and 403 are the key refused (``auth_failure``: an API answers
403 for a key without rights, not for a bot) unless the provider's error code says
otherwise; 429 is ``rate_limited`` with Retry-After when given; the provider's own
plan-limit statuses (out of credits, over the plan's or the key's budget) are
``rate_limited`` and ``spent``, which rests the engine; every other status is
``request_failure``. A JSON error under 200 is a failure too, never an empty answer.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .base import (
    EngineFailure,
    RawResult,
    failure_for_status,
    iso_date,
    load_json,
    retry_after_seconds,
    string_field,
    strip_html,
)

if TYPE_CHECKING:
    import httpx

_AUTH_WORDS = (
    "unauthori",
    "api key",
    "api_key",
    "apikey",
    "forbidden",
    "invalid key",
    "invalid token",
    "missing token",
)
"""What an error message that refuses the key says (Kagi's "Invalid token", Serper's
"Unauthorized.", Tavily's "missing or invalid API key")."""
_SPENT_WORDS = ("credit", "usage limit", "quota", "balance", "budget", "payment")
"""What an error message about a spent plan says (Tavily's "exceeds your plan's set usage
limit", Exa's "exhausted your credits", Kagi's "Insufficient credit", Serper's "Not
enough credits")."""
_RATE_WORDS = ("rate limit", "exceed", "excessive", "too many")
"""What an error message about the request rate says (Tavily's "blocked due to excessive
requests")."""


def failure(
    status: int, headers: httpx.Headers, plan_limits: frozenset[int] = frozenset()
) -> EngineFailure | None:
    """The failure an HTTP status means for a keyed API; None for a 2xx: the shared mapping
    (base.failure_for_status), except that 403 is the key refused, not a block, and the
    provider's plan-limit statuses are ``rate_limited`` and ``spent``."""
    if status == 403:
        return EngineFailure("auth_failure")
    if status in plan_limits:
        return spent(headers)
    return failure_for_status(status, headers)


def names_the_key(message: Any) -> bool:
    """Whether an error message says the key was refused (missing, invalid, no rights)."""
    text = message.lower() if isinstance(message, str) else ""
    return any(word in text for word in _AUTH_WORDS)


def spent(headers: httpx.Headers) -> EngineFailure:
    """The plan's money or credits are gone: ``rate_limited`` that rests the engine."""
    return EngineFailure("rate_limited", retry_after_seconds(headers), spent=True)


def failure_for_message(message: Any, headers: httpx.Headers) -> EngineFailure:
    """An error the API reported in its body under 200: the key refused, a limit reached,
    or else a failed request. The message itself is never kept."""
    text = message.lower() if isinstance(message, str) else ""
    if names_the_key(text):
        return EngineFailure("auth_failure")
    if any(word in text for word in _SPENT_WORDS):
        return spent(headers)
    if any(word in text for word in _RATE_WORDS):
        return EngineFailure("rate_limited", retry_after_seconds(headers))
    return EngineFailure("request_failure")


def answer_items(
    status: int,
    headers: httpx.Headers,
    document: dict[str, Any] | None,
    *,
    plan_limits: frozenset[int],
    key: str,
    error: Callable[[dict[str, Any]], Any],
) -> list[Any] | EngineFailure:
    """The list of items under ``key`` of a JSON answer (``document``, None when the body
    is not a JSON object), or the failure the answer is: its status, a body that is not a
    JSON object, the error ``error`` finds in it (None when there is none), or an object
    without ``key``."""
    failed = failure(status, headers, plan_limits)
    if failed is not None:
        return failed
    if document is None:
        return EngineFailure("parse_failure")
    message = error(document)
    if message is not None:
        return failure_for_message(message, headers)
    found = items(document.get(key)) if key in document else None
    return EngineFailure("parse_failure") if found is None else found


def read_result(
    item: Any,
    now: dt.datetime,
    *,
    url: str = "url",
    snippet: str | Callable[[dict[str, Any]], str] = "snippet",
    date: str = "published",
) -> RawResult | None:
    """One result object: its link under ``url``, its ``title``, the snippet under
    ``snippet`` (or made by it), the date under ``date``; None when it is not an object
    or has no link."""
    if not isinstance(item, dict):
        return None
    link = item.get(url)
    if not isinstance(link, str) or not link:
        return None
    text = snippet(item) if callable(snippet) else string_field(item.get(snippet))
    return RawResult(
        title=strip_html(string_field(item.get("title"))),
        url=link,
        snippet=strip_html(text),
        date=published(item.get(date), now),
    )


def json_object(body: bytes) -> dict[str, Any] | None:
    """The answer as a JSON object; None when it is not JSON or not an object."""
    try:
        document = load_json(body)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


def number(value: Any) -> float | None:
    """A JSON number that can be an amount (finite, not negative, not a boolean); else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    amount = float(value)
    return amount if math.isfinite(amount) and amount >= 0 else None


def items(value: Any) -> list[Any] | None:
    """A list of results: the list, ``[]`` for a JSON null, None for anything else."""
    if value is None:
        return []
    return value if isinstance(value, list) else None


_RELATIVE = re.compile(r"^(\d{1,4})\s+(minute|min|hour|day|week)s?\s+ago$", re.IGNORECASE)
_RELATIVE_UNITS = {"minute": "minutes", "min": "minutes", "hour": "hours", "day": "days"}
_DAY_FORMATS = ("%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%d %B %Y")


def published(value: Any, now: dt.datetime) -> str | None:
    """YYYY-MM-DD from the dates these APIs write: ISO 8601, RFC 2822 (Tavily's news),
    ``Mar 5, 2024`` and ``3 days ago`` (Google's, through Serper; ``now`` is the search's).
    Months or years ago are too coarse for a day and give None, as does anything else."""
    found = iso_date(value)
    if found is not None or not isinstance(value, str):
        return found
    import email.utils  # loaded ahead with the parsers (base.PARSER_MODULES)

    text = " ".join(value.split())
    with contextlib.suppress(ValueError, TypeError, OverflowError):
        return email.utils.parsedate_to_datetime(text).date().isoformat()
    for pattern in _DAY_FORMATS:
        with contextlib.suppress(ValueError, TypeError, OverflowError):
            return dt.datetime.strptime(text, pattern).date().isoformat()
    relative = _RELATIVE.match(text)
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2).lower()
        if unit == "week":
            amount, unit = amount * 7, "day"
        delta = dt.timedelta(**{_RELATIVE_UNITS[unit]: amount})
        return (now - delta).date().isoformat()
    return None


def by_score(scored: Iterable[tuple[RawResult, Any]]) -> list[RawResult]:
    """Results in the engine's relevance order: by ``score``, highest first, when every
    result has a numeric score (ties keep the answer's order); else as the answer gave them."""
    pairs = list(scored)
    numeric = all(
        isinstance(score, int | float) and not isinstance(score, bool) for _, score in pairs
    )
    if numeric:
        pairs.sort(key=lambda pair: -pair[1])
    return [result for result, _ in pairs]
