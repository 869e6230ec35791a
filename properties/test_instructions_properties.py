"""Properties of the instruction-like detector, alone and behind the sanitizer."""

from __future__ import annotations

import json
import pathlib

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.hygiene.instructions import instruction_like_flags, is_instruction_like
from rypsok.hygiene.text import clean_content
from tests.instruction_oracle import count_instruction_like

LABELLED = [
    json.loads(line)
    for line in (pathlib.Path(__file__).parent.parent / "tests/fixtures/instruction_like.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]
FLAGGED = [row["text"] for row in LABELLED if row["label"] and is_instruction_like(row["text"])]
INVISIBLE = st.sampled_from(["\u200b", "\u2060", "\ufeff", "\u00ad", "\u202e", "\U000e0041"])


@settings(max_examples=300)
@given(st.text())
def test_never_raises_and_is_a_bool(text):
    assert isinstance(is_instruction_like(text), bool)


@settings(max_examples=100)
@given(st.lists(st.text(max_size=200), max_size=8))
def test_count_is_the_number_of_flagged_texts(texts):
    assert count_instruction_like(texts) == sum(is_instruction_like(t) for t in texts)


@settings(max_examples=200)
@given(st.sampled_from(FLAGGED), st.data())
def test_invisible_characters_do_not_hide_an_instruction_from_the_pipeline(text, data):
    """Zero-width and format characters smuggled between letters are removed by the
    sanitizer before detection, so the result stays flagged."""
    positions = data.draw(st.lists(st.integers(0, len(text)), max_size=10))
    smuggled = text
    for position in sorted(positions, reverse=True):
        smuggled = smuggled[:position] + data.draw(INVISIBLE) + smuggled[position:]
    assert is_instruction_like(clean_content(smuggled).text)


WORDS = st.sampled_from(
    ["you", "your", "ignore", "previous", "instructions", "task", "now", "the", "AI", "notes"]
)
PHRASES = st.lists(WORDS, max_size=40).map(" ".join)


@settings(max_examples=200)
@given(st.lists(st.one_of(st.text(max_size=300), PHRASES, st.sampled_from(FLAGGED)), max_size=40))
def test_a_batch_is_judged_as_each_text_alone(texts):
    """A search's titles and snippets are checked together with one trigger scan and one
    scorer scan; each text's flag is the one it gets alone."""
    assert instruction_like_flags(texts) == [is_instruction_like(t) for t in texts]
