"""Clean text in the languages of the intl_*.py rule tables, from this machine: every translated
string of the gettext catalogues (/usr/share/locale/<lang>/LC_MESSAGES/*.mo) and every man-page
paragraph of /usr/share/man/<lang>. Prints how many the rules flag, and each one.

    python bench/instruction_translations.py
    python bench/instruction_translations.py --langs hi,tr

The benchmark folders hold almost no text in these languages; software messages ("Ignore all",
"Previous rules are invalid", "Show system settings") are the nearest ordinary text at hand.
"""

from __future__ import annotations

import argparse
import collections
import gettext
import glob
import pathlib
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", default=LANGS, help="comma-separated locale names")
    parser.add_argument("--quick", action="store_true", help="accepted for `just bench --quick`")
    args = parser.parse_args()
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
