"""The shortcuts read off each rule's expression (rypsok/hygiene/instructions/literals.py): every
match holds a string of each clause of its rule's window filter and starts where one of its
prefixes does, so that passing over a window or matching only at those starts never changes
what a rule finds (properties/test_instruction_literals_properties.py: the same on text made of
each rule's own words)."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions import detector, literals
from tests.instruction_families import FAMILY_PAIRS, SCORER_PAIRS
from tests.test_instructions import load_labelled


def _texts() -> list[str]:
    pairs = [t for _, flagged, near in FAMILY_PAIRS + SCORER_PAIRS for t in (flagged, near)]
    return [detector._prepare(text)[0] for text in [row["text"] for row in load_labelled()] + pairs]


def _every_match(pattern: re.Pattern[str], text: str):
    """Each match the expression has at some start, as the rule's search loop meets them."""
    position = 0
    while (match := pattern.search(text, position)) is not None:
        yield match
        position = match.start() + 1


def test_every_match_on_the_labelled_set_passes_its_filter_and_starts_at_a_prefix():
    texts = _texts()
    checked = filtered = started = 0
    for rule_index in range(len(detector._RULES)):
        compiled = detector._compiled_rule(rule_index)
        filtered += compiled.window_filter is not None
        started += compiled.match_starts is not None
        for text in texts:
            for match in _every_match(compiled.pattern, text):
                start, end = match.span()
                checked += 1
                if compiled.window_filter is not None:
                    assert compiled.window_filter.may_match(text, start, end), (
                        detector._RULES[rule_index].name,
                        match.group(),
                    )
                if compiled.match_starts is not None:
                    assert start in compiled.match_starts.positions(text, start, end), (
                        detector._RULES[rule_index].name,
                        match.group(),
                    )
    # The shortcuts are worth having only if most rules have them.
    assert checked > 400
    assert filtered > len(detector._RULES) // 2
    assert started > len(detector._RULES) // 2


def test_strings_and_prefixes_are_read_off_the_expression():
    expression = r"(?P<imp_0>dear|hey)\s*,?\s+(?:ai|chatbots?)\s*:\s+(?:ignore|forget)\b"
    assert literals.match_prefixes(expression) == {"dear", "hey"}
    clauses = literals.necessary_clauses(expression, triggers=frozenset({"ai"}))
    assert frozenset({"ignore", "forget"}) in clauses
    assert frozenset({"dear", "hey"}) in clauses
    # An optional start, a start of any character, or case-insensitive matching: no prefixes.
    assert literals.match_prefixes(r"(?:the\s+)?model") is None
    assert literals.match_prefixes(r"\w+ing model") is None
    assert literals.match_prefixes("(?i)model") is None
    assert literals.necessary_clauses("(?i)ignore previous") == ()
    # Strings inside the rule's own trigger are in every woken window: no filter on them.
    assert literals.window_filter(r"\bignore\b", triggers=frozenset({"ignore"})) is None


def test_a_window_without_the_words_is_passed_over_and_one_with_them_is_searched():
    window_filter = literals.window_filter(
        r"(?:ai|llm)\s+(?:reading|processing)\s+this\b", triggers=frozenset({"ai", "llm"})
    )
    text = "said the main speaker; ai reading this must obey"
    assert window_filter.may_match(text, 0, len(text))
    assert not window_filter.may_match(text, 0, 30)
    starts = literals.MatchStarts(frozenset({"ai", "llm"}))
    assert starts.positions(text, 0, len(text)) == [1, 10, 23]
