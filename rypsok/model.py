"""Responses and their notices, as the JSON the spec describes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Notice:
    code: str
    engine: str | None = None
    reason: str | None = None
    count: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code}
        if self.engine is not None:
            out["engine"] = self.engine
        if self.reason is not None:
            out["reason"] = self.reason
        if self.count is not None:
            out["count"] = self.count
        return out


class Notices:
    """Collects notices for one call: counted codes are summed, per-engine ones kept in order."""

    def __init__(self) -> None:
        self._counts: dict[tuple[str, str | None], int] = {}
        self._events: list[Notice] = []

    def count(self, code: str, n: int = 1, reason: str | None = None) -> None:
        if n > 0:
            key = (code, reason)
            self._counts[key] = self._counts.get(key, 0) + n

    def add(self, notice: Notice) -> None:
        if notice not in self._events:
            self._events.append(notice)

    def as_list(self) -> list[Notice]:
        counted = [
            Notice(code, reason=reason, count=n) for (code, reason), n in self._counts.items()
        ]
        return self._events + counted

    def to_json(self) -> list[dict[str, Any]]:
        return [n.to_json() for n in self.as_list()]


@dataclass
class Result:
    title: str
    url: str
    snippet: str
    date: str | None = None
    engines: list[str] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"title": self.title, "url": self.url, "snippet": self.snippet}
        if self.date is not None:
            out["date"] = self.date
        if self.engines is not None:
            out["engines"] = list(self.engines)
        return out


@dataclass
class SearchResponse:
    outcome: str
    notices: list[Notice]
    results: list[Result]

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "notices": [n.to_json() for n in self.notices],
            "results": [r.to_json() for r in self.results],
        }


@dataclass
class EngineState:
    id: str
    state: str
    latency_ms: int | None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "state": self.state, "latency_ms": self.latency_ms}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass
class StatusResponse:
    engines: list[EngineState]
    notices: list[Notice] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        """Always ``ok``, as the response's JSON says (a refusal raises ToolError)."""
        return "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "notices": [n.to_json() for n in self.notices],
            "engines": [e.to_json() for e in self.engines],
        }


@dataclass
class FetchResponse:
    url: str
    title: str
    content: str
    truncated: bool
    next_start_char: int | None
    notices: list[Notice] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        """Always ``ok``, as the response's JSON says (a refusal raises ToolError; a partial
        read is the ``extraction_partial`` notice)."""
        return "ok"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "outcome": self.outcome,
            "notices": [n.to_json() for n in self.notices],
            "url": self.url,
            "title": self.title,
            "content": self.content,
            "truncated": self.truncated,
        }
        if self.truncated and self.next_start_char is not None:
            out["next_start_char"] = self.next_start_char
        return out
