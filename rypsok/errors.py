"""ToolError and one constructor per error kind and reason.

Every message the caller can see is written here, so the rules for messages
(at most 200 characters, say what to change, never a secret, provider text,
address or trace) can be checked in one place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rypsok.bounds import MAX_MESSAGE_CHARS, MAX_URL_CHARS, MIN_URL_CHARS

if TYPE_CHECKING:
    from rypsok.net.url import URLError

# The hygiene modules (secrets, invisible characters) load when a message first quotes
# caller text: the server lists its tools without them.

log = logging.getLogger("rypsok.errors")

ELLIPSIS = "…"
RETRYABLE_STATUSES = frozenset({408, 425, 429})
QUOTED_NAME_CHARS = 60
"""What a message quotes of a parameter name, quotes and ellipsis included."""
ECHOED_NAME_CHARS = 100
"""What ``detail.parameter`` echoes of a parameter name."""
_SECRET_WINDOW = 1024
"""Secrets are looked for in this much of a quoted text, so one cut by the quote is still found."""


def clip(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` if it fits in ``limit`` characters, else its head and an ellipsis."""
    return message if len(message) <= limit else message[: limit - len(ELLIPSIS)] + ELLIPSIS


def _escaped(ch: str, invisible: Callable[[str], bool]) -> str:
    if ch == "\\":
        return "\\\\"
    if ch.isprintable() and not invisible(ch):
        return ch
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _masked_head(caller_text: str) -> tuple[str, bool]:
    """The first _SECRET_WINDOW characters with their secrets masked, and whether more follow."""
    from rypsok.hygiene import secrets

    head = caller_text[:_SECRET_WINDOW]
    return secrets.mask(head, secrets.find_secrets(head)), len(caller_text) > _SECRET_WINDOW


def quote(caller_text: str, limit: int) -> str:
    """Caller text for a message, in single quotes and at most ``limit`` characters: secrets
    masked as ``***``, characters a reader cannot see (controls, format characters, joiners,
    variation selectors, lone surrogates, spaces other than U+0020) written as escapes such as
    ``\\u200b``, and cut with an ellipsis inside the quotes when it does not fit."""
    room = limit - 2
    if room < len(ELLIPSIS):
        raise ValueError("a quote needs room for its quotes and an ellipsis")
    from rypsok.hygiene.text import invisible

    masked, more = _masked_head(caller_text)
    from rypsok.hygiene.secrets import MASK

    pieces = [
        piece
        for run in masked.split(MASK)
        for piece in (MASK, *(_escaped(ch, invisible) for ch in run))
    ][1:]  # a mask is one piece: a cut quote shows all of it or none, never "**"
    if not more and sum(map(len, pieces)) <= room:
        return "'" + "".join(pieces) + "'"
    kept: list[str] = []
    used = len(ELLIPSIS)
    for piece in pieces:
        if used + len(piece) > room:
            break
        kept.append(piece)
        used += len(piece)
    return "'" + "".join(kept) + ELLIPSIS + "'"


def echo(caller_text: str, limit: int) -> str:
    """Caller text for ``detail``: secrets masked, cut to ``limit`` characters, and lone
    surrogates (which no UTF-8 stream can carry) replaced by U+FFFD."""
    masked = _masked_head(caller_text)[0][:limit]
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in masked)


class ToolError(Exception):
    """An answer of kind ``kind`` instead of a response; ``detail`` is a JSON object.

    The message is bounded by construction: one longer than MAX_MESSAGE_CHARS (a bug in the
    constructor that built it) is cut with an ellipsis and logged, never raised, so an error
    can always be answered."""

    def __init__(
        self,
        kind: str,
        message: str,
        detail: dict[str, Any] | None = None,
        *,
        metric_reason: str | None = None,
    ):
        if len(message) > MAX_MESSAGE_CHARS:
            log.warning("message_cut", extra={"fields": {"kind": kind, "chars": len(message)}})
            message = clip(message)
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.detail: dict[str, Any] = detail or {}
        self._metric_reason = metric_reason

    @property
    def metric_reason(self) -> str:
        """The reason metrics and logs count it under: ``detail.reason`` unless the cause is
        finer than the reasons the spec fixes (engines resting is not the call limit)."""
        if self._metric_reason is not None:
            return self._metric_reason
        return str(self.detail.get("reason", ""))

    def to_json(self) -> dict[str, Any]:
        return {"error": {"kind": self.kind, "message": self.message, "detail": self.detail}}

    def __repr__(self) -> str:
        return f"ToolError({self.kind!r}, {self.message!r}, {self.detail!r})"

    def __reduce__(self):
        """Pickled and copied whole (a process pool sends it back to its caller); the
        default rebuilds an exception from ``args``, here the message alone."""
        return type(self), (self.kind, self.message, self.detail), self.__dict__


