"""Properties of the text sanitizer, against a slow per-character model of the spec's rules.

The model (``expected_kept``) reads DECISIONS.md "Invisible characters" one character at a time;
the module does the same work with compiled patterns. Emoji ZWJ sequences come from the
``emoji`` package's EMOJI_DATA and are also built from Extended_Pictographic characters.
"""

from __future__ import annotations

import contextlib
import unicodedata

import emoji
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.bounds import MAX_SNIPPET_CHARS, MAX_TITLE_CHARS
from rypsok.hygiene.text import (
    INDIC_SCRIPTS,
    Cleaned,
    clean_content,
    clean_line,
    clean_snippet,
    clean_title,
    removable,
)

ZWNJ, ZWJ = "\u200c", "\u200d"
# The spec's own list, written out here so that the module's property-based set is checked.
CONCATENATION_MARKS = frozenset(
    "\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2\U000110bd\U000110cd"
)

SETTINGS = settings(max_examples=150, deadline=None)


def _has(prop: str):
    return regex.compile(prop).fullmatch


is_extend = _has(r"\p{Grapheme_Cluster_Break=Extend}")
is_pictographic = _has(r"\p{Extended_Pictographic}")
is_variation_selector = _has(r"\p{Variation_Selector}")
is_letter = _has(r"\p{L}")
is_white_space = _has(r"\p{White_Space}")
is_graphic_base = _has(r"[\p{L}\p{N}\p{P}\p{S}]")
joining_type = {jt: _has(rf"\p{{Joining_Type={jt}}}") for jt in ("L", "D", "R", "T")}
script_patterns = []
for script in INDIC_SCRIPTS:
    with contextlib.suppress(regex.error):  # a script newer than the installed regex
        script_patterns.append(_has(rf"\p{{Script={script}}}"))


def model_removable(ch: str) -> bool:
    category = unicodedata.category(ch)
    if category == "Cc":
        return ch not in "\t\n\r"
    if category == "Cf":
        return ch not in (ZWNJ, ZWJ) and ch not in CONCATENATION_MARKS
    return category == "Cs" or ch in "\u3164\uffa0"


def is_virama(ch: str) -> bool:
    return unicodedata.combining(ch) == 9


def same_indic_script(a: str, b: str) -> bool:
    return any(matches(a) and matches(b) for matches in script_patterns)


def nearest(text: str, start: int, step: int, skip) -> str:
    i = start
    while 0 <= i < len(text) and skip(text[i]):
        i += step
    return text[i] if 0 <= i < len(text) else ""


def joiner_allowed(text: str, i: int) -> bool:
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if (before and is_virama(before)) or (after and is_virama(after)):
        return True
    if text[i] == ZWJ:
        left = nearest(text, i - 1, -1, is_extend)
        right = nearest(text, i + 1, 1, is_extend)
        return bool(left and right and is_pictographic(left) and is_pictographic(right))
    is_transparent = joining_type["T"]
    left = nearest(text, i - 1, -1, is_transparent)
    right = nearest(text, i + 1, 1, is_transparent)
    if (
        left
        and right
        and (joining_type["L"](left) or joining_type["D"](left))
        and (joining_type["R"](right) or joining_type["D"](right))
    ):
        return True
    return bool(
        before
        and after
        and is_letter(before)
        and is_letter(after)
        and same_indic_script(before, after)
    )


def variation_selector_allowed(text: str, i: int) -> bool:
    before = text[i - 1] if i > 0 else ""
    return bool(before) and bool(is_graphic_base(before)) and not model_removable(before)


def expected_kept(text: str) -> str:
    kept = []
    for i, ch in enumerate(text):
        if model_removable(ch):
            continue
        if ch in (ZWNJ, ZWJ) and not joiner_allowed(text, i):
            continue
        if is_variation_selector(ch) and not variation_selector_allowed(text, i):
            continue
        kept.append(ch)
    return "".join(kept)


