"""Secret detection for search queries and fetch URLs (pure: text in, spans out).

Every match names a ``kind`` from the ``detail.kind`` vocabulary of DECISIONS.md and the
extent of the secret's *value* as ``start``/``end`` indices (Unicode scalar values) in the
string exactly as the caller sent it. Percent-encoded text is decoded before detection and
the spans are mapped back, so ``text[start:end]`` is what the caller wrote (encoded or not).

The rules are hand-written, after the shapes of gitleaks' default rule set (MIT), because
rypsok needs what neither gitleaks nor detect-secrets gives: positions in the caller's string
through percent-decoding, the extents DECISIONS.md settles (the password of ``user:password@``,
the path after ``/services/``, the ``AccountKey`` value, the base64 of ``Basic``), tokens
bounded by URL punctuation rather than source-code quotes, and prose-safe generic rules. See
docs/secrets.md.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import string
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["SecretMatch", "find_secrets", "find_url_secrets", "has_username_only", "mask"]

MASK = "***"


@dataclass(frozen=True)
class SecretMatch:
    kind: str
    start: int
    end: int


# --------------------------------------------------------------------------- percent-decoding


_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_MAX_DECODE_PASSES = 3


def _utf8_length(lead: int) -> int:
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _decode_once(text: str) -> tuple[str, list[int]]:
    """Decode ``%XX`` runs (as UTF-8); ``starts[i]`` is where decoded char ``i`` began.

    A byte that is not part of a valid UTF-8 sequence stays as its three literal characters.
    ``starts`` has one extra entry, ``len(text)``, so decoded ``[s, e)`` is ``[starts[s],
    starts[e])`` in ``text``.
    """
    pieces: list[str] = []
    starts: list[int] = []
    position = 0
    for run in _PERCENT_RUN.finditer(text):
        pieces.append(text[position : run.start()])
        starts.extend(range(position, run.start()))
        data = bytes.fromhex(run.group().replace("%", ""))
        base = run.start()
        index = 0
        while index < len(data):
            length = _utf8_length(data[index])
            decoded = None
            if length and index + length <= len(data):
                try:
                    decoded = data[index : index + length].decode("utf-8")
                except UnicodeDecodeError:
                    decoded = None
            origin = base + 3 * index
            if decoded is not None:
                pieces.append(decoded)
                starts.append(origin)
                index += length
            else:
                pieces.append(text[origin : origin + 3])
                starts.extend(range(origin, origin + 3))
                index += 1
        position = run.end()
    pieces.append(text[position:])
    starts.extend(range(position, len(text) + 1))
    return "".join(pieces), starts


def _percent_decode(text: str) -> tuple[str, list[int] | None]:
    """Fully decode (double encoding included) with a map back to ``text``; None: identity."""
    if "%" not in text:
        return text, None
    decoded, starts = text, None
    for _ in range(_MAX_DECODE_PASSES):
        if "%" not in decoded or not _PERCENT_RUN.search(decoded):
            break
        again, pass_starts = _decode_once(decoded)
        if again == decoded:
            break
        starts = pass_starts if starts is None else [starts[i] for i in pass_starts]
        decoded = again
    return decoded, starts


# --------------------------------------------------------------------------- randomness


_HEX = frozenset("0123456789abcdefABCDEF-")
_VOWELS = frozenset("aeiouyAEIOUY")
_WORD = re.compile(r"[A-Z]?[a-z]{2,}|[A-Z]{3,}")
_CONSONANTS = re.compile(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]+")
_CASE_CHANGE = re.compile(r"[a-z][A-Z]")
_TEMPLATE = re.compile(
    r"<[^<>]*>|\{\{?[^{}]*\}?\}|\$\{[^{}]*\}|\$\(?[A-Za-z_][A-Za-z0-9_]*\)?"
    r"|%[A-Za-z_][A-Za-z0-9_]*%|\[[^\[\]]*\]|\(\s*[A-Za-z_ ]*\s*\)"
)
_NOT_A_VALUE = frozenset(
    {"true", "false", "null", "none", "nil", "undefined", "yes", "no", "on", "off", "0", "1"}
)
_FILLER_WORDS = (
    "example",
    "your",
    "placeholder",
    "redacted",
    "dummy",
    "changeme",
    "insert",
    "replace",
)
_FILLER_X_RUN = re.compile(r"x{6,}|X{6,}")

# Public values that have the shape of a secret but are published on purpose.
_PUBLIC_PLACEHOLDERS = frozenset(
    {
        "AKIAIOSFODNN7EXAMPLE",  # AWS documentation
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # AWS documentation
        "DEMO_KEY",  # api.nasa.gov and others
        # Azurite / Azure Storage Emulator account key (documented by Microsoft)
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",  # Stripe documentation's shared test key
        # jwt.io's example token
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9l"
        "IiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    }
)


def _entropy(value: str) -> float:
    length = len(value)
    return -sum(c / length * math.log2(c / length) for c in Counter(value).values())


def _word_likeness(value: str) -> float:
    """Share of the letters in pronounceable word-shaped runs: at least a quarter vowels and
    no more than four consonants in a row (random text scores low)."""
    letters = sum(c.isalpha() for c in value)
    if not letters:
        return 0.0
    covered = 0
    for word in _WORD.finditer(value):
        text = word.group()
        if 4 * sum(c in _VOWELS for c in text) < len(text):
            continue
        if max(map(len, _CONSONANTS.findall(text)), default=0) <= 4:
            covered += len(text)
    return covered / letters


def _is_sequence(value: str) -> bool:
    lowered = value.lower()
    steps = sum(1 for a, b in zip(lowered, lowered[1:], strict=False) if ord(b) - ord(a) == 1)
    return len(lowered) > 4 and steps >= 0.7 * (len(lowered) - 1)


def _is_filler(body: str) -> bool:
    """xxxx/0000 fillers, runs like abcdef123456, EXAMPLE keys, templates like <token>."""
    if body in _PUBLIC_PLACEHOLDERS or "EXAMPLE" in body:
        return True
    if _FILLER_X_RUN.search(body):
        return True
    lowered = body.lower()
    if any(word in lowered for word in _FILLER_WORDS) and _word_likeness(body) >= 0.85:
        return True
    core = lowered.strip("-_.:/+=*")
    if not core or (len(core) >= 3 and len(set(core)) == 1):
        return True
    if len(core) >= 12 and (len(set(core)) <= 3 or _is_sequence(core)):
        return True
    return _TEMPLATE.fullmatch(body) is not None


def _is_placeholder_value(value: str) -> bool:
    return value.lower() in _NOT_A_VALUE or _is_filler(value)


def looks_random(value: str) -> bool:
    """A value that reads as generated, not written: the test behind ``generic_secret``.

    At least 16 characters, no whitespace, with a letter and either a digit or a change from
    lower to upper case; not a filler or template; Shannon entropy per character above a
    floor that grows with length (hex: 2.5 to 3.0 bits, otherwise 3.0 to 4.0 bits, both well
    below what random strings of that length reach); and, unless it is hex, not reading as
    words (see ``_reads_as_words``).
    """
    length = len(value)
    if length < 16 or any(c.isspace() for c in value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_lower = any(c.islower() for c in value)
    has_upper = any(c.isupper() for c in value)
    if not (has_lower or has_upper):
        return False
    if not has_digit and _CASE_CHANGE.search(value) is None:
        return False
    if _is_placeholder_value(value):
        return False
    if set(value) <= _HEX:
        return _entropy(value) >= min(3.0, 2.5 + 0.03 * (length - 16))
    if _entropy(value) < min(4.0, 3.0 + 0.04 * (length - 16)):
        return False
    return not _reads_as_words(value, has_digit)


_DIGIT_RUN = re.compile(r"[0-9]+")


def _reads_as_words(value: str, has_digit: bool) -> bool:
    """Mostly pronounceable runs, or words with a number stuck on (``MyPassword2024``);
    never when digits are scattered in three or more groups."""
    digit_runs = len(_DIGIT_RUN.findall(value)) if has_digit else 0
    if digit_runs >= 3:
        return False
    likeness = _word_likeness(value)
    if likeness >= 0.85:
        return True
    return has_digit and likeness >= 0.7 and digit_runs <= 1


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class _Candidate:
    kind: str
    start: int
    end: int
    rank: int  # lower wins when candidates overlap


_SPECIFIC, _HEURISTIC, _PASSWORD_IN_URL, _GENERIC = 0, 1, 2, 3

_Finder = Callable[[str, str], Iterator[_Candidate]]


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

    def find(self, text: str, lowered: str) -> Iterator[_Candidate]:
        if not any(keyword in lowered for keyword in self.keywords):
            return
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
            if value in _PUBLIC_PLACEHOLDERS or _is_filler(body):
                continue
            if self.body_check is not None and not self.body_check(body):
                continue
            yield _Candidate(self.kind, start, end, _SPECIFIC)


_E = r"(?![A-Za-z0-9])"  # token end: not followed by more of a longer alphanumeric run
_EW = r"(?![A-Za-z0-9_-])"  # same, for tokens whose alphabet has _ and -
_GITLAB_PREFIXES = ("pat", "dt", "rt", "ptt", "cbt", "ft", "soat", "oas", "agent", "imt", "ffct")


def _mixed_case(body: str) -> bool:
    return not body.islower() and not body.isupper()


_TOKEN_RULES: tuple[_TokenRule, ...] = (
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
        re.compile(r"(?:xox[abposre]|xapp)-(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9-]{10,250}" + _E),
        ("xox", "xapp-"),
        body_from=5,
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


def _private_keys(text: str, lowered: str) -> Iterator[_Candidate]:
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
        yield _Candidate("private_key", begin.start(), end, _SPECIFIC)
        position = end


_BASIC = re.compile(
    r"(?<![A-Za-z0-9])(?i:basic)[ \t]+(?P<v>[A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])"
)


def _basic_credentials(text: str, lowered: str) -> Iterator[_Candidate]:
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
            yield _Candidate("basic_auth", *match.span("v"), _SPECIFIC)


_BEARER = re.compile(r"(?<![A-Za-z0-9])(?i:bearer)[ \t]+(?P<v>[A-Za-z0-9._~+/-]{16,}=*)")


def _bearer_tokens(text: str, lowered: str) -> Iterator[_Candidate]:
    if "bearer" not in lowered:
        return
    for match in _BEARER.finditer(text):
        if looks_random(match.group("v")):
            yield _Candidate("generic_secret", *match.span("v"), _GENERIC)


_AWS_SECRET = re.compile(
    r"(?<![A-Za-z0-9/+_.-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_-])(?!\.[A-Za-z0-9])"
)
_AWS_KEY_ID = _TOKEN_RULES[0].pattern
_AWS_CONTEXT_WINDOW = 60


def _aws_secret_keys(text: str, lowered: str) -> Iterator[_Candidate]:
    """40 base64 characters standing alone: with ``/`` or ``+``, or after "aws" (within 60
    characters), or in a text that also holds an AWS access key id."""
    key_id_present: bool | None = None
    for match in _AWS_SECRET.finditer(text):
        value = match.group()
        if value in _PUBLIC_PLACEHOLDERS or "EXAMPLE" in value:
            continue
        if value.startswith("/") or "//" in value:
            continue
        if not (any(c.isupper() for c in value) and any(c.islower() for c in value)):
            continue
        if not any(c.isdigit() for c in value) or _entropy(value) < 4.2:
            continue
        if _word_likeness(value) >= 0.85:
            continue
        if "/" not in value and "+" not in value:
            before = lowered[max(0, match.start() - _AWS_CONTEXT_WINDOW) : match.start()]
            if "aws" not in before:
                if key_id_present is None:
                    key_id_present = _AWS_KEY_ID.search(text) is not None
                if not key_id_present:
                    continue
        yield _Candidate("aws_secret_key", match.start(), match.end(), _HEURISTIC)


_USERINFO_IN_TEXT = re.compile(r"://[^\s/?#@:]*:(?P<v>[^\s/?#]*)@")


def _passwords_in_embedded_urls(text: str, lowered: str) -> Iterator[_Candidate]:
    """``scheme://user:password@`` written inside a query (placeholders such as
    ``user:password@`` in a how-to question are not secrets)."""
    if "://" not in text or "@" not in text:
        return
    for match in _USERINFO_IN_TEXT.finditer(text):
        password = match.group("v")
        if password and not _is_url_password_placeholder(password):
            yield _Candidate("password_in_url", *match.span("v"), _PASSWORD_IN_URL)


def _is_url_password_placeholder(password: str) -> bool:
    lowered = password.lower()
    return lowered in _PASSWORD_WORDS or _is_placeholder_value(password)


# --------------------------------------------------------------------------- named values


_PASSWORD_NAMES = ("password", "passwd", "pwd", "passphrase")
_PASSWORD_WORDS = frozenset({"password", "passwd", "pwd", "pass", "secret", "token", "pw"})
_SECRET_NAME_ENDINGS = (
    "token",
    "secret",
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "authkey",
    "sessionkey",
    "xamzsignature",
    "xgoogsignature",
)
_SECRET_NAMES_EXACT = frozenset({"auth", "authorization", "sig"})
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


def _name_class(name: str) -> str | None:
    """Whether a parameter or field name says password, secret, or neither (None)."""
    normalised = "".join(c for c in name.lower() if c not in "_-. ")
    if normalised.endswith(_PASSWORD_NAMES):
        return "password"
    if normalised.endswith(_NOT_SECRET_NAME_ENDINGS):
        return None
    if normalised.endswith(_SECRET_NAME_ENDINGS) or normalised in _SECRET_NAMES_EXACT:
        return "secret"
    return None


def _named_value_is_secret(name_class: str, value: str, *, strict_form: bool) -> bool:
    """``strict_form``: ``name=value`` with no gap, or a quoted value (not prose)."""
    if not value or value.startswith(_PUBLISHABLE_PREFIXES):
        return False
    if name_class == "password" and strict_form:
        if value.startswith(("/", "~")):  # PWD=/home/user is a directory
            return False
        return not _is_placeholder_value(value)
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


def _named_values(text: str, lowered: str) -> Iterator[_Candidate]:
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
        name_class = _name_class(text[name_start:name_end])
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
            written = _trim_trailing_punctuation(value.group("v"))
            span = (value.start("v"), value.start("v") + len(written))
            strict = separator.group() == "=" and not value.group("gap")
        if _named_value_is_secret(name_class, written, strict_form=strict):
            yield _Candidate("generic_secret", *span, _GENERIC)


_TEXT_FINDERS: tuple[_Finder, ...] = (
    *(rule.find for rule in _TOKEN_RULES),
    _private_keys,
    _basic_credentials,
    _aws_secret_keys,
    _passwords_in_embedded_urls,
    _bearer_tokens,
    _named_values,
)


# --------------------------------------------------------------------------- URLs


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})


def _authority_span(url: str) -> tuple[int, int] | None:
    """Where the authority is, read as WHATWG reads it (special schemes: any slashes)."""
    scheme = _SCHEME.match(url)
    if scheme is None:
        return None
    start = scheme.end()
    if scheme.group()[:-1].lower() in _SPECIAL_SCHEMES:
        while start < len(url) and url[start] in "/\\":
            start += 1
    elif url.startswith("//", start):
        start += 2
    else:
        return None
    end = start
    while end < len(url) and url[end] not in "/?#\\":
        end += 1
    return start, end


def _userinfo(url: str) -> tuple[int, int, int] | None:
    """(start, colon or end, end) of the userinfo, or None when the URL has none."""
    authority = _authority_span(url)
    if authority is None:
        return None
    start, end = authority
    at = url.rfind("@", start, end)
    if at < 0:
        return None
    colon = url.find(":", start, at)
    return start, (colon if colon >= 0 else at), at


def _url_password(url: str) -> Iterator[_Candidate]:
    info = _userinfo(url)
    if info is not None:
        _, colon, at = info
        if colon < at and at - colon > 1:
            yield _Candidate("password_in_url", colon + 1, at, _PASSWORD_IN_URL)


def _url_parameters(url: str) -> Iterator[_Candidate]:
    """Query and fragment parameters whose name says secret and whose value qualifies."""
    query_at = url.find("?")
    fragment_at = url.find("#")
    sections = []
    if query_at >= 0 and (fragment_at < 0 or query_at < fragment_at):
        sections.append((query_at + 1, fragment_at if fragment_at >= 0 else len(url)))
    if fragment_at >= 0:
        sections.append((fragment_at + 1, len(url)))
    for section_start, section_end in sections:
        position = section_start
        for piece in re.split(r"[&;]", url[section_start:section_end]):
            piece_start = position
            position += len(piece) + 1
            name, equals, _ = piece.partition("=")
            if not equals:
                continue
            name_class = _name_class(_percent_decode(name.replace("+", " "))[0])
            if name_class is None:
                continue
            value_start = piece_start + len(name) + 1
            value_end = piece_start + len(piece)
            value = _percent_decode(url[value_start:value_end])[0]
            if _named_value_is_secret(name_class, value, strict_form=True):
                yield _Candidate("generic_secret", value_start, value_end, _GENERIC)


# --------------------------------------------------------------------------- assembly


def _scan(text: str) -> list[_Candidate]:
    decoded, starts = _percent_decode(text)
    lowered = decoded.lower()
    found: list[_Candidate] = []
    for finder in _TEXT_FINDERS:
        for candidate in finder(decoded, lowered):
            if starts is not None:
                candidate = _Candidate(
                    candidate.kind, starts[candidate.start], starts[candidate.end], candidate.rank
                )
            if candidate.end > candidate.start:
                found.append(candidate)
    return found


def _preference(candidate: _Candidate) -> tuple[int, int, int]:
    return candidate.rank, candidate.start - candidate.end, candidate.start


def _resolve(candidates: list[_Candidate]) -> list[SecretMatch]:
    """Merge overlapping candidates; the merged span takes the kind of the preferred one: a
    token format, then aws_secret_key, password_in_url, generic_secret; then the longest."""
    merged: list[tuple[int, int, _Candidate]] = []
    for candidate in sorted(candidates, key=lambda c: (c.start, c.end)):
        if merged and candidate.start < merged[-1][1]:
            start, end, best = merged[-1]
            if _preference(candidate) < _preference(best):
                best = candidate
            merged[-1] = (start, max(end, candidate.end), best)
        else:
            merged.append((candidate.start, candidate.end, candidate))
    return [SecretMatch(best.kind, start, end) for start, end, best in merged]


def find_secrets(text: str) -> list[SecretMatch]:
    """Secrets in a search query, sorted by position (the first is the one to report)."""
    return _resolve(_scan(text))


def find_url_secrets(url: str) -> list[SecretMatch]:
    """Secrets in a URL: ``user:password@``, key-shaped text anywhere, secret parameters."""
    candidates = [*_scan(url), *_url_parameters(url)]
    info = _userinfo(url)
    if info is not None:
        start, _, at = info
        candidates = [
            c for c in candidates if c.rank < _PASSWORD_IN_URL or c.end <= start or c.start >= at
        ]
        candidates.extend(_url_password(url))
    return _resolve(candidates)


def has_username_only(url: str) -> bool:
    """``https://user@host/`` or ``https://user:@host/``: credentials without a password."""
    info = _userinfo(url)
    if info is None:
        return False
    start, colon, at = info
    return colon > start and at - colon <= 1


def mask(text: str, matches: Sequence[SecretMatch]) -> str:
    """Replace each matched span with ``***``; everything else is kept as it was."""
    pieces: list[str] = []
    position = 0
    for match in sorted(matches, key=lambda m: (m.start, m.end)):
        start, end = max(match.start, 0), min(match.end, len(text))
        if start < position:
            position = max(position, end)
            continue
        pieces.append(text[position:start])
        pieces.append(MASK)
        position = max(start, end)
    pieces.append(text[position:])
    return "".join(pieces)
