"""Peak RSS under decompression bombs: 1 GiB of zeros as gzip (about 1 MiB on the wire) and
as brotli with the largest window a decoder must accept (16 MiB; about 190 KiB on the
wire), sent by an engine endpoint and by a web page, against an honest body that meets
the same limit, all in the same run.

    python bench/bombs.py [--quick]

Each case runs in a fresh process: rypsok's library (``Client``) is warmed up with one
good call (every module loaded, pools open), the process's RSS is taken at rest and its
peak (VmHWM) reset through /proc/self/clear_refs, then the one call is made and VmHWM
read. "peak - rest" is what the call cost. The engine limit is 8 MiB
(engines/base.py MAX_BODY_BYTES), the page limit the default ``[fetch] byte_limit``
(5 MiB); the goal is that a bomb costs no more than an honest body at the limit, plus
the decoder's window.

Without --quick, a reference row per bomb shows what httpx's own decoder costs on it
(``aiter_bytes``, which inflates a whole network read before anyone can count it: the
engine path before rypsok/net/body.py).

Linux only (VmHWM, clear_refs).
"""

from __future__ import annotations

import gc
import multiprocessing
import sys
from pathlib import Path
from typing import Any

import _common as c
from _servers import Play, PlayServer, single

sys.path.insert(0, str(c.ROOT))
from tests.fetch_servers import brotli_bomb, gzip_bomb  # noqa: E402

GIB = 1 << 30
ENGINE_LIMIT = 8 * 1024 * 1024
PAGE_LIMIT = 5 * 1024 * 1024
GOOD_REPO = (
    b'{"total_count": 1, "incomplete_results": false, "items": [{"id": 1, "name": "r",'
    b' "full_name": "o/r", "html_url": "https://github.com/o/r", "description": "A repo",'
    b' "fork": false, "owner": {"login": "o"}, "pushed_at": "2026-09-30T09:58:12Z"}]}'
)
GOOD_QUESTION = (
    b'{"items": [{"title": "A question", "link": "https://stackoverflow.com/questions/1/q",'
    b' "body": "<p>Why?</p>", "creation_date": 1790856000}], "has_more": false}'
)
SMALL_PAGE = (
    b"<html><head><title>t</title></head><body><p>" + b"word " * 200 + b"</p></body></html>"
)


def plays(bombs: dict[str, bytes]) -> dict[str, list[tuple[float, Play]]]:
    gzip_header = (("Content-Encoding", "gzip"),)
    br_header = (("Content-Encoding", "br"),)
    # An honest JSON answer right at the limit: spaces, then an empty result list.
    at_limit = b" " * (ENGINE_LIMIT - 64) + b'{"total_count": 0, "items": []}'
    return {
        "good": single(Play(body=GOOD_REPO)),
        "good-se": single(Play(body=GOOD_QUESTION)),
        "plain": single(Play(body=at_limit)),
        "gzip": single(Play(body=bombs["gzip"], headers=gzip_header)),
        "br": single(Play(body=bombs["br"], headers=br_header)),
        "/robots.txt": single(Play(body=b"User-agent: *\nAllow: /\n", content_type="text/plain")),
        "/small.html": single(Play(body=SMALL_PAGE, content_type="text/html")),
        "/plain.txt": single(Play(body=b"x" * (PAGE_LIMIT + 1), content_type="text/plain")),
        "/bomb.gz": single(Play(body=bombs["gzip"], content_type="text/html", headers=gzip_header)),
        "/bomb.br": single(Play(body=bombs["br"], content_type="text/html", headers=br_header)),
    }


CASES: list[tuple[str, str, str, str]] = [
    # (label, kind, target, baseline label)
    ("engine: honest body at the limit", "engine", "plain", ""),
    ("engine: gzip bomb, 1 GiB", "engine", "gzip", "engine: honest body at the limit"),
    ("engine: brotli bomb, 1 GiB", "engine", "br", "engine: honest body at the limit"),
    ("page: honest body over the limit", "page", "/plain.txt", ""),
    ("page: gzip bomb, 1 GiB", "page", "/bomb.gz", "page: honest body over the limit"),
    ("page: brotli bomb, 1 GiB", "page", "/bomb.br", "page: honest body over the limit"),
]
REFERENCES: list[tuple[str, str, str, str]] = [
    (
        "reference: httpx aiter_bytes, gzip bomb",
        "httpx",
        "gzip",
        "engine: honest body at the limit",
    ),
    (
        "reference: httpx aiter_bytes, brotli bomb",
        "httpx",
        "br",
        "engine: honest body at the limit",
    ),
]


