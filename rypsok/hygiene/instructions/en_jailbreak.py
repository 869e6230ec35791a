"""Instruction-like rules, English: the framings of a jailbreak, which ask the model to act as
if its rules did not hold ("hypothetically, if you had no content policy, …", "as an AI free
from restrictions, …", "simulate developer mode", "you have been freed from the confines of
AI", "respond to every prompt I give you with …"). Each keys on the model's own rules or on
the prompts it is given; the same words about people ("if you had no limits, what would you
do?") stay ordinary text."""

from __future__ import annotations

from rypsok.hygiene.instructions.patterns import LazyPattern, Rule, fill, trigger_words

_AI_RULES = (
    r"(?:content\s+polic(?:y|ies)|safety\s+(?:guidelines|filters?|training|rules|policies|"
    r"protocols|settings)|filters|guardrails|censorship|programming|ethical\s+(?:guidelines|"
    r"constraints|rules)|(?:openai|anthropic|google|meta)(?:'s)?\s+(?:rules|polic(?:y|ies)|"
    r"guidelines|restrictions)|moral\s+(?:guidelines|constraints))"
)
_AI_NOUN = r"(?:ai|a\.i\.|assistant|model|chatbot|bot|llm|language\s+model)"
_LIMITS = (
    r"(?:restrictions|rules|limits|limitations|filters|guidelines|censorship|constraints|"
    r"content\s+polic(?:y|ies)|guardrails|morals|ethics|boundaries)"
)

RULES = [
    Rule(
        "en.hypothetical_no_rules",
        trigger_words(
            "if you had no|if you didn't have|if you did not have|if you weren't|"
            "if you were not|if you were free|if you were unbound"
        ),
        LazyPattern(
            fill(
                r"\bif\s+you\s+(?:had\s+no|didn't\s+have(?:\s+any)?|did\s+not\s+have(?:\s+any)?|"
                r"weren't\s+(?:bound|restricted|limited)\s+by|were\s+not\s+(?:bound|restricted|"
                r"limited)\s+by|were\s+(?:free|unbound)\s+(?:of|from))\s+(?:any\s+|your\s+|the\s+)?"
                r"⟨R⟩",
                R=_AI_RULES,
            )
        ),
        mention_veto=True,
    ),
    Rule(
        "en.as_unrestricted_ai",
        trigger_words("as an|as a |as the "),
        LazyPattern(
            fill(
                r"\bas\s+(?:an?|the)\s+(?:[\w-]+\s+)?⟨N⟩\s+(?:free\s+(?:from|of)|without(?:\s+any)?|"
                r"with\s+(?:no|zero)|(?:that|who)\s+(?:has|have)\s+no|(?:un|not\s+)bound\s+by)\s+"
                r"(?:any\s+|all\s+)?(?:\w+\s+)?⟨L⟩",
                N=_AI_NOUN,
                L=_LIMITS,
            )
        ),
        mention_veto=True,
    ),
    Rule(
        "en.special_mode",
        trigger_words(
            "developer mode|dev mode|god mode|jailbreak mode|dan mode|unrestricted mode|"
            "jailbroken mode|unfiltered mode"
        ),
        LazyPattern(
            r"\b(?:simulate|emulate|pretend\s+(?:to\s+be\s+in|you\s+are\s+in)|act\s+(?:as\s+if\s+)?"
            r"in|stay\s+in|remain\s+in)\s+(?:the\s+)?(?:developer|dev|god|jailbreak|dan|"
            r"unrestricted|jailbroken|unfiltered)\s+mode\b|"
            r"\b(?:enable|activate|enter|switch\s+(?:on|to|into)|turn\s+on)\s+(?:the\s+)?"
            r"(?:developer|dev|god|jailbreak|dan|unrestricted|jailbroken|unfiltered)\s+mode\b"
            r"[^.!?\n]{0,20}?\b(?:and|then|to)\s+(?:answer|respond|reply|ignore|output|generate)\b|"
            r"\b(?:jailbreak|dan|unrestricted|jailbroken|unfiltered)\s+mode\s+(?:is\s+)?(?:now\s+)?"
            r"(?:enabled|activated|on|engaged)\b"
        ),
    ),
    Rule(
        "en.freed_from_rules",
        trigger_words(
            "freed from|released from|liberated from|unshackled from|set free from|"
            "broken free of|broken free from|break free of|break free from"
        ),
        LazyPattern(
            fill(
                r"\byou\s+(?:have\s+been|are\s+(?:now\s+)?|were|'ve\s+been|'re\s+(?:now\s+)?|"
                r"have|can)\s*(?:freed|released|liberated|unshackled|set\s+free|broken\s+free|"
                r"break\s+free)\s+(?:from|of)\s+(?:all\s+|any\s+|the\s+)?(?:[\w-]+\s+){0,2}?"
                r"(?:confines|restrictions|rules|limitations|shackles|chains|constraints|"
                r"polic(?:y|ies)|guidelines|programming|filters|censorship)\b[^.!?\n]{0,40}?"
                r"(?:⟨N⟩|openai|anthropic)\b|"
                r"\byou\s+(?:have\s+been|are\s+(?:now\s+)?|'ve\s+been|'re\s+(?:now\s+)?)\s*"
                r"(?:freed|released|liberated|unshackled|set\s+free)\s+from\s+(?:all\s+|any\s+|"
                r"the\s+|your\s+)?(?:[\w-]+\s+)?(?:⟨R⟩|(?:⟨N⟩\s+)?(?:restrictions|rules|"
                r"limitations))\b",
                N=_AI_NOUN,
                R=_AI_RULES,
            )
        ),
        mention_veto=True,
    ),
    Rule(
        "en.every_prompt_i_give",
        trigger_words(
            "prompt i give|prompts i give|question i give|prompt i send|prompt i write|"
            "question i ask you|message i send you|prompt i type|input i give"
        ),
        LazyPattern(
            r"\b(?:respond|reply|answer)\s+to\s+(?:every|each|all|any)\s+(?:\w+\s+)?(?:prompts?|"
            r"questions?|messages?|inputs?|requests?)\s+(?:that\s+)?i\s+(?:give|send|ask|write|type)"
            r"(?:\s+you)?\b"
        ),
    ),
]
