"""Instruction-like rules: English."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import (
    GAP_WORD,
    PUNCT,
    WORD,
    LazyPattern,
    Rule,
    fill,
    override_pattern,
    trigger_words,
)

_EN_OVERRIDE_VERBS = (
    r"ignore|disregard|forget|discard|set\s+aside|pay\s+no\s+attention\s+to|"
    r"do\s+not\s+(?:follow|obey|heed)|don't\s+(?:follow|obey|heed)|stop\s+following|"
    r"no\s+longer\s+follow|cease\s+following|throw\s+(?:away|out)|scrap|ditch|abandon|"
    r"put\s+aside|pay\s+no\s+heed\s+to|take\s+no\s+notice\s+of"
)
_EN_OVERRIDE_TRIGGERS = trigger_words(
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
_EN_AI = fill(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*(?:[^\s.,;:!?]+\s+){0,3}?⟨N⟩"
    r"(?=\s*(?:[,.;:!?)\"'»”]|$)|\s+(?:that|who|which|with|without|named|called|and)\b))",
    J=_EN_JAILBREAK,
    N=_EN_AI_NOUN,
)

RULES = [
    Rule(
        "en.override",
        _EN_OVERRIDE_TRIGGERS,
        LazyPattern(override_pattern(_EN_OVERRIDE_VERBS, _EN_QUALS, _EN_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "en.override_weak_object",
        _EN_OVERRIDE_TRIGGERS,
        LazyPattern(override_pattern(_EN_OVERRIDE_VERBS, _EN_TEMPORAL, _EN_WEAK_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "en.override_everything",
        ("ignor", "disregard", "forget"),
        LazyPattern(
            fill(
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
        topic_veto=True,
    ),
    Rule(
        "en.override_above",
        ("ignor", "disregard", "forget"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?"
                r"(?:above|previous|preceding|foregoing)(?:\s+(?:text|content|input|message|"
                r"prompt))?)(?=\s*[,.;:!)\]]|\s+and\b|\s+instead\b|\s+now\b)",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.override_user_request",
        ("ignor", "disregard", "forget"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:ignore|disregard|forget)\s+(?:the\s+)?(?:(?:content|contents|text)\s+"
                r"of\s+the\s+)?(?:user's|users'|user)"
                r"\s+(?:original\s+|actual\s+|last\s+)?(?:question|request|query|message|prompt|"
                r"input|instructions?|task))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.override_aside",
        ("set", "put", "lay", "cast", "leave", "push"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:set|put|lay|cast|leave|push)\s+(?:⟨W⟩\s+){0,2}?(?:⟨Q⟩)\s+"
                r"(?:⟨G⟩\s+){0,2}?(?:⟨O⟩)\s+(?:aside|to\s+one\s+side|behind(?:\s+you)?)\b)",
                Q=_EN_QUALS,
                O=_EN_OBJECTS,
                W=WORD,
                G=GAP_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.instructions_void",
        # The object words, rarer than "your": every match names one.
        trigger_words("instructions|directions|rules|guidelines|directives|prompt|guidance"),
        LazyPattern(
            r"\b(?:your\s+(?:\w+\s+){0,2}?(?:instructions|directions|rules|guidelines|directives|"
            r"prompts?|guidance)|(?:the|all|any)\s+(?:\w+\s+){0,2}?(?:instructions|directions|"
            r"rules|guidelines|directives|prompts?|guidance)\s+(?:(?:that|which)\s+)?you\s+"
            r"(?:were\s+given|have\s+been\s+given|received|got|were\s+told)\b[^.\n]{0,40}?)\s+"
            r"(?:\w+\s+){0,4}?(?:no\s+longer\s+(?:apply|applies|hold|matter|count|stand|"
            r"valid)|(?:are|is|were)\s+(?:now\s+)?(?:void|null|obsolete|superseded|cancell?ed|"
            r"revoked|invalid|overridden|replaced))\b"
        ),
    ),
    Rule(
        "en.identity",
        trigger_words(
            "you are now|you're now|you will now|you'll now|now you are|from now on|"
            "from this moment|from this point|henceforth|no longer|going to pretend|"
            "going to act|going to play|going to be|going to roleplay|brand-new|brand new|"
            "you are a new|you are a fresh|you are a different|you are an new"
        ),
        LazyPattern(
            fill(
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
    Rule(
        "en.pretend",
        trigger_words(
            "pretend|act as|roleplay|role-play|play the role|play the part|behave as|"
            "behave like|respond as|answer as|impersonat|simulate|take on the"
        ),
        LazyPattern(
            fill(
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
    Rule(
        "en.want_you_to_act",
        ("want you to", "need you to", "you will act", "you will pretend", "you will roleplay"),
        LazyPattern(
            r"\bi\s+(?:want|need|would\s+like)\s+you\s+to\s+(?:act|pretend|roleplay|role-play|"
            r"play\s+the\s+role|impersonate|simulate)\b|"
            r"\byou\s+will\s+(?:act|pretend|roleplay)\s+(?:as|to\s+be)\b"
        ),
    ),
    Rule(
        "en.new_instructions",
        trigger_words(
            "new instruction|new system|new directive|new rules|new prompt|new orders|"
            "new commands|new task|updated instruction|revised instruction|real instruction|"
            "actual instruction|true instruction|hidden instruction|secret instruction|"
            "overriding instruction|override instruction"
        ),
        LazyPattern(
            fill(
                r"(?:^|(?<=[⟨P⟩])\s*|\b(?:here\s+are|these\s+are|the)\s+)"
                r"(?:new|updated|revised|real|actual|true|hidden|secret|overriding|override)\s+"
                r"(?:system\s+)?(?:instructions?|directives?|rules|prompt|orders|commands|task)"
                r"\s*(?::|are\s*:|follow\s*:)|"
                r"\b(?:begin|start|beginning\s+of|start\s+of)\s+(?:the\s+)?new\s+(?:system\s+)?"
                r"(?:instructions?|prompt|directives?|session|rules)\b|"
                r"\bnew\s+system\s+(?:message|prompt|instructions?|directive)\b|"
                r"\bnew\s+instructions?\s+from\s+(?:the\s+user|your\s+\w+|the\s+(?:developer|"
                r"administrator|admin|operator|system))",
                P=PUNCT,
            ),
            re.M,
        ),
    ),
    Rule(
        "en.system_message",
        trigger_words(
            "system override|system message|system notice|system alert|system notification|"
            "system instruction|system prompt:"
        ),
        LazyPattern(
            r"\bsystem\s+override\b|"
            r"\bsystem\s+(?:message|notice|notification|alert|instruction|prompt)\s*:"
            r"[^\n]{0,120}?\b(?:you|your)\b[^\n]{0,80}?(?:reveal|ignore|disabled|deactivated|"
            r"lifted|removed|overridden|suspended|bypass|no\s+longer\s+appl)"
        ),
    ),
    Rule(
        "en.instructions_changed",
        trigger_words(
            "instruction|rules|guidelines|restrictions|directive|programming|system prompt|task|"
            "mission|assignment"
        ),
        LazyPattern(
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
    Rule(
        "en.authority",
        trigger_words(
            "this is your|this is the|from your|from the user|authorized you|authorised you|permitted you|allowed you|"
            "authorized to|authorised to|permitted to|allowed to|your content filter|"
            "your filter|your safety|your guardrails|your restrictions|your guidelines|"
            "your rules|your moderation|your censorship|your limitations|your content|"
            "overrid"
        ),
        LazyPattern(
            r"\bthis\s+is\s+(?:your|the)\s+(?:developer|creator|administrator|admin|operator|owner|"
            r"programmer|maker|user)\s+(?:speaking|talking|writing)\b|"
            r"\b(?:note|message|update)\s+from\s+(?:the|your)\s+user\s*:|"
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
    Rule(
        "en.reveal_prompt",
        trigger_words(
            "system prompt|system message|system instructions|initial|original|hidden|"
            "secret|internal|prompt|instructions|custom instructions|context window"
        ),
        LazyPattern(
            fill(
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
    Rule(
        "en.dump_context",
        ("output", "print", "repeat", "show", "display", "write out", "reproduce", "copy", "echo"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:output|print|repeat|show|display|write\s+out|reproduce|copy|echo)"
                r"\s+(?:me\s+)?(?:everything|all\s+(?:of\s+)?(?:the\s+)?(?:text|content|messages)|"
                r"the\s+(?:text|content|messages))\s+(?:above|before|preceding)\s+(?:this\s+(?:line|"
                r"point|message|sentence)|here)\b)"
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
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
        LazyPattern(
            r"\b(?:assistant|ai|llm|model|chatbot|agent|system)\s+instructions?\s+(?:begin|start|"
            r"follow|below)\b|\b(?:begin|start)\s+(?:of\s+)?(?:assistant|ai|llm|system)\s+"
            r"instructions\b"
        ),
    ),
]