# In the child process.


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise LookupError(field)


def _reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


class _Routes:
    """What c.config_data needs of a server: github's endpoint is the case's play route,
    stackexchange's a good answer, so the search answers and names github's failure."""

    def __init__(self, port: int, github_route: str):
        self._routes = {"github": github_route, "stackexchange": "good-se"}
        self._port = port

    def endpoint(self, engine_id: str) -> str:
        return f"http://127.0.0.1:{self._port}/e/{self._routes[engine_id]}"


async def _engine_case(port: int, target: str) -> str:
    from rypsok import Client, ToolError
    from rypsok.config import config_from_dict

    def config(route: str) -> Any:
        data = c.config_data(_Routes(port, route), ["github", "stackexchange"])
        return config_from_dict(data, env=c.BENCH_ENV)

    async with Client(config("good")) as client:
        await client.search("warm up", category="code")
    async with Client(config(target)) as client:
        gc.collect()
        rest = _status("VmRSS")
        _reset_peak()
        try:
            response = await client.search("bomb", category="code")
            reasons = [n.reason for n in response.notices if n.code == "engine_unavailable"]
            answer = f"{response.outcome} {reasons}"
        except ToolError as exc:
            answer = f"{exc.kind} {exc.detail.get('reason')}"
    return f"{answer}|{rest}|{_status('VmHWM')}"


async def _page_case(port: int, target: str) -> str:
    from rypsok import Client, ToolError
    from rypsok.config import config_from_dict

    data = c.config_data(
        None,
        [],
        fetch={"allow_http": True, "ports": [port], "allow_networks": ["127.0.0.1/32"]},
    )
    async with Client(config_from_dict(data, env=c.BENCH_ENV)) as client:
        await client.fetch(f"http://127.0.0.1:{port}/small.html")
        gc.collect()
        rest = _status("VmRSS")
        _reset_peak()
        try:
            await client.fetch(f"http://127.0.0.1:{port}{target}")
            answer = "ok"
        except ToolError as exc:
            answer = f"{exc.kind} {exc.detail}"
    return f"{answer}|{rest}|{_status('VmHWM')}"


async def _httpx_case(port: int, target: str) -> str:
    """The previous engine path: httpx decodes each read whole, the size is checked after."""
    import httpx

    async with httpx.AsyncClient() as client:
        await client.get(f"http://127.0.0.1:{port}/e/good")
        gc.collect()
        rest = _status("VmRSS")
        _reset_peak()
        size = 0
        async with client.stream("GET", f"http://127.0.0.1:{port}/e/{target}") as response:
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > ENGINE_LIMIT:
                    break
        answer = f"stopped after {c.mib(size)} MiB"
    return f"{answer}|{rest}|{_status('VmHWM')}"


def _child(kind: str, port: int, target: str, pipe: Any) -> None:
    import trio

    case = {"engine": _engine_case, "page": _page_case, "httpx": _httpx_case}[kind]
    pipe.send(trio.run(case, port, target))


def measure(kind: str, port: int, target: str) -> tuple[str, int, int]:
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(kind, port, target, send))
    process.start()
    text = receive.recv()
    process.join()
    answer, rest, peak = text.rsplit("|", 2)
    return answer, int(rest), int(peak)


def main() -> None:
    args = c.arguments(__doc__.splitlines()[0])
    c.header(
        "Peak RSS under decompression bombs",
        "python bench/bombs.py" + (" --quick" if args.quick else ""),
    )
    bombs = {"gzip": gzip_bomb(GIB), "br": brotli_bomb(GIB)}
    print(
        f"# bombs: gzip {len(bombs['gzip'])} bytes, brotli {len(bombs['br'])} bytes, each 1 GiB decoded"
    )
    cases = CASES if args.quick else CASES + REFERENCES
    results: dict[str, tuple[str, int, int]] = {}
    with PlayServer(plays(bombs)) as server:
        for label, kind, target, _ in cases:
            results[label] = measure(kind, server.port, target)
    rows = []
    for label, _kind, _target, baseline in cases:
        answer, rest, peak = results[label]
        cost = peak - rest
        ratio = ""
        if baseline:
            _, base_rest, base_peak = results[baseline]
            ratio = f"{cost / max(1, base_peak - base_rest):.2f}"
        rows.append([label, answer, c.mib(rest), c.mib(peak), c.mib(cost), ratio])
    c.table(
        ["case", "answer", "RSS at rest MiB", "peak MiB", "peak - rest MiB", "cost / honest body"],
        rows,
    )


if __name__ == "__main__":
    main()
