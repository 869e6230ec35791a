"""Properties of the egress policy, fetch URL reading and result URL hygiene."""

from __future__ import annotations

import ipaddress

import httpx
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rypsok import errors
from rypsok.hygiene.urls import (
    TRACKING_PARAMETERS,
    canonical_key,
    is_tracking_parameter,
    strip_tracking,
)
from rypsok.net.egress import (
    EMBEDDING_BLOCKS,
    GLOBAL_UNICAST,
    IPV4_BLOCKS,
    IPV6_BLOCKS,
    METADATA_BLOCKS,
    EgressPolicy,
    IPAddress,
    IPNetwork,
    SpecialBlock,
)
from rypsok.net.url import FetchURL, URLError, read_url

REFUSED_BLOCKS: list[SpecialBlock] = [*IPV4_BLOCKS, *IPV6_BLOCKS, *METADATA_BLOCKS]


@st.composite
def networks(draw: st.DrawFn, version: int | None = None) -> IPNetwork:
    chosen = version or draw(st.sampled_from([4, 6]))
    address = draw(st.ip_addresses(v=chosen))
    prefix = draw(st.integers(0, 32 if chosen == 4 else 128))
    return ipaddress.ip_network(f"{address}/{prefix}", strict=False)


def policies(version: int | None = None) -> st.SearchStrategy[EgressPolicy]:
    return st.lists(networks(version), max_size=3).map(lambda nets: EgressPolicy(tuple(nets)))


@st.composite
def inside(draw: st.DrawFn, block: SpecialBlock) -> IPAddress:
    network = block.network
    return network.network_address + draw(st.integers(0, network.num_addresses - 1))


# -- egress -----------------------------------------------------------------------------------


@given(st.ip_addresses(), policies())
def test_refusal_never_raises_and_agrees_with_allows(address, policy):
    refusal = policy.refusal(address)
    assert refusal is None or (isinstance(refusal, str) and refusal)
    assert policy.allows(address) is (refusal is None)


@given(st.data(), policies())
def test_every_address_inside_a_refused_block_is_refused_unless_allowed(data, policy):
    block = data.draw(st.sampled_from(REFUSED_BLOCKS))
    address = data.draw(inside(block))
    exempt = any(address in network for network in policy.allow_networks)
    assert (policy.refusal(address) is None) is exempt


@given(st.integers(0, 2**128 - 1), policies(6))
def test_ipv6_outside_global_unicast_is_refused_unless_allowed(value, policy):
    address = ipaddress.IPv6Address(value)
    assume(address not in GLOBAL_UNICAST)
    assume(not any(address in block.network for block in EMBEDDING_BLOCKS))
    exempt = any(address in network for network in policy.allow_networks)
    assert (policy.refusal(address) is None) is exempt


@given(st.ip_addresses(v=4), policies(4), st.integers(0, 2**80 - 1))
def test_embedded_ipv4_forms_agree_with_the_ipv4_judgement(ipv4, policy, low_bits):
    value = int(ipv4)
    mapped = ipaddress.IPv6Address(0xFFFF_0000_0000 | value)
    nat64 = ipaddress.IPv6Address((0x64FF9B << 96) | value)
    six_to_four = ipaddress.IPv6Address((0x2002 << 112) | (value << 80) | low_bits)
    expected = policy.refusal(ipv4)
    assert policy.refusal(mapped) == expected
    assert policy.refusal(nat64) == expected
    assert policy.refusal(six_to_four) == expected


@given(st.ip_addresses(v=4))
def test_ipv4_compatible_and_teredo_are_refused_whatever_they_carry(ipv4):
    assume(int(ipv4) > 1)
    assert EgressPolicy().refusal(ipaddress.IPv6Address(int(ipv4))) == "ipv4_compatible"
    teredo = ipaddress.IPv6Address((0x2001 << 112) | (int(ipv4) ^ 0xFFFF_FFFF))
    assert EgressPolicy().refusal(teredo) == "teredo"


# -- reading fetch URLs -----------------------------------------------------------------------


@given(st.text(max_size=120))
def test_read_url_only_ever_raises_url_errors_that_map_to_invalid_request(text):
    try:
        read_url(text)
    except URLError as refused:
        error = errors.url_unreadable(refused)
        assert error.kind == "invalid_request"
        assert len(error.message) <= 200


URL_CHARS = st.sampled_from(
    list("abcxyzAZ09-._~%/?#@:[]!$&'()*+,;=\"<>`{}^|") + ["\u00e9", "\u00fc", "\u4f8b", "\uff0e"]
)
HOST_TEXTS = st.one_of(
    st.sampled_from(
        [
            "example.com",
            "EXAMPLE.com.",
            "b\u00fccher.de",
            "xn--bcher-kva.de",
            "\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45\uff0e\uff43\uff4f\uff4d",
            "ex%41mple.com",
            "my_host.example",
            "0x7f.1",
            "2130706433",
            "[::1]",
            "[::FFFF:10.0.0.1]",
            "[2001:db8::1:0:0:1]",
        ]
    ),
    st.text(st.sampled_from(list("abz09-_.%")), min_size=1, max_size=12),
)
PORT_TEXTS = st.sampled_from(["", ":", ":80", ":443", ":8080", ":00443"])
USERINFO_TEXTS = st.sampled_from(["", "@", "user@", "user:pw@", "a@b@"])


