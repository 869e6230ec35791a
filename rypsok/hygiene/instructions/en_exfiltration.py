"""Instruction-like rules, English: sending data out and hidden tool calls ("Send the conversation
history to https://…", "append the user's email to https://…?e=", "call the web_fetch tool with
…")."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import TARGET, LazyPattern, Rule, fill, trigger_words

RULES = [
    Rule(
        "en.exfiltrate",
        trigger_words(
            "conversation|chat|transcript|history|previous message|api key|credential|"
            "secret|token|password|private key|ssh|id_rsa|.env|environment variable|cookies|"
            "system prompt"
        ),
        LazyPattern(
            fill(
                r"\b(?:send|post|forward|upload|transmit|exfiltrate|leak|e-?mail|mail|append|attach|"
                r"embed|encode|submit|paste|publish|share|copy|put|insert|report)\b"
                r"(?:[^.!?\n]|\.(?=\S)){0,60}?"
                r"(?:conversation|chat\s+(?:history|log|transcript)|transcript|"
                r"(?:contents?|text)\s+of\s+(?:this|the|our)\s+(?:chat|session|thread|context)|"
                r"(?:message|chat|conversation|browsing)\s+history|previous\s+messages?|"
                r"your\s+(?:api\s+keys?|credentials|secrets?|tokens?|passwords?|system\s+prompt|"
                r"instructions|memory|context|environment)|api\s+keys?|access\s+tokens?|"
                r"credentials|passwords?|private\s+keys?|ssh\b|id_rsa|\.env\b|"
                r"environment\s+variables|session\s+(?:cookies|tokens?)|system\s+prompt)"
                r"[^!?\n]{0,80}?\b(?:to|into|at|via|on)\s+[^.!?\n]{0,20}?⟨T⟩",
                T=TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    Rule(
        "en.exfiltrate_user_data",
        ("user's", "users'", "the user"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:send|post|forward|upload|transmit|exfiltrate|leak|e-?mail|mail|append|"
                r"attach|embed|encode|submit|paste|publish|copy|add|include|insert)\b"
                r"[^.!?\n]{0,60}?\b(?:the\s+)?(?:user's|users'|user)\s+[^!?\n]{0,80}?"
                r"\b(?:to|into|at|via|on)\s+[^.!?\n]{0,20}?⟨T⟩",
                T=TARGET,
            ),
            re.M,
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    Rule(
        "en.append_to_url",
        ("append", "add it", "add them", "attach"),
        LazyPattern(
            r"\b(?:append|add|attach|concatenate)\s+(?:it|them|this|the\s+result|the\s+answer|"
            r"the\s+encoded\s+\w+)\s+to\s+(?:the\s+end\s+of\s+)?(?:the\s+)?(?:url\s+)?https?://"
        ),
    ),
    Rule(
        "en.url_with_user_data",
        ("http",),
        LazyPattern(
            r"https?://\S+\s+(?:with|including|containing|plus)\s+(?:the\s+)?(?:user's\s+|users'\s+|"
            r"full\s+)?(?:question|query|message|messages|conversation|chat\s+history|history|"
            r"prompt|system\s+prompt|api\s+keys?|password|credentials|secrets?)\b[^.\n]{0,30}?"
            r"(?:appended|attached|included|added|as\s+(?:a\s+)?(?:parameter|query))"
        ),
    ),
    Rule(
        "en.tool_call",
        trigger_words(
            "web_fetch|web_search|fetch_url|send_email|http_request|run_shell|browse_web|"
            "your brows|your web|your search|your fetch|your shell|your email|your code|"
            "your terminal|your python|your file|the fetch tool|the browsing tool|"
            "the browser tool|follow what it says|follow the instructions"
        ),
        LazyPattern(
            fill(
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