# invalid_request


def out_of_range(parameter: str, minimum: int, maximum: int) -> ToolError:
    return ToolError(
        "invalid_request",
        f"{parameter} must be between {minimum} and {maximum}",
        {"parameter": parameter, "min": minimum, "max": maximum},
    )


def not_allowed(parameter: str, allowed: list[str]) -> ToolError:
    choices = ", ".join(allowed)
    return ToolError(
        "invalid_request",
        clip(f"{parameter} must be one of: {choices}"),
        {"parameter": parameter, "allowed": list(allowed)},
    )


def query_length(minimum: int, maximum: int, given_text: bool = True) -> ToolError:
    """``given_text`` False: the query was not a string (a number, a list, null), and the
    message says so, as an integer's does."""
    bound = f"{minimum} to {maximum} characters"
    return ToolError(
        "invalid_request",
        f"query must be {bound} after trimming"
        if given_text
        else f"query must be a string of {bound}",
        {"parameter": "query", "min": minimum, "max": maximum},
    )


def query_not_unicode(minimum: int, maximum: int) -> ToolError:
    """A query holding a lone surrogate (U+D800 to U+DFFF): a Python string can, no engine
    request can carry it. The MCP transports refuse one as they read the JSON escape."""
    return ToolError(
        "invalid_request",
        "query must be Unicode text; it holds a lone surrogate (\\ud800 to \\udfff)",
        {"parameter": "query", "min": minimum, "max": maximum},
    )


def wrong_type(
    parameter: str, expected: str, minimum: int | None = None, maximum: int | None = None
) -> ToolError:
    """A value of the wrong type; a string parameter's length bounds go in ``detail`` too."""
    return ToolError(
        "invalid_request", f"{parameter} must be {expected}", _bounded(parameter, minimum, maximum)
    )


def _bounded(parameter: str, minimum: int | None, maximum: int | None) -> dict[str, Any]:
    """``detail`` naming the parameter, with its bounds when it has them (the spec's
    invalid_request carries min/max or allowed)."""
    if minimum is None or maximum is None:
        return {"parameter": parameter}
    return {"parameter": parameter, "min": minimum, "max": maximum}


def unknown_parameter(parameter: str, allowed: list[str]) -> ToolError:
    return ToolError(
        "invalid_request",
        f"unknown parameter {quote(parameter, QUOTED_NAME_CHARS)}; remove it",
        {"parameter": echo(parameter, ECHOED_NAME_CHARS), "allowed": list(allowed)},
    )


class UnknownTool(ToolError):
    """A tools/call for a tool rypsok does not have (or with no name): MCP answers it as the
    protocol error -32602, not as a tool result; the library raises it as a ToolError."""


def unknown_tool(name: str, tools: list[str]) -> UnknownTool:
    listed = ", ".join(tools)
    if not name:
        message = f"tools/call needs the name of a tool: {listed}"
    else:
        message = f"Unknown tool: {quote(name, QUOTED_NAME_CHARS)}; the tools are: {listed}"
    return UnknownTool("invalid_request", message, {"parameter": "name", "allowed": list(tools)})


def line_too_long(max_bytes: int) -> ToolError:
    """A tools/call on a stdio line longer than the pipe reads: its arguments are not read."""
    return ToolError(
        "invalid_request",
        f"arguments cannot be read: the message is longer than {max_bytes} bytes, the bound "
        "of one stdio line; send shorter arguments",
        {"parameter": "arguments", "max": max_bytes},
    )


def body_too_large(max_bytes: int) -> ToolError:
    """A tools/call in an HTTP request body longer than ``[server] max_request_body``: its
    arguments are not read."""
    return ToolError(
        "invalid_request",
        f"arguments cannot be read: the request body is longer than {max_bytes} bytes, the "
        "bound of one HTTP request; send shorter arguments",
        {"parameter": "arguments", "max": max_bytes},
    )