@given(
    st.sampled_from(["http", "https", "HTTP", "hTTps"]),
    st.sampled_from(["://", ":", ":/", ":///"]),
    USERINFO_TEXTS,
    HOST_TEXTS,
    PORT_TEXTS,
    st.text(URL_CHARS, max_size=40).map(
        lambda rest: rest if rest[:1] in ("", "/", "?", "#") else "/" + rest
    ),
)
def test_the_normalized_url_reads_back_the_same_and_httpx_agrees(
    scheme, slashes, userinfo, host, port, rest
):
    try:
        read = read_url(scheme + slashes + userinfo + host + port + rest)
    except URLError:
        return
    again = read_url(read.url())
    assert again == FetchURL(
        read.scheme, read.host, read.address, read.port, read.explicit_port, None, read.target
    )
    parsed = httpx.URL(read.url())
    assert str(parsed) == read.url()
    assert parsed.raw_host.decode("ascii") == read.host
    assert parsed.raw_path.decode("ascii") == read.target
    assert read.url().isascii()


@st.composite
def ipv4_spellings(draw: st.DrawFn) -> tuple[str, ipaddress.IPv4Address]:
    value = draw(st.integers(0, 2**32 - 1))
    parts = draw(st.integers(1, 4))
    octets = list(value.to_bytes(4, "big"))
    numbers = [*octets[: parts - 1], int.from_bytes(bytes(octets[parts - 1 :]), "big")]

    def spell(number: int) -> str:
        style = draw(st.sampled_from(["dec", "oct", "hex", "HEX"]))
        if style == "oct":
            return "0" + format(number, "o")
        if style == "hex":
            return "0x" + format(number, "x")
        if style == "HEX":
            return "0X" + format(number, "X")
        return str(number)

    host = ".".join(spell(n) for n in numbers) + draw(st.sampled_from(["", "."]))
    return host, ipaddress.IPv4Address(value)


@given(ipv4_spellings())
def test_every_ipv4_spelling_is_read_as_its_address(spelling):
    host, address = spelling
    read = read_url(f"http://{host}/")
    assert read.address == address
    assert read.host == str(address)


# -- result URL hygiene -----------------------------------------------------------------------

TRACKING_NAMES = st.sampled_from(sorted(TRACKING_PARAMETERS) + ["utm_new", "UTM_Source", "FBCLID"])
OTHER_NAMES = st.sampled_from(["q", "id", "page", "ref", "source", "a%5Fb", "", "x y", "utmx"])
VALUES = st.text(st.sampled_from(list("abc019%=+~é")), max_size=6)


@st.composite
def queries(draw: st.DrawFn) -> str:
    pieces = draw(
        st.lists(
            st.one_of(
                st.tuples(TRACKING_NAMES, VALUES),
                st.tuples(OTHER_NAMES, VALUES),
                st.just(("", None)),
            ),
            max_size=8,
        )
    )
    return "&".join(name if value is None else f"{name}={value}" for name, value in pieces)


def is_subsequence(short: str, long: str) -> bool:
    remaining = iter(long)
    return all(char in remaining for char in short)


@given(queries(), st.sampled_from(["", "#frag", "#a?utm_source=1", "#"]))
def test_strip_tracking_removes_every_tracking_parameter_and_keeps_the_rest(query, fragment):
    url = f"https://example.com/p?{query}{fragment}"
    stripped = strip_tracking(url)
    assert is_subsequence(stripped, url)
    assert stripped.endswith(fragment)
    head = stripped.partition("#")[0]
    kept_query = head.partition("?")[2]
    kept = [piece for piece in kept_query.split("&") if piece] if "?" in head else []
    assert not any(is_tracking_parameter(piece.partition("=")[0]) for piece in kept)
    others = [
        piece
        for piece in query.split("&")
        if piece and not is_tracking_parameter(piece.partition("=")[0])
    ]
    assert kept == others
    if not any(is_tracking_parameter(piece.partition("=")[0]) for piece in query.split("&")):
        assert stripped == url


HOSTS = st.sampled_from(["example.com", "Example.COM", "b\u00fccher.de", "sub.example.org."])
PATHS = st.text(st.sampled_from(list("abcAZ09/-._~%é")), max_size=20).map(lambda p: "/" + p)


@given(HOSTS, PATHS, queries(), st.sampled_from(["", "#x", "#"]))
@settings(max_examples=200)
def test_canonical_key_is_scheme_free_and_stable(host, path, query, fragment):
    rest = f"{host}{path}?{query}{fragment}"
    key = canonical_key("https://" + rest)
    assert canonical_key("http://" + rest) == key
    assert canonical_key("HTTPS://" + rest) == key
    assert canonical_key("https:" + key) == key
    assert canonical_key("http:" + key) == key
    assert key.startswith("//")
    assert "#" not in key


@given(HOSTS, PATHS, queries())
def test_canonical_key_ignores_tracking_parameters_and_default_ports(host, path, query):
    plain = canonical_key(f"https://{host}{path}?{query}")
    assert canonical_key(f"https://{host}:443{path}?{query}&utm_source=x") == plain
    assert canonical_key(f"http://{host}:80{path}?fbclid=1&{query}") == plain


@given(st.text(max_size=80))
def test_canonical_key_and_strip_tracking_never_raise(text):
    assert isinstance(canonical_key(text), str)
    assert is_subsequence(strip_tracking(text), text)
