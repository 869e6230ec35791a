"""The instruction-like check of many short texts at once (a search's titles and snippets):
the same decisions as ``is_instruction_like`` on each, with one fold, one trigger scan and one
scorer scan for the whole batch instead of one of each per text. Most titles and snippets wake
no rule, or wake one only where its window holds none of the words a match needs, and for them
the scans are the whole check.

The texts are joined by a character none of them holds, which no fold changes, no trigger holds
and which is no word character: folding the joined text folds each text (``_fold`` works
character by character), no trigger found crosses from one text into the next, and next to a
trigger it counts as a text's end. A text goes the long way (``find_by_rules``, with its hits)
only when a woken rule's filter lets its stretch of text through, or it holds a role word or a
disguised word; a filter that fails on the stretch from a rule's first window to its last fails
on each of its windows, so a text it clears is one the long way would find nothing in."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from rypsok.hygiene.instructions import detector, scorer

_JOIN = "\x00"


def instruction_like_flags(texts: Sequence[str]) -> list[bool]:
    """``[is_instruction_like(text) for text in texts]``, found together."""
    if not texts:
        return []
    joined_texts = _JOIN.join(texts)
    if joined_texts.count(_JOIN) != len(texts) - 1:
        return [detector.is_instruction_like(text) for text in texts]
    if joined_texts.isascii():
        joined = detector._fold(joined_texts)
        folded_texts = joined.split(_JOIN)
    else:
        # Case folding and the rest are slower on text that is not ASCII: only on those texts.
        folded_texts = [detector._fold(text) for text in texts]
        joined = _JOIN.join(folded_texts)
    starts = list(itertools.accumulate((len(f) + 1 for f in folded_texts[:-1]), initial=0))
    kept, hulls, unfiltered = detector._GATE.woken(joined, detector.trigger_hits(joined), starts)
    flags = [False] * len(texts)
    to_score: list[int] = []
    for slot, folded in enumerate(folded_texts):
        if slot in kept and (slot in unfiltered or _may_match(joined, hulls.get(slot))):
            rejected: list[str] = []
            if detector.find_by_rules(
                folded, detector._lined_up(texts[slot], folded), rejected, kept[slot]
            ):
                flags[slot] = True
                continue
            if rejected:
                continue
        if folded and not folded.isspace():
            to_score.append(slot)
    if to_score:
        scored = scorer.flags([folded_texts[slot] for slot in to_score])
        for slot, flagged in zip(to_score, scored, strict=True):
            flags[slot] = flagged
    return flags


def _may_match(joined: str, hulls: dict[int, tuple[int, int]] | None) -> bool:
    """Whether the filter of a woken rule lets its stretch of the joined text through."""
    if not hulls:
        return False
    for rule_index, (lo, hi) in hulls.items():
        window_filter = detector._compiled_rule(rule_index).window_filter
        if window_filter is None or window_filter.may_match(joined, lo, hi):
            return True
    return False
