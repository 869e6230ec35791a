"""Each rule of the instruction-like detector, with the shortcuts read off its expression
(rypsok/hygiene/instructions/literals.py), finds and rejects exactly what a plain search of the
expression does, on text made of the rule's own words."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rypsok.hygiene.instructions import detector, literals

# Text made of a rule's own words (its triggers, the strings of its clauses, its prefixes) and
# a few others, so that matches, near-misses and rejected matches are common.
_FILLER = ["the", "all", "you", "this", "now", "to", "and", "not", "a", "is", "page", "ai"]
_SEPARATORS = [" ", " ", " ", ", ", ". ", ": ", "\n", " '", "' ", "«", "»", "-"]


def _words_of(rule_index: int) -> list[str]:
    rule = detector._RULES[rule_index]
    pattern = detector._compiled_rule(rule_index).pattern
    words = set(rule.triggers) | set(_FILLER)
    for clause in literals.necessary_clauses(pattern.pattern, pattern.flags):
        words |= clause
    words |= literals.match_prefixes(pattern.pattern, pattern.flags) or set()
    return sorted(words)


@st.composite
def _rule_and_text(draw):
    rule_index = draw(st.integers(0, len(detector._RULES) - 1))
    words = _words_of(rule_index)
    parts = draw(
        st.lists(st.tuples(st.sampled_from(words), st.sampled_from(_SEPARATORS)), max_size=30)
    )
    return rule_index, "".join(word + separator for word, separator in parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_rule_and_text())
def test_a_rule_with_its_shortcuts_finds_what_a_plain_search_finds(case):
    rule_index, text = case
    for start, end in ((0, len(text)), (len(text) // 3, len(text))):
        rejected: list[str] = []
        plain_rejected: list[str] = []
        found = detector._search(rule_index, text, start, end, text, rejected)
        plain = detector._search(
            rule_index, text, start, end, text, plain_rejected, shortcuts=False
        )
        assert (found and found.span()) == (plain and plain.span())
        assert rejected == plain_rejected
