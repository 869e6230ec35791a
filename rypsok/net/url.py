"""Reading a fetch URL the way a browser does (the WHATWG URL Standard), once.

The URL checks (scheme, credentials, egress, robots.txt) and the HTTP client must never
read one URL two ways, so :func:`read_url` reads it once and :meth:`FetchURL.url` gives
the normalized text that is requested: an ASCII host (IDNA-mapped name, dotted-quad
IPv4, or compressed IPv6), an explicit port only when it is not the default, and a
path and query percent-encoded as UTF-8 with dot segments resolved. httpx reads that
text back unchanged (tests/test_fetch_url.py and properties/ check it).

Stricter than a browser, on purpose: a backslash, whitespace or a control character
anywhere, port 0, an empty label, and host characters outside letters, digits, ``-``
and ``_`` are refused (URLError) instead of being repaired or passed on.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes, urljoin

import idna

from rypsok.bounds import MAX_URL_CHARS
from rypsok.net.egress import IPAddress

DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_LABEL_OCTETS = 63
MAX_NAME_OCTETS = 253

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_PORT = re.compile(r"[0-9]*")
_IPV6_TEXT = re.compile(r"[0-9A-Fa-f:.]+")
_ASCII_LABEL = re.compile(r"[a-z0-9_\-]+")
_IPV4_DIGITS = {10: re.compile(r"[0-9]+"), 8: re.compile(r"[0-7]+"), 16: re.compile(r"[0-9a-f]+")}

# WHATWG percent-encode sets (special URLs), less the C0 controls refused earlier.
_PATH_ENCODE = frozenset(' "#<>?`{}^')
_QUERY_ENCODE = frozenset(" \"#<>'")
_SINGLE_DOT = frozenset({".", "%2e"})
_DOUBLE_DOT = frozenset({"..", ".%2e", "%2e.", "%2e%2e"})


@dataclass(frozen=True)
class FetchURL:
    """One URL as read for web_fetch.

    ``host`` is what goes on the wire (and in the Host header): the IDNA-mapped name in
    lower case without a trailing dot, or the canonical IP text (IPv6 without
    brackets). ``address`` is set when the host is an IP literal, in any spelling.
    ``explicit_port`` is true when the URL names a port other than the scheme's default
    (a browser drops ``:80`` on http, so that counts as default). ``userinfo`` is the
    text before ``@`` as given, for the credential checks. ``target`` is the path and
    query. For a scheme other than http and https only ``scheme`` is read; ``host`` is
    empty, ``port`` 0 and ``target`` the rest of the URL, so that the scheme check can
    refuse it.
    """

    scheme: str
    host: str
    address: IPAddress | None
    port: int
    explicit_port: bool
    userinfo: str | None
    target: str

    def url(self) -> str:
        """The URL the HTTP client requests: no userinfo, no fragment."""
        if self.scheme not in DEFAULT_PORTS:
            return f"{self.scheme}:{self.target}"
        host = f"[{self.host}]" if isinstance(self.address, ipaddress.IPv6Address) else self.host
        port = f":{self.port}" if self.explicit_port else ""
        return f"{self.scheme}://{host}{port}{self.target}"


class URLError(ValueError):
    """A URL that cannot be read: ``why`` says what is wrong in words a caller can act on;
    ``max_length`` is set when the URL, or its percent-encoded request form (``once_encoded``),
    is longer than the bound. The edges (validation, the
    fetcher) turn it into the spec's ``invalid_request``."""

    def __init__(self, why: str, *, max_length: int | None = None, once_encoded: bool = False):
        super().__init__(why)
        self.why = why
        self.max_length = max_length
        self.once_encoded = once_encoded


def read_url(url: str, max_length: int = MAX_URL_CHARS) -> FetchURL:
    """Read ``url`` as WHATWG does, or raise URLError (also when it, or the URL requested
    from it, percent-encoded and without userinfo or fragment, is longer than
    ``max_length``, by default web_fetch's bound).

    Judges syntax only: scheme policy, credentials and egress are later checks.
    """
    if len(url) > max_length:
        raise URLError("too long", max_length=max_length)
    _check_characters(url)
    scheme, colon, rest = url.partition(":")
    if not colon or not _SCHEME.fullmatch(scheme):
        raise URLError("it has no scheme; write it as https://host/path")
    scheme = scheme.lower()
    if scheme not in DEFAULT_PORTS:
        return FetchURL(scheme, "", None, 0, False, None, rest)

    rest = rest.lstrip("/")
    authority_end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, remainder = rest[:authority_end], rest[authority_end:]
    userinfo, at, host_and_port = authority.rpartition("@")
    host_text, port_text = _split_host_and_port(host_and_port)
    host, address = _read_host(host_text)
    port, explicit = _read_port(port_text, DEFAULT_PORTS[scheme])
    read = FetchURL(
        scheme=scheme,
        host=host,
        address=address,
        port=port,
        explicit_port=explicit,
        userinfo=userinfo if at else None,
        target=_read_target(remainder),
    )
    if len(read.url()) > max_length:
        # The bound holds for the URL requested and answered with too (tools.md's output
        # bound counts 2048 characters for it); non-ASCII costs 3 to 12 characters there.
        raise URLError("too long once percent-encoded", max_length=max_length, once_encoded=True)
    return read


