"""The egress policy: every special-purpose block, embedded IPv4, metadata, allow_networks."""

from __future__ import annotations

import ipaddress

import pytest

from rypsok.net.egress import EgressPolicy

POLICY = EgressPolicy()


def ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(text)


# (block, denial name, an address inside, addresses just outside that are public)
IPV4_REGISTRY = [
    ("0.0.0.0/8", "this_network", "0.1.2.3", ["1.0.0.0"]),
    ("10.0.0.0/8", "private", "10.20.30.40", ["9.255.255.255", "11.0.0.0"]),
    ("100.64.0.0/10", "shared", "100.100.1.1", ["100.63.255.255", "100.128.0.0"]),
    ("127.0.0.0/8", "loopback", "127.0.0.1", ["126.255.255.255", "128.0.0.0"]),
    ("169.254.0.0/16", "link_local", "169.254.1.1", ["169.253.255.255", "169.255.0.0"]),
    ("172.16.0.0/12", "private", "172.31.255.255", ["172.15.255.255", "172.32.0.0"]),
    ("192.0.0.0/24", "protocol_assignment", "192.0.0.100", ["191.255.255.255", "192.0.1.0"]),
    ("192.0.0.0/29", "protocol_assignment", "192.0.0.1", []),
    ("192.0.0.8/32", "protocol_assignment", "192.0.0.8", []),
    ("192.0.0.9/32", "anycast", "192.0.0.9", []),
    ("192.0.0.10/32", "anycast", "192.0.0.10", []),
    ("192.0.0.170/32", "protocol_assignment", "192.0.0.170", []),
    ("192.0.0.171/32", "protocol_assignment", "192.0.0.171", []),
    ("192.0.2.0/24", "documentation", "192.0.2.1", ["192.0.1.255", "192.0.3.0"]),
    ("192.31.196.0/24", "as112", "192.31.196.1", ["192.31.195.255", "192.31.197.0"]),
    ("192.52.193.0/24", "amt", "192.52.193.1", ["192.52.192.255", "192.52.194.0"]),
    ("192.88.99.0/24", "deprecated", "192.88.99.1", ["192.88.98.255", "192.88.100.0"]),
    ("192.88.99.2/32", "anycast", "192.88.99.2", []),
    ("192.168.0.0/16", "private", "192.168.1.1", ["192.167.255.255", "192.169.0.0"]),
    ("192.175.48.0/24", "as112", "192.175.48.6", ["192.175.47.255", "192.175.49.0"]),
    ("198.18.0.0/15", "benchmarking", "198.19.255.255", ["198.17.255.255", "198.20.0.0"]),
    ("198.51.100.0/24", "documentation", "198.51.100.7", ["198.51.99.255", "198.51.101.0"]),
    ("203.0.113.0/24", "documentation", "203.0.113.9", ["203.0.112.255", "203.0.114.0"]),
    ("224.0.0.0/4", "multicast", "239.255.255.250", ["223.255.255.255"]),
    ("240.0.0.0/4", "reserved", "250.1.2.3", []),
    ("255.255.255.255/32", "broadcast", "255.255.255.255", []),
]

IPV6_REGISTRY = [
    ("::1/128", "loopback", "::1", []),
    ("::/128", "unspecified", "::", []),
    ("64:ff9b:1::/48", "nat64_local", "64:ff9b:1::808:808", []),
    ("100::/64", "discard", "100::1", []),
    ("100:0:0:1::/64", "dummy", "100:0:0:1::1", []),
    ("2001::/23", "protocol_assignment", "2001:100::1", ["2000:ffff:ffff:ffff::1", "2001:200::1"]),
    ("2001::/32", "teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2", []),
    ("2001:1::1/128", "anycast", "2001:1::1", []),
    ("2001:1::2/128", "anycast", "2001:1::2", []),
    ("2001:1::3/128", "anycast", "2001:1::3", []),
    ("2001:2::/48", "benchmarking", "2001:2::1", []),
    ("2001:3::/32", "amt", "2001:3::1", []),
    ("2001:4:112::/48", "as112", "2001:4:112::1", []),
    ("2001:10::/28", "deprecated", "2001:10::1", []),
    ("2001:20::/28", "orchid", "2001:20::1", []),
    ("2001:30::/28", "drone_remote_id", "2001:30::1", []),
    ("2001:db8::/32", "documentation", "2001:db8::1", ["2001:db7:ffff::1", "2001:db9::1"]),
    (
        "2620:4f:8000::/48",
        "as112",
        "2620:4f:8000::42",
        ["2620:4f:7fff:ffff::1", "2620:4f:8001::1"],
    ),
    ("3fff::/20", "documentation", "3fff:123::1", ["3ffe:ffff::1", "3fff:1000::1"]),
    ("5f00::/16", "srv6", "5f00::1", []),
    ("fc00::/7", "unique_local", "fd12:3456::1", []),
    ("fe80::/10", "link_local", "fe80::1", []),
    ("fec0::/10", "site_local", "fec0::1", []),
    ("ff00::/8", "multicast", "ff02::1", []),
]


@pytest.mark.parametrize(("block", "name", "inside", "outside"), IPV4_REGISTRY + IPV6_REGISTRY)
def test_every_registry_block_is_refused_and_its_neighbours_are_not(block, name, inside, outside):
    network = ipaddress.ip_network(block)
    assert ip(inside) in network
    assert POLICY.refusal(ip(inside)) == name
    assert not POLICY.allows(ip(inside))
    assert POLICY.refusal(network.network_address) is not None
    assert POLICY.refusal(network.broadcast_address) is not None
    for neighbour in outside:
        assert ip(neighbour) not in network
        assert POLICY.refusal(ip(neighbour)) is None, neighbour
        assert POLICY.allows(ip(neighbour))