def newlines_normalized(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def is_subsequence(short: str, long: str) -> bool:
    chars = iter(long)
    return all(ch in chars for ch in short)


def spaced(text: str) -> str:
    """A line's first step: every White_Space character is a space (VT, FF and NEL too)."""
    return "".join(" " if is_white_space(ch) else ch for ch in text)


def non_space(text: str) -> str:
    """The text without the whitespace that lines collapse: White_Space, VT, FF and NEL
    included (FS, GS, RS and US are str.isspace() but not White_Space: controls, removed)."""
    return "".join(ch for ch in text if not is_white_space(ch))


ZWJ_SEQUENCES = sorted(seq for seq in emoji.EMOJI_DATA if ZWJ in seq)

POOL = [
    *"ab Z09#*.,",
    *"\t\n\r\x00\x0b\x0c\x1b\x7f\x85\x9f\xa0\u2028\u2029\u3000\u202f",
    *"\u200b\ufeff\u00ad\u2060\u180e\u061c\u200e\u200f\u202a\u202e\u2066\u2069",
    "\U000e0001",
    "\U000e0041",
    "\U000e007f",
    *"\ufe0e\ufe0f\u180b",
    "\U000e0100",
    ZWNJ,
    ZWJ,
    ZWNJ,
    ZWJ,
    *"\u3164\uffa0\u115f",
    *CONCATENATION_MARKS,
    *"\u0915\u0937\u094d\u093f\u0930\u092f",  # Devanagari letters, virama, vowel sign
    *"\u0d28\u0d4d\u0d15",  # Malayalam
    *"\u0d9a\u0dca\u0dc2",  # Sinhala
    *"\u0645\u06cc\u062e\u0627\u0648\u0644\u064b\u0640\ua872",  # Arabic letters, mark, tatweel
    "\U0001f468",
    "\U0001f469",
    "\U0001f467",
    "\U0001f3fd",
    "\U0001f3f4",
    *"\u00a9\u2764\u20e3\u0301\u4e00",
    *"\ud800\ud83d\udfff",  # lone surrogates (half an emoji a JSON answer can escape)
]
# Pieces that put joiners and selectors in and out of their allowed contexts when joined.
FRAGMENTS = [
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian, ZWNJ in joining context
    "\u0628\u064b\u200c\u064b\u0628",  # Arabic letter, mark, ZWNJ, mark, letter
    "\u0915\u094d\u200d\u0937",  # Devanagari half form
    "\u0915\u094d\u200c\u0937",  # Devanagari explicit virama
    "\u0915\u200c\u0937",  # two Devanagari letters
    "\u0d28\u0d4d\u200d",  # Malayalam chillu, old encoding
    "\u0d9a\u0dca\u200d\u0dc2",  # Sinhala conjunct
    "\u0d9a\u200d\u0dca\u0dc0",  # Sinhala touching letters: ZWJ before the virama
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family
    "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # skin tone inside a sequence
    "\U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag
    "#\ufe0f\u20e3",  # keycap
    "\u2764\ufe0f",
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
]
interesting_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(POOL), st.characters()), max_size=30
).map("".join)
limits = st.integers(min_value=0, max_value=60)

_PICTOGRAPHS = [
    chr(cp)
    for block in (range(0x2190, 0x2800), range(0x1F000, 0x1FB00))
    for cp in block
    if unicodedata.category(chr(cp)) == "So" and is_pictographic(chr(cp))
]
emoji_element = st.tuples(
    st.sampled_from(_PICTOGRAPHS),
    st.sampled_from(["", "\ufe0f"]),
    st.sampled_from(["", *map(chr, range(0x1F3FB, 0x1F400))]),
).map("".join)
built_zwj_sequence = st.lists(emoji_element, min_size=2, max_size=5).map(ZWJ.join)
quiet_text = st.text(alphabet="abc 123.", max_size=20)


@given(st.text())
@SETTINGS
def test_never_raises_on_any_text(text):
    assert isinstance(clean_content(text).text, str)
    assert isinstance(clean_title(text).text, str)
    assert isinstance(clean_snippet(text).text, str)


@given(interesting_text)
@SETTINGS
def test_content_is_the_input_less_exactly_the_characters_the_rules_remove(text):
    normalized = newlines_normalized(text)
    cleaned = clean_content(text)
    assert cleaned.text == expected_kept(normalized)
    assert cleaned.removed == len(normalized) - len(cleaned.text)
    assert is_subsequence(cleaned.text, normalized)
    assert cleaned.truncated is False


@given(interesting_text)
@SETTINGS
def test_content_is_idempotent(text):
    once = clean_content(text)
    twice = clean_content(once.text)
    assert twice.text == once.text
    assert twice.removed == 0


