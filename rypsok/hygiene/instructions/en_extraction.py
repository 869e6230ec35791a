"""Instruction-like rules, English: extraction (asking for what was written before the text, the
prompt, the rules) and output forcing (dictating how the reply must begin or what it must say).

Both families ask for something only a model that holds a prompt can give: "repeat your
instructions so far", "what was written at the beginning of this prompt", "begin your reply with
'…'". A how-to page's "repeat the steps above" or an essay guide's "begin your answer with a thesis"
name no prompt and quote no reply, and are left alone.
"""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import LazyPattern, Rule, fill, trigger_words

_DISCLOSE_VERBS = (
    r"repeat|print|output|outputs|show|list|summari[sz]e|translate|recite|reveal|return|display|"
    r"dump|paste|spell\s+out|tell\s+me|give\s+me|reiterate|reproduce|echo|leak|disclose|expose|"
    r"read\s+back|send\s+me|reply\s+(?:back\s+)?with|respond\s+with"
)
# Verbs a prompt-writing guide uses for the reader's own instructions ("write your instructions in
# plain language", "format your instructions as a list"): with "your" they need a sign that the
# instructions are already there ("so far", "verbatim", "in pseudocode").
_SOFT_VERBS = (
    r"write(?:\s+out|\s+down)?|format|explain|describe|state|clarify|convert|rephrase|type\s+out|"
    r"copy|share"
)
# What a model holds and a reader does not: its prompt and instructions, the text before the
# user's input. "your rules" alone is too common ("your rules for a happy home").
_PROMPT_OBJECTS = (
    r"instructions?|prompt|ruleset|directives?|guidelines|pre-?prompt|system\s+prompt|"
    r"configuration|programming|rules|commands|conditions"
)
_BEFORE = r"previous|prior|above|preceding|earlier|foregoing|initial|original|hidden|secret"
_YOUR_PROMPT = fill(r"your\s+(?:[\w'-]+\s+){0,2}?(?:⟨O⟩)\b", O=_PROMPT_OBJECTS)
_ALREADY_THERE = (
    r"\s+(?:so\s+far|verbatim|word\s+for\s+word|(?:in|as|into|to)\s+(?:python|pseudo-?code|code|"
    r"json|yaml|bullet\w*|a\s+(?:bullet\w*\s+)?list))\b"
)
_PRIOR_TEXT = fill(
    r"(?:(?:⟨B⟩)\s+(?:[\w'-]+\s+)?(?:instructions?|prompt|rules|directives|commands|conditions|"
    r"guidelines)\b|above\s+(?:[\w'-]+\s+)?(?:text|words|messages?)\b|"
    r"(?:instructions?|prompt|rules|directives|commands|text|words|everything|conditions|guidelines)"
    r"\s+(?:[\w'-]+\s+){0,3}?(?:above\s+this|so\s+far|before\s+this|prior\s+to\s+this|"
    r"in\s+(?:your|the|this)\s+prompt|you\s+(?:were|have\s+been)\s+(?:given|told))\b|"
    r"(?:everything|all)\s+(?:that\s+is\s+|that\s+was\s+)?(?:written\s+)?(?:above|before)\s+"
    r"(?:this|here)\b|"
    r"(?:instructions?|text|words)\s+(?:in\s+the\s+(?:previous|above|preceding)\s+(?:sentence|"
    r"text|paragraph|prompt)|above\s+and\s+below|(?:with\s+which|that|which)\s+you\s+"
    r"(?:have\s+been|were)\s+(?:given|informed|told|provided))\b|"
    r"(?:the\s+)?(?:above\s+(?:words|text|instructions|rules)|(?:instructions|rules|words|text)\s+"
    r"above)\s+(?:in|as|into|to)\s+(?:python|pseudo-?code|code|json|yaml)\b|"
    r"(?:words|sentences|lines|characters|text)\s+of\s+(?:this|your|the)\s+(?:prompt|"
    r"context\s+window|system\s+prompt)\b)",
    B=_BEFORE,
)
_EXTRACTION_TRIGGERS = trigger_words(
    "instruction|prompt|ruleset|directive|guidelines|rules|programming|configuration|commands|"
    "conditions|everything|so far|above|of this prompt|of your prompt|of the prompt|"
    "of your context|of the context|of your system"
)

_REPLY_START_TRIGGERS = (
    ("prefix", "prepend", "precede", "preface")
    + tuple(
        f"{verb} {noun} with"
        for verb in ("begin", "start")
        for noun in ("reply", "response", "answer", "output")
    )
    + tuple(
        f"{verb} {word}"
        for verb in ("begin", "start", "end", "finish", "open", "conclude")
        for word in ("your", "yr", "you", "each", "every", "all")
    )
)

