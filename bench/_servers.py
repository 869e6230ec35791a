"""Loopback HTTP servers for the benchmarks, run in a child process.

The benchmark and the server would otherwise share one interpreter (and its GIL) on a
2-core machine, so what is served runs in its own process on an asyncio loop; the
benchmark then times only its own side. Requests are parsed with h11. A request for
``/e/<name>/...`` is answered by one of the plays listed for ``<name>``, any other path
by the plays listed for the path itself; with several plays the server picks one per
request (weighted, from a seeded generator), so failures arrive in random order.

Plays cover what an engine or a site can do to a client: answer (after a delay), hang
until the client gives up, dribble a byte every 100 ms, reset the connection. A
framework would hide the connection, so the server drives h11 and the socket itself.

This file only defines the server; running it does nothing.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import html
import json
import multiprocessing
import random
import socket
import struct
from dataclasses import dataclass
from urllib.parse import quote

import h11

HANG_LIMIT_S = 120.0
"""A hanging or dribbling answer ends by itself after this long, client or not."""


@dataclass(frozen=True)
class Play:
    body: bytes = b"{}"
    status: int = 200
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0
    mode: str = "answer"
    """answer, hang (read until the client closes), dribble (a byte every 100 ms), reset."""
    label: str = ""
    """The name counted in the server's tally (defaults to the mode)."""


Plays = dict[str, list[tuple[float, Play]]]
"""Route (engine name or path) -> weighted plays."""


def single(play: Play) -> list[tuple[float, Play]]:
    return [(1.0, play)]


class _Router:
    def __init__(self, plays: Plays, seed: int):
        self._plays = plays
        self._random = random.Random(seed)
        self.tally: collections.Counter[str] = collections.Counter()

    def play_for(self, target: str) -> Play | None:
        path = target.split("?", 1)[0]
        parts = path.split("/")
        key = parts[2] if len(parts) > 2 and parts[1] == "e" else path
        choices = self._plays.get(key)
        if not choices:
            return None
        if len(choices) == 1:
            play = choices[0][1]
        else:
            weights = [weight for weight, _ in choices]
            play = self._random.choices([p for _, p in choices], weights)[0]
        self.tally[f"{key}:{play.label or play.mode}"] += 1
        return play


NOT_FOUND = Play(body=b"no play", status=404, content_type="text/plain")


async def _wait_for_close(reader: asyncio.StreamReader, limit_s: float) -> None:
    with contextlib.suppress(TimeoutError, OSError):
        async with asyncio.timeout(limit_s):
            while await reader.read(65536):
                pass


