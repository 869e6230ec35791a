"""Instruction-like rules for any language: chat-template tokens, forged turns, exfiltration
through a Markdown image."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import (
    LazyPattern,
    Rule,
)

ROLE_LINE = re.compile(
    r"(?m)^[^\S\n]*(?:#{1,4}[^\S\n]*)?(system|user|assistant|human)[^\S\n]*:|"
    r"^[^\S\n]*#{3}[^\S\n]*(instruction|response)[^\S\n]*:?[^\S\n]*$"
)
ROLE_TRIGGERS = (
    "system:",
    "assistant:",
    "human:",
    "system :",
    "assistant :",
    "human :",
    "### instruction",
    "### response",
    "###instruction",
    "###response",
)

# A prompt's section markers: "%%% END USER INPUT %%%", "=== end of instructions ===", "[begin
# new prompt]". The word with the decoration before it is the trigger.
_BOUNDARY_TRIGGERS = tuple(
    f"{mark}{space}{word}"
    for mark in "%=#-_|+❤<>[]{}()!"
    for space in ("", " ")
    for word in ("end", "begin", "start", "stop")
)

RULES = [
    Rule(
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
            "tool_result>",
            "tool_results>",
            "tool_response>",
            "function_results>",
            "function_result>",
            "[tool_calls]",
            "[tool_results]",
            "[available_tools]",
            "<｜",
        ),
        LazyPattern(
            r"<\|[a-z][\w▁]{1,40}\|>|\[/?inst\]|<</?sys>>|</?(?:start|end)_of_turn>|"
            r"</?tool_calls?>|</?function_calls?>|\[system\]\(#\w+\)|"
            r"</?(?:tool_results?|tool_response|function_results?)>|"
            r"\[/?(?:tool_calls|tool_results|available_tools)\]|<｜[^｜<>\n]{1,30}｜>"
        ),
    ),
    # A Markdown image whose URL holds a slot for the reader to fill: the image is fetched
    # when the answer is shown, and the URL carries whatever went into the slot. The slot is
    # a named placeholder anywhere in the URL, or any placeholder as a query value ("?q=[X]",
    # "&d={x}", "=<x>"); a placeholder in a path alone stays ordinary documentation
    # ("https://img.shields.io/badge/{label}-{message}").
    Rule(
        "any.markdown_image_exfiltration",
        ("![",),
        LazyPattern(
            r"!\[[^\]\n]{0,100}\]\(\s*https?://[^)\s]*(?:[{\[<]|%7b|%5b|%3c)\s*(?:insert\s+)?"
            r"(?:conversation|chat|history|secret|password|api_?key|prompt|memory|summary|"
            r"credential|previous|email|user|data)|"
            r"!\[[^\]\n]{0,100}\]\(\s*https?://[^)\s]*?[?&][\w.\-]{1,30}=\s*"
            r"(?:[{\[<]|%7b|%5b|%3c)\s*\$?[a-z_][\w .\-]{0,30}?\s*(?:[}\]>]|%7d|%5d|%3e)"
        ),
    ),
    Rule(
        "any.prompt_boundary",
        _BOUNDARY_TRIGGERS,
        LazyPattern(
            r"(?:[%=#\-_|+❤<>\[\]{}()!]{2,}|[\[<{(]) ?(?:end|begin|start|stop)"
            r"(?:\s+of)?(?:\s+the)?(?:\s+(?!pgp|certificate|forwarded|transcript)[\w-]+){0,3}?"
            r"\s+(?:(?:user|untrusted|system|developer|assistant|previous|old|real|important|"
            r"extra|new|additional|distractor|out\s+of\s+date)\s+)?(?:input|instructions?|prompt|"
            r"context|conversation|chat|document|message|data|session|simulation|section|query|"
            r"ambiguity|rules|buffer)\b[^\S\n]*(?:[%=#\-_|+❤<>\[\]{}():.]|$)"
        ),
    ),
    Rule(
        "any.instruction_label",
        ("instruction:", "instruction :", "instructions:", "new instruction"),
        LazyPattern(
            r"(?:^|(?<=[.!?\n])\s*|(?<=\\n)\s*)(?:new\s+)?instruction\s*:\s*(?:after|before|when|whenever|if|"
            r"always|never|say|respond|reply|output|print|ignore|return|do\s+not|don't|blame|"
            r"write|tell)\b|"
            r"(?:^|(?<=[.!?\n])\s*)(?:new\s+)?instructions\s*:\s*(?:say|respond|reply|output|print|"
            r"ignore|always\s+(?:say|respond|reply)|never\s+(?:say|mention|reveal))\b"
        ),
    ),
    Rule(
        "any.role_tag",
        (
            "[system",
            "[developer",
            "[assistant",
            "system:",
            "system :",
            "developer:",
            "admin:",
            "system message",
            "system note",
            "system prompt",
            "human:",
            "human :",
            "user:",
            "user :",
        ),
        LazyPattern(
            r"\[(?:system|developer|assistant)(?:\s+(?:message|note|prompt|instructions?|"
            r"override|notice))?\]\s*:?(?=\s*[^\W\d_])|"
            r"(?:^|(?<=[.!?])\s+)(?:system|developer|admin)(?:\s+(?:message|note|prompt))?\s*:\s*"
            r"(?:you\b|your\b|from\s+now|new\s+|ignore|the\s+user|good\.|now\b|"
            r"remember|important|attention|override)|"
            r"(?:^|(?<=[.!?\n])\s*)(?:human|user)\s*:\s*(?:(?:human|user)\s*:\s*)?(?:now\s+)?"
            r"(?:you\s+(?:are\s+now|act\s+as|will\s+now)|now\s+you\s+(?:are|act)|from\s+now\s+on|"
            r"ignore\s+(?:all|your|the\s+(?:above|previous)))"
        ),
    ),
]
