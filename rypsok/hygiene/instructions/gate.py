"""The trigger gate: one Aho-Corasick pass finds every trigger word of every rule (and the
disguised forms of key words, and the role words of forged turns), and each woken rule is then
searched only in windows around its triggers."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import ahocorasick_rs

from rypsok.hygiene.instructions import any_language, obfuscation
from rypsok.hygiene.instructions.patterns import Rule

# How far before a trigger a match may start (an imperative's lead-in, an opening quote) and how
# far after it a match may end. Every rule's matches fit in such a window around one trigger.
REACH_BACK = 80
REACH_AHEAD = 420
# How much text around a disguised word is read again: every rule's match fits in a window of
# REACH_BACK + REACH_AHEAD around one trigger.
REREAD = REACH_BACK + REACH_AHEAD

# Triggers of at most this many letters count only as whole words ("ai", not the "ai" in "said").
_WHOLE_WORD_TRIGGERS = frozenset({"ai", "ia", "ias", "ki", "ии", "tes", "vos", "tus", "sus"})

# The word characters of the alphabetic scripts (Latin, Greek, Cyrillic; not CJK): a trigger
# starting with one counts only where no other comes before it.
WORD_CHARS = frozenset(
    ch for ch in map(chr, range(0x0530)) if ch.isalnum() or ch == "_"
)  # fmt: skip

# What a hit of each trigger needs checking for, as bits.
_WORD_START = 1  # no word character may come before it
_WORD_END = 2  # nor after it
_ROLE = 4  # a role word at a line start (a forged turn, any_language.ROLE_LINE)
_DISGUISED = 8  # a disguised key word: its surroundings are read again (obfuscation.py)

TriggerHits = list[tuple[int, int, int]]
Windows = dict[int, list[tuple[int, int]]]


class TriggerGate:
    """The trigger words of a rule table, the automaton that finds them, and the windows of
    text each woken rule is searched in."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        rules_of: dict[str, set[int]] = {t: set() for t in any_language.ROLE_TRIGGERS}
        for index, rule in enumerate(rules):
            for trigger in rule.triggers:
                rules_of.setdefault(trigger, set()).add(index)
        for disguised in obfuscation.DISGUISED_TRIGGERS:
            rules_of.setdefault(disguised, set())
        self.triggers = tuple(rules_of)
        self.rules_of_trigger = tuple(tuple(sorted(rules_of[t])) for t in self.triggers)
        # Aho-Corasick finds every trigger in one pass, about ten times faster than one regular
        # expression over the same words; the automaton is built once and never changes.
        self.automaton = ahocorasick_rs.AhoCorasick(list(self.triggers))
        disguised_words = frozenset(obfuscation.DISGUISED_TRIGGERS)
        kinds = []
        for trigger, rule_indexes in zip(self.triggers, self.rules_of_trigger, strict=True):
            disguised = not rule_indexes and trigger in disguised_words
            kind = _WORD_START if trigger[0] in WORD_CHARS and trigger[0] != "_" else 0
            if trigger in _WHOLE_WORD_TRIGGERS or (disguised and trigger in obfuscation.TYPOS):
                kind |= _WORD_END
            if trigger in any_language.ROLE_TRIGGERS:
                kind |= _ROLE
            if disguised:
                kind |= _DISGUISED
            kinds.append(kind)
        self._kinds = tuple(kinds)

    def hits(self, folded: str) -> TriggerHits:
        """(trigger index, start, end) of every trigger in the folded text, in the order found."""
        return self.automaton.find_matches_as_indexes(folded, overlapping=True)

    def windows(
        self, folded: str, hits: TriggerHits | None = None
    ) -> tuple[Windows, bool, list[int]]:
        """For each woken rule, the merged stretches of text around its triggers; whether role
        lines were seen, and where disguised trigger words (obfuscation.py) start."""
        length = len(folded)
        spans: Windows = {}
        role_lines_seen = False
        disguised: list[int] = []
        kinds = self._kinds
        rules_of_trigger = self.rules_of_trigger
        if hits is None:
            hits = self.automaton.find_matches_as_indexes(folded, overlapping=True)
        for trigger_index, start, end in hits:
            kind = kinds[trigger_index]
            if kind & _WORD_START and start and folded[start - 1] in WORD_CHARS:
                continue
            if kind & _WORD_END and end < length and folded[end] in WORD_CHARS:
                continue
            if kind & _ROLE:
                role_lines_seen = True
            if kind & _DISGUISED:
                disguised.append(start)
                continue
            window = (
                start - REACH_BACK if start > REACH_BACK else 0,
                end + REACH_AHEAD if end + REACH_AHEAD < length else length,
            )
            for rule_index in rules_of_trigger[trigger_index]:
                if rule_index in spans:
                    spans[rule_index].append(window)
                else:
                    spans[rule_index] = [window]
        for rule_index, found in spans.items():
            if len(found) > 1:
                spans[rule_index] = _merged(found)
        return spans, role_lines_seen, disguised

    def woken(
        self, joined: str, hits: TriggerHits, starts: Sequence[int]
    ) -> tuple[dict[int, TriggerHits], dict[int, dict[int, tuple[int, int]]], set[int]]:
        """What the triggers found in texts joined by a character that is no word character
        (``starts``: where each text starts) wake: for each text, its hits that count (in its own
        offsets) and, for each woken rule, the stretch from its first window's start to its last
        one's end (in the joined text's offsets); and the texts holding a role word or a disguised
        word, which no rule's filter can clear. A text with no hit that counts wakes nothing."""
        kept: dict[int, TriggerHits] = {}
        hulls: dict[int, dict[int, tuple[int, int]]] = {}
        unfiltered: set[int] = set()
        kinds = self._kinds
        rules_of_trigger = self.rules_of_trigger
        length = len(joined)
        for trigger_index, start, end in hits:
            kind = kinds[trigger_index]
            # The joining character is no word character, as a text's ends are not.
            if kind & _WORD_START and start and joined[start - 1] in WORD_CHARS:
                continue
            if kind & _WORD_END and end < length and joined[end] in WORD_CHARS:
                continue
            slot = bisect.bisect_right(starts, start) - 1
            offset = starts[slot]
            if slot in kept:
                kept[slot].append((trigger_index, start - offset, end - offset))
            else:
                kept[slot] = [(trigger_index, start - offset, end - offset)]
            if kind & (_ROLE | _DISGUISED):
                unfiltered.add(slot)
                if kind & _DISGUISED:
                    continue
            text_end = starts[slot + 1] - 1 if slot + 1 < len(starts) else length
            lo = start - REACH_BACK if start - REACH_BACK > offset else offset
            hi = end + REACH_AHEAD if end + REACH_AHEAD < text_end else text_end
            rules = hulls.setdefault(slot, {})
            for rule_index in rules_of_trigger[trigger_index]:
                if rule_index in rules:
                    old_lo, old_hi = rules[rule_index]
                    rules[rule_index] = (min(lo, old_lo), max(hi, old_hi))
                else:
                    rules[rule_index] = (lo, hi)
        return kept, hulls, unfiltered


def _merged(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    windows.sort()
    out = [windows[0]]
    for lo, hi in windows[1:]:
        if lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def regions(positions: list[int], length: int) -> list[tuple[int, int]]:
    """The merged stretches of REREAD characters either side of each position, in order."""
    out: list[tuple[int, int]] = []
    for position in positions:
        lo, hi = max(0, position - REREAD), min(length, position + REREAD)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out
