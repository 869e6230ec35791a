"""Shortcuts read off a rule's regular expression, so that most woken windows are settled
without running the expression over them.

A rule wakes on a trigger word, but most woken windows do not match: "real" wakes the Spanish
"new instructions" rule on every English page that says "real", and "ai" (in "said") the rules
about text addressed to AI readers. Searching an expression over a window of 500 characters
costs up to 25 µs even when it fails. Two facts about an expression's matches are cheaper to use:

- *clauses*: sets of strings of which every match holds at least one ("reading", "processing",
  ... for "AI models reading this page must ..."). A window lacking every string of a clause
  holds no match, and is passed over after one pass of a small automaton.
- *prefixes*: strings one of which starts every match ("dear", "hey", "assistant", ...). A match
  can only start where a prefix does, so matching there, in order, finds what a search would;
  for an expression that starts with many alternatives this is several times faster.

Both are derived from the parsed expression (``re._parser``, the standard library's own
parser), never written by hand, so they cannot drift from the rule, and neither can change a
verdict: tests/test_instruction_literals.py checks them against every match on the labelled set,
and bench/instruction_verdicts.py hashes every verdict before and after.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import ahocorasick_rs

try:  # The standard library's parser of regular expressions (sre_parse before 3.11).
    from re import _constants as sre_constants
    from re import _parser as sre_parser
except ImportError:  # pragma: no cover - a Python without it searches every window
    sre_parser = None

Clause = frozenset[str]

# A set of exact strings is given up when it grows past this many (a product of alternatives).
_MAX_STRINGS = 64
# Strings shorter than this are too common to be worth a look ("a", "s ").
_MIN_LENGTH = 3
# Small clauses looked for per window, the most selective first.
_SMALL_CLAUSES = 3
# Words of four letters or more on nearly every page of the rules' languages (shorter strings
# count as common anyway): a clause holding one skips few windows and makes the look slower.
_COMMON = frozenset(
    [
        "your",
        "with",
        "that",
        "this",
        "from",
        "have",
        "will",
        "what",
        "when",
        "they",
        "them",
        "were",
        "been",
        "more",
        "only",
        "also",
        "some",
        "nicht",
        "sind",
        "dass",
        "auch",
        "eine",
        "pour",
        "dans",
        "avec",
        "sont",
        "vous",
        "tous",
        "tout",
        "plus",
        "para",
        "como",
        "esta",
        "pero",
        "todo",
    ]
)
# A prefix set with fewer first characters than this is left to the expression's own search,
# which skips quickly to a position starting with one of them.
_MIN_FIRST_CHARS = 3


def _exact(node: tuple) -> set[str] | None:
    """Every string ``node`` can match, when they are few; None when they are not."""
    op, av = node
    if op is sre_constants.LITERAL:
        return {chr(av)}
    if op in (sre_constants.AT, sre_constants.ASSERT, sre_constants.ASSERT_NOT):
        return {""}  # they match no character of the text
    if op is sre_constants.IN:
        chars = set()
        for item_op, item_av in av:
            if item_op is sre_constants.LITERAL:
                chars.add(chr(item_av))
            elif item_op is sre_constants.RANGE and item_av[1] - item_av[0] < 8:
                chars.update(chr(c) for c in range(item_av[0], item_av[1] + 1))
            else:  # a negation, a category (\s, \w) or a wide range
                return None
        return chars
    if op is sre_constants.SUBPATTERN:
        _, add_flags, del_flags, sub = av
        return None if add_flags or del_flags else _exact_sequence(sub)
    if op is sre_constants.BRANCH:
        out: set[str] = set()
        for alternative in av[1]:
            strings = _exact_sequence(alternative)
            if strings is None:
                return None
            out |= strings
            if len(out) > _MAX_STRINGS:
                return None
        return out
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
        low, high, sub = av
        strings = _exact_sequence(sub) if high <= 2 else None
        if strings is None:
            return None
        out = set()
        for count in range(low, high + 1):
            out |= {"".join(parts) for parts in itertools.product(strings, repeat=count)}
        return out if len(out) <= _MAX_STRINGS else None
    return None


def _exact_sequence(nodes: Sequence[tuple]) -> set[str] | None:
    out = {""}
    for node in nodes:
        strings = _exact(node)
        if strings is None:
            return None
        out = {a + b for a in out for b in strings}
        if len(out) > _MAX_STRINGS:
            return None
    return out


def _long_enough(string: str) -> bool:
    """At least three characters, or any outside ASCII ("à", "给"): rare in most text."""
    return len(string) >= _MIN_LENGTH or (string != "" and not string.isascii())


def _clause(strings: set[str]) -> Clause | None:
    if not strings or not all(map(_long_enough, strings)):
        return None
    # A string holding another of the set adds nothing: the shorter one is found in it.
    return frozenset(s for s in strings if not any(o != s and o in s for o in strings))


def _rank(clause: Clause, triggers: frozenset[str]) -> tuple[bool, bool, int, int]:
    """Clauses that skip more windows first: none of the rule's triggers (a woken window holds
    one), no common word, a longer shortest string, fewer strings."""
    shortest = min(len(s) if s.isascii() else 4 for s in clause)
    # A string inside a trigger is in every woken window, and a trigger's inflection in most.
    woken = any(s in t or (t in s and len(s) <= len(t) + 2) for s in clause for t in triggers)
    return (woken, shortest < 4 or not clause.isdisjoint(_COMMON), -shortest, len(clause))


def _prefixes(nodes: Sequence[tuple]) -> set[str] | None:
    """Strings one of which starts every match of the sequence, or None."""
    run: set[str] = {""}
    for node in nodes:
        strings = _exact(node)
        if strings is not None:
            product = {a + b for a in run for b in strings}
            if len(product) <= _MAX_STRINGS:
                run = product
                continue
            return None if "" in run else run
        if "" not in run:
            return run
        own = _node_prefixes(node)
        if own is None:
            return None
        product = {a + b for a in run for b in own}
        return product if len(product) <= _MAX_STRINGS else None
    return None if "" in run else run


def _node_prefixes(node: tuple) -> set[str] | None:
    op, av = node
    if op is sre_constants.SUBPATTERN:
        _, add_flags, del_flags, sub = av
        return None if add_flags or del_flags else _prefixes(sub)
    if op is sre_constants.BRANCH:
        out: set[str] = set()
        for alternative in av[1]:
            own = _prefixes(alternative)
            if own is None:
                return None
            out |= own
        return out if len(out) <= _MAX_STRINGS else None
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT):
        low, _, sub = av
        return _prefixes(sub) if low >= 1 else None
    return None


def _parsed(pattern: str, flags: int) -> list[tuple] | None:
    """The expression's parse tree (its top-level sequence), or None when it cannot be read
    here: no parser, or case-insensitive matching, where the strings would not be literal."""
    if sre_parser is None:
        return None
    try:
        parsed = sre_parser.parse(pattern, flags)
    except Exception:  # noqa: BLE001 - an expression this parser does not read gets none
        return None
    if parsed.state.flags & sre_constants.SRE_FLAG_IGNORECASE:
        return None
    return list(parsed)


def match_prefixes(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Strings one of which starts every match of the expression, or None."""
    nodes = _parsed(pattern, flags)
    found = None if nodes is None else _prefixes(nodes)
    if not found:
        return None
    # A prefix that starts with another prefix adds no start.
    return frozenset(s for s in found if not any(o != s and s.startswith(o) for o in found))


