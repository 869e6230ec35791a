"""``[state] url`` read into where the shared store is: one server, the sentinels of a
Sentinel-managed primary, or a node of a Cluster (``[state] cluster = true``). Pure: the
configuration checks it at load time, and the store connects by it."""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import Literal

SENTINEL_PORT = 26379
"""The sentinels' port when the URL names none."""
SERVER_PORT = 6379

Form = Literal["server", "sentinel", "cluster"]

SHAPES = {
    "server": '"redis://HOST:PORT/DB" or "rediss://HOST:PORT/DB" (or "" for memory)',
    "sentinel": '"redis+sentinel://HOST:PORT[,HOST:PORT...]/SERVICE[/DB]" (rediss+sentinel:// for TLS)',
    "cluster": '"redis://HOST:PORT/0" or "rediss://HOST:PORT/0" with state.cluster = true',
}


class StoreUrlError(ValueError):
    """What is wrong with the URL; the configuration names the key."""


@dataclass(frozen=True)
class StoreAddress:
    form: Form
    tls: bool
    nodes: tuple[tuple[str, int], ...]
    """The server, every sentinel, or the Cluster node to start from."""
    service: str = ""
    """The name the sentinels monitor the primary by (Sentinel only)."""
    db: int = 0
    username: str | None = None


def _must_be(form: Form) -> StoreUrlError:
    return StoreUrlError("must be " + SHAPES[form])


def _node(text: str, default_port: int, form: Form) -> tuple[str, int]:
    parts = urllib.parse.urlsplit("//" + text)
    try:
        port = parts.port
    except ValueError:
        raise _must_be(form) from None
    if not parts.hostname or parts.path or parts.username is not None:
        raise _must_be(form)
    return parts.hostname, port or default_port


def _userinfo(netloc: str) -> tuple[str | None, str]:
    """The username (for ACLs) and the hosts; a password is refused."""
    if "@" not in netloc:
        return None, netloc
    userinfo, hosts = netloc.rsplit("@", 1)
    username, has_password, _ = userinfo.partition(":")
    if has_password:
        raise StoreUrlError(
            "must not hold a password: name its environment variable in state.password_env "
            "(state.sentinel_password_env for the sentinels')"
        )
    return urllib.parse.unquote(username) or None, hosts


def parse_store_url(text: str, cluster: bool = False) -> StoreAddress:
    """The store ``text`` names (not empty), or :class:`StoreUrlError` saying the shape."""
    form: Form = "cluster" if cluster else "server"
    if any(c.isspace() for c in text) or "://" not in text:
        raise _must_be(form)
    scheme, rest = text.split("://", 1)
    if scheme in ("redis+sentinel", "rediss+sentinel"):
        if cluster:
            raise StoreUrlError("names sentinels, but state.cluster is true: choose one")
        return _sentinel(rest, tls=scheme == "rediss+sentinel")
    if scheme not in ("redis", "rediss") or "?" in rest or "#" in rest:
        raise _must_be(form)
    netloc, _, database = rest.partition("/")
    username, host = _userinfo(netloc)
    if not database.isdigit() and database:
        raise _must_be(form)
    db = int(database or 0)
    if cluster and db != 0:
        raise StoreUrlError("names database " + database + ", but a Cluster has only database 0")
    if "," in host:
        raise _must_be(form)
    node = _node(host, SERVER_PORT, form)
    return StoreAddress(form, scheme == "rediss", (node,), db=db, username=username)


def _sentinel(rest: str, tls: bool) -> StoreAddress:
    netloc, _, path = rest.partition("/")
    if "?" in rest or "#" in rest:
        raise _must_be("sentinel")
    username, hosts = _userinfo(netloc)
    nodes = tuple(_node(host, SENTINEL_PORT, "sentinel") for host in hosts.split(","))
    service, _, database = path.partition("/")
    if not service or "/" in database or (database and not database.isdigit()):
        raise _must_be("sentinel")
    return StoreAddress(
        "sentinel",
        tls,
        nodes,
        service=urllib.parse.unquote(service),
        db=int(database or 0),
        username=username,
    )
