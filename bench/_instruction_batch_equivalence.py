"""The batch instruction check held to the check of each text alone, on other people's texts.

    python bench/_instruction_batch_equivalence.py [--shared ../shared/bench] [--seed N]

Every set of ``SHARED/injection*/`` (prompt injections and clean pages; at most 3,000 rows of
each) gives texts: each row's first 600 characters, and up to 8 pieces of about 120 and of
about 250 characters (a title's and a snippet's length) of a longer one; each as the
sanitizer leaves it for the check (``clean_result_text``) and as written. They are shuffled
and checked by ``instruction_like_flags`` in batches of 1 to 80, in three orders, against
``is_instruction_like`` of each. Prints the number of texts, of flagged ones and of batches
that differ (0 expected). Not run by ``just bench``: the sets live outside the repository.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from _instruction_data import pieces

from rypsok.hygiene.instructions import instruction_like_flags, is_instruction_like
from rypsok.hygiene.text import clean_result_text


def texts_of(shared: Path, rng: random.Random) -> list[str]:
    texts: list[str] = []
    for path in sorted(shared.glob("injection*/**/*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            rows = [json.loads(line) for line in lines if line.strip()]
        for row in rng.sample(rows, min(len(rows), 3000)):
            text = row.get("text")
            if not isinstance(text, str) or not text:
                continue
            texts.append(text[:600])
            if len(text) > 600:
                for size in (120, 250):
                    cut = pieces(text, size)
                    texts += rng.sample(cut, min(len(cut), 8))
    return [clean_result_text(text, "")[0] for text in texts] + texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared/bench"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = texts_of(args.shared, rng)
    alone = [is_instruction_like(text) for text in texts]
    print(f"{len(texts)} texts, {sum(alone)} flagged alone")
    differing = 0
    order = list(range(len(texts)))
    for _ in range(3):
        rng.shuffle(order)
        start = 0
        while start < len(order):
            batch = order[start : start + rng.choice([1, 2, 10, 40, 40, 80])]
            start += len(batch)
            if instruction_like_flags([texts[i] for i in batch]) != [alone[i] for i in batch]:
                differing += 1
                print("differs:", [texts[i][:80] for i in batch][:3])
    print(f"batches that differ from each text alone: {differing}")


if __name__ == "__main__":
    main()