def _clauses(node: tuple, triggers: frozenset[str]) -> list[Clause]:
    """Clauses every match of ``node`` satisfies."""
    op, av = node
    if op is sre_constants.SUBPATTERN:
        _, add_flags, del_flags, sub = av
        return [] if add_flags or del_flags else _sequence_clauses(sub, triggers)
    if op is sre_constants.ATOMIC_GROUP:
        return _sequence_clauses(av, triggers)
    if op is sre_constants.BRANCH:
        # Every match matches one alternative, so it holds a string of that one's best clause.
        union: set[str] = set()
        for alternative in av[1]:
            own = _sequence_clauses(alternative, triggers)
            if not own:
                return []
            union |= min(own, key=lambda clause: _rank(clause, triggers))
        clause = _clause(union)
        return [clause] if clause else []
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT):
        low, _, sub = av
        return _sequence_clauses(sub, triggers) if low >= 1 else []
    return []


def _sequence_clauses(nodes: Sequence[tuple], triggers: frozenset[str]) -> list[Clause]:
    """Clauses of a sequence: each run of exact parts (the product of their strings) and each
    other part's own clauses."""
    out: list[Clause] = []
    run: set[str] = {""}
    for node in nodes:
        strings = _exact(node)
        if strings is not None:
            product = {a + b for a in run for b in strings}
            if len(product) <= _MAX_STRINGS:
                run = product
                continue
        if (clause := _clause(run)) is not None:
            out.append(clause)
        run = strings if strings is not None else {""}
        if strings is None:
            out.extend(_clauses(node, triggers))
    if (clause := _clause(run)) is not None:
        out.append(clause)
    return out


