"""A random fuzzer for the stdio pipe: random and mutated JSON-RPC on one `rypsok serve`.

    python bench/fuzz_stdio.py [--quick] [--seeds 1 2 3] [--lines 400]

Each seed writes ``--lines`` lines to one fresh server (every engine disabled, so no call
leaves the machine): valid requests (ping, tools/list, tools/call of every tool with good
and bad arguments, unknown methods), the same mutated (bytes cut, flipped, inserted,
dropped, a line end added in the middle), batches, replies, notifications, raw bytes, runs
of garbage lines, lines of 2 MiB with an id at their start, and deep nests; then one last
ping, then stdin is closed.

The oracle reads each line as written, independently of rypsok's reader: a line that is a
JSON object with an ``id`` that is a string or an integer, and that is not a reply, is
owed exactly one answer with that id (or none, when a ``notifications/cancelled`` names
that id: a request cancelled in flight is not answered, as MCP asks); a line the oracle cannot judge by itself (too deep
for Python's parser, or longer than 1 MiB and not one of its own 2 MiB lines) may get at
most one. It checks that every owed id is answered once and no other id at all, that
stdout carries only JSON-RPC messages, that the last ping is answered, and that the
process exits within 5 s of stdin closing. Prints one line per seed and exits 1 on a miss.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import _common as c

ROOT = Path(__file__).resolve().parent.parent
MAX_LINE_BYTES = 1 << 20
CANDIDATE_ID = re.compile(rb'"id":\s*("(?:[^"\\]|\\.)*"|-?\d{1,30})')
BIG_LINE_BYTES = 2 << 20
EXIT_WITHIN_S = 5.0

# An older revision the SDK still speaks, so the fuzzer covers its negotiation too.
INITIALIZE = c.initialize_request("fuzz", version="2025-06-18")
INITIALIZED = c.INITIALIZED


def config_file(directory: Path) -> Path:
    """Every engine disabled; web_fetch of a loopback URL is denied before any connection."""
    from rypsok.engines.registry import ENGINE_IDS

    text = "".join(f"[engines.{engine}]\nenabled = false\n" for engine in ENGINE_IDS)
    path = directory / "rypsok.toml"
    path.write_text(text)
    return path


class Generator:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.next_id = 0
        self.big_lines: dict[bytes, object] = {}

    def new_id(self) -> int | str:
        self.next_id += 1
        return self.next_id if self.rng.random() < 0.5 else f"fz-{self.next_id}"

    def request(self) -> dict:
        rng = self.rng
        calls = [
            ("ping", None),
            ("tools/list", {}),
            ("tools/call", {"name": "engine_status", "arguments": {}}),
            ("tools/call", {"name": "engine_status", "arguments": {"x": 1}}),
            ("tools/call", {"name": "web_search", "arguments": {"query": "trio"}}),
            ("tools/call", {"name": "web_search", "arguments": {"query": "", "max_results": 99}}),
            ("tools/call", {"name": "web_search", "arguments": "not an object"}),
            ("tools/call", {"name": "web_fetch", "arguments": {"url": "http://127.0.0.1/x"}}),
            ("tools/call", {"name": "web_fetch", "arguments": {"url": "ftp://example.org/"}}),
            ("tools/call", {"name": "web_fetch", "arguments": {"url": 7}}),
            ("tools/call", {"name": "no_such_tool", "arguments": {}}),
            ("tools/call", {"arguments": {}}),
            ("resources/list", {}),
            ("".join(rng.choice("abc/_") for _ in range(rng.randint(0, 12))), {}),
        ]
        method, params = rng.choice(calls)
        message: dict = {"jsonrpc": "2.0", "id": self.new_id(), "method": method}
        if params is not None:
            message["params"] = params
        return message

    def mutate(self, line: bytes) -> bytes:
        rng = self.rng
        data = bytearray(line)
        for _ in range(rng.randint(1, 4)):
            if not data:
                break
            at = rng.randrange(len(data))
            choice = rng.randrange(7)
            if choice == 0:
                del data[at : at + rng.randint(1, 8)]
            elif choice == 1:
                data[at] = rng.randrange(256)
            elif choice == 2:
                data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
            elif choice == 3:
                data[at:at] = rng.choice([b"\n", b"\r", b"\r\n", b"\x00", b"\xff\xfe", b'"'])
            elif choice == 4:
                data = data[:at]  # cut short
            elif choice == 5:
                data[at:at] = data[: rng.randint(1, 30)]
            else:
                data[at:at] = rng.choice([b"{", b"[", b"}", b"]", b",", b":", b"null", b"1e999"])
        return bytes(data)

    def line(self) -> bytes:
        rng = self.rng
        kind = rng.choices(
            [
                "valid",
                "mutated",
                "batch",
                "reply",
                "notification",
                "raw",
                "garbage_run",
                "big",
                "big_garbage",
                "deep",
                "odd_id",
            ],
            [30, 30, 4, 4, 4, 6, 3, 1, 1, 2, 5],
        )[0]
        dump = lambda m: json.dumps(m).encode()  # noqa: E731
        if kind == "valid":
            return dump(self.request())
        if kind == "mutated":
            return self.mutate(dump(self.request()))
        if kind == "batch":
            return dump([self.request() for _ in range(rng.randint(0, 3))])
        if kind == "reply":
            return dump({"jsonrpc": "2.0", "id": self.new_id(), "result": {}})
        if kind == "notification":
            return dump(
                {
                    "jsonrpc": "2.0",
                    "method": rng.choice(["notifications/cancelled", "notifications/x", "ping"]),
                    "params": rng.choice([{}, {"requestId": 1}, None]),
                }
            )
        if kind == "raw":
            return bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))).replace(
                b"\n", b" "
            )
        if kind == "garbage_run":
            return b"\n".join(
                bytes(rng.randrange(256) for _ in range(rng.randint(1, 80))).replace(b"\n", b"")
                for _ in range(rng.randint(11, 60))
            )
        if kind in ("big", "big_garbage"):
            request_id = self.new_id()
            head = {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "tools/call",
                "params": {"name": "web_fetch", "arguments": {"url": "https://example.org/"}},
            }
            text = dump(head)
            padded = text[:-3] + b"a" * (BIG_LINE_BYTES - len(text)) + text[-3:]
            if kind == "big_garbage":
                return b"\x01" + bytes(rng.randrange(32, 127) for _ in range(64)) * (
                    BIG_LINE_BYTES // 64
                )
            self.big_lines[padded] = request_id
            return padded
        if kind == "deep":
            depth = rng.choice([60, 70, 2000, 100_000])
            nest = "[" * depth + "]" * depth
            return (
                f'{{"jsonrpc":"2.0","id":{json.dumps(self.new_id())},"method":"ping",'
                f'"params":{{"x":{nest}}}}}'.encode()
            )
        ids = [None, True, 1.5, [1], {"a": 1}, "", 0, -1, 2**70, "\ud800"]
        message = self.request()
        message["id"] = rng.choice(ids)
        return dump(message)


class Unjudged(Exception):
    pass


def _int(digits: str) -> object:
    return None if len(digits.lstrip("-")) > 4300 else int(digits)


def _constant(name: str) -> object:
    raise ValueError(name)


def owed(line: bytes, big_lines: dict[bytes, object]) -> object:
    """The id ``line`` is owed one answer under, None when it is owed none; Unjudged when the
    oracle cannot tell."""
    if len(line) > MAX_LINE_BYTES:
        if line in big_lines:
            return big_lines[line]
        raise Unjudged
    try:
        message = json.loads(
            line.decode("utf-8", errors="replace"), parse_int=_int, parse_constant=_constant
        )
    except RecursionError:
        raise Unjudged from None
    except ValueError:
        return None
    if not isinstance(message, dict) or "id" not in message:
        return None
    request_id = message["id"]
    readable = isinstance(request_id, str) or (
        isinstance(request_id, int) and not isinstance(request_id, bool)
    )
    if not readable:
        return None
    if "method" not in message and ("result" in message or "error" in message):
        return None
    return request_id


def cancelled_ids(line: bytes) -> set[str]:
    """The id a ``notifications/cancelled`` line names, as :func:`key` writes it."""
    try:
        message = json.loads(line.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return set()
    if not isinstance(message, dict) or message.get("method") != "notifications/cancelled":
        return set()
    params = message.get("params")
    request_id = params.get("requestId") if isinstance(params, dict) else None
    if isinstance(request_id, str) or (
        isinstance(request_id, int) and not isinstance(request_id, bool)
    ):
        return {key(request_id)}
    return set()


def candidate_ids(line: bytes) -> set[str]:
    """The ids an unjudged line may be answered under: any ``"id": value`` in it."""
    found = set()
    for match in CANDIDATE_ID.findall(line):
        with contextlib.suppress(ValueError):
            found.add(key(json.loads(match.decode("utf-8", errors="replace"))))
    return found


def key(request_id: object) -> str:
    return json.dumps(request_id)


def run_seed(seed: int, lines: int, config: Path) -> list[str]:
    rng = random.Random(seed)
    generator = Generator(rng)
    body = [json.dumps(INITIALIZE).encode(), json.dumps(INITIALIZED).encode()]
    body += [generator.line() for _ in range(lines)]
    body.append(json.dumps({"jsonrpc": "2.0", "id": "last-ping", "method": "ping"}).encode())
    stream = b"\n".join(body) + b"\n"

    expected: Counter[str] = Counter()
    maybe: set[str] = set()
    cancelled: set[str] = set()
    unjudged = 0
    for physical in stream.split(b"\n")[:-1]:
        try:
            request_id = owed(physical, generator.big_lines)
        except Unjudged:
            unjudged += 1
            maybe.update(candidate_ids(physical))
            continue
        if request_id is not None:
            expected[key(request_id)] += 1
        cancelled.update(cancelled_ids(physical))

    process = subprocess.Popen(
        [sys.executable, "-m", "rypsok", "serve", "--config", str(config)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: out.extend(process.stdout), daemon=True),
        threading.Thread(target=lambda: err.append(process.stderr.read()), daemon=True),
    ]
    for reader in readers:
        reader.start()
    started = time.monotonic()
    process.stdin.write(stream)
    process.stdin.flush()
    process.stdin.close()
    closed = time.monotonic()
    try:
        process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        return [f"seed {seed}: the server did not exit within 120 s of stdin closing"]
    exit_s = time.monotonic() - closed
    for reader in readers:
        reader.join(timeout=10)

    misses: list[str] = []
    answered: Counter[str] = Counter()
    null_answers = 0
    for raw in out:
        try:
            message = json.loads(raw)
        except ValueError:
            misses.append(f"not JSON on stdout: {raw[:120]!r}")
            continue
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            misses.append(f"not a JSON-RPC message on stdout: {raw[:120]!r}")
            continue
        if "method" in message:
            continue  # a notification or a request from the server
        if "result" not in message and "error" not in message:
            misses.append(f"neither result nor error: {raw[:120]!r}")
        if message.get("id") is None:
            null_answers += 1
        else:
            answered[key(message["id"])] += 1
    for request_id, count in expected.items():
        # a request cancelled while in flight is owed no answer (MCP: the receiver does not
        # answer it); one cancelled after its answer was written has had it
        least = count - 1 if request_id in cancelled else count
        if not least <= answered[request_id] <= count:
            misses.append(f"id {request_id}: owed {count} answer(s), got {answered[request_id]}")
    for request_id, count in answered.items():
        if request_id == key("init"):
            continue
        if request_id not in expected and request_id in maybe and count == 1:
            continue
        if request_id not in expected:
            misses.append(f"id {request_id}: answered {count} time(s), owed none")
    if answered[key("last-ping")] != 1:
        misses.append("the last ping was not answered")
    if process.returncode != 0:
        misses.append(f"exit status {process.returncode}")
    if exit_s > EXIT_WITHIN_S:
        misses.append(f"exited {exit_s:.1f} s after stdin closed")
    log_bytes = len(b"".join(err))
    print(
        f"seed {seed}: {len(body)} lines ({len(stream) / 2**20:.1f} MiB) written in "
        f"{closed - started:.1f} s; {sum(expected.values())} owed an answer, "
        f"{sum(answered.values())} answered by id, {null_answers} with id null, "
        f"{unjudged} unjudged; exit {exit_s:.2f} s after stdin closed; log {log_bytes} bytes; "
        f"{'OK' if not misses else f'{len(misses)} MISSES'}"
    )
    return misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--lines", type=int, default=400)
    parser.add_argument("--quick", action="store_true", help="one seed (1)")
    args = parser.parse_args()
    if args.quick:
        args.seeds = args.seeds[:1]
    sys.path.insert(0, str(ROOT))
    failed = False
    with tempfile.TemporaryDirectory() as directory:
        config = config_file(Path(directory))
        for seed in args.seeds:
            misses = run_seed(seed, args.lines, config)
            for miss in misses[:20]:
                print("  " + miss)
            failed = failed or bool(misses)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
