"""Percent-decoding with a map back to the caller's positions, so a span found in the
decoded text is the extent of what the caller wrote."""

from __future__ import annotations

import re

_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_MAX_DECODE_PASSES = 3


def _utf8_length(lead: int) -> int:
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _decode_once(text: str) -> tuple[str, list[int]]:
    """Decode ``%XX`` runs (as UTF-8); ``starts[i]`` is where decoded char ``i`` began.

    A byte that is not part of a valid UTF-8 sequence stays as its three literal characters.
    ``starts`` has one extra entry, ``len(text)``, so decoded ``[s, e)`` is ``[starts[s],
    starts[e])`` in ``text``.
    """
    pieces: list[str] = []
    starts: list[int] = []
    position = 0
    for run in _PERCENT_RUN.finditer(text):
        pieces.append(text[position : run.start()])
        starts.extend(range(position, run.start()))
        data = bytes.fromhex(run.group().replace("%", ""))
        base = run.start()
        index = 0
        while index < len(data):
            length = _utf8_length(data[index])
            decoded = None
            if length and index + length <= len(data):
                try:
                    decoded = data[index : index + length].decode("utf-8")
                except UnicodeDecodeError:
                    decoded = None
            origin = base + 3 * index
            if decoded is not None:
                pieces.append(decoded)
                starts.append(origin)
                index += length
            else:
                pieces.append(text[origin : origin + 3])
                starts.extend(range(origin, origin + 3))
                index += 1
        position = run.end()
    pieces.append(text[position:])
    starts.extend(range(position, len(text) + 1))
    return "".join(pieces), starts


def percent_decode(text: str) -> tuple[str, list[int] | None]:
    """Fully decode (double encoding included) with a map back to ``text``; None: identity."""
    if "%" not in text:
        return text, None
    decoded, starts = text, None
    for _ in range(_MAX_DECODE_PASSES):
        if "%" not in decoded or not _PERCENT_RUN.search(decoded):
            break
        again, pass_starts = _decode_once(decoded)
        if again == decoded:
            break
        starts = pass_starts if starts is None else [starts[i] for i in pass_starts]
        decoded = again
    return decoded, starts
