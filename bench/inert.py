"""What making a plain-text or Markdown page inert costs (issue 17, item 5), against the
cleaner every page already goes through, in the same run.

    python bench/inert.py [--megabytes N]

Three 5 MB documents: prose with no ``<`` or ``[`` (the common case), Markdown dense with
links and tags, and the same with an escaped ``\\<`` in every sentence (the second pass).
Each figure is the best of five; the ratio is to ``clean_content`` on the same text.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from rypsok.hygiene.text import clean_content
from rypsok.webfetch.extract import inert

SENTENCES = {
    "prose": "Some ordinary words of a plain text document, with nothing to escape here. ",
    "markup": "A [link](https://a.test/x) and <b>bold</b>, ![i](/p.png), <https://a.test/>. ",
    "escaped": "A [link](https://a.test/x), an escaped \\<b> and an escaped \\[x\\] here. ",
}


def best_of(function: Callable[[str], object], text: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function(text)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--megabytes", type=float, default=5.0)
    size = int(parser.parse_args().megabytes * 1_000_000)
    print(f"{'document':<10} {'clean_content s':>16} {'inert s':>9} {'ratio':>7}")
    for name, sentence in SENTENCES.items():
        text = (sentence * (size // len(sentence) + 1))[:size]
        cleaning = best_of(clean_content, text)
        making_inert = best_of(inert, text)
        print(f"{name:<10} {cleaning:>16.3f} {making_inert:>9.3f} {making_inert / cleaning:>7.2f}")


if __name__ == "__main__":
    main()
