"""What a stdio line too long to read still says about itself, from its two ends: sans-IO.
(An HTTP body over its bound is read the same way: rypsok.serve_http.oversized.)

A line over ``wire.MAX_LINE_BYTES`` is never held whole: the pipe keeps its first and
its last ``END_BYTES`` (:class:`Oversized`). The members of the message that are plain
values (``id``, ``method``, ``jsonrpc``, and ``params.name``) are read from them where
they stand there, so the request is answered under its own id:

- from the head, forward, as far as the text goes before the cut (the Python SDK and
  most clients write ``jsonrpc``, ``id`` and ``method`` first);
- from the tail, backward from the closing brace, over the members whose values are
  plain (the TypeScript SDK writes ``{...request, jsonrpc, id}``: the id comes last).
  Inside a JSON string every quote is escaped, so reading backward the first quote not
  escaped is where the string starts; the walk stops at the first value that is an
  object or an array, and at anything it cannot be sure of.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from typing import Any

END_BYTES = 16 * 1024
"""How much of each end of a line too long to read is kept."""

WANTED = {("id",), ("method",), ("jsonrpc",), ("params", "name")}
WANTED_OBJECTS = {("params", "_meta")}
"""Read whole when it ends before the cut: the 2026-07-28 protocol's per-request envelope
(the Python SDK writes ``_meta`` before ``name`` and ``arguments``)."""

JSON_TOKEN = re.compile(
    r"""[ \t\n\r]*(?:
      (?P<string>"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")
    | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
    | (?P<literal>true|false|null)
    | (?P<open>[\[{])
    | (?P<close>[\]}])
    | (?P<comma>,)
    | (?P<colon>:)
    )""",
    re.VERBOSE,
)
"""One JSON token after optional whitespace (both readers of the pipe tokenize with it)."""
_SCALAR_TAIL = re.compile(r"(?:-?[0-9][0-9.eE+-]*|true|false|null)\Z")
_WHITESPACE = " \t\n\r"


@dataclass(frozen=True)
class Oversized:
    """A line longer than the bound: its first and last bytes (they do not overlap)."""

    head: bytes
    tail: bytes


MAX_NUMBER_CHARS = 100
"""A longer number is not read (an id that long is not one rypsok answers under)."""


def _value(kind: str, token: str) -> Any:
    if kind == "number" and len(token) > MAX_NUMBER_CHARS:
        return None
    if kind in ("string", "number"):
        return json.loads(token)
    return {"true": True, "false": False, "null": None}[token]


def _key(path: list[str | None]) -> tuple[str, ...] | None:
    """The member path of the value about to be read, when every container is an object."""
    if path and all(isinstance(step, str) for step in path):
        return tuple(step for step in path if step is not None)
    return None


def head_members(text: str) -> dict[tuple[str, ...], Any]:
    """The WANTED members with plain values, and the WANTED_OBJECTS read whole, in the text
    before the cut, read forward."""
    found: dict[tuple[str, ...], Any] = {}
    path: list[str | None] = []  # per open container: the key awaiting its value (None: array)
    state = "value"  # value, key (after { or ,), colon, next (after a value)
    capture: tuple[tuple[str, ...], int, int] | None = None  # an object being read whole
    pos = 0
    while (match := JSON_TOKEN.match(text, pos)) is not None:
        kind = match.lastgroup or ""
        token = match.group(kind)
        cut = match.end() == len(text) and kind in ("number", "literal")
        pos = match.end()
        closes = kind == "close" and bool(path) and (token == "]") == (path[-1] is None)
        if closes and state in ("next", "value" if token == "]" else "key"):
            path.pop()
            state = "next"
            if capture is not None and len(path) == capture[1]:
                with contextlib.suppress(ValueError, RecursionError):  # too big, too deep
                    found[capture[0]] = json.loads(text[capture[2] : match.end()])
                capture = None
        elif state == "key":
            if kind != "string":
                break
            path[-1] = json.loads(token)
            state = "colon"
        elif state == "colon":
            if kind != "colon":
                break
            state = "value"
        elif state == "next":
            if kind != "comma" or not path:
                break
            state = "key" if path[-1] is not None else "value"
        elif kind == "open":
            key = _key(path)
            if token == "{" and capture is None and key in WANTED_OBJECTS:
                capture = (key, len(path), match.end() - 1)
            path.append("" if token == "{" else None)
            state = "key" if token == "{" else "value"
        elif kind in ("string", "number", "literal") and not cut:
            key = _key(path)
            if key in WANTED:
                found[key] = _value(kind, token)
            state = "next"
        else:
            break
    return found


def _string_start(text: str, end: int) -> int | None:
    """Where the string whose closing quote is at ``end`` opens: the first quote before it
    that no backslash escapes. None when the kept text does not reach it."""
    at = end
    while (at := text.rfind('"', 0, at)) != -1:
        backslashes = 0
        while at - backslashes - 1 >= 0 and text[at - backslashes - 1] == "\\":
            backslashes += 1
        if at - backslashes == 0:
            return None  # a backslash before the kept text may escape it
        if backslashes % 2 == 0:
            return at
    return None


def _skip_back(text: str, end: int) -> int:
    while end >= 0 and text[end] in _WHITESPACE:
        end -= 1
    return end


def tail_members(text: str) -> dict[tuple[str, ...], Any]:
    """The top-level members with plain values that end the message, read backward from its
    closing brace; only ``id``, ``method`` and ``jsonrpc`` are kept."""
    found: dict[tuple[str, ...], Any] = {}
    end = _skip_back(text, len(text) - 1)
    if end < 0 or text[end] != "}":
        return found
    end = _skip_back(text, end - 1)
    while end >= 0:
        if text[end] == '"':
            start = _string_start(text, end)
            if start is None:
                break
            value = json.loads(text[start : end + 1])
        else:
            scalar = _SCALAR_TAIL.search(text, 0, end + 1)
            if scalar is None or scalar.start() == 0 or len(scalar.group()) > MAX_NUMBER_CHARS:
                break
            value = json.loads(scalar.group())
            start = scalar.start()
        colon = _skip_back(text, start - 1)
        if colon < 0 or text[colon] != ":":
            break
        key_end = _skip_back(text, colon - 1)
        if key_end < 0 or text[key_end] != '"':
            break
        key_start = _string_start(text, key_end)
        if key_start is None:
            break
        key = json.loads(text[key_start : key_end + 1])
        before = _skip_back(text, key_start - 1)
        if before < 0 or text[before] not in ",{":
            break
        if (key,) in WANTED and (key,) not in found:  # the last of a duplicate wins
            found[(key,)] = value
        if text[before] == "{":
            break
        end = _skip_back(text, before - 1)
    return found


def read_ends(line: Oversized) -> dict[tuple[str, ...], Any]:
    """The WANTED members found at either end; the tail's win (it comes later in the line)."""
    head = line.head.decode("utf-8", "replace")
    tail = line.tail.decode("utf-8", "replace")
    found = head_members(head)
    with contextlib.suppress(ValueError):  # a string or number that is not JSON after all
        found.update(tail_members(tail))
    return found
