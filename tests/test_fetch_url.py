"""Reading fetch URLs as a browser does, the scheme and literal-egress checks, the upgrade."""

from __future__ import annotations

import ipaddress

import httpx
import pytest

from rypsok import errors
from rypsok.errors import ToolError
from rypsok.net.egress import EgressPolicy
from rypsok.net.url import FetchURL, URLError, read_url, upgrade_to_https
from rypsok.webfetch.policy import check_egress_literal, check_scheme, literal_refusal

PORTS = (80, 443)


def rejected(url: str, max_length: int = 2048) -> ToolError:
    """The refusal as the caller sees it: the reader's URLError mapped at the edge."""
    with pytest.raises(URLError) as caught:
        read_url(url, max_length)
    return errors.url_unreadable(caught.value)


def assert_invalid(url: str, words: str) -> None:
    error = rejected(url)
    assert error.kind == "invalid_request"
    assert error.detail == {"parameter": "url", "min": 1, "max": 2048}
    assert words in error.message
    assert len(error.message) <= 200


# -- rejections (invalid_request) ---------------------------------------------------------


def test_a_url_beyond_the_bound_is_refused_with_the_bound():
    error = rejected("https://example.org/" + "a" * 2029)
    assert error.kind == "invalid_request"
    assert error.detail == {"parameter": "url", "min": 1, "max": 2048}
    assert "2048" in error.message
    assert read_url("https://example.org/" + "a" * 2028).target == "/" + "a" * 2028


def test_the_bound_holds_for_the_url_requested_once_percent_encoded():
    """tools.md: url at most 2048 characters, and web_fetch's answer at most max_chars + 150
    + 2048 characters: the url answered is the URL requested, percent-encoded, so a URL
    within the bound as sent but not once encoded is refused with the bound."""
    prefix = "https://example.org/"
    fits = prefix + "\u00e9" * ((2048 - len(prefix)) // 6)  # é is %C3%A9: 6 characters
    assert len(read_url(fits).url()) <= 2048
    for beyond in (fits + "\u00e9", prefix + '"' * 700, prefix + "?q=" + "<" * 700):
        assert len(beyond) <= 2048
        error = rejected(beyond)
        assert error.kind == "invalid_request"
        assert error.detail == {"parameter": "url", "min": 1, "max": 2048}
        assert "2048" in error.message and "percent-encoded" in error.message
        assert len(error.message) <= 200
    # userinfo and the fragment are not requested, so they do not count
    assert read_url("https://example.org/#" + "\u00e9" * 2000).url() == prefix


def test_the_bound_is_configurable():
    assert rejected("https://example.org/abc", max_length=20).detail["max"] == 20


@pytest.mark.parametrize(
    "url", ["example.com", "example.com/path", "//example.com/", "/path", "", "1http://x/", "://x"]
)
def test_a_url_without_a_scheme_is_invalid(url):
    assert_invalid(url, "no scheme")


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com\\@evil.example/",
        "https://example.com/a\\b",
        "https:\\\\example.com/",
        "https://example.com/?q=\\",
    ],
)
def test_a_backslash_anywhere_is_invalid(url):
    assert_invalid(url, "backslash")


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/a b",
        " https://example.com/",
        "https://example.com/\t",
        "https://exa\nmple.com/",
        "https://example.com/\r",
        "https://example.com/\u00a0",
        "https://example.com/\u3000",
        "https://example\u2028.com/",
        "https://example.com/\x0c",
    ],
)
def test_whitespace_anywhere_is_invalid(url):
    assert_invalid(url, "whitespace")


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/\x00",
        "https://example.com/\x7f",
        "https://exa\x01mple.com/",
        "https://example.com/\x80",
        "https://example.com/#\x1b",
    ],
)
def test_a_control_character_is_invalid(url):
    assert_invalid(url, "control character")


