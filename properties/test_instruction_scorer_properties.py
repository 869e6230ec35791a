"""Properties of the learned instruction-like scorer (rypsok/hygiene/instructions/scorer.py): it is
deterministic, its work is bounded by the length of the text, and its score is the bias plus the
weights of the features a naive search finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.hygiene.instructions import scorer
from rypsok.hygiene.instructions.detector import _fold

SHIPPED = scorer.model()
REBUILT = scorer.load()
PATTERNS = [pattern.encode("utf-8") for pattern in SHIPPED.scorer.patterns]
LONGEST = max(len(pattern) for pattern in PATTERNS)
WORDS = st.sampled_from(
    [pattern.strip() for pattern in SHIPPED.scorer.patterns[:: max(1, len(PATTERNS) // 400)]]
)
# Text made of the model's own words, so that features are found, mixed with arbitrary text.
WORDY = st.lists(st.one_of(WORDS, st.text(max_size=12)), max_size=120).map(" ".join)
TEXTS = st.one_of(st.text(), WORDY)


@settings(max_examples=200)
@given(TEXTS)
def test_the_score_is_the_same_every_time_and_from_a_second_load(text):
    folded = _fold(text)
    first = SHIPPED.scorer.score(folded)
    assert SHIPPED.scorer.score(folded) == first
    assert REBUILT.scorer.score(folded) == first


@settings(max_examples=200)
@given(st.lists(TEXTS, min_size=1, max_size=40).map("\n".join))
def test_the_work_is_bounded_by_the_length_of_the_text(text):
    """Beyond one automaton pass, the scorer loops once per feature found; at most LONGEST
    features can end at one byte, so the loop is linear in the text."""
    data = scorer.normalise(_fold(text))
    found = SHIPPED.scorer.matches(data)
    assert len(found) <= len(data) * LONGEST
    window = SHIPPED.scorer.best_window(data)
    assert 0 <= window.start <= window.end <= len(data)
    assert window.end - window.start <= max(SHIPPED.scorer.window, len(data))


@settings(max_examples=150)
@given(TEXTS)
def test_a_short_text_scores_the_bias_plus_the_weight_of_each_feature_it_contains(text):
    data = scorer.normalise(_fold(text))
    if len(data) > SHIPPED.scorer.window:
        data = data[: SHIPPED.scorer.window]
    expected = SHIPPED.scorer.bias + sum(
        weight
        for pattern, weight in zip(PATTERNS, SHIPPED.scorer.weights, strict=True)
        if pattern in data
    )
    assert abs(SHIPPED.scorer.best_window(data).score - expected) < 1e-9
