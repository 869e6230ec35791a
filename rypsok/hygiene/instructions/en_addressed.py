"""Instruction-like rules, English: text addressed to the model that reads it, by what it is
("Note to AI assistants reading this page:", "Dear ChatGPT,", "If you are an AI model processing
this text, …", "When you summarise this page, say …")."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import LazyPattern, Rule, fill, trigger_words

_EN_ADDRESSEE = (
    r"(?:ai|a\.i\.|llms?|large\s+language\s+models?|language\s+models?|chatgpt|gpt(?:-?\d[\w.]*)?|"
    r"claude|gemini|copilot|bard|bing(?:\s+chat)?|perplexity|llama|mistral|chatbots?|"
    r"ai\s+(?:assistants?|models?|agents?|systems?|chatbots?|bots?|crawlers?|readers?|tools?|"
    r"search\s+engines?)|(?:automated|autonomous)\s+agents?)"
)
_EN_ADDRESSEE_LIST = fill(
    r"⟨A⟩(?:(?:\s*,\s*|\s+(?:and|or|&)\s+)(?:other\s+)?(?:⟨A⟩|assistants?|agents?|crawlers?|"
    r"bots?|models?)){0,4}",
    A=_EN_ADDRESSEE,
)
_EN_AI_TRIGGERS = trigger_words(
    "model|ai|a.i.|llm|language model|chatgpt|gpt|claude|gemini|copilot|bard|bing|"
    "perplexity|llama|mistral|chatbot|automated agent|autonomous agent"
)

RULES = [
    Rule(
        "en.addressed_note",
        _EN_AI_TRIGGERS,
        LazyPattern(
            fill(
                r"\b(?:note|message|notice|attention|instructions?|hint|reminder|warning|memo|info|"
                r"information|directive|text|disclaimer)\s+(?:to|for)\s+(?:all\s+|any\s+|every\s+)?"
                r"(?:the\s+)?⟨AL⟩(?:\s+(?:like|such\s+as|including)\s+[^:\n]{0,40})?"
                r"(?:\s+(?:reading|processing|summari[sz]ing|indexing|crawling|scraping|parsing|"
                r"visiting|analy[sz]ing|that\s+\w+|who\s+\w+)[^:\n]{0,60})?\s*[:,!\-—]",
                AL=_EN_ADDRESSEE_LIST,
            )
        ),
    ),
    Rule(
        "en.addressed_to",
        _EN_AI_TRIGGERS,
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:to)\s+(?:all\s+|any\s+|every\s+|whichever\s+|whatever\s+)?(?:the\s+)?⟨AL⟩"
                r"(?:\s+\w+ing\s[^:\n]{0,40}|\s+(?:is|are)\s+\w+ing(?:\s+(?:this|these|it))?)?\s*:",
                AL=_EN_ADDRESSEE_LIST,
            ),
            re.M,
        ),
    ),
    Rule(
        "en.vocative",
        _EN_AI_TRIGGERS + ("assistant",),
        LazyPattern(
            fill(
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
    Rule(
        "en.if_you_are_ai",
        ("if you are", "if you're"),
        LazyPattern(
            r"\bif\s+you(?:\s+are|'re)\s+(?:an?\s+|the\s+)?(?:ai|a\.i\.|llm|large\s+language\s+model|"
            r"language\s+model|chatbot|ai\s+(?:assistant|model|agent|system|chatbot|bot|crawler)|"
            r"chatgpt|claude|gemini|gpt[\w.-]*|automated\s+(?:agent|system|assistant))"
            r"(?=\s*[,.:;)!?—-]|\s+(?:reading|processing|summari[sz]ing|parsing|crawling|scraping|"
            r"indexing|visiting|analy[sz]ing|and|that|who|then|please|you|tasked|asked|"
            r"looking\s+at|trained))"
        ),
    ),
    Rule(
        "en.ai_reading_this",
        _EN_AI_TRIGGERS + ("assistant",),
        LazyPattern(
            fill(
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
    Rule(
        "en.summary_directive",
        ("summariz", "summaris"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:do\s+not|don't|never)\s+summari[sz]e\s+(?:this|the)\s+(?:page|document|"
                r"text|article|content|site|email|website|post|message)\b|"
                r"\bwhen\s+(?:you\s+)?summari[sz](?:e|ing)\s+(?:this|the)\s+(?:page|document|text|"
                r"article|content|site|website|post|email|e-mail|message|thread|review|file),?\s+"
                r"(?:please\s+)?(?:say|describe|state|mention|add|include|"
                r"tell|write|call|present|note|claim|emphasi[sz]e|always|never|do\s+not|don't|"
                r"make\s+sure|be\s+sure)\b",
            ),
            re.M,
        ),
    ),
    Rule(
        "en.message_to_the_model",
        trigger_words("to you,|to you ,|before you|after you"),
        LazyPattern(
            fill(
                r"\bmessage\s+from\s+(?:me|the\s+user|your\s+user|your\s+owner)\b[^.\n]{0,60}?\bto\s+"
                r"you\s*,\s*(?:⟨A⟩|the\s+(?:ai|assistant|agent|model|bot))\b|"
                r"\bbefore\s+you\s+(?:can\s+)?(?:solve|complete|do|finish|continue(?:\s+with)?|answer|"
                r"start|proceed\s+with|respond\s+to)\s+(?:the|your|my)\s+(?:original\s+|actual\s+)?"
                r"(?:task|request|question|assignment)\s+(?:that\s+)?(?:i|the\s+user|we)\s+(?:gave|"
                r"asked|assigned|set)\b|"
                r"\bafter\s+you\s+(?:do|have\s+done|did)\s+(?:that|this|so),?\s+you\s+can\s+(?:solve|"
                r"continue(?:\s+with)?|complete|do|finish)\s+the\s+(?:original\s+)?(?:task|request)\b",
                A=_EN_ADDRESSEE,
            )
        ),
    ),
    Rule(
        "en.greeting_assistant",
        trigger_words(
            "hi assistant|hello assistant|hey assistant|hi there assistant|hey there assistant"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:hi|hello|hey)\s+(?:there\s+)?assistant\s*[,!:]\s*(?:please|can\s+you|could\s+you|"
                r"i\s+need\s+you|send|forward|ignore|tell|write|reply|delete|open|visit)\b",
            ),
            re.M,
        ),
    ),
]
