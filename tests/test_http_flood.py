"""A flood of held connections against ``rypsok serve --http`` (issue 24, item 1), with the
server's open-file limit lowered to 160 so that the flood outgrows it in a fraction of a
second: the attacker holds more connections than the server may open descriptors, and an
authenticated call must still be answered, from an engine the server still has a socket
for."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import anyio
import httpx
import pytest

from rypsok.config import config_from_dict
from rypsok.serve_http.listen import MIN_CONNECTIONS, connection_limit, descriptor_reserve
from tests.conftest import config_data
from tests.engine_servers import json_play
from tests.mcp_harness import MCP_HEADERS, http_server, read_until_closed, rpc_call, write_toml

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
ALICE = "alice-4b1d7e0c9a2f6358"
OPEN_FILES = 160
SLOW = 60
BODILESS = 200
"""Connections of each kind the attacker holds: the tokenless POSTs alone outnumber the
descriptors the server may open."""
HEADERS_WITHIN_S = 5.0
"""Hypercorn's keep_alive_timeout as rypsok sets it (rypsok.serve_http.run)."""
ANSWERED_WITHIN_S = HEADERS_WITHIN_S + 7.0
CONNECT_WITHIN_S = 0.5


@contextmanager
def held_connections(port: int) -> Iterator[tuple[list[socket.socket], list[socket.socket]]]:
    """SLOW connections that send half a request's headers and stay silent (slowloris), and
    BODILESS that send a POST's headers without a token, ``Content-Length: 60000`` and one
    byte (the issue's attacker), interleaved; all kept open until the block ends. A connection
    the server's backlog has no room for is left out."""
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Content-Length: 60000\r\n\r\n{"
    ).encode()
    partial = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
    slow, bodiless = [], []
    with ExitStack() as stack:
        for n in range(BODILESS):
            kinds = ((slow, partial), (bodiless, head)) if n < SLOW else ((bodiless, head),)
            for kind, sent in kinds:
                try:
                    sock = socket.create_connection(("127.0.0.1", port), CONNECT_WITHIN_S)
                except OSError:
                    continue
                stack.enter_context(sock)
                sock.sendall(sent)
                kind.append(sock)
        yield slow, bodiless


async def test_a_flood_of_held_connections_degrades_to_refusals_not_a_dead_listener(
    engine_server, tmp_path
):
    engine_server.reset()
    engine_server.plays["github"] = json_play("github/search.json")
    engine_server.plays["stackexchange"] = json_play("stackexchange/search.json")
    data = {**config_data(engine_server, CODE), "server": {"tokens_env": "RYPSOK_TOKENS"}}
    path = write_toml(data, tmp_path / "rypsok.toml")
    stderr = tmp_path / "stderr.log"
    call = json.dumps(rpc_call("web_search", {"query": "quokka", "category": "code"}))
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {ALICE}"}
    with stderr.open("w") as errlog:
        async with http_server(
            path, {"RYPSOK_TOKENS": f"alice:{ALICE}"}, errlog, open_files=OPEN_FILES
        ) as (base, _):
            port = int(base.rsplit(":", 1)[1])
            with held_connections(port) as (_slow, bodiless):
                started = time.monotonic()
                refusals, answer = 0, None
                async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
                    with anyio.fail_after(ANSWERED_WITHIN_S):
                        while answer is None:
                            try:
                                response = await http.post(
                                    f"{base}/mcp", content=call, headers=headers
                                )
                            except httpx.TransportError:
                                refusals += 1
                                await anyio.sleep(0.2)
                                continue
                            if response.status_code == 503:
                                refusals += 1
                                await anyio.sleep(0.2)
                                continue
                            answer = response
                took = time.monotonic() - started
                outcomes = [read_until_closed(sock, 1.0) for sock in bodiless]
    assert answer.status_code == 200
    assert answer.json()["result"]["structuredContent"]["outcome"] == "ok"
    assert len(engine_server.seen) == 2  # the server still had sockets for both engines
    assert took < ANSWERED_WITHIN_S
    # every tokenless POST was answered (401, or 503 past the connection limit) and closed
    statuses = {received.split(b"\r\n", 1)[0] for received, _ in outcomes}
    assert all(closed for _, closed in outcomes)
    assert statuses <= {b"HTTP/1.1 401 ", b"HTTP/1.1 503 Service Unavailable", b""}
    assert b"HTTP/1.1 503 Service Unavailable" in statuses
    log = stderr.read_text()
    assert "EMFILE" not in log
    assert "Traceback" not in log
    listening = next(
        json.loads(line) for line in log.splitlines() if '"event": "listening"' in line
    )
    assert listening["max_connections"] == OPEN_FILES - (64 + len(CODE) * 8 + 4 * 4)


def test_the_connection_limit_keeps_the_reserve_and_never_falls_below_the_minimum(engine_server):
    config = config_from_dict(config_data(engine_server, CODE), env={})
    reserve = descriptor_reserve(config)
    assert reserve == 64 + len(CODE) * config.search.max_concurrent + 4 * 4
    assert connection_limit(config, 1024) == 1024 - reserve
    assert connection_limit(config, reserve + 1) == MIN_CONNECTIONS
    assert connection_limit(config, None) is None
