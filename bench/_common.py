"""What the benchmark scripts share: arguments, statistics, printing, configurations, and
starting MCP servers (rypsok and the baselines) over stdio.

Absolute times on a shared 2-core machine are noise; each script therefore measures
rypsok and its baseline interleaved in one run and prints their ratio.

This file only defines helpers; running it does nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
SHARED_BENCH = ROOT.parent / "shared" / "bench"
"""The public benchmarks beside the checkout (``../shared/bench``); from a git worktree one
folder deeper (``../../shared/bench``)."""
if not SHARED_BENCH.is_dir():
    SHARED_BENCH = ROOT.parent.parent / "shared" / "bench"
BENCH_ENV = {"BRAVE_API_KEY": "bench-key"}
"""Credentials the fake engines accept: brave needs one to be usable."""
HIGH = 1_000_000
"""A limit the benchmarks never reach."""
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
"""The handshake's second line, written by hand on the raw pipe."""


def initialize_request(
    client: str, request_id: str | int = "init", version: str = "2025-11-25"
) -> dict[str, Any]:
    """The handshake's first line as a client writes it by hand on the raw pipe."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": client, "version": "0"},
        },
    }


T = TypeVar("T")

BUSY_WAIT_S = 0.1
"""How long a caller refused ``busy`` waits before asking again: under half a search's
time at 16 in flight, so the admission window stays full, and long enough that refusals
do not take the CPU the searches need."""


# Arguments and printing


def arguments(description: str, **extra: Any) -> argparse.Namespace:
    """``--quick`` plus the script's own options, given as name=(type, default, help)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="a short run (seconds, not minutes)")
    for name, (kind, default, text) in extra.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=kind, default=default, help=text)
    return parser.parse_args()


def machine_note() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{os.cpu_count()} CPUs, Python {platform.python_version()} on {platform.system()}, "
        f"load average {load:.2f} (shared machine: absolute times are noisy, ratios less so)"
    )


def header(title: str, command: str) -> None:
    print(f"# {title}")
    print(f"# command: {command}")
    print(f"# machine: {machine_note()}")


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    text_rows = [[str(cell) for cell in row] for row in rows]
    widths = [
        max(len(h), *(len(r[i]) for r in text_rows)) if text_rows else len(h)
        for i, h in enumerate(headers)
    ]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    for row in text_rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def verdict(name: str, value: float, goal: float, unit: str) -> bool:
    """Print whether ``value`` is under ``goal`` (lower is better) and return it."""
    met = value < goal
    state = "MET" if met else f"MISSED by {value - goal:.3g} {unit}"
    print(f"goal  {name}: {value:.3g} {unit} (goal < {goal:g} {unit}) -> {state}")
    return met


# Statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank: a value that was actually measured."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def best_of(repeats: int, run: Callable[[], object]) -> float:
    """Seconds of the fastest of ``repeats`` runs (the machine may be busy with other work)."""
    fastest = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        fastest = min(fastest, time.perf_counter() - started)
    return fastest


LATENCY_STATS = (
    median,
    lambda values: percentile(values, 90),
    lambda values: percentile(values, 99),
    max,
)
"""Median, p90, p99 and max: the columns of a latency table."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def mib(size: float) -> str:
    return f"{size / (1 << 20):.1f}"


# Configurations


def engine_tables(
    server: Any, enabled: Iterable[str], overrides: dict[str, dict] | None = None
) -> dict[str, dict[str, Any]]:
    """The ``[engines]`` tables: ``enabled`` point at ``server``, every other engine is off."""
    from rypsok.engines.registry import ENGINE_IDS

    enabled = set(enabled)
    tables: dict[str, dict[str, Any]] = {}
    for engine_id in ENGINE_IDS:
        if engine_id in enabled:
            table_ = {"endpoint": server.endpoint(engine_id), "rate_per_minute": HIGH}
        else:
            table_ = {"enabled": False}
        table_.update((overrides or {}).get(engine_id, {}))
        tables[engine_id] = table_
    return tables


def config_data(server: Any, enabled: Iterable[str], **sections: dict[str, Any]) -> dict[str, Any]:
    """TOML-shaped data with the per-minute limits and the breaker out of the way."""
    data: dict[str, Any] = {
        "limits": {"web_search": HIGH, "web_fetch": HIGH, "engine_status": HIGH},
        "breaker": {"failures": HIGH},
        "log": {"level": "error"},
    }
    for name, values in sections.items():
        data[name] = {**data.get(name, {}), **values}
    data["engines"] = engine_tables(server, enabled) if server is not None else {}
    return data


def library_config(data: dict[str, Any]):
    from rypsok.config import config_from_dict

    return config_from_dict(data, env=BENCH_ENV)


def write_config(data: dict[str, Any], path: Path) -> Path:
    """The data as a TOML file (the tests' writer)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.mcp_harness import write_toml

    return write_toml(data, path)


# MCP servers over stdio


def base_env() -> dict[str, str]:
    return {"HOME": os.environ.get("HOME", "/tmp"), "PATH": os.environ.get("PATH", "")}


def rypsok_parameters(config_path: Path):
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "rypsok", "serve", "--config", str(config_path)],
        env={**base_env(), **BENCH_ENV},
        cwd=str(ROOT),
    )