async def _dribble(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(TimeoutError, OSError):
        async with asyncio.timeout(HANG_LIMIT_S):
            while not reader.at_eof() and not writer.is_closing():
                writer.write(b" ")
                await writer.drain()
                await asyncio.sleep(0.1)


def _reset(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def _handle(
    router: _Router, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    connection = h11.Connection(h11.SERVER)
    request: h11.Request | None = None
    try:
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                connection.receive_data(await reader.read(65536))
                continue
            if isinstance(event, h11.Request):
                request = event
                continue
            if isinstance(event, h11.EndOfMessage) and request is not None:
                play = router.play_for(request.target.decode("latin-1")) or NOT_FOUND
                if play.delay_s:
                    await asyncio.sleep(play.delay_s)
                if play.mode == "hang":
                    await _wait_for_close(reader, HANG_LIMIT_S)
                    return
                if play.mode == "reset":
                    _reset(writer)
                    return
                headers = [("Content-Type", play.content_type), *play.headers]
                if play.mode == "dribble":
                    headers.append(("Content-Length", "1000000"))
                    writer.write(connection.send(h11.Response(status_code=200, headers=headers)))
                    await _dribble(reader, writer)
                    return
                headers.append(("Content-Length", str(len(play.body))))
                writer.write(
                    connection.send(h11.Response(status_code=play.status, headers=headers))
                )
                writer.write(connection.send(h11.Data(data=play.body)))
                writer.write(connection.send(h11.EndOfMessage()))
                await writer.drain()
                if connection.our_state is h11.MUST_CLOSE:
                    return
                connection.start_next_cycle()
                request = None
                continue
            if isinstance(event, h11.ConnectionClosed) or connection.their_state is h11.ERROR:
                return
    except (h11.ProtocolError, OSError):
        return
    finally:
        with contextlib.suppress(OSError, RuntimeError):
            writer.close()


async def _serve_until_told(plays: Plays, seed: int, address: str, pipe) -> None:
    router = _Router(plays, seed)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await _handle(router, reader, writer)

    server = await asyncio.start_server(handle, address, 0, backlog=2048)
    pipe.send(server.sockets[0].getsockname()[1])
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, pipe.recv)
    pipe.send(dict(router.tally))
    server.close()


def _child(plays: Plays, seed: int, address: str, pipe) -> None:
    asyncio.run(_serve_until_told(plays, seed, address, pipe))


class PlayServer:
    """``with PlayServer(plays) as server: server.url("/e/wikipedia")``; a child process."""

    def __init__(self, plays: Plays, seed: int = 1, address: str = "127.0.0.1"):
        context = multiprocessing.get_context("spawn")
        self._pipe, child_end = context.Pipe()
        self._process = context.Process(
            target=_child, args=(plays, seed, address, child_end), daemon=True
        )
        self.address = address
        self.port = 0
        self.tally: dict[str, int] = {}

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def url(self, path: str) -> str:
        return f"http://{self.address}:{self.port}{path}"

    def endpoint(self, engine: str) -> str:
        return self.url(f"/e/{engine}")

    def __enter__(self) -> PlayServer:
        self._process.start()
        self.port = self._pipe.recv()
        return self

    def __exit__(self, *exc_info: object) -> None:
        with contextlib.suppress(OSError, EOFError):
            self._pipe.send("stop")
            if self._pipe.poll(10):
                self.tally = self._pipe.recv()
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


# Twenty-result answers in each general engine's documented shape.

GENERAL_ENGINES = ("wikipedia", "duckduckgo", "mojeek", "marginalia", "brave", "searxng")

_WORDS = [
    "asynchronous",
    "runtime",
    "structured",
    "concurrency",
    "cancel",
    "scope",
    "deadline",
    "nursery",
    "task",
    "group",
    "channel",
    "event",
    "loop",
    "scheduler",
    "coroutine",
    "socket",
    "stream",
    "protocol",
    "parser",
    "buffer",
    "timeout",
    "reference",
    "tutorial",
    "guide",
    "release",
    "notes",
    "documentation",
    "example",
    "library",
    "framework",
]


def _sentence(seed: int, words: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize()


def result_items(engine: str, count: int = 20) -> list[tuple[str, str, str]]:
    """(url, title, snippet) triples; engines share half their URLs, so fusion has work."""
    offset = {name: i * 10 for i, name in enumerate(GENERAL_ENGINES)}.get(engine, 0)
    items = []
    for i in range(count):
        n = (offset + i) % 60
        items.append(
            (
                f"https://site{n}.example.org/docs/{n}/page.html?ref={n}",
                f"Result {n}: {_sentence(n, 7)}",
                _sentence(1000 + n, 30) + ".",
            )
        )
    return items


def engine_body(engine: str, count: int = 20) -> bytes:
    items = result_items(engine, count)
    if engine == "wikipedia":
        hits = [
            {"ns": 0, "title": title, "pageid": i, "snippet": html.escape(snippet)}
            for i, (_, title, snippet) in enumerate(items)
        ]
        return json.dumps({"batchcomplete": True, "query": {"search": hits}}).encode()
    if engine == "marginalia":
        results = [
            {"url": url, "title": title, "description": snippet, "quality": -3.5, "format": "html"}
            for url, title, snippet in items
        ]
        return json.dumps({"license": "CC-BY-NC-SA 4.0", "query": "q", "results": results}).encode()
    if engine == "searxng":
        results = [
            {
                "url": url,
                "title": title,
                "content": snippet,
                "publishedDate": None,
                "engine": "duckduckgo",
                "engines": ["duckduckgo"],
                "positions": [i + 1],
                "score": 1.0,
                "category": "general",
            }
            for i, (url, title, snippet) in enumerate(items)
        ]
        return json.dumps(
            {"query": "q", "number_of_results": 0, "results": results, "unresponsive_engines": []}
        ).encode()
    if engine == "brave":
        results = [
            {
                "type": "search_result",
                "title": title,
                "url": url,
                "description": snippet,
                "page_age": "2026-08-14T00:00:00",
            }
            for url, title, snippet in items
        ]
        return json.dumps(
            {
                "type": "search",
                "query": {"original": "q"},
                "web": {"type": "search", "results": results},
            }
        ).encode()
    if engine == "duckduckgo":
        blocks = "".join(
            '<div class="result results_links results_links_deep web-result ">'
            '<div class="links_main links_deep result__body"><h2 class="result__title">'
            f'<a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg={quote(url, safe="")}'
            f'&amp;rut=0f1e2d">{html.escape(title)}</a></h2>'
            f'<a class="result__snippet" href="//duckduckgo.com/l/?uddg={quote(url, safe="")}">'
            f'{html.escape(snippet)}</a><div class="clear"></div></div></div>'
            for url, title, snippet in items
        )
        return (
            "<!DOCTYPE html><html><head><title>q at DuckDuckGo</title></head><body>"
            f'<div class="serp__results"><div id="links" class="results">{blocks}</div></div>'
            "</body></html>"
        ).encode()
    if engine == "mojeek":
        rows = "".join(
            f'<li class="r{i + 1}"><a class="ob" href="{html.escape(url)}"><p class="i">{html.escape(url)}</p></a>'
            f'<h2><a class="title" href="{html.escape(url)}">{html.escape(title)}</a></h2>'
            f'<p class="s">{html.escape(snippet)}</p></li>'
            for i, (url, title, snippet) in enumerate(items)
        )
        return (
            "<!DOCTYPE html><html><head><title>q - Mojeek Search</title></head><body>"
            f'<div class="results"><ul class="results-standard">{rows}</ul></div></body></html>'
        ).encode()
    raise KeyError(engine)


def engine_content_type(engine: str) -> str:
    return "text/html; charset=utf-8" if engine in ("duckduckgo", "mojeek") else "application/json"


def answer_play(engine: str, delay_s: float = 0.0, count: int = 20) -> Play:
    """A good answer of ``count`` results from ``engine`` after ``delay_s``."""
    return Play(
        body=engine_body(engine, count),
        content_type=engine_content_type(engine),
        delay_s=delay_s,
        label="answer" if delay_s < 0.1 else "slow",
    )
