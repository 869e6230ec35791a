"""robots.txt for web_fetch: what an answer means (RFC 9309), and a small per-origin cache.

Sans-IO: the fetcher reads /robots.txt (following at most five redirects, each judged by
the egress policy) and hands the final status and body here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from protego import Protego

from rypsok.state.ttl_cache import TtlLruCache

PRODUCT_TOKEN = "rypsok"
MAX_ROBOTS_BYTES = 512 * 1024
MAX_ROBOTS_REDIRECTS = 5
CACHE_TTL_S = 300.0
CACHE_ENTRIES = 256

Origin = tuple[str, str, int]
"""(scheme, host, port): robots.txt rules apply to one origin (RFC 9309 section 2.3)."""


@dataclass(frozen=True)
class RobotsRules:
    """The verdict for one origin: everything allowed, everything disallowed, or parsed rules."""

    parsed: Protego | None = None
    allow_all: bool = False
    redirect_unreadable: bool = False
    """robots.txt redirected to a target that cannot be read (the refusal says so)."""

    def allows(self, url: str) -> bool:
        """Whether ``url`` may be fetched by ``rypsok`` (a group for ``*`` applies otherwise)."""
        if self.parsed is None:
            return self.allow_all
        return self.parsed.can_fetch(url, PRODUCT_TOKEN)


ALLOW_ALL = RobotsRules(allow_all=True)
DISALLOW_ALL = RobotsRules(allow_all=False)
UNREADABLE_REDIRECT = RobotsRules(allow_all=False, redirect_unreadable=True)
"""robots.txt redirected to a target that cannot be read: unreachable, so everything is
disallowed (RFC 9309 section 2.3.1.4)."""


_USER_AGENT_LINE = re.compile(r"(\s*user[- ]?agent\s*(?::\s*|\s+))([^#]*)(.*)", re.IGNORECASE)
_PRODUCT_TOKEN = re.compile(r"[A-Za-z_-]+")
OTHER_AGENT = "other-agent"
"""What a group for any other crawler is renamed to: no part of it can match ``rypsok``."""


def name_groups(text: str) -> str:
    """Each ``User-agent`` line's value as RFC 9309 section 2.2.1 reads it: ``*`` (also
    ``* `` followed by more, as Google's reference parser reads it), ``rypsok`` when the
    value's product token (its leading letters, ``_`` and ``-``) is ``rypsok`` in any case
    (``rypsok/1.0`` included), else a name no part of which is ``rypsok``.

    protego matches a group whose name is found in the crawler's name at a word start, so
    a group for ``ryp`` or ``r`` would bind rypsok; the RFC matches the token exactly.
    """
    lines = text.splitlines()
    for number, line in enumerate(lines):
        found = _USER_AGENT_LINE.fullmatch(line)
        if found is None:
            continue
        value = found.group(2).strip()
        if not value:
            continue
        if value == "*" or (value[0] == "*" and value[1].isspace()):
            name = "*"
        else:
            token = _PRODUCT_TOKEN.match(value)
            is_ours = token is not None and token.group().lower() == PRODUCT_TOKEN
            name = PRODUCT_TOKEN if is_ours else OTHER_AGENT
        lines[number] = f"{found.group(1)}{name}{found.group(3)}"
    return "\n".join(lines)


def parse_robots(body: bytes) -> RobotsRules:
    """Rules from the first 512 KiB of a robots.txt, cut back to the last whole line.

    The cut matters: half a line ``Allow: /private-but-this`` would allow more than the
    site wrote. A UTF-8 byte order mark is dropped: left in, it would hide the first
    ``User-agent`` line, and with it the first group's rules.
    """
    if len(body) > MAX_ROBOTS_BYTES:
        body = body[:MAX_ROBOTS_BYTES]
        last_newline = max(body.rfind(b"\n"), body.rfind(b"\r"))
        body = body[: last_newline + 1]
    text = body.decode("utf-8-sig", errors="replace")
    return RobotsRules(parsed=Protego.parse(name_groups(text)))


def rules_for_answer(status: int, body: bytes) -> RobotsRules:
    """RFC 9309 section 2.3.1: 2xx is parsed, 4xx allows all (429 excepted), the rest disallows.

    A 3xx arriving here is one redirect too many (or one without a usable target), which
    DECISIONS.md counts like a 5xx.
    """
    if 200 <= status < 300:
        return parse_robots(body)
    if status == 429:
        return DISALLOW_ALL
    if 400 <= status < 500:
        return ALLOW_ALL
    return DISALLOW_ALL


class RobotsCache(TtlLruCache[Origin, RobotsRules]):
    """Verdicts per origin for ``ttl_s`` seconds of ``clock``, at most ``max_entries`` (LRU)."""

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        ttl_s: float = CACHE_TTL_S,
        max_entries: int = CACHE_ENTRIES,
    ):
        super().__init__(ttl_s, max_entries, clock)