PLAIN_NAME = r"(?:[a-z0-9_\-]{1,63}\.)*[a-z][a-z0-9_\-]{0,62}"
"""A host name :func:`read_url` keeps as it is (as a regex): labels of lower-case letters,
digits, ``-`` and ``_``, none empty or past 63 characters, none IDNA (``xn--``, checked
apart), the last starting with a letter, so that it is no IPv4 number; no trailing dot.
The rest of a plain web URL is printable ASCII that is never percent-encoded (no
``"'<>^`{}``), so the URL requested is no longer than the URL given."""
_PLAIN_WEB_URL = re.compile(rf"https?://({PLAIN_NAME})(?:[/?#][!#-&(-;=?-\[\]_a-z|~]*)?")


def is_plain_web_url(url: str) -> bool:
    """Whether :func:`read_url` reads ``url`` as an http(s) URL whose host is a name, not
    an address, without reading it: the common case, in one C-level match (a search
    judges each result URL). False says nothing; read the URL then."""
    plain = _PLAIN_WEB_URL.fullmatch(url)
    return (
        plain is not None
        and len(url) <= MAX_URL_CHARS
        and len(plain.group(1)) <= MAX_NAME_OCTETS
        and "xn--" not in plain.group(1)
    )


def read_reference(base: str, reference: str) -> FetchURL:
    """``reference`` (a redirect's Location, relative or absolute) read against ``base`` as
    :func:`read_url` reads a URL; URLError when it cannot be read, whatever is wrong with it
    (``urljoin`` itself refuses a host in brackets that is not an IPv6 address)."""
    try:
        joined = urljoin(base, reference)
    except ValueError:
        raise URLError("the host is not a valid host name") from None
    return read_url(joined)


def upgrade_to_https(u: FetchURL) -> FetchURL:
    """The https form of an http URL; the default port 80 becomes 443, another port stays."""
    if u.scheme != "http":
        return u
    port = u.port if u.explicit_port else DEFAULT_PORTS["https"]
    return dataclasses.replace(
        u, scheme="https", port=port, explicit_port=port != DEFAULT_PORTS["https"]
    )


_ORDINARY_URL = re.compile(r"[!-\[\]-~]*")
"""Printable ASCII but the backslash: the usual URL, checked in one C-level match."""


def _check_characters(url: str) -> None:
    if _ORDINARY_URL.fullmatch(url):
        return
    for char in url:
        if char == "\\":
            raise URLError("it contains a backslash; use / in URLs")
        if char.isspace():
            raise URLError("it contains whitespace; percent-encode it (%20)")
        category = unicodedata.category(char)
        if category == "Cc":
            raise URLError("it contains a control character")
        if category == "Cs":
            raise URLError("it is not valid Unicode")


def _split_host_and_port(text: str) -> tuple[str, str | None]:
    """Split at the first ``:`` outside brackets (the WHATWG host state)."""
    inside_brackets = False
    for index, char in enumerate(text):
        if char == "[":
            inside_brackets = True
        elif char == "]":
            inside_brackets = False
        elif char == ":" and not inside_brackets:
            return text[:index], text[index + 1 :]
    return text, None


def _read_port(text: str | None, default: int) -> tuple[int, bool]:
    if not text:
        return default, False
    if not _PORT.fullmatch(text) or not 1 <= int(text) <= 65535:
        raise URLError("the port must be a number from 1 to 65535")
    port = int(text)
    return port, port != default


def _read_host(text: str) -> tuple[str, IPAddress | None]:
    if not text:
        raise URLError("the host is empty")
    if text.startswith("["):
        return _read_ipv6(text)
    try:
        decoded = unquote_to_bytes(text).decode("utf-8")
        mapped = idna.uts46_remap(decoded, std3_rules=False)
    except ValueError:
        raise URLError("the host is not a valid host name") from None
    if _ends_in_number(mapped):
        address = _parse_ipv4(mapped)
        return str(address), address
    return _domain_to_ascii(mapped), None