@pytest.mark.parametrize(
    "address",
    ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001::200e"],
)
def test_public_addresses_are_allowed(address):
    assert POLICY.refusal(ip(address)) is None


@pytest.mark.parametrize("address", ["4000::1", "8000::1", "e000::1", "1::1", "fe00::1", "1fff::1"])
def test_ipv6_outside_2000_3_is_refused(address):
    assert POLICY.refusal(ip(address)) == "not_global_unicast"


@pytest.mark.parametrize("address", ["2000::1", "3fff:ffff:ffff:ffff::1"])
def test_ipv6_at_the_edges_of_2000_3_is_allowed(address):
    assert POLICY.refusal(ip(address)) is None


@pytest.mark.parametrize(
    "address",
    [
        "169.254.169.254",
        "169.254.170.2",
        "169.254.170.23",
        "100.100.100.200",
        "168.63.129.16",
        "192.0.0.192",
        "fd00:ec2::254",
        "fd00:ec2::23",
        "fd20:ce::254",
    ],
)
def test_cloud_metadata_addresses_are_refused_as_metadata(address):
    assert POLICY.refusal(ip(address)) == "metadata"


def test_azure_wireserver_neighbours_are_public():
    assert POLICY.refusal(ip("168.63.129.15")) is None
    assert POLICY.refusal(ip("168.63.129.17")) is None


@pytest.mark.parametrize(
    ("address", "name"),
    [
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:169.254.169.254", "metadata"),
        ("::ffff:8.8.8.8", None),
        ("64:ff9b::127.0.0.1", "loopback"),
        ("64:ff9b::a9fe:a9fe", "metadata"),
        ("64:ff9b::192.168.0.1", "private"),
        ("64:ff9b::8.8.8.8", None),
        ("2002:7f00:1::1", "loopback"),
        ("2002:a00:1:1234::5", "private"),
        ("2002:a9fe:a9fe::", "metadata"),
        ("2002:808:808::1", None),
        ("2002:808:808:ffff:ffff:ffff:ffff:ffff", None),
    ],
)
def test_embedded_ipv4_is_judged_as_the_ipv4_address(address, name):
    assert POLICY.refusal(ip(address)) == name


@pytest.mark.parametrize("address", ["::8.8.8.8", "::7f00:1", "::1.2.3.4", "::ffff"])
def test_ipv4_compatible_is_refused(address):
    assert POLICY.refusal(ip(address)) == "ipv4_compatible"


def test_teredo_is_refused_even_when_it_carries_a_public_address():
    # 2001:0:<server>:<flags>:<port>:<obfuscated client>; the client here is 8.8.8.8.
    assert POLICY.refusal(ip("2001:0:4136:e378:8000:63bf:f7f7:f7f7")) == "teredo"


def test_scoped_ipv6_addresses_are_judged_without_raising():
    assert POLICY.refusal(ipaddress.IPv6Address("fe80::1%eth0")) == "link_local"
    assert POLICY.refusal(ipaddress.IPv6Address("fd00:ec2::254%2")) == "metadata"


def test_allow_networks_exempts_refused_addresses():
    policy = EgressPolicy.from_cidrs(["10.0.0.0/8", "fd00::/8", "169.254.169.254/32"])
    assert policy.refusal(ip("10.1.2.3")) is None
    assert policy.refusal(ip("fd00::1")) is None
    assert policy.refusal(ip("169.254.169.254")) is None
    assert policy.refusal(ip("192.168.1.1")) == "private"
    assert policy.refusal(ip("fc00::1")) == "unique_local"
    assert policy.refusal(ip("169.254.169.253")) == "link_local"
    assert policy.refusal(ip("127.0.0.1")) == "loopback"


def test_allow_networks_covers_the_embedded_forms_of_an_allowed_ipv4_network():
    policy = EgressPolicy.from_cidrs(["10.0.0.0/8"])
    assert policy.refusal(ip("::ffff:10.1.2.3")) is None
    assert policy.refusal(ip("64:ff9b::10.1.2.3")) is None
    assert policy.refusal(ip("2002:a01:203::1")) is None
    assert policy.refusal(ip("::ffff:192.168.0.1")) == "private"


def test_allow_networks_can_name_an_ipv6_block_outside_global_unicast():
    policy = EgressPolicy.from_cidrs(["::ffff:0:0/96"])
    assert policy.refusal(ip("::ffff:127.0.0.1")) is None
    assert EgressPolicy().refusal(ip("::ffff:127.0.0.1")) == "loopback"


def test_from_cidrs_reads_bare_addresses_masks_host_bits_and_strips_spaces():
    policy = EgressPolicy.from_cidrs([" 10.1.2.3/8 ", "192.168.5.5", "fd00::1/64"])
    assert policy.allow_networks == (
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("192.168.5.5/32"),
        ipaddress.ip_network("fd00::/64"),
    )
    assert policy.allows(ip("10.200.0.1"))
    assert policy.allows(ip("192.168.5.5"))
    assert not policy.allows(ip("192.168.5.6"))


def test_from_cidrs_rejects_text_that_is_not_a_network():
    with pytest.raises(ValueError):
        EgressPolicy.from_cidrs(["10.0.0.0/33"])
    with pytest.raises(ValueError):
        EgressPolicy.from_cidrs(["intranet"])


def test_from_cidrs_of_nothing_is_the_default_policy():
    assert EgressPolicy.from_cidrs([]) == EgressPolicy()
