"""Properties of rypsok.hygiene.secrets: total, bounded, exact extents, mask, percent-encoding.

Planted secrets come from a seeded generator (Hypothesis picks the kind and the seed): text
that Hypothesis builds itself shrinks towards fillers such as ``0000``, which are not secrets
on purpose.
"""

from __future__ import annotations

import base64
import json
import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.hygiene.secrets import (
    SecretMatch,
    find_secrets,
    find_url_secrets,
    has_username_only,
    mask,
)
from tests.secret_kinds import ALNUM, B64URL, BASE32, HEX, VOCABULARY


def _rand(rng: random.Random, alphabet: str, n: int) -> str:
    groups = [
        g
        for g in (string.ascii_lowercase, string.ascii_uppercase, string.digits)
        if set(g) & set(alphabet)
    ]
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if all(set(g) & set(value) for g in groups):
            return value


def _jwt(rng: random.Random) -> str:
    def part(obj: str) -> str:
        return base64.urlsafe_b64encode(obj.encode()).decode().rstrip("=")

    header = part('{"alg":"HS256"}')
    payload = part(json.dumps({"sub": _rand(rng, ALNUM, 10)}))
    return f"{header}.{payload}.{_rand(rng, B64URL, 43)}"


_MAKERS = {
    "aws_access_key_id": lambda r: "AK" + "IA" + _rand(r, BASE32, 16),
    "aws_secret_key": lambda r: _rand(r, ALNUM, 20) + "/" + _rand(r, ALNUM, 19),
    "github_token": lambda r: "gh" + r.choice("pousr") + "_" + _rand(r, ALNUM, 36),
    "slack_token": lambda r: "xo" + "xp-" + _rand(r, string.digits, 11) + "-" + _rand(r, ALNUM, 30),
    "stripe_secret_key": lambda r: (
        r.choice(["sk_live_", "sk_test_", "rk_live_"]) + _rand(r, ALNUM, 24)
    ),
    "google_api_key": lambda r: "AI" + "za" + _rand(r, B64URL, 35),
    "openai_api_key": lambda r: "sk" + "-" + _rand(r, ALNUM, 48),
    "anthropic_api_key": lambda r: "sk" + "-ant-api03-" + _rand(r, B64URL, 93) + "AA",
    "jwt": _jwt,
    "npm_token": lambda r: "np" + "m_" + _rand(r, ALNUM, 36),
    "sendgrid_api_key": lambda r: "S" + "G." + _rand(r, B64URL, 22) + "." + _rand(r, B64URL, 43),
    "twilio_api_key": lambda r: "S" + "K" + _rand(r, HEX, 32),
    "gitlab_token": lambda r: "gl" + "pat-" + _rand(r, ALNUM, 20),
    "huggingface_token": lambda r: "h" + "f_" + _rand(r, string.ascii_letters, 34),
    "pypi_token": lambda r: "py" + "pi-AgEIcHlwaS5vcmc" + _rand(r, B64URL, 60),
    "digitalocean_token": lambda r: "do" + "p_v1_" + _rand(r, HEX, 64),
    "shopify_token": lambda r: "sh" + "pat_" + _rand(r, HEX, 32),
    "databricks_token": lambda r: "da" + "pi" + _rand(r, HEX, 32),
    "telegram_bot_token": lambda r: _rand(r, "123456789", 9) + ":A" + _rand(r, B64URL, 34),
    "google_oauth_token": lambda r: "ya" + "29." + _rand(r, B64URL, 50),
    "google_oauth_client_secret": lambda r: "GOC" + "SPX-" + _rand(r, B64URL, 28),
    "azure_ad_client_secret": lambda r: (
        _rand(r, ALNUM, 3) + r.choice(string.digits) + "Q~" + _rand(r, ALNUM + "_~.-", 34)
    ),
    "mailgun_api_key": lambda r: "ke" + "y-" + _rand(r, string.ascii_lowercase + string.digits, 32),
    "discord_bot_token": lambda r: (
        base64.urlsafe_b64encode(str(r.randrange(10**16, 10**20)).encode()).decode().rstrip("=")
        + "."
        + _rand(r, B64URL, 6)
        + "."
        + _rand(r, B64URL, 38)
    ),
}

planted_secrets = st.builds(
    lambda kind, seed: (kind, _MAKERS[kind](random.Random(seed))),
    st.sampled_from(sorted(_MAKERS)),
    st.integers(0, 2**32),
)

# Arbitrary text, lone surrogates included (a JSON string can carry them).
any_text = st.text(st.characters(exclude_categories=()), max_size=300)

