"""The egress policy: which IP addresses web_fetch may connect to.

Refused: every block of the IANA IPv4 and IPv6 special-purpose address registries
(whatever their "globally reachable" column says), multicast, all IPv6 outside
2000::/3, and known cloud metadata addresses. IPv4-mapped, NAT64 (64:ff9b::/96)
and 6to4 addresses are judged by the IPv4 address they carry; IPv4-compatible
(::/96) and Teredo addresses are refused. docs/egress.md is the operator's page.

Python's ``ipaddress.is_global`` is not used: it passes several of these blocks
(see docs/egress.md), so the table below is explicit, each row with its source.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class SpecialBlock:
    """One row of the refusal table: a network, the denial's name and its source."""

    network: IPNetwork
    name: str
    source: str
    title: str


def _row(cidr: str, name: str, source: str, title: str) -> SpecialBlock:
    return SpecialBlock(ipaddress.ip_network(cidr), name, source, title)


# IANA IPv4 Special-Purpose Address Registry, every row, plus multicast (RFC 5771).
IPV4_BLOCKS: tuple[SpecialBlock, ...] = (
    _row("0.0.0.0/8", "this_network", "RFC 791 §3.2", '"This network"'),
    _row("0.0.0.0/32", "this_network", "RFC 1122 §3.2.1.3", '"This host on this network"'),
    _row("10.0.0.0/8", "private", "RFC 1918", "Private-Use"),
    _row("100.64.0.0/10", "shared", "RFC 6598", "Shared Address Space (carrier-grade NAT)"),
    _row("127.0.0.0/8", "loopback", "RFC 1122 §3.2.1.3", "Loopback"),
    _row("169.254.0.0/16", "link_local", "RFC 3927", "Link Local"),
    _row("172.16.0.0/12", "private", "RFC 1918", "Private-Use"),
    _row("192.0.0.0/24", "protocol_assignment", "RFC 6890 §2.1", "IETF Protocol Assignments"),
    _row("192.0.0.0/29", "protocol_assignment", "RFC 7335", "IPv4 Service Continuity Prefix"),
    _row("192.0.0.8/32", "protocol_assignment", "RFC 7600", "IPv4 dummy address"),
    _row("192.0.0.9/32", "anycast", "RFC 7723", "Port Control Protocol Anycast"),
    _row("192.0.0.10/32", "anycast", "RFC 8155", "Traversal Using Relays around NAT Anycast"),
    _row(
        "192.0.0.170/32", "protocol_assignment", "RFC 8880, RFC 7050 §2.2", "NAT64/DNS64 Discovery"
    ),
    _row(
        "192.0.0.171/32", "protocol_assignment", "RFC 8880, RFC 7050 §2.2", "NAT64/DNS64 Discovery"
    ),
    _row("192.0.2.0/24", "documentation", "RFC 5737", "Documentation (TEST-NET-1)"),
    _row("192.31.196.0/24", "as112", "RFC 7535", "AS112-v4"),
    _row("192.52.193.0/24", "amt", "RFC 7450", "Automatic Multicast Tunneling"),
    _row("192.88.99.0/24", "deprecated", "RFC 7526", "Deprecated (6to4 Relay Anycast)"),
    _row("192.88.99.2/32", "anycast", "RFC 6751", "6a44-relay anycast address"),
    _row("192.168.0.0/16", "private", "RFC 1918", "Private-Use"),
    _row("192.175.48.0/24", "as112", "RFC 7534", "Direct Delegation AS112 Service"),
    _row("198.18.0.0/15", "benchmarking", "RFC 2544", "Benchmarking"),
    _row("198.51.100.0/24", "documentation", "RFC 5737", "Documentation (TEST-NET-2)"),
    _row("203.0.113.0/24", "documentation", "RFC 5737", "Documentation (TEST-NET-3)"),
    _row("224.0.0.0/4", "multicast", "RFC 5771", "Multicast"),
    _row("240.0.0.0/4", "reserved", "RFC 1112 §4", "Reserved"),
    _row("255.255.255.255/32", "broadcast", "RFC 8190, RFC 919 §7", "Limited Broadcast"),
)

