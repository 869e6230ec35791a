"""Per-query cost of the secrets check (rypsok/hygiene/secrets/): this checkout against a
baseline revision of the same code, measured in one run with the rounds interleaved.

    python bench/secret_checks.py [--quick] [--baseline-rev main] [--rounds N]

The baseline is ``git archive <rev> rypsok`` unpacked in a temporary folder. Each round starts
one worker process per side (so each imports its own ``rypsok``); a worker times every corpus
(the fastest of a few passes, microseconds per call) and prints the figures as JSON. The table
gives the median over rounds and the ratio this checkout / baseline (1.00 = same cost).

Corpora (all built here; nothing secret-shaped is stored):
- plain: ordinary 400-character queries (prose, dotted names, hex ids, a URL): the hot path.
- near_miss: 400 characters packed with what the detectors react to (password, token=,
  Bearer, AKIA, %-escapes, key-, Q~, dotted base64) but no secret.
- with_secret: a query holding one token of a known format.
- url: find_url_secrets on ordinary URLs with query strings.
- url_key_param: the same URLs with an ordinary ``&key=ArrowUp`` (a name that now asks
  whether its value looks random).
"""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common as c

_PROSE = (
    "how do I fix the error in release 2.14.3 of numpy.linalg when the matrix is singular, "
    "commit 3f786850e387550fdab836ed7e6dc881de23001b changed it; see docs.python.org/3/library "
    "and the thread at https://stackoverflow.com/questions/12345678/why-is-this-slow?sort=votes "
    "Donaudampfschifffahrtsgesellschaft 550e8400-e29b-41d4-a716-446655440000 ISBN 978-3-16-148410-0 "
)
_NEAR = (
    "password reset token=hello Bearer abc AKIA key-value Q~ api_key: where %20%2F%5F "
    "MTIz.abc.def sk-learn hf_transfer npm_config_cache xoxo GOCSPX prefix Basic income "
)


def _rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def corpora() -> dict[str, list[str]]:
    rng = random.Random(5)
    alnum = string.ascii_letters + string.digits
    plain, near, secret, urls = [], [], [], []
    for i in range(40):
        words = _PROSE.split()
        rng.shuffle(words)
        plain.append(" ".join(words)[:400])
        pieces = _NEAR.split()
        rng.shuffle(pieces)
        near.append(" ".join(pieces * 3)[:400])
        token = (
            "gh" + "p_" + _rand(rng, alnum, 36) if i % 2 else "AI" + "za" + _rand(rng, alnum, 35)
        )
        secret.append(f"why does {token} fail with 401 in {words[i % len(words)]}")
        urls.append(
            f"https://example.org/a/b-{i}/page.html?q=climate+change&page={i}&sort=date"
            f"&utm_source=newsletter#section-{i}"
        )
    keyed = [url.replace("#", "&key=ArrowUp#") for url in urls]
    return {
        "plain": plain,
        "near_miss": near,
        "with_secret": secret,
        "url": urls,
        "url_key_param": keyed,
    }


def worker(passes: int) -> None:
    from rypsok.hygiene.secrets import find_secrets, find_url_secrets

    figures = {}
    for name, texts in corpora().items():
        find = find_url_secrets if name.startswith("url") else find_secrets
        for text in texts:
            find(text)
        best = float("inf")
        for _ in range(passes):
            started = time.perf_counter()
            for text in texts:
                find(text)
            best = min(best, time.perf_counter() - started)
        figures[name] = best / len(texts) * 1e6
    print(json.dumps(figures))


def run_worker(source: Path, passes: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(passes)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=source,
    )
    return json.loads(done.stdout)


def main() -> None:
    args = c.arguments(
        __doc__.splitlines()[0],
        baseline_rev=(str, "main", "git revision whose rypsok/ is the baseline"),
        rounds=(int, 6, "interleaved rounds"),
    )
    rounds = 2 if args.quick else args.rounds
    passes = 5 if args.quick else 20
    c.header(
        "secrets check: microseconds per call, this checkout / baseline",
        f"python bench/secret_checks.py --baseline-rev {args.baseline_rev} --rounds {rounds}",
    )
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "archive", args.baseline_rev, "rypsok"],
            cwd=c.ROOT,
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        current: list[dict[str, float]] = []
        baseline: list[dict[str, float]] = []
        for _ in range(rounds):
            current.append(run_worker(c.ROOT, passes))
            baseline.append(run_worker(Path(folder), passes))
    rows = []
    for name in current[0]:
        now = c.median([figures[name] for figures in current])
        before = c.median([figures[name] for figures in baseline])
        rows.append([name, f"{before:.1f}", f"{now:.1f}", f"{now / before:.2f}"])
    c.table(["corpus", f"baseline {args.baseline_rev} µs", "this µs", "ratio"], rows)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