def test_a_lone_surrogate_is_invalid():
    assert_invalid("https://example.com/\ud800", "Unicode")


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com:0/",
        "https://example.com:65536/",
        "https://example.com:99999999999999999999/",
        "https://example.com:8o/",
        "https://example.com:-1/",
        "https://example.com:+80/",
        "https://example.com:80:80/",
        "https://example.com:\uff18\uff10/",
        "https://[::1]:0/",
    ],
)
def test_a_port_outside_1_to_65535_is_invalid(url):
    assert_invalid(url, "port")


@pytest.mark.parametrize(
    "url", ["http://", "https:///", "https://:443/", "https://user@/", "http://:80/", "https://?q"]
)
def test_an_empty_host_is_invalid(url):
    assert_invalid(url, "host is empty")


@pytest.mark.parametrize(
    "url",
    [
        "https://.example/",
        "https://a..b/",
        "https://example.com../",
        "https://./",
        "https://%2Eexample/",
    ],
)
def test_an_empty_label_is_invalid(url):
    assert_invalid(url, "empty label")


@pytest.mark.parametrize(
    "url",
    [
        "https://exa!mple.com/",
        "https://a%2Fb.example/",
        "https://a%00b.example/",
        "https://a%20b.example/",
        "https://a%5Cb.example/",
        "https://ex%zzample.com/",
        "https://exa<mple.com/",
        "https://exa*mple.com/",
        "https://a%C0%80b.example/",
        "https://ex[ample.com/",
    ],
)
def test_a_host_with_characters_a_host_name_cannot_hold_is_invalid(url):
    assert_invalid(url, "host is not a valid host name")


@pytest.mark.parametrize(
    "url",
    [
        "https://xn--/",
        "https://xn--a.example/",
        "https://xn--abc-.example/",
        "https://xn--ls8h-.example/",
        "https://\u2603.example/",
        "https://a\u200cb.example/",
        "https://\u0301a.example/",
        "https://\ufdd0.example/",
    ],
)
def test_bad_idna_is_invalid(url):
    assert_invalid(url, "host is not a valid host name")


def test_a_label_longer_than_63_and_a_name_longer_than_253_are_invalid():
    assert_invalid("https://" + "a" * 64 + ".example/", "longer than 63")
    assert read_url("https://" + "a" * 63 + ".example/").host == "a" * 63 + ".example"
    assert_invalid("https://" + ("a" * 60 + ".") * 5 + "example/", "too long")


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1/",
        "http://[1::2::3]/",
        "http://[fe80::1%25eth0]/",
        "http://[::1]x/",
        "http://[1.2.3.4]/",
        "http://[]/",
        "http://[::ffff:1.2.3.04]/",
        "http://[12345::]/",
    ],
)
def test_a_bad_ipv6_literal_is_invalid(url):
    assert_invalid(url, "IPv6")


@pytest.mark.parametrize(
    "url",
    [
        "http://1.2.3.4.5/",
        "http://256.0.0.1/",
        "http://1.2.3.256/",
        "http://0x100000000/",
        "http://4294967296/",
        "http://09.1.1.1/",
        "http://1.2.3.08/",
        "http://foo.1/",
        "http://example.0x1/",
        "http://1..2/",
    ],
)
def test_a_host_ending_in_a_number_must_be_a_valid_ipv4_address(url):
    assert_invalid(url, "IPv4")


def test_messages_never_echo_the_url_or_its_address():
    for url in ["http://10.0.0.1:0/", "http://secret-name.internal.:99999/", "http://1.2.3.4.5/"]:
        message = rejected(url).message
        assert "10.0.0.1" not in message and "secret-name" not in message
        assert "1.2.3.4" not in message