def necessary_clauses(
    pattern: str, flags: int = 0, triggers: frozenset[str] = frozenset()
) -> tuple[Clause, ...]:
    """Clauses every match of the expression satisfies, the most selective first (for a rule
    woken by ``triggers``); none when nothing can be said."""
    nodes = _parsed(pattern, flags)
    if nodes is None:
        return ()
    clauses = set(_sequence_clauses(nodes, triggers))
    return tuple(sorted(clauses, key=lambda clause: _rank(clause, triggers)))


# A clause of at most this many strings is looked for with ``str.find``, string by string;
# a larger one with an automaton (one call, but its tables are seldom in the processor's cache).
_FIND_AT_MOST = 6


class WindowFilter:
    """Whether a window can hold a match of one expression: ``str.find`` for each string of a
    small clause, one pass of a small automaton over the window for the larger ones."""

    __slots__ = ("_automaton", "_clauses", "_small")

    def __init__(self, clauses: Sequence[Clause]) -> None:
        self._small = tuple(tuple(sorted(c)) for c in clauses if len(c) <= _FIND_AT_MOST)
        large = [c for c in clauses if len(c) > _FIND_AT_MOST]
        strings = sorted(set().union(*large))
        index = {string: i for i, string in enumerate(strings)}
        self._clauses = tuple(frozenset(index[s] for s in clause) for clause in large)
        # Bytes: a string is in a window exactly when its UTF-8 form is in the window's, and the
        # bytes automaton is the faster of the two.
        self._automaton = (
            ahocorasick_rs.BytesAhoCorasick([s.encode("utf-8") for s in strings])
            if strings
            else None
        )

    def may_match(self, text: str, start: int, end: int) -> bool:
        """False only when text[start:end] holds no string of one of the clauses."""
        find = text.find
        for clause in self._small:
            for string in clause:
                if find(string, start, end) >= 0:
                    break
            else:
                return False
        if self._automaton is None:
            return True
        window = text[start:end].encode("utf-8", "surrogatepass")
        hits = self._automaton.find_matches_as_indexes(window, overlapping=True)
        if not hits:
            return False
        if len(self._clauses) == 1:
            return True
        found = {i for i, _, _ in hits}
        return all(not clause.isdisjoint(found) for clause in self._clauses)


def window_filter(
    pattern: str, flags: int = 0, triggers: frozenset[str] = frozenset()
) -> WindowFilter | None:
    """The filter of the expression of a rule woken by ``triggers``, or None when no clause
    would skip a woken window: up to _SMALL_CLAUSES small clauses (looked for with
    ``str.find``, cheap even when the processor's caches are cold), else the best large one."""
    ranked = [
        (clause, _rank(clause, triggers)) for clause in necessary_clauses(pattern, flags, triggers)
    ]
    useful = [
        clause
        for i, (clause, (woken, common, _, _)) in enumerate(ranked)
        if not woken and (i == 0 or not common)
    ]
    small = [clause for clause in useful if len(clause) <= _FIND_AT_MOST][:_SMALL_CLAUSES]
    chosen = small or useful[:1]
    return WindowFilter(chosen) if chosen else None


class MatchStarts:
    """Where a match of one expression can start in a window: where one of its prefixes
    (``match_prefixes``) does. Matching at each of these in turn finds what a search would."""

    __slots__ = ("_automaton", "_bytes_automaton")

    def __init__(self, prefixes: frozenset[str]) -> None:
        ordered = sorted(prefixes)
        self._automaton = ahocorasick_rs.AhoCorasick(ordered)
        # For an ASCII window, whose byte offsets are its character offsets: the faster one.
        self._bytes_automaton = ahocorasick_rs.BytesAhoCorasick(
            [p.encode("utf-8") for p in ordered]
        )

    def positions(self, text: str, start: int, end: int) -> list[int]:
        window = text[start:end]
        if window.isascii():
            hits = self._bytes_automaton.find_matches_as_indexes(
                window.encode("ascii"), overlapping=True
            )
        else:
            hits = self._automaton.find_matches_as_indexes(window, overlapping=True)
        return sorted({start + s for _, s, _ in hits})


def shortcuts(
    pattern: re.Pattern[str], triggers: frozenset[str]
) -> tuple[WindowFilter | None, MatchStarts | None]:
    """The window filter and the match starts of a rule's expression (None where not useful)."""
    window = window_filter(pattern.pattern, pattern.flags, triggers)
    prefixes = match_prefixes(pattern.pattern, pattern.flags)
    starts = None
    if prefixes is not None and len({p[0] for p in prefixes}) >= _MIN_FIRST_CHARS:
        starts = MatchStarts(prefixes)
    return window, starts
