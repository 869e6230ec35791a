"""Operator log: JSON lines to stderr or a file, never stdout (stdout carries MCP).

Every logger of the process writes there, not only rypsok's: the SDK's (a refused Host or
Origin), Hypercorn's, httpx's and Python's warnings go through the same handler, so the
log stays one JSON object per line. Their records below ``FOREIGN_LEVEL`` are dropped
(httpx logs each request's URL at info). A record made while an HTTP request is handled
carries that request's fields (:func:`request_fields`).
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import json
import logging
import sys
from collections.abc import Iterator
from typing import Any

from rypsok.config import LOG_LEVELS, ConfigError, LogConfig

_REQUEST_FIELDS: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "rypsok_request_fields", default=None
)


@contextlib.contextmanager
def request_fields(fields: dict[str, Any]) -> Iterator[None]:
    """Within the block, every log record (of any logger) carries ``fields``."""
    reset = _REQUEST_FIELDS.set(fields)
    try:
        yield
    finally:
        _REQUEST_FIELDS.reset(reset)


class JsonLines(logging.Formatter):
    """One JSON object per record; ``extra={"fields": {...}}`` adds structured fields, over
    those of the request being handled."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        context = _REQUEST_FIELDS.get()
        if context:
            line.update(context)
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["trace"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


LEVELS = LOG_LEVELS
FOREIGN_LEVEL = "warning"
"""The least a logger that is not rypsok's (the SDK, Hypercorn, httpx) writes to the log."""
TERMINAL_LEVEL = "warning"
"""The least a command for a person at the keyboard (probe, fetch, status) logs by default."""


def terminal_level(configured: str) -> str:
    """The configured level, but at least TERMINAL_LEVEL: log lines would interleave with the output."""
    return max(configured, TERMINAL_LEVEL, key=LEVELS.index)


def setup_logging(config: LogConfig, level: str | None = None) -> None:
    """JSON lines at ``level`` (default: the configured one) to the configured file or stderr."""
    handler: logging.Handler
    if config.path:
        try:
            handler = logging.FileHandler(config.path, encoding="utf-8")
        except OSError as exc:
            raise ConfigError("log.path", f"cannot open the log file: {exc.strerror}") from None
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    chosen = level or config.level
    own = logging.getLogger("rypsok")
    own.handlers[:] = [handler]
    own.setLevel(chosen.upper())
    own.propagate = False
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(max(chosen, FOREIGN_LEVEL, key=LEVELS.index).upper())
    logging.captureWarnings(True)
