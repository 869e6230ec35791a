"""An engine's HTTP request, sans-IO: what ``build_request`` returns, and what it puts on
the wire.

The request is the arguments of an ``httpx.Request`` (:meth:`EngineRequest.as_httpx`
builds that, for tests and tools that read httpx's URL and header models), and its wire
form (:meth:`EngineRequest.wire`) is what httpx's request would hand to httpcore. Building
the ``httpx.Request`` on every search cost most of an engine's request: httpx parses the
whole URL in Python, character by character. An engine's GET to a plain URL does not need
that parse: the URL's origin (scheme, host, port, userinfo) is read by httpx once per
distinct origin and kept, and a path and query made only of characters httpx leaves as
they are, with no dot segment, are the request's target as written. Any other request
(a body, userinfo, a header httpx would add or change, a character httpx would encode) is
built by httpx, as before. tests/test_engine_request.py holds both ways to the same wire form.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import httpx

MAX_URL_CHARS = 65536
"""httpx's bound on a URL; a longer one is refused by httpx, so it takes httpx's way."""

_PLAIN_PATH = re.compile(r"/[!$%&'()*+,\-./0-9:;=@A-Z\[\\\]^_a-z|~]*")
"""A path httpx's URL keeps as written: printable ASCII but space, ``" # < > ? ` { }``
(the WHATWG path percent-encode set, which httpx encodes; ``%`` it keeps)."""

_PLAIN_QUERY = re.compile(r"[!$%&'()*+,\-./0-9:;=?@A-Z\[\\\]^_`a-z{|}~]*")
"""A query httpx's URL keeps as written: printable ASCII but space, ``" # < >``."""

_HEADERS_HTTPX_SETS = frozenset({"host", "accept-encoding"})
"""Headers httpx or the orchestrator add or replace: a request that sets one itself is built
by httpx, whose rules for them then apply."""


class Wire(NamedTuple):
    """A request as httpcore takes it."""

    method: str
    scheme: bytes
    host: bytes
    port: int | None
    target: bytes
    headers: list[tuple[bytes, bytes]]
    content: bytes


class _Origin(NamedTuple):
    scheme: bytes
    host: bytes
    port: int | None
    netloc: bytes
    """The Host header: the host, and the port when it is not the scheme's default."""


@functools.lru_cache(maxsize=256)
def _origin(prefix: str) -> _Origin | None:
    """``scheme://authority`` as httpx reads it; None when it holds userinfo (sent as Basic
    auth, httpx's way), has no scheme or host, or httpx refuses it."""
    import httpx

    try:
        url = httpx.URL(prefix)
    except httpx.InvalidURL:
        return None
    if url.userinfo or not url.raw_scheme or not url.raw_host:
        return None
    return _Origin(url.raw_scheme, url.raw_host, url.port, url.netloc)


class EngineRequest:
    """One engine's request: ``httpx.Request(method, url, **parts)``, held as its arguments.

    Built through ``base.http_request``. A request httpx would refuse is refused here, when
    it is made (``build_request`` raises, as it did with httpx's own request)."""

    __slots__ = ("_built", "_fast", "_parts", "method", "url")

    def __init__(self, method: str, url: str, parts: dict[str, Any]) -> None:
        self.method = method
        self.url = url
        self._parts = parts
        self._fast = _plain_get(method, url, parts)
        self._built: httpx.Request | None = None
        if self._fast is None:
            import httpx

            self._built = httpx.Request(method, url, **parts)

    @property
    def plain(self) -> bool:
        """Whether the wire form was read without building httpx's request."""
        return self._fast is not None

    def as_httpx(self) -> httpx.Request:
        """The same request as an ``httpx.Request`` (a new one each time)."""
        import httpx

        return httpx.Request(self.method, self.url, **self._parts)

    def wire(self, accept_encoding: str) -> Wire:
        """The request as httpcore sends it, with ``Accept-Encoding`` set as httpx's headers
        set one, and the URL's userinfo as Basic auth, as httpx's client sends it."""
        if self._fast is not None:
            origin, target, headers = self._fast
            return Wire(
                self.method,
                origin.scheme,
                origin.host,
                origin.port,
                target,
                [*headers, (b"Accept-Encoding", accept_encoding.encode("ascii"))],
                b"",
            )
        import httpx

        request = self._built
        assert request is not None
        request.headers["Accept-Encoding"] = accept_encoding
        url = request.url
        if url.username or url.password:
            next(httpx.BasicAuth(url.username, url.password).sync_auth_flow(request))
        return Wire(
            request.method,
            url.raw_scheme,
            url.raw_host,
            url.port,
            url.raw_path,
            request.headers.raw,
            request.content,
        )


def _plain_get(
    method: str, url: str, parts: dict[str, Any]
) -> tuple[_Origin, bytes, list[tuple[bytes, bytes]]] | None:
    """The origin, target and headers (Host first, as httpx puts it) of a GET whose URL and
    headers httpx would keep as written; None for any other request."""
    if method != "GET" or len(url) > MAX_URL_CHARS or not parts.keys() <= {"headers"}:
        return None
    headers = parts.get("headers", {})
    if type(headers) is not dict:
        return None
    scheme_end = url.find("://")
    if scheme_end < 0:
        return None
    path_start = url.find("/", scheme_end + 3)
    if path_start < 0:
        return None
    prefix = url[:path_start]
    if "?" in prefix or "#" in prefix:
        return None
    path, mark, query = url[path_start:].partition("?")
    if (
        not _PLAIN_PATH.fullmatch(path)
        or "/." in path
        or (mark and not _PLAIN_QUERY.fullmatch(query))
    ):
        return None
    origin = _origin(prefix)
    if origin is None:
        return None
    raw = [(b"Host", origin.netloc)]
    for name, value in headers.items():
        if (
            type(name) is not str
            or type(value) is not str
            or not name.isascii()
            or not value.isascii()
            or name.lower() in _HEADERS_HTTPX_SETS
        ):
            return None
        raw.append((name.encode("ascii"), value.encode("ascii")))
    return origin, url[path_start:].encode("ascii"), raw
