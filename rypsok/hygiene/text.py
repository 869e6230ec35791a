"""Invisible and control characters out of text that other sites wrote; titles and snippets bounded.

docs/sanitizer.md explains each rule for operators. Which characters are control and format
characters, and which are viramas, comes from the running Python's ``unicodedata``; the contexts
that keep a joiner or a variation selector come from Unicode properties through ``regex``. Every
context is judged on the original text: one substitution over the whole string decides them all.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

import regex

from rypsok.bounds import MAX_SNIPPET_CHARS, MAX_TITLE_CHARS

ZWNJ = "\u200c"
ZWJ = "\u200d"
HANGUL_FILLERS = "\u3164\uffa0"
# TAB and LF stay in content and CR becomes LF; in titles and snippets all three are whitespace.
KEPT_CONTROLS = "\t\n\r"

# The Brahmic scripts, those that encode a virama. A ZWNJ between two letters of one of them
# stays. tests/test_text.py checks this list against the viramas of the running Unicode data.
INDIC_SCRIPTS = (
    "Ahom",
    "Balinese",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Brahmi",
    "Chakma",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Grantha",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Gurung_Khema",
    "Hanunoo",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Kawi",
    "Kharoshthi",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Malayalam",
    "Masaram_Gondi",
    "Meetei_Mayek",
    "Modi",
    "Myanmar",
    "Nandinagari",
    "Newa",
    "Oriya",
    "Rejang",
    "Saurashtra",
    "Sharada",
    "Siddham",
    "Sinhala",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Tagalog",
    "Tai_Tham",
    "Takri",
    "Tamil",
    "Telugu",
    "Thai",
    "Tibetan",
    "Tirhuta",
    "Tulu_Tigalari",
    "Zanabazar_Square",
)

_WORD_CUT_WINDOW = 5  # a cut at a space or a grapheme boundary gives up at most 1/5 of the limit


class Cleaned(NamedTuple):
    """A cleaned text. A named tuple, not a frozen dataclass: a search builds 80 of them, and a
    frozen dataclass's ``__init__`` costs three times a tuple's."""

    text: str
    removed: int  # characters removed as invisible or control: the characters_removed count
    truncated: bool  # whether the text was cut to its bound


SCANNED_PLANES = (range(0x00000, 0x20000), range(0xE0000, 0xF0000))
"""Planes 0, 1 and 14: the only planes that hold control, format or combining characters.
Planes 2 and 3 hold CJK ideographs, 4 to 13 are unassigned and 15 and 16 are private use;
skipping them makes the import-time scan about five times faster. A test checks the claim
against a scan of every code point under the running Python."""


def _scan_unicode_data() -> tuple[list[int], list[int], list[int], list[int]]:
    """The code points always removed (controls, format characters, lone surrogates), the variation selectors, the viramas and the controls
    that are White_Space, per the running ``unicodedata`` (the Variation_Selector and
    White_Space properties themselves come from ``regex``)."""
    is_concatenation_mark = regex.compile(r"\p{Prepended_Concatenation_Mark}").match
    is_variation_selector = regex.compile(r"\p{Variation_Selector}").match
    is_white_space = regex.compile(r"\p{White_Space}").match
    removable: list[int] = [ord(ch) for ch in HANGUL_FILLERS]
    variation_selectors: list[int] = []
    viramas: list[int] = []
    whitespace_controls: list[int] = []
    every_code_point = list(itertools.chain.from_iterable(SCANNED_PLANES))
    of_interest = frozenset({"Cc", "Cf", "Cs", "Mn", "Mc"}).__contains__
    categories = map(unicodedata.category, map(chr, every_code_point))
    for code_point in itertools.compress(every_code_point, map(of_interest, categories)):
        ch = chr(code_point)
        category = unicodedata.category(ch)
        if category == "Cc":
            if ch not in KEPT_CONTROLS:
                removable.append(code_point)
            if is_white_space(ch):
                whitespace_controls.append(code_point)
        elif category == "Cf":
            if ch not in (ZWNJ, ZWJ) and not is_concatenation_mark(ch):
                removable.append(code_point)
        elif category == "Cs":
            # A lone surrogate (JSON can escape one: an emoji cut in half in UTF-16) is no
            # character at all, and no UTF-8 stream can carry it to the agent.
            removable.append(code_point)
        elif is_variation_selector(ch):
            variation_selectors.append(code_point)
        elif unicodedata.combining(ch) == 9:
            viramas.append(code_point)
    return sorted(removable), variation_selectors, viramas, whitespace_controls


def _char_class(code_points: Iterable[int]) -> str:
    """A character class of the code points, written as ranges (for ``re`` and ``regex``)."""
    ranges: list[list[int]] = []
    for code_point in sorted(code_points):
        if ranges and ranges[-1][1] == code_point - 1:
            ranges[-1][1] = code_point
        else:
            ranges.append([code_point, code_point])
    parts = (
        f"\\U{first:08x}" if first == last else f"\\U{first:08x}-\\U{last:08x}"
        for first, last in ranges
    )
    return "[" + "".join(parts) + "]"


def _known_to_regex(script: str) -> bool:
    try:
        regex.compile(rf"\p{{Script={script}}}")
    except regex.error:
        return False
    return True


(
    _REMOVABLE_CODE_POINTS,
    _VARIATION_SELECTOR_CODE_POINTS,
    _VIRAMA_CODE_POINTS,
    _WHITESPACE_CONTROL_CODE_POINTS,
) = _scan_unicode_data()
_REMOVABLE = frozenset(map(chr, _REMOVABLE_CODE_POINTS))
_INVISIBLE = _REMOVABLE | frozenset(
    map(chr, [*_VARIATION_SELECTOR_CODE_POINTS, ord(ZWNJ), ord(ZWJ)])
)
# In a line, TAB, LF, VT, FF, CR and NEL are whitespace like any other (White_Space): a space.
_CONTROLS_TO_SPACE = dict.fromkeys(_WHITESPACE_CONTROL_CODE_POINTS, " ")
_REMOVABLE_CLASS = _char_class(_REMOVABLE_CODE_POINTS)
_VARIATION_SELECTOR = _char_class(_VARIATION_SELECTOR_CODE_POINTS)
_VIRAMA = _char_class(_VIRAMA_CODE_POINTS)
_CONTEXTUAL_CLASS = _char_class([*_VARIATION_SELECTOR_CODE_POINTS, ord(ZWNJ), ord(ZWJ)])

# A base character (Unicode D51) that is not a space and not itself removed.
_BASE = rf"[[\p{{L}}\p{{N}}\p{{P}}\p{{S}}]--{_REMOVABLE_CLASS}]"
_EXTEND = r"\p{Grapheme_Cluster_Break=Extend}"
_PICTOGRAPHIC = r"\p{Extended_Pictographic}"
_SCRIPTS = [script for script in INDIC_SCRIPTS if _known_to_regex(script)]
_INDIC_LETTER = r"[\p{L}&&[" + "".join(rf"\p{{Script={script}}}" for script in _SCRIPTS) + "]]"

# Each condition is tested just after the joiner, so lookbehinds end with the joiner itself.
_ZWNJ_KEPT = "|".join(
    [
        rf"(?<={_VIRAMA}\u200c)",
        rf"(?={_VIRAMA})",
        # RFC 5892 Appendix A.1: (L|D) T* ZWNJ T* (R|D), by Joining_Type.
        r"(?<=[\p{jt=L}\p{jt=D}]\p{jt=T}*\u200c)(?=\p{jt=T}*[\p{jt=R}\p{jt=D}])",
        rf"(?<={_INDIC_LETTER}\u200c)(?={_INDIC_LETTER})(?:"
        + "|".join(
            rf"(?<=\p{{Script={script}}}\u200c)(?=\p{{Script={script}}})" for script in _SCRIPTS
        )
        + ")",
    ]
)
_ZWJ_KEPT = "|".join(
    [
        rf"(?<={_VIRAMA}\u200d)",
        rf"(?={_VIRAMA})",
        # UAX #29 GB11: the nearest non-Extend characters on both sides are pictographic.
        rf"(?<={_PICTOGRAPHIC}{_EXTEND}*\u200d)(?={_EXTEND}*{_PICTOGRAPHIC})",
    ]
)
_STRAY_JOINER = rf"\u200c(?!{_ZWNJ_KEPT})|\u200d(?!{_ZWJ_KEPT})"
_ORPHAN_VARIATION_SELECTOR = rf"{_VARIATION_SELECTOR}(?<!{_BASE}{_VARIATION_SELECTOR})"

# The stdlib engine scans the plain classes several times faster than ``regex`` does, so
# text without joiners or variation selectors (most text) never reaches ``_DROP``. ASCII
# text (``str.isascii`` is a flag, not a scan) can hold only ASCII controls: a class of
# those is scanned several times faster again. In a line, VT and FF are spaces, not removed.
_REMOVABLE_RE = re.compile(_REMOVABLE_CLASS)
_ASCII_REMOVABLE_RE = re.compile(_char_class(c for c in _REMOVABLE_CODE_POINTS if c < 0x80))
_ASCII_LINE_REMOVABLE_RE = re.compile(
    _char_class(
        c for c in _REMOVABLE_CODE_POINTS if c < 0x80 and c not in _WHITESPACE_CONTROL_CODE_POINTS
    )
)
_CONTEXTUAL_RE = re.compile(_CONTEXTUAL_CLASS)
_DROP = regex.compile(
    rf"{_REMOVABLE_CLASS}|{_ORPHAN_VARIATION_SELECTOR}|{_STRAY_JOINER}", regex.VERSION1
)
_STRAY_JOINER_RE = regex.compile(_STRAY_JOINER, regex.VERSION1)
_GRAPHEME = regex.compile(r"\X", regex.VERSION1)


def removable(ch: str) -> bool:
    """Whether ``ch`` is removed wherever it stands (joiners and variation selectors depend on
    their neighbours and are not included)."""
    if len(ch) != 1:
        raise ValueError("removable() takes a single character")
    return ch in _REMOVABLE


def invisible(ch: str) -> bool:
    """Whether ``ch`` is one a reader cannot see: removable, or a joiner or variation selector
    (which are kept only in some contexts). For quoting caller text in messages."""
    if len(ch) != 1:
        raise ValueError("invisible() takes a single character")
    return ch in _INVISIBLE


def shows_nothing(text: str) -> bool:
    """Whether ``text`` holds no character a reader can see: only white space and invisible
    characters. Such a query is empty once trimmed."""
    return all(ch.isspace() or ch in _INVISIBLE for ch in text)


def _printable_ascii(text: str) -> bool:
    """Whether ``text`` is ASCII without a control character (most titles and snippets): it
    then holds nothing to remove or turn into a space. Of ASCII, ``str.isprintable`` refuses
    exactly the controls (U+0000 to U+001F and U+007F), in one scan that builds nothing."""
    return text.isascii() and text.isprintable()


def _drop_invisible(text: str) -> tuple[str, int]:
    if text.isascii():
        return _ASCII_REMOVABLE_RE.subn("", text)
    return _drop_any_invisible(text)


def _drop_any_invisible(text: str) -> tuple[str, int]:
    if _CONTEXTUAL_RE.search(text) is None:
        return _REMOVABLE_RE.subn("", text)
    return _DROP.subn("", text)


def clean_content(text: str) -> Cleaned:
    """Fetched page content: TAB, LF, U+2028 and U+2029 stay; CRLF and a lone CR become LF."""
    if _printable_ascii(text):
        return Cleaned(text, 0, False)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    kept, removed = _drop_invisible(text)
    return Cleaned(kept, removed, False)


def clean_line(text: str, limit: int) -> Cleaned:
    """A title or snippet: invisible characters removed, every whitespace run one space, ends
    stripped, then cut to ``limit`` code points (at a word boundary when one is near).

    The controls that are White_Space (VT, FF and NEL with TAB, LF and CR) become spaces
    first: they separate words, so they collapse like other whitespace and are not counted.
    A space stands where they stood, so no joiner or selector context changes."""
    if limit < 0:
        raise ValueError("limit must not be negative")
    if _printable_ascii(text):
        return _printable_line(text, limit)
    if text.isascii():  # str.split() takes the ASCII white space controls for spaces
        kept, removed = _ASCII_LINE_REMOVABLE_RE.subn("", text)
    else:
        kept, removed = _drop_invisible(text.translate(_CONTROLS_TO_SPACE))
    line = " ".join(kept.split())
    line, truncated = _cut(line, limit)
    return Cleaned(line, removed, truncated)


def _printable_line(text: str, limit: int) -> Cleaned:
    """``clean_line`` of printable ASCII: only spaces separate its words, so it is a line
    already when none is doubled or at an end."""
    if "  " in text or text.startswith(" ") or text.endswith(" "):
        text = " ".join(text.split())
    line, truncated = _cut(text, limit)
    return Cleaned(line, 0, truncated)


def clean_result_text(title: str, snippet: str) -> tuple[str, str, Cleaned, Cleaned]:
    """A result's title and snippet as the instruction-like check reads them (``clean_content``:
    line breaks kept) and as they are shown (``clean_title``, ``clean_snippet``), each text
    judged printable ASCII once for both."""
    title_content, title_line = _read_and_shown(title, MAX_TITLE_CHARS)
    snippet_content, snippet_line = _read_and_shown(snippet, MAX_SNIPPET_CHARS)
    return title_content, snippet_content, title_line, snippet_line


def _read_and_shown(text: str, limit: int) -> tuple[str, Cleaned]:
    """``clean_content(text).text`` and ``clean_line(text, limit)``, printable ASCII judged once."""
    if _printable_ascii(text):
        return text, _printable_line(text, limit)
    return clean_content(text).text, clean_line(text, limit)


def clean_title(text: str) -> Cleaned:
    return clean_line(text, MAX_TITLE_CHARS)


def clean_snippet(text: str) -> Cleaned:
    return clean_line(text, MAX_SNIPPET_CHARS)


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` code points by the rule titles and snippets are cut by, its
    line breaks kept: for an engine that bounds a long excerpt before the snippet is read."""
    return _cut(text, limit)[0]


def _cut(line: str, limit: int) -> tuple[str, bool]:
    """Cut a collapsed line to ``limit``: at the last space in the final fifth of the limit,
    else at the last grapheme boundary there, else at ``limit`` itself. A joiner whose
    context the cut took away goes with it, so the cut line is as clean as the whole one."""
    if len(line) <= limit:
        return line, False
    earliest = limit - limit // _WORD_CUT_WINDOW
    end = line.rfind(" ", earliest, limit + 1)
    if end <= 0:
        end = _last_grapheme_boundary(line, limit)
        if end < earliest:
            end = limit
    head = line[:end].rstrip(" ")
    while (stray := _STRAY_JOINER_RE.search(head)) is not None:
        head = head[: stray.start()].rstrip(" ")
    return head, True


def _last_grapheme_boundary(line: str, limit: int) -> int:
    boundary = 0
    for cluster in _GRAPHEME.finditer(line):
        if cluster.end() > limit:
            break
        boundary = cluster.end()
    return boundary
