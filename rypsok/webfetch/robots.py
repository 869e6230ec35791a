"""robots.txt for web_fetch: what an answer means (RFC 9309), and a small per-origin cache.

Sans-IO: the fetcher reads /robots.txt (following at most five redirects, each judged by
the egress policy) and hands the final status and body here.
"""

from __future__ import annotations

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


def parse_robots(body: bytes) -> RobotsRules:
    """Rules from the first 512 KiB of a robots.txt, cut back to the last whole line.

    The cut matters: half a line ``Allow: /private-but-this`` would allow more than the
    site wrote.
    """
    if len(body) > MAX_ROBOTS_BYTES:
        body = body[:MAX_ROBOTS_BYTES]
        last_newline = max(body.rfind(b"\n"), body.rfind(b"\r"))
        body = body[: last_newline + 1]
    return RobotsRules(parsed=Protego.parse(body.decode("utf-8", errors="replace")))


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
