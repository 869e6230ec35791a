"""What judging a text/markdown or text/plain page costs (issue 25), against the cleaner
every page already goes through, in the same run.

    python bench/text_pages.py [--megabytes N]

Five documents of N MB (5 by default): prose with no ``<`` or ``[`` (the common plain
text: nothing to parse), a README written large (``bench/fetch.py``'s Markdown page: links
absolute, relative and by reference, images, code, raw HTML, a few javascript: links),
Markdown dense with links and tags on every line, hostile Markdown (javascript: links,
raw HTML, nested brackets freed when the inner link goes: two readings), and nested
brackets deep enough that the judging gives up and escapes the page whole (the fallback).
Each figure is the best of three; the ratio is to ``clean_content`` on the same text.
``commonmark.inert`` (the old rule, now the fallback) is timed too.
"""

from __future__ import annotations

import argparse

from _common import best_of
from fetch import markdown_page as readme

from rypsok.hygiene.text import clean_content
from rypsok.webfetch.extract import inert, markdown_page, plain_text_page

PAGE_URL = "https://example.org/docs/readme.md"
SENTENCES = {
    "prose": "Some ordinary words of a plain text document, with nothing to escape here. ",
    "dense": "A [link](https://a.test/x) and [rel](/y) <b>bold</b>, ![i](/p.png), <https://a.test/>. ",
    "hostile": "[a](javascript:x) <script>y</script> [b [c](javascript:z)](data:w) text.\n\n",
    "fallback": "[" * 40 + "a" + "](javascript:x)" * 40 + "\n\n",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--megabytes", type=float, default=5.0)
    parser.add_argument("--quick", action="store_true", help="documents of 1 MB")
    args = parser.parse_args()
    size = int((1.0 if args.quick else args.megabytes) * 1_000_000)
    texts = {name: (s * (size // len(s) + 1))[:size] for name, s in SENTENCES.items()}
    texts = {"prose": texts.pop("prose"), "readme": readme(size).decode(), **texts}
    print(f"# {size:,} characters each; seconds, best of 3; ratio to clean_content")
    header = ["document", "clean_content", "markdown", "ratio", "plain", "ratio", "inert", "ratio"]
    print("".join(f"{h:>14}" for h in header))
    for name, text in texts.items():
        cleaning = best_of(3, lambda text=text: clean_content(text))
        judged = best_of(3, lambda text=text: markdown_page(text, PAGE_URL))
        plain = best_of(3, lambda text=text: plain_text_page(text))
        escaped = best_of(3, lambda text=text: inert(text))
        row = [cleaning, judged, judged / cleaning, plain, plain / cleaning]
        row += [escaped, escaped / cleaning]
        print(f"{name:>14}" + "".join(f"{value:>14.3f}" for value in row))


if __name__ == "__main__":
    main()
