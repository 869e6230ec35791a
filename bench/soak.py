"""Soak: many searches against six engines that fail at random, picked per request by the
server (hang, 429, 500, garbage, reset, slow answer, good answer), a fixed number in
flight at any time, with a short deadline and a breaker that opens and closes now and then.

The default of 10 in flight stays within what one core parses and merges in a deadline
(about 18 ms of CPU per search here); far more in flight than that and searches wait for
the CPU past their deadline, breakers open, and the run turns into rate_limited refusals.

Asserts that no exception escapes (every call ends in a response or a ToolError), that
memory and open file descriptors stay flat (RSS at start, middle and end), and that every
call ends within the deadline plus 300 ms (the spec); prints the largest overrun.

    python bench/soak.py [--quick] [--searches N] [--concurrency C] [--deadline-ms MS]

Exits 1 if an assertion fails.
"""

from __future__ import annotations

import collections
import gc
import random

import _common as c
import anyio
import trio
from _servers import GENERAL_ENGINES, Play, PlayServer, answer_play

SPEC_SLACK_S = 0.3
GOAL_S = 0.05
RSS_GROWTH_LIMIT = 16 << 20
"""Allowed growth of RSS from the middle of the run to its end."""


def engine_plays(engine: str, deadline_s: float) -> list[tuple[float, Play]]:
    garbage = bytes(random.Random(engine).randrange(256) for _ in range(2000))
    return [
        (60, answer_play(engine)),
        (8, Play(**{**vars(answer_play(engine, delay_s=deadline_s * 0.6)), "label": "slow"})),
        (6, Play(**{**vars(answer_play(engine, delay_s=deadline_s * 2)), "label": "too slow"})),
        (8, Play(mode="hang")),
        (7, Play(status=429, body=b'{"error": "slow down"}', label="429")),
        (1, Play(status=429, headers=(("Retry-After", "1"),), label="429 retry-after")),
        (8, Play(status=500, body=b"internal error", content_type="text/plain", label="500")),
        (8, Play(body=garbage, content_type=_content_type(engine), label="garbage")),
        (8, Play(mode="reset")),
    ]


def _content_type(engine: str) -> str:
    from _servers import engine_content_type

    return engine_content_type(engine)


class Tally:
    def __init__(self) -> None:
        self.outcomes: collections.Counter[str] = collections.Counter()
        self.engine_reasons: collections.Counter[str] = collections.Counter()
        self.escaped: list[str] = []
        self.overruns: list[float] = []
        self.refused = 0
        """Attempts refused ``busy`` and asked again."""


async def one_search(client, i: int, deadline_s: float, tally: Tally) -> None:
    """One search, asked again after ``busy`` (admission refuses what would end late: a
    refusal is counted, not soaked); the time of the attempt that was let in."""
    from rypsok import ToolError

    while True:
        start = c.clock()
        try:
            response = await client.search(f"soak query {i}", max_results=20)
        except ToolError as exc:
            if c.is_busy(exc):
                tally.refused += 1
                await anyio.sleep(c.BUSY_WAIT_S)
                continue
            tally.outcomes[f"ToolError {exc.kind} {exc.detail.get('reason', '')}".strip()] += 1
        except Exception as exc:
            tally.escaped.append(repr(exc))
        else:
            tally.outcomes[response.outcome] += 1
            for notice in response.notices:
                if notice.code in ("engine_unavailable", "engine_skipped"):
                    tally.engine_reasons[f"{notice.code} {notice.reason}"] += 1
        tally.overruns.append(c.clock() - start - deadline_s)
        return


def snapshot() -> tuple[int, int]:
    import psutil

    gc.collect()
    process = psutil.Process()
    return process.memory_info().rss, process.num_fds()