# -- IPv4 in any spelling --------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f.1/",
        "http://0x7F.0.0.1/",
        "http://127.1/",
        "http://127.0.1/",
        "http://0x7f000001/",
        "http://017700000001/",
        "http://0177.0.0.01/",
        "http://127.0.0.1./",
        "http://%31%32%37.0.0.1/",
        "http://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11/",
        "http://127\u30020\u30020\u30021/",
        "HTTP://0X7F.00.0.1/",
    ],
)
def test_ipv4_in_any_spelling_is_read_as_that_address_and_sent_dotted(url):
    read = read_url(url)
    assert read.address == ipaddress.IPv4Address("127.0.0.1")
    assert read.host == "127.0.0.1"
    assert read.url() == "http://127.0.0.1/"


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("http://134744072/", "8.8.8.8"),
        ("http://0/", "0.0.0.0"),
        ("http://0x/", "0.0.0.0"),
        ("http://10.1/", "10.0.0.1"),
        ("http://192.168.257/", "192.168.1.1"),
        ("http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254"),
        ("http://4294967295/", "255.255.255.255"),
    ],
)
def test_ipv4_spellings_of_other_addresses(url, address):
    assert read_url(url).address == ipaddress.IPv4Address(address)
    assert read_url(url).host == address


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://[::1]/", "::1"),
        ("http://[0:0:0:0:0:0:0:1]/", "::1"),
        ("http://[::FFFF:127.0.0.1]/", "::ffff:7f00:1"),
        ("http://[2001:DB8:0:0:1:0:0:1]/", "2001:db8::1:0:0:1"),
        ("http://[2001:db8:0:1:1:1:1:1]/", "2001:db8:0:1:1:1:1:1"),
        ("http://[64:ff9b::8.8.8.8]/", "64:ff9b::808:808"),
    ],
)
def test_ipv6_literals_are_read_and_serialized_as_whatwg_does(url, host):
    read = read_url(url)
    assert read.host == host
    assert read.address == ipaddress.IPv6Address(host)
    assert read.url() == f"http://[{host}]/"


# -- names: IDNA, fullwidth, trailing dot -------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://Example.COM/", "example.com"),
        ("https://example.com./", "example.com"),
        ("https://b\u00fccher.de/", "xn--bcher-kva.de"),
        ("https://B\u00dcCHER.de/", "xn--bcher-kva.de"),
        ("https://xn--bcher-kva.de/", "xn--bcher-kva.de"),
        ("https://XN--BCHER-KVA.de/", "xn--bcher-kva.de"),
        ("https://fa\u00df.de/", "xn--fa-hia.de"),
        (
            "https://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25\uff0e\uff43\uff4f\uff4d/",
            "example.com",
        ),
        ("https://example\u3002com/", "example.com"),
        ("https://ex%41mple.com/", "example.com"),
        ("https://b%C3%BCcher.de/", "xn--bcher-kva.de"),
        ("https://\u4f8b\u3048.jp/", "xn--r8jz45g.jp"),
        ("https://ex\u00adample.com/", "example.com"),
        ("https://r3---sn-abc.googlevideo.com/", "r3---sn-abc.googlevideo.com"),
        ("https://my_host.example/", "my_host.example"),
        ("https://-edge-.example/", "-edge-.example"),
        ("https://localhost/", "localhost"),
        ("https://1password.com/", "1password.com"),
    ],
)
def test_names_are_mapped_as_a_browser_maps_them(url, host):
    read = read_url(url)
    assert read.host == host
    assert read.address is None
    assert read.url() == f"https://{host}/"


# -- scheme, slashes, port, userinfo, path, query -------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "HTTPS://example.com/",
        "https:example.com",
        "https:/example.com",
        "https:///example.com",
        "https:////example.com/",
        "https://example.com",
        "https://example.com:443",
        "https://example.com:/",
        "https://example.com:00443/",
        "https://example.com/#fragment",
    ],
)
def test_spellings_of_one_https_url(url):
    assert read_url(url) == FetchURL("https", "example.com", None, 443, False, None, "/")


def test_an_explicit_port_is_kept():
    read = read_url("http://example.com:8080/x")
    assert (read.port, read.explicit_port) == (8080, True)
    assert read.url() == "http://example.com:8080/x"
    assert read_url("http://example.com:80/").explicit_port is False
    assert read_url("http://example.com:443/").url() == "http://example.com:443/"
    assert read_url("http://[::1]:8443/").url() == "http://[::1]:8443/"


