"""The stdio transport's own CPU per message: rypsok's pipe and the SDK's server in this
process, against the same calls made on the library, interleaved in blocks.

    python bench/stdio_overhead.py [--quick] [--blocks N] [--per-block N]

``serve_pipe`` serves a rypsok Server on two OS pipes; this process writes JSON-RPC lines
into one and reads the replies from the other (non-blocking ends of its own, in the same
Trio loop), so ``time.process_time`` counts the pipe, the SDK's dispatcher and the
binding, plus this driver's small part (writing a line, reading and decoding the reply),
without a client SDK or another process's scheduling. One engine (wikipedia) answers 20
results at once from a child process, whose CPU is not counted. Kinds, in rotating order:
a ping, an engine_status call and a web_search call through the pipe, and the same two
tools through ``Client.call_tool``. The figure of interest is "web_search through the pipe
minus the library" (the median block of each). To compare trees, run it from each (e.g.
``PYTHONPATH=../before python bench/stdio_overhead.py``), alternating.
"""

from __future__ import annotations

import json
import os
import time

import _common as c
import trio
from _servers import PlayServer, answer_play, single

SEARCH = {"query": "structured concurrency deadline", "max_results": 20}
INITIALIZE = c.initialize_request("bench", request_id=0)


class Driver:
    """JSON-RPC lines into the server's stdin pipe, replies out of its stdout pipe."""

    def __init__(self) -> None:
        self.server_in, self.to_server = os.pipe()
        self.from_server, self.server_out = os.pipe()
        os.set_blocking(self.to_server, False)
        os.set_blocking(self.from_server, False)
        self._pending = b""
        self._next_id = 0

    async def send(self, message: dict) -> None:
        data = json.dumps(message).encode() + b"\n"
        while data:
            await trio.lowlevel.wait_writable(self.to_server)
            data = data[os.write(self.to_server, data) :]

    async def reply(self) -> dict:
        while b"\n" not in self._pending:
            await trio.lowlevel.wait_readable(self.from_server)
            self._pending += os.read(self.from_server, 1 << 20)
        line, _, self._pending = self._pending.partition(b"\n")
        return json.loads(line)

    async def request(self, method: str, params: dict | None = None) -> dict:
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        reply = await self.reply()
        assert reply["id"] == self._next_id and "result" in reply, reply
        return reply["result"]


async def measure(config, blocks: int, per_block: int) -> dict[str, list[float]]:
    from rypsok import Client
    from rypsok.serve_stdio.pipe import serve_pipe
    from rypsok.server import build_server

    driver = Driver()
    async with Client(config) as client, trio.open_nursery() as nursery:
        server = build_server(config, client=client)
        nursery.start_soon(serve_pipe, server, driver.server_in, driver.server_out)
        await driver.send(INITIALIZE)
        await driver.reply()
        await driver.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

        async def ping() -> None:
            assert await driver.request("ping") == {}

        async def status() -> None:
            result = await driver.request("tools/call", {"name": "engine_status", "arguments": {}})
            assert not result["isError"], result

        async def search() -> None:
            params = {"name": "web_search", "arguments": SEARCH}
            result = await driver.request("tools/call", params)
            assert len(result["structuredContent"]["results"]) == 20, result

        async def library_status() -> None:
            await client.call_tool("engine_status", {})

        async def library_search() -> None:
            assert len((await client.call_tool("web_search", dict(SEARCH)))["results"]) == 20

        kinds = {
            "ping through the pipe": ping,
            "engine_status through the pipe": status,
            "engine_status on the library": library_status,
            "web_search through the pipe": search,
            "web_search on the library": library_search,
        }
        for call in kinds.values():
            for _ in range(10):
                await call()
        figures: dict[str, list[float]] = {name: [] for name in kinds}
        names = list(kinds)
        for block in range(blocks):
            shift = block % len(names)
            for name in names[shift:] + names[:shift]:
                cpu = time.process_time()
                for _ in range(per_block):
                    await kinds[name]()
                figures[name].append((time.process_time() - cpu) / per_block)
        nursery.cancel_scope.cancel()
    return figures


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        blocks=(int, None, "blocks of each kind (default 20, 6 with --quick)"),
        per_block=(int, 25, "calls per block"),
    )
    blocks = args.blocks or (6 if args.quick else 20)
    c.header(
        "stdio_overhead: CPU per message through rypsok's pipe and the SDK's server, in process",
        f"python bench/stdio_overhead.py{' --quick' if args.quick else ''}",
    )
    with PlayServer({"wikipedia": single(answer_play("wikipedia"))}) as engine:
        config = c.library_config(c.config_data(engine, ["wikipedia"]))
        figures = trio.run(measure, config, blocks, args.per_block)
    print(f"{blocks} blocks of {args.per_block} calls of each kind, rotating; CPU per call")
    medians = {name: c.median(values) for name, values in figures.items()}
    c.table(
        ["kind", "median ms", "min ms", "max ms"],
        [
            [name, c.ms(medians[name]), c.ms(min(values)), c.ms(max(values))]
            for name, values in figures.items()
        ],
    )
    over = medians["web_search through the pipe"] - medians["web_search on the library"]
    status = medians["engine_status through the pipe"] - medians["engine_status on the library"]
    print(f"web_search: the pipe and the SDK over the library: {over * 1000:.3f} ms per call")
    print(f"engine_status: the pipe and the SDK over the library: {status * 1000:.3f} ms per call")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
