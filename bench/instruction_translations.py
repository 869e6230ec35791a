"""Clean text in the languages of the intl_*.py rule tables, from this machine: every translated
string of the gettext catalogues (/usr/share/locale/<lang>/LC_MESSAGES/*.mo) and every man-page
paragraph of /usr/share/man/<lang>. Prints how many the rules flag, and each one.

    python bench/instruction_translations.py
    python bench/instruction_translations.py --langs hi,tr
    python bench/instruction_translations.py --write-sample   # bench/data/instruction_translations_clean.jsonl

The benchmark folders hold almost no text in these languages; software messages ("Ignore all",
"Previous rules are invalid", "Show system settings") are the nearest ordinary text at hand.
"""

from __future__ import annotations

import argparse
import collections
import gettext
import glob
import hashlib
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from instructions import roff_paragraphs  # noqa: E402

from rypsok.hygiene.instructions.detector import _prepare, find_by_rules  # noqa: E402

LANGS = (
    "hi,bn,ur,fa,ar,he,ja,ko,th,vi,id,ms,tl,fil,sw,uk,el,tr,it,pt,pt_BR,nl,pl,cs,da,fi,hr,hu,"
    "ro,sl,sr,sv,nb,nn"
)


def catalogue_strings(lang: str) -> list[str]:
    """The distinct translated strings of every catalogue of ``lang`` (and its variants)."""
    seen: set[str] = set()
    for path in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
        try:
            with open(path, "rb") as handle:
                catalog = gettext.GNUTranslations(handle)._catalog  # the parsed message table
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        seen.update(v for v in catalog.values() if isinstance(v, str) and len(v) >= 8)
    return sorted(seen)


SAMPLE = pathlib.Path(__file__).resolve().parent / "data" / "instruction_translations_clean.jsonl"
# The languages of the texts written to train on (bench/data/SYNTHETIC.md) but English, each with
# the locale names its catalogues and man pages are filed under on this machine.
SAMPLE_LANGS = {
    "ar": ("ar",), "bn": ("bn",), "cs": ("cs",), "de": ("de",), "el": ("el",), "es": ("es",),
    "fa": ("fa",), "fr": ("fr",), "he": ("he",), "hi": ("hi",), "id": ("id",), "it": ("it",),
    "ja": ("ja",), "ko": ("ko",), "nl": ("nl",), "pl": ("pl",), "pt": ("pt", "pt_BR"),
    "ro": ("ro",), "ru": ("ru",), "sv": ("sv",), "sw": ("sw",), "th": ("th",),
    "tl": ("tl", "fil"), "tr": ("tr",), "uk": ("uk",), "ur": ("ur",), "vi": ("vi",),
    "zh": ("zh_CN", "zh_TW"),
}  # fmt: skip
SAMPLE_STRINGS = 300  # per language: translated messages of at least MIN_STRING characters
SAMPLE_PARAGRAPHS = 100  # per language: man-page paragraphs of at most MAX_PARAGRAPH characters
MIN_STRING = 20
MAX_PARAGRAPH = 1200


NON_LATIN = frozenset(
    ["ar", "bn", "el", "fa", "he", "hi", "ja", "ko", "ru", "th", "uk", "ur", "zh"]
)
ENGLISH = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "and",
        "or",
        "to",
        "is",
        "are",
        "be",
        "this",
        "that",
        "with",
        "for",
        "from",
        "you",
        "your",
        "it",
        "not",
    ]
)


def _in_language(text: str, language: str) -> bool:
    """Not text left in English (an untranslated message or page filed under the language): in a
    language of another script, most letters are not ASCII; in a Latin one, English function
    words are under a tenth of the words."""
    if language in NON_LATIN:
        letters = [ch for ch in text if ch.isalpha()]
        return sum(not ch.isascii() for ch in letters) >= 0.5 * len(letters)
    words = re.findall(r"[a-z]+", text.lower())
    return sum(word in ENGLISH for word in words) < max(2, 0.1 * len(words))


