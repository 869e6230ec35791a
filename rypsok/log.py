"""Operator log: JSON lines to stderr or a file, never stdout (stdout carries MCP)."""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from typing import Any

from rypsok.config import LOG_LEVELS, ConfigError, LogConfig


class JsonLines(logging.Formatter):
    """One JSON object per record; ``extra={"fields": {...}}`` adds structured fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["trace"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


LEVELS = LOG_LEVELS
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
    root = logging.getLogger("rypsok")
    root.handlers[:] = [handler]
    root.setLevel((level or config.level).upper())
    root.propagate = False
