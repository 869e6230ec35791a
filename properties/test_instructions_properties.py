"""Properties of the instruction-like detector, alone and behind the sanitizer."""

from __future__ import annotations

import json
import pathlib

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.hygiene.instructions import instruction_like_flags, is_instruction_like, scorer
from rypsok.hygiene.instructions.detector import _GATE, _fold
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


# Characters each fold step changes, and the ones a batch must keep apart.
FOLDED = st.sampled_from(
    ["ß", "İ", "i\u0307", "Ё", "ё", "’", "*", "`", "~", "\u200b", "\u00ad", "Ａ", "ｚ", "９", "Σ"]
)
FOLDABLE = st.lists(st.one_of(st.text(max_size=8), FOLDED), max_size=20).map("".join)


@settings(max_examples=300)
@given(st.lists(FOLDABLE.filter(lambda t: "\x00" not in t), min_size=1, max_size=8))
def test_folding_texts_joined_folds_each_text(texts):
    """The batch folds its texts joined by "\\x00" in one call (batch.py): the fold works
    character by character and never makes or removes the joining character."""
    assert _fold("\x00".join(texts)).split("\x00") == [_fold(text) for text in texts]


@settings(max_examples=300)
@given(st.lists(FOLDABLE.filter(lambda t: "\x00" not in t).map(_fold), max_size=8))
def test_texts_normalised_together_are_each_normalised(folded_texts):
    assert scorer.normalise_joined(folded_texts) == b"\x00".join(
        map(scorer.normalise, folded_texts)
    )


# Every trigger of the rules, and words that hold one inside them ("media", "notes", "sites"):
# texts of these wake rules, are cleared by a rule's filter, or go the long way.
TRIGGERS = st.sampled_from(sorted(_GATE.triggers))
AROUND = st.sampled_from(["", "", "s", "me", "no", "_", "-", "'", '"', "«", ": ", ".\n", "\n\n"])
WAKING = st.lists(
    st.one_of(
        st.tuples(AROUND, TRIGGERS, AROUND).map("".join),
        WORDS,
        st.sampled_from(["media", "notes", "sites", "Task", "AI", "said", "ignore", "System:"]),
    ),
    max_size=30,
).map(" ".join)


@settings(max_examples=300)
@given(st.lists(st.one_of(WAKING, st.sampled_from(FLAGGED), st.text(max_size=80)), max_size=40))
def test_a_batch_of_texts_that_wake_rules_is_judged_as_each_text_alone(texts):
    assert instruction_like_flags(texts) == [is_instruction_like(t) for t in texts]
