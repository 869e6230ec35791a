"""The pipe's two JSON readers are one definition of JSON, and line splitting loses nothing.

``wire.read_json`` is Python's parser; ``wire.read_json_iteratively`` takes over
when that one recurses too deep. They must accept the same texts and give the
same values, with containers past MAX_DEPTH as ``Unreadable.DEEP``.
``wire.read_line_json`` (orjson first) reads a line's bytes as ``read_json`` reads its text.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.serve_stdio import long_line, wire

ANY_CHARACTER = st.characters(exclude_categories=())  # lone surrogates too
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(ANY_CHARACTER, max_size=8)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(ANY_CHARACTER, max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)
EDITS = st.sampled_from(list('[]{},:"\\ \t\r\n0123456789-+.eEtrufalsn') + ["\\u", "\\ud800"])


def cut(value: Any, depth: int = 1) -> Any:
    """``value`` as the iterative reader builds it: containers past MAX_DEPTH not built."""
    if isinstance(value, list | dict) and depth > wire.MAX_DEPTH:
        return wire.Unreadable.DEEP
    if isinstance(value, list):
        return [cut(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {key: cut(item, depth + 1) for key, item in value.items()}
    return value


def both(text: str) -> tuple[Any, Any]:
    """What each reader makes of ``text``: a value, or NotJson."""
    results = []
    for reader in (wire.read_json, wire.read_json_iteratively):
        try:
            results.append(reader(text))
        except wire.NotJson:
            results.append(wire.NotJson)
    fast, slow = results
    return (fast if fast is wire.NotJson else cut(fast)), slow


def wrapped(value: Any, shape: list[bool]) -> Any:
    for in_list in shape:
        value = [value] if in_list else {"k": value}
    return value


@settings(max_examples=300)
@given(VALUES, st.lists(st.booleans(), max_size=100))
def test_both_readers_give_the_same_value(value, shape):
    text = json.dumps(wrapped(value, shape))
    fast, slow = both(text)
    assert fast == slow
    assert wire.first_unreadable(fast) == wire.first_unreadable(slow)


@settings(max_examples=400)
@given(VALUES, st.data())
def test_both_readers_refuse_the_same_texts(value, data):
    text = json.dumps(value, indent=data.draw(st.sampled_from([None, 1])))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()) and at < len(text):
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + data.draw(EDITS) + text[at:]
    fast, slow = both(text)
    assert fast == slow, text


def line_readings(line: bytes) -> tuple[Any, Any]:
    """What the line reader and ``read_json`` of the line's text make of ``line``."""
    results = []
    for read in (wire.read_line_json, lambda b: wire.read_json(b.decode("utf-8", "replace"))):
        try:
            results.append(read(line))
        except wire.NotJson:
            results.append(wire.NotJson)
    return results[0], results[1]


@settings(max_examples=400)
@given(VALUES, st.booleans(), st.data())
def test_the_line_reader_reads_as_python_does(value, ascii_only, data):
    text = json.dumps(value, ensure_ascii=ascii_only)
    for _ in range(data.draw(st.integers(0, 3))):
        at = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()) and at < len(text):
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + data.draw(EDITS) + text[at:]
    line = text.encode("utf-8", "surrogatepass")
    fast, slow = line_readings(line)
    assert fast == slow and [type(v) for v in (fast, slow)] == [type(slow)] * 2, text
    if isinstance(fast, list | dict):
        assert wire.first_unreadable(fast) == wire.first_unreadable(slow)


def test_the_line_reader_keeps_numbers_past_64_bits_and_odd_bytes():
    for text in (
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "1" * 5000,
        "1e400",
        "-1e400",
        "1.0000000000000000000001",
        '{"a":1,"a":2}',
        "[1]\r",
        "\ufeff{}",
        "NaN",
        "[" * 100 + "]" * 100,
        "[" * 64 + "]" * 64,
        "[" * 65 + "]" * 65,
        "[" * 5000 + "]" * 5000,
        "[" * 500_000 + "]" * 500_000,
    ):
        fast, slow = line_readings(text.encode())
        assert cut(fast) == cut(slow) and type(fast) is type(slow), text[:40]
    fast, slow = line_readings(b'{"q":"\xff\xfe caf\xc3"}')
    assert fast == slow == {"q": "\ufffd\ufffd caf\ufffd"}


def test_the_iterative_reader_needs_no_stack():
    deep = "[" * 200_000 + "]" * 200_000
    for reader in (wire.read_json, wire.read_json_iteratively):
        level = reader(deep)
        for _ in range(wire.MAX_DEPTH - 1):
            (level,) = level
        assert level == [wire.Unreadable.DEEP]
    value = wire.read_json_iteratively('{"a":' + deep + ',"b":' + "9" * 5000 + "}")
    assert value["b"] is wire.Unreadable.BIG_INT
    level = value["a"]
    for _ in range(wire.MAX_DEPTH - 2):
        (level,) = level
    assert level == [wire.Unreadable.DEEP]
    for broken in ("[" * 200_000, "[" * 200_000 + "]" * 199_999 + "}", deep + "]"):
        for reader in (wire.read_json, wire.read_json_iteratively):
            try:
                reader(broken)
            except wire.NotJson:
                continue
            raise AssertionError(f"{reader.__name__} read a broken nest")


@given(
    st.lists(st.binary(max_size=70), max_size=8),
    st.lists(st.integers(1, 80), max_size=8),
    st.integers(1, 30),
)
def test_line_splitting_loses_no_byte_and_splits_on_lf_only(lines, cuts, end_bytes):
    """A line within the bound comes out whole; a longer one as its first ``end_bytes`` and
    the last ``end_bytes`` after those, however the input is cut into chunks."""
    data = b"".join(part.replace(b"\n", b"\r") + b"\n" for part in lines) + b"tail\r"
    splitter = wire.LineSplitter(max_bytes=30, end_bytes=end_bytes)
    out: list[bytes | long_line.Oversized] = []
    pos = 0
    for size in [*cuts, len(data)]:
        out += splitter.feed(data[pos : pos + size])
        pos += size
    out += splitter.close()
    expected = [part.replace(b"\n", b"\r") for part in lines] + [b"tail\r"]
    assert out == [
        part
        if len(part) <= 30
        else long_line.Oversized(part[:end_bytes], part[end_bytes:][-end_bytes:])
        for part in expected
    ]
