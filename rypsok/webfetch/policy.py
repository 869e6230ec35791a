"""The fetch policy's checks on a URL already read: its scheme, its port and literal address.

Pure: the fetcher calls them in the order DECISIONS.md gives, before any request is made.
"""

from __future__ import annotations

from collections.abc import Collection

from rypsok import errors
from rypsok.net.egress import EgressPolicy
from rypsok.net.url import DEFAULT_PORTS, FetchURL


def check_scheme(u: FetchURL, allow_http: bool) -> None:
    """Refuse a scheme other than http and https (http itself is upgraded, not refused here)."""
    if u.scheme not in DEFAULT_PORTS:
        raise errors.scheme_not_allowed(allow_http)


def literal_refusal(u: FetchURL, policy: EgressPolicy, ports: Collection[int]) -> str | None:
    """Why the URL's port or literal address is refused (the denial's name), or None."""
    if u.port not in ports:
        return "port"
    if u.address is not None:
        return policy.refusal(u.address)
    return None


def check_egress_literal(u: FetchURL, policy: EgressPolicy, ports: Collection[int]) -> None:
    """A port not in ``ports``, or a literal address the policy refuses: denied egress."""
    if literal_refusal(u, policy, ports) is not None:
        raise errors.egress_denied()
