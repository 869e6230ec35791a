"""Merging engine answers: canonical-key dedup, https preferred, reciprocal rank fusion.

Pure: engine answers in, merged results and the notices about them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rypsok.engines.base import RawResult
from rypsok.hygiene import instructions, text, urls
from rypsok.model import Notices, Result
from rypsok.net.egress import EgressPolicy

RRF_K = 60


@dataclass(frozen=True)
class EngineAnswer:
    engine: str
    weight: float
    attribution: bool
    results: Sequence[RawResult]


@dataclass
class Appearance:
    engine: str
    rank: int
    url: str
    result: RawResult


@dataclass
class Merged:
    key: str
    appearances: list[Appearance] = field(default_factory=list)
    score: float = 0.0

    @property
    def best(self) -> Appearance:
        if len(self.appearances) == 1:
            return self.appearances[0]
        return min(self.appearances, key=lambda a: (a.rank, a.engine))

    @property
    def shown_url(self) -> str:
        if len(self.appearances) == 1:
            return self.appearances[0].url
        https = [a for a in self.appearances if a.url.lower().startswith("https:")]
        return min(https or self.appearances, key=lambda a: (a.rank, a.engine)).url

    @property
    def date(self) -> str | None:
        if len(self.appearances) == 1:
            return self.appearances[0].result.date or None
        for appearance in sorted(self.appearances, key=lambda a: (a.rank, a.engine)):
            if appearance.result.date:
                return appearance.result.date
        return None

    @property
    def engines(self) -> list[str]:
        if len(self.appearances) == 1:
            return [self.appearances[0].engine]
        return sorted({a.engine for a in self.appearances})


def fuse(answers: Sequence[EngineAnswer], policy: EgressPolicy, notices: Notices) -> list[Merged]:
    """Deduplicate and rank; results with bad URLs are dropped and counted."""
    merged: dict[str, Merged] = {}
    weights = {a.engine: a.weight for a in answers}
    judged: dict[str, tuple[str | None, str, str]] = {}
    for answer in answers:
        engine = answer.engine
        seen_here: set[str] = set()
        for rank, raw in enumerate(answer.results, start=1):
            verdict = judged.get(raw.url)
            if verdict is None:
                # Engines often agree on a URL: a search judges each distinct one once.
                verdict = judged[raw.url] = urls.judge_result_url(raw.url, policy)
            problem, url, key = verdict
            if problem is not None:
                notices.count("results_dropped", reason=problem)
                continue
            if key in seen_here:
                continue
            seen_here.add(key)
            entry = merged.get(key)
            if entry is None:
                entry = merged[key] = Merged(key)
            entry.appearances.append(Appearance(engine, rank, url, raw))
    for entry in merged.values():
        appearances = entry.appearances
        if len(appearances) == 1:
            only = appearances[0]
            entry.score = weights[only.engine] / (RRF_K + only.rank)
        else:
            entry.score = sum(weights[a.engine] / (RRF_K + a.rank) for a in appearances)
    if len(answers) == 1:
        # One engine's results, each key once, came in rank order, and their scores never
        # rise with the rank (a weight is not negative): the order the sort would give.
        return list(merged.values())
    return sorted(merged.values(), key=lambda m: (-m.score, m.best.rank, m.best.engine))


def finish(
    ranked: Sequence[Merged],
    max_results: int,
    *,
    attribution: bool,
    attributed_engines: frozenset[str],
    drop_instruction_like: bool,
    notices: Notices,
) -> list[Result]:
    """Clean and bound the best ``max_results`` results, flagging or dropping instruction-like ones."""
    results: list[Result] = []
    position = 0
    while len(results) < max_results and position < len(ranked):
        # Enough entries to fill the results if none is dropped, checked together.
        batch = ranked[position : position + max_results - len(results)]
        position += len(batch)
        cleaned = [
            text.clean_result_text(entry.best.result.title, entry.best.result.snippet)
            for entry in batch
        ]
        flags = _instruction_like_pairs(cleaned)
        for entry, flagged, (_, _, title, snippet) in zip(batch, flags, cleaned, strict=True):
            if flagged:
                if drop_instruction_like:
                    notices.count("results_dropped", reason="instruction_like_content")
                    continue
                notices.count("instruction_like_content")
            # (Notices.count ignores a count of 0: most results leave these out.)
            if title.removed or snippet.removed:
                notices.count("characters_removed", title.removed + snippet.removed)
            if title.truncated:
                notices.count("title_truncated")
            if snippet.truncated:
                notices.count("snippet_truncated")
            engines = entry.engines
            show_engines = attribution or bool(attributed_engines.intersection(engines))
            results.append(
                Result(
                    title=title.text,
                    url=entry.shown_url,
                    snippet=snippet.text,
                    date=entry.date,
                    engines=engines if show_engines else None,
                )
            )
    return results


def _instruction_like_pairs(
    cleaned: Sequence[tuple[str, str, text.Cleaned, text.Cleaned]],
) -> list[bool]:
    """Whether each result's title or snippet is instruction-like, judged on the text with
    invisible characters removed but line breaks kept (``text.clean_result_text``): chat-turn
    markers ("\n\nHuman:") are recognised by their layout, which collapsing would erase."""
    flags = instructions.instruction_like_flags([t for c in cleaned for t in c[:2]])
    return [flags[2 * i] or flags[2 * i + 1] for i in range(len(cleaned))]
