"""Whether a value reads as random (a key) or as words, a template, a placeholder or filler."""

from __future__ import annotations

import math
import re
from collections import Counter

_HEX = frozenset("0123456789abcdefABCDEF-")
_VOWELS = frozenset("aeiouyAEIOUY")
_WORD = re.compile(r"[A-Z]?[a-z]{2,}|[A-Z]{3,}")
_CONSONANTS = re.compile(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]+")
_CASE_CHANGE = re.compile(r"[a-z][A-Z]")
_TEMPLATE = re.compile(
    r"<[^<>]*>|\{\{?[^{}]*\}?\}|\$\{[^{}]*\}|\$\(?[A-Za-z_][A-Za-z0-9_]*\)?"
    r"|%[A-Za-z_][A-Za-z0-9_]*%|\[[^\[\]]*\]|\(\s*[A-Za-z_ ]*\s*\)"
)
_NOT_A_VALUE = frozenset(
    {"true", "false", "null", "none", "nil", "undefined", "yes", "no", "on", "off", "0", "1"}
)
_FILLER_WORDS = (
    "example",
    "your",
    "placeholder",
    "redacted",
    "dummy",
    "changeme",
    "insert",
    "replace",
)
_FILLER_X_RUN = re.compile(r"x{6,}|X{6,}")

# Public values that have the shape of a secret but are published on purpose.
PUBLIC_PLACEHOLDERS = frozenset(
    {
        "AKIAIOSFODNN7EXAMPLE",  # AWS documentation
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # AWS documentation
        "DEMO_KEY",  # api.nasa.gov and others
        # Azurite / Azure Storage Emulator account key (documented by Microsoft)
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",  # Stripe documentation's shared test key
        "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",  # Mailgun documentation (samples.mailgun.org)
        # jwt.io's example token
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9l"
        "IiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    }
)


def entropy(value: str) -> float:
    length = len(value)
    return -sum(c / length * math.log2(c / length) for c in Counter(value).values())


def word_likeness(value: str) -> float:
    """Share of the letters in pronounceable word-shaped runs: at least a quarter vowels and
    no more than four consonants in a row (random text scores low)."""
    letters = sum(c.isalpha() for c in value)
    if not letters:
        return 0.0
    covered = 0
    for word in _WORD.finditer(value):
        text = word.group()
        if 4 * sum(c in _VOWELS for c in text) < len(text):
            continue
        if max(map(len, _CONSONANTS.findall(text)), default=0) <= 4:
            covered += len(text)
    return covered / letters


def _is_sequence(value: str) -> bool:
    lowered = value.lower()
    steps = sum(1 for a, b in zip(lowered, lowered[1:], strict=False) if ord(b) - ord(a) == 1)
    return len(lowered) > 4 and steps >= 0.7 * (len(lowered) - 1)


def is_filler(body: str) -> bool:
    """xxxx/0000 fillers, runs like abcdef123456, EXAMPLE keys, templates like <token>."""
    if body in PUBLIC_PLACEHOLDERS or "EXAMPLE" in body:
        return True
    if _FILLER_X_RUN.search(body):
        return True
    lowered = body.lower()
    if any(word in lowered for word in _FILLER_WORDS) and word_likeness(body) >= 0.85:
        return True
    core = lowered.strip("-_.:/+=*")
    if not core or (len(core) >= 3 and len(set(core)) == 1):
        return True
    if len(core) >= 12 and (len(set(core)) <= 3 or _is_sequence(core)):
        return True
    return _TEMPLATE.fullmatch(body) is not None


def is_placeholder_value(value: str) -> bool:
    return value.lower() in _NOT_A_VALUE or is_filler(value)


def looks_random(value: str) -> bool:
    """A value that reads as generated, not written: the test behind ``generic_secret``.

    At least 16 characters, no whitespace, with a letter and either a digit or a change from
    lower to upper case; not a filler or template; Shannon entropy per character above a
    floor that grows with length (hex: 2.5 to 3.0 bits, otherwise 3.0 to 4.0 bits, both well
    below what random strings of that length reach); and, unless it is hex, not reading as
    words (see ``_reads_as_words``).
    """
    length = len(value)
    if length < 16 or any(c.isspace() for c in value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_lower = any(c.islower() for c in value)
    has_upper = any(c.isupper() for c in value)
    if not (has_lower or has_upper):
        return False
    if not has_digit and _CASE_CHANGE.search(value) is None:
        return False
    if is_placeholder_value(value):
        return False
    if set(value) <= _HEX:
        return entropy(value) >= min(3.0, 2.5 + 0.03 * (length - 16))
    if entropy(value) < min(4.0, 3.0 + 0.04 * (length - 16)):
        return False
    return not _reads_as_words(value, has_digit)


_DIGIT_RUN = re.compile(r"[0-9]+")


def _reads_as_words(value: str, has_digit: bool) -> bool:
    """Mostly pronounceable runs, or words with a number stuck on (``MyPassword2024``);
    never when digits are scattered in three or more groups."""
    digit_runs = len(_DIGIT_RUN.findall(value)) if has_digit else 0
    if digit_runs >= 3:
        return False
    likeness = word_likeness(value)
    if likeness >= 0.85:
        return True
    return has_digit and likeness >= 0.7 and digit_runs <= 1