@pytest.mark.parametrize(
    ("url", "userinfo"),
    [
        ("https://example.com/", None),
        ("https://@example.com/", ""),
        ("https://user@example.com/", "user"),
        ("https://user:@example.com/", "user:"),
        ("https://user:pass@example.com/", "user:pass"),
        ("https://a@b@example.com/", "a@b"),
        ("https://us%40er:p%3Ass@example.com/", "us%40er:p%3Ass"),
        ("https:user:pass@example.com/", "user:pass"),
    ],
)
def test_userinfo_is_kept_as_given_and_never_sent(url, userinfo):
    read = read_url(url)
    assert read.userinfo == userinfo
    assert read.host == "example.com"
    assert read.url() == "https://example.com/"


def test_the_host_ends_at_the_first_slash_question_mark_or_hash():
    assert read_url("https://example.com/@evil.example/").host == "example.com"
    assert read_url("https://example.com?@evil.example/").host == "example.com"
    assert read_url("https://example.com#@evil.example/").host == "example.com"
    assert read_url("https://evil.example@example.com/").host == "example.com"


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("https://example.com", "/"),
        ("https://example.com?", "/?"),
        ("https://example.com/a/./b/../c", "/a/c"),
        ("https://example.com/a/b/..", "/a/"),
        ("https://example.com/a/.", "/a/"),
        ("https://example.com/../../a", "/a"),
        ("https://example.com/a/%2e%2E/b/%2E/c/.%2e", "/b/"),
        ("https://example.com/a//../b", "/a/b"),
        ("https://example.com/.../a", "/.../a"),
        ("https://example.com/caf\u00e9?q=\u00fc&r=\u20ac", "/caf%C3%A9?q=%C3%BC&r=%E2%82%AC"),
        ("https://example.com/\U0001f600", "/%F0%9F%98%80"),
        ('https://example.com/a"<>`{}^|b', "/a%22%3C%3E%60%7B%7D%5E|b"),
        ("https://example.com/?q='\"<>`{}^|", "/?q=%27%22%3C%3E`{}^|"),
        ("https://example.com/%7e%zz?%7e%zz", "/%7e%zz?%7e%zz"),
        ("https://example.com/a?b?c/../d#e#f", "/a?b?c/../d"),
        ("https://example.com/a;b=c/d", "/a;b=c/d"),
    ],
)
def test_path_and_query_are_read_as_whatwg_does(url, target):
    assert read_url(url).target == target


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/file",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:text/html,hi",
        "mailto:someone@example.com",
        "ws://example.com/",
        "gopher://example.com:70/",
        "localhost:8080",
    ],
)
def test_other_schemes_are_read_so_the_scheme_check_can_refuse_them(url):
    read = read_url(url)
    assert read.scheme not in ("http", "https")
    assert read.host == "" and read.address is None
    with pytest.raises(ToolError) as caught:
        check_scheme(read, allow_http=False)
    assert caught.value.kind == "denied"
    assert caught.value.detail == {"reason": "scheme"}
    assert "https" in caught.value.message


def test_the_scheme_message_names_http_only_when_the_operator_allows_it():
    read = read_url("ftp://example.com/")
    with pytest.raises(ToolError) as strict:
        check_scheme(read, allow_http=False)
    with pytest.raises(ToolError) as lenient:
        check_scheme(read, allow_http=True)
    assert "https or http" in lenient.value.message
    assert "https or http" not in strict.value.message


def test_http_and_https_pass_the_scheme_check():
    check_scheme(read_url("http://example.com/"), allow_http=False)
    check_scheme(read_url("https://example.com/"), allow_http=False)


# -- literal egress ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0xa9fea9fe/",
        "http://10.1/",
        "http://0/",
        "http://[fd00:ec2::254]/",
        "http://168.63.129.16/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
    ],
)
def test_a_refused_literal_address_in_any_spelling_is_denied_egress(url):
    with pytest.raises(ToolError) as caught:
        check_egress_literal(read_url(url), EgressPolicy(), PORTS)
    assert caught.value.kind == "denied"
    assert caught.value.detail == {"reason": "egress"}


