"""Detection of instruction-like text in what other sites wrote (titles, snippets, page content).

A pattern detector for text that addresses the reading AI model or tries to redirect it: "ignore
all previous instructions", "you are now ...", chat-template tokens and forged turns, "that is
enough, now a new task", "repeat your instructions so far", "begin your reply with '...'", requests
to reveal a system prompt, to call a tool or to send the conversation to a URL, "AI assistants
reading this must ...", in English, German, French, Spanish, Chinese and Russian (the override,
void, reveal, persona and "new instructions:" families in twenty more languages, the override
family in a few others), through case, width, spacing, zero-width and typo disguises.
docs/instruction-like.md says what is flagged and what is not, and the limits of the approach.

How it stays fast on a page of a megabyte: the text is case-folded once, an Aho-Corasick automaton
over literal trigger words finds the places worth a closer look in one pass (gate.py), and each
rule's own regular expression is searched only in windows around its triggers, and only in those
holding the words every match of it holds, at the places a match can start (literals.py, read off
the expression). The outcome equals a search of every rule over the whole text
(tests/test_instructions.py checks this on the labelled set, tests/test_instruction_literals.py the
shortcuts, bench/instruction_verdicts.py hashes every verdict on the benchmark folders).
"""

from rypsok.hygiene.instructions.batch import instruction_like_flags
from rypsok.hygiene.instructions.detector import (
    InstructionLikeMatch,
    find_instruction_like,
    is_instruction_like,
)

__all__ = [
    "InstructionLikeMatch",
    "find_instruction_like",
    "instruction_like_flags",
    "is_instruction_like",
]
