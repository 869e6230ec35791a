"""An engine's request (engines/request.py, base.http_request): its wire form held to the one
httpx's request gives, and the encodings that skip urllib's work held to urllib's."""

from __future__ import annotations

import urllib.parse

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.engines import wikipedia
from rypsok.engines.base import EngineSearch, http_request
from rypsok.engines.request import Wire
from rypsok.net.body import ACCEPT_ENCODING
from tests.engine_samples import NOW, USER_AGENT

QUERY_TEXT = st.text(
    alphabet=st.sampled_from(
        list("aZ09 +-_.~%&=#?/:@!$'()*,;[]\\\"<>^`{|}\u00e9\u65e5\u200b\x00\t\n")
    ),
    max_size=12,
) | st.text(max_size=6)


BASE_URLS = [
    "https://en.wikipedia.org/w/api.php",
    "http://127.0.0.1:8080/e/x/search",
    "https://api.example.com",
    "http://[::1]:9/a b/c%20d",
    "https://us%40er:pa%20ss@h.example/p",
    "HTTP://Example.COM:80/Up/./x/../y",
    "https://h.example:443/a/.hidden/b",
    "https://h.example/%zz/%41~!$&'()*+,;=:@[]|^\\",
    "https://bücher.example/s?",
    "https://h.example/p?q=1#frag",
    "https://h.example/{lang}/`x`",
    "http://256.1.1.1/x",
    "ftp://h.example/x",
    "https://h.example?x=1",
    "https://h.example/\u00e9t\u00e9",
]


@settings(max_examples=500)
@given(
    st.sampled_from(BASE_URLS),
    st.dictionaries(QUERY_TEXT, QUERY_TEXT, max_size=6),
    st.sampled_from(["GET", "POST"]),
)
def test_parameters_put_in_the_url_make_the_request_httpx_makes(
    base: str, params: dict[str, str], method: str
) -> None:
    try:
        expected = httpx.Request(method, base, params=params, headers={"Accept": "a/b"})
    except httpx.InvalidURL:
        with pytest.raises(httpx.InvalidURL):
            http_request(method, base, params=params, headers={"Accept": "a/b"})
        return
    made = http_request(method, base, params=params, headers={"Accept": "a/b"}).as_httpx()
    assert str(made.url) == str(expected.url)
    assert made.url.raw_path == expected.url.raw_path
    assert made.url.params.multi_items() == expected.url.params.multi_items()
    assert made.headers.raw == expected.headers.raw
    assert made.content == expected.content


HEADER_TEXT = st.text(
    alphabet=st.sampled_from(list('aZ09-_ /;="\u00e9\t')), min_size=1, max_size=8
) | st.sampled_from(["Host", "host", "Accept-Encoding", "ACCEPT-ENCODING", "Authorization"])


ASCII_HEADER_VALUE = st.text(alphabet=st.sampled_from(list("aZ09 /;=*.,()+")), max_size=12)


def wire_as_httpx_sends_it(request: httpx.Request, accept_encoding: str) -> Wire:
    """What orchestrate._send handed httpcore before engine requests had a wire form of
    their own: the httpx.Request's parts, with Accept-Encoding set and userinfo as Basic auth."""
    request.headers["Accept-Encoding"] = accept_encoding
    url = request.url
    if url.username or url.password:
        next(httpx.BasicAuth(url.username, url.password).sync_auth_flow(request))
    return Wire(
        request.method,
        url.raw_scheme,
        url.raw_host,
        url.port,
        url.raw_path,
        request.headers.raw,
        request.content,
    )


@settings(max_examples=1000)
@given(
    st.sampled_from(BASE_URLS)
    | st.sampled_from(BASE_URLS[:3])
    | st.text(max_size=30).map(lambda t: "https://h.example/" + t),
    st.dictionaries(QUERY_TEXT, QUERY_TEXT, max_size=6),
    st.dictionaries(HEADER_TEXT, HEADER_TEXT, max_size=4)
    | st.dictionaries(st.sampled_from(["User-Agent", "Accept", "X-Key"]), ASCII_HEADER_VALUE)
    | st.dictionaries(st.sampled_from(["User-Agent", "Accept"]), ASCII_HEADER_VALUE),
    st.sampled_from(["GET", "GET", "POST"]),
    st.sampled_from([{}, {}, {"json": {"q": "x"}}, {"data": {"q": "x y"}}, {"content": b"raw"}]),
)
def test_an_engine_request_goes_on_the_wire_as_httpx_would_send_it(
    base: str,
    params: dict[str, str],
    headers: dict[str, str],
    method: str,
    body: dict,
) -> None:
    """The wire form of a plain GET (read without httpx) and of any other request (read from
    httpx's request) is what httpx's request gave; a request httpx refuses is refused."""
    try:
        expected = wire_as_httpx_sends_it(
            httpx.Request(method, base, params=params, headers=headers, **body), ACCEPT_ENCODING
        )
    except (httpx.InvalidURL, UnicodeEncodeError) as exc:
        with pytest.raises(type(exc)):
            http_request(method, base, params=params, headers=headers, **body)
        return
    made = http_request(method, base, params=params, headers=dict(headers), **body)
    assert made.wire(ACCEPT_ENCODING) == expected
    assert made.wire(ACCEPT_ENCODING) == expected


def test_a_plain_get_is_sent_without_building_httpx_request() -> None:
    """The fast way is the one wikipedia's request takes (else the property above would
    hold for nothing but httpx's own way)."""
    search = EngineSearch("trio nursery", "general", 10, now=NOW, user_agent=USER_AGENT)
    assert wikipedia.build_request(wikipedia.INFO.default_endpoint, search, None).plain
    request = wikipedia.build_request(wikipedia.INFO.default_endpoint, search, None).as_httpx()
    made = http_request("GET", str(request.url), headers={"User-Agent": USER_AGENT})
    assert made.plain
    assert not http_request("POST", str(request.url), content=b"x").plain


@settings(max_examples=2000)
@given(st.dictionaries(QUERY_TEXT | st.text(), QUERY_TEXT | st.text(), min_size=1, max_size=6))
def test_parameters_are_encoded_as_urlencode_encodes_them(params: dict[str, str]) -> None:
    made = http_request("GET", "https://h.example/p", params=params)
    assert made.url == "https://h.example/p?" + urllib.parse.urlencode(params)


@settings(max_examples=2000)
@given(QUERY_TEXT | st.text() | st.sampled_from(["Python (programming language)", "C++", "a/b:c"]))
def test_an_article_url_is_encoded_as_quote_encodes_it(title: str) -> None:
    path = urllib.parse.quote(title.replace(" ", "_"), safe=";@$!*(),/~:")
    assert wikipedia._article_url("en", title) == f"https://en.wikipedia.org/wiki/{path}"
