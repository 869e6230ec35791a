"""rypsok.hygiene.secrets: kinds, extents, positions, placeholders, URLs, masking, speed.

Fake secrets are assembled at run time from a seeded generator, so no secret-shaped literal
sits in the repository for a scanner to trip over.
"""

from __future__ import annotations

import base64
import json
import random
import string
import urllib.parse

import pytest

from rypsok.hygiene.secrets import (
    SecretMatch,
    find_secrets,
    find_url_secrets,
    has_username_only,
    mask,
)
from tests.secret_kinds import ALNUM, B64, B64URL, BASE32, HEX, VOCABULARY


def rand(rng: random.Random, alphabet: str, n: int) -> str:
    """n characters of alphabet, with each of its letter cases and digits at least once."""
    groups = [
        group
        for group in (string.ascii_lowercase, string.ascii_uppercase, string.digits)
        if set(group) & set(alphabet)
    ]
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if all(set(group) & set(value) for group in groups):
            return value


def jwt_token(rng: random.Random) -> str:
    def part(obj: str) -> str:
        return base64.urlsafe_b64encode(obj.encode()).decode().rstrip("=")

    header = part('{"alg":"HS256","typ":"JWT"}')
    payload = part(json.dumps({"sub": rand(rng, ALNUM, 12), "iat": 1700000000}))
    return f"{header}.{payload}.{rand(rng, B64URL, 43)}"


def make(kind: str, seed: int = 0) -> str:
    """A fake secret of ``kind`` (the value only: its whole text is the extent)."""
    rng = random.Random(f"{kind}-{seed}")
    makers = {
        "aws_access_key_id": lambda: "AK" + "IA" + rand(rng, BASE32, 16),
        "aws_secret_key": lambda: (
            rand(rng, ALNUM, 18) + "/" + rand(rng, ALNUM, 10) + "+" + rand(rng, ALNUM, 10)
        ),
        "github_token": lambda: "gh" + "p_" + rand(rng, ALNUM, 36),
        "slack_token": lambda: (
            "xo"
            + "xb-"
            + rand(rng, "0123456789", 12)
            + "-"
            + rand(rng, "0123456789", 13)
            + "-"
            + rand(rng, ALNUM, 24)
        ),
        "stripe_secret_key": lambda: "sk" + "_live_" + rand(rng, ALNUM, 24),
        "google_api_key": lambda: "AI" + "za" + rand(rng, B64URL, 35),
        "openai_api_key": lambda: "sk" + "-" + rand(rng, ALNUM, 48),
        "anthropic_api_key": lambda: "sk" + "-ant-api03-" + rand(rng, B64URL, 93) + "AA",
        "jwt": lambda: jwt_token(rng),
        "npm_token": lambda: "np" + "m_" + rand(rng, ALNUM, 36),
        "sendgrid_api_key": lambda: (
            "S" + "G." + rand(rng, B64URL, 22) + "." + rand(rng, B64URL, 43)
        ),
        "twilio_api_key": lambda: "S" + "K" + rand(rng, HEX, 32),
        "gitlab_token": lambda: "gl" + "pat-" + rand(rng, ALNUM, 20),
        "huggingface_token": lambda: "h" + "f_" + rand(rng, string.ascii_letters, 34),
        "pypi_token": lambda: "py" + "pi-AgEIcHlwaS5vcmc" + rand(rng, B64URL, 70),
        "digitalocean_token": lambda: "do" + "p_v1_" + rand(rng, HEX, 64),
        "shopify_token": lambda: "sh" + "pat_" + rand(rng, HEX, 32),
        "databricks_token": lambda: "da" + "pi" + rand(rng, HEX, 32),
        "telegram_bot_token": lambda: rand(rng, "123456789", 10) + ":A" + rand(rng, B64URL, 34),
        "google_oauth_token": lambda: "ya" + "29." + rand(rng, B64URL, 60),
        "google_oauth_client_secret": lambda: "GOC" + "SPX-" + rand(rng, B64URL, 28),
        "azure_ad_client_secret": lambda: (
            rand(rng, ALNUM, 3) + "8" + "Q~" + rand(rng, ALNUM + "_~.-", 34)
        ),
        "mailgun_api_key": lambda: (
            "ke" + "y-" + rand(rng, string.ascii_lowercase + "0123456789", 32)
        ),
        "discord_bot_token": lambda: (
            base64.urlsafe_b64encode(str(rng.randrange(10**17, 10**19)).encode())
            .decode()
            .rstrip("=")
            + "."
            + rand(rng, B64URL, 6)
            + "."
            + rand(rng, B64URL, 38)
        ),
    }
    return makers[kind]()


