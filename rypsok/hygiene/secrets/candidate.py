"""A span a rule found, with the rank that settles overlaps (lower wins)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    kind: str
    start: int
    end: int
    rank: int  # lower wins when candidates overlap


SPECIFIC, HEURISTIC, PASSWORD_IN_URL, GENERIC = 0, 1, 2, 3

Finder = Callable[[str, str], Iterator[Candidate]]
