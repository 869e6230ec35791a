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


# The model's heaviest positive features: a few of them bring a text near the threshold.
HEAVY = st.sampled_from(
    [
        SHIPPED.scorer.patterns[i].strip()
        for i in sorted(
            range(len(SHIPPED.scorer.weights)), key=lambda i: -SHIPPED.scorer.weights[i]
        )[:150]
    ]
)
HEAVY_TEXT = st.lists(st.one_of(HEAVY, WORDS), max_size=25).map(" ".join)
# Texts of the model's words, some scoring near or past the threshold, with empty and long ones.
BATCH = st.lists(st.one_of(WORDY, HEAVY_TEXT, st.text(max_size=40), st.just("")), max_size=40)


@settings(max_examples=200)
@given(BATCH)
def test_the_batch_flags_each_text_as_flagged_window_does(texts):
    folded = [_fold(text) for text in texts if "\x00" not in text]
    assert scorer.flags(folded) == [scorer.flagged_window(f) is not None for f in folded]


@settings(max_examples=200)
@given(BATCH)
def test_the_texts_reaching_the_bound_are_found_in_order_or_out_of_it(texts):
    """``reaching`` walks the matches text by text, as the automaton gives them; matches out
    of that order are placed by bisection, with the same answer."""
    data = [scorer.normalise(_fold(text)) for text in texts if "\x00" not in text]
    short = [i for i, one in enumerate(data) if len(one) <= SHIPPED.scorer.window]
    found = SHIPPED.scorer.positive_matches(b"\x00".join(data[i] for i in short))
    clear = SHIPPED.threshold - 1e-6
    expected = [
        position
        for position, slot in enumerate(short)
        if SHIPPED.scorer.short_bound(data[slot]) >= clear
        and SHIPPED.scorer.positive_matches(data[slot])
    ]
    assert SHIPPED.scorer.reaching(found, short, data, clear) == expected
    assert sorted(SHIPPED.scorer.reaching(found[::-1], short, data, clear)) == expected