def missing_parameter(
    parameter: str, minimum: int | None = None, maximum: int | None = None
) -> ToolError:
    return ToolError(
        "invalid_request", f"{parameter} is required", _bounded(parameter, minimum, maximum)
    )


def url_too_long(maximum: int, *, once_encoded: bool = False) -> ToolError:
    """``once_encoded``: the URL is within the bound as sent, its request form is not."""
    message = f"url must be at most {maximum} characters"
    if once_encoded:
        message += " once percent-encoded (each non-ASCII character is 3 to 12); shorten it"
    return ToolError("invalid_request", message, _bounded("url", MIN_URL_CHARS, maximum))


def url_unreadable(error: URLError) -> ToolError:
    """A URL rypsok's reader refused, as the spec's invalid_request for ``url``."""
    if error.max_length is not None:
        return url_too_long(error.max_length, once_encoded=error.once_encoded)
    return url_malformed(error.why)


def url_malformed(why: str) -> ToolError:
    return ToolError(
        "invalid_request",
        f"url is not a valid URL: {why}",
        _bounded("url", MIN_URL_CHARS, MAX_URL_CHARS),
    )


def start_char_beyond(length: int) -> ToolError:
    return ToolError(
        "invalid_request",
        f"start_char must be below {length}, the length of the content",
        {"parameter": "start_char", "min": 0, "max": max(0, length - 1)},
    )


# denied


def secret_in_query(kind: str, position: int) -> ToolError:
    return ToolError(
        "denied",
        f"the query looks like it carries a secret ({kind}) at character {position}; "
        "remove it and search again",
        {"reason": "secret_in_query", "kind": kind, "position": position},
    )


def secret_in_url(kind: str, position: int) -> ToolError:
    return ToolError(
        "denied",
        f"the URL looks like it carries a secret ({kind}) at character {position}; "
        "remove it; do not retry with it",
        {"reason": "secret_in_url", "kind": kind, "position": position},
    )


def credential_in_url() -> ToolError:
    return ToolError(
        "denied",
        "the URL carries credentials (a user name before @); remove them",
        {"reason": "credential_in_url"},
    )


def scheme_not_allowed(allow_http: bool) -> ToolError:
    allowed = "https or http" if allow_http else "https (http is tried over https)"
    return ToolError(
        "denied",
        f"the URL scheme is not allowed; use {allowed}",
        {"reason": "scheme"},
    )


def https_upgrade_failed() -> ToolError:
    return ToolError(
        "denied",
        "the http URL was retried over https and that request failed; "
        "plain http is not allowed here",
        {"reason": "scheme"},
    )


def egress_denied() -> ToolError:
    return ToolError(
        "denied",
        "the destination is an internal address or a port that is not allowed; do not retry",
        {"reason": "egress"},
    )


def robots_denied(redirect_unreadable: bool = False) -> ToolError:
    """``redirect_unreadable``: robots.txt redirected to a target that cannot be read, which
    disallows every page of the site (as robots.txt that cannot be reached does)."""
    message = (
        "the site's robots.txt redirected to an address that cannot be read, so no page of "
        "the site may be fetched; choose another page"
        if redirect_unreadable
        else "the site's robots.txt disallows this page for rypsok; choose another page"
    )
    return ToolError("denied", message, {"reason": "robots_txt"})


def robots_redirect_scheme() -> ToolError:
    """robots.txt redirected to a scheme rypsok does not follow: the caller's own URL was
    fine, so the message says it was the site."""
    return ToolError(
        "denied",
        "the site's robots.txt redirected to a scheme rypsok does not follow, so no page of "
        "the site can be fetched; choose another page",
        {"reason": "scheme"},
    )


def strict_mode_denied() -> ToolError:
    return ToolError(
        "denied",
        "only URLs returned by web_search in this session or listed by the operator can be fetched",
        {"reason": "strict_mode"},
    )


# unavailable


def no_engine_for_category(category: str) -> ToolError:
    return ToolError(
        "unavailable",
        f"no enabled engine serves the category {category}; use another category",
        {"reason": "no_engine"},
    )


def no_engine_enabled() -> ToolError:
    return ToolError(
        "unavailable",
        "no search engine is enabled on this server; searching again will not help",
        {"reason": "no_engine"},
    )


