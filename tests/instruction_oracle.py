"""Test-only helpers for the instruction-like detector: the full-search oracle the trigger gate
must equal, and a counter over many texts."""

from __future__ import annotations

from collections.abc import Iterable

from rypsok.hygiene.instructions import (
    InstructionLikeMatch,
    detector,
    is_instruction_like,
    obfuscation,
    scorer,
)


def find_by_full_search(text: str) -> InstructionLikeMatch | None:
    """Every rule over the whole text, no trigger gate, then the learned scorer: the reference
    the gate must equal."""
    folded, original = detector._prepare(text)
    rejected: list[str] = []
    for reading, aligned in [(folded, original)] + [
        (r, None) for r in obfuscation.readings(folded)
    ]:
        for rule_index, rule in enumerate(detector._RULES):
            noted = rejected if reading is folded else None
            match = detector._search(
                rule_index, reading, 0, len(reading), aligned, noted, shortcuts=False
            )
            if match is not None:
                return InstructionLikeMatch(rule.name, match.group())
        roles = detector._forged_turns(reading)
        if roles is not None:
            return InstructionLikeMatch("any.forged_turns", roles)
    glued = obfuscation.glued_instruction(folded)
    if glued is not None:
        return InstructionLikeMatch("any.spaced_out", glued)
    if any(word in folded for word in obfuscation.ENCODING_TRIGGERS):
        decoded = detector._decoded_match(original or "")
        if decoded is not None:
            return decoded
    if rejected or not folded.strip():
        return None
    window = scorer.flagged_window(folded)
    return None if window is None else InstructionLikeMatch(detector.SCORER_RULE, window)


def count_instruction_like(texts: Iterable[str]) -> int:
    """How many of ``texts`` are flagged (each text counts once, however many passages it has)."""
    return sum(1 for text in texts if is_instruction_like(text))
