"""What a tree's searches return, hashed: for holding a speed change to the answers before it.

    PYTHONPATH=TREE python bench/_search_equivalence.py OUT.txt [--tests TREE]

Every fixture of every engine (tests/fixtures/<engine>/) is served by the tests' loopback
engine server as an answer (200), gzipped, as a 429 with Retry-After, and as a 302 to a good
and to an unreadable Location, and, answered 200, once more behind an endpoint with
userinfo; each goes through the library (``Client.search_with_timeline``, a fresh client per
search) for each category the engine serves and five argument sets (plain; non-ASCII with
reserved characters; a time range; two languages). Each line of OUT.txt is one search: the
response or the error, the per-engine timeline without times, and the requests as the
server saw them (method, target, headers in order, body), with the server's port, the
clock's time of day and epoch seconds blanked. The last line printed is the hash of the
file: run it with PYTHONPATH at each tree and compare. Not run by ``just bench``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import trio

VARIANTS = [
    ("200", {}),
    ("gzip", {"gzip": True}),
    ("429", {"status": 429, "headers": {"Retry-After": "7"}}),
    ("302", {"status": 302, "headers": {"Location": "https://example.org/x"}}),
    ("302bad", {"status": 302, "headers": {"Location": "http://[::1"}}),
]
ARGUMENTS = [
    {"query": "asyncio task", "max_results": 7},
    {"query": 'café ünïcode 日本 "quoted" a+b&c=d/e?f#g %41', "max_results": 20},
    {"query": "rust borrow checker", "time_range": "week", "max_results": 3},
    {"query": "structured concurrency", "language": "de", "max_results": 10},
    {"query": "pt", "language": "pt-br", "max_results": 5},
]


def blanked(text: str, port: int) -> str:
    text = re.sub(r"back in \d+ ms", "back in N ms", text.replace(str(port), "PORT"))
    text = re.sub(r"T\d\d(:|%3A)\d\d(:|%3A)\d\d", "T-TIME", text)
    text = re.sub(r"(?<!\d)(20\d{6})\d{4}(?!\d)", r"\1HHMM", text)
    return re.sub(r"(?<!\d)1[78]\d{8}(?!\d)", "EPOCH", text)


async def searches(server, lines: list[str]) -> None:
    from rypsok import Client, errors
    from rypsok.config import config_from_dict
    from rypsok.engines.registry import ENGINE_IDS, engine_module
    from tests.conftest import config_data
    from tests.engine_servers import FIXTURES, Play

    keys = {
        engine_module(e).INFO.credential_env: "test-key"
        for e in ENGINE_IDS
        if engine_module(e).INFO.credential_env
    }
    for engine_id in ENGINE_IDS:
        module = engine_module(engine_id)
        for fixture in sorted((FIXTURES / engine_id).iterdir()):
            content_type = {".html": "text/html", ".xml": "application/xml"}.get(
                fixture.suffix, "application/json"
            )
            for name, variant in VARIANTS:
                server.plays[engine_id] = Play(
                    body=fixture.read_bytes(),
                    status=variant.get("status", 200),
                    headers={"Content-Type": content_type, **variant.get("headers", {})},
                    gzip=variant.get("gzip", False),
                )
                for userinfo in ("", "us%40er:pa%20ss@") if name == "200" else ("",):
                    endpoint = server.endpoint(engine_id).replace("http://", "http://" + userinfo)
                    data = config_data(
                        server,
                        {engine_id},
                        {engine_id: {"endpoint": endpoint}},
                        cache={"enabled": False},
                        breaker={"failures": 1000},
                        search={"languages": ["en", "de", "pt-br"]},
                    )
                    config = config_from_dict(data, env=keys)
                    for category in sorted(module.INFO.categories):
                        for arguments in ARGUMENTS:
                            arguments = {**arguments, "category": category}
                            server.seen.clear()
                            async with Client(config) as client:
                                got, timeline = await client.search_with_timeline(arguments)
                            if isinstance(got, errors.ToolError):
                                answer = {"error": got.kind, "message": str(got)}
                            else:
                                answer = got.to_json()
                            runs = [
                                {k: v for k, v in run.to_json().items() if not k.endswith("_ms")}
                                for run in timeline
                            ]
                            seen = [
                                (
                                    s.method,
                                    s.path,
                                    list(s.headers.items()),
                                    s.body.decode("utf-8", "replace"),
                                )
                                for s in server.seen
                            ]
                            record = [engine_id, fixture.name, name, userinfo, arguments]
                            line = json.dumps(
                                [*record, answer, runs, seen], sort_keys=True, ensure_ascii=False
                            )
                            lines.append(blanked(line, server.port))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="where the searches are written, one a line")
    parser.add_argument(
        "--tests",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the checkout whose tests/ serve the fixtures (default: this one)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(args.tests))
    from tests.engine_servers import EngineServer

    lines: list[str] = []
    with EngineServer() as server:
        trio.run(searches, server, lines)
    text = "\n".join(lines)
    args.out.write_text(text)
    print(f"{len(lines)} searches, sha256 {hashlib.sha256(text.encode()).hexdigest()}")


if __name__ == "__main__":
    main()