# Text made of the pieces detectors react to, to reach their edge cases.
_PIECES = [
    "%",
    "%2",
    "%25",
    "%5F",
    "%C3%A9",
    "%FF",
    "://",
    "@",
    ":",
    "=",
    "&",
    "?",
    "#",
    "/",
    "+",
    " ",
    "\n",
    '"',
    "'",
    ".",
    "-",
    "_",
    "password",
    "token=",
    "api_key: ",
    "Basic ",
    "Bearer ",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "AccountKey=",
    "hooks.slack.com/services/",
    "eyJ",
    "AKIA",
    "ghp_",
    "sk-",
    "sk_live_",
    "xoxb-",
    "aws ",
    "GOCSPX-",
    "8Q~",
    "key-",
    "xoxd-",
    "Signature=",
    "?key=",
    "&key=",
    "MTAx",
    "https://u:",
    "EXAMPLE",
    "😀",
    "日本",
]
edgy_text = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.text(ALNUM + "/+", max_size=45)), max_size=25
).map("".join)

plain_text = st.text(max_size=60)
SEPARATOR = " | "


def _valid(text: str, found: list[SecretMatch]) -> None:
    previous_end = 0
    for match in found:
        assert match.kind in VOCABULARY
        assert previous_end <= match.start < match.end <= len(text)
        previous_end = match.end


@settings(max_examples=150, deadline=None)
@given(st.one_of(any_text, edgy_text))
def test_never_raises_and_spans_are_ordered_disjoint_and_in_bounds(text: str) -> None:
    found = find_secrets(text)
    _valid(text, found)
    url_found = find_url_secrets(text)
    _valid(text, url_found)
    has_username_only(text)
    masked = mask(text, found)
    assert isinstance(masked, str)


@settings(max_examples=100, deadline=None)
@given(st.one_of(any_text, edgy_text))
def test_mask_keeps_everything_outside_the_spans(text: str) -> None:
    found = find_secrets(text)
    outside = []
    position = 0
    for match in found:
        outside.append(text[position : match.start])
        position = match.end
    outside.append(text[position:])
    assert mask(text, found) == "***".join(outside)
    assert mask(text, list(reversed(found))) == mask(text, found)


@settings(max_examples=100, deadline=None)
@given(st.one_of(any_text, edgy_text))
def test_mask_removes_every_detected_value(text: str) -> None:
    found = find_secrets(text)
    values = {text[m.start : m.end] for m in found}
    masked = mask(text, found)
    assert not values & {masked[m.start : m.end] for m in find_secrets(masked)}


@settings(max_examples=150, deadline=None)
@given(plain_text, planted_secrets, plain_text)
def test_planted_secret_is_found_at_its_exact_extent(prefix: str, planted, suffix: str) -> None:
    kind, secret = planted
    text = prefix + SEPARATOR + secret + SEPARATOR + suffix
    start = len(prefix) + len(SEPARATOR)
    found = find_secrets(text)
    assert SecretMatch(kind, start, start + len(secret)) in found
    assert text[start : start + len(secret)] == secret
    masked = mask(text, found)
    assert secret not in masked
    assert masked.startswith(mask(prefix + SEPARATOR, find_secrets(prefix + SEPARATOR)))


@settings(max_examples=150, deadline=None)
@given(plain_text, planted_secrets, st.data(), st.booleans(), plain_text)
def test_percent_encoded_secret_maps_back_to_the_caller_string(
    prefix: str, planted, data, twice: bool, suffix: str
) -> None:
    kind, secret = planted
    flags = data.draw(st.lists(st.booleans(), min_size=len(secret), max_size=len(secret)))
    percent = "%25" if twice else "%"
    encoded = "".join(
        f"{percent}{ord(c):02X}" if flag else c for c, flag in zip(secret, flags, strict=True)
    )
    text = prefix + SEPARATOR + encoded + SEPARATOR + suffix
    start = len(prefix) + len(SEPARATOR)
    assert SecretMatch(kind, start, start + len(encoded)) in find_secrets(text)
    assert mask(text, find_secrets(text)).count(encoded) == text.count(encoded) - 1


@settings(max_examples=100, deadline=None)
@given(planted_secrets, st.sampled_from(["?q=", "?a=1&b=", "#x=", "/p/", "/"]), st.booleans())
def test_secret_anywhere_in_a_url_is_found(planted, where: str, encode: bool) -> None:
    kind, secret = planted
    if kind == "aws_secret_key" and where.startswith("/"):
        where = "?k="  # 40 unprefixed characters are only a key when they stand alone
    value = "".join(f"%{b:02X}" for b in secret.encode()) if encode else secret
    url = f"https://example.org{where}{value}&z=1"
    start = url.index(value)
    assert SecretMatch(kind, start, start + len(value)) in find_url_secrets(url)


userinfo_part = st.text(ALNUM + "-._~!$'()*,;=", min_size=1, max_size=24)


@settings(max_examples=100, deadline=None)
@given(userinfo_part, userinfo_part, st.sampled_from(["", "/", "/path?q=1", "#f"]))
def test_user_and_password_in_a_url(user: str, password: str, rest: str) -> None:
    url = f"https://{user}:{password}@example.org{rest}"
    start = len("https://") + len(user) + 1
    assert SecretMatch("password_in_url", start, start + len(password)) in find_url_secrets(url)
    assert has_username_only(url) is False
    assert has_username_only(f"https://{user}@example.org{rest}") is True
    assert has_username_only(f"https://{user}:@example.org{rest}") is True