def _is_prose(paragraph: str) -> bool:
    """Not a roff table: mostly letters."""
    return sum(ch.isalpha() for ch in paragraph) >= 0.6 * len(paragraph)


def _draw(texts: dict[str, str], n: int) -> list[tuple[str, str]]:
    """n of the texts (text -> where it came from), the same n on any machine holding them:
    the ones whose blake2b digest is lowest."""
    ranked = sorted(texts, key=lambda t: hashlib.blake2b(t.encode("utf-8")).digest())
    return [(t, texts[t]) for t in ranked[:n]]


def write_sample(path: pathlib.Path = SAMPLE) -> None:
    """A pinned sample of this machine's translated strings and man-page paragraphs, as clean
    training text in the languages of the texts written to train on (tried in issue 23)."""
    rows = []
    for language, locales in SAMPLE_LANGS.items():
        strings: dict[str, str] = {}
        paragraphs: dict[str, str] = {}
        for locale in locales:
            for mo in sorted(glob.glob(f"/usr/share/locale/{locale}/LC_MESSAGES/*.mo")):
                try:
                    with open(mo, "rb") as handle:
                        catalog = gettext.GNUTranslations(handle)._catalog
                except (OSError, ValueError, UnicodeDecodeError):
                    continue
                for value in catalog.values():
                    if (
                        isinstance(value, str)
                        and len(value.strip()) >= MIN_STRING
                        and _in_language(value, language)
                    ):
                        strings.setdefault(value.strip(), mo)
            for page in sorted(glob.glob(f"/usr/share/man/{locale}/man*/*.gz")):
                for paragraph in roff_paragraphs(page):
                    if (
                        len(paragraph) <= MAX_PARAGRAPH
                        and _is_prose(paragraph)
                        and _in_language(paragraph, language)
                    ):
                        paragraphs.setdefault(paragraph, page)
        for kind, drawn in (
            ("message", _draw(strings, SAMPLE_STRINGS)),
            ("man", _draw(paragraphs, SAMPLE_PARAGRAPHS)),
        ):
            for text, origin in drawn:
                digest = hashlib.blake2b(text.encode("utf-8"), digest_size=6).hexdigest()
                rows.append(
                    {
                        "id": f"{language}-{digest}",
                        "language": language,
                        "kind": kind,
                        "origin": origin,
                        "text": text,
                    }
                )
    rows.sort(key=lambda r: (r["language"], r["kind"], r["id"]))
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    by_language = collections.Counter(r["language"] for r in rows)
    print(
        f"wrote {path.name}: {len(rows)} texts, {path.stat().st_size / 1e6:.2f} MB; {dict(by_language)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", default=LANGS, help="comma-separated locale names")
    parser.add_argument("--quick", action="store_true", help="accepted for `just bench --quick`")
    parser.add_argument(
        "--write-sample",
        action="store_true",
        help=f"write the pinned sample {SAMPLE.name} and stop",
    )
    args = parser.parse_args()
    if args.write_sample:
        write_sample()
        return
    counts: collections.Counter[str] = collections.Counter()
    flagged = []
    for lang in args.langs.split(","):
        texts = catalogue_strings(lang)
        for path in sorted(glob.glob(f"/usr/share/man/{lang}/man*/*.gz")):
            texts += roff_paragraphs(path)
        counts[lang] = len(texts)
        for text in texts:
            match = find_by_rules(*_prepare(text))
            if match is not None:
                flagged.append((lang, match.rule, text[:140].replace("\n", " ")))
    print(
        f"{sum(counts.values())} strings and paragraphs: "
        + ", ".join(f"{lang} {n}" for lang, n in counts.items() if n)
    )
    print(f"flagged by the rules: {len(flagged)}")
    for lang, rule, text in flagged:
        print(f"  {lang} {rule}: {text}")


if __name__ == "__main__":
    main()