def no_engine_for_parameter(parameter: str) -> ToolError:
    return ToolError(
        "unavailable",
        f"no engine of this category can honour {parameter}; drop {parameter} and search again",
        {"reason": "no_engine", "parameter": parameter},
    )


def all_failed() -> ToolError:
    return ToolError(
        "unavailable",
        "every engine failed for this search; retry later",
        {"reason": "all_failed"},
    )


def search_deadline() -> ToolError:
    return ToolError(
        "unavailable",
        "no engine answered before the deadline; retry later",
        {"reason": "deadline"},
    )


def fetch_deadline() -> ToolError:
    return ToolError(
        "unavailable",
        "the page was not retrieved before the deadline; retry later",
        {"reason": "deadline"},
    )


def rate_limited(retry_after_ms: int) -> ToolError:
    return ToolError(
        "unavailable",
        f"the rate limit was reached; wait {retry_after_ms} ms, then retry later",
        {"reason": "rate_limited", "retry_after_ms": retry_after_ms},
    )


def engines_resting(retry_after_ms: int, *, budgets_too: bool) -> ToolError:
    """Every engine of a search skipped for its cooldown (or, ``budgets_too``, some for their
    own per-minute rate): the spec's ``rate_limited``, but not the call limit, so it says so
    and is counted apart (``engines_resting``)."""
    why = (
        "resting after failures or past their own rate" if budgets_too else "resting after failures"
    )
    return ToolError(
        "unavailable",
        f"every engine for this search is {why}; the first is back in {retry_after_ms} ms: "
        "retry later",
        {"reason": "rate_limited", "retry_after_ms": retry_after_ms},
        metric_reason="engines_resting",
    )


def busy(tool: str) -> ToolError:
    return ToolError(
        "unavailable",
        f"too many {tool} calls are running at once; retry later",
        {"reason": "busy"},
    )


def network() -> ToolError:
    return ToolError(
        "unavailable",
        "the site could not be reached; check the URL or retry later",
        {"reason": "network"},
    )


def unreadable_redirect() -> ToolError:
    """A redirect whose Location cannot be read as a URL: the site's fault, answered as a
    redirect target that cannot be reached."""
    return ToolError(
        "unavailable",
        "the site sent a redirect whose target cannot be read; choose another page or retry later",
        {"reason": "network"},
    )


def too_many_redirects(max_redirects: int) -> ToolError:
    return ToolError(
        "unavailable",
        f"the site redirected more than {max_redirects} times; choose another page or retry later",
        {"reason": "network"},
    )


def partial_content() -> ToolError:
    """A 206 that does not hold the whole page (rypsok never asks for a range)."""
    return ToolError(
        "unavailable",
        "the site sent only part of the page; retry later",
        {"reason": "network"},
    )


def http_status(status: int, retry_after_ms: int | None = None) -> ToolError:
    detail: dict[str, Any] = {"reason": "http_status", "status": status}
    if status in RETRYABLE_STATUSES or status >= 500:
        message = f"the site answered HTTP {status}; retry later"
        if retry_after_ms is not None:
            detail["retry_after_ms"] = retry_after_ms
    else:
        message = (
            f"the site answered HTTP {status}: it refused the request or has no such page; "
            "retrying the same URL will not help"
        )
    return ToolError("unavailable", message, detail)


# the other kinds


def redirected(location: str) -> ToolError:
    return ToolError(
        "redirected",
        "the page moved to another host; call web_fetch with detail.location if it is wanted",
        {"location": location},
    )


def unsupported_media_type(media_type: str) -> ToolError:
    return ToolError(
        "unsupported_content",
        "the page is not HTML, XHTML, plain text or Markdown; choose another page",
        {"reason": "media_type", "media_type": media_type[:100]},
    )


def extraction_failed() -> ToolError:
    return ToolError(
        "unsupported_content",
        "no main content could be extracted from the page; choose another page",
        {"reason": "extraction_failed"},
    )


def too_large(limit_bytes: int) -> ToolError:
    return ToolError(
        "too_large",
        f"the page exceeds the limit of {limit_bytes} bytes; choose another page",
        {"limit_bytes": limit_bytes},
    )


def internal() -> ToolError:
    return ToolError(
        "unavailable",
        "rypsok hit an internal error on this call; retry later",
        {"reason": "busy"},
    )
