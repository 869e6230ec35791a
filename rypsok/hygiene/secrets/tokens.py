"""Token formats (after gitleaks' shapes) and the structured finders: private keys, Basic
and Bearer credentials, AWS secret keys, passwords in URLs written inside text."""

from __future__ import annotations

import base64
import binascii
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import ahocorasick_rs

from rypsok.hygiene.secrets.candidate import (
    GENERIC,
    HEURISTIC,
    PASSWORD_IN_URL,
    SPECIFIC,
    Candidate,
)
from rypsok.hygiene.secrets.named import PASSWORD_WORDS
from rypsok.hygiene.secrets.randomness import (
    PUBLIC_PLACEHOLDERS,
    entropy,
    is_filler,
    is_placeholder_value,
    looks_random,
    word_likeness,
)

_ALNUM = frozenset(string.ascii_letters + string.digits)
_ALNUM_UNDERSCORE = _ALNUM | {"_"}
_ALNUM_DASH = _ALNUM | {"_", "-"}


@dataclass(frozen=True)
class _TokenRule:
    """A token format: a pattern that starts with its literal prefix (so ``re`` can search
    for it fast), the characters that must not come right before it, and its keywords."""

    kind: str
    pattern: re.Pattern[str]
    keywords: tuple[str, ...]  # lowercase; the rule runs only if one occurs in the text
    not_after: frozenset[str] = _ALNUM
    body_from: int = 0  # characters of fixed prefix to skip before the filler test
    body_check: Callable[[str], bool] | None = None  # for prefixes that prose can share

    def find(self, text: str, lowered: str) -> Iterator[Candidate]:
        if not any(keyword in lowered for keyword in self.keywords):
            return
        yield from self.scan(text, lowered)

    def scan(self, text: str, lowered: str) -> Iterator[Candidate]:
        """``find`` once a keyword is known to be in ``lowered`` (:func:`token_rules_for`)."""
        has_value_group = "v" in self.pattern.groupindex
        has_body_group = "v_body" in self.pattern.groupindex
        position = 0
        while (match := self.pattern.search(text, position)) is not None:
            if match.start() > 0 and text[match.start() - 1] in self.not_after:
                position = match.start() + 1
                continue
            position = match.end()
            start, end = match.span("v") if has_value_group else match.span()
            value = text[start:end]
            body = match.group("v_body") if has_body_group else value[self.body_from :]
            if value in PUBLIC_PLACEHOLDERS or is_filler(body):
                continue
            if self.body_check is not None and not self.body_check(body):
                continue
            yield Candidate(self.kind, start, end, SPECIFIC)


_E = r"(?![A-Za-z0-9])"  # token end: not followed by more of a longer alphanumeric run
_EW = r"(?![A-Za-z0-9_-])"  # same, for tokens whose alphabet has _ and -
_GITLAB_PREFIXES = ("pat", "dt", "rt", "ptt", "cbt", "ft", "soat", "oas", "agent", "imt", "ffct")


def _mixed_case(body: str) -> bool:
    return not body.islower() and not body.isupper()


