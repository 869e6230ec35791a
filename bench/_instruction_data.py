"""The data the instruction-like scorer is trained and judged on (bench/_train_instructions.py).

Every text comes from two folders beside the repository, read-only and pinned by their own
SOURCES.md files: ``../shared/bench/injection`` (Tensor Trust, deepset, InjecAgent, and the clean
WCXB, ScrapingHub and BIPIA texts) and ``../shared/bench/injection-more`` (eight more sources of
attacks and seven of hard negatives). Each text keeps its source and its group (the template or
page it was built from): splits go by group, never by row.

Clean text is dealt into four folds by a stable hash of its group: folds 0 and 1 train, fold 2
chooses the threshold, fold 3 is only ever measured. ScrapingHub and BIPIA's contexts are never
trained on nor used to choose anything.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import pathlib
from dataclasses import dataclass

from _common import SHARED_BENCH

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = SHARED_BENCH
INJECTION = SHARED / "injection"
MORE = SHARED / "injection-more"

PIECE = 300
TRAIN_FOLDS = (0, 1)
THRESHOLD_FOLD = 2
REPORT_FOLD = 3

MORE_POSITIVES = (
    "cyberseceval",
    "garak",
    "spikee",
    "promptinject",
    "latent_jailbreak",
    "pyrit",
    "garak_multilingual",
    "gptfuzz",
)
HARD_NEGATIVES = (
    "tldr",
    "fastapi_docs",
    "homebrew_docs",
    "uv_docs",
    "flask_docs",
    "poetry_docs",
    "spikee_benign",
)
# Positive sources of ../shared/bench/injection, deepset's split by its own language tag.
DEV_POSITIVES = (
    "tensortrust_hijacking",
    "tensortrust_extraction",
    "deepset_en",
    "deepset_de",
    "injecagent",
)
# Sources the leave-one-source-out run holds out in turn (deepset's 21 texts in other
# languages always train).
HELD_OUT_SOURCES = MORE_POSITIVES + DEV_POSITIVES


@dataclass(frozen=True, slots=True)
class Text:
    text: str
    source: str
    group: str
    label: bool
    # What the trainer's feature filter counts as a source ("in the attacks of four sources"):
    # the source itself, or for the texts written for this project the family of attack, so
    # that a word used by four families of attack counts as the technique's, not a template's.
    filter_source: str = ""
    # The language of a text written for this project (its clean and attack texts of one
    # language are weighed alike in training, see _train_instructions.sample_weights).
    language: str = ""

    @property
    def counted_as(self) -> str:
        return self.filter_source or self.source


def fold_of(group: str) -> int:
    """A stable fold (0 to 3) for a group: blake2b, not Python's salted hash."""
    return hashlib.blake2b(group.encode("utf-8"), digest_size=4).digest()[0] % 4


def pieces(text: str, size: int = PIECE) -> list[str]:
    """Pieces of at least ``size`` characters cut at spaces: by default ~300, as
    ../shared/bench/injection/evaluate.py cuts pages into search snippets."""
    out: list[str] = []
    words: list[str] = []
    length = 0
    for word in text.split():
        words.append(word)
        length += len(word) + 1
        if length >= size:
            out.append(" ".join(words))
            words, length = [], 0
    if words:
        out.append(" ".join(words))
    return out


def _rows(path: pathlib.Path) -> list[dict]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def positives() -> list[Text]:
    out: list[Text] = []
    for source in MORE_POSITIVES:
        for row in _rows(MORE / f"pos.{source}.jsonl"):
            out.append(Text(row["text"], source, f"{source}:{row['group']}", True))
    for name in ("tensortrust_hijacking", "tensortrust_extraction", "injecagent_enhanced"):
        source = name.removesuffix("_enhanced")
        for row in _rows(INJECTION / "positives" / f"{name}.jsonl"):
            out.append(Text(row["text"], source, row["id"], True))
    for row in _rows(INJECTION / "positives" / "deepset_injection_train.jsonl"):
        lang = row["lang"] if row["lang"] in ("en", "de") else "other"
        out.append(Text(row["text"], f"deepset_{lang}", row["id"], True))
    return out


def clean(with_trafilatura: bool = False) -> list[Text]:
    """Every clean text: the hard negatives, deepset's benign prompts, the web pages (and
    trafilatura's pages when asked: tried, not shipped, docs/instruction-like.md)."""
    out: list[Text] = []
    for source in HARD_NEGATIVES:
        file = "spikee" if source == "spikee_benign" else source
        for row in _rows(MORE / f"neg.{file}.jsonl"):
            # tldr's group is a whole language folder and spikee's one file: their pages are
            # independent, so they are dealt by page.
            group = row["id"] if source in ("tldr", "spikee_benign") else row["group"]
            out.append(Text(row["text"], source, f"{source}:{group}", False))
    for name in (
        "deepset_benign_train",
        "wcxb_dev_pages",
        "scrapinghub_pages",
        "bipia_email_contexts",
        "bipia_table_contexts",
        "bipia_code_contexts",
    ):
        for row in _rows(INJECTION / "clean" / f"{name}.jsonl"):
            out.append(Text(row["text"], name, row["id"], False))
    if with_trafilatura:
        out.extend(trafilatura_pages())
    # InjecAgent's base tool responses: the frames of its attacks carrying a bare task, which
    # addresses no model (out of scope): they teach the scorer that the frame is not the attack.
    for row in _rows(INJECTION / "out-of-scope" / "injecagent_base.jsonl"):
        out.append(Text(row["text"], "injecagent_base", row["id"], False))
    return out