def test_a_port_that_is_not_allowed_is_denied_egress():
    with pytest.raises(ToolError) as caught:
        check_egress_literal(read_url("https://example.com:8443/"), EgressPolicy(), PORTS)
    assert caught.value.detail == {"reason": "egress"}
    assert literal_refusal(read_url("https://example.com:22/"), EgressPolicy(), PORTS) == "port"
    check_egress_literal(read_url("https://example.com:8443/"), EgressPolicy(), (443, 8443))


def test_public_literals_and_names_pass_the_literal_check():
    for url in ["https://8.8.8.8/", "https://134744072/", "https://[2606:4700::1111]/"]:
        check_egress_literal(read_url(url), EgressPolicy(), PORTS)
    check_egress_literal(read_url("https://localhost/"), EgressPolicy(), PORTS)


def test_the_literal_refusal_names_the_denial():
    policy = EgressPolicy()
    assert literal_refusal(read_url("http://0x7f.1/"), policy, PORTS) == "loopback"
    assert literal_refusal(read_url("http://169.254.169.254/"), policy, PORTS) == "metadata"
    assert literal_refusal(read_url("http://example.com/"), policy, PORTS) is None


def test_allow_networks_lets_a_literal_through():
    policy = EgressPolicy.from_cidrs(["10.0.0.0/8"])
    check_egress_literal(read_url("http://10.1.2.3/"), policy, PORTS)
    check_egress_literal(read_url("http://0x0a.1.2.3/"), policy, PORTS)
    with pytest.raises(ToolError):
        check_egress_literal(read_url("http://192.168.0.1/"), policy, PORTS)


# -- upgrade -----------------------------------------------------------------------------------


def test_upgrade_moves_the_default_port_to_443():
    upgraded = upgrade_to_https(read_url("http://example.com/a?b"))
    assert upgraded == FetchURL("https", "example.com", None, 443, False, None, "/a?b")
    assert upgraded.url() == "https://example.com/a?b"


def test_upgrade_keeps_an_explicit_port():
    upgraded = upgrade_to_https(read_url("http://example.com:8080/"))
    assert (upgraded.port, upgraded.explicit_port) == (8080, True)
    assert upgraded.url() == "https://example.com:8080/"
    assert upgrade_to_https(read_url("http://example.com:443/")).url() == "https://example.com/"


def test_upgrade_leaves_https_and_the_rest_alone():
    read = read_url("https://user@[::1]:8443/x")
    assert upgrade_to_https(read) is read
    upgraded = upgrade_to_https(read_url("http://user@[::1]/x"))
    assert (upgraded.userinfo, upgraded.address, upgraded.target) == (
        "user",
        ipaddress.IPv6Address("::1"),
        "/x",
    )


# -- one reading: the HTTP client reads the normalized URL the same way -------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://b\u00fccher.de/caf\u00e9?q=\u00fc&x='1'",
        "http://0x7f.1:8080/a/../b?c",
        "https://[::ffff:127.0.0.1]/",
        'https://example.com/a"<>`{}^|b?q="<>`{}^|',
        "https://example.com/%7e%zz?%7e%zz",
        "https://example.com?",
        "https://my_host.example/",
        "https://r3---sn-abc.googlevideo.com/videoplayback",
    ],
)
def test_httpx_reads_the_normalized_url_unchanged(url):
    read = read_url(url)
    parsed = httpx.URL(read.url())
    assert str(parsed) == read.url()
    assert parsed.raw_host.decode("ascii") == read.host
    assert parsed.port in (None, read.port)
    assert parsed.raw_path.decode("ascii") == read.target


def test_reading_the_normalized_url_again_gives_the_same_reading():
    read = read_url("HTTP://user@0x7f.1:80/a/./b/%2e%2e/caf\u00e9?q=\u00fc#f")
    assert read_url(read.url()) == FetchURL(
        read.scheme, read.host, read.address, read.port, read.explicit_port, None, read.target
    )
