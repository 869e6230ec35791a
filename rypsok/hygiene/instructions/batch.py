"""The instruction-like check of many short texts at once (a search's titles and snippets):
the same decisions as ``is_instruction_like`` on each, with one trigger scan and one scorer scan
for the whole batch instead of two per text. Most titles and snippets wake no rule, and for
them the scans are most of the check's cost."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence

from rypsok.hygiene.instructions import detector, scorer

# Joins the folded texts for one trigger scan. No trigger holds it, so no trigger found crosses
# from one text into the next, and next to a trigger it is no word character, as a text's end.
_JOIN = "\x00"


def instruction_like_flags(texts: Sequence[str]) -> list[bool]:
    """``[is_instruction_like(text) for text in texts]``, found together."""
    prepared = [detector._prepare(text) for text in texts]
    folded_texts = [folded for folded, _ in prepared]
    if any(_JOIN in folded for folded in folded_texts):
        return [detector.is_instruction_like(text) for text in texts]
    starts = list(itertools.accumulate((len(f) + 1 for f in folded_texts[:-1]), initial=0))
    hits: list[detector.TriggerHits] = [[] for _ in texts]
    for trigger, start, end in detector.trigger_hits(_JOIN.join(folded_texts)):
        slot = bisect.bisect_right(starts, start) - 1
        offset = starts[slot]
        hits[slot].append((trigger, start - offset, end - offset))
    flags = [False] * len(texts)
    to_score: list[int] = []
    for slot, (folded, original) in enumerate(prepared):
        rejected: list[str] = []
        # Without a trigger no rule wakes, nothing is rejected and no role line is seen.
        if hits[slot] and detector.find_by_rules(folded, original, rejected, hits[slot]):
            flags[slot] = True
        elif not rejected and folded.strip():
            to_score.append(slot)
    for slot, flagged in zip(
        to_score, scorer.flags([folded_texts[i] for i in to_score]), strict=True
    ):
        flags[slot] = flagged
    return flags
