"""Response bodies under the one bounded decoder (rypsok/net/body.py), for pages, robots.txt
and engine answers, served by real loopback servers.

- A compression bomb (1 GiB of zeros as gzip or brotli) is refused at the byte limit: a
  page is too_large, an engine is that engine's parse_failure and the search still
  answers. The Python heap peak (tracemalloc) stays within about the limit; the peak RSS
  figures are bench/bombs.py's.
- A body cut short (a compressed stream without its end, fewer bytes than Content-Length)
  is never read as whole: a page is unavailable network, robots.txt is unreachable
  (everything disallowed, so the page is denied robots_txt), an engine request_failure.
"""

from __future__ import annotations

import gzip
import itertools
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import brotli
import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok import Client
from rypsok.config import Config, FetchConfig
from rypsok.engines.base import MAX_BODY_BYTES
from rypsok.errors import ToolError
from rypsok.model import FetchResponse
from rypsok.net.body import (
    PIECE_BYTES,
    BodyTooLarge,
    BodyTruncated,
    BoundedBody,
    content_decoder,
    inflate,
    read_raw,
)
from rypsok.webfetch.fetcher import Fetcher
from rypsok.webfetch.resolver import StaticResolver
from tests.conftest import make_config
from tests.engine_bodies import stackexchange_body
from tests.engine_servers import EngineServer, Play, json_play
from tests.fetch_servers import Reply, Site, brotli_bomb, gzip_bomb, html, robots, running

GIB = 1 << 30
NETWORK_MESSAGE = "the site could not be reached; check the URL or retry later"


@pytest.fixture(scope="module")
def bombs() -> dict[str, bytes]:
    """1 GiB of zeros in each coding (about 1 MiB of gzip, 190 KiB of brotli)."""
    return {"gzip": gzip_bomb(GIB), "br": brotli_bomb(GIB)}


