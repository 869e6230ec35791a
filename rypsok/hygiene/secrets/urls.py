"""The parts of a URL that hold secrets: the password of ``user:password@`` and secret
query parameters."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rypsok.hygiene.secrets.candidate import GENERIC, PASSWORD_IN_URL, Candidate
from rypsok.hygiene.secrets.named import classify_name, named_value_is_secret
from rypsok.hygiene.secrets.percent import percent_decode

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})


def _authority_span(url: str) -> tuple[int, int] | None:
    """Where the authority is, read as WHATWG reads it (special schemes: any slashes)."""
    scheme = _SCHEME.match(url)
    if scheme is None:
        return None
    start = scheme.end()
    if scheme.group()[:-1].lower() in _SPECIAL_SCHEMES:
        while start < len(url) and url[start] in "/\\":
            start += 1
    elif url.startswith("//", start):
        start += 2
    else:
        return None
    end = start
    while end < len(url) and url[end] not in "/?#\\":
        end += 1
    return start, end


def userinfo(url: str) -> tuple[int, int, int] | None:
    """(start, colon or end, end) of the userinfo, or None when the URL has none."""
    authority = _authority_span(url)
    if authority is None:
        return None
    start, end = authority
    at = url.rfind("@", start, end)
    if at < 0:
        return None
    colon = url.find(":", start, at)
    return start, (colon if colon >= 0 else at), at


def url_password(url: str) -> Iterator[Candidate]:
    info = userinfo(url)
    if info is not None:
        _, colon, at = info
        if colon < at and at - colon > 1:
            yield Candidate("password_in_url", colon + 1, at, PASSWORD_IN_URL)


def url_parameters(url: str) -> Iterator[Candidate]:
    """Query and fragment parameters whose name says secret and whose value qualifies."""
    query_at = url.find("?")
    fragment_at = url.find("#")
    sections = []
    if query_at >= 0 and (fragment_at < 0 or query_at < fragment_at):
        sections.append((query_at + 1, fragment_at if fragment_at >= 0 else len(url)))
    if fragment_at >= 0:
        sections.append((fragment_at + 1, len(url)))
    for section_start, section_end in sections:
        position = section_start
        for piece in re.split(r"[&;]", url[section_start:section_end]):
            piece_start = position
            position += len(piece) + 1
            name, equals, _ = piece.partition("=")
            if not equals:
                continue
            name_class = classify_name(
                percent_decode(name.replace("+", " "))[0], url_parameter=True
            )
            if name_class is None:
                continue
            value_start = piece_start + len(name) + 1
            value_end = piece_start + len(piece)
            value = percent_decode(url[value_start:value_end])[0]
            if named_value_is_secret(name_class, value, strict_form=True):
                yield Candidate("generic_secret", value_start, value_end, GENERIC)