async def soak(config, searches: int, concurrency: int) -> tuple[Tally, dict[str, tuple[int, int]]]:
    """``searches`` calls, ``concurrency`` in flight; RSS and fds after the first
    ``concurrency`` calls, at half way and at the end."""
    from rypsok import Client

    deadline_s = config.search.deadline_ms / 1000
    tally = Tally()
    marks: dict[str, tuple[int, int]] = {}
    numbers = iter(range(searches))
    marking = {concurrency: "start", searches // 2: "middle"}

    async def worker() -> None:
        for i in numbers:
            if i in marking:
                marks[marking[i]] = snapshot()
            await one_search(client, i, deadline_s, tally)

    async with Client(config) as client:
        async with anyio.create_task_group() as group:
            for _ in range(concurrency):
                group.start_soon(worker)
        marks["end"] = snapshot()
    return tally, {name: marks[name] for name in ("start", "middle", "end")}


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        searches=(int, None, "searches (default 20000, 2000 with --quick)"),
        concurrency=(int, 10, "searches in flight"),
        deadline_ms=(int, 150, "[search] deadline_ms"),
    )
    searches = args.searches or (2000 if args.quick else 20000)
    deadline_s = args.deadline_ms / 1000
    c.header(
        "soak: searches against engines failing at random",
        f"python bench/soak.py{' --quick' if args.quick else ''}",
    )
    plays = {e: engine_plays(e, deadline_s) for e in GENERAL_ENGINES}
    started = c.clock()
    with PlayServer(plays, seed=20261024) as server:
        config = c.library_config(
            c.config_data(
                server,
                GENERAL_ENGINES,
                search={"deadline_ms": args.deadline_ms, "max_concurrent": 4 * args.concurrency},
                breaker={"failures": 8, "cooldown_s": 0.1, "max_cooldown_s": 0.2},
            )
        )
        tally, marks = trio.run(soak, config, searches, args.concurrency)
    took = c.clock() - started
    served = collections.Counter()
    for key, count in server.tally.items():
        served[key.split(":", 1)[1]] += count
    print(
        f"{searches} searches, {args.concurrency} in flight, deadline {args.deadline_ms} ms, "
        f"{took:.0f} s ({searches / took:.0f} searches/s)"
    )
    print("engine answers served: " + ", ".join(f"{k} {v}" for k, v in served.most_common()))
    print(f"attempts refused busy and asked again: {tally.refused}")
    print("call outcomes:")
    for outcome, count in tally.outcomes.most_common():
        print(f"  {count:6d}  {outcome}")
    print("engine notices:")
    for reason, count in tally.engine_reasons.most_common():
        print(f"  {count:6d}  {reason}")
    c.table(
        ["point", "RSS MiB", "open fds"],
        [[name, c.mib(rss), fds] for name, (rss, fds) in marks.items()],
    )
    overruns = tally.overruns
    c.table(
        ["call time - deadline, ms", "median", "p99", "p99.9", "max"],
        [
            [
                "",
                c.ms(c.median(overruns)),
                c.ms(c.percentile(overruns, 99)),
                c.ms(c.percentile(overruns, 99.9)),
                c.ms(max(overruns)),
            ]
        ],
    )
    late = sum(o > GOAL_S for o in overruns)
    print(f"calls more than 50 ms past the deadline: {late} of {len(overruns)}")
    c.verdict("max overrun", max(overruns) * 1000, GOAL_S * 1000, "ms")
    growth = marks["end"][0] - marks["middle"][0]
    checks = {
        "every call ended in a response or a ToolError": not tally.escaped
        and len(overruns) == searches,
        "every call within deadline + 300 ms": max(overruns) <= SPEC_SLACK_S,
        f"RSS growth middle->end under {c.mib(RSS_GROWTH_LIMIT)} MiB ({c.mib(growth)} MiB)": (
            growth < RSS_GROWTH_LIMIT
        ),
        "open fds flat (end <= middle + 8)": marks["end"][1] <= marks["middle"][1] + 8,
    }
    for text, ok in checks.items():
        print(f"check {text}: {'yes' if ok else 'NO'}")
    for escaped in tally.escaped[:10]:
        print(f"escaped: {escaped}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