def heap_peak_of(call: Callable[[], Any]) -> tuple[Any, int]:
    """``call()``'s result and the peak of Python's heap while it ran (tracemalloc)."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# Pages and robots.txt.

PAGE_TEXT = " ".join(f"word{n}" for n in range(1500))  # varied, so it does not compress to nothing
PAGE = html(f"<p>{PAGE_TEXT}</p>").body
assert isinstance(PAGE, bytes)
ROBOTS = b"User-agent: *\nDisallow: /private/\n" + b"".join(
    f"Disallow: /closed-{n}/\n".encode() for n in range(400)
)


def brotli_of(data: bytes) -> bytes:
    return brotli.compress(data, quality=5)


def deflate_of(data: bytes) -> bytes:
    return zlib.compress(data)


CODERS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "deflate": deflate_of,
    "br": brotli_of,
}


def cut_replies(body: bytes, content_type: str) -> dict[str, Reply]:
    """The same body sent whole, and cut short in every way a server or a network can."""
    replies = {}
    for coding, encode in CODERS.items():
        encoded = encode(body)
        headers = {"Content-Encoding": coding}
        replies[f"{coding}-whole"] = Reply(body=encoded, content_type=content_type, headers=headers)
        # Content-Length agrees with what is sent: only the stream knows it was cut.
        replies[f"{coding}-half"] = Reply(
            body=encoded[: len(encoded) // 2], content_type=content_type, headers=headers
        )
        replies[f"{coding}-streamed-half"] = Reply(
            body=lambda encoded=encoded: [encoded[: len(encoded) // 2]],
            content_type=content_type,
            headers=headers,
        )
    gzipped = gzip.compress(body)
    replies["gzip-without-trailer"] = Reply(  # every byte of content, no CRC and length
        body=gzipped[:-8], content_type=content_type, headers={"Content-Encoding": "gzip"}
    )
    replies["identity-whole"] = Reply(body=body, content_type=content_type)
    replies["identity-short"] = Reply(
        body=body[: len(body) // 2], content_type=content_type, content_length=len(body)
    )
    return replies


PAGE_REPLIES = cut_replies(PAGE, "text/html; charset=utf-8")
ROBOTS_REPLIES = cut_replies(ROBOTS, "text/plain")
ROBOTS_HOSTS = {name: f"robots-{name}.test" for name in ROBOTS_REPLIES}


@dataclass
class Pages:
    site: Site

    def url(self, path: str, host: str = "127.0.0.2") -> str:
        return f"http://{host}:{self.site.port}{path}"

    def fetch(self, url: str, **fetch: Any) -> FetchResponse:
        config = Config(
            fetch=FetchConfig(
                allow_http=True,
                ports=(self.site.port,),
                allow_networks=("127.0.0.2/32",),
                **fetch,
            )
        )
        resolver = StaticResolver({host: ["127.0.0.2"] for host in ROBOTS_HOSTS.values()})

        async def call() -> FetchResponse:
            async with Fetcher(config, resolver=resolver) as fetcher:
                return await fetcher.fetch(url, max_chars=20000)

        return trio.run(call)

    def error(self, url: str, **fetch: Any) -> ToolError:
        with pytest.raises(ToolError) as raised:
            self.fetch(url, **fetch)
        return raised.value


@pytest.fixture(scope="module")
def pages() -> Iterator[Pages]:
    site = Site("127.0.0.2")
    site.route("/robots.txt", robots("User-agent: *\nAllow: /\n"))
    for name, reply in PAGE_REPLIES.items():
        site.route(f"/{name}", reply)
    for name, reply in ROBOTS_REPLIES.items():
        host = ROBOTS_HOSTS[name]
        site.route("/robots.txt", reply, host=host)
        site.route("/page", html("<p>An open page.</p>"), host=host)
        site.route("/private/page", html("<p>A private page.</p>"), host=host)
    with running(site):
        yield Pages(site)


@pytest.mark.parametrize("name", [name for name in PAGE_REPLIES if name.endswith("-whole")])
def test_a_whole_body_in_each_coding_is_read(pages: Pages, name: str) -> None:
    response = pages.fetch(pages.url(f"/{name}"))
    assert response.content == PAGE_TEXT and response.notices == []


@pytest.mark.parametrize("name", [name for name in PAGE_REPLIES if not name.endswith("-whole")])
def test_a_page_cut_short_is_unavailable_network(pages: Pages, name: str) -> None:
    error = pages.error(pages.url(f"/{name}"))
    assert (error.kind, error.detail, error.message) == (
        "unavailable",
        {"reason": "network"},
        NETWORK_MESSAGE,
    )


@pytest.mark.parametrize("name", [name for name in ROBOTS_REPLIES if name.endswith("-whole")])
def test_a_whole_robots_txt_in_each_coding_is_obeyed(pages: Pages, name: str) -> None:
    host = ROBOTS_HOSTS[name]
    assert pages.fetch(pages.url("/page", host)).content == "An open page."
    error = pages.error(pages.url("/private/page", host))
    assert (error.kind, error.detail) == ("denied", {"reason": "robots_txt"})


@pytest.mark.parametrize("name", [name for name in ROBOTS_REPLIES if not name.endswith("-whole")])
def test_a_robots_txt_cut_short_is_unreachable_so_everything_is_disallowed(
    pages: Pages, name: str
) -> None:
    """RFC 9309 section 2.3.1.4: rules that did not arrive whole are no rules; the crawler
    must assume complete disallow. The page is not requested."""
    host = ROBOTS_HOSTS[name]
    error = pages.error(pages.url("/page", host))
    assert (error.kind, error.detail) == ("denied", {"reason": "robots_txt"})
    assert not pages.site.requests(host=host, path="/page")


@pytest.mark.parametrize("coding", ["gzip", "br"])
def test_a_page_bomb_is_too_large_without_inflating_it(
    pages: Pages, bombs: dict[str, bytes], coding: str
) -> None:
    pages.site.route(
        f"/bomb-{coding}", Reply(body=bombs[coding], headers={"Content-Encoding": coding})
    )
    limit = 5 * 1024 * 1024  # the default byte limit
    error, peak = heap_peak_of(lambda: pages.error(pages.url(f"/bomb-{coding}")))
    assert (error.kind, error.detail) == ("too_large", {"limit_bytes": limit})
    assert error.message == f"the page exceeds the limit of {limit} bytes; choose another page"
    assert peak < 2 * limit, peak


def test_the_byte_limit_counts_decoded_bytes(pages: Pages) -> None:
    text = b"word " * 400  # 2000 bytes
    pages.site.route("/exact", Reply(body=text, content_type="text/plain"))
    pages.site.route(
        "/exact-gz",
        Reply(
            body=gzip.compress(text),
            content_type="text/plain",
            headers={"Content-Encoding": "gzip"},
        ),
    )
    for path in ("/exact", "/exact-gz"):
        assert pages.fetch(pages.url(path), byte_limit=2000).content == text.decode()
        error = pages.error(pages.url(path), byte_limit=1999)
        assert (error.kind, error.detail) == ("too_large", {"limit_bytes": 1999})


# Engines: github gets the bad body, stackexchange answers beside it.

CODE = {"github", "stackexchange"}


def search_code(engines: EngineServer) -> Any:
    async def call() -> Any:
        async with Client(make_config(engines, CODE, search={"deadline_ms": 5000})) as client:
            return await client.search("asyncio task", category="code")

    return anyio.run(call, backend="trio")


def assert_github_failed(response: Any, reason: str) -> None:
    assert response.outcome == "partial"
    failures = [n for n in response.notices if n.code == "engine_unavailable"]
    assert [(n.engine, n.reason) for n in failures] == [("github", reason)]
    assert response.results and all("stackoverflow.com" in r.url for r in response.results)


@pytest.fixture
def beside_stackexchange(engines: EngineServer) -> EngineServer:
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    return engines


@pytest.mark.parametrize("coding", ["gzip", "br"])
def test_an_engine_bomb_is_that_engines_parse_failure(
    beside_stackexchange: EngineServer, bombs: dict[str, bytes], coding: str
) -> None:
    headers = {"Content-Type": "application/json", "Content-Encoding": coding}
    beside_stackexchange.plays["github"] = Play(body=bombs[coding], headers=headers)
    response, peak = heap_peak_of(lambda: search_code(beside_stackexchange))
    assert_github_failed(response, "parse_failure")
    assert peak < 2 * MAX_BODY_BYTES, peak
    (seen,) = beside_stackexchange.requests_for("github")
    assert seen.headers["Accept-Encoding"] == "gzip, deflate, br"


def test_a_bomb_inside_a_stackexchange_body_is_its_parse_failure(
    engines: EngineServer, bombs: dict[str, bytes]
) -> None:
    """A gzip body that lost its Content-Encoding is inflated by the engine itself, under
    the same limit (compressed and inflated bytes together)."""
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = Play(body=bombs["gzip"])
    response, peak = heap_peak_of(lambda: search_code(engines))
    assert response.outcome == "partial"
    failures = [(n.engine, n.reason) for n in response.notices if n.code == "engine_unavailable"]
    assert failures == [("stackexchange", "parse_failure")]
    assert response.results
    assert peak < 2 * MAX_BODY_BYTES, peak


def test_a_stackexchange_body_compressed_twice_is_still_read(engines: EngineServer) -> None:
    body = stackexchange_body(("https://stackoverflow.com/questions/1/a", "A question"))
    engines.plays["github"] = json_play("github/empty.json")
    engines.plays["stackexchange"] = Play(body=gzip.compress(body), gzip=True)
    response = search_code(engines)
    assert [r.url for r in response.results] == ["https://stackoverflow.com/questions/1/a"]


@pytest.mark.parametrize(
    "body",
    [
        gzip.compress(stackexchange_body(("https://a.example/", "A")) * 50)[:200],
        b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4,
    ],
    ids=["truncated", "corrupt"],
)
def test_an_engine_body_cut_short_or_corrupt_is_a_request_failure(
    beside_stackexchange: EngineServer, body: bytes
) -> None:
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    beside_stackexchange.plays["github"] = Play(body=body, headers=headers)
    assert_github_failed(search_code(beside_stackexchange), "request_failure")


@pytest.mark.parametrize("location", ["javascript:alert(1)", "data:,x", "mailto:a@b.test"])
def test_an_engine_redirect_httpx_cannot_read_is_a_request_failure(
    beside_stackexchange: EngineServer, location: str
) -> None:
    beside_stackexchange.plays["github"] = Play(status=302, headers={"Location": location})
    assert_github_failed(search_code(beside_stackexchange), "request_failure")


# The decoder on its own.


def drain(content_encoding: str, data: bytes, limit: int) -> int:
    decoder = content_decoder(content_encoding)
    total = 0
    for piece in itertools.chain(decoder.feed(data), decoder.flush()):
        assert len(piece) <= PIECE_BYTES
        total += len(piece)
        if total > limit:
            raise BodyTooLarge()
    return total


def test_decoders_inflate_in_bounded_pieces(bombs: dict[str, bytes]) -> None:
    data = bytes(range(256)) * 4096  # 1 MiB
    assert drain("gzip", gzip.compress(data), 1 << 21) == len(data)
    assert drain("deflate", zlib.compress(data), 1 << 21) == len(data)
    raw = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    assert drain("deflate", raw.compress(data) + raw.flush(), 1 << 21) == len(data)
    assert drain("br", brotli.compress(data, quality=5), 1 << 21) == len(data)
    assert drain("identity", data, 1 << 21) == len(data)
    for coding in ("gzip", "br"):
        with pytest.raises(BodyTooLarge):
            drain(coding, bombs[coding], 1 << 20)


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
def test_inflate_keeps_to_the_limit_and_knows_a_stream_cut_short(coding: str) -> None:
    data = PAGE * 3
    encoded = CODERS[coding](data)
    assert inflate(encoded, coding, len(data)) == data
    with pytest.raises(BodyTooLarge):
        inflate(encoded, coding, len(data) - 1)
    cut = encoded[: len(encoded) // 2] if coding == "br" else encoded[:-4]  # zlib: no check
    with pytest.raises(BodyTruncated):
        inflate(cut, coding, 1 << 20)


async def _chunks(chunks: list[bytes]):
    for chunk in chunks:
        yield chunk


def _bounded_the_long_way(chunks: list[bytes], limit: int) -> bytes | type[Exception]:
    body = BoundedBody("", limit)
    try:
        for chunk in chunks:
            if not body.feed(chunk):
                break
        return body.finish()
    except BodyTooLarge:
        return BodyTooLarge


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.binary(max_size=40) | st.sampled_from([b"x" * (PIECE_BYTES + 1), b""]), max_size=6),
    st.integers(0, PIECE_BYTES + 200),
)
def test_a_body_without_a_coding_is_read_as_bounded_body_reads_it(chunks, limit) -> None:
    async def read() -> bytes | type[Exception]:
        try:
            return await read_raw(_chunks(chunks), "", limit)
        except BodyTooLarge:
            return BodyTooLarge

    assert trio.run(read) == _bounded_the_long_way(chunks, limit)