TOKEN_KINDS = [
    "aws_access_key_id",
    "github_token",
    "slack_token",
    "stripe_secret_key",
    "google_api_key",
    "openai_api_key",
    "anthropic_api_key",
    "jwt",
    "npm_token",
    "sendgrid_api_key",
    "twilio_api_key",
    "gitlab_token",
    "huggingface_token",
    "pypi_token",
    "digitalocean_token",
    "shopify_token",
    "databricks_token",
    "telegram_bot_token",
    "google_oauth_token",
    "google_oauth_client_secret",
    "azure_ad_client_secret",
    "mailgun_api_key",
    "discord_bot_token",
]


def spans(text: str, matches: list[SecretMatch]) -> list[tuple[str, str]]:
    return [(m.kind, text[m.start : m.end]) for m in matches]


# ----------------------------------------------------------------------------- kinds


@pytest.mark.parametrize("kind", TOKEN_KINDS)
def test_each_token_kind_is_found_with_its_exact_extent(kind: str) -> None:
    secret = make(kind)
    query = f"why does {secret} fail"
    assert find_secrets(query) == [SecretMatch(kind, 9, 9 + len(secret))]


@pytest.mark.parametrize("kind", TOKEN_KINDS)
def test_each_token_kind_is_found_in_a_url_query_and_path(kind: str) -> None:
    secret = make(kind, seed=1)
    url = f"https://example.org/x?q={secret}&page=2"
    assert spans(url, find_url_secrets(url)) == [(kind, secret)]
    url = f"https://example.org/{secret}/y"
    assert spans(url, find_url_secrets(url)) == [(kind, secret)]


@pytest.mark.parametrize("prefix", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"])
def test_every_classic_github_prefix_is_a_github_token(prefix: str) -> None:
    secret = prefix + make("github_token")[4:]
    assert spans(secret, find_secrets(secret)) == [("github_token", secret)]


def test_fine_grained_github_pat() -> None:
    rng = random.Random(7)
    secret = "github" + "_pat_" + rand(rng, ALNUM, 22) + "_" + rand(rng, ALNUM, 59)
    query = f"x {secret}"
    assert spans(query, find_secrets(query)) == [("github_token", secret)]


@pytest.mark.parametrize("prefix", ["sk_live_", "sk_test_", "rk_live_"])
def test_stripe_secret_and_restricted_keys(prefix: str) -> None:
    secret = prefix + make("stripe_secret_key")[8:]
    assert spans(secret, find_secrets(secret)) == [("stripe_secret_key", secret)]


def test_openai_project_key() -> None:
    secret = (
        "sk"
        + "-proj-"
        + rand(random.Random(3), B64URL, 74)
        + "T3BlbkFJ"
        + rand(random.Random(4), B64URL, 74)
    )
    assert spans(secret, find_secrets(f"{secret} invalid")) == [("openai_api_key", secret)]


def test_slack_refresh_token_extent_includes_its_xoxe_prefix() -> None:
    secret = "xo" + "xe.xoxp-1-" + rand(random.Random(13), ALNUM, 140)
    query = f"refresh {secret} expired"
    assert spans(query, find_secrets(query)) == [("slack_token", secret)]


def test_slack_browser_tokens_xoxc_and_the_percent_encoded_xoxd_cookie() -> None:
    rng = random.Random(23)
    client = "xo" + "xc-" + "-".join(rand(rng, "0123456789", n) for n in (12, 12, 13))
    client += "-" + rand(rng, HEX, 64)
    cookie = "xo" + "xd-" + rand(rng, ALNUM, 60) + "%2F" + rand(rng, ALNUM, 40) + "%3D"
    query = f"slack api {client} and d={cookie} expired"
    assert spans(query, find_secrets(query)) == [("slack_token", client), ("slack_token", cookie)]


def test_signed_url_signature_parameter_is_a_secret() -> None:
    rng = random.Random(29)
    signature = rand(rng, ALNUM + "~-", 340)
    url = (
        "https://d111111abcdef8.cloudfront.net/image.jpg?Expires=1735689600"
        f"&Signature={signature}&Key-Pair-Id=K2JCJMDEHXQW5F"
    )
    assert spans(url, find_url_secrets(url)) == [("generic_secret", signature)]


def test_discord_look_alike_whose_first_part_is_not_an_id_is_not_a_token() -> None:
    rng = random.Random(17)
    fake = "M" + rand(rng, B64URL, 23) + "." + rand(rng, B64URL, 6) + "." + rand(rng, B64URL, 30)
    assert find_secrets(f"what is {fake}") == []


_API_KEY = rand(random.Random(19), ALNUM, 32)


@pytest.mark.parametrize(
    ("text", "finder", "kind"),
    [
        (f"https://maps.example.com/api/geocode?address=Oslo&key={_API_KEY}", "url", "secret"),
        (f"https://x.example/v1#key={_API_KEY}", "url", "secret"),
        (f"curl 'https://x.example/v1?format=json&key={_API_KEY}' 403", "query", "secret"),
        (f"GET https://x.example/v1?key={_API_KEY}#top failed", "query", "secret"),
        ("https://example.com/search?key=climate+change", "url", None),
        ("https://s3.example.com/bucket?key=uploads/2024/photo.jpg", "url", None),
        ("https://example.com/?key=ArrowUp", "url", None),
        (f"primary key: {_API_KEY}", "query", None),
        (f"sort by key={_API_KEY}", "query", None),
    ],
)
def test_bare_key_parameter_is_a_secret_only_in_a_url(
    text: str, finder: str, kind: str | None
) -> None:
    found = (find_url_secrets if finder == "url" else find_secrets)(text)
    expected = [] if kind is None else [("generic_secret", _API_KEY)]
    assert spans(text, found) == expected


def test_anthropic_key_is_not_reported_as_openai() -> None:
    secret = make("anthropic_api_key")
    assert [m.kind for m in find_secrets(secret)] == ["anthropic_api_key"]


def test_aws_secret_key_standalone_with_slash_and_by_context() -> None:
    secret = make("aws_secret_key")
    query = f"key {secret}."
    assert spans(query, find_secrets(query)) == [("aws_secret_key", secret)]
    plain = rand(random.Random(11), ALNUM, 40)
    assert find_secrets(f"value {plain} here") == []
    query = f"aws_secret_access_key={plain}"
    assert spans(query, find_secrets(query)) == [("aws_secret_key", plain)]
    key_id = make("aws_access_key_id")
    query = f"{key_id} {plain}"
    assert spans(query, find_secrets(query)) == [
        ("aws_access_key_id", key_id),
        ("aws_secret_key", plain),
    ]


def test_private_key_block_is_the_whole_begin_end_block() -> None:
    body = "\n".join(rand(random.Random(i), B64, 64) for i in range(3))
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    query = f"parse error {block} in openssl"
    assert spans(query, find_secrets(query)) == [("private_key", block)]


def test_private_key_header_alone_is_the_header_line() -> None:
    header = "-----BEGIN OPENSSH PRIVATE KEY-----"
    query = f"what does {header} mean"
    assert spans(query, find_secrets(query)) == [("private_key", header)]


def test_private_key_without_end_covers_header_and_body() -> None:
    body = rand(random.Random(5), B64, 64)
    query = f"-----BEGIN PRIVATE KEY----- {body} is this valid"
    assert spans(query, find_secrets(query)) == [
        ("private_key", f"-----BEGIN PRIVATE KEY----- {body}")
    ]


def test_public_keys_and_certificates_are_not_secrets() -> None:
    assert (
        find_secrets("-----BEGIN PUBLIC KEY----- MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA")
        == []
    )
    assert find_secrets("-----BEGIN CERTIFICATE----- expired") == []


def test_slack_webhook_extent_is_the_path_after_services() -> None:
    rng = random.Random(9)
    path = f"T{rand(rng, BASE32, 8)}/B{rand(rng, BASE32, 10)}/{rand(rng, ALNUM, 24)}"
    url = f"https://hooks.slack.com/services/{path}"
    assert spans(url, find_url_secrets(url)) == [("slack_webhook_url", path)]
    query = f"curl {url} 404"
    assert spans(query, find_secrets(query)) == [("slack_webhook_url", path)]


def test_slack_webhook_documentation_placeholder_is_not_a_secret() -> None:
    url = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
    assert find_url_secrets(url) == []


def test_azure_extent_is_the_account_key_value() -> None:
    key = rand(random.Random(2), B64, 86) + "=="
    query = f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={key};EndpointSuffix=core.windows.net"
    assert spans(query, find_secrets(query)) == [("azure_storage_key", key)]


def test_basic_auth_extent_is_the_base64_value() -> None:
    value = base64.b64encode(b"admin:" + rand(random.Random(1), ALNUM, 12).encode()).decode()
    query = f"Authorization: Basic {value} returns 401"
    assert spans(query, find_secrets(query)) == [("basic_auth", value)]


def test_bearer_token_with_random_value_is_generic() -> None:
    token = rand(random.Random(8), ALNUM, 32)
    query = f"Authorization: Bearer {token}"
    assert spans(query, find_secrets(query)) == [("generic_secret", token)]


def test_bearer_jwt_reports_the_specific_kind() -> None:
    token = make("jwt")
    query = f"Bearer {token}"
    assert spans(query, find_secrets(query)) == [("jwt", token)]


# ----------------------------------------------------------------------------- named values


def test_password_parameter_is_a_secret_whatever_its_value() -> None:
    for value in ("hunter2", "a", "correct horse"[:7]):
        query = f"login?user=bob&password={value}"
        assert spans(query, find_secrets(query)) == [("generic_secret", value)]
    for name in ("passwd", "pwd", "db_password", "NEW_PASSWORD"):
        query = f"{name}=abc fails"
        assert spans(query, find_secrets(query)) == [("generic_secret", "abc")]


def test_password_parameter_in_url_is_a_secret_whatever_its_value() -> None:
    url = "https://example.org/login?user=bob&pwd=x&next=/"
    assert spans(url, find_url_secrets(url)) == [("generic_secret", "x")]


def test_token_like_parameters_need_a_random_value() -> None:
    value = rand(random.Random(4), ALNUM, 24)
    for name in (
        "token",
        "access_token",
        "secret",
        "api_key",
        "apiKey",
        "client_secret",
        "X-Amz-Security-Token",
    ):
        url = f"https://example.org/cb?{name}={value}&state=1"
        assert spans(url, find_url_secrets(url)) == [("generic_secret", value)], name
        url = f"https://example.org/cb?{name}=hello"
        assert find_url_secrets(url) == [], name


def test_fragment_parameters_count() -> None:
    value = rand(random.Random(12), B64URL, 40)
    url = f"https://example.org/cb#access_token={value}&token_type=bearer"
    assert spans(url, find_url_secrets(url)) == [("generic_secret", value)]


def test_quoted_and_colon_forms_in_a_query() -> None:
    value = rand(random.Random(13), ALNUM, 32)
    query = f'config {{"client_secret": "{value}"}} rejected'
    assert spans(query, find_secrets(query)) == [("generic_secret", value)]
    query = f"api_key: {value}"
    assert spans(query, find_secrets(query)) == [("generic_secret", value)]
    query = 'password: "hunter2"'
    assert spans(query, find_secrets(query)) == [("generic_secret", "hunter2")]


def test_client_secret_of_forty_characters_is_generic_not_aws() -> None:
    value = rand(random.Random(14), ALNUM, 40)
    query = f"client_secret={value}"
    assert spans(query, find_secrets(query)) == [("generic_secret", value)]


def test_pagination_and_csrf_tokens_are_not_credentials() -> None:
    value = rand(random.Random(15), ALNUM, 32)
    for name in ("pageToken", "nextPageToken", "NextToken", "csrf_token", "continuationToken"):
        url = f"https://example.org/list?{name}={value}"
        assert find_url_secrets(url) == [], name


def test_specific_kind_wins_over_generic() -> None:
    token = make("github_token")
    url = f"https://example.org/?token={token}"
    assert spans(url, find_url_secrets(url)) == [("github_token", token)]
    key = make("google_api_key")
    query = f"api_key={key}"
    assert spans(query, find_secrets(query)) == [("google_api_key", key)]


# ----------------------------------------------------------------------------- URLs


def test_user_and_password_in_url_reports_the_password() -> None:
    url = "https://alice:Tr0ub4dor@example.org/private"
    assert find_url_secrets(url) == [SecretMatch("password_in_url", 14, 23)]
    assert url[14:23] == "Tr0ub4dor"
    assert has_username_only(url) is False


def test_user_named_like_a_parameter_does_not_widen_the_password() -> None:
    password = rand(random.Random(16), ALNUM, 24)
    url = f"https://token:{password}@example.org/x"
    assert spans(url, find_url_secrets(url)) == [("password_in_url", password)]


def test_password_in_url_ignores_at_signs_after_the_authority() -> None:
    url = "https://alice:pw@example.org/@maps/user:x@y"
    assert spans(url, find_url_secrets(url)) == [("password_in_url", "pw")]


def test_password_in_url_takes_the_last_at_sign_of_the_authority() -> None:
    url = "https://alice:p@ss@example.org/"
    assert spans(url, find_url_secrets(url)) == [("password_in_url", "p@ss")]


def test_placeholder_password_in_url_still_counts_for_fetch() -> None:
    url = "https://user:password@example.org/"
    assert spans(url, find_url_secrets(url)) == [("password_in_url", "password")]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://user@example.org/", True),
        ("https://user:@example.org/", True),
        ("https://user:pw@example.org/", False),
        ("https://example.org/", False),
        ("https://@example.org/", False),
        ("https://example.org/@user", False),
        ("https://www.google.com/maps/place/Berlin/@52.52,13.40,11z", False),
        ("https://example.org/?next=a@b", False),
        ("http:user@example.org/", True),
        ("https://user@example.org:8443/x", True),
        ("mailto:someone@example.org", False),
    ],
)
def test_has_username_only(url: str, expected: bool) -> None:
    assert has_username_only(url) is expected


def test_username_only_has_no_secret() -> None:
    assert find_url_secrets("https://user@example.org/") == []
    assert find_url_secrets("https://user:@example.org/") == []


def test_token_as_user_name_is_a_secret() -> None:
    token = make("github_token")
    url = f"https://{token}@github.com/owner/repo.git"
    assert spans(url, find_url_secrets(url)) == [("github_token", token)]


def test_presigned_url_is_a_credential() -> None:
    key_id = make("aws_access_key_id")
    signature = rand(random.Random(21), HEX, 64)
    url = (
        "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={key_id}%2F20240101%2Fus-east-1%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600&X-Amz-Signature={signature}"
    )
    found = find_url_secrets(url)
    assert spans(url, found) == [("aws_access_key_id", key_id), ("generic_secret", signature)]
    assert found[0].start == url.index(key_id)


def test_google_signed_url_signature_is_a_credential() -> None:
    signature = rand(random.Random(22), HEX, 128)
    url = (
        "https://storage.googleapis.com/bucket/object?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        "&X-Goog-Credential=robot%40project.iam.gserviceaccount.com%2F20240101%2Fauto"
        f"%2Fstorage%2Fgoog4_request&X-Goog-Expires=900&X-Goog-Signature={signature}"
    )
    assert spans(url, find_url_secrets(url)) == [("generic_secret", signature)]


def test_embedded_url_with_password_inside_a_parameter() -> None:
    inner = urllib.parse.quote("https://bob:S3cretPw@internal.example/", safe="")
    url = f"https://example.org/redirect?to={inner}"
    found = find_url_secrets(url)
    assert [m.kind for m in found] == ["password_in_url"]
    assert url[found[0].start : found[0].end] == "S3cretPw"


# ----------------------------------------------------------------------------- positions


def test_position_counts_unicode_scalar_values() -> None:
    token = make("npm_token")
    query = f"😀日本 {token}"  # one astral character: 1 scalar value, 2 UTF-16 units
    assert find_secrets(query) == [SecretMatch("npm_token", 4, 4 + len(token))]


def test_percent_encoded_secret_maps_back_to_the_original_string() -> None:
    token = make("github_token")
    encoded = "".join(f"%{b:02X}" for b in token.encode())
    query = f"é {encoded} x"
    found = find_secrets(query)
    assert found == [SecretMatch("github_token", 2, 2 + len(encoded))]


def test_partly_and_doubly_encoded_secrets_map_back() -> None:
    token = make("stripe_secret_key")
    partly = token.replace("_", "%5F")
    query = f"q={partly}&x=1"
    assert spans(query, find_secrets(query)) == [("stripe_secret_key", partly)]
    doubly = token.replace("_", "%255F")
    query = f"a {doubly}"
    assert spans(query, find_secrets(query)) == [("stripe_secret_key", doubly)]


def test_encoded_multibyte_characters_before_a_secret() -> None:
    token = make("slack_token")
    query = f"%C3%A9%E2%82%AC {token}"
    assert find_secrets(query) == [SecretMatch("slack_token", 16, 16 + len(token))]


def test_invalid_percent_sequences_are_left_alone() -> None:
    token = make("npm_token")
    query = f"%FF%C3 %zz {token}"
    assert find_secrets(query) == [SecretMatch("npm_token", 11, 11 + len(token))]


# ----------------------------------------------------------------------------- several, mask


def test_several_secrets_all_returned_sorted() -> None:
    a, b, c = make("github_token"), make("npm_token"), make("aws_access_key_id")
    query = f"{c} then {a} and password=pw1 and {b}"
    found = find_secrets(query)
    assert spans(query, found) == [
        ("aws_access_key_id", c),
        ("github_token", a),
        ("generic_secret", "pw1"),
        ("npm_token", b),
    ]
    assert [m.start for m in found] == sorted(m.start for m in found)


def test_mask_replaces_every_secret_and_keeps_the_rest() -> None:
    a, b = make("github_token"), make("openai_api_key")
    query = f"why {a} and {b}?"
    assert mask(query, find_secrets(query)) == "why *** and ***?"
    assert find_secrets(mask(query, find_secrets(query))) == []


def test_mask_without_matches_is_identity() -> None:
    assert mask("plain query", []) == "plain query"


def test_mask_of_percent_encoded_secret_removes_the_encoded_text() -> None:
    token = make("github_token")
    encoded = urllib.parse.quote(token.replace("_", "%5F"))
    query = f"x {encoded} y"
    assert mask(query, find_secrets(query)) == "x *** y"


def test_every_reported_kind_is_in_the_vocabulary() -> None:
    assert set(TOKEN_KINDS) <= VOCABULARY
    samples = [make(k) for k in TOKEN_KINDS]
    found = find_secrets(" ".join(samples))
    assert {m.kind for m in found} <= VOCABULARY
    assert len(found) == len(samples)


# ----------------------------------------------------------------------------- benign


def _publishable() -> str:
    return "pk" + "_live_" + rand(random.Random(31), ALNUM, 24)


BENIGN_QUERIES = [
    "550e8400-e29b-41d4-a716-446655440000 not found",
    "fix regression in 3f786850e387550fdab836ed7e6dc881de23001b",
    "git show a1b2c3d",
    "ISBN 978-3-16-148410-0",
    "ISBN 0-306-40615-2 first edition",
    "#1e90ff vs #FF5733 contrast ratio",
    "Donaudampfschifffahrtsgesellschaftskapitän",
    "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz Bedeutung",
    "aGVsbG8gd29ybGQ= decode",
    "SGVsbG8sIFdvcmxkIQ== base64",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "md5 d41d8cd98f00b204e9800998ecf8427e collision",
    "docker pull nginx@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "password reset not working",
    "how to reset my password on windows 11",
    "password: how to choose a strong one",
    "forgot password? reset link expired",
    "pwd command linux",
    "PWD=/home/user in bash",
    "git clone https://username:password@github.com/owner/repo",
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "api_key=DEMO_KEY nasa apod",
    "DEMO_KEY rate limit",
    "stripe publishable key " + _publishable(),
    "pk_test_" + rand(random.Random(32), ALNUM, 24) + " checkout",
    "sk-learn-tutorial-for-beginners",
    "scikit-learn vs sk-learn",
    "Basic income experiment Finland",
    "Bearer token authentication explained",
    "token=abc123",
    "token=hello world",
    "token: what is a JWT",
    "api_key: where do I find it",
    "client_secret=YOUR_CLIENT_SECRET",
    "ghp_" + "x" * 36,
    "AKIA" + "X" * 16,
    "sk_live_" + "X" * 24,
    "sk_live_" + "0" * 24,
    "xoxb-your-token",
    "xoxb-XXXXXXXXXXXX-XXXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXX",
    "-----BEGIN PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE----- chain",
    "order 1234567890123456 status",
    "telegram bot 12345:ABC",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
    "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "stripe docs sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    "youtube dQw4w9WgXcQ",
    "ORCID 0000-0002-1825-0097",
    "doi 10.1000/182",
    "IBAN DE89370400440532013000",
    "2001:db8::1 ping",
    "MAC 00:1A:2B:3C:4D:5E",
    "/usr/local/lib/python3.11/site-packages/numpy/core",
    "XXXXX-XXXXX-XXXXX-XXXXX-XXXXX product key",
    "SKU SK12345 running shoes",
    "dapi library python",
    "hf_transfer environment variable",
    "npm_config_registry setting",
    "glpat- token format",
    "ya29 token prefix",
    "semver 1.2.3-beta.4+build.5",
    "CamelCaseIdentifierWithNumbers2024 naming",
    "Mississippi river length",
    "secret santa ideas",
    "token ring network",
    'mysql password="" empty',
    "password=<password>",
    "password=${DB_PASSWORD}",
    "password={{ db_password }} in jinja",
    "password=< your password > docs",
    "password=*** masked",
    "password=true",
    "https://example.org/?token=hello",
    "hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "pageToken=CAoQAA",
    "100% of 50%",
    "%%%% 100%2",
    "pip install sk-learn",
    "npm_config_cache location on windows",
    "bitcoin address 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa genesis",
    "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq balance",
    "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297 taproot",
    "0x742d35Cc6634C0532925a3b844Bc454e4438f44e etherscan",
    "lentokonesuihkuturbiinimoottoriapumekaanikkoaliupseerioppilas",
    "如何在Python中使用正则表达式匹配中文字符",
    "arXiv:2106.09685v2 LoRA",
    "error 0x80070005 access denied",
    "UPS tracking 1Z999AA10123456784",
    "VIN 1HGCM82633A004352 decode",
    "arn:aws:iam::123456789012:role/MyRole",
    "ipfs QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",
    "key-value store comparison",
    "mailgun docs key-3ax6xnjp29jd6fds4gc373sgvjxteol0 samples.mailgun.org",
    "key-performance-indicators-template-2024",
    "GOCSPX prefix meaning",
    "Q~ in azure client secret",
    "xoxd cookie meaning",
    "email signature=Best regards",
    "discord.gg/abc123 invite",
    "MTIzNDU2Nzg5MDEyMzQ1Njc4.example.com",
]

BENIGN_URLS = [
    "https://en.wikipedia.org/wiki/Donaudampfschifffahrtsgesellschaft",
    "https://en.wikipedia.org/wiki/Special:Search?search=password+manager",
    "https://de.wikipedia.org/wiki/Rindfleischetikettierungs%C3%BCberwachungsaufgaben%C3%BCbertragungsgesetz",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
    "https://github.com/python/cpython/commit/3f786850e387550fdab836ed7e6dc881de23001b",
    "https://example.com/posts/12345/how-to-reset-your-password",
    "https://example.com/?token=hello",
    "https://example.com/?token=abc123",
    "https://example.com/reset?password_reset=true",
    "https://api.nasa.gov/planetary/apod?api_key=DEMO_KEY",
    "https://www.googleapis.com/youtube/v3/search?part=snippet&pageToken="
    + rand(random.Random(41), ALNUM, 32),
    "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html",
    "https://stackoverflow.com/questions/12345678/how-to-store-api-key-securely",
    "https://example.com/img/550e8400-e29b-41d4-a716-446655440000.png",
    "https://cdn.example.com/assets/app.3f786850e387550fdab8.js",
    "https://example.com/?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale_2024",
    "https://www.google.com/maps/place/Berlin/@52.5069704,13.2846501,11z",
    "https://arxiv.org/abs/2401.12345v2",
    "https://doi.org/10.1000/182",
    "https://example.com/#section-password-requirements",
    "https://www.amazon.com/dp/B08N5WRWNW?ref=ppx_yo_dt_b_asin_title",
    "https://example.com/pay?key=" + _publishable(),
    "https://example.com/s?q=sha256+e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "https://example.com/?color=%231e90ff",
    "https://example.com/search?q=token+ring&sort=date",
    "https://example.com/login?password=",
    "https://pypi.org/project/hf_transfer/",
    "https://discord.com/channels/123456789012345678/876543210987654321",
    "https://example.com/?signature=john-smith-2024",
]


@pytest.mark.parametrize("query", BENIGN_QUERIES)
def test_benign_query_is_not_a_secret(query: str) -> None:
    assert spans(query, find_secrets(query)) == []


@pytest.mark.parametrize("url", BENIGN_URLS)
def test_benign_url_is_not_a_secret(url: str) -> None:
    assert spans(url, find_url_secrets(url)) == []
    assert has_username_only(url) is False


def test_there_are_at_least_fifty_benign_look_alikes() -> None:
    assert len(BENIGN_QUERIES) + len(BENIGN_URLS) >= 50


# ----------------------------------------------------------------------------- speed
