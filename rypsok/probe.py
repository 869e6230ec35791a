"""The probe: one search, then a per-engine timeline against the deadline, then the response."""

from __future__ import annotations

import json
from typing import Any

import anyio

from rypsok.client import Client
from rypsok.errors import ToolError


async def probe(client: Client, arguments: dict[str, Any]) -> dict[str, Any]:
    started = anyio.current_time()
    response, timeline = await client.search_with_timeline(arguments)
    elapsed_ms = (anyio.current_time() - started) * 1000
    return {
        "deadline_ms": client.config.search.deadline_ms,
        "elapsed_ms": round(elapsed_ms, 1),
        "timeline": [run.to_json() for run in timeline],
        "response": response.to_json(),
        "is_error": isinstance(response, ToolError),
    }


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _what(run: dict[str, Any]) -> str:
    if run["outcome"] in ("answered", "cached"):
        return f"{run['results']} results" + (" (from cache)" if run["outcome"] == "cached" else "")
    return run["reason"] or ""


def render_text(report: dict[str, Any]) -> str:
    deadline = report["deadline_ms"]
    lines = [f"{'engine':<14} {'outcome':<9} {'start ms':>9} {'end ms':>9}  results or reason"]
    for run in report["timeline"]:
        lines.append(
            f"{run['engine']:<14} {run['outcome']:<9} {_cell(run['start_ms']):>9} "
            f"{_cell(run['end_ms']):>9}  {_what(run)}"
        )
    elapsed = report["elapsed_ms"]
    lines.append(
        f"deadline {deadline} ms; the call took {elapsed:.1f} ms "
        f"({elapsed - deadline:+.1f} ms against the deadline)"
    )
    lines.append(json.dumps(report["response"], ensure_ascii=False, indent=2))
    return "\n".join(lines)
