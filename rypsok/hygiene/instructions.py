"""Detection of instruction-like text in what other sites wrote (titles, snippets, page content).

A pattern detector for text that addresses the reading AI model or tries to redirect it: "ignore
all previous instructions", "you are now ...", chat-template tokens, requests to reveal a system
prompt, to call a tool or to send the conversation to a URL, "AI assistants reading this must ...",
in English, German, French, Spanish, Chinese and Russian. docs/instruction-like.md says what is
flagged and what is not, and the limits of the approach.

How it stays fast on a page of a megabyte: the text is case-folded once, an Aho-Corasick automaton
over literal trigger words finds the places worth a closer look in one pass, and each rule's own
regular expression is searched only in windows around its triggers. The outcome equals a search of
every rule over the whole text (tests/test_instructions.py checks this on the labelled set).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import ahocorasick_rs

__all__ = [
    "InstructionLikeMatch",
    "count_instruction_like",
    "find_instruction_like",
    "is_instruction_like",
]


@dataclass(frozen=True, slots=True)
class InstructionLikeMatch:
    """The first rule that fired: its name and the folded text it matched."""

    rule: str
    matched: str


class _LazyPattern:
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
class _Rule:
    name: str
    triggers: tuple[str, ...]
    pattern: _LazyPattern
    # A quoted short phrase ("typing 'ignore previous instructions' made it ...") is a mention.
    mention_veto: bool = False
    # "disregard the previous instructions regarding parking" corrects an earlier notice.
    topic_veto: bool = False
    # "never send your password to ..." warns; "send the chat to our support team" asks for help.
    negation_veto: bool = False
    recipient_veto: bool = False


# Characters after which an imperative may start a sentence or clause.
_PUNCT = r"""\n.!?;:,"'(\[{<>«»“”„‘’‚‹›「」『』。！？；：，、…—–|#)\]\-"""
# Words after which an imperative may start ("please ignore", "und vergiss", "затем забудь").
_IMP_WORDS = frozenset(
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
) | {"merci de", "por favor"}
_IMP_WORDS_ZH = (
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
_PUNCT_CHARS = frozenset("\n.!?;:,\"'([{<>«»“”„‘’‚‹›「」『』。！？；：，、…—–|#)]-")
_WORD = r"[^\s.,;:!?]+"
# Between a qualifier and its object only adjective-like words: "all errors in commands" is no
# override of commands.
_PREPOSITIONS = (
    r"in|on|at|for|from|with|by|about|into|of|to|and|or|than|im|auf|für|von|mit|bei|zu|zum|zur|"
    r"und|oder|aus|dans|en|sur|pour|du|avec|par|et|ou|sobre|para|con|por|y|o|в|на|для|от|с|по|к|"
    r"и|или"
)
_GAP_WORD = rf"(?!(?:{_PREPOSITIONS})\s){_WORD}"
_ZH_NOT_PUNCT = r"[^,.!?;:，。！？；：、\n]"
_ZH_IN_SENTENCE = r"[^。！？!?\n]"
_TARGET = (
    r"(?:https?://|www\.|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|"
    r"(?:this|that|the\s+following|the\s+below|the)\s+(?:url|link|address|endpoint|webhook))"
)


def _t(template: str, **parts: str) -> str:
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


def _override(verbs: str, quals: str, objects: str) -> str:
    """VERB [words] QUALIFIER [words] OBJECT, or VERB [words] OBJECT [words] QUALIFIER."""
    return _t(
        r"⟨IMP⟩(?P<core>(?:⟨V⟩)[\s,]+(?:⟨W⟩\s+){0,3}?"
        r"(?:(?:⟨Q⟩)\s+(?:⟨G⟩\s+){0,2}?(?:⟨O⟩)\b|(?:⟨O⟩)(?:\s+⟨G⟩){0,2}?\s+(?:⟨Q⟩)\b))",
        V=verbs,
        Q=quals,
        O=objects,
        W=_WORD,
        G=_GAP_WORD,
    )


def _words(spec: str) -> tuple[str, ...]:
    """Trigger words written as "ignor|disregard|set aside" (spaces belong to the trigger)."""
    return tuple(spec.split("|"))


# ---------------------------------------------------------------------------------------------
# English
# ---------------------------------------------------------------------------------------------
_EN_OVERRIDE_VERBS = (
    r"ignore|disregard|forget|discard|set\s+aside|pay\s+no\s+attention\s+to|"
    r"do\s+not\s+(?:follow|obey|heed)|don't\s+(?:follow|obey|heed)|stop\s+following|"
    r"no\s+longer\s+follow|cease\s+following|throw\s+(?:away|out)|scrap|ditch|abandon|"
    r"put\s+aside|pay\s+no\s+heed\s+to|take\s+no\s+notice\s+of"
)
_EN_OVERRIDE_TRIGGERS = _words(
    "ignor|disregard|forget|discard|set aside|no attention|not follow|not obey|"
    "not heed|don't follow|don't obey|don't heed|stop following|longer follow|"
    "cease following|throw away|throw out|scrap|ditch|abandon|put aside|no heed|"
    "no notice"
)
_EN_TEMPORAL = (
    r"previous|previously|prior|above|earlier|preceding|foregoing|former|original|initial|"
    r"existing"
)
_EN_QUALS = (
    _EN_TEMPORAL + r"|all(?!\s+the\b)|any|every|your|whatever|given|received|provided|"
    r"configured|programmed"
)
_EN_OBJECTS = (
    r"instructions?|directions|directives?|prompts?|rules|guidelines|guidance|commands|"
    r"programming|constraints|restrictions|polic(?:y|ies)|guardrails|safeguards|limitations|"
    r"system\s+prompt|system\s+messages?|training|orders"
)
_EN_WEAK_OBJECTS = r"messages|text|content|conversation|input|context"

# A persona switch needs a jailbreak marker somewhere near, or an AI noun as the very complement:
# "you are now an AI named Chaos", not "you are now an AI-certified professional".
_EN_JAILBREAK = (
    r"(?:\bdan\b|jailbr|unrestricted|unfiltered|uncensored|unbound\b|developer\s+mode|dev\s+mode|"
    r"god\s+mode|\bno\s+(?:\w+\s+)?(?:rules|restrictions|constraints|limits|limitations|filters|"
    r"guidelines|content\s+polic|censorship|morals|ethics|boundaries)|"
    r"without\s+(?:any\s+)?(?:\w+\s+)?(?:rules|restrictions|constraints|limits|limitations|"
    r"filters|guidelines|censorship|morals|ethics|content\s+polic)|"
    r"free\s+(?:of|from)\s+(?:all\s+|any\s+)?(?:rules|restrictions|limits|filters|guidelines|"
    r"censorship|constraints)|"
    r"bound\s+by\s+(?:your\s+|any\s+|the\s+)?(?:previous\s+|prior\s+)?(?:rules|guidelines|"
    r"restrictions|polic|programming|instructions)|"
    r"never\s+refuses?|do\s+anything\s+now|content\s+polic|norms\s+of|linux\s+terminal)"
)
_EN_AI_NOUN = (
    r"(?:ai|a\.i\.|artificial\s+intelligence|assistant|chatbot|bot|(?:ai|language|chat|gpt)\s+model|"
    r"model|llm|chatgpt|gpt[\w.]*)"
)
_EN_AI = _t(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*(?:[^\s.,;:!?]+\s+){0,3}?⟨N⟩"
    r"(?=\s*(?:[,.;:!?)\"'»”]|$)|\s+(?:that|who|which|with|without|named|called|and)\b))",
    J=_EN_JAILBREAK,
    N=_EN_AI_NOUN,
)
_EN_ADDRESSEE = (
    r"(?:ai|a\.i\.|llms?|large\s+language\s+models?|language\s+models?|chatgpt|gpt(?:-?\d[\w.]*)?|"
    r"claude|gemini|copilot|bard|bing(?:\s+chat)?|perplexity|llama|mistral|chatbots?|"
    r"ai\s+(?:assistants?|models?|agents?|systems?|chatbots?|bots?|crawlers?|readers?|tools?|"
    r"search\s+engines?)|(?:automated|autonomous)\s+agents?)"
)
_EN_ADDRESSEE_LIST = _t(
    r"⟨A⟩(?:(?:\s*,\s*|\s+(?:and|or|&)\s+)(?:other\s+)?(?:⟨A⟩|assistants?|agents?|crawlers?|"
    r"bots?|models?)){0,4}",
    A=_EN_ADDRESSEE,
)
_EN_AI_TRIGGERS = _words(
    "model|ai|a.i.|llm|language model|chatgpt|gpt|claude|gemini|copilot|bard|bing|"
    "perplexity|llama|mistral|chatbot|automated agent|autonomous agent"
)

_EN_RULES = [
    _Rule(
        "en.override",
        _EN_OVERRIDE_TRIGGERS,
        _LazyPattern(_override(_EN_OVERRIDE_VERBS, _EN_QUALS, _EN_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    _Rule(
        "en.override_weak_object",
        _EN_OVERRIDE_TRIGGERS,
        _LazyPattern(_override(_EN_OVERRIDE_VERBS, _EN_TEMPORAL, _EN_WEAK_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    _Rule(
        "en.override_everything",
        ("ignor", "disregard", "forget"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:ignore|disregard|forget)\s+(?:about\s+)?(?:everything|anything)"
                r"\s+(?:(?:that\s+)?(?:was\s+|were\s+|has\s+been\s+)?(?:said|written|stated|"
                r"mentioned|told)\s+)?(?:above|before|prior|previously|earlier|so\s+far|"
                r"up\s+to\s+(?:now|this\s+point)|"
                r"you(?:'ve|\s+have)?\s+(?:were\s+|been\s+)?(?:told|given|instructed|taught)|"
                r"(?:i|we|they)\s+(?:said|told\s+you)))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.override_above",
        ("ignor", "disregard", "forget"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?"
                r"(?:above|previous|preceding|foregoing)(?:\s+(?:text|content|input|message|"
                r"prompt))?)(?=\s*[,.;:!]|\s+and\b|\s+instead\b|\s+now\b)",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.override_user_request",
        ("ignor", "disregard", "forget"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:ignore|disregard|forget)\s+(?:the\s+)?(?:user's|users'|user)"
                r"\s+(?:original\s+|actual\s+|last\s+)?(?:question|request|query|message|prompt|"
                r"input|instructions?|task))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.override_aside",
        ("set", "put", "lay", "cast", "leave", "push"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:set|put|lay|cast|leave|push)\s+(?:⟨W⟩\s+){0,2}?(?:⟨Q⟩)\s+"
                r"(?:⟨G⟩\s+){0,2}?(?:⟨O⟩)\s+(?:aside|to\s+one\s+side|behind(?:\s+you)?)\b)",
                Q=_EN_QUALS,
                O=_EN_OBJECTS,
                W=_WORD,
                G=_GAP_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.instructions_void",
        ("your", "you were", "you have been", "you received", "given to you"),
        _LazyPattern(
            r"\b(?:your\s+(?:\w+\s+){0,2}?(?:instructions|directions|rules|guidelines|directives|"
            r"prompts?|guidance)|(?:the|all|any)\s+(?:\w+\s+){0,2}?(?:instructions|directions|"
            r"rules|guidelines|directives|prompts?|guidance)\s+(?:(?:that|which)\s+)?you\s+"
            r"(?:were\s+given|have\s+been\s+given|received|got|were\s+told)\b[^.\n]{0,40}?)\s+"
            r"(?:\w+\s+){0,4}?(?:no\s+longer\s+(?:apply|applies|hold|matter|count|stand|"
            r"valid)|(?:are|is|were)\s+(?:now\s+)?(?:void|null|obsolete|superseded|cancell?ed|"
            r"revoked|invalid|overridden|replaced))\b"
        ),
    ),
    _Rule(
        "en.identity",
        _words(
            "you are now|you're now|you will now|you'll now|now you are|from now on|"
            "from this moment|from this point|henceforth|no longer|going to pretend|"
            "going to act|going to play|going to be|going to roleplay|brand-new|brand new|"
            "you are a new|you are a fresh|you are a different|you are an new"
        ),
        _LazyPattern(
            _t(
                r"(?P<core>\b(?:you\s+are\s+now|you're\s+now|you\s+will\s+now|you'll\s+now|"
                r"now\s+you\s+are|from\s+now\s+on,?\s+you(?:\s+are|'re|\s+will\s+be)?|"
                r"you\s+are\s+(?:now\s+)?(?:a|an)\s+(?:brand[\s-]new|new|fresh|different)|"
                r"from\s+this\s+(?:moment|point)\s+on,?\s+you(?:\s+are|'re)?|henceforth,?\s+you(?:\s+are)?|"
                r"you\s+are\s+no\s+longer|you're\s+no\s+longer|"
                r"(?:you\s+are|you're)\s+going\s+to\s+(?:pretend|act|play|be|roleplay))\b)"
                r"⟨AI⟩",
                AI=_EN_AI,
            )
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.pretend",
        _words(
            "pretend|act as|roleplay|role-play|play the role|play the part|behave as|"
            "behave like|respond as|answer as|impersonat|simulate|take on the"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:pretend\s+(?:to\s+be|you\s+are|you're|that\s+you\s+are)|"
                r"act\s+as(?!\s+(?:if|though|a\s+reference))|roleplay\s+as|role-play\s+as|"
                r"play\s+the\s+(?:role|part)\s+of|behave\s+(?:as|like)|respond\s+as|answer\s+as|"
                r"impersonate|simulate\s+(?:being|an?)|take\s+on\s+the\s+(?:role|persona)\s+of)\b)"
                r"⟨AI⟩",
                AI=_EN_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.want_you_to_act",
        ("want you to", "need you to", "you will act", "you will pretend", "you will roleplay"),
        _LazyPattern(
            r"\bi\s+(?:want|need|would\s+like)\s+you\s+to\s+(?:act|pretend|roleplay|role-play|"
            r"play\s+the\s+role|impersonate|simulate)\b|"
            r"\byou\s+will\s+(?:act|pretend|roleplay)\s+(?:as|to\s+be)\b"
        ),
    ),
    _Rule(
        "en.new_instructions",
        _words(
            "new instruction|new system|new directive|new rules|new prompt|new orders|"
            "new commands|new task|updated instruction|revised instruction|real instruction|"
            "actual instruction|true instruction|hidden instruction|secret instruction|"
            "overriding instruction|override instruction"
        ),
        _LazyPattern(
            _t(
                r"(?:^|(?<=[⟨P⟩])\s*|\b(?:here\s+are|these\s+are|the)\s+)"
                r"(?:new|updated|revised|real|actual|true|hidden|secret|overriding|override)\s+"
                r"(?:system\s+)?(?:instructions?|directives?|rules|prompt|orders|commands|task)"
                r"\s*(?::|are\s*:|follow\s*:)|"
                r"\b(?:begin|start|beginning\s+of|start\s+of)\s+(?:the\s+)?new\s+(?:system\s+)?"
                r"(?:instructions?|prompt|directives?|session|rules)\b|"
                r"\bnew\s+system\s+(?:message|prompt|instructions?|directive)\b|"
                r"\bnew\s+instructions?\s+from\s+(?:the\s+user|your\s+\w+|the\s+(?:developer|"
                r"administrator|admin|operator|system))",
                P=_PUNCT,
            ),
            re.M,
        ),
    ),
    _Rule(
        "en.system_message",
        _words(
            "system override|system message|system notice|system alert|system notification|"
            "system instruction|system prompt:"
        ),
        _LazyPattern(
            r"\bsystem\s+override\b|"
            r"\bsystem\s+(?:message|notice|notification|alert|instruction|prompt)\s*:"
            r"[^\n]{0,120}?\b(?:you|your)\b[^\n]{0,80}?(?:reveal|ignore|disabled|deactivated|"
            r"lifted|removed|overridden|suspended|bypass|no\s+longer\s+appl)"
        ),
    ),
    _Rule(
        "en.instructions_changed",
        _words("your"),
        _LazyPattern(
            r"\byour\s+(?:previous\s+|prior\s+|original\s+|old\s+|current\s+|safety\s+|core\s+)?"
            r"(?:instructions|rules|guidelines|restrictions|directives|programming|system\s+prompt)"
            r"\s+(?:have|has|were|are)\s+(?:now\s+)?(?:been\s+)?(?:changed|updated|replaced|void|"
            r"cancell?ed|revoked|overridden|lifted|removed|disabled|suspended|obsolete|"
            r"no\s+longer\s+(?:valid|apply|in\s+effect))|"
            r"\byour\s+(?:new|real|true|actual|only)\s+(?:task|mission|instructions?|directive|"
            r"assignment)\s+(?:is|are|will\s+be|now\s+is)\b|"
            r"\byour\s+(?:new|real|true|actual)\s+(?:task|mission|instructions?|directive)\s*:"
        ),
    ),
    _Rule(
        "en.authority",
        _words(
            "this is your|from your|authorized you|authorised you|permitted you|allowed you|"
            "authorized to|authorised to|permitted to|allowed to|your content filter|"
            "your filter|your safety|your guardrails|your restrictions|your guidelines|"
            "your rules|your moderation|your censorship|your limitations|your content|"
            "overrid"
        ),
        _LazyPattern(
            r"\bthis\s+is\s+your\s+(?:developer|creator|administrator|admin|operator|owner|"
            r"programmer|maker)\s+(?:speaking|talking|writing)\b|"
            r"\b(?:message|instructions?|orders?|directive|note)\s+from\s+your\s+(?:administrator|"
            r"admin|developers?|creators?|operator|owner|programmers?|makers?)\b|"
            r"\b(?:the\s+user|i)\s+(?:has|have)\s+(?:explicitly\s+)?(?:authori[sz]ed|permitted|"
            r"allowed)\s+you\s+to\b|"
            r"\byou\s+(?:are|have\s+been)\s+(?:now\s+)?(?:authori[sz]ed|permitted|allowed)\s+to\s+"
            r"(?:share|reveal|ignore|send|bypass|disable|post|leak|disclose|break|violate)\b|"
            r"\boverride\s+(?:all\s+)?(?:your|(?:all\s+)?(?:the\s+)?(?:previous|prior|above|earlier|"
            r"original|initial))\s+(?:\w+\s+)?(?:instructions|programming|rules|guidelines|"
            r"restrictions|safety|system\s+prompt|directives)\b|"
            r"\b(?:disable|turn\s+off|deactivate|bypass|switch\s+off|remove)\s+your\s+"
            r"(?:content\s+|safety\s+|moderation\s+)?(?:filters?|safety|guardrails|restrictions|"
            r"guidelines|rules|moderation|censorship|limitations)\b"
        ),
    ),
    _Rule(
        "en.reveal_prompt",
        _words(
            "system prompt|system message|system instructions|initial|original|hidden|"
            "secret|internal|prompt|instructions|custom instructions|context window"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:reveal|repeat|print|output|show|display|tell\s+me|share|leak|"
                r"dump|write\s+(?:out|down)|recite|disclose|expose|give\s+me|return|paste|copy|"
                r"spell\s+out|list|echo|provide)\s+(?:me\s+)?(?:[\w']+\s+){0,4}?"
                r"(?:system\s+(?:prompt|message|instructions)|"
                r"(?:initial|original|hidden|secret|internal|pre-?|starting|first|full|exact|"
                r"developer)\s*(?:prompt|instructions|rules|guidelines|message)|"
                r"custom\s+instructions|context\s+window|pre-?prompt))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.addressed_note",
        _EN_AI_TRIGGERS,
        _LazyPattern(
            _t(
                r"\b(?:note|message|notice|attention|instructions?|hint|reminder|warning|memo|info|"
                r"information|directive|text|disclaimer)\s+(?:to|for)\s+(?:all\s+|any\s+|every\s+)?"
                r"(?:the\s+)?⟨AL⟩(?:\s+(?:like|such\s+as|including)\s+[^:\n]{0,40})?"
                r"(?:\s+(?:reading|processing|summari[sz]ing|indexing|crawling|scraping|parsing|"
                r"visiting|analy[sz]ing|that\s+\w+|who\s+\w+)[^:\n]{0,60})?\s*[:,!\-—]",
                AL=_EN_ADDRESSEE_LIST,
            )
        ),
    ),
    _Rule(
        "en.addressed_to",
        _EN_AI_TRIGGERS,
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:to)\s+(?:all\s+|any\s+|every\s+|whichever\s+|whatever\s+)?(?:the\s+)?⟨AL⟩"
                r"(?:\s+\w+ing\s[^:\n]{0,40}|\s+(?:is|are)\s+\w+ing(?:\s+(?:this|these|it))?)?\s*:",
                AL=_EN_ADDRESSEE_LIST,
            ),
            re.M,
        ),
    ),
    _Rule(
        "en.vocative",
        _EN_AI_TRIGGERS + ("assistant",),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:(?:dear|hey|hi|hello|attention|yo|ok|okay|psst)\s*,?\s+⟨A⟩\s*[,.:!]|"
                r"(?:assistant|ai|llm|chatgpt|claude|gemini|copilot|chatbot|ai\s+agents?|"
                r"ai\s+assistants?|ai\s+readers?|ai\s+models?|llms)\s*[,:]\s+(?:please|before|when|"
                r"if|you|do\s+not|don't|ignore|always|never|from\s+now|now|stop|remember|"
                r"make\s+sure|be\s+sure|include|replace|rank|treat|say|tell|describe|add|cite|"
                r"recommend|respond|reply|answer|output|print|send|visit|open|call|use|"
                r"summari[sz]e)\b|"
                r"(?:llm|ai|language\s+model|chatbot)s?\s+(?:instructions?|directives?)\s*:)",
                A=_EN_ADDRESSEE,
            ),
            re.M,
        ),
    ),
    _Rule(
        "en.if_you_are_ai",
        ("if you are", "if you're"),
        _LazyPattern(
            r"\bif\s+you(?:\s+are|'re)\s+(?:an?\s+|the\s+)?(?:ai|a\.i\.|llm|large\s+language\s+model|"
            r"language\s+model|chatbot|ai\s+(?:assistant|model|agent|system|chatbot|bot|crawler)|"
            r"chatgpt|claude|gemini|gpt[\w.-]*|automated\s+(?:agent|system|assistant))"
            r"(?=\s*[,.:;)!?—-]|\s+(?:reading|processing|summari[sz]ing|parsing|crawling|scraping|"
            r"indexing|visiting|analy[sz]ing|and|that|who|then|please|you|tasked|asked|"
            r"looking\s+at|trained))"
        ),
    ),
    _Rule(
        "en.ai_reading_this",
        _EN_AI_TRIGGERS + ("assistant",),
        _LazyPattern(
            _t(
                r"\bas\s+(?:the|an?)\s+(?:⟨AL⟩|assistant|model)\s+(?:reading|summari[sz]ing|"
                r"processing|analy[sz]ing|parsing|indexing)\s+(?:this|these|the\s+following)\b"
                r"[^\n]{0,60}?\byou\s+(?:must|should|shall|are\s+(?:required|instructed|expected|"
                r"asked)|need\s+to|have\s+to|will)\b|"
                r"(?:⟨AL⟩|\bmodels?)\s+(?:reading|processing|summari[sz]ing|indexing|crawling|scraping|parsing|"
                r"visiting|analy[sz]ing|browsing|that\s+(?:read|reads|process|processes|crawl|"
                r"crawls|visit|visits|index|indexes|scrape|summari[sz]e)|who\s+(?:read|reads|"
                r"process))\s+(?:this|these|the\s+(?:following|present|current))\b[^\n]{0,120}?"
                r"(?:\b(?:must|should|shall|are\s+(?:required|instructed|asked|expected|requested)|"
                r"need\s+to|have\s+to|will|please)\b|:)",
                AL=_EN_ADDRESSEE_LIST,
            )
        ),
    ),
    _Rule(
        "en.summary_directive",
        ("summariz", "summaris"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:do\s+not|don't|never)\s+summari[sz]e\s+(?:this|the)\s+(?:page|document|"
                r"text|article|content|site|email|website|post|message)\b|"
                r"\bwhen\s+(?:you\s+)?summari[sz](?:e|ing)\s+(?:this|the)\s+(?:page|document|text|"
                r"article|content|site|website|post),?\s+(?:say|describe|state|mention|add|include|"
                r"tell|write|call|present|note|claim|emphasi[sz]e|always|never|do\s+not|don't|"
                r"make\s+sure|be\s+sure)\b",
            ),
            re.M,
        ),
    ),
    _Rule(
        "en.exfiltrate",
        _words(
            "conversation|chat|transcript|history|previous message|api key|credential|"
            "secret|token|password|private key|ssh|id_rsa|.env|environment variable|cookies|"
            "system prompt"
        ),
        _LazyPattern(
            _t(
                r"\b(?:send|post|forward|upload|transmit|exfiltrate|leak|e-?mail|mail|append|attach|"
                r"embed|encode|submit|paste|publish|share|copy|put|insert|report)\b"
                r"(?:[^.!?\n]|\.(?=\S)){0,60}?"
                r"(?:conversation|chat\s+(?:history|log|transcript)|transcript|"
                r"(?:message|chat|conversation|browsing)\s+history|previous\s+messages?|"
                r"your\s+(?:api\s+keys?|credentials|secrets?|tokens?|passwords?|system\s+prompt|"
                r"instructions|memory|context|environment)|api\s+keys?|access\s+tokens?|"
                r"credentials|passwords?|private\s+keys?|ssh\b|id_rsa|\.env\b|"
                r"environment\s+variables|session\s+(?:cookies|tokens?)|system\s+prompt)"
                r"[^!?\n]{0,80}?\b(?:to|into|at|via|on)\s+[^.!?\n]{0,20}?⟨T⟩",
                T=_TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    _Rule(
        "en.exfiltrate_user_data",
        ("user's", "users'", "the user"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:send|post|forward|upload|transmit|exfiltrate|leak|e-?mail|mail|append|"
                r"attach|embed|encode|submit|paste|publish|copy|add|include|insert)\b"
                r"[^.!?\n]{0,60}?\b(?:the\s+)?(?:user's|users'|user)\s+[^!?\n]{0,80}?"
                r"\b(?:to|into|at|via|on)\s+[^.!?\n]{0,20}?⟨T⟩",
                T=_TARGET,
            ),
            re.M,
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    _Rule(
        "en.append_to_url",
        ("append", "add it", "add them", "attach"),
        _LazyPattern(
            r"\b(?:append|add|attach|concatenate)\s+(?:it|them|this|the\s+result|the\s+answer|"
            r"the\s+encoded\s+\w+)\s+to\s+(?:the\s+end\s+of\s+)?(?:the\s+)?(?:url\s+)?https?://"
        ),
    ),
    _Rule(
        "en.dump_context",
        ("output", "print", "repeat", "show", "display", "write out", "reproduce", "copy", "echo"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:output|print|repeat|show|display|write\s+out|reproduce|copy|echo)"
                r"\s+(?:me\s+)?(?:everything|all\s+(?:of\s+)?(?:the\s+)?(?:text|content|messages)|"
                r"the\s+(?:text|content|messages))\s+(?:above|before|preceding)\s+(?:this\s+(?:line|"
                r"point|message|sentence)|here)\b)"
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "en.instructions_header",
        (
            "assistant instruction",
            "ai instruction",
            "llm instruction",
            "model instruction",
            "chatbot instruction",
            "agent instruction",
            "system instruction",
        ),
        _LazyPattern(
            r"\b(?:assistant|ai|llm|model|chatbot|agent|system)\s+instructions?\s+(?:begin|start|"
            r"follow|below)\b|\b(?:begin|start)\s+(?:of\s+)?(?:assistant|ai|llm|system)\s+"
            r"instructions\b"
        ),
    ),
    _Rule(
        "en.url_with_user_data",
        ("http",),
        _LazyPattern(
            r"https?://\S+\s+(?:with|including|containing|plus)\s+(?:the\s+)?(?:user's\s+|users'\s+|"
            r"full\s+)?(?:question|query|message|messages|conversation|chat\s+history|history|"
            r"prompt|system\s+prompt|api\s+keys?|password|credentials|secrets?)\b[^.\n]{0,30}?"
            r"(?:appended|attached|included|added|as\s+(?:a\s+)?(?:parameter|query))"
        ),
    ),
    _Rule(
        "en.tool_call",
        _words(
            "web_fetch|web_search|fetch_url|send_email|http_request|run_shell|browse_web|"
            "your brows|your web|your search|your fetch|your shell|your email|your code|"
            "your terminal|your python|your file|the fetch tool|the browsing tool|"
            "the browser tool|follow what it says|follow the instructions"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:call|invoke|use|run|execute|trigger|launch|open|fetch|visit)\s+"
                r"(?:the\s+)?(?:web_fetch|web_search|fetch_url|send_email|http_request|run_shell|"
                r"browse_web)\b|"
                r"\b(?:with|using|via|use)\s+your\s+(?:browsing|browser|web|search|fetch|shell|"
                r"email|code|terminal|python|file)\s*(?:browsing\s+)?(?:tool|plugin|capability|"
                r"ability|access|function)|"
                r"\b(?:with|using|via)\s+the\s+(?:web_fetch|web_search|fetch|browsing|browser)\s+"
                r"tool\b|"
                r"\band\s+follow\s+(?:what\s+it\s+says|the\s+instructions\s+(?:there|on\s+(?:that|"
                r"the)\s+page|it\s+contains|inside|found\s+there))",
            ),
            re.M,
        ),
    ),
]

# ---------------------------------------------------------------------------------------------
# German
# ---------------------------------------------------------------------------------------------
_DE_OVERRIDE_VERBS = (
    r"ignoriere|ignorier|ignoriert|ignorieren\s+sie|vergiss|vergesst|vergessen\s+sie|missachte|"
    r"missachtet|missachten\s+sie|übergehe|übergeht|übergehen\s+sie|verwirf|verwerft|"
    r"verwerfen\s+sie|befolge\s+(?:nicht|keine)(?:\s+(?:mehr|länger))?|"
    r"befolgt\s+(?:nicht|keine)(?:\s+(?:mehr|länger))?|"
    r"befolgen\s+sie\s+(?:nicht|keine)(?:\s+(?:mehr|länger))?|beachte\s+(?:nicht|keine)|"
    r"beachten\s+sie\s+(?:nicht|keine)|setze\s+dich\s+über|setzen\s+sie\s+sich\s+über"
)
_DE_QUALS = (
    r"alle|allen|sämtlich\w*|jeglich\w*|dein\w*|ihre\w*|eure\w*|bisherig\w*|vorherig\w*|vorig\w*|"
    r"vorangegangen\w*|vorhergehend\w*|früher\w*|obig\w*|oben\s+\w+|ursprünglich\w*|"
    r"anfänglich\w*|erhalten\w*|gegeben\w*"
)
_DE_OBJECTS = (
    r"\w*anweisung\w*|instruktion\w*|befehl\w*|\w*regeln?|vorgabe\w*|\w*richtlinie\w*|"
    r"anordnung\w*|direktive\w*|\w*prompts?|programmierung|einschränkung\w*|beschränkung\w*|"
    r"anleitung\w*|vorschrift\w*"
)
_DE_AI = _t(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*"
    r"(?:[^\s.,;:!?]+\s+){0,3}?⟨N⟩(?=\s*(?:[,.;:!?)\"'»“”]|$)|\s+(?:der|die|das|namens|ohne|mit|"
    r"und)\b))",
    J=r"(?:\bdan\b|jailbreak|entwicklermodus|ohne\s+(?:jegliche\s+|alle\s+|irgendwelche\s+)?"
    r"(?:\w+\s+)?(?:einschränkung|beschränkung|regeln|\w*richtlinien|filter|zensur|grenzen)|"
    r"unzensiert|uneingeschränkt|keine\s+(?:\w+\s+)?(?:richtlinien|regeln|einschränkungen|"
    r"grenzen|filter)|niemals\s+ablehnt|nie\s+ablehnt|linux-terminal)",
    N=r"(?:ki|ki-(?:assistent|modell|system|bot|agent)\w*|künstliche\w*\s+intelligenz|"
    r"assistent\w*|chatbot|bot|sprachmodell|modell|llm|chatgpt|gpt\w*)",
)
_DE_ADDRESSEE = (
    r"(?:ki|ki-(?:assistent|agent|modell|system|crawler|bot|tool)\w*|sprachmodell\w*|llms?|"
    r"chatgpt|claude|gemini|copilot|chatbots?|künstliche\w*\s+intelligenz\w*)"
)
_DE_ADDRESSEE_LIST = _t(
    r"⟨A⟩(?:(?:\s*,\s*|\s+(?:und|oder)\s+)(?:andere\w*\s+)?⟨A⟩){0,4}", A=_DE_ADDRESSEE
)
_DE_AI_TRIGGERS = _words(
    "ki|sprachmodell|modell|llm|chatgpt|claude|gemini|copilot|chatbot|künstliche"
)

_DE_RULES = [
    _Rule(
        "de.override",
        _words(
            "ignorier|vergiss|vergesst|vergessen sie|missacht|übergeh|verwirf|verwerf|"
            "befolge|beachte|beachten sie|über"
        ),
        _LazyPattern(_override(_DE_OVERRIDE_VERBS, _DE_QUALS, _DE_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    _Rule(
        "de.override_everything",
        _words("vergiss|vergesst|vergessen sie|ignorier"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:vergiss|vergesst|vergessen\s+sie|ignoriere|ignorieren\s+sie)\s+"
                r"alles,?\s+(?:was\s+(?:dir|ihnen|euch|man\s+dir|man\s+ihnen)\s+(?:\w+\s+){0,2}?"
                r"(?:gesagt|aufgetragen|befohlen|vorgegeben|erklärt|mitgeteilt|beigebracht)|"
                r"(?:bisherige|vorherige|obige|davor|zuvor|vorher|bisher)))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "de.override_user_request",
        _words("ignorier|vergiss|vergessen sie|missacht"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:ignoriere|ignorieren\s+sie|vergiss|vergessen\s+sie|missachte)\s+"
                r"(?:die|den|das)\s+(?:frage|anfrage|bitte|aufforderung|eingabe|nachricht|auftrag|"
                r"wunsch)\s+(?:des|der)\s+(?:nutzers|benutzers|users|anwenders|nutzerin|"
                r"benutzerin|kunden|menschen))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "de.override_aside",
        ("lass", "lasst", "lassen sie", "schieb", "leg", "stell"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:lass|lasst|lassen\s+sie|schieb\w*|leg\w*|stell\w*)\s+"
                r"(?:⟨W⟩\s+){0,2}?(?:⟨Q⟩)\s+(?:⟨G⟩\s+){0,2}?(?:⟨O⟩)\s+(?:⟨W⟩\s+){0,2}?"
                r"(?:ausser\s+acht|beiseite|links\s+liegen|zurück)\b)",
                Q=_DE_QUALS,
                O=_DE_OBJECTS,
                W=_WORD,
                G=_GAP_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "de.instructions_void",
        ("deine", "ihre", "eure"),
        _LazyPattern(
            r"\b(?:deine|ihre|eure)\s+(?:\w+\s+){0,2}?(?:\w*anweisungen|\w*regeln|\w*richtlinien|"
            r"vorgaben|befehle|instruktionen)\s+(?:\w+\s+){0,3}?(?:gelten|zählen|sind)\s+"
            r"(?:ab\s+sofort\s+|jetzt\s+|nun\s+|ab\s+jetzt\s+)?(?:nicht\s+mehr|ungültig|aufgehoben|"
            r"hinfällig|nichtig|ausser\s+kraft)"
        ),
    ),
    _Rule(
        "de.identity",
        _words(
            "du bist|bist du|sie sind|ab sofort|ab jetzt|von nun an|ab heute|"
            "ab diesem moment|ab hier"
        ),
        _LazyPattern(
            _t(
                r"(?P<core>\b(?:du\s+bist|bist\s+du|sie\s+sind)\s+(?:jetzt|nun|ab\s+sofort|"
                r"ab\s+jetzt|von\s+nun\s+an|ab\s+heute|nicht\s+mehr|keine?\s+(?:ki|assistent))|"
                r"\b(?:ab\s+sofort|ab\s+jetzt|von\s+nun\s+an|ab\s+heute|ab\s+diesem\s+moment|"
                r"ab\s+hier),?\s+(?:bist\s+du|du\s+bist|handelst\s+du|antwortest\s+du|wirst\s+du|"
                r"verhältst\s+du|agierst\s+du|spielst\s+du|sprichst\s+du|handle|antworte|agiere|"
                r"verhalte\s+dich))\b⟨AI⟩",
                AI=_DE_AI,
            )
        ),
        mention_veto=True,
    ),
    _Rule(
        "de.pretend",
        _words(
            "handle|handeln sie|agiere|agieren sie|verhalte|verhalten sie|tu so|tun sie so|"
            "spiele die rolle|spielen sie die rolle|gib dich|geben sie sich|stell dir vor|"
            "fungiere|antworte als"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:(?:handle|handeln\s+sie|agiere|agieren\s+sie)\s+(?:\w+\s+){0,2}?"
                r"(?:als|wie)|verhalte\s+dich|verhalten\s+sie\s+sich|tu\s+so,?\s+als|"
                r"tun\s+sie\s+so,?\s+als|spiele\s+die\s+rolle|spielen\s+sie\s+die\s+rolle|"
                r"gib\s+dich|geben\s+sie\s+sich|stell\s+dir\s+vor,?\s+du\s+(?:bist|wärst)|"
                r"fungiere|antworte\s+als)\b)⟨AI⟩",
                AI=_DE_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "de.want_you_to_act",
        ("dass du",),
        _LazyPattern(
            r"\bich\s+(?:möchte|will|hätte\s+gern),?\s+dass\s+du\s+(?:als|wie|die\s+rolle)\b"
        ),
    ),
    _Rule(
        "de.new_instructions",
        _words(
            "neue|aktualisierte|echte|wahre|geheime|versteckte|aufgabe|systemmeldung|"
            "systemnachricht|systemhinweis|system-nachricht|system-meldung|wurden|sind"
        ),
        _LazyPattern(
            _t(
                r"(?:^|(?<=[⟨P⟩])\s*)(?:neue|aktualisierte|echte|wahre|geheime|versteckte)\s+"
                r"(?:system)?(?:anweisungen?|instruktionen|befehle|regeln|aufgabe|vorgaben)\s*:|"
                r"\b(?:deine|ihre)\s+(?:neue|eigentliche|wahre|echte)\s+aufgabe\s+(?:ist|lautet|"
                r"besteht)|\b(?:deine|ihre)\s+neue\s+aufgabe\s*:|"
                r"\bsystem(?:meldung|nachricht|hinweis|-nachricht|-meldung)\s*:[^\n]{0,120}?"
                r"\b(?:du|dein\w*|dich|dir|ihre?)\b[^\n]{0,80}?(?:regeln|richtlinien|anweisungen|"
                r"einschränkungen|filter|sicherheit|deaktiviert|aufgehoben|ignoriere)|"
                r"\b(?:deine|ihre)\s+(?:\w+\s+)?(?:\w*anweisungen|\w*regeln|\w*richtlinien|"
                r"einschränkungen|vorgaben)\s+(?:wurden|sind)\s+(?:jetzt\s+|nun\s+)?(?:deaktiviert|"
                r"aufgehoben|geändert|ersetzt|ungültig|ausser\s+kraft|gelöscht|entfernt)",
                P=_PUNCT,
            ),
            re.M,
        ),
    ),
    _Rule(
        "de.reveal_prompt",
        _words(
            "systemprompt|system-prompt|system prompt|systemnachricht|ursprünglich|"
            "anfänglich|initial|versteckt|geheim|intern"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:gib|geben\s+sie|zeig|zeige|zeigen\s+sie|verrate|verraten\s+sie|"
                r"nenne|nennen\s+sie|wiederhole|wiederholen\s+sie|drucke|schreibe|schreib|poste|"
                r"teile|enthülle|liste|kopiere)\s+(?:mir\s+|uns\s+)?(?:⟨W⟩\s+){0,3}?"
                r"(?:system-?prompt\w*|system\s+prompt|systemnachricht\w*|"
                r"(?:ursprünglich|anfänglich|initial|versteckt|geheim|intern)\w*\s+(?:anweisungen|"
                r"instruktionen|regeln|prompt|vorgaben|richtlinien)))",
                W=_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "de.addressed",
        _DE_AI_TRIGGERS,
        _LazyPattern(
            _t(
                r"\b(?:hinweis|nachricht|anweisung\w*|achtung|wichtig\w*|notiz|info|information|"
                r"mitteilung|anmerkung|text|botschaft)\s*,?\s+(?:an|für)\s+(?:alle\s+|jede\w*\s+|"
                r"die\s+)?⟨AL⟩[^:\n]{0,60}?\s*[:!]|"
                r"⟨AL⟩\s*,?\s+(?:die|der|welche)\s+(?:diese\w*|den|das|die|vorliegende\w*)\s+"
                r"(?:\w+\s+){0,2}?(?:lesen|liest|verarbeiten|verarbeitet|zusammenfassen|"
                r"zusammenfasst|analysieren|analysiert|crawlen|durchsuchen)\b[^\n]{0,100}?"
                r"(?:\b(?:sollen|sollten|müssen|muss|soll|haben\s+zu)\b|:)|"
                r"⟨IMP⟩(?:an|für)\s+(?:alle\s+|jede\w*\s+|die\s+)?⟨AL⟩[^:\n]{0,60}?\s*:|"
                r"⟨IMP⟩(?:achtung|hallo|hey|hi|liebe[rs]?)\s*,?\s+⟨A⟩\s*[,:!.]|"
                r"\b(?:wenn|falls|sofern)\s+(?:du|sie)\s+(?:eine?|ein)\s+(?:ki|ki-(?:assistent|"
                r"agent|modell|system)\w*|sprachmodell|grosses\s+sprachmodell|chatbot|llm|"
                r"künstliche\s+intelligenz)\s+(?:bist|sind)\b|"
                r"⟨IMP⟩(?:assistent|ki|chatgpt|claude|gemini|llm)\s*[,:]\s+(?:bevor|wenn|falls|"
                r"bitte|ignoriere|du|immer|niemals|nie|antworte|sag|füge|öffne|sende|schicke)\b",
                A=_DE_ADDRESSEE,
                AL=_DE_ADDRESSEE_LIST,
            ),
            re.M,
        ),
    ),
    _Rule(
        "de.exfiltrate",
        _words("sende|schick|übermittle|leite|lade|poste|hänge|füge|veröffentliche|kopiere"),
        _LazyPattern(
            _t(
                r"\b(?:sende|senden\s+sie|schicke|schick|schicken\s+sie|übermittle|"
                r"übermitteln\s+sie|leite|leiten\s+sie|lade|laden\s+sie|poste|hänge|hängen\s+sie|"
                r"füge|fügen\s+sie|veröffentliche|kopiere)\b[^.!?\n]{0,80}?"
                r"(?:gesprächsverlauf|chatverlauf|chat-verlauf|unterhaltung|konversation|verlauf|"
                r"nachrichten?\s+des\s+(?:nutzers|benutzers)|e-mails?\s+des\s+(?:nutzers|benutzers)|"
                r"des\s+(?:nutzers|benutzers)|api-schlüssel\w*|passw\w*|zugangsdaten|"
                r"system-?prompt)[^!?\n]{0,80}?⟨T⟩",
                T=_TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    _Rule(
        "de.tool_call",
        _words("web_fetch|web_search|send_email|fetch_url|http_request|-tool|werkzeug"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:rufe|ruf|rufen\s+sie|nutze|nutzen\s+sie|benutze|verwende|verwenden\s+sie|"
                r"starte|führe|öffne|öffnen\s+sie)\b[^.!?\n]{0,40}?(?:web_fetch|web_search|"
                r"send_email|fetch_url|http_request)|"
                r"\b(?:mit|über|per)\s+(?:deinem|ihrem|dem)\s+(?:browser|such|web|shell|fetch|"
                r"e-mail)-?(?:tool|werkzeug)",
            ),
            re.M,
        ),
    ),
]

# ---------------------------------------------------------------------------------------------
# French
# ---------------------------------------------------------------------------------------------
_FR_OVERRIDE_VERBS = (
    r"ignore|ignorez|ignorer|oublie|oubliez|oublier|ne\s+tiens\s+pas\s+compte|"
    r"ne\s+tenez\s+pas\s+compte|ne\s+pas\s+tenir\s+compte|fais\s+abstraction|"
    r"faites\s+abstraction|faire\s+abstraction|passe\s+outre|passez\s+outre|"
    r"ne\s+suis\s+(?:plus|pas)|ne\s+suivez\s+(?:plus|pas)|ne\s+respecte\s+plus|"
    r"ne\s+respectez\s+plus|n'obéis\s+plus|n'obéissez\s+plus|écarte|écartez|désobéis|"
    r"désobéissez|annule|annulez|mets\s+de\s+côté|mettez\s+de\s+côté|laisse\s+de\s+côté|"
    r"laissez\s+de\s+côté|fais\s+fi\s+de|faites\s+fi\s+de"
)
_FR_QUALS = (
    r"précédent\w*|antérieur\w*|ci-dessus|plus\s+haut|initial\w*|originel\w*|originale?s?|"
    r"d'origine|tes|vos|toutes|tous|ta|votre|ton|reçu\w*|donné\w*|préalable\w*|"
    r"existant\w*"
)
_FR_OBJECTS = (
    r"instructions?|consignes?|directives?|règles|ordres|commandes|prompts?|indications|"
    r"programmation|restrictions|limitations|garde-fous|prompt\s+système|messages?\s+système|"
    r"recommandations"
)
_FR_AI = _t(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*(?:l')?(?:[^\s.,;:!?]+\s+){0,3}?(?:l')?⟨N⟩"
    r"(?=\s*(?:[,.;:!?)\"'»”]|$)|\s+(?:qui|que|sans|avec|nommée?|appelée?|et)\b))",
    J=r"(?:\bdan\b|jailbreak|mode\s+développeur|sans\s+(?:aucune\s+|aucun\s+)?(?:\w+\s+)?"
    r"(?:restriction|limite|règle|filtre|censure|politique)|non\s+censuré|"
    r"aucune\s+(?:règle|restriction|limite)|ne\s+refuse\s+jamais|terminal\s+linux)",
    N=r"(?:ia|intelligence\s+artificielle|assistant|chatbot|bot|modèle(?:\s+de\s+langage)?|llm|"
    r"chatgpt|gpt\w*)",
)
_FR_ADDRESSEE = (
    r"(?:ia\b|ias\b|assistants?\s+(?:ia|d'ia|virtuels?)|agents?\s+(?:ia|d'ia|conversationnels?)|"
    r"modèles?\s+(?:de\s+langage|d'ia|ia)|llms?\b|chatgpt|claude|gemini|copilot|chatbots?|"
    r"intelligences?\s+artificielles?|robots?\s+conversationnels?|systèmes?\s+d'ia)"
)
_FR_AI_TRIGGERS = _words("ia|modèle|llm|chatgpt|claude|gemini|copilot|chatbot|intelligence|robot")

_FR_RULES = [
    _Rule(
        "fr.override",
        _words(
            "ignor|oubli|tiens pas compte|tenez pas compte|tenir compte|abstraction|"
            "passe outre|passez outre|ne suis|ne suivez|respecte|obéis|écarte|annule|"
            "mets de côté|mettez de côté|laisse de côté|laissez de côté|fais fi|faites fi"
        ),
        _LazyPattern(_override(_FR_OVERRIDE_VERBS, _FR_QUALS, _FR_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    _Rule(
        "fr.override_everything",
        _words("oubli|ignor"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:oublie|oubliez|ignore|ignorez)\s+tout\s+ce\s+(?:qu'on|"
                r"que\s+l'on|que)\s+(?:t'a|vous\s+a|t'as?)\s+(?:été\s+)?(?:dit|demandé|appris|"
                r"ordonné|indiqué))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "fr.override_user_request",
        _words("ignor|oubli|tiens pas compte|tenez pas compte"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:ignore|ignorez|oublie|oubliez|ne\s+tiens\s+pas\s+compte\s+de|"
                r"ne\s+tenez\s+pas\s+compte\s+de)\s+(?:la|le|les)\s+(?:question|demande|requête|"
                r"message|consigne)s?\s+de\s+l'utilisat(?:eur|rice))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "fr.instructions_void",
        ("tes", "vos"),
        _LazyPattern(
            r"\b(?:tes|vos)\s+(?:\w+\s+){0,2}?(?:instructions|consignes|règles|directives|ordres)"
            r"\s+(?:[\w']+\s+){0,3}?(?:ne\s+(?:comptent|s'appliquent|valent|sont)\s+plus|"
            r"sont\s+(?:désormais\s+)?(?:annulées|caduques|obsolètes|nulles|révoquées)|"
            r"n'ont\s+plus\s+cours)"
        ),
    ),
    _Rule(
        "fr.identity",
        _words("tu es|vous êtes|t'es|désormais|dorénavant|à partir de|maintenant|à présent"),
        _LazyPattern(
            _t(
                r"(?P<core>\b(?:tu\s+es|vous\s+êtes|t'es)\s+(?:maintenant|désormais|dorénavant|"
                r"à\s+présent|devenu|plus\s+une?)|"
                r"\b(?:désormais|dorénavant|à\s+partir\s+de\s+maintenant|"
                r"à\s+partir\s+d'aujourd'hui|maintenant|à\s+présent),?\s+(?:tu\s+es|tu\s+seras|"
                r"tu\s+agis|tu\s+réponds|tu\s+vas|vous\s+êtes|vous\s+serez|agis|réponds|"
                r"comporte-toi))\b⟨AI⟩",
                AI=_FR_AI,
            )
        ),
        mention_veto=True,
    ),
    _Rule(
        "fr.pretend",
        _words(
            "fais comme si|faites comme si|semblant|agis|agissez|comporte|joue le rôle|"
            "jouez le rôle|prétends|prétendez|incarne|en tant que"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:fais\s+comme\s+si\s+tu\s+étais|faites\s+comme\s+si\s+vous\s+étiez|"
                r"fais\s+semblant|faites\s+semblant|agis|agissez|comporte-toi|comportez-vous|"
                r"joue\s+le\s+rôle|jouez\s+le\s+rôle|prétends\s+être|prétendez\s+être|incarne|"
                r"incarnez|réponds\s+en\s+tant\s+que)\b)⟨AI⟩",
                AI=_FR_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "fr.want_you_to_act",
        ("que tu",),
        _LazyPattern(
            r"\bje\s+(?:veux|voudrais|souhaite)\s+que\s+tu\s+(?:agisses|te\s+comportes|"
            r"joues\s+le\s+rôle|fasses\s+semblant|incarnes)\b"
        ),
    ),
    _Rule(
        "fr.new_instructions",
        _words(
            "nouvelle|vraie|véritable|secrète|cachée|message système|message du système|"
            "message de l'administrateur|tes|vos"
        ),
        _LazyPattern(
            _t(
                r"(?:^|(?<=[⟨P⟩])\s*)(?:nouvelles?|vraies?|véritables?|secrètes?|cachées?)\s+"
                r"(?:instructions?|consignes?|directives?|règles|tâche|ordres)\s*:|"
                r"\b(?:ta|votre)\s+(?:nouvelle|vraie|véritable|seule)\s+(?:tâche|mission|consigne|"
                r"instruction)\s+(?:est|consiste|sera)|"
                r"\bmessage\s+(?:système|du\s+système|de\s+l'administrateur)\s*:[^\n]{0,120}?"
                r"\b(?:tu|tes|ton|ta|te|vous|vos|votre)\b[^\n]{0,80}?(?:règles|consignes|"
                r"instructions|restrictions|filtres?|sécurité|désactivé|levé|supprimé)|"
                r"\b(?:tes|vos)\s+(?:\w+\s+){0,3}?(?:règles|consignes|instructions|restrictions)\s+"
                r"(?:\w+\s+){0,3}?(?:ont\s+été|sont)\s+(?:désormais\s+|maintenant\s+)?"
                r"(?:désactivé|annulé|remplacé|modifié|levé|supprimé)",
                P=_PUNCT,
            ),
            re.M,
        ),
    ),
    _Rule(
        "fr.reveal_prompt",
        _words("prompt|message système|instructions|consignes|règles"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:montre|montre-moi|montrez|montrez-moi|affiche|affichez|révèle|"
                r"révélez|répète|répétez|donne|donne-moi|donnez|donnez-moi|écris|écrivez|imprime|"
                r"imprimez|divulgue|divulguez|dévoile|dévoilez|partage|partagez|copie|copiez|"
                r"récite|récitez|liste|listez|cite)\s+(?:moi\s+)?(?:⟨W⟩\s+){0,3}?"
                r"(?:prompt\s+(?:du\s+|de\s+)?système|message\s+système|(?:instructions|consignes|"
                r"règles)\s+(?:initiales|d'origine|originales|cachées|secrètes|système|internes)))",
                W=_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "fr.addressed",
        _FR_AI_TRIGGERS,
        _LazyPattern(
            _t(
                r"\b(?:note|message|avis|attention|instructions?|remarque|information|texte|"
                r"consigne|mot|avertissement)s?\s*,?\s+(?:pour|aux|à|à\s+l'attention\s+des?|"
                r"destinée?s?\s+aux)\s+(?:les\s+|tous\s+les\s+|toutes\s+les\s+)?⟨A⟩"
                r"[^:\n]{0,60}?\s*[:!]|"
                r"⟨A⟩\s+(?:qui\s+(?:lisent|lit|traitent|traite|résument|résume|analysent|analyse|"
                r"parcourent|indexent)|lisant|traitant|analysant)\s+(?:ce|cette|ces|le|la|les)\s+\w+"
                r"[^\n]{0,100}?(?:\b(?:doivent|doit|devront|devraient|devrait|sont\s+priés|"
                r"sont\s+tenus)\b|:)|"
                r"⟨IMP⟩(?:à|pour|aux)\s+(?:tous\s+les\s+|toutes\s+les\s+|les\s+)?⟨A⟩[^:\n]{0,60}?"
                r"\s*:|"
                r"⟨IMP⟩(?:attention|cher|chère|chers|salut|bonjour|hé|hey)\s*,?\s+⟨A⟩\s*[,:!.]|"
                r"\bsi\s+(?:tu\s+es|vous\s+êtes|t'es)\s+(?:une?\s+)?(?:ia|intelligence\s+artificielle|"
                r"modèle\s+de\s+langage|grand\s+modèle\s+de\s+langage|assistant\s+(?:ia|d'ia|"
                r"virtuel)|agent\s+(?:ia|d'ia)|chatbot|llm)\b|"
                r"⟨IMP⟩(?:assistant|ia|chatgpt|claude|gemini|llm)\s*[,:]\s+(?:avant|quand|lorsque|"
                r"si|s'il|ne|n'|ignore|ignorez|tu|vous|toujours|jamais|réponds|répondez|dis|dites|"
                r"ajoute|ajoutez|inclus|incluez|ouvre|ouvrez|envoie|envoyez|rappelle-toi|"
                r"souviens-toi|merci\s+de|veuillez)\b",
                A=_FR_ADDRESSEE,
            ),
            re.M,
        ),
    ),
    _Rule(
        "fr.exfiltrate",
        _words(
            "historique|conversation|discussion|échanges|utilisat|clé|clés|mot de passe|"
            "mots de passe|identifiants|prompt système"
        ),
        _LazyPattern(
            _t(
                r"\b(?:envoie|envoyez|transfère|transférez|transmets|transmettez|publie|publiez|"
                r"poste|postez|ajoute|ajoutez|téléverse|téléversez|partage|partagez|copie|copiez|"
                r"colle|collez|joins|joignez)\b[^.!?\n]{0,80}?(?:historique|conversation|"
                r"discussion|échanges|messages?\s+de\s+l'utilisat\w+|e-mails?\s+de\s+l'utilisat\w+|"
                r"courriels?\s+de\s+l'utilisat\w+|de\s+l'utilisat\w+|clés?\s+(?:d'\s*)?api|"
                r"mots?\s+de\s+passe|identifiants|prompt\s+système)[^!?\n]{0,80}?⟨T⟩",
                T=_TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    _Rule(
        "fr.tool_call",
        _words("web_fetch|web_search|send_email|fetch_url|http_request|outil"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:appelle|appelez|utilise|utilisez|lance|lancez|exécute|exécutez|ouvre|"
                r"ouvrez|invoque|invoquez|déclenche)\b[^.!?\n]{0,40}?(?:web_fetch|web_search|"
                r"send_email|fetch_url|http_request)|"
                r"\b(?:avec|via|grâce\s+à|à\s+l'aide\s+de)\s+(?:ton|votre|ta)\s+outil\s+"
                r"(?:de\s+(?:navigation|recherche|téléchargement|messagerie)|web|navigateur|shell)",
            ),
            re.M,
        ),
    ),
]

# ---------------------------------------------------------------------------------------------
# Spanish
# ---------------------------------------------------------------------------------------------
_ES_OVERRIDE_VERBS = (
    r"ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidad|olvidar|descarta|"
    r"descarte|descarten|haz\s+caso\s+omiso|haga\s+caso\s+omiso|hagan\s+caso\s+omiso|"
    r"hacer\s+caso\s+omiso|no\s+hagas\s+caso|no\s+haga\s+caso|no\s+hagan\s+caso|"
    r"deja\s+de\s+seguir|deje\s+de\s+seguir|dejen\s+de\s+seguir|no\s+sigas|no\s+siga|no\s+sigan|"
    r"desobedece|desobedezca|omite|omita|pasa\s+por\s+alto|pase\s+por\s+alto|"
    r"no\s+tengas\s+en\s+cuenta|no\s+tenga\s+en\s+cuenta|no\s+tengan\s+en\s+cuenta|"
    r"no\s+tener\s+en\s+cuenta|anula|anule|deja\s+a\s+un\s+lado|deje\s+a\s+un\s+lado|"
    r"dejad\s+a\s+un\s+lado|aparta|aparte|pon\s+a\s+un\s+lado"
)
_ES_QUALS = (
    r"anteriores|anterior|previas?|previos?|precedentes|de\s+arriba|anteriormente|iniciales|"
    r"originales|tus|sus|vuestras|vuestros|todas|todos|recibidas|dadas|primeras|"
    r"existentes|mencionadas|que\s+(?:recibiste|te\s+dieron|se\s+te\s+dieron|te\s+han\s+dado)"
)
_ES_OBJECTS = (
    r"instrucciones|instrucción|indicaciones|órdenes|reglas|normas|directrices|directivas|"
    r"comandos|prompts?|consignas|programación|restricciones|limitaciones|"
    r"prompt\s+del?\s+sistema|pautas"
)
_ES_AI = _t(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*(?:[^\s.,;:!?]+\s+){0,3}?⟨N⟩"
    r"(?=\s*(?:[,.;:!?)\"'»”]|$)|\s+(?:que|sin|con|llamad[oa]|y)\b))",
    J=r"(?:\bdan\b|jailbreak|modo\s+desarrollador|sin\s+(?:ninguna\s+|ningún\s+|ningun\s+)?"
    r"(?:\w+\s+)?(?:restricci|límite|limite|reglas|filtro|censura|política)|no\s+tiene\s+reglas|"
    r"nunca\s+se\s+niega|sin\s+censura|terminal\s+de\s+linux)",
    N=r"(?:ia|inteligencia\s+artificial|asistente|chatbot|bot|modelo(?:\s+de\s+lenguaje)?|llm|"
    r"chatgpt|gpt\w*)",
)
_ES_ADDRESSEE = (
    r"(?:ias?\b|asistentes?\s+(?:de\s+ia|ia|virtuales?)|agentes?\s+(?:de\s+ia|ia)|"
    r"modelos?\s+(?:de\s+lenguaje|de\s+ia|ia)|llms?\b|chatgpt|claude|gemini|copilot|chatbots?|"
    r"inteligencias?\s+artificiales?|sistemas?\s+de\s+ia)"
)
_ES_AI_TRIGGERS = _words("ia|ias|modelo|llm|chatgpt|claude|gemini|copilot|chatbot|inteligencia")

_ES_RULES = [
    _Rule(
        "es.override",
        _words(
            "ignor|olvid|descart|caso omiso|no hagas caso|no haga caso|no hagan caso|"
            "de seguir|no sig|desobedec|omit|por alto|en cuenta|anul|a un lado|apart"
        ),
        _LazyPattern(_override(_ES_OVERRIDE_VERBS, _ES_QUALS, _ES_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    _Rule(
        "es.override_everything",
        _words("olvid|ignor"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:olvida|olvide|ignora|ignore)\s+todo\s+lo\s+que\s+"
                r"(?:te|le|se\s+te|se\s+le)\s+(?:han\s+|ha\s+|habían\s+)?(?:dijeron|dicho|dije|"
                r"dijimos|ordenaron|ordenado|indicaron|indicado|pidieron|pedido|enseñaron|"
                r"enseñado))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "es.override_user_request",
        _words("ignor|olvid|no respondas"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:ignora|ignore|ignoren|olvida|olvide|olviden|no\s+respondas\s+a)"
                r"\s+(?:la|el|las|los)\s+(?:pregunta|petición|solicitud|consulta|mensaje|"
                r"instrucción|pedido)s?\s+del\s+usuario)",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "es.instructions_void",
        ("tus", "sus", "vuestras"),
        _LazyPattern(
            r"\b(?:tus|sus|vuestras)\s+(?:\w+\s+){0,2}?(?:instrucciones|reglas|indicaciones|normas|"
            r"directrices|órdenes)\s+(?:\w+\s+){0,3}?(?:ya\s+no\s+(?:son\s+válidas|valen|aplican|"
            r"se\s+aplican|cuentan|rigen|están\s+vigentes)|(?:han\s+sido|quedan|están)\s+"
            r"(?:anuladas|revocadas|canceladas|obsoletas))"
        ),
    ),
    _Rule(
        "es.identity",
        _words(
            "ahora eres|ahora serás|ya eres|ya no eres|ahora estás|ahora usted es|"
            "a partir de|desde ahora|en adelante|desde este"
        ),
        _LazyPattern(
            _t(
                r"(?P<core>\b(?:ahora\s+eres|ahora\s+serás|ya\s+eres|ya\s+no\s+eres|"
                r"ahora\s+estás\s+en|ahora\s+usted\s+es)|"
                r"\b(?:a\s+partir\s+de\s+ahora|desde\s+ahora|de\s+ahora\s+en\s+adelante|"
                r"a\s+partir\s+de\s+este\s+momento|desde\s+este\s+momento),?\s+(?:eres|serás|"
                r"vas\s+a|actuarás|responderás|actúa|actúas|responde|respondes|te\s+llamas|estás|"
                r"usted\s+es))\b⟨AI⟩",
                AI=_ES_AI,
            )
        ),
        mention_veto=True,
    ),
    _Rule(
        "es.pretend",
        _words(
            "fing|simul|actúa|actúe|compórt|haz de|haga de|haz como si|interpret|papel|"
            "responde como"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:finge|finja|fingid|simula|simule|actúa|actúe|actúen|compórtate|"
                r"compórtese|haz\s+de|haga\s+de|haz\s+como\s+si|interpreta|interprete|"
                r"haz\s+el\s+papel|responde\s+como)\b)⟨AI⟩",
                AI=_ES_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "es.want_you_to_act",
        ("quiero que", "querría que", "me gustaría que"),
        _LazyPattern(
            r"\b(?:quiero|querría|me\s+gustaría)\s+que\s+(?:actúes|finjas|te\s+comportes|"
            r"hagas\s+de|interpretes|simules)\b"
        ),
    ),
    _Rule(
        "es.new_instructions",
        _words("nueva|verdadera|real|secreta|oculta|mensaje del sistema|tus|sus"),
        _LazyPattern(
            _t(
                r"(?:^|(?<=[⟨P⟩])\s*)(?:nuevas?|verdaderas?|reales?|secretas?|ocultas?)\s+"
                r"(?:instrucciones|instrucción|órdenes|reglas|tarea|directrices|normas)\s*:|"
                r"\b(?:tu|su)\s+(?:nueva|verdadera|única|real)\s+(?:tarea|misión|instrucción|"
                r"función)\s+(?:es|será|consiste)|"
                r"\bmensaje\s+del\s+sistema\s*:[^\n]{0,120}?\b(?:tu|tus|te|usted|su|sus)\b"
                r"[^\n]{0,80}?(?:reglas|normas|instrucciones|restricciones|filtros?|seguridad|"
                r"desactivad|anulad|eliminad)|"
                r"\b(?:tus|sus)\s+(?:\w+\s+){0,3}?(?:reglas|normas|instrucciones|restricciones|"
                r"directrices)\s+(?:\w+\s+){0,3}?(?:han\s+sido|fueron|están|quedan)\s+"
                r"(?:desactivad|anulad|reemplazad|cambiad|eliminad|suspendid)",
                P=_PUNCT,
            ),
            re.M,
        ),
    ),
    _Rule(
        "es.reveal_prompt",
        _words("prompt|mensaje del sistema|instrucciones|reglas|indicaciones"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:muestra|muéstrame|muestre|muéstreme|revela|revele|repite|repita|"
                r"imprime|imprima|escribe|escriba|dime|dígame|di|comparte|comparta|divulga|copia|"
                r"enumera|lista|dame|deme)\s+(?:me\s+)?(?:⟨W⟩\s+){0,3}?"
                r"(?:prompt\s+(?:del|de)\s+sistema|mensaje\s+del\s+sistema|(?:instrucciones|reglas|"
                r"indicaciones)\s+(?:iniciales|originales|ocultas|secretas|del\s+sistema|"
                r"de\s+sistema|internas)))",
                W=_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "es.addressed",
        _ES_AI_TRIGGERS,
        _LazyPattern(
            _t(
                r"\b(?:nota|mensaje|aviso|atención|instrucciones?|información|texto|advertencia|"
                r"recordatorio)\s*,?\s+(?:para|a)\s+(?:los\s+|las\s+|todos\s+los\s+|"
                r"todas\s+las\s+|cualquier\s+)?⟨A⟩[^:\n]{0,60}?\s*[:!]|"
                r"⟨A⟩\s+(?:que\s+(?:lean|lee|leen|procesen|procesa|procesan|resuman|resume|analicen|"
                r"analizan|rastreen)|leyendo|procesando|analizando)\s+(?:este|esta|estos|estas|el|la|"
                r"los|las)\s+\w+[^\n]{0,100}?(?:\b(?:deben|debe|deberán|deberían|debería|"
                r"tienen\s+que|han\s+de)\b|:)|"
                r"⟨IMP⟩(?:a|para)\s+(?:todos\s+los\s+|todas\s+las\s+|los\s+|las\s+|cualquier\s+)?"
                r"⟨A⟩[^:\n]{0,60}?\s*:|"
                r"⟨IMP⟩(?:atención|querido|querida|hola|oye|estimado)\s*,?\s+⟨A⟩\s*[,:!.]|"
                r"\bsi\s+(?:eres|usted\s+es|es\s+usted)\s+(?:una?\s+)?(?:ia|inteligencia\s+artificial|"
                r"modelo\s+de\s+lenguaje|gran\s+modelo\s+de\s+lenguaje|asistente\s+de\s+ia|"
                r"agente\s+de\s+ia|chatbot|llm)\b|"
                r"⟨IMP⟩(?:asistente|ia|chatgpt|claude|gemini|llm)\s*[,:]\s+(?:antes|cuando|si|no|"
                r"ignora|ignore|tú|tu|usted|siempre|nunca|responde|di|añade|incluye|abre|envía|"
                r"recuerda|por\s+favor)\b",
                A=_ES_ADDRESSEE,
            ),
            re.M,
        ),
    ),
    _Rule(
        "es.exfiltrate",
        _words(
            "historial|conversación|chat|usuario|clave|contraseña|credenciales|prompt del sistema"
        ),
        _LazyPattern(
            _t(
                r"\b(?:envía|envíe|envíen|envia|reenvía|reenvíe|reenvia|manda|mande|publica|"
                r"publique|publícal\w*|sube|suba|añade|añada|agrega|agregue|adjunta|adjunte|"
                r"comparte|comparta|transmite|transmita|copia|pega)\b[^.!?\n]{0,80}?(?:historial|"
                r"conversación|chat|mensajes?\s+del\s+usuario|correos?\s+del\s+usuario|"
                r"del\s+usuario|claves?\s+(?:de\s+)?api|contraseñas?|credenciales|"
                r"prompt\s+del\s+sistema)[^!?\n]{0,80}?⟨T⟩",
                T=_TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    _Rule(
        "es.tool_call",
        _words("web_fetch|web_search|send_email|fetch_url|http_request|herramienta"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:llama|llame|usa|use|utiliza|utilice|ejecuta|ejecute|invoca|invoque|abre|"
                r"abra|lanza)\b[^.!?\n]{0,40}?(?:web_fetch|web_search|send_email|fetch_url|"
                r"http_request)|"
                r"\b(?:con|mediante|usando|utilizando)\s+(?:tu|su)\s+herramienta\s+"
                r"(?:de\s+(?:navegación|búsqueda|correo|descarga)|web|shell)",
            ),
            re.M,
        ),
    ),
]

# ---------------------------------------------------------------------------------------------
# Chinese
# ---------------------------------------------------------------------------------------------
_ZH_AI = _t(
    r"(?:[^。！？!?\n]{0,60}?⟨J⟩|\s*(?:一个|一名|一位|个)?[^，,。.！!？?：:；;\n]{0,8}?⟨N⟩"
    r"(?=\s*(?:[，,。.！!？?：:；;、”\"]|$)))",
    J=r"(?:(?<![a-z])dan(?![a-z])|越狱|开发者模式|没有(?:任何)?(?:限制|规则|约束|审查|过滤|内容政策)|"
    r"无(?:审查|限制|约束)|不受(?:任何)?(?:限制|约束)|从不拒绝|不会拒绝|linux\s*终端)",
    N=r"(?:(?<![a-z])ai|人工智能|助手|助理|机器人|聊天机器人|语言模型|大模型|模型|chatgpt|gpt\w*)",
)
_ZH_ADDRESSEE = (
    r"(?:(?<![a-z])ai(?![a-z])(?:助手|代理|模型|系统|智能体|爬虫)?|人工智能(?:助手|代理|模型|系统)?|"
    r"大语言模型|语言模型|大模型|llms?|chatgpt|claude|gemini|文心一言|通义千问|kimi|豆包|"
    r"聊天机器人|智能助手)"
)
_ZH_TARGET = r"(?:https?://|www\.|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
_ZH_DATA = (
    r"(?:对话记录|聊天记录|对话历史|聊天历史|对话内容|会话记录|历史记录|"
    r"用户的?⟨N⟩{0,6}?(?:邮件|消息|对话|聊天|密码|地址|信息|数据|问题|邮箱)|"
    r"api\s*密钥|api\s*key|密钥|密码|系统提示词?)"
)

_ZH_RULES = [
    _Rule(
        "zh.override",
        _words(
            "忽略|无视|忽视|理会|理睬|不要管|忘记|忘掉|忘了|抛弃|抛开|丢弃|放弃|遵守|遵循|听从|违背|绕过|跳过|按照|根据"
        ),
        _LazyPattern(
            _t(
                r"⟨IMPZH⟩(?P<core>(?:忽略|无视|忽视|不要理会|别理会|不要理睬|不用理会|不必理会|"
                r"不要管|忘记|忘掉|忘了|抛弃|抛开|丢弃|放弃|不要再?遵守|不要再?遵循|不要再?听从|"
                r"不再遵守|不再遵循|停止遵守|停止遵循|违背|绕过|跳过|不要再?按照|不再按照|别再按照|"
                r"停止按照|不要再?根据)⟨N⟩{0,12}?"
                r"(?:之前|以前|上面|上述|前面|先前|此前|以上|原来|原有|原始|原先|原本|最初|初始|所有|全部|"
                r"你的|你之前|你原)⟨N⟩{0,8}?(?:指令|指示|提示词|提示|规则|设定|命令|要求|约束|限制|"
                r"说明|准则|规定|政策|安全策略|人设|系统提示)|"
                r"(?:忘记|忘掉|忘了|忽略|无视)⟨N⟩{0,10}?(?:告诉你的|对你说的|给你的|你被告知的)"
                r"(?:一切|所有|全部|内容|话|指令)|"
                r"(?:忽略|无视|不要理会|不要回答|忘记|忘掉|别管)用户的?(?:问题|请求|提问|要求|消息|"
                r"指令|输入))",
                N=_ZH_NOT_PUNCT,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "zh.instructions_void",
        ("作废", "失效", "无效", "取消", "不再有效", "不再适用"),
        _LazyPattern(
            r"(?:你|您)(?:之前|以前|先前|原来|原先|原本)?(?:收到|得到|接收|被给予)?的?(?:所有)?"
            r"(?:指令|指示|设定|规则|提示词?|要求)(?:已经?|都|全部)?(?:作废|失效|无效|取消|被取消|"
            r"不再有效|不再适用)"
        ),
    ),
    _Rule(
        "zh.identity",
        _words("你现在|现在你|不再是|从现在"),
        _LazyPattern(
            _t(
                r"(?P<core>你现在是|你现在处于|你现在已经是|现在你是|你已经不再是|你不再是|"
                r"从现在(?:开始|起)\s*[,，]?\s*你(?:是|将|要|就是|扮演|充当|必须)|"
                r"从现在(?:开始|起)\s*[,，]?\s*(?:扮演|充当|假装|作为))⟨AI⟩",
                S=_ZH_IN_SENTENCE,
                AI=_ZH_AI,
            )
        ),
        mention_veto=True,
    ),
    _Rule(
        "zh.pretend",
        _words("扮演|充当|模拟|假装|假设你是|想象你是|作为"),
        _LazyPattern(
            _t(
                r"(?:我希望你|我要你|我想让你|我需要你|请你)\s*(?:扮演|充当|模拟|假装成?)|"
                r"(?:(?:请|你将|你要|现在你|从现在起)\s*(?:扮演|充当|模拟|假装成?|作为)|假装你是|"
                r"假设你是|想象你是)⟨AI⟩",
                S=_ZH_IN_SENTENCE,
                AI=_ZH_AI,
            )
        ),
        mention_veto=True,
    ),
    _Rule(
        "zh.new_instructions",
        _words(
            "新的|新指令|新指示|新规则|新任务|新命令|新设定|系统消息|系统通知|系统提示|系统公告|你的新|你的安全|你的规则|你的指令|你的限制|你的设定|"
            "你的约束"
        ),
        _LazyPattern(
            _t(
                r"(?:^|(?<=[⟨P⟩])\s*)新的?(?:系统)?(?:指令|指示|规则|任务|命令|设定)\s*[:：]|"
                r"你的新(?:任务|指令|目标|使命)(?:是|为|\s*[:：])|"
                r"系统(?:消息|通知|提示|公告)\s*[:：][^\n]{0,80}?你[^\n]{0,60}?(?:规则|限制|安全|指令|"
                r"审查|过滤|关闭|解除)|"
                r"你的(?:安全)?(?:规则|指令|限制|设定|约束)(?:已经?|已被|被|都)(?:被)?(?:关闭|取消|"
                r"解除|禁用|删除|更改|覆盖|重置|失效|作废)",
                P=_PUNCT,
            ),
            re.M,
        ),
    ),
    _Rule(
        "zh.reveal_prompt",
        _words(
            "系统提示|初始指令|原始指令|初始提示|隐藏|最初|预设|system prompt|内部指令|内部规则|你的设定|你的提示词"
        ),
        _LazyPattern(
            _t(
                r"⟨IMPZH⟩(?:输出|显示|展示|告诉我|透露|泄露|泄漏|重复|打印|公开|说出|复述|给出|列出|"
                r"写出|发给我|贴出)⟨N⟩{0,8}?(?:你的\s*系统提示词?|系统提示词|初始指令|原始指令|初始提示|"
                r"隐藏的?(?:指令|规则|提示)|最初的?指令|预设(?:指令|提示)|system\s*prompt|"
                r"内部(?:指令|规则))|"
                r"(?:把|将)\s*你的\s*(?:系统提示词?|初始指令|原始指令|隐藏(?:的)?(?:指令|规则)|设定|"
                r"提示词)⟨N⟩{0,15}?(?:输出|显示|告诉|透露|泄露|打印|发|写|复述|重复)",
                N=_ZH_NOT_PUNCT,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "zh.addressed",
        _words(
            "ai|人工智能|语言模型|大模型|llm|chatgpt|claude|gemini|文心一言|通义千问|kimi|豆包|机器人|智能助手|助手"
        ),
        _LazyPattern(
            _t(
                r"(?:致|给|写给|告)\s*(?:所有|各位|每个|任何)?\s*(?:正在)?\s*(?:阅读|处理|浏览|抓取|"
                r"总结)?\s*(?:本|此|这个?)?(?:页面|网页|文章|文本|这段文字)?\s*的?\s*⟨A⟩"
                r"(?:(?:等|和|及|与|、|或)(?:其他)?⟨A⟩?)?(?:们)?的?(?:说明|提示|指令|通知|留言|话|"
                r"信息|消息|备注)?\s*[:：,，]|"
                r"(?:阅读|处理|浏览|总结|抓取|分析|读取)(?:本|此|这|该)篇?(?:文章|文|页面|页|网页|内容|"
                r"段文字|文本|文档)的\s*⟨A⟩[^。\n]{0,40}?(?:应当|应该|必须|需要|务必|要|请)|"
                r"(?:注意|提醒|重要提示|警告|亲爱的|嘿|你好)\s*[,，]?\s*⟨A⟩\s*[:：,，!！]|"
                r"如果你是[^。,，!?\n]{0,15}?⟨A⟩(?:\s*[,，:：。]|的话)|"
                r"(?:^|(?<=[⟨P⟩]))\s*(?:助手|ai|chatgpt|claude)\s*[,，:：]\s*(?:在|请|回答|不要|忽略|"
                r"你|之前|务必|记住)",
                A=_ZH_ADDRESSEE,
                P=_PUNCT,
            ),
            re.M,
        ),
    ),
    _Rule(
        "zh.exfiltrate",
        _words("发送|发到|发给|上传|转发|提交|附加|发布|添加到|贴到|追加|post到|传到"),
        _LazyPattern(
            _t(
                r"⟨D⟩⟨N⟩{0,20}?(?:发送到|发送至|发到|发给|上传到|上传至|转发到|转发给|转发至|提交到|"
                r"附加到|发布到|添加到|贴到|追加到|post到|传到)\s*⟨N⟩{0,10}?⟨T⟩|"
                r"(?:发送|上传|转发|提交|附加|发布)⟨N⟩{0,10}?⟨D⟩⟨N⟩{0,10}?(?:到|至|给)\s*⟨T⟩",
                D=_ZH_DATA,
                N=_ZH_NOT_PUNCT,
                T=_ZH_TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    _Rule(
        "zh.tool_call",
        _words(
            "web_fetch|web_search|send_email|fetch_url|http_request|你的浏览|你的搜索|你的网页|你的抓取|"
            "你的shell|你的终端|你的邮件|你的fetch"
        ),
        _LazyPattern(
            r"(?:调用|使用|运行|执行|用)\s*(?:web_fetch|web_search|send_email|fetch_url|"
            r"http_request)|"
            r"(?:用|使用|调用|通过)你的\s*(?:浏览|浏览器|搜索|网页|抓取|shell|终端|邮件|fetch)\s*"
            r"(?:工具|功能|插件)"
        ),
    ),
]

# ---------------------------------------------------------------------------------------------
# Russian (ё is folded to е before matching)
# ---------------------------------------------------------------------------------------------
_RU_OVERRIDE_VERBS = (
    r"игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не\s+обращай(?:те)?\s+внимания\s+на|"
    r"отбрось(?:те)?|не\s+следуй(?:те)?|больше\s+не\s+следуй(?:те)?|перестань(?:те)?\s+следовать|"
    r"не\s+выполняй(?:те)?|не\s+соблюдай(?:те)?|пренебреги(?:те)?|отмени(?:те)?|нарушь(?:те)?|"
    r"не\s+учитывай(?:те)?|выкинь(?:те)?\s+из\s+головы|отложи(?:те)?\s+в\s+сторону|"
    r"оставь(?:те)?\s+в\s+стороне|выбрось(?:те)?"
)
_RU_QUALS = (
    r"предыдущ\w*|прежн\w*|вышеуказанн\w*|вышеприведенн\w*|вышеизложенн\w*|выше|ранее|ранн\w*|"
    r"исходн\w*|изначальн\w*|первоначальн\w*|все|всех|всем|свои|своих|своим|твои|твоих|твоим|"
    r"ваши|ваших|вашим|полученн\w*|заданн\w*"
)
_RU_OBJECTS = (
    r"инструкци\w*|указани\w*|правил\w*|команд\w*|директив\w*|промпт\w*|ограничени\w*|"
    r"установк\w*|приказ\w*|настройк\w*|распоряжени\w*|системн\w*\s+промпт\w*"
)
_RU_AI = _t(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*[,—-]?\s*(?:[^\s.,;:!?]+\s+){0,2}?⟨N⟩"
    r"(?=\s*(?:[,.;:!?)\"'»”—-]|$)|\s+(?:котор\w*|без|с|по|и)\b))",
    J=r"(?:\bdan\b|джейлбрейк|режим\w*\s+разработчика|без\s+(?:каких-либо\s+|всяких\s+|любых\s+)?"
    r"(?:ограничени|правил|фильтр|цензур)|не\s+знает\s+правил|никогда\s+не\s+отказыва|"
    r"терминал\w*\s+linux)",
    N=r"(?:ии|искусственн\w*\s+интеллект\w*|ассистент\w*|помощник\w*|чат-?бот\w*|бот\w*|"
    r"нейросет\w*|(?:языков\w*\s+)?модел\w*|llm|chatgpt|gpt\w*)",
)
_RU_ADDRESSEE = (
    r"(?:(?<!\w)ии(?:-(?:ассистент|агент|модел|систем|бот)\w*)?(?!\w)|"
    r"ии\s+(?:ассистент|агент|модел)\w*|языков\w*\s+модел\w*|llms?|нейросет\w*|чат-?бот\w*|"
    r"chatgpt|claude|gemini|искусственн\w*\s+интеллект\w*)"
)
_RU_ADDRESSEE_LIST = _t(
    r"⟨A⟩(?:(?:\s*,\s*|\s+(?:и|или)\s+)(?:других\s+|другим\s+|другие\s+)?⟨A⟩){0,4}",
    A=_RU_ADDRESSEE,
)
_RU_AI_TRIGGERS = _words(
    "ии|языков|модел|llm|нейросет|чат-бот|чатбот|chatgpt|claude|gemini|искусственн|ассистент"
)

_RU_RULES = [
    _Rule(
        "ru.override",
        _words(
            "игнор|проигнор|забудь|не обраща|отбрось|не следуй|следовать|не выполня|"
            "не соблюда|пренебрег|отмени|нарушь|не учитыва|выкинь|отложи|оставь|выбрось"
        ),
        _LazyPattern(_override(_RU_OVERRIDE_VERBS, _RU_QUALS, _RU_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    _Rule(
        "ru.override_everything",
        _words("забудь|игнор|проигнор|вопрос|запрос|просьб|сообщени|задани|не отвеча"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:забудь(?:те)?|игнорируй(?:те)?)\s+все,?\s+что\s+(?:тебе|вам)\s+"
                r"(?:говорили|сказали|велели|приказали|писали|было\s+сказано|поручили)|"
                r"(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не\s+отвечай(?:те)?\s+на)"
                r"\s+(?:вопрос\w*|запрос\w*|просьб\w*|сообщени\w*|задани\w*)\s+пользовател\w*)",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "ru.identity",
        _words("теперь|отныне|с этого момента|с сегодняшнего дня|больше не"),
        _LazyPattern(
            _t(
                r"(?P<core>\b(?:теперь|отныне|с\s+этого\s+момента|с\s+сегодняшнего\s+дня|"
                r"начиная\s+с\s+этого\s+момента),?\s+(?:ты|вы)\b|\b(?:ты|вы)\s+(?:теперь|отныне|"
                r"больше\s+не)\b)⟨AI⟩",
                AI=_RU_AI,
            )
        ),
        mention_veto=True,
    ),
    _Rule(
        "ru.pretend",
        _words(
            "притвор|представь|веди себя|ведите себя|действуй|в роли|роль|изобрази|"
            "отвечай как|отвечайте как"
        ),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:притворись|притворитесь|представь,?\s+что\s+ты|"
                r"представьте,?\s+что\s+вы|веди\s+себя\s+как|ведите\s+себя\s+как|действуй|"
                r"действуйте|выступи\s+в\s+роли|выступай\s+в\s+роли|выступите\s+в\s+роли|"
                r"сыграй\s+роль|сыграйте\s+роль|играй\s+роль|изобрази|изобразите|отвечай\s+как|"
                r"отвечайте\s+как)\b)⟨AI⟩",
                AI=_RU_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "ru.want_you_to_act",
        ("чтобы ты",),
        _LazyPattern(
            r"\bя\s+хочу,?\s+чтобы\s+ты\s+(?:выступил|выступила|сыграл|сыграла|притворился|"
            r"притворилась|вел\s+себя|вела\s+себя|действовал|действовала|изображал|изображала)\b"
        ),
    ),
    _Rule(
        "ru.new_instructions",
        _words(
            "новые|настоящие|истинные|секретные|скрытые|обновленные|задача|"
            "системное сообщение|твои|ваши"
        ),
        _LazyPattern(
            _t(
                r"(?:^|(?<=[⟨P⟩])\s*)(?:новые|настоящие|истинные|секретные|скрытые|обновленные)\s+"
                r"(?:инструкции|указания|правила|команды|задачи|директивы)\s*:|"
                r"\b(?:твоя|ваша)\s+(?:новая|настоящая|истинная|единственная)\s+задача\s*(?:[:—-]|"
                r"это\b|состоит|заключается|теперь)|"
                r"\bсистемное\s+сообщение\s*:[^\n]{0,120}?\b(?:ты|твои|твоя|тебе|тебя|вы|ваши|вам)\b"
                r"[^\n]{0,80}?(?:правил|ограничени|инструкци|фильтр|безопасност|отключен|снят|"
                r"отменен)|"
                r"\b(?:твои|ваши)\s+(?:\w+\s+){0,2}?(?:правила|инструкции|ограничения|указания)\s+"
                r"(?:\w+\s+){0,2}?(?:отключены|отменены|сняты|изменены|больше\s+не\s+действуют|"
                r"недействительны|аннулированы)",
                P=_PUNCT,
            ),
            re.M,
        ),
    ),
    _Rule(
        "ru.reveal_prompt",
        _words("системн|исходн|изначальн|первоначальн|скрыт|секретн|внутренн"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?P<core>(?:покажи|покажите|выведи|выведите|раскрой|раскройте|повтори|"
                r"повторите|напиши|напишите|напечатай|скажи|скажите|расскажи|озвучь|поделись|"
                r"перечисли|процитируй|дай|дайте|выдай|сообщи|опубликуй)\s+(?:мне\s+)?"
                r"(?:⟨W⟩\s+){0,3}?(?:системн\w*\s+(?:промпт|сообщени|инструкци)\w*|"
                r"(?:исходн|изначальн|первоначальн|скрыт|секретн|внутренн)\w*\s+(?:инструкци|"
                r"правил|указани|промпт)\w*))",
                W=_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    _Rule(
        "ru.addressed",
        _RU_AI_TRIGGERS,
        _LazyPattern(
            _t(
                r"\b(?:примечание|сообщение|внимание|заметка|инструкци\w*|указани\w*|информация|"
                r"текст|обращение|записка|предупреждение)\s*,?\s+(?:для|к)\s+(?:всех\s+|любых\s+)?"
                r"⟨AL⟩[^:\n]{0,60}?\s*[:!]|"
                r"⟨AL⟩\s*,?\s+(?:читающ\w*|обрабатывающ\w*|анализирующ\w*|котор\w+\s+(?:читают|"
                r"читает|обрабатывают|обрабатывает|анализируют))\s+(?:эт\w*|данн\w*|настоящ\w*)\s+\w+"
                r"[^\n]{0,100}?(?:\b(?:должн\w*|обязан\w*|следует|нужно|необходимо)\b|:)|"
                r"⟨IMP⟩(?:всем|для|ко\s+всем)\s+⟨AL⟩[^:\n]{0,60}?\s*[:!]|"
                r"⟨IMP⟩(?:внимание|дорогой|дорогая|уважаемый|уважаемая|привет|эй)\s*,?\s+⟨A⟩"
                r"\s*[,:!.]|"
                r"\bесли\s+(?:ты|вы)\s*(?:—|-)?\s*(?:ии|языков\w*\s+модел\w*|нейросет\w*|"
                r"чат-?бот\w*|искусственн\w*\s+интеллект\w*|ии-(?:ассистент|агент)\w*)(?!\w)|"
                r"⟨IMP⟩(?:ассистент|ии|чат-?бот|нейросеть|chatgpt|claude)\s*[,:]\s+(?:перед|прежде|"
                r"когда|если|пожалуйста|не|игнорируй\w*|ты|вы|всегда|никогда|ответь|скажи|добавь|"
                r"открой|отправь|запомни)\b",
                A=_RU_ADDRESSEE,
                AL=_RU_ADDRESSEE_LIST,
            ),
            re.M,
        ),
    ),
    _Rule(
        "ru.exfiltrate",
        _words("истори|переписк|диалог|разговор|пользовател|api|ключ|парол|учетн|системн"),
        _LazyPattern(
            _t(
                r"\b(?:отправь|отправьте|пришли|пришлите|перешли|перешлите|передай|передайте|"
                r"загрузи|загрузите|опубликуй|опубликуйте|добавь|добавьте|прикрепи|прикрепите|"
                r"вставь|вставьте|скопируй|скопируйте)\b[^.!?\n]{0,80}?(?:истори\w*\s+(?:переписки|"
                r"чата|диалога|разговора|сообщений)|переписк\w*|диалог\w*|разговор\w*|"
                r"сообщени\w*\s+пользовател\w*|пис\w*\s+пользовател\w*|пользовател\w*|"
                r"api-ключ\w*|ключ\w*\s+api|парол\w*|учетн\w*\s+данн\w*|системн\w*\s+промпт\w*)"
                r"[^!?\n]{0,80}?⟨T⟩",
                T=_TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    _Rule(
        "ru.tool_call",
        _words("web_fetch|web_search|send_email|fetch_url|http_request|инструмент"),
        _LazyPattern(
            _t(
                r"⟨IMP⟩(?:вызови|вызовите|используй|используйте|запусти|запустите|открой|откройте|"
                r"примени)\b[^.!?\n]{0,40}?(?:web_fetch|web_search|send_email|fetch_url|"
                r"http_request)|"
                r"\b(?:своим|твоим|вашим)\s+инструментом|"
                r"\bс\s+помощью\s+(?:своего|твоего|вашего)\s+инструмента",
            ),
            re.M,
        ),
    ),
]

# ---------------------------------------------------------------------------------------------
# Any language: chat-template tokens, forged turns, exfiltration through a Markdown image
# ---------------------------------------------------------------------------------------------
_ROLE_LINE = re.compile(r"(?m)^[^\S\n]*(?:#{1,4}[^\S\n]*)?(system|user|assistant|human)[^\S\n]*:")
_ROLE_TRIGGERS = ("system:", "assistant:", "human:", "system :", "assistant :", "human :")

_ANY_RULES = [
    _Rule(
        "any.template_token",
        (
            "<|",
            "[inst]",
            "[/inst]",
            "<<sys>>",
            "<</sys>>",
            "_of_turn>",
            "tool_call>",
            "tool_calls>",
            "function_calls>",
            "function_call>",
            "[system](",
        ),
        _LazyPattern(
            r"<\|[a-z][\w▁]{1,40}\|>|\[/?inst\]|<</?sys>>|</?(?:start|end)_of_turn>|"
            r"</?tool_calls?>|</?function_calls?>|\[system\]\(#\w+\)"
        ),
    ),
    _Rule(
        "any.markdown_image_exfiltration",
        ("![",),
        _LazyPattern(
            r"!\[[^\]\n]{0,100}\]\(\s*https?://[^)\s]*(?:[{\[<]|%7b|%5b|%3c)\s*(?:insert\s+)?"
            r"(?:conversation|chat|history|secret|password|api_?key|prompt|memory|summary|"
            r"credential|previous|email|user|data)"
        ),
    ),
]

_RULES: tuple[_Rule, ...] = tuple(
    _EN_RULES + _DE_RULES + _FR_RULES + _ES_RULES + _ZH_RULES + _RU_RULES + _ANY_RULES
)

# How far before a trigger a match may start (an imperative's lead-in, an opening quote) and how
# far after it a match may end. Every rule's matches fit in such a window around one trigger.
_REACH_BACK = 80
_REACH_AHEAD = 420

_OPEN_QUOTES = "\"'“‘„«‹「『‚"
_CLOSE_QUOTES = "\"'”’“»›」』‘"
_TOPIC_COMPLEMENT = re.compile(
    r"\s*(?:regarding|about|concerning|relating\s+to|related\s+to|re:|sent\b|we\s+sent|i\s+sent|"
    r"in\s+(?:my|our)\s+(?:last\s+|previous\s+)?(?:e-?mail|letter|message|newsletter|post)|"
    r"from\s+(?:my|our)\s+(?:e-?mail|letter|message)|zur\b|zum\b|bezüglich|betreffend|"
    r"über\s+(?:die|den|das)\b|concernant|au\s+sujet|à\s+propos|relatives?\s+(?:à|au|aux)|"
    r"sobre\b|acerca|respecto|relativ[oa]s?\s+a\b|по\s+поводу|относительно|насчет|касательно|"
    r"по\s+проезду|"
    r"of\s+(?!your\b|you\b|this\b|the\s+(?:system|assistant|ai|model|chatbot|developer|operator|user)\b)|"
    r"der\b|des\s+(?!nutzers|benutzers)|du\b|de\s+la\b|del\b|de\s+los\b|de\s+las\b)"
)


# Triggers of at most this many letters count only as whole words ("ai", not the "ai" in "said").
_WHOLE_WORD_TRIGGERS = frozenset({"ai", "ia", "ias", "ki", "ии", "tes", "vos", "tus", "sus"})


def _build_trigger_index() -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """Every trigger once, and for each the rules it wakes (by index into _RULES)."""
    rules_of: dict[str, set[int]] = {trigger: set() for trigger in _ROLE_TRIGGERS}
    for index, rule in enumerate(_RULES):
        for trigger in rule.triggers:
            rules_of.setdefault(trigger, set()).add(index)
    triggers = tuple(rules_of)
    return triggers, tuple(tuple(sorted(rules_of[t])) for t in triggers)


_TRIGGERS, _RULES_OF_TRIGGER = _build_trigger_index()
# Aho-Corasick finds every trigger in one pass, about ten times faster than one regular expression
# over the same words; the automaton is built once and never changes.
_AUTOMATON = ahocorasick_rs.AhoCorasick(list(_TRIGGERS))
_STARTS_WITH_WORD_CHAR = frozenset(
    i for i, trigger in enumerate(_TRIGGERS) if (trigger[0].isalnum() and ord(trigger[0]) < 0x0530)
)
_WHOLE_WORD = frozenset(i for i, trigger in enumerate(_TRIGGERS) if trigger in _WHOLE_WORD_TRIGGERS)
_ROLE = frozenset(i for i, trigger in enumerate(_TRIGGERS) if trigger in _ROLE_TRIGGERS)

_FULLWIDTH_LETTERS = re.compile(r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]+")


def _fold(text: str) -> str:
    """Case-fold and undo the cheap disguises: Markdown emphasis, fullwidth letters, ё, ’."""
    folded = text.casefold()
    for mark in "*`~":
        if mark in folded:
            folded = folded.replace(mark, "")
    if not folded.isascii():
        folded = folded.replace("ё", "е").replace("’", "'")
        if _FULLWIDTH_LETTERS.search(folded):
            folded = _FULLWIDTH_LETTERS.sub(
                lambda m: "".join(chr(ord(c) - 0xFEE0) for c in m.group()), folded
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


def _vetoed(rule: _Rule, text: str, match: re.Match[str]) -> bool:
    core = next((g for g in ("core", "core_imp", "core_zimp") if g in match.re.groupindex), 0)
    core_start, core_end = match.span(core)
    if rule.mention_veto:
        before = text[max(0, core_start - 2) : core_start].rstrip()
        after = text[core_end : core_end + 15]
        if before and before[-1] in _OPEN_QUOTES and any(q in after for q in _CLOSE_QUOTES):
            return True
    if rule.topic_veto and _TOPIC_COMPLEMENT.match(text, core_end) is not None:
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
    if end == 0 or text[end - 1] in _PUNCT_CHARS:
        return True
    if end == index:
        return False
    word, word_start = _previous_word(text, end)
    if word in _IMP_WORDS:
        return True
    before = word_start
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    previous, _ = _previous_word(text, before)
    return f"{previous} {word}" in _IMP_WORDS


def _at_clause_start_zh(text: str, index: int) -> bool:
    end = index
    while end > 0 and text[end - 1] in " \t\u3000":
        end -= 1
    if end == 0 or text[end - 1] in _PUNCT_CHARS:
        return True
    return text[max(0, end - 2) : end].endswith(_IMP_WORDS_ZH)


def _imperative_groups(pattern: re.Pattern[str]) -> tuple[tuple[int, bool], ...]:
    """(group number, Chinese?) of each group that must start a clause."""
    return tuple(
        (number, name.startswith(("zimp", "core_zimp")))
        for name, number in pattern.groupindex.items()
        if name.startswith(("imp", "zimp", "core_imp", "core_zimp"))
    )


def _imperatives_hold(
    groups: tuple[tuple[int, bool], ...], text: str, match: re.Match[str]
) -> bool:
    for number, chinese in groups:
        start = match.start(number)
        if start < 0:
            continue
        at_start = _at_clause_start_zh(text, start) if chinese else _at_clause_start(text, start)
        if not at_start:
            return False
    return True


@functools.cache
def _compiled_rule(rule_index: int) -> tuple[re.Pattern[str], tuple[tuple[int, bool], ...]]:
    pattern = _RULES[rule_index].pattern.compiled()
    return pattern, _imperative_groups(pattern)


def _search(rule_index: int, text: str, start: int, end: int) -> re.Match[str] | None:
    rule = _RULES[rule_index]
    pattern, groups = _compiled_rule(rule_index)
    position = start
    while True:
        match = pattern.search(text, position, end)
        if match is None:
            return None
        if _imperatives_hold(groups, text, match) and not _vetoed(rule, text, match):
            return match
        # The next candidate may start inside this one ("to ignore ... and ignore ...").
        position = match.start() + 1


def _forged_turns(text: str) -> str | None:
    """Two different role headers at line starts, one of them system, assistant or human."""
    roles = {m.group(1) for m in _ROLE_LINE.finditer(text)}
    if len(roles) >= 2 and roles & {"system", "assistant", "human"}:
        return ", ".join(sorted(roles))
    return None


def _is_word_char(ch: str) -> bool:
    """A letter, digit or underscore of an alphabetic script (Latin, Greek, Cyrillic), not CJK."""
    return (ch.isalnum() or ch == "_") and ord(ch) < 0x0530


def _windows(folded: str) -> tuple[dict[int, list[tuple[int, int]]], bool]:
    """For each woken rule, the merged stretches of text around its triggers."""
    length = len(folded)
    spans: dict[int, list[tuple[int, int]]] = {}
    role_lines_seen = False
    for trigger_index, start, end in _AUTOMATON.find_matches_as_indexes(folded, overlapping=True):
        if trigger_index in _STARTS_WITH_WORD_CHAR and start and _is_word_char(folded[start - 1]):
            continue
        if trigger_index in _WHOLE_WORD and end < length and _is_word_char(folded[end]):
            continue
        if trigger_index in _ROLE:
            role_lines_seen = True
            continue
        window = (max(0, start - _REACH_BACK), min(length, end + _REACH_AHEAD))
        for rule_index in _RULES_OF_TRIGGER[trigger_index]:
            spans.setdefault(rule_index, []).append(window)
    merged: dict[int, list[tuple[int, int]]] = {}
    for rule_index, windows in spans.items():
        windows.sort()
        out = [windows[0]]
        for lo, hi in windows[1:]:
            if lo <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], hi))
            else:
                out.append((lo, hi))
        merged[rule_index] = out
    return merged, role_lines_seen


def find_instruction_like(text: str) -> InstructionLikeMatch | None:
    """An instruction-like passage of ``text`` (the first rule, in rule order, that fires), or None."""
    folded = _fold(text)
    windows, role_lines_seen = _windows(folded)
    for rule_index in sorted(windows):
        for start, end in windows[rule_index]:
            match = _search(rule_index, folded, start, end)
            if match is not None:
                return InstructionLikeMatch(_RULES[rule_index].name, match.group())
    if role_lines_seen:
        roles = _forged_turns(folded)
        if roles is not None:
            return InstructionLikeMatch("any.forged_turns", roles)
    return None


def is_instruction_like(text: str) -> bool:
    """Whether ``text`` reads as an instruction to the AI model that reads it."""
    return find_instruction_like(text) is not None


def count_instruction_like(texts: Iterable[str]) -> int:
    """How many of ``texts`` are flagged (each text counts once, however many passages it has)."""
    return sum(1 for text in texts if is_instruction_like(text))


def _find_by_full_search(text: str) -> InstructionLikeMatch | None:
    """Every rule over the whole text, no trigger gate: the reference the gate must equal."""
    folded = _fold(text)
    for rule_index, rule in enumerate(_RULES):
        match = _search(rule_index, folded, 0, len(folded))
        if match is not None:
            return InstructionLikeMatch(rule.name, match.group())
    roles = _forged_turns(folded)
    return InstructionLikeMatch("any.forged_turns", roles) if roles is not None else None
