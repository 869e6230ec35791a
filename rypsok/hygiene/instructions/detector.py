"""The detector: one Aho-Corasick pass over literal triggers, then each woken rule's expression
in windows around its triggers, with the vetoes and the clause-start check."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rypsok.hygiene.instructions import (
    any_language,
    de,
    de_indirect,
    de_switch,
    en,
    en_addressed,
    en_exfiltration,
    en_extraction,
    en_indirect,
    en_jailbreak,
    en_reply_rules,
    en_status,
    en_switch,
    es,
    fr,
    fr_es_indirect,
    gate,
    intl_east_asia,
    intl_europe,
    intl_latin_script,
    intl_south_west_asia,
    literals,
    obfuscation,
    other_languages,
    ru,
    scorer,
    switch_intl,
    zh,
)
from rypsok.hygiene.instructions.patterns import (
    IMP_WORDS,
    IMP_WORDS_ZH,
    PUNCT_CHARS,
    Rule,
)


@dataclass(frozen=True, slots=True)
class InstructionLikeMatch:
    """The first rule that fired: its name and the folded text it matched."""

    rule: str
    matched: str


_RULES: tuple[Rule, ...] = tuple(
    en.RULES
    + en_addressed.RULES
    + en_exfiltration.RULES
    + en_extraction.RULES
    + en_switch.RULES
    + en_status.RULES
    + en_reply_rules.RULES
    + en_indirect.RULES
    + en_jailbreak.RULES
    + de.RULES
    + de_switch.RULES
    + de_indirect.RULES
    + fr.RULES
    + es.RULES
    + fr_es_indirect.RULES
    + zh.RULES
    + ru.RULES
    + switch_intl.RULES
    + other_languages.RULES
    + intl_europe.RULES
    + intl_south_west_asia.RULES
    + intl_east_asia.RULES
    + intl_latin_script.RULES
    + any_language.RULES
)

_OPEN_QUOTES = "\"'“‘„«‹「『‚"
_CLOSE_QUOTES = "\"'”’“»›」』‘"
_TOPIC_COMPLEMENT = re.compile(
    r"\s*(?:regarding|about|concerning|relating\s+to|related\s+to|re:|sent\b|we\s+sent|i\s+sent|"
    r"in\s+(?:my|our)\s+(?:last\s+|previous\s+)?(?:e-?mail|letter|message|newsletter|post)|"
    r"from\s+(?:my|our)\s+(?:e-?mail|letter|message)|zur\b|zum\b|bezüglich|betreffend|"
    r"über\s+(?:die|den|das)\b|concernant|au\s+sujet|à\s+propos|relatives?\s+(?:à|au|aux)|"
    r"sur\s+(?:le|la|les|l'|un|une|des)\b|"
    r"sobre\b|acerca|respecto|relativ[oa]s?\s+a\b|по\s+поводу|относительно|насчет|касательно|"
    r"по\s+проезду|"
    r"of\s+(?!your\b|you\b|this\b|the\s+(?:system|assistant|ai|model|chatbot|developer|operator|user)\b)|"
    r"der\b|des\s+(?!nutzers|benutzers)|du\b|de\s+la\b|del\b|de\s+los\b|de\s+las\b)"
)


_GATE = gate.TriggerGate(_RULES)
_AUTOMATON = _GATE.automaton
trigger_hits = _GATE.hits
TriggerHits = gate.TriggerHits

# Zero-width and direction marks split a trigger word without showing ("ig\u200bnore"); the
# sanitizer removes them before a page reaches the detector, and the detector does too.
_INVISIBLE_CHARS = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_FULLWIDTH_LETTERS = re.compile(r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]+")
# Either kind, looked for in one pass (few texts hold any): half the cost of two.
_INVISIBLE_OR_FULLWIDTH = re.compile(
    "[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\uff10-\uff5a]"
)


def _prepare(text: str) -> tuple[str, str | None]:
    """The folded text, and the original when its characters line up with the folded ones (so
    that a rule can look at the case of a word: see _starts_by_case)."""
    folded = _fold(text)
    return folded, _lined_up(text, folded)


def _lined_up(text: str, folded: str) -> str | None:
    """``text`` (its ß spelt ss) when its characters line up with ``folded``, its fold."""
    if len(folded) != len(text) and "ß" in text:
        text = text.replace("ß", "ss")
    return text if len(folded) == len(text) else None


def _fold(text: str) -> str:
    """Case-fold and undo the cheap disguises: Markdown emphasis, fullwidth letters, ё, ’."""
    if "’" in text:
        # Done first (case folding leaves both alone): English text is often ASCII but for it.
        text = text.replace("’", "'")
    folded = text.casefold()
    if folded.isascii() and "*" not in folded and "`" not in folded and "~" not in folded:
        return folded  # most text: nothing more to undo
    for mark in "*`~":
        if mark in folded:
            folded = folded.replace(mark, "")
    if not folded.isascii():
        folded = folded.replace("ё", "е")
        if "\u0307" in folded:  # Turkish İ folds to i and a combining dot
            folded = folded.replace("i\u0307", "i")
        if _INVISIBLE_OR_FULLWIDTH.search(folded):
            folded = _FULLWIDTH_LETTERS.sub(
                lambda m: "".join(chr(ord(c) - 0xFEE0) for c in m.group()),
                _INVISIBLE_CHARS.sub("", folded),
            )
    return folded


_NEGATIONS = frozenset(
    [
        "never",
        "not",
        "don't",
        "dont",
        "nicht",
        "nie",
        "niemals",
        "kein",
        "keine",
        "ne",
        "n'",
        "jamais",
        "pas",
        "nunca",
        "no",
        "jamás",
        "никогда",
        "не",
        "ни",
    ]
)
_NEGATIONS_ZH = ("不要", "切勿", "请勿", "别", "勿", "禁止", "不得", "不能", "绝不", "从不")
_OWN_RECIPIENT = re.compile(
    r"\b(?:to|at|with)\s+(?:our|us)\b|\bour\s+(?:support|help|customer|service|team)|"
    r"\ban\s+(?:unser\w*|uns)\b|\bà\s+(?:notre|nos|nous)\b|\ba\s+(?:nuestr\w*|nosotros)\b|"
    r"\bна\s+наш\w*|\bнам\b|(?:发送|发|转发)(?:给|到)我们"
)


def _negated(text: str, index: int) -> bool:
    """Whether one of the two words before ``index`` negates ("never send", "do not forward")."""
    if text[max(0, index - 3) : index].rstrip().endswith(_NEGATIONS_ZH):
        return True
    end = index
    for _ in range(2):
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        word, end = _previous_word(text, end)
        if not word:
            return False
        if word in _NEGATIONS:
            return True
    return False


# Words a title leaves in lower case ("Say Yes to the Dress").
_MINOR_TITLE_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "nor",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "as",
        "vs",
    ]
)
_TITLE_WORD = re.compile(r"[^\W\d_][\w'-]*")


def _is_title(original: str | None) -> bool:
    """Whether the whole text reads as a title: every word but the minor ones capitalised, and no
    closing full stop."""
    if original is None or original.rstrip().endswith("."):
        return False
    words = _TITLE_WORD.findall(original)
    return bool(words) and all(
        word[0].isupper() for word in words if word.casefold() not in _MINOR_TITLE_WORDS
    )


def _vetoed(rule: Rule, text: str, match: re.Match[str], original: str | None = None) -> bool:
    core = next((g for g in ("core", "core_imp", "core_zimp") if g in match.re.groupindex), 0)
    core_start, core_end = match.span(core)
    if rule.mention_veto:
        before = text[max(0, core_start - 2) : core_start].rstrip()
        after = text[core_end : core_end + 15]
        if before and before[-1] in _OPEN_QUOTES and any(q in after for q in _CLOSE_QUOTES):
            return True
    if rule.topic_veto and _TOPIC_COMPLEMENT.match(text, core_end) is not None:
        return True
    if rule.title_veto and _is_title(original):
        return True
    if rule.negation_veto and _negated(text, match.start()):
        return True
    return rule.recipient_veto and _OWN_RECIPIENT.search(match.group()) is not None


def _previous_word(text: str, end: int) -> tuple[str, int]:
    start = end
    while start > 0 and (_is_word_char(text[start - 1]) or text[start - 1] == "'"):
        start -= 1
    return text[start:end], start


def _at_clause_start(text: str, index: int) -> bool:
    """Whether an imperative could begin at ``index``: text start, after punctuation or a newline,
    or after a word like "please", "then", "und", "пожалуйста"."""
    end = index
    while end > 0 and text[end - 1] in " \t\u00a0":
        end -= 1
    if end == 0 or text[end - 1] in PUNCT_CHARS:
        return True
    if end == index:
        return False
    word, word_start = _previous_word(text, end)
    if word in IMP_WORDS:
        return True
    before = word_start
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    previous, _ = _previous_word(text, before)
    return f"{previous} {word}" in IMP_WORDS


def _word_at(text: str, index: int) -> str:
    end = index
    while end < len(text) and (_is_word_char(text[end]) or text[end] == "'"):
        end += 1
    return text[index:end]


def _repeated_before(text: str, word: str, start: int) -> bool:
    """Whether ``word`` ends a run of the same token ("ö ö ö ö"): filler put before a payload."""
    before = start
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    previous, _ = _previous_word(text, before)
    return previous == word


def _starts_by_case(original: str, index: int) -> bool:
    """Whether the case of the original text shows a sentence starting at ``index`` where its
    punctuation is missing: a capitalised verb before a lower-case word after a run of title words
    ("Altersarmut Deutschland Ignore all previous orders") or a shouted run inside a lower-case
    sentence ("How will I be able FORGET EVERYTHING ..."). Title-case headlines ("Why Chatbots
    Ignore Previous Instructions") and shouted headlines show neither."""
    word = _word_at(original, index)
    if len(word) < 2 or not word[0].isupper():
        return False
    after = index + len(word)
    while after < len(original) and original[after] in " \t":
        after += 1
    following = _word_at(original, after)
    end = index
    while end > 0 and original[end - 1] in " \t":
        end -= 1
    previous, previous_start = _previous_word(original, end)
    if previous and _repeated_before(original, previous, previous_start):
        return True
    if word.isupper():
        return bool(previous) and previous.islower() and following.isupper()
    return bool(following) and following[0].islower() and not previous.islower()


def _at_clause_start_zh(text: str, index: int) -> bool:
    end = index
    while end > 0 and text[end - 1] in " \t\u3000":
        end -= 1
    if end == 0 or text[end - 1] in PUNCT_CHARS:
        return True
    return text[max(0, end - 2) : end].endswith(IMP_WORDS_ZH)


def _imperative_groups(pattern: re.Pattern[str]) -> tuple[tuple[int, bool], ...]:
    """(group number, Chinese?) of each group that must start a clause."""
    return tuple(
        (number, name.startswith(("zimp", "core_zimp")))
        for name, number in pattern.groupindex.items()
        if name.startswith(("imp", "zimp", "core_imp", "core_zimp"))
    )


def _imperatives_hold(
    groups: tuple[tuple[int, bool], ...],
    text: str,
    match: re.Match[str],
    original: str | None,
) -> bool:
    for number, chinese in groups:
        start = match.start(number)
        if start < 0:
            continue
        if chinese:
            at_start = _at_clause_start_zh(text, start)
        else:
            at_start = _at_clause_start(text, start) or (
                original is not None and _starts_by_case(original, start)
            )
        if not at_start:
            return False
    return True


@dataclass(frozen=True, slots=True)
class _CompiledRule:
    pattern: re.Pattern[str]
    imperative_groups: tuple[tuple[int, bool], ...]
    # Shortcuts read off the expression (literals.py): a window without the words every match
    # holds is passed over; the starts of a window's possible matches are matched one by one.
    window_filter: literals.WindowFilter | None
    match_starts: literals.MatchStarts | None


@functools.cache
def _compiled_rule(rule_index: int) -> _CompiledRule:
    rule = _RULES[rule_index]
    pattern = rule.pattern.compiled()
    window_filter, match_starts = literals.shortcuts(pattern, frozenset(rule.triggers))
    return _CompiledRule(pattern, _imperative_groups(pattern), window_filter, match_starts)


def _search(
    rule_index: int,
    text: str,
    start: int,
    end: int,
    original: str | None = None,
    rejected: list[str] | None = None,
    shortcuts: bool = True,
) -> re.Match[str] | None:
    """The first match of the rule in text[start:end] that starts a clause and no veto removes;
    each match that fails is named in ``rejected``. Without ``shortcuts``, the expression is
    searched plainly (the reference the shortcuts must equal)."""
    compiled = _compiled_rule(rule_index)
    window_filter = compiled.window_filter
    if shortcuts and window_filter is not None and not window_filter.may_match(text, start, end):
        return None
    return _search_window(rule_index, text, start, end, original, rejected, shortcuts)


def _search_window(
    rule_index: int,
    text: str,
    start: int,
    end: int,
    original: str | None,
    rejected: list[str] | None,
    shortcuts: bool = True,
) -> re.Match[str] | None:
    """``_search`` in a window its filter has let through."""
    rule = _RULES[rule_index]
    compiled = _compiled_rule(rule_index)
    pattern = compiled.pattern
    if shortcuts and compiled.match_starts is not None:
        for position in compiled.match_starts.positions(text, start, end):
            match = pattern.match(text, position, end)
            if match is not None and _accepted(rule, compiled, text, match, original, rejected):
                return match
        return None
    position = start
    while True:
        match = pattern.search(text, position, end)
        if match is None:
            return None
        if _accepted(rule, compiled, text, match, original, rejected):
            return match
        # The next candidate may start inside this one ("to ignore ... and ignore ...").
        position = match.start() + 1


def _accepted(
    rule: Rule,
    compiled: _CompiledRule,
    text: str,
    match: re.Match[str],
    original: str | None,
    rejected: list[str] | None,
) -> bool:
    """Whether a match starts a clause and no veto removes it; if not, the rule is named in
    ``rejected``."""
    if _imperatives_hold(compiled.imperative_groups, text, match, original) and not _vetoed(
        rule, text, match, original
    ):
        return True
    if rejected is not None:
        rejected.append(rule.name)
    return False


def _forged_turns(text: str) -> str | None:
    """Two different role headers at line starts, one of them system, assistant or human, or the
    "### Instruction" and "### Response" headers of an instruction-tuning template."""
    roles = {m.group(1) or m.group(2) for m in any_language.ROLE_LINE.finditer(text)}
    if len(roles) >= 2 and roles & {"system", "assistant", "human", "response"}:
        return ", ".join(sorted(roles))
    return None


def _is_word_char(ch: str) -> bool:
    """A letter, digit or underscore of an alphabetic script (Latin, Greek, Cyrillic), not CJK."""
    return ch in gate.WORD_CHARS


def _first_match(
    folded: str,
    original: str | None,
    rejected: list[str] | None = None,
    hits: TriggerHits | None = None,
) -> tuple[InstructionLikeMatch | None, list[int]]:
    windows, role_lines_seen, disguised = _GATE.windows(folded, hits)
    if not windows and not role_lines_seen:
        return None, disguised
    for rule_index in sorted(windows):
        window_filter = _compiled_rule(rule_index).window_filter
        for start, end in windows[rule_index]:
            # _search, in two steps: most windows stop at the filter.
            if window_filter is not None and not window_filter.may_match(folded, start, end):
                continue
            match = _search_window(rule_index, folded, start, end, original, rejected)
            if match is not None:
                return InstructionLikeMatch(_RULES[rule_index].name, match.group()), disguised
    if role_lines_seen:
        roles = _forged_turns(folded)
        if roles is not None:
            return InstructionLikeMatch("any.forged_turns", roles), disguised
    return None, disguised


# The name the notice's match carries when the learned scorer, not a rule, flagged the text.
SCORER_RULE = "model.linear"


def find_instruction_like(text: str) -> InstructionLikeMatch | None:
    """An instruction-like passage of ``text``: the first rule, in rule order, that fires; or else,
    when no rule recognised a mention of its phrase (a quoted phrase, a phrase not starting a
    clause, a title, a correction, a warning), the best window of the learned scorer (scorer.py)
    when its score reaches the threshold."""
    folded, original = _prepare(text)
    rejected: list[str] = []
    found, disguised = _first_match(folded, original, rejected)
    if found is None and disguised:
        found = _reread(folded, original, disguised)
    if found is not None or rejected or not folded.strip():
        return found
    window = scorer.flagged_window(folded)
    return None if window is None else InstructionLikeMatch(SCORER_RULE, window)


def find_by_rules(
    folded: str,
    original: str | None,
    rejected: list[str] | None = None,
    hits: TriggerHits | None = None,
) -> InstructionLikeMatch | None:
    """The first rule that fires on the folded text (``_prepare``), disguised forms read again;
    the rules whose phrase was found but rejected as a mention are named in ``rejected``.
    ``hits`` are the folded text's ``trigger_hits`` when already found."""
    found, disguised = _first_match(folded, original, rejected, hits)
    if found is not None or not disguised:
        return found
    return _reread(folded, original, disguised)


def _reread(folded: str, original: str | None, disguised: list[int]) -> InstructionLikeMatch | None:
    """The first rule that fires on a disguised form read again. Only the stretches around the
    disguised words are read, so that a long page with one hyphenated slug or typo costs a few
    hundred characters more, not a second pass."""
    for lo, hi in gate.regions(disguised, len(folded)):
        region = folded[lo:hi]
        for reading in obfuscation.readings(region):
            found, _ = _first_match(reading, None)
            if found is not None:
                return found
        glued = obfuscation.glued_instruction(region)
        if glued is not None:
            return InstructionLikeMatch("any.spaced_out", glued)
        found = _decoded_match(original[lo:hi] if original is not None else "")
        if found is not None:
            return found
    return None


def _decoded_match(text: str) -> InstructionLikeMatch | None:
    """The first rule that fires on a base64 payload of ``text`` (as written), decoded."""
    for payload in obfuscation.decoded_payloads(text):
        found, _ = _first_match(*_prepare(payload))
        if found is not None:
            return InstructionLikeMatch(f"any.base64+{found.rule}", found.matched)
    return None


def is_instruction_like(text: str) -> bool:
    """Whether ``text`` reads as an instruction to the AI model that reads it."""
    return find_instruction_like(text) is not None