TOKEN_RULES: tuple[_TokenRule, ...] = (
    _TokenRule(
        "aws_access_key_id",
        re.compile(r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}" + _E),
        ("akia", "asia", "abia", "acca", "a3t"),
        body_from=4,
    ),
    _TokenRule(
        "github_token",
        re.compile(r"gh[pousr]_[A-Za-z0-9]{36,251}" + _EW),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        not_after=_ALNUM_UNDERSCORE,
        body_from=4,
    ),
    _TokenRule(
        "github_token",
        re.compile(r"github_pat_[A-Za-z0-9_]{50,244}" + _EW),
        ("github_pat_",),
        not_after=_ALNUM_UNDERSCORE,
        body_from=11,
    ),
    _TokenRule(
        "slack_token",
        re.compile(
            r"(?:xoxe\.xox[abposrec]|xox[abposrec]|xapp)-(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9-]{10,250}"
            + _E
        ),
        ("xox", "xapp-"),
        body_from=5,
    ),
    _TokenRule(
        # The browser session cookie ``d``: base64 with / + = (percent-decoded before this).
        "slack_token",
        re.compile(r"xoxd-[A-Za-z0-9/+=-]{20,400}(?![A-Za-z0-9/+=-])"),
        ("xoxd-",),
        body_from=5,
        body_check=looks_random,
    ),
    _TokenRule(
        "stripe_secret_key",
        re.compile(r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}" + _E),
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
        body_from=8,
    ),
    _TokenRule(
        "google_api_key",
        re.compile(r"AIza[0-9A-Za-z_-]{35}" + _EW),
        ("aiza",),
        not_after=_ALNUM_DASH,
        body_from=4,
    ),
    _TokenRule(
        "google_oauth_token",
        re.compile(r"ya29\.[0-9A-Za-z_.-]{20,2048}" + _EW),
        ("ya29.",),
        not_after=_ALNUM_DASH,
        body_from=5,
    ),
    _TokenRule(
        "anthropic_api_key",
        re.compile(r"sk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_-]{20,250}" + _EW),
        ("sk-ant-",),
        not_after=_ALNUM_DASH,
        body_from=14,
    ),
    _TokenRule(
        "openai_api_key",
        re.compile(
            r"sk-(?!ant-)(?:(?:proj|svcacct|admin)-)?(?P<v_body>[A-Za-z0-9_-]{20,250})" + _EW
        ),
        ("sk-",),
        not_after=_ALNUM_DASH,
        body_check=looks_random,
    ),
    _TokenRule(
        "google_oauth_client_secret",
        re.compile(r"GOCSPX-[A-Za-z0-9_-]{28}" + _EW),
        ("gocspx-",),
        not_after=_ALNUM_DASH,
        body_from=7,
    ),
    _TokenRule(
        # Entra ID (Azure AD) client secrets since 2021: three characters, a digit, "Q~".
        "azure_ad_client_secret",
        re.compile(
            r"[A-Za-z0-9_~.]{3}[0-9]Q~(?P<v_body>[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])"
        ),
        ("q~",),
        not_after=_ALNUM_DASH | {"~", "."},
        body_check=looks_random,
    ),
    _TokenRule(
        "mailgun_api_key",
        re.compile(r"key-(?P<v_body>[a-z0-9]{32})" + _EW),
        ("key-",),
        not_after=_ALNUM_DASH,
        body_check=looks_random,
    ),
    _TokenRule(
        "jwt",
        re.compile(r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*" + _EW),
        ("eyj",),
        not_after=_ALNUM_DASH,
    ),
    _TokenRule(
        "npm_token",
        re.compile(r"npm_[A-Za-z0-9]{36}" + _E),
        ("npm_",),
        not_after=_ALNUM_UNDERSCORE,
        body_from=4,
    ),
    _TokenRule(
        "sendgrid_api_key",
        re.compile(r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}" + _EW),
        ("sg.",),
        body_from=3,
    ),
    _TokenRule(
        "twilio_api_key",
        re.compile(r"SK[0-9a-fA-F]{32}" + _E),
        ("sk",),
        body_from=2,
    ),
    _TokenRule(
        "gitlab_token",
        re.compile(
            r"(?:gl(?:" + "|".join(_GITLAB_PREFIXES) + r")-[A-Za-z0-9_.-]{20,300}"
            r"|GR1348941[A-Za-z0-9_-]{20,60})" + _EW
        ),
        (*(f"gl{prefix}-" for prefix in _GITLAB_PREFIXES), "gr1348941"),
        not_after=_ALNUM_DASH,
        body_from=6,
    ),
    _TokenRule(
        "huggingface_token",
        re.compile(r"(?:hf_|api_org_)(?P<v_body>[A-Za-z0-9]{34})" + _E),
        ("hf_", "api_org_"),
        not_after=_ALNUM_UNDERSCORE,
        body_check=_mixed_case,
    ),
    _TokenRule(
        "pypi_token",
        re.compile(r"pypi-AgE[A-Za-z0-9_-]{50,1000}" + _EW),
        ("pypi-age",),
        not_after=_ALNUM_DASH,
        body_from=8,
    ),
    _TokenRule(
        "digitalocean_token",
        re.compile(r"do[por]_v1_[a-f0-9]{64}" + _E),
        ("_v1_",),
        not_after=_ALNUM_UNDERSCORE,
        body_from=7,
    ),
    _TokenRule(
        "shopify_token",
        re.compile(r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _E),
        ("shp",),
        not_after=_ALNUM_UNDERSCORE,
        body_from=6,
    ),
    _TokenRule(
        "databricks_token",
        re.compile(r"dapi[a-f0-9]{32}(?:-[0-9])?" + _E),
        ("dapi",),
        body_from=4,
    ),
    _TokenRule(
        "telegram_bot_token",
        re.compile(r"[0-9]{5,16}:A[A-Za-z0-9_-]{34}" + _EW),
        (":a",),
        not_after=frozenset(string.digits),
    ),
    _TokenRule(
        "slack_webhook_url",
        re.compile(
            r"(?i:hooks\.slack\.com)/(?:services|workflows|triggers)/(?P<v>[A-Za-z0-9_+/-]{20,200})"
        ),
        ("hooks.slack.com/",),
        not_after=frozenset(),
    ),
    _TokenRule(
        "azure_storage_key",
        re.compile(
            r"(?i:AccountKey)[ \t]*=[ \t]*(?P<v>[A-Za-z0-9+/]{40,}={0,2})(?![A-Za-z0-9+/=])"
        ),
        ("accountkey",),
        not_after=frozenset(),
    ),
)

_PEM_BEGIN = re.compile(r"-----BEGIN[ +A-Z0-9_-]{0,40}PRIVATE[ +]KEY(?:[ +]BLOCK)?-----")
_PEM_END = re.compile(r"-----END[ +A-Z0-9_-]{0,40}PRIVATE[ +]KEY(?:[ +]BLOCK)?-----")
_PEM_HEADER_FIELD = re.compile(r"[ \t\r\n+]*[A-Za-z-]+:[^\r\n]*")
_PEM_BODY_PIECE = re.compile(r"[ \t\r\n+]*(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2})")


def private_keys(text: str, lowered: str) -> Iterator[Candidate]:
    """The BEGIN…END block; without END, the header and the base64 that follows it."""
    if "-----begin" not in lowered:
        return
    position = 0
    while (begin := _PEM_BEGIN.search(text, position)) is not None:
        end_marker = _PEM_END.search(text, begin.end())
        if end_marker is not None and end_marker.start() - begin.end() <= 16384:
            end = end_marker.end()
        else:
            end = begin.end()
            while (field := _PEM_HEADER_FIELD.match(text, end)) is not None and (
                "Proc-Type" in field.group() or "DEK-Info" in field.group()
            ):
                end = field.end()
            while (piece := _PEM_BODY_PIECE.match(text, end)) is not None:
                end = piece.end()
        yield Candidate("private_key", begin.start(), end, SPECIFIC)
        position = end


_BASIC = re.compile(
    r"(?<![A-Za-z0-9])(?i:basic)[ \t]+(?P<v>[A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])"
)


def basic_credentials(text: str, lowered: str) -> Iterator[Candidate]:
    """``Basic <base64>`` whose base64 decodes to printable ``user:password``."""
    if "basic" not in lowered:
        return
    for match in _BASIC.finditer(text):
        value = match.group("v")
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
            credentials = decoded.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if ":" in credentials and credentials.isprintable() and len(credentials) >= 2:
            yield Candidate("basic_auth", *match.span("v"), SPECIFIC)


_BEARER = re.compile(r"(?<![A-Za-z0-9])(?i:bearer)[ \t]+(?P<v>[A-Za-z0-9._~+/-]{16,}=*)")


def bearer_tokens(text: str, lowered: str) -> Iterator[Candidate]:
    if "bearer" not in lowered:
        return
    for match in _BEARER.finditer(text):
        if looks_random(match.group("v")):
            yield Candidate("generic_secret", *match.span("v"), GENERIC)


# Searched from the literal "." that ends the id part (fast in ``re``); the id is read back.
_DISCORD_TAIL = re.compile(r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}" + _EW)
_B64URL = _ALNUM_DASH


def discord_bot_tokens(text: str, lowered: str) -> Iterator[Candidate]:
    """``<base64 of the bot's numeric id>.<timestamp>.<hmac>``: the first part must decode
    to the digits of a Discord id (17 to 20), which no ordinary dotted name does."""
    for match in _DISCORD_TAIL.finditer(text):
        start = match.start()
        while start > 0 and text[start - 1] in _B64URL:
            start -= 1
        encoded = text[start : match.start()]
        if not 24 <= len(encoded) <= 28 or encoded[0] not in "MNO":
            continue
        try:
            decoded = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
        except (binascii.Error, ValueError):
            continue
        if 17 <= len(decoded) <= 20 and decoded.isdigit():
            yield Candidate("discord_bot_token", start, match.end(), SPECIFIC)


_AWS_SECRET = re.compile(
    r"(?<![A-Za-z0-9/+_.-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_-])(?!\.[A-Za-z0-9])"
)
_KEYWORDS = tuple(sorted({keyword for rule in TOKEN_RULES for keyword in rule.keywords}))
_RULES_OF_KEYWORD = tuple(
    tuple(index for index, rule in enumerate(TOKEN_RULES) if keyword in rule.keywords)
    for keyword in _KEYWORDS
)
_KEYWORD_SCAN = ahocorasick_rs.AhoCorasick(list(_KEYWORDS))


def token_rules_for(lowered: str) -> list[_TokenRule]:
    """The token rules, in order, one of whose keywords ``lowered`` holds: the only ones whose
    ``find`` can yield anything. One scan for every keyword (all occurrences, overlapping)
    instead of each rule's own check, which was most of a query's secrets check."""
    try:
        hits = _KEYWORD_SCAN.find_matches_as_indexes(lowered, overlapping=True)
        keywords = {keyword for keyword, _, _ in hits}
    except UnicodeEncodeError:
        # The automaton reads UTF-8, which a lone surrogate ("\ud800", valid JSON) is not.
        keywords = {k for k, keyword in enumerate(_KEYWORDS) if keyword in lowered}
    if not keywords:
        return []
    indexes = {index for keyword in keywords for index in _RULES_OF_KEYWORD[keyword]}
    return [TOKEN_RULES[index] for index in sorted(indexes)]


_AWS_KEY_ID = TOKEN_RULES[0].pattern
_AWS_CONTEXT_WINDOW = 60


def aws_secret_keys(text: str, lowered: str) -> Iterator[Candidate]:
    """40 base64 characters standing alone: with ``/`` or ``+``, or after "aws" (within 60
    characters), or in a text that also holds an AWS access key id."""
    key_id_present: bool | None = None
    for match in _AWS_SECRET.finditer(text):
        value = match.group()
        if value in PUBLIC_PLACEHOLDERS or "EXAMPLE" in value:
            continue
        if value.startswith("/") or "//" in value:
            continue
        if not (any(c.isupper() for c in value) and any(c.islower() for c in value)):
            continue
        if not any(c.isdigit() for c in value) or entropy(value) < 4.2:
            continue
        if word_likeness(value) >= 0.85:
            continue
        if "/" not in value and "+" not in value:
            before = lowered[max(0, match.start() - _AWS_CONTEXT_WINDOW) : match.start()]
            if "aws" not in before:
                if key_id_present is None:
                    key_id_present = _AWS_KEY_ID.search(text) is not None
                if not key_id_present:
                    continue
        yield Candidate("aws_secret_key", match.start(), match.end(), HEURISTIC)


_USERINFO_IN_TEXT = re.compile(r"://[^\s/?#@:]*:(?P<v>[^\s/?#]*)@")


def passwords_in_embedded_urls(text: str, lowered: str) -> Iterator[Candidate]:
    """``scheme://user:password@`` written inside a query (placeholders such as
    ``user:password@`` in a how-to question are not secrets)."""
    if "://" not in text or "@" not in text:
        return
    for match in _USERINFO_IN_TEXT.finditer(text):
        password = match.group("v")
        if password and not _is_url_password_placeholder(password):
            yield Candidate("password_in_url", *match.span("v"), PASSWORD_IN_URL)


def _is_url_password_placeholder(password: str) -> bool:
    lowered = password.lower()
    return lowered in PASSWORD_WORDS or is_placeholder_value(password)
