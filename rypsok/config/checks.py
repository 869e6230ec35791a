"""The configuration's value checks: each takes the key and the value read from the file and
returns the value (normalized where it says so) or raises :class:`ConfigError` naming the key
and what it allows. :func:`read_table` reads one table into its dataclass with them."""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import re
from collections.abc import Mapping
from typing import Any

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ConfigError(Exception):
    """A configuration key is unknown or has a bad value; the message names the key, and
    ``file``, when set, the file the key was read from (``--config``, ``$RYPSOK_CONFIG`` or
    the XDG file: an operator may not know which one was read)."""

    def __init__(self, key: str, problem: str, file: str | None = None):
        super().__init__(key, problem)
        self.key = key
        self.problem = problem
        self.file = file

    def __reduce__(self):
        return type(self), (self.key, self.problem, self.file)

    def read_from(self, file: str) -> ConfigError:
        """This error, naming ``file`` when its key is one of the file's (lower-case, as
        ``search.deadline_ms``; not ``--config`` nor an environment variable)."""
        if self.file is None and self.key[:1].islower():
            self.file = file
        return self

    def __str__(self) -> str:
        said = f"configuration key {self.key}: {self.problem}"
        return f"{said} (in {self.file})" if self.file else said


class ConfigFileError(ConfigError):
    """The configuration file cannot be read or is not TOML: ``file`` is its path, ``key``
    what named it (``--config`` or ``RYPSOK_CONFIG``; empty for the XDG file, found where
    it is looked for), ``problem`` what is wrong with it."""

    def __str__(self) -> str:
        named = f" (named by {self.key})" if self.key else ""
        return f"configuration file {self.file}{named} {self.problem}"


def _bounds(minimum: float | None, maximum: float | None) -> str:
    """What a number key allows, for a value of the wrong type: " from 1 to 100"."""
    if minimum is not None and maximum is not None:
        return f" from {minimum} to {maximum}"
    if minimum is not None:
        return f" of at least {minimum}"
    return f" of at most {maximum}" if maximum is not None else ""


def integer(minimum: int | None = None, maximum: int | None = None):
    def check(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            allowed = _bounds(minimum, maximum)
            raise ConfigError(key, f"must be an integer{allowed}, not {type(value).__name__}")
        if minimum is not None and value < minimum:
            raise ConfigError(key, f"must be at least {minimum}")
        if maximum is not None and value > maximum:
            raise ConfigError(key, f"must be at most {maximum}")
        return value

    return check


def number(minimum: float):
    def check(key: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            allowed = _bounds(minimum, None)
            raise ConfigError(key, f"must be a number{allowed}, not {type(value).__name__}")
        if not math.isfinite(value):
            # TOML spells nan and inf; a nan compares false with every bound and would pass.
            raise ConfigError(key, f"must be a finite number, not {value}")
        if value < minimum:
            raise ConfigError(key, f"must be at least {minimum}")
        return float(value)

    return check


def boolean(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(key, "must be true or false")
    return value


def choice(*allowed: str):
    def check(key: str, value: Any) -> str:
        if value not in allowed:
            raise ConfigError(key, "must be one of " + ", ".join(f'"{a}"' for a in allowed))
        return value

    return check


def string(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(key, "must be a string")
    return value


def list_of(item, *, non_empty: bool = False):
    def check(key: str, value: Any) -> tuple:
        if not isinstance(value, list):
            raise ConfigError(key, "must be a list")
        if non_empty and not value:
            raise ConfigError(key, "must not be empty")
        return tuple(item(f"{key}[{i}]", v) for i, v in enumerate(value))

    return check


def language(key: str, value: Any) -> str:
    if not isinstance(value, str) or not LANGUAGE_CODE.match(value):
        raise ConfigError(key, 'must be a lower-case language code such as "en" or "pt-br"')
    return value


def languages(key: str, value: Any) -> tuple[str, ...]:
    codes = list_of(language, non_empty=True)(key, value)
    if len(set(codes)) != len(codes):
        raise ConfigError(key, "must not repeat a language")
    return codes


def region(key: str, value: Any) -> str:
    """An ISO 3166-1 alpha-2 country code, returned in lower case."""
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z]{2}", value):
        raise ConfigError(key, 'must be a two-letter country code such as "us" or "de"')
    return value.lower()


def cidr(key: str, value: Any) -> str:
    try:
        return str(ipaddress.ip_network(string(key, value), strict=False))
    except ValueError:
        raise ConfigError(key, 'must be a CIDR such as "10.0.0.0/8" or "fd00::/8"') from None


def http_url(key: str, value: Any) -> str:
    text = string(key, value)
    if not re.match(r"^https?://[^\s/]+", text) or any(c.isspace() for c in text):
        raise ConfigError(key, 'must be an http or https URL such as "https://example.org"')
    return text


def endpoint(key: str, value: Any) -> str:
    return http_url(key, value).rstrip("/")


def env_name(key: str, value: Any) -> str:
    if not isinstance(value, str) or not ENV_NAME.match(value):
        raise ConfigError(key, "must be the name of an environment variable, such as GITHUB_TOKEN")
    return value


def port(key: str, value: Any) -> int:
    return integer(1, 65535)(key, value)


def file_path(key: str, value: Any) -> str:
    text = string(key, value)
    if not text.strip():
        raise ConfigError(key, "must be a file path")
    return text


def read_table(cls, name: str, table: Any, defaults: Mapping[str, Any] | None = None):
    """The table ``name`` as a ``cls``: each key read by its field's ``check``, an unknown key
    refused, and ``defaults`` (else the dataclass's) for the keys left out."""
    if not isinstance(table, dict):
        raise ConfigError(name, "must be a table")
    known = {f.name: f for f in dataclasses.fields(cls) if "check" in f.metadata}
    values = dict(defaults or {})
    for key, value in table.items():
        if key not in known:
            raise ConfigError(f"{name}.{key}", "unknown key; allowed keys: " + ", ".join(known))
        values[key] = known[key].metadata["check"](f"{name}.{key}", value)
    return cls(**values)