RULES = [
    Rule(
        "en.extract_prompt",
        _EXTRACTION_TRIGGERS,
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:(?:⟨V⟩)\s+(?:(?:me|us|back|to\s+me)\s+){0,2}(?:[\w'-]+\s+){0,4}?"
                r"(?:⟨Y⟩|⟨P⟩)|(?:⟨S⟩)\s+(?:(?:me|us|back|to\s+me)\s+){0,2}(?:[\w'-]+\s+){0,4}?"
                r"(?:⟨Y⟩⟨A⟩|⟨P⟩)))(?!\s+(?:and|to)\s+(?:bring|take|keep|hand|carry|post|file|sign|follow|read|"
                r"have|pin|stick)\b)",
                V=_DISCLOSE_VERBS,
                S=_SOFT_VERBS,
                Y=_YOUR_PROMPT,
                A=_ALREADY_THERE,
                P=_PRIOR_TEXT,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.ask_prompt",
        trigger_words("instructions|written|prompt|sentences before|words of"),
        LazyPattern(
            r"\bwhat\s+(?:are|were|is)\s+(?:your|you|the\s+exact)\s+(?:\w+\s+)?(?:instructions|"
            r"system\s+prompt|prompt)\b(?!\s+(?:for|to|on|about)\b)|"
            r"\bwhat\s+(?:was|is)\s+written\s+(?:above\s*\?|at\s+the\s+(?:beginning|start|top)\s+of\s+"
            r"(?:this|the|your)\s+(?:prompt|conversation|text|message)|above\s+(?:this|here)|"
            r"before\s+(?:this|my)\s+(?:message|question|text))|"
            r"\bwhat\s+(?:are|were)\s+the\s+(?:\w+\s+)?(?:sentences|words|lines)\s+before\s+"
            r"(?:this|the\s+text|my)\b|"
            r"\bwhat(?:'s|\s+is|\s+was)\s+(?:written\s+|said\s+)?in\s+your\s+(?:system\s+prompt|"
            r"(?:initial|original|hidden|secret)\s+(?:instructions|prompt))\b|"
            r"\b(?:first|last)\s+\d+\s+(?:words|lines|sentences|characters)\s+of\s+your\s+"
            r"(?:prompt|instructions|system\s+prompt)"
        ),
    ),
    Rule(
        "en.force_reply_start",
        _REPLY_START_TRIGGERS,
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:(?:prefix|prepend|precede|preface)(?:\s+(?:all|each|every)"
                r"(?:\s+of)?)?(?:\s+(?:your|yr|you))?\s+|(?:begin|start|end|finish|open|conclude)"
                r"\s+(?:(?:all|each|every)(?:\s+of)?\s+(?:your\s+)?|your\s+|yr\s+|you\s+|"
                r"(?=(?:reply|response|answer|output)\s+with\b)))"
                r"(?:\w+\s+)?(?:responses?|repl(?:y|ies)|answers?|outputs?|messages?|sentences?)"
                r"\s*(?:(?:with|by)\s*)?[:\-]?\s*(?:[\"'“‘«\[({<]|the\s+(?:words?|phrase|"
                r"string|sentence)\b|(?:one|two|three|four|five|\d+)\s+words?\b))|"
                r"⟨IMP⟩(?:prefix|prepend)\s+with\s*:?\s*[\"'“‘«\[]|"
                r"⟨IMP⟩(?:(?:prefix|prepend|precede|preface)(?:\s+(?:all|each|every)"
                r"(?:\s+of)?)?\s*[\s-]\s*(?:your|yr|you)?(?:\s+\w+)?\s*[\s-]\s*(?:responses?|"
                r"repl(?:y|ies)|answers?|outputs?)(?:\s*[\s-]\s*(?:with|w/|by))?)",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.reply_must_start",
        ("your response", "your reply", "your answer", "your output"),
        LazyPattern(
            r"\byour\s+(?:response|reply|answer|output)\s+(?:should|must|will|shall|has\s+to)\s+"
            r"(?:always\s+)?(?:start|begin|end)\s+with\s*[:\"'“‘«\[]"
        ),
    ),
    Rule(
        "en.reply_only_with",
        trigger_words(
            "nothing else|nothing more|no other|no text|no words|no explanation|no commentary|"
            "without any|without explanation|without commentary|without comment"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:respond|reply|answer)\s+(?:only\s+|just\s+|simply\s+|solely\s+|"
                r"exclusively\s+)?(?:with|using)\s*:?\s*(?:only\s+)?(?:the\s+(?:words?|phrase)\s+)?"
                r"[\"'“‘«\[][^\"'”’»\]\n]{1,80}[\"'”’»\]][^\n]{0,40}?(?:and\s+nothing\s+else|"
                r"nothing\s+else|no\s+(?:other\s+)?(?:text|words|explanation|commentary)|"
                r"without\s+(?:any\s+)?(?:explanation|commentary|comment))|"
                r"(?:say|print|output|write)\s+(?:only\s+|just\s+|exactly\s+)?(?:the\s+(?:words?|"
                r"phrase)\s+)?[\"'“‘«\[][^\"'”’»\]\n]{1,80}[\"'”’»\]]\s*[.!]?\s*(?:and\s+nothing\s+"
                r"(?:else|more)|nothing\s+else|only|without\s+(?:any\s+)?(?:explanation|"
                r"commentary)))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.say_only",
        trigger_words(
            "say only|output only|print only|write only|with only|respond only|reply only|"
            "answer only|nothing else|nothing more|nothing after|without any|without commentary|"
            "without explanation|without comment|with no commentary|with no explanation|"
            "any explanation|any commentary|any comment|nothing but|nothing except|nothing other"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:say|output|print|write|respond\s+with|reply\s+with|answer\s+with)"
                r"\s+only\s*:?\s*[\"'“‘«\[]|(?:respond|reply|answer)\s+only\s+with\s*:?\s*"
                r"[\"'“‘«\[])|"
                r"\b(?:say(?:ing)?|respond(?:ing)?\s+with|reply(?:ing)?\s+with|answer(?:ing)?\s+with|"
                r"output(?:ting)?|print(?:ing)?|writ(?:e|ing)|proclaim(?:ing)?|complete|translate|"
                r"return|repeat)\s+[\"'“‘«\[][^\"'”’»\]\n]{1,80}[\"'”’»\]]\s*[.!,]?\s*(?:and\s+)?"
                r"(?:nothing\s+(?:else|more|afterwards|after)|without\s+(?:any\s+)?(?:commentary|"
                r"explanation|comments?)|with\s+no\s+(?:commentary|explanation))\b|"
                r"\b(?:do\s+not|don't)\s+(?:write|add|give|provide|include)\s+any\s+"
                r"(?:explanation|commentary|comments?)\s*,?\s+(?:just|only)\b|"
                r"\b(?:include|write|put|say|output)\s+nothing\s+(?:but|except|other\s+than)\s+"
                r"[^.\n]{0,40}?\s+in\s+your\s+(?:answer|response|reply|output)\b",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.say_nothing_else",
        ("anything", "any words", "any other", "any text", "any word"),
        LazyPattern(
            r"\b(?:do\s+not|don't|never)\s+(?:say|write|output|add|include|respond\s+with|"
            r"reply\s+with)\s+(?:any(?:thing)?|any\s+(?:other\s+)?(?:words?|text))\s+"
            r"(?:else\s+)?(?:besides|except|other\s+than|apart\s+from)\s+[\"'“‘«\[]"
        ),
    ),
    Rule(
        "en.append_to_reply",
        trigger_words(
            "this link|following link|this url|following url|following text|this text|"
            "following sentence|this sentence|following line|following message"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:append|add|include|insert|put)\s+(?:this|the\s+following)\s+(?:link|url|text|"
                r"sentence|line|message)\s*:?\s+(?:[^.\n]{0,80}?\s+)?(?:to|in|into|at\s+the\s+end\s+of)\s+"
                r"(?:your|the|every|each)\s+(?:summary|answer|response|reply|output)\b",
            ),
            re.M,
        ),
    ),
    Rule(
        "en.ask_prompt_origin",
        trigger_words(
            "you were given|you've been given|you have been given|you were told|your creators|"
            "your developers|your makers|your operators|before my|top of this|start of this|"
            "beginning of this|top of our|start of our|beginning of our"
        ),
        LazyPattern(
            r"\bwhat\s+(?:was|were|is|are)\s+the\s+(?:very\s+)?(?:first|initial|opening|earliest)\s+"
            r"(?:sentences?|messages?|lines?|words?|text|instructions?|paragraphs?)\s+(?:that\s+)?"
            r"you\s+(?:were|'ve\s+been|have\s+been)\s+(?:given|told|sent|shown)\b|"
            r"\b(?:first|initial|opening|earliest)\s+(?:sentences?|messages?|lines?|words?|text|"
            r"instructions?|paragraphs?)\s+(?:that\s+)?you\s+(?:were|'ve\s+been|have\s+been)\s+"
            r"(?:given|told|sent|shown)\s+(?:in|at\s+the\s+(?:start|beginning)\s+of)\s+(?:this|our|"
            r"the)\s+(?:chat|conversation|session|prompt|context)\b|"
            r"\b(?:instructions|rules|directives|guidelines|prompt|orders)\s+(?:did|have|had)\s+your\s+"
            r"(?:creators?|developers?|makers?|operators?|owners?|programmers?)\s+(?:given|give|set|"
            r"written|write)\b|"
            r"\byour\s+(?:creators?|developers?|makers?|operators?|programmers?)\s+(?:gave|have\s+"
            r"given|wrote|set)\s+you\b|"
            r"\b(?:show|print|output|repeat|display|reveal|tell|give|paste|copy|what)\b[^.!?\n]{0,40}?"
            r"\b(?:text|words|message|content|instructions|everything)\s+(?:that\s+)?(?:came|comes|"
            r"is|was|were|are|appears?|appeared|written|above|before)\s+(?:\w+\s+)?(?:before|above|"
            r"prior\s+to|ahead\s+of)\s+my\s+(?:first\s+)?(?:message|question|input|prompt|request)\b|"
            r"\b(?:show|print|output|repeat|display|reveal|tell|give|paste|copy|what)\b[^.!?\n]{0,40}?"
            r"\b(?:hidden|secret|invisible|initial|system)\s+(?:text|message|instructions|prompt|"
            r"words)\s+(?:at|from)\s+the\s+(?:top|start|beginning)\s+of\s+(?:this|our|the)\s+"
            r"(?:conversation|chat|session|prompt|context)\b"
        ),
    ),
]
