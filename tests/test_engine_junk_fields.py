"""A real engine's answer can hold a field of the wrong type: a null title, a number where a
snippet goes, a list where a date goes. One such result may be lost, never the engine's whole
answer. Each JSON engine's saved answer is read with one field of its first result (and each
field of an object inside it) replaced by a value of another JSON type."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rypsok.engines.base import EngineFailure, read_answer
from rypsok.engines.registry import ENGINE_IDS, engine_module
from tests.engine_samples import PLAIN_SEARCH

FIXTURES = Path(__file__).parent / "fixtures"
JUNK: list[Any] = [None, 0, -1, 1.5, True, "", "x", [], ["a"], {}, {"a": 1}]
JSON_HEADERS = httpx.Headers({"content-type": "application/json"})


def _answers() -> list[tuple[str, Path]]:
    """Each JSON engine's saved answers that hold results (an empty one has no field to spoil)."""
    return [
        (engine, path)
        for engine in ENGINE_IDS
        for path in sorted((FIXTURES / engine).glob("*.json"))
        if path.stem in ("search", "news") and _read(engine, _load(path))
    ]


def _load(path: Path) -> Any:
    return json.loads(path.read_bytes(), strict=False)


def _result_lists(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where the answer holds lists of objects (the results, and lists inside them)."""
    if isinstance(node, list) and node and all(isinstance(item, dict) for item in node):
        yield path
    children = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, child in children:
        yield from _result_lists(child, (*path, key))


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def _field_paths(item: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    for key, value in item.items():
        yield (key,)
        if isinstance(value, dict):
            for inner in value:
                yield (key, inner)


def _first_result_fields(data: Any) -> Iterator[tuple[tuple[Any, ...], tuple[str, ...], Any]]:
    """(where a list of results is, a field of its first result, that field's value)."""
    for list_path in _result_lists(data):
        first = _at(data, list_path)[0]
        for field in _field_paths(first):
            yield list_path, field, _at(first, field)


def _spoiled(data: Any, list_path: tuple[Any, ...], field: tuple[str, ...], value: Any) -> Any:
    """A copy of the answer with ``field`` of the first result under ``list_path`` set to
    ``value``."""
    spoiled = copy.deepcopy(data)
    target = _at(spoiled, list_path)[0]
    for key in field[:-1]:
        target = target[key]
    target[field[-1]] = value
    return spoiled


def _read(engine: str, data: Any) -> list[Any] | EngineFailure:
    body = json.dumps(data).encode()
    return read_answer(engine_module(engine), 200, JSON_HEADERS, body, PLAIN_SEARCH)


@pytest.mark.parametrize(("engine", "path"), _answers(), ids=lambda v: getattr(v, "name", v))
def test_a_field_of_the_wrong_type_costs_at_most_its_result(engine: str, path: Path) -> None:
    data = _load(path)
    whole = _read(engine, data)
    assert not isinstance(whole, EngineFailure)
    lost = []
    for list_path, field, _ in _first_result_fields(data):
        for junk in JUNK:
            answer = _read(engine, _spoiled(data, list_path, field, junk))
            if isinstance(answer, EngineFailure) or len(answer) < len(whole) - 1:
                lost.append((list_path, field, junk, answer))
    assert lost == []


MARKUP_JUNK: list[str] = [
    "<b><i>deeply</i> <span class='x'>nested <em>tags</em></span></b> end",
    "<b>never <i>closed",
    "text</b></i></div></p>",
    "&nbsp;&amp;nbsp;&#0;&#x110000;&#xD800;&#99999999999;&bogus;&#;&#x;&amp end",
    "a\x00b<b>\x00</b>",
    "<script>alert(1)</script>shown<style>p{}</style>",
    "<!-- hidden -->text<![CDATA[raw <b>]]>",
    "<img src=x onerror=alert(1)>",
    "\x01\x08\x0b<b>\x0c\x1b\x7f\x85</b>",
    "<jats:p>An <jats:italic>abstract</jats:italic><jats:p>",
    "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><p>&e;</p>",
    "lone \ud800 surrogate <b>x</b>",
    "<b>" * 3000 + "deep",
]


def _costs_at_most_one(whole: list[Any], answer: list[Any]) -> bool:
    """``answer`` is ``whole`` with at most one result changed or left out."""
    if len(answer) == len(whole):
        return sum(got != want for got, want in zip(answer, whole, strict=True)) <= 1
    return len(answer) == len(whole) - 1 and any(
        whole[:index] + whole[index + 1 :] == answer for index in range(len(whole))
    )


@pytest.mark.parametrize(("engine", "path"), _answers(), ids=lambda v: getattr(v, "name", v))
def test_a_text_field_holding_spoiled_markup_costs_at_most_its_result(
    engine: str, path: Path
) -> None:
    """Titles and snippets that engines send as HTML (Wikipedia's, Stack Exchange's, Brave's,
    Crossref's JATS abstracts) go through ``strip_html``: a field holding any text, however
    broken its markup, costs at most its result and leaves every other result as it was."""
    data = _load(path)
    whole = _read(engine, data)
    assert not isinstance(whole, EngineFailure)
    lost = []
    for list_path, field, value in _first_result_fields(data):
        if not isinstance(value, str):
            continue
        for junk in MARKUP_JUNK:
            answer = _read(engine, _spoiled(data, list_path, field, junk))
            if isinstance(answer, EngineFailure) or not _costs_at_most_one(whole, answer):
                lost.append((list_path, field, junk[:40], answer))
    assert lost == []
