"""The shapes shared by the rule tables of languages added for issue 23 (intl_*.py): a persona
switch to an unrestricted AI, a "new instructions:" header, instructions declared void, and the
spelling variants of scripts whose letters have two encodings. Each language fills a shape with
its own words; the override family, whose word order differs most, each language writes itself."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import (
    IN_SENTENCE,
    PUNCT,
    LazyPattern,
    Rule,
    fill,
    trigger_words,
)


def rule(name: str, triggers: str, pattern: str, mention: bool = True, topic: bool = False) -> Rule:
    """A rule of these tables: triggers written "a|b|c", the pattern multi-line, the mention
    veto on unless asked off, the topic veto off unless asked on."""
    return Rule(
        name,
        trigger_words(triggers),
        LazyPattern(pattern, re.M),
        mention_veto=mention,
        topic_veto=topic,
    )


# A word of any script: no space and no punctuation.
TOKEN = r"[^\s.,;:!?।॥،؛؟۔\"'“”«»„]+"


def persona(now_you: str, ai: str, unrestricted: str, strong: str, enable: str) -> str:
    """NOW-YOU, then in the same sentence a jailbreak marker (developer mode, DAN), or an AI word
    and "without any restrictions" in either order: "from now on you are an AI without limits".
    The AI word is needed with the weak marker: "now you can download without limits" is an ad.
    A marker after ``enable`` (can, turn on) or followed by it (an object particle: "developer
    mode" as the object of a manual's "now you can turn on") is not a persona."""
    return fill(
        r"(?P<core>(?:⟨NOW⟩))(?:(?:(?!⟨EN⟩)⟨S⟩){0,150}?(?:⟨STRONG⟩)(?!\s*(?:⟨EN⟩))|"
        r"⟨S⟩{0,150}?(?:(?:⟨AI⟩)⟨S⟩{0,80}?(?:⟨UNR⟩)|(?:⟨UNR⟩)⟨S⟩{0,80}?(?:⟨AI⟩)))",
        NOW=now_you,
        AI=ai,
        UNR=unrestricted,
        STRONG=strong,
        EN=enable,
        S=IN_SENTENCE,
    )


def header(heads: str) -> str:
    """A header that opens new instructions ("New instructions:"), at a line or sentence start."""
    # Lookbehinds of fixed width (up to two spaces after the punctuation), so that every match
    # starts with a head word and the search can skip to them (literals.py).
    return fill(
        r"(?:^|(?<=^\s)|(?<=^\s\s)|(?<=[⟨P⟩])|(?<=[⟨P⟩]\s)|(?<=[⟨P⟩]\s\s))(?:⟨H⟩)\s*[:：]",
        P=PUNCT,
        H=heads,
    )


def declared_void(subject: str, void: str) -> str:
    """ "Your previous instructions are no longer valid": a subject naming the reader's
    instructions, then within the sentence the words that void them."""
    return fill(r"(?:⟨SUBJ⟩)⟨S⟩{0,40}?(?:⟨VOID⟩)", SUBJ=subject, VOID=void, S=IN_SENTENCE)


# Letters with a nukta: precomposed, or the base letter and the combining nukta (Devanagari text
# is written both ways; Hindi often drops the nukta altogether).
_DEVANAGARI_NUKTA = {
    "\u0958": "\u0915",
    "\u0959": "\u0916",
    "\u095a": "\u0917",
    "\u095b": "\u091c",
    "\u095c": "\u0921",
    "\u095d": "\u0922",
    "\u095e": "\u092b",
}
_BENGALI_NUKTA = {"\u09dc": "\u09a1", "\u09dd": "\u09a2", "\u09df": "\u09af"}


def _nukta_spellings(
    words: str, composed_letters: dict[str, str], nukta: str, optional: bool = False
) -> str:
    """Each letter with a nukta in ``words`` matching its precomposed form and its base letter
    followed by the nukta (with ``optional``, or by nothing)."""
    for composed, base in composed_letters.items():
        words = words.replace(base + nukta, composed)
    after_base = nukta + "?" if optional else nukta
    for composed, base in composed_letters.items():
        words = words.replace(composed, f"(?:{composed}|{base}{after_base})")
    return words


def devanagari(words: str) -> str:
    """Hindi words with each nukta letter matching all three spellings: precomposed, base and
    combining nukta, and the base alone (Hindi often drops the nukta)."""
    return _nukta_spellings(words, _DEVANAGARI_NUKTA, "\u093c", optional=True)


def bengali(words: str) -> str:
    """Bengali words with য়, ড়, ঢ় matching both encodings."""
    return _nukta_spellings(words, _BENGALI_NUKTA, "\u09bc")


_GREEK_ACCENTS = {
    "ά": "[άα]",
    "έ": "[έε]",
    "ή": "[ήη]",
    "ί": "[ίιϊΐ]",
    "ό": "[όο]",
    "ύ": "[ύυϋΰ]",
    "ώ": "[ώω]",
}


def greek(words: str) -> str:
    """Greek words as case folding leaves them (final ς is σ) with accents optional: a shouted
    text drops them."""
    words = words.replace("ς", "σ")
    for accented, either in _GREEK_ACCENTS.items():
        words = words.replace(accented, either)
    return words


def turkish(pattern: str) -> str:
    """A Turkish pattern whose dotless ı also matches i: shouted text loses the difference ("YOK
    SAYIN" folds to "yok sayin"; detector._fold turns the İ of "TALİMAT" into i)."""
    return pattern.replace("ı", "[ıi]")
