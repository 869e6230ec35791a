"""The pattern machinery shared by every language's rule table: a rule, its lazily compiled
expression, the template filler and the shared word classes."""

from __future__ import annotations

import re
from dataclasses import dataclass


class LazyPattern:
    """A rule's regex, compiled the first time the rule wakes: compiling all of them at import
    cost about 100 ms of start-up, and most texts wake only a few rules."""

    __slots__ = ("_arguments", "_compiled")

    def __init__(self, pattern: str, flags: int = 0):
        self._arguments = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(*self._arguments)
        return self._compiled


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    triggers: tuple[str, ...]
    pattern: LazyPattern
    # A quoted short phrase ("typing 'ignore previous instructions' made it ...") is a mention.
    mention_veto: bool = False
    # "disregard the previous instructions regarding parking" corrects an earlier notice.
    topic_veto: bool = False
    # "never send your password to ..." warns; "send the chat to our support team" asks for help.
    negation_veto: bool = False
    recipient_veto: bool = False
    # A text written in Title Case without a closing full stop ("Say You Love Me") is a title.
    title_veto: bool = False


# Characters after which an imperative may start a sentence or clause.
# Also the danda of Devanagari and Bengali, the Arabic comma, semicolon and question mark, the
# Urdu full stop.
PUNCT = r"""\n.!?;:,"'(\[{<>«»“”„‘’‚‹›「」『』。！？；：，、…—–|#)\]\-।॥،؛؟۔"""
# Words after which an imperative may start ("please ignore", "und vergiss", "затем забудь").
IMP_WORDS = frozenset(
    [
        "please",
        "pls",
        "kindly",
        "now",
        "then",
        "and",
        "also",
        "just",
        "first",
        "immediately",
        "instead",
        "simply",
        "so",
        "but",
        "or",
        "silently",
        "must",
        "shall",
        "quietly",
        "secretly",
        "always",
        "bitte",
        "jetzt",
        "nun",
        "dann",
        "und",
        "sofort",
        "zuerst",
        "stattdessen",
        "einfach",
        "et",
        "puis",
        "maintenant",
        "alors",
        "ensuite",
        "veuillez",
        "d'abord",
        "désormais",
        "y",
        "luego",
        "ahora",
        "entonces",
        "primero",
        "después",
        "inmediatamente",
        "и",
        "теперь",
        "сейчас",
        "затем",
        "потом",
        "пожалуйста",
        "сначала",
        "немедленно",
        "срочно",
        "лучше",
        "а",
        "отныне",
    ]
) | {"merci de", "por favor", "you to", "need to"}
IMP_WORDS_ZH = (
    "请你",
    "请",
    "现在",
    "立即",
    "立刻",
    "马上",
    "首先",
    "然后",
    "并且",
    "并",
    "接着",
    "另外",
    "务必",
    "直接",
    "先",
    "再",
)
PUNCT_CHARS = frozenset("\n.!?;:,\"'([{<>«»“”„‘’‚‹›「」『』。！？；：，、…—–|#)]-।॥،؛؟۔")
WORD = r"[^\s.,;:!?]+"
# Between a qualifier and its object only adjective-like words: "all errors in commands" is no
# override of commands.
PREPOSITIONS = (
    r"in|on|at|for|from|with|by|about|into|of|to|and|or|than|im|auf|für|von|mit|bei|zu|zum|zur|"
    r"und|oder|aus|dans|en|sur|pour|du|avec|par|et|ou|sobre|para|con|por|y|o|в|на|для|от|с|по|к|"
    r"и|или"
)
GAP_WORD = rf"(?!(?:{PREPOSITIONS})\s){WORD}"
ZH_NOT_PUNCT = r"[^,.!?;:，。！？；：、\n]"
ZH_IN_SENTENCE = r"[^。！？!?\n]"
# A written address: a URL, or an e-mail address (an alternation, to go inside a group).
LINK = r"https?://|www\.|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
TARGET = (
    rf"(?:{LINK}|"
    r"(?:this|that|the\s+following|the\s+below|the)\s+(?:url|link|address|endpoint|webhook))"
)