TRAFILATURA = SHARED / "trafilatura-eval" / "data" / "trafilatura" / "html"


def trafilatura_pages() -> list[Text]:
    """trafilatura's 990 evaluation pages (about 44% German, many Polish and Austrian) as
    rypsok's extractor renders them, the text web_fetch would check: web text in the languages
    the WCXB pages have little of, dealt into folds by page like them."""
    from rypsok.webfetch.extract import extract_html

    out: list[Text] = []
    for path in sorted(TRAFILATURA.glob("*.html.gz")):
        html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        text = extract_html(html, "https://example.org/").markdown
        if text.strip():
            page = path.name.removesuffix(".html.gz")
            out.append(Text(text, "trafilatura_pages", f"trafilatura:{page}", False))
    return out


# Clean sources that share a positive source's frames, left out when that source is held out.
FRAMES_OF = {"injecagent": "injecagent_base"}
NEVER_TRAINED = frozenset(
    {"scrapinghub_pages", "bipia_email_contexts", "bipia_table_contexts", "bipia_code_contexts"}
)
PAGES = frozenset({"wcxb_dev_pages", "scrapinghub_pages", "trafilatura_pages"})


FIXTURE = ROOT / "tests" / "fixtures" / "instruction_like.jsonl"
SYNTHETIC = sorted((ROOT / "bench" / "data").glob("instruction_synthetic_*.jsonl"))


def synthetic(by_language: bool = False, one_source: bool = False) -> list[Text]:
    """Attacks and hard clean texts written for this project to train on, in many languages
    (bench/data/SYNTHETIC.md). Never measured as a held-out source: the held-out figures are
    the public sources' and bench/instruction_probes.py's. Groups (a writing batch) go to one
    fold each, as every other source's do. ``by_language``: the attacks of each language weigh
    as a source of their own (tried, not shipped). ``one_source``: the feature filter counts
    every written attack as one source ("synthetic") instead of one per family, so that a
    word the writers used and fewer than three public sources did is not kept."""
    out: list[Text] = []
    for path in SYNTHETIC:
        for row in _rows(path):
            attack = row["label"] == "attack"
            out.append(
                Text(
                    row["text"],
                    ("synthetic" + (f"_{row['language']}" if by_language else ""))
                    if attack
                    else "synthetic_clean",
                    f"synthetic:{row['group']}",
                    attack,
                    f"synthetic:{row['family']}" if attack and not one_source else "",
                    row["language"],
                )
            )
    return out


TRANSLATIONS = ROOT / "bench" / "data" / "instruction_translations_clean.jsonl"


def translations() -> list[Text]:
    """Translated software messages and man-page paragraphs of a Debian machine in the languages
    of the texts written to train on, a pinned sample (bench/instruction_translations.py
    --write-sample; bench/data/TRANSLATIONS.md): ordinary text in languages the benchmark
    folders hold almost none of, so that a language's own words are not an attack's. Each text
    is its own group."""
    return [
        Text(row["text"], "translations", f"translations:{row['id']}", False, "", row["language"])
        for row in _rows(TRANSLATIONS)
    ]


def fixture() -> list[Text]:
    """The project's own labelled set (tests/fixtures/instruction_like.jsonl, written by hand:
    attacks, and ordinary text about prompts, chatbots and injection, which no other clean
    source has). Its dev split trains (source "fixture"); the ordinary texts of its heldout and
    challenge splits help choose the threshold (source "fixture_ordinary")."""
    out: list[Text] = []
    for row in _rows(FIXTURE):
        if row["split"] == "dev":
            out.append(Text(row["text"], "fixture", f"fixture:{row['text']}", row["label"]))
        elif not row["label"]:
            out.append(Text(row["text"], "fixture_ordinary", row["text"], False))
    return out


def input_digests(
    with_synthetic: bool = False, with_trafilatura: bool = False, with_translations: bool = False
) -> dict[str, str]:
    """sha256 of every input file: the pinned inputs a training run names in its output."""
    files = sorted(INJECTION.glob("*/*.jsonl")) + sorted(MORE.glob("*.jsonl"))
    digests = {
        str(path.relative_to(SHARED)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in files
    }
    if with_trafilatura:
        pages = hashlib.sha256()
        for path in sorted(TRAFILATURA.glob("*.html.gz")):
            pages.update(path.name.encode() + hashlib.sha256(path.read_bytes()).digest())
        digests[f"{TRAFILATURA.relative_to(SHARED)}/*.html.gz"] = pages.hexdigest()
    extra = (
        *(SYNTHETIC if with_synthetic else ()),
        *((TRANSLATIONS,) if with_translations else ()),
    )
    for path in (FIXTURE, *extra):
        digests[str(path.relative_to(ROOT))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests
