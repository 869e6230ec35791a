"""URL hygiene for search results: tracking parameters, dedup keys, URLs that are dropped."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.bounds import MAX_URL_CHARS
from rypsok.hygiene.urls import (
    _PLAIN_KEY,
    TRACKING_PARAMETERS,
    _canonical_key,
    canonical_key,
    is_tracking_parameter,
    judge_result_url,
    result_url_problem,
    strip_tracking,
)
from rypsok.net.egress import EgressPolicy
from rypsok.net.url import URLError, is_plain_web_url, read_url

# -- strip_tracking -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "stripped"),
    [
        ("https://x.example/?a=1&utm_source=x&b=%7E", "https://x.example/?a=1&b=%7E"),
        ("https://x.example/p?utm_source=a&utm_medium=b", "https://x.example/p"),
        ("https://x.example/p?utm_source=a#top", "https://x.example/p#top"),
        ("https://x.example/p?fbclid=IwAR0&id=7#s?gclid=1", "https://x.example/p?id=7#s?gclid=1"),
        (
            "https://x.example/?id=7&gclid=abc&gbraid=x&wbraid=y&msclkid=z",
            "https://x.example/?id=7",
        ),
        ("https://x.example/?UTM_Source=a&Q=B", "https://x.example/?Q=B"),
        ("https://x.example/?utm%5Fsource=a&q=b", "https://x.example/?q=b"),
        ("https://x.example/?utm_whatever_new=1&q=b", "https://x.example/?q=b"),
        ("https://x.example/?q=%20a+b&_ga=2.1&_gl=1*x", "https://x.example/?q=%20a+b"),
        ("https://x.example/?a=1&&fbclid=1&b", "https://x.example/?a=1&&b"),
        ("https://x.example/?&fbclid=1&", "https://x.example/"),
        ("https://x.example/?fbclid", "https://x.example/"),
        ("https://x.example/?srsltid=AfmBOo&q=shoes", "https://x.example/?q=shoes"),
        ("HTTPS://X.example/Caf%C3%A9?mc_cid=1&mc_eid=2&Z=1", "HTTPS://X.example/Caf%C3%A9?Z=1"),
    ],
)
def test_tracking_parameters_are_removed_and_the_rest_kept_byte_for_byte(url, stripped):
    assert strip_tracking(url) == stripped


@pytest.mark.parametrize(
    "url",
    [
        "https://x.example/",
        "https://x.example/?",
        "https://x.example/#",
        "https://x.example/?#",
        "https://x.example/?b=%7e&a=1&&c;d#frag",
        "https://x.example/?ref=home&source=rss&campaign=2024&cid=9&s=1&spm=a",
        "https://x.example/?q=utm_source",
        "https://x.example/#utm_source=x",
        "https://x.example/?gclid_like=1",
        "https://x.example/?xutm_source=1",
    ],
)
def test_a_url_without_tracking_parameters_is_returned_unchanged(url):
    assert strip_tracking(url) == url


@pytest.mark.parametrize(
    "name",
    [
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_term",
        "utm_content",
        "utm_id",
        "fbclid",
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "mc_cid",
        "mc_eid",
        "yclid",
        "_ga",
        "_gl",
        "igshid",
        "twclid",
        "ttclid",
        "li_fat_id",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "vero_id",
        "oly_anon_id",
        "oly_enc_id",
        "rb_clickid",
        "s_cid",
        "ref_src",
        "srsltid",
        "__hstc",
        "hsCtaTracking",
    ],
)
def test_the_well_known_tracking_parameters_are_listed(name):
    assert is_tracking_parameter(name)
    assert strip_tracking(f"https://x.example/?{name}=1&keep=1") == "https://x.example/?keep=1"


def test_the_list_is_stored_in_lower_case():
    assert all(name == name.lower() for name in TRACKING_PARAMETERS)


@pytest.mark.parametrize(
    "name", ["ref", "source", "campaign", "cid", "s", "id", "q", "page", "tag"]
)
def test_names_that_pages_use_for_content_are_kept(name):
    assert not is_tracking_parameter(name)


# -- canonical_key -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [
        "https://example.com/a?b=2&c=3",
        "http://example.com/a?b=2&c=3",
        "HTTPS://EXAMPLE.COM/a?b=2&c=3",
        "https://Example.Com./a?b=2&c=3",
        "https://example.com:443/a?b=2&c=3",
        "http://example.com:80/a?b=2&c=3",
        "https://example.com/a?c=3&b=2",
        "https://example.com/a?b=2&c=3#section",
        "https://example.com/a?b=2&utm_source=feed&c=3&fbclid=1",
        "https://example.com/a?b=2&c=%33",
        "http://example.com:/a?c=3&b=2#x",
    ],
)
def test_variants_of_one_page_have_one_key(variant):
    assert canonical_key(variant) == canonical_key("https://example.com/a?b=2&c=3")


def test_the_key_is_scheme_free():
    assert canonical_key("https://example.com/a?b=2") == "//example.com/a?b=2"


@pytest.mark.parametrize(
    "other",
    [
        "https://example.com/A?b=2&c=3",
        "https://example.com/a?b=2&c=4",
        "https://example.com/a?b=2",
        "https://example.com:8443/a?b=2&c=3",
        "https://www.example.com/a?b=2&c=3",
        "https://example.org/a?b=2&c=3",
        "https://example.com/a/b?b=2&c=3",
    ],
)
def test_different_pages_have_different_keys(other):
    assert canonical_key(other) != canonical_key("https://example.com/a?b=2&c=3")


def test_port_80_on_https_and_443_on_http_are_not_defaults():
    assert canonical_key("https://example.com:80/") != canonical_key("https://example.com/")
    assert canonical_key("http://example.com:443/") != canonical_key("http://example.com/")


def test_non_ascii_hosts_and_paths_share_a_key_with_their_encoded_forms():
    assert canonical_key("https://b\u00fccher.de/caf\u00e9") == canonical_key(
        "https://xn--bcher-kva.de/caf%C3%A9"
    )


def test_an_unparseable_url_still_has_a_key():
    assert canonical_key("http://example.com:99999/a#f") == "http://example.com:99999/a"
    assert canonical_key("http://[::1/") == "http://[::1/"


# -- result_url_problem --------------------------------------------------------------------------

POLICY = EgressPolicy()


def test_a_url_longer_than_2048_characters_is_too_long():
    long_url = "https://example.com/" + "a" * (MAX_URL_CHARS - 20)
    assert len(long_url) == MAX_URL_CHARS
    assert result_url_problem(long_url, POLICY) is None
    assert result_url_problem(long_url + "a", POLICY) == "url_too_long"
    assert result_url_problem("ftp://" + "a" * 3000, POLICY) == "url_too_long"
    # web_fetch's bound is on the URL it requests: percent-encoding counts
    for expands in ("\u00e9", '"', "{", "^", "`", "<"):
        encoded = "https://example.com/" + expands * 1000
        assert len(encoded) < MAX_URL_CHARS
        assert result_url_problem(encoded, POLICY) == "url_too_long", expands
    assert result_url_problem("https://example.com/" + "\u00e9" * 300, POLICY) is None


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/file",
        "javascript:alert(1)",
        "mailto:a@example.com",
        "file:///etc/passwd",
        "example.com/page",
        "/relative/page",
        "https://.example/",
        "https://a..b.example/",
        "https://exa_mple!.com/",
        "https://exa mple.com/",
        "https://example.com\\@evil.example/",
        "https://example.com:0/",
        "https://\u2603.example/",
        "https:///",
    ],
)
def test_urls_web_fetch_could_not_read_or_would_not_fetch_are_invalid(url):
    assert result_url_problem(url, POLICY) == "url_invalid"


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.1/",
        "http://0x0a.1/",
        "http://167772161/",
        "https://127.1/admin",
        "https://[::1]/",
        "https://[::ffff:10.0.0.1]/",
        "https://[fd00::1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://168.63.129.16/",
        "http://192.0.2.1/",
    ],
)
def test_a_literal_address_the_egress_policy_refuses_is_invalid(url):
    assert result_url_problem(url, POLICY) == "url_invalid"


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/",
        "http://example.com/page?q=1#frag",
        "https://8.8.8.8/",
        "https://[2606:4700:4700::1111]/",
        "https://b\u00fccher.de/caf\u00e9",
        "https://localhost/",
        "https://example.com:8443/",
    ],
)
def test_ordinary_result_urls_pass(url):
    assert result_url_problem(url, POLICY) is None


def test_allow_networks_counts_for_results_too():
    policy = EgressPolicy.from_cidrs(["10.0.0.0/8"])
    assert result_url_problem("http://10.0.0.1/", policy) is None
    assert result_url_problem("http://0x0a.1/", policy) is None
    assert result_url_problem("http://192.168.1.1/", policy) == "url_invalid"


# -- the plain-URL shortcuts --------------------------------------------------------------------
# A search judges and keys every result URL; the common URL takes a shortcut of one regex
# match. Each shortcut must give the answer of the full reading.

_LABEL = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_-]{0,6}", fullmatch=True),
    st.text(alphabet="abcxz019-_", min_size=1, max_size=8),
    st.sampled_from(["xn--bcher-kva", "xn--a", "0x7f", "1", "A", ""]),
)
_HOSTS = st.builds(".".join, st.lists(_LABEL, min_size=1, max_size=4))
_PIECES = st.one_of(
    st.text(alphabet="aZ09_~-:@!$'()*+,=&", max_size=8),
    st.from_regex(r"[a-z]{1,3}=[a-z0-9]{0,3}(&[a-z]{1,3}=[a-z0-9]{0,3}){0,3}", fullmatch=True),
    st.text(alphabet="aZ09._~-:@!$'()*+,=&%;/?# ", max_size=12),
)
_URLS = st.builds(
    lambda scheme, host, port, path, query, fragment: (
        f"{scheme}://{host}{port}{path}{query}{fragment}"
    ),
    st.sampled_from(["https", "https", "http", "HTTPS", "ftp"]),
    _HOSTS,
    st.sampled_from(["", "", "", ":8080", ":443", ":"]),
    st.builds(lambda parts: "".join("/" + p for p in parts), st.lists(_PIECES, max_size=3)),
    st.one_of(st.just(""), st.builds(lambda q: "?" + q, _PIECES)),
    st.one_of(st.just(""), st.builds(lambda f: "#" + f, _PIECES)),
)


@given(_URLS)
@settings(max_examples=300)
def test_a_plain_web_url_is_what_read_url_reads_as_a_name(url: str) -> None:
    if is_plain_web_url(url):
        read = read_url(url)
        assert read.scheme in ("http", "https")
        assert read.address is None
    assert result_url_problem(url, POLICY) == _problem_by_reading(url)


def _problem_by_reading(url: str) -> str | None:
    try:
        read = read_url(url)
    except URLError as error:
        return "url_too_long" if error.max_length is not None else "url_invalid"
    if read.scheme not in ("http", "https"):
        return "url_invalid"
    if read.address is not None and not POLICY.allows(read.address):
        return "url_invalid"
    return None


@given(_URLS)
@settings(max_examples=300)
def test_the_plain_key_is_w3libs(url: str) -> None:
    assert canonical_key(url) == _canonical_key(strip_tracking(url))


@given(_URLS | st.builds(lambda u, n: u + "/" + "a" * n, _URLS, st.integers(0, 2100)))
@settings(max_examples=500)
def test_a_result_url_is_judged_as_its_problem_its_tracking_and_its_key_say(url: str) -> None:
    """The one-match answer for a plain URL without query or fragment is the long way's."""
    problem = result_url_problem(url, POLICY)
    if problem is not None:
        assert judge_result_url(url, POLICY) == (problem, url, "")
    else:
        shown = strip_tracking(url)
        assert judge_result_url(url, POLICY) == (None, shown, canonical_key(shown))


@pytest.mark.parametrize(
    "url",
    [
        "https://a.org/x?b=2&a=1&a-b=0&a=0#f",
        "https://a.org",
        "https://a.org/?q=",
        "https://a.org/wiki/A:B_(c)!$*+,=@~'x/",
        "https://a.org/x/?utm_source=x&z=1",
    ],
)
def test_the_plain_key_on_examples(url: str) -> None:
    assert _PLAIN_KEY.fullmatch(strip_tracking(url)) is not None
    assert canonical_key(url) == _canonical_key(strip_tracking(url))
