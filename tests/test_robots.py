"""robots.txt rules (RFC 9309 via protego) and the per-origin cache, without a network."""

from __future__ import annotations

import pytest

from rypsok.webfetch.robots import (
    ALLOW_ALL,
    DISALLOW_ALL,
    MAX_ROBOTS_BYTES,
    RobotsCache,
    parse_robots,
    rules_for_answer,
)

PAGE = "https://example.org/page"


@pytest.mark.parametrize(
    ("status", "allowed"),
    [
        (200, False),  # the body below disallows everything
        (206, False),
        (400, True),
        (401, True),
        (403, True),
        (404, True),
        (410, True),
        (429, False),
        (500, False),
        (503, False),
        (301, False),  # a redirect that was not followed: one too many
        (100, False),
    ],
)
def test_status_decides_when_there_is_no_body_to_read(status: int, allowed: bool) -> None:
    rules = rules_for_answer(status, b"User-agent: *\nDisallow: /\n")
    assert rules.allows(PAGE) is allowed


def test_empty_2xx_allows_everything() -> None:
    assert rules_for_answer(200, b"").allows(PAGE)
    assert rules_for_answer(204, b"").allows(PAGE)


def test_the_rypsok_group_wins_over_star() -> None:
    rules = parse_robots(b"User-agent: *\nDisallow: /\n\nUser-Agent: RYPSOK\nDisallow: /private/\n")
    assert rules.allows("https://example.org/public")
    assert not rules.allows("https://example.org/private/x")


def test_star_applies_when_no_group_names_rypsok() -> None:
    rules = parse_robots(
        b"User-agent: otherbot\nDisallow: /\n\nUser-agent: rypsokbot\nDisallow: /\n\n"
        b"User-agent: *\nDisallow: /star-only\n"
    )
    assert rules.allows("https://example.org/anything")
    assert not rules.allows("https://example.org/star-only/page")


@pytest.mark.parametrize(
    ("group", "ours"),
    [
        ("rypsok", True),
        ("RYPSOK", True),
        ("rypsok/1.0", True),
        ("rypsok*", True),
        ("rypsok # us", True),
        ("ryp", False),
        ("r", False),
        ("rypsokbot", False),
        ("rypsok_x", False),
        ("sok", False),
    ],
)
def test_a_group_is_rypsok_s_when_its_product_token_is_rypsok(group: str, ours: bool) -> None:
    rules = parse_robots(f"User-agent: *\nAllow: /\n\nUser-agent: {group}\nDisallow: /\n".encode())
    assert rules.allows(PAGE) is not ours


def test_star_followed_by_more_is_the_star_group() -> None:
    assert not parse_robots(b"User-agent: * everyone\nDisallow: /\n").allows(PAGE)


def test_a_byte_order_mark_is_not_part_of_the_first_line() -> None:
    assert not parse_robots(b"\xef\xbb\xbfUser-agent: *\nDisallow: /page\n").allows(PAGE)
    assert not parse_robots(b"\xef\xbb\xbfUser-agent: rypsok\nDisallow: /page\n").allows(PAGE)


def test_an_allow_and_a_disallow_of_equal_length_allow() -> None:
    """RFC 9309 section 2.2.2: when equivalent, the allow rule SHOULD be used."""
    for rules in ("Disallow: /page\nAllow: /page\n", "Allow: /page\nDisallow: /page\n"):
        assert parse_robots(f"User-agent: *\n{rules}".encode()).allows(PAGE)


def test_longest_match_and_patterns() -> None:
    rules = parse_robots(
        b"User-agent: *\nDisallow: /a\nAllow: /a/open\nDisallow: /*.pdf$\nDisallow: /q?*secret\n"
    )
    assert rules.allows("https://example.org/a/open/page")
    assert not rules.allows("https://example.org/a/closed")
    assert not rules.allows("https://example.org/doc.pdf")
    assert rules.allows("https://example.org/doc.pdf?download=1")
    assert not rules.allows("https://example.org/q?x=secret")
    assert rules.allows("https://example.org/robots.txt")


def test_only_the_first_512_kib_is_read_and_a_cut_line_is_dropped() -> None:
    head = b"User-agent: *\nDisallow: /p\n"
    filler = b"#" * (MAX_ROBOTS_BYTES - len(head) - 11) + b"\n"
    # This line straddles the bound; read in part it would say "Allow: /pa".
    body = head + filler + b"Allow: /pa-long-path\nDisallow: /after\n"
    assert body[:MAX_ROBOTS_BYTES].endswith(b"\nAllow: /pa")
    rules = parse_robots(body)
    assert not rules.allows("https://example.org/pa-x")
    assert not rules.allows("https://example.org/p")
    assert rules.allows("https://example.org/after")


def test_undecodable_bytes_do_not_break_parsing() -> None:
    rules = parse_robots(b"User-agent: *\n\xff\xfe\nDisallow: /x\n")
    assert not rules.allows("https://example.org/x")


def test_constants() -> None:
    assert ALLOW_ALL.allows(PAGE) and not DISALLOW_ALL.allows(PAGE)


def test_cache_expires_after_its_ttl() -> None:
    now = [0.0]
    cache = RobotsCache(lambda: now[0], ttl_s=300)
    origin = ("https", "example.org", 443)
    assert cache.get(origin) is None
    cache.put(origin, DISALLOW_ALL)
    now[0] = 299.9
    assert cache.get(origin) is DISALLOW_ALL
    assert cache.get(("http", "example.org", 80)) is None
    now[0] = 300.0
    assert cache.get(origin) is None
    assert len(cache) == 0


def test_cache_is_bounded_least_recently_used_first() -> None:
    cache = RobotsCache(lambda: 0.0, max_entries=2)
    a, b, c = (("https", name, 443) for name in ("a.example", "b.example", "c.example"))
    cache.put(a, ALLOW_ALL)
    cache.put(b, ALLOW_ALL)
    assert cache.get(a) is ALLOW_ALL  # a is now the most recent
    cache.put(c, DISALLOW_ALL)
    assert len(cache) == 2
    assert cache.get(b) is None
    assert cache.get(a) is ALLOW_ALL and cache.get(c) is DISALLOW_ALL