def fetch_server_parameters(*extra_args: str, env: dict[str, str] | None = None):
    """mcp-server-fetch (the reference MCP fetch server), started as rypsok is: python -m."""
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_server_fetch", *extra_args],
        env=env or base_env(),
        cwd=str(ROOT),
    )


def fetch_server_problem() -> str | None:
    """Why mcp-server-fetch cannot be the baseline here, or None when it can."""
    try:
        import mcp_server_fetch  # noqa: F401
    except Exception as exc:
        return (
            f"mcp-server-fetch is not importable ({exc.__class__.__name__}: {exc}); "
            "pip install mcp-server-fetch"
        )
    return None


# Busy: a designed outcome under load


def is_busy(answer: Any) -> bool:
    """Whether an MCP tool result (or a library ToolError) is the refusal ``busy``: the
    admission window (rypsok.state.limits.OnTimeLimit) let in no more calls than end on time."""
    detail = getattr(answer, "detail", None)
    if detail is None:
        if not getattr(answer, "is_error", False):
            return False
        detail = (answer.structured_content or {}).get("error", {}).get("detail", {})
    return detail.get("reason") == "busy"


class BusyCount:
    """Calls refused ``busy`` on the way to their answers, for one run."""

    def __init__(self) -> None:
        self.refused = 0


async def admitted(call: Callable[[], Awaitable[T]], busy: BusyCount) -> T:
    """``await call()`` until it is not refused ``busy`` (an MCP result saying so, or the
    library's ToolError), waiting BUSY_WAIT_S before each new try; refusals are counted in
    ``busy``. Anything else, error or not, is returned (or raised) as it came."""
    import anyio

    from rypsok import ToolError

    while True:
        try:
            answer = await call()
        except ToolError as error:
            if not is_busy(error):
                raise
        else:
            if not is_busy(answer):
                return answer
        busy.refused += 1
        await anyio.sleep(BUSY_WAIT_S)


async def in_parallel(call: Callable[[int], Awaitable[Any]], calls: int, concurrency: int) -> None:
    """``calls`` calls of ``call(i)``, ``concurrency`` at a time."""
    import anyio

    numbers = iter(range(calls))

    async def worker() -> None:
        for i in numbers:
            await call(i)

    async with anyio.create_task_group() as group:
        for _ in range(concurrency):
            group.start_soon(worker)


@contextlib.asynccontextmanager
async def mcp_session(parameters, errlog=None) -> AsyncIterator[Any]:
    """An initialized ClientSession with a server started from ``parameters``."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    log = errlog or open(os.devnull, "w")  # noqa: SIM115
    try:
        async with (
            stdio_client(parameters, errlog=log) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
    finally:
        if errlog is None:
            log.close()


def child_process(*needles: str):
    """The newest child of this process whose command line holds every needle (psutil)."""
    import psutil

    found = [
        child
        for child in psutil.Process().children(recursive=True)
        if all(n in " ".join(_cmdline(child)) for n in needles)
    ]
    if not found:
        raise LookupError(f"no child process with {needles}")
    return max(found, key=lambda p: p.create_time())


def _cmdline(process) -> list[str]:
    try:
        return process.cmdline()
    except Exception:
        return []


def peak_rss(pid: int) -> int:
    """VmHWM, the process's peak resident set so far, in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise LookupError("VmHWM")


def rss(pid: int | None = None) -> int:
    import psutil

    return psutil.Process(pid).memory_info().rss


def cpu_seconds(pid: int | None = None) -> float:
    """User plus system CPU time of a process (this one by default)."""
    import psutil

    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def clock() -> float:
    return time.perf_counter()


# rypsok over Streamable HTTP


def free_port(host: str = "127.0.0.1") -> int:
    import socket

    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@contextlib.asynccontextmanager
async def rypsok_http(
    config_path: Path, env: dict[str, str] | None = None, errlog=None
) -> AsyncIterator[tuple[str, int]]:
    """``rypsok serve --http`` on a free loopback port: yields (base URL, pid) once /healthz
    answers; stopped with SIGTERM."""
    import signal
    import subprocess

    import anyio
    import httpx

    base = f"http://127.0.0.1:{free_port()}"
    process = subprocess.Popen(
        [sys.executable, "-m", "rypsok", "serve", "--config", str(config_path)]
        + ["--http", base.removeprefix("http://")],
        env={**base_env(), **BENCH_ENV, "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=errlog or subprocess.DEVNULL,
    )
    try:
        async with httpx.AsyncClient(trust_env=False) as probe:
            with anyio.fail_after(60):
                while True:
                    if process.poll() is not None:
                        raise RuntimeError(f"rypsok serve --http exited {process.returncode}")
                    with contextlib.suppress(httpx.TransportError):
                        if (await probe.get(f"{base}/healthz")).status_code == 200:
                            break
                    await anyio.sleep(0.05)
        yield base, process.pid
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.asynccontextmanager
async def http_mcp_session(url: str, token: str | None = None) -> AsyncIterator[Any]:
    """An initialized ClientSession over Streamable HTTP (the SDK's client)."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
