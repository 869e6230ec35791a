"""Secret detection for search queries and fetch URLs (pure: text in, spans out).

Every match names a ``kind`` from the ``detail.kind`` vocabulary of DECISIONS.md and the
extent of the secret's *value* as ``start``/``end`` indices (Unicode scalar values) in the
string exactly as the caller sent it. Percent-encoded text is decoded before detection and
the spans are mapped back, so ``text[start:end]`` is what the caller wrote (encoded or not).

The rules are hand-written, after the shapes of gitleaks' default rule set (MIT), because
rypsok needs what neither gitleaks nor detect-secrets gives: positions in the caller's string
through percent-decoding, the extents DECISIONS.md settles (the password of ``user:password@``,
the path after ``/services/``, the ``AccountKey`` value, the base64 of ``Basic``), tokens
bounded by URL punctuation rather than source-code quotes, and prose-safe generic rules. See
docs/secrets.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rypsok.hygiene.secrets.candidate import PASSWORD_IN_URL, Candidate, Finder
from rypsok.hygiene.secrets.named import named_values
from rypsok.hygiene.secrets.percent import percent_decode
from rypsok.hygiene.secrets.tokens import (
    aws_secret_keys,
    basic_credentials,
    bearer_tokens,
    discord_bot_tokens,
    passwords_in_embedded_urls,
    private_keys,
    token_rules_for,
)
from rypsok.hygiene.secrets.urls import url_parameters, url_password, userinfo

__all__ = ["SecretMatch", "find_secrets", "find_url_secrets", "has_username_only", "mask"]

MASK = "***"


@dataclass(frozen=True)
class SecretMatch:
    kind: str
    start: int
    end: int


_TEXT_FINDERS: tuple[Finder, ...] = (
    private_keys,
    basic_credentials,
    discord_bot_tokens,
    aws_secret_keys,
    passwords_in_embedded_urls,
    bearer_tokens,
    named_values,
)


def _scan(text: str) -> list[Candidate]:
    decoded, starts = percent_decode(text)
    lowered = decoded.lower()
    found: list[Candidate] = []
    finders = (*(rule.scan for rule in token_rules_for(lowered)), *_TEXT_FINDERS)
    for finder in finders:
        for candidate in finder(decoded, lowered):
            if starts is not None:
                candidate = Candidate(
                    candidate.kind, starts[candidate.start], starts[candidate.end], candidate.rank
                )
            if candidate.end > candidate.start:
                found.append(candidate)
    return found


def _preference(candidate: Candidate) -> tuple[int, int, int]:
    return candidate.rank, candidate.start - candidate.end, candidate.start


def _resolve(candidates: list[Candidate]) -> list[SecretMatch]:
    """Merge overlapping candidates; the merged span takes the kind of the preferred one: a
    token format, then aws_secret_key, password_in_url, generic_secret; then the longest."""
    merged: list[tuple[int, int, Candidate]] = []
    for candidate in sorted(candidates, key=lambda c: (c.start, c.end)):
        if merged and candidate.start < merged[-1][1]:
            start, end, best = merged[-1]
            if _preference(candidate) < _preference(best):
                best = candidate
            merged[-1] = (start, max(end, candidate.end), best)
        else:
            merged.append((candidate.start, candidate.end, candidate))
    return [SecretMatch(best.kind, start, end) for start, end, best in merged]


def find_secrets(text: str) -> list[SecretMatch]:
    """Secrets in a search query, sorted by position (the first is the one to report)."""
    return _resolve(_scan(text))


def find_url_secrets(url: str) -> list[SecretMatch]:
    """Secrets in a URL: ``user:password@``, key-shaped text anywhere, secret parameters."""
    candidates = [*_scan(url), *url_parameters(url)]
    info = userinfo(url)
    if info is not None:
        start, _, at = info
        candidates = [
            c for c in candidates if c.rank < PASSWORD_IN_URL or c.end <= start or c.start >= at
        ]
        candidates.extend(url_password(url))
    return _resolve(candidates)


def has_username_only(url: str) -> bool:
    """``https://user@host/`` or ``https://user:@host/``: credentials without a password."""
    info = userinfo(url)
    if info is None:
        return False
    start, colon, at = info
    return colon > start and at - colon <= 1


def mask(text: str, matches: Sequence[SecretMatch]) -> str:
    """Replace each matched span with ``***``; everything else is kept as it was."""
    pieces: list[str] = []
    position = 0
    for match in sorted(matches, key=lambda m: (m.start, m.end)):
        start, end = max(match.start, 0), min(match.end, len(text))
        if start < position:
            position = max(position, end)
            continue
        pieces.append(text[position:start])
        pieces.append(MASK)
        position = max(start, end)
    pieces.append(text[position:])
    return "".join(pieces)
