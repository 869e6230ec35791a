"""Values given a secret's name: ``password=...``, ``api_key: ...``, ``sig=...``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rypsok.hygiene.secrets.candidate import GENERIC, Candidate
from rypsok.hygiene.secrets.randomness import is_placeholder_value, looks_random

_PASSWORD_NAMES = ("password", "passwd", "pwd", "passphrase")
PASSWORD_WORDS = frozenset({"password", "passwd", "pwd", "pass", "secret", "token", "pw"})
_SECRET_NAME_ENDINGS = (
    "token",
    "secret",
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "authkey",
    "sessionkey",
    "signature",  # X-Amz-Signature, X-Goog-Signature, CloudFront's and SigV2's Signature
)
_SECRET_NAMES_EXACT = frozenset({"auth", "authorization", "sig"})
# A bare "key" is how many APIs take their key in a URL (?key=…); in prose it names
# anything (a primary key, a host key), so it counts only as a URL parameter.
_URL_PARAMETER_SECRET_NAMES = frozenset({"key"})
_NOT_SECRET_NAME_ENDINGS = (
    "pagetoken",
    "nexttoken",
    "continuationtoken",
    "resumptiontoken",
    "synctoken",
    "csrftoken",
    "publictoken",
)
_PUBLISHABLE_PREFIXES = ("pk_live_", "pk_test_")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")

_SEPARATOR = re.compile(r"[:=]")
_VALUE_AFTER_SEPARATOR = re.compile(
    r"(?P<gap>[ \t]*)(?:(?P<q>[\"'])(?P<quoted>[^\"'\r\n]*)(?P=q)|(?P<v>[^\s\"'&,;]+))"
)
_NAME_KEYWORDS = ("pass", "pwd", "token", "secret", "key", "auth", "sig")
_SPACED_TEMPLATE = re.compile(r"(?:\{\{[^{}\r\n]*\}\}|\$\{[^{}\r\n]*\}|<[^<>\r\n]*>)(?=[\s&,;]|$)")


def classify_name(name: str, *, url_parameter: bool = False) -> str | None:
    """Whether a parameter or field name says password, secret, or neither (None).
    ``url_parameter``: the name is a URL's query or fragment parameter (``?key=``)."""
    normalised = "".join(c for c in name.lower() if c not in "_-. ")
    if normalised.endswith(_PASSWORD_NAMES):
        return "password"
    if normalised.endswith(_NOT_SECRET_NAME_ENDINGS):
        return None
    if normalised.endswith(_SECRET_NAME_ENDINGS) or normalised in _SECRET_NAMES_EXACT:
        return "secret"
    if url_parameter and normalised in _URL_PARAMETER_SECRET_NAMES:
        return "secret"
    return None


def named_value_is_secret(name_class: str, value: str, *, strict_form: bool) -> bool:
    """``strict_form``: ``name=value`` with no gap, or a quoted value (not prose)."""
    if not value or value.startswith(_PUBLISHABLE_PREFIXES):
        return False
    if name_class == "password" and strict_form:
        if value.startswith(("/", "~")):  # PWD=/home/user is a directory
            return False
        return not is_placeholder_value(value)
    return looks_random(value)


_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _trim_trailing_punctuation(value: str) -> str:
    """Drop a sentence's full stop or an unbalanced closing bracket after an unquoted value."""
    while value:
        last = value[-1]
        if last == "." or (last in _CLOSERS and value.count(_CLOSERS[last]) < value.count(last)):
            value = value[:-1]
        else:
            break
    return value


def named_values(text: str, lowered: str) -> Iterator[Candidate]:
    """``password=…``, ``api_key: "…"``, ``"client_secret": "…"`` written in a query."""
    if not any(keyword in lowered for keyword in _NAME_KEYWORDS):
        return
    for separator in _SEPARATOR.finditer(text):
        name_end = separator.start()
        while name_end > 0 and text[name_end - 1] in " \t":
            name_end -= 1
        if name_end > 0 and text[name_end - 1] in "\"'":
            name_end -= 1
        name_start = name_end
        while name_start > 0 and text[name_start - 1] in _NAME_CHARS:
            name_start -= 1
        if name_start == name_end:
            continue
        in_url = separator.group() == "=" and name_start > 0 and text[name_start - 1] in "?&;"
        name_class = classify_name(text[name_start:name_end], url_parameter=in_url)
        if name_class is None:
            continue
        value = _VALUE_AFTER_SEPARATOR.match(text, separator.end())
        if value is None:
            continue
        if value.group("q") is not None:
            span, written, strict = value.span("quoted"), value.group("quoted"), True
        elif _SPACED_TEMPLATE.match(text, value.start("v")) is not None:
            continue
        else:
            written = value.group("v")
            if in_url:  # a URL parameter's value ends where the fragment starts
                written = written.partition("#")[0]
            written = _trim_trailing_punctuation(written)
            span = (value.start("v"), value.start("v") + len(written))
            strict = separator.group() == "=" and not value.group("gap")
        if named_value_is_secret(name_class, written, strict_form=strict):
            yield Candidate("generic_secret", *span, GENERIC)