# IANA IPv6 Special-Purpose Address Registry, every row except the three judged by
# the IPv4 address they carry (EMBEDDING_BLOCKS), plus the refused prefixes of the
# IPv6 address space outside the registry. Everything outside 2000::/3 is refused
# as well (not_global_unicast); rows there only give the refusal a better name.
IPV6_BLOCKS: tuple[SpecialBlock, ...] = (
    _row("::/128", "unspecified", "RFC 4291", "Unspecified Address"),
    _row("::1/128", "loopback", "RFC 4291", "Loopback Address"),
    _row("::/96", "ipv4_compatible", "RFC 4291 §2.5.5.1", "IPv4-compatible (deprecated)"),
    _row("64:ff9b:1::/48", "nat64_local", "RFC 8215", "IPv4-IPv6 Translation, local use"),
    _row("100::/64", "discard", "RFC 6666", "Discard-Only Address Block"),
    _row("100:0:0:1::/64", "dummy", "RFC 9780", "Dummy IPv6 Prefix"),
    _row("2001::/23", "protocol_assignment", "RFC 2928", "IETF Protocol Assignments"),
    _row("2001::/32", "teredo", "RFC 4380, RFC 8190", "TEREDO"),
    _row("2001:1::1/128", "anycast", "RFC 7723", "Port Control Protocol Anycast"),
    _row("2001:1::2/128", "anycast", "RFC 8155", "TURN Anycast"),
    _row("2001:1::3/128", "anycast", "RFC 9665", "DNS-SD Service Registration Protocol Anycast"),
    _row("2001:2::/48", "benchmarking", "RFC 5180, RFC Errata 1752", "Benchmarking"),
    _row("2001:3::/32", "amt", "RFC 7450", "Automatic Multicast Tunneling"),
    _row("2001:4:112::/48", "as112", "RFC 7535", "AS112-v6"),
    _row("2001:10::/28", "deprecated", "RFC 4843", "Deprecated (previously ORCHID)"),
    _row("2001:20::/28", "orchid", "RFC 7343", "ORCHIDv2"),
    _row("2001:30::/28", "drone_remote_id", "RFC 9374", "Drone Remote ID Protocol Entity Tags"),
    _row("2001:db8::/32", "documentation", "RFC 3849", "Documentation"),
    _row("2620:4f:8000::/48", "as112", "RFC 7534", "Direct Delegation AS112 Service"),
    _row("3fff::/20", "documentation", "RFC 9637", "Documentation"),
    _row("5f00::/16", "srv6", "RFC 9602", "Segment Routing (SRv6) SIDs"),
    _row("fc00::/7", "unique_local", "RFC 4193, RFC 8190", "Unique-Local"),
    _row("fe80::/10", "link_local", "RFC 4291", "Link-Local Unicast"),
    _row("fec0::/10", "site_local", "RFC 3879", "Site-Local (deprecated)"),
    _row("ff00::/8", "multicast", "RFC 4291 §2.7", "Multicast"),
)

# Registry rows judged by the IPv4 address they carry rather than refused whole.
EMBEDDING_BLOCKS: tuple[SpecialBlock, ...] = (
    _row("::ffff:0:0/96", "ipv4_mapped", "RFC 4291 §2.5.5.2", "IPv4-mapped Address"),
    _row("64:ff9b::/96", "nat64", "RFC 6052", "IPv4-IPv6 Translation (well-known prefix)"),
    _row("2002::/16", "6to4", "RFC 3056", "6to4"),
)

GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")

# Instance metadata and credential services. All but Azure's lie inside refused blocks
# already; listing them names the refusal "metadata" in the operator's log.
METADATA_BLOCKS: tuple[SpecialBlock, ...] = (
    _row("169.254.169.254/32", "metadata", "AWS, GCP, Azure, OCI, OpenStack, ...", "IMDS"),
    _row("169.254.170.2/32", "metadata", "AWS ECS", "task metadata and credentials"),
    _row("169.254.170.23/32", "metadata", "AWS EKS", "Pod Identity Agent"),
    _row("169.254.42.42/32", "metadata", "Scaleway", "instance metadata"),
    _row("169.254.0.23/32", "metadata", "Tencent Cloud", "instance metadata"),
    _row("100.100.100.200/32", "metadata", "Alibaba Cloud", "instance metadata"),
    _row("192.0.0.192/32", "metadata", "Oracle Cloud (Classic)", "instance metadata"),
    _row("168.63.129.16/32", "metadata", "Azure", "WireServer / host platform"),
    _row("fd00:ec2::254/128", "metadata", "AWS", "IMDS over IPv6"),
    _row("fd00:ec2::23/128", "metadata", "AWS EKS", "Pod Identity Agent over IPv6"),
    _row("fd20:ce::254/128", "metadata", "GCP", "metadata server over IPv6"),
    _row("fd00:42::42/128", "metadata", "Scaleway", "instance metadata over IPv6"),
)


def _most_specific(address: IPAddress, blocks: Iterable[SpecialBlock]) -> SpecialBlock | None:
    best: SpecialBlock | None = None
    for block in blocks:
        if address in block.network and (
            best is None or block.network.prefixlen > best.network.prefixlen
        ):
            best = block
    return best


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 address carries."""
    value = int(address)
    if address in EMBEDDING_BLOCKS[0].network or address in EMBEDDING_BLOCKS[1].network:
        return ipaddress.IPv4Address(value & 0xFFFF_FFFF)
    if address in EMBEDDING_BLOCKS[2].network:
        return ipaddress.IPv4Address((value >> 80) & 0xFFFF_FFFF)
    return None


@dataclass(frozen=True)
class EgressPolicy:
    """Judges destination addresses; ``allow_networks`` are the operator's exemptions."""

    allow_networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def from_cidrs(cls, cidrs: Iterable[str]) -> EgressPolicy:
        """From CIDR texts ("10.0.0.0/8", "fd00::/8", or a bare address); host bits are masked."""
        return cls(tuple(ipaddress.ip_network(cidr.strip(), strict=False) for cidr in cidrs))

    def allows(self, address: IPAddress) -> bool:
        return self.refusal(address) is None

    def refusal(self, address: IPAddress) -> str | None:
        """None when ``address`` may be reached, else the denial's name (for the log)."""
        if any(address in network for network in self.allow_networks):
            return None
        metadata = _most_specific(address, METADATA_BLOCKS)
        if metadata is not None:
            return metadata.name
        if isinstance(address, ipaddress.IPv4Address):
            block = _most_specific(address, IPV4_BLOCKS)
            return None if block is None else block.name
        carried = embedded_ipv4(address)
        if carried is not None:
            return self.refusal(carried)
        block = _most_specific(address, IPV6_BLOCKS)
        if block is not None:
            return block.name
        if address not in GLOBAL_UNICAST:
            return "not_global_unicast"
        return None