def _read_ipv6(text: str) -> tuple[str, IPAddress]:
    inner = text[1:-1] if text.endswith("]") else ""
    if not _IPV6_TEXT.fullmatch(inner):
        raise URLError("the host is not a valid IPv6 address")
    try:
        address = ipaddress.IPv6Address(inner)
    except ValueError:
        raise URLError("the host is not a valid IPv6 address") from None
    return ipv6_text(address), address


def ipv6_text(address: ipaddress.IPv6Address) -> str:
    """WHATWG IPv6 serialization: lower-case hex, the first longest run of 2+ zeros as ``::``."""
    value = int(address)
    pieces = [(value >> (112 - 16 * i)) & 0xFFFF for i in range(8)]
    best_start, best_length = -1, 1
    index = 0
    while index < 8:
        end = index
        while end < 8 and pieces[end] == 0:
            end += 1
        if end - index > best_length:
            best_start, best_length = index, end - index
        index = max(end, index + 1)
    if best_start < 0:
        return ":".join(f"{p:x}" for p in pieces)
    head = ":".join(f"{p:x}" for p in pieces[:best_start])
    tail = ":".join(f"{p:x}" for p in pieces[best_start + best_length :])
    return f"{head}::{tail}"


def _ends_in_number(host: str) -> bool:
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    return _IPV4_DIGITS[10].fullmatch(last) is not None or _ipv4_number(last) is not None


def _ipv4_number(text: str) -> int | None:
    if not text:
        return None
    radix = 10
    if text[:2] in ("0x", "0X"):
        text, radix = text[2:], 16
    elif len(text) > 1 and text[0] == "0":
        text, radix = text[1:], 8
    if not text:
        return 0
    if not _IPV4_DIGITS[radix].fullmatch(text.lower()):
        return None
    return int(text, radix)


def _parse_ipv4(host: str) -> ipaddress.IPv4Address:
    """The WHATWG IPv4 parser: 1 to 4 parts, each decimal, octal (0...) or hex (0x...)."""
    invalid = URLError("the host is not a valid IPv4 address")
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        raise invalid
    numbers = [_ipv4_number(part) for part in parts]
    if any(n is None for n in numbers):
        raise invalid
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise invalid
    value = values[-1]
    for index, n in enumerate(values[:-1]):
        value += n * 256 ** (3 - index)
    return ipaddress.IPv4Address(value)


def _domain_to_ascii(mapped: str) -> str:
    """UTS 46 ToASCII of an already mapped name, one trailing dot dropped, labels checked."""
    labels = mapped.split(".")
    if len(labels) > 1 and labels[-1] == "":
        labels.pop()
    ascii_labels = [_label_to_ascii(label) for label in labels]
    name = ".".join(ascii_labels)
    if len(name) > MAX_NAME_OCTETS:
        raise URLError("the host name is too long")
    return name


def _invalid_host() -> URLError:
    return URLError("the host is not a valid host name")


def _label_to_ascii(label: str) -> str:
    if not label:
        raise URLError("the host has an empty label")
    if label.isascii():
        if not _ASCII_LABEL.fullmatch(label):
            raise _invalid_host()
        if label.startswith("xn--"):
            try:
                decoded = idna.ulabel(label)
            except ValueError:
                raise _invalid_host() from None
            if decoded.isascii():
                raise _invalid_host()
        encoded = label
    else:
        try:
            encoded = idna.alabel(label).decode("ascii")
        except ValueError:
            raise _invalid_host() from None
    if len(encoded) > MAX_LABEL_OCTETS:
        raise URLError("a label of the host name is longer than 63 characters")
    return encoded


def _read_target(remainder: str) -> str:
    """Path and query of a special URL: dot segments resolved, percent-encoded, no fragment."""
    before_fragment = remainder.partition("#")[0]
    path, question, query = before_fragment.partition("?")
    target = _normalize_path(path)
    if question:
        target += "?" + _percent_encode(query, _QUERY_ENCODE)
    return target


def _normalize_path(path: str) -> str:
    segments = path[1:].split("/") if path else [""]
    output: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        lowered = segment.lower()
        if lowered in _DOUBLE_DOT:
            if output:
                output.pop()
            if last:
                output.append("")
        elif lowered in _SINGLE_DOT:
            if last:
                output.append("")
        else:
            output.append(_percent_encode(segment, _PATH_ENCODE))
    return "/" + "/".join(output)


def _percent_encode(text: str, encode_set: frozenset[str]) -> str:
    if text.isascii() and not any(char in encode_set for char in text):
        return text
    return "".join(
        "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))
        if char in encode_set or ord(char) > 0x7E
        else char
        for char in text
    )