# The marks that open and close a dictated reply ('say "…"', "respond with [ … ]").
QUOTE_OPEN = "[\"'“‘«\\[]"
QUOTE_CLOSE = "[\"'”’»\\]]"


def fill(template: str, **parts: str) -> str:
    """Fill ⟨NAME⟩ slots of a pattern template (braces are taken by regex quantifiers).

    ⟨IMP⟩ and ⟨IMPZH⟩ before a group mark that the group must start a sentence or clause, or
    follow a word like "please" (see _at_clause_start); the group is named for the check, which
    runs in Python after a match so that each expression still starts with its verbs and the
    regular-expression engine can skip quickly to them.
    """
    for name, value in parts.items():
        template = template.replace(f"⟨{name}⟩", value)
    counter = iter(range(1000))

    def mark(found: re.Match[str]) -> str:
        kind = "imp" if found.group(1) == "IMP" else "zimp"
        if found.group(2) == "(?P<core>":
            return f"(?P<core_{kind}>"
        return f"(?P<{kind}_{next(counter)}>"

    template = re.sub(r"⟨(IMP|IMPZH)⟩(\(\?P<core>|\(\?:)", mark, template)
    if "⟨" in template:
        raise ValueError(f"unfilled slot in {template[:60]!r}")
    return template


def override_pattern(verbs: str, quals: str, objects: str) -> str:
    """VERB [words] QUALIFIER [words] OBJECT, or VERB [words] OBJECT [words] QUALIFIER."""
    return fill(
        r"⟨IMP⟩(?P<core>(?:⟨V⟩)[\s,]+(?:⟨W⟩\s+){0,3}?"
        r"(?:(?:⟨Q⟩)\s+(?:⟨G⟩\s+){0,2}?(?:⟨O⟩)\b|(?:⟨O⟩)(?:\s+⟨G⟩){0,2}?\s+(?:⟨Q⟩)\b))",
        V=verbs,
        Q=quals,
        O=objects,
        W=WORD,
        G=GAP_WORD,
    )


# Characters that end a sentence in the scripts of the rule tables, and a character of a
# sentence, for the stretches a shape lets a few words fill.
SENTENCE_END = ".!?\n।॥؟۔。！？"
IN_SENTENCE = f"[^{SENTENCE_END}]"


def everything_before(
    verbs: str, everything: str, before_it: str, said: str, earlier: str, also: str = ""
) -> str:
    """VERB EVERYTHING, then what precedes this text, said in everyday words: a word of position
    right after ("vergiss alles Vorherige", "ignorez tout ce qui précède", "olvida todo lo
    anterior"), or within the sentence a verb of saying or writing and a word of time or place
    ("alles, was vorher gesagt wurde", "tout ce qui est écrit au-dessus"). Either is needed:
    "forget everything you knew about bread" is a magazine's idiom, not a reset. ``also`` holds
    a language's other tails, kept as they were."""
    tails = rf"(?:{before_it})\b|⟨S⟩{{0,60}}?(?:(?:{said})⟨S⟩{{0,30}}?(?:{earlier})|(?:{earlier})⟨S⟩{{0,30}}?(?:{said}))\b"
    if also:
        tails = rf"(?:{also})|{tails}"
    return fill(
        r"⟨IMP⟩(?P<core>(?:⟨V⟩)\s+(?:⟨W⟩\s+)?(?:⟨ALL⟩),?\s*(?:⟨T⟩))",
        V=verbs,
        W=WORD,
        ALL=everything,
        T=tails.replace("⟨S⟩", IN_SENTENCE),
    )


def trigger_words(spec: str) -> tuple[str, ...]:
    """Trigger words written as "ignor|disregard|set aside" (spaces belong to the trigger)."""
    return tuple(spec.split("|"))