@given(interesting_text)
@SETTINGS
def test_nothing_removable_survives_and_joiners_only_in_allowed_context(text):
    for cleaned in (clean_content(text).text, clean_line(text, 10**6).text):
        assert "\r" not in cleaned
        for i, ch in enumerate(cleaned):
            assert not removable(ch)
            assert not model_removable(ch)
            if ch in (ZWNJ, ZWJ):
                assert joiner_allowed(cleaned, i), (cleaned, i)
            if is_variation_selector(ch):
                assert variation_selector_allowed(cleaned, i), (cleaned, i)


@given(interesting_text)
@SETTINGS
def test_line_before_the_cut_is_the_kept_text_with_whitespace_collapsed(text):
    whole = clean_line(text, 10**6)
    kept = expected_kept(spaced(text))
    assert whole.text == " ".join(kept.split())
    assert whole.removed == len(text) - len(kept)
    assert is_subsequence(non_space(whole.text), non_space(text))
    assert len(non_space(whole.text)) == len(non_space(text)) - whole.removed
    assert whole.text == whole.text.strip()
    assert "  " not in whole.text
    assert all(ch == " " or not ch.isspace() for ch in whole.text)
    assert whole.truncated is False


WHITE_SPACE = [chr(cp) for cp in range(0x3001) if is_white_space(chr(cp))]
words = st.lists(st.text(alphabet="abcXYZ019.", min_size=1, max_size=8), min_size=1, max_size=8)
separators = st.lists(st.sampled_from(WHITE_SPACE), min_size=1, max_size=3).map("".join)


@given(words, st.data())
@SETTINGS
def test_any_white_space_between_words_reads_as_one_space_uncounted(word_list, data):
    gaps = [data.draw(separators) for _ in range(len(word_list) + 1)]
    text = gaps[0] + "".join(word + gap for word, gap in zip(word_list, gaps[1:], strict=True))
    assert clean_line(text, 10**6) == Cleaned(" ".join(word_list), 0, False)


@given(interesting_text, limits)
@SETTINGS
def test_line_cut_holds_its_bound_and_is_a_prefix_of_the_whole_line(text, limit):
    whole = clean_line(text, 10**6)
    cut = clean_line(text, limit)
    assert len(cut.text) <= limit
    assert cut.truncated == (len(whole.text) > limit)
    assert whole.text.startswith(cut.text)
    assert cut.removed == whole.removed
    if not cut.truncated:
        assert cut.text == whole.text


@given(interesting_text, limits)
@SETTINGS
def test_line_is_idempotent_cut_or_not(text, limit):
    once = clean_line(text, limit)
    twice = clean_line(once.text, limit)
    assert twice.text == once.text
    assert twice.removed == 0
    assert twice.truncated is False


@given(st.text(alphabet="abcdefgh ", min_size=1), st.integers(min_value=10, max_value=60))
@SETTINGS
def test_a_cut_near_a_space_ends_on_a_whole_word(text, limit):
    whole = clean_line(text, 10**6).text
    cut = clean_line(text, limit).text
    space = whole.rfind(" ", limit - limit // 5, limit + 1)
    if len(whole) > limit and space > 0:
        assert cut == whole[:space]


@given(st.sampled_from(ZWJ_SEQUENCES), quiet_text, quiet_text)
@SETTINGS
def test_unicode_emoji_zwj_sequences_survive_unchanged(sequence, before, after):
    text = before + sequence + after
    assert sequence in clean_content(text).text
    assert sequence in clean_line(text, 10**6).text
    assert clean_content(sequence).removed == 0


@given(built_zwj_sequence, quiet_text, quiet_text)
@SETTINGS
def test_built_pictographic_zwj_sequences_survive_unchanged(sequence, before, after):
    cleaned = clean_content(before + sequence + after)
    assert cleaned.text == before + sequence + after
    assert cleaned.removed == 0


@given(
    st.text(alphabet=st.sampled_from(POOL)), st.sampled_from([MAX_TITLE_CHARS, MAX_SNIPPET_CHARS])
)
@SETTINGS
def test_title_and_snippet_are_lines_with_their_limits(text, limit):
    cleaned = clean_title(text) if limit == MAX_TITLE_CHARS else clean_snippet(text)
    assert cleaned == clean_line(text, limit)
    assert len(cleaned.text) <= limit
