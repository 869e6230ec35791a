"""The probe: one search, then a per-engine timeline against the deadline, then the response."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import anyio

from rypsok.client import Client
from rypsok.engines.registry import engine_module
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


BAR_COLUMNS = 48
"""The width of the time axis, in characters, from 0 ms."""

HEADROOM = 1.15
"""The axis runs to this factor of the deadline (or to the last end, if later): a bar that
ends at the deadline stays clear of the right edge, and the scale stays put as long as no
engine ends more than 15 % past the deadline."""

MARKERS = {"answered": ">", "cached": ">", "failed": "X"}
"""The last character of a bar: how the engine ended."""

COLOURS = {"answered": "32", "cached": "36", "failed": "31", "skipped": "2", "deadline": "33"}
"""ANSI SGR codes: green, cyan, red, dim, yellow."""


def use_colour(isatty: bool, env: Mapping[str, str]) -> bool:
    """Colour on a terminal other than ``TERM=dumb``; ``NO_COLOR`` (https://no-color.org)
    turns it off and ``FORCE_COLOR`` (not ``0``) on, wherever the output goes."""
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    return isatty and env.get("TERM") != "dumb"


def _paint(cells: list[tuple[str, str | None]], colour: bool) -> str:
    """Characters with their style (a COLOURS key or None); SGR codes only when ``colour``."""
    if not colour:
        return "".join(char for char, _ in cells)
    out: list[str] = []
    current: str | None = None
    for char, style in cells:
        if style != current:
            out.append("\x1b[0m" if style is None else f"\x1b[0;{COLOURS[style]}m")
            current = style
        out.append(char)
    if current is not None:
        out.append("\x1b[0m")
    return "".join(out)


def _column(ms: float, span_ms: float) -> int:
    return min(BAR_COLUMNS - 1, round(ms / span_ms * (BAR_COLUMNS - 1)))


def _what(run: dict[str, Any]) -> str:
    if run["outcome"] in ("answered", "cached"):
        what = f"{run['results']} results" + (" from cache" if run["outcome"] == "cached" else "")
    else:
        what = run["reason"] or ""
    if run["start_ms"] is not None and run["end_ms"] is not None:
        what += f" ({run['start_ms']:.1f}-{run['end_ms']:.1f} ms)"
    return what


def _bar(run: dict[str, Any], deadline_column: int, span_ms: float) -> list:
    cells: list[tuple[str, str | None]] = [(" ", None)] * BAR_COLUMNS
    style = run["outcome"]
    if run["start_ms"] is not None and run["end_ms"] is not None:
        first, last = _column(run["start_ms"], span_ms), _column(run["end_ms"], span_ms)
        cells[first : last + 1] = [("=", style)] * (last + 1 - first)
        cells[last] = (MARKERS.get(style, "="), style)
    if cells[deadline_column][0] in " =":
        cells[deadline_column] = ("|", "deadline")
    return cells


def _axis(deadline: int, deadline_column: int) -> list[tuple[str, str | None]]:
    """``0 ms`` at the first column and the deadline's label ending in ``|`` at its column."""
    cells: list[tuple[str, str | None]] = [(char, None) for char in "0 ms"]
    label = f"deadline {deadline} ms "
    gap = deadline_column - len(label) - len(cells)
    if gap >= 1:
        cells += [(" ", None)] * gap + [(char, "deadline") for char in label]
        return cells + [("|", "deadline")]
    cells += [(" ", None)] * max(1, deadline_column - len(cells))
    after = [(char, "deadline") for char in " " + label.rstrip()]
    return cells[:deadline_column] + [("|", "deadline"), *after]


def _amount(value: float, unit: str) -> str:
    if unit == "usd":
        return f"{value:g} USD"
    return f"{value:g} {'credit' if value == 1 else 'credits'}"


def usage_line(run: dict[str, Any]) -> str | None:
    """What a paid engine's answer said it cost and what is left, for the timeline; None for
    an engine that is not a bring-your-own-key one."""
    if engine_module(run["engine"]).INFO.listed_without_credential:
        return None
    usage = run.get("usage")
    parts = []
    if usage and usage["cost"] is not None:
        parts.append("cost " + _amount(usage["cost"], usage["unit"]))
    if usage and usage["balance"] is not None:
        parts.append("balance " + _amount(usage["balance"], usage["unit"]))
    said = ", ".join(parts) if parts else "no cost reported"
    return f"{run['engine']:<14} {'':<9} {said}"


def render_text(report: dict[str, Any], colour: bool = False) -> str:
    """One bar per engine from its start to its answer (``>``) or failure (``X``) on a time
    axis with the deadline drawn as a ``|`` line, what came of it beside the bar, and under
    each paid engine what its answer said the call cost; then the call's duration against
    the deadline and the response."""
    deadline = report["deadline_ms"]
    ends = [run["end_ms"] for run in report["timeline"] if run["end_ms"] is not None]
    span_ms = max([deadline * HEADROOM, *ends])
    deadline_column = _column(deadline, span_ms)
    lead = f"{'engine':<14} {'outcome':<9} "
    lines = [lead + _paint(_axis(deadline, deadline_column), colour)]
    for run in report["timeline"]:
        style = run["outcome"]
        row = _bar(run, deadline_column, span_ms)
        row += [(char, style) for char in "  " + _what(run)]
        outcome = [(char, style) for char in f"{run['outcome']:<9} "]
        lines.append(f"{run['engine']:<14} " + _paint(outcome + row, colour))
        said = usage_line(run)
        if said is not None:
            lines.append(said)
    elapsed = report["elapsed_ms"]
    margin = elapsed - deadline
    against = f"{-margin:.1f} ms before it" if margin <= 0 else f"{margin:.1f} ms past it"
    lines.append(f"deadline {deadline} ms; the call took {elapsed:.1f} ms ({against})")
    lines.append(json.dumps(report["response"], ensure_ascii=False, indent=2))
    return "\n".join(lines)
