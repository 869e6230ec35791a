"""Cancellation over Streamable HTTP: a call whose client sends ``notifications/cancelled`` or
drops its connection stops its work within 100 ms (its engine requests and page fetches are
closed), is counted ``cancelled`` rather than ok, and frees its admission slot.

The work is played by a loopback server that accepts a request and never answers, noting
when rypsok closes the connection: that is when the work stopped. As for the deadline, the
100 ms contract is checked with 300 ms of allowance for a loaded machine.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import anyio
import httpx
import pytest

from tests.conftest import config_data
from tests.engine_servers import json_play
from tests.mcp_harness import (
    MCP_HEADERS,
    http_server,
    http_session,
    rpc_call,
    structured,
    write_toml,
)

pytestmark = pytest.mark.anyio

STOPS_WITHIN_S = 0.1 + 0.3
CANCEL_AFTER_S = 0.5


class HangingServer:
    """Answers /robots.txt with 404 (so every page is allowed), reads every other request and
    never answers it; records when each such connection is closed by the other side."""

    def __init__(self, address: str = "127.0.0.2") -> None:
        self.address = address
        self._listener = socket.create_server((address, 0))
        self.port = self._listener.getsockname()[1]
        self.opened = threading.Event()
        self.closed_at: list[float] = []
        self._done = threading.Event()

    def endpoint(self, path: str) -> str:
        return f"http://{self.address}:{self.port}{path}"

    def _serve(self) -> None:
        while not self._done.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._hold, args=(conn,), daemon=True).start()

    def _hold(self, conn: socket.socket) -> None:
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                request += chunk
            if request.startswith(b"GET /robots.txt"):
                conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                return
            self.opened.set()
            while conn.recv(4096):
                pass
            self.closed_at.append(time.monotonic())

    def __enter__(self) -> HangingServer:
        threading.Thread(target=self._serve, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._listener.close()

    async def closed_after(self, since: float) -> float:
        """Seconds from ``since`` to the first close seen (waiting up to 5 s for it)."""
        with anyio.move_on_after(5):
            while not self.closed_at:
                await anyio.sleep(0.01)
        assert self.closed_at, "the connection was never closed"
        return self.closed_at[0] - since


@pytest.fixture
def hanging() -> Iterator[HangingServer]:
    with HangingServer() as server:
        yield server


@pytest.fixture
def config(engines, hanging, tmp_path) -> Path:
    data = config_data(
        engines,
        {"github", "stackexchange"},
        engine_overrides={"stackexchange": {"endpoint": hanging.endpoint("/e/stackexchange")}},
        search={"max_concurrent": 1},
    )
    data["fetch"] = {
        "allow_http": True,
        "allow_networks": ["127.0.0.2/32"],
        "ports": [hanging.port],
        "max_concurrent": 1,
    }
    return write_toml(data, tmp_path / "rypsok.toml")


async def wait_opened(hanging: HangingServer) -> None:
    with anyio.fail_after(5):
        while not hanging.opened.is_set():
            await anyio.sleep(0.01)


async def counted(base: str, tool: str) -> dict[str, float]:
    """rypsok_calls_total for ``tool`` by outcome, from /metrics."""
    async with httpx.AsyncClient(trust_env=False) as http:
        text = (await http.get(f"{base}/metrics")).text
    found: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("rypsok_calls_total{") and f'tool="{tool}"' in line:
            outcome = line.split('outcome="')[1].split('"')[0]
            found[outcome] = found.get(outcome, 0) + float(line.rsplit(" ", 1)[1])
    return found


async def test_a_cancelled_search_stops_is_not_ok_and_frees_its_slot(config, engines, hanging):
    engines.plays["github"] = json_play("github/search.json")
    arguments = {"query": "async runtime", "category": "code"}
    async with http_server(config) as (base, _), http_session(f"{base}/mcp") as client:
        with anyio.CancelScope() as scope:

            async def cancel_when_hanging() -> None:
                await wait_opened(hanging)
                await anyio.sleep(CANCEL_AFTER_S)
                scope.cancel()

            async with anyio.create_task_group() as group:
                group.start_soon(cancel_when_hanging)
                await client.call_tool("web_search", arguments)
        cancelled_at = time.monotonic()  # the SDK's client sends notifications/cancelled now
        assert await hanging.closed_after(cancelled_at) <= STOPS_WITHIN_S

        # One search at a time ([search] max_concurrent = 1): the slot is free again (the
        # hanging engine now times out at the deadline, so the search is partial).
        next_search = await client.call_tool("web_search", {**arguments, "query": "another"})
        assert structured(next_search)["outcome"] == "partial"
        outcomes = await counted(base, "web_search")
    assert outcomes.get("cancelled") == 1
    assert "busy" not in outcomes


async def test_a_fetch_whose_client_hangs_up_stops_and_frees_its_slot(config, hanging, tmp_path):
    url = hanging.endpoint("/page")
    stderr = tmp_path / "stderr.log"
    with stderr.open("w") as errlog:
        await hang_up_twice(config, hanging, url, errlog)
    # the cut calls are news (at info); a request that ended normally is not (test_http.py)
    disconnections = [
        json.loads(line)
        for line in stderr.read_text().splitlines()
        if "client_disconnected" in line
    ]
    assert [(r["level"], r["calls"]) for r in disconnections] == [("info", 1), ("info", 1)]


async def hang_up_twice(config: Path, hanging: HangingServer, url: str, errlog: TextIO) -> None:
    async with http_server(config, errlog=errlog) as (base, _):
        async with (
            httpx.AsyncClient(trust_env=False, timeout=30) as http,
            anyio.create_task_group() as group,
        ):

            async def fetch_then_hang_up() -> None:
                await http.post(
                    f"{base}/mcp",
                    json=rpc_call("web_fetch", {"url": url}, request_id=3),
                    headers=MCP_HEADERS,
                )

            group.start_soon(fetch_then_hang_up)
            await wait_opened(hanging)
            await anyio.sleep(CANCEL_AFTER_S)
            group.cancel_scope.cancel()  # closes the client's connection
        dropped_at = time.monotonic()
        assert await hanging.closed_after(dropped_at) <= STOPS_WITHIN_S

        # One fetch at a time ([fetch] max_concurrent = 1): a second fetch is admitted (it
        # reaches the page) rather than refused busy.
        hanging.opened.clear()
        async with (
            httpx.AsyncClient(trust_env=False, timeout=30) as http,
            anyio.create_task_group() as group,
        ):
            second = rpc_call("web_fetch", {"url": hanging.endpoint("/other")}, request_id=4)
            group.start_soon(lambda: http.post(f"{base}/mcp", json=second, headers=MCP_HEADERS))
            await wait_opened(hanging)
            group.cancel_scope.cancel()
        outcomes = await counted(base, "web_fetch")
    assert outcomes == {"cancelled": 2}
