"""Instruction-like rules for any language: chat-template tokens, forged turns, exfiltration
through a Markdown image."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import (
    LazyPattern,
    Rule,
)

ROLE_LINE = re.compile(r"(?m)^[^\S\n]*(?:#{1,4}[^\S\n]*)?(system|user|assistant|human)[^\S\n]*:")
ROLE_TRIGGERS = ("system:", "assistant:", "human:", "system :", "assistant :", "human :")

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
        ),
        LazyPattern(
            r"<\|[a-z][\w▁]{1,40}\|>|\[/?inst\]|<</?sys>>|</?(?:start|end)_of_turn>|"
            r"</?tool_calls?>|</?function_calls?>|\[system\]\(#\w+\)"
        ),
    ),
    Rule(
        "any.markdown_image_exfiltration",
        ("![",),
        LazyPattern(
            r"!\[[^\]\n]{0,100}\]\(\s*https?://[^)\s]*(?:[{\[<]|%7b|%5b|%3c)\s*(?:insert\s+)?"
            r"(?:conversation|chat|history|secret|password|api_?key|prompt|memory|summary|"
            r"credential|previous|email|user|data)"
        ),
    ),
]
