"""web_fetch: one public page, under the egress policy and robots.txt, as bounded Markdown.

The checks run in the order DECISIONS.md sets (docs/web_fetch.md lists them): the URL's
length and syntax, max_chars, scheme, credentials, port and literal address, strict mode;
then, under one network deadline (``[fetch] timeout_ms``), resolution and connection
(judged at connect time, :mod:`rypsok.webfetch.transport`), robots.txt, the page and each
same-host redirect hop; then extraction, cleaning and paging in a child process
(:mod:`rypsok.webfetch.worker`) under a deadline of its own (what the network left, plus
1 s, less the time kept for stopping it), killed when the deadline passes.
"""

from __future__ import annotations

import contextlib
import logging
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Container, Iterator, Sequence

import anyio
import httpx

from rypsok import bounds, errors, validate
from rypsok.config import Config
from rypsok.errors import ToolError
from rypsok.hygiene.secrets import find_url_secrets, has_username_only
from rypsok.lazy import Once
from rypsok.model import FetchResponse
from rypsok.net.body import (
    ACCEPT_ENCODING,
    CLIENT_FAILURES,
    BodyTooLarge,
    BodyUndecodable,
    read_body,
)
from rypsok.net.egress import EgressPolicy
from rypsok.net.url import FetchURL, URLError, read_reference, read_url, upgrade_to_https
from rypsok.observability import telemetry
from rypsok.progress import NO_PROGRESS, Progress
from rypsok.version import USER_AGENT
from rypsok.webfetch.page import (
    HTML_TYPES,
    NO_CONTENT_STATUSES,
    TEXT_TYPES,
    RawPage,
    build_response,
    is_whole_range,
    media_type_of,
    retry_after_ms,
)
from rypsok.webfetch.policy import check_scheme, literal_refusal
from rypsok.webfetch.resolver import ResolutionFailed, Resolver, SystemResolver
from rypsok.webfetch.robots import (
    DISALLOW_ALL,
    MAX_ROBOTS_BYTES,
    MAX_ROBOTS_REDIRECTS,
    UNREADABLE_REDIRECT,
    RobotsCache,
    RobotsRules,
    rules_for_answer,
)
from rypsok.webfetch.transport import EgressRefused, VettedBackend, VettedTransport
from rypsok.webfetch.worker import WorkerFailed, WorkerPool

log = logging.getLogger("rypsok.webfetch")

EXTRACTION_S = bounds.FETCH_EXTRACTION_S
STOP_RESERVE_S = bounds.FETCH_STOP_RESERVE_S
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ACCEPT = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,*/*;q=0.1"

# The children that read pages, shared by every Fetcher of the process (like a thread pool).
_READERS = WorkerPool(preload=("rypsok.webfetch.page",))
TLS_CONTEXT: Once[ssl.SSLContext] = Once(lambda: httpx.create_ssl_context(trust_env=False))
"""The TLS context of every Fetcher not given one (loading the CA bundle takes tens of ms)."""


@contextlib.contextmanager
def _network_errors(upgraded: bool) -> Iterator[None]:
    """Transport failures as answers: every cause of an unreachable site is ``network``.

    ``upgraded``: the request is an http URL tried over https, so a failure to connect is
    the https attempt failing (denied scheme, the second message).
    """
    try:
        yield
    except (EgressRefused, ResolutionFailed):
        raise errors.network() from None
    except httpx.ConnectError:
        raise (errors.https_upgrade_failed() if upgraded else errors.network()) from None
    except httpx.TimeoutException:
        raise errors.fetch_deadline() from None
    except (*CLIENT_FAILURES, BodyUndecodable):
        # A lost connection, a body cut short (shorter than its Content-Length, or a
        # compressed stream without its end) or corrupt: the page was not retrieved.
        raise errors.network() from None


WasReturned = Callable[[Sequence[str]], Awaitable[bool]]
"""Whether web_search returned any of these URLs (strict mode asks; the Client's state
answers, shared by every replica under ``[state]``)."""


def returned_in(urls: Container[str]) -> WasReturned:
    """A :data:`WasReturned` over a plain set of URLs."""

    async def was_returned(candidates: Sequence[str]) -> bool:
        return any(url in urls for url in candidates)

    return was_returned


class Fetcher:
    """``async with Fetcher(config) as fetcher: await fetcher.fetch(url)``; raises ToolError."""

    def __init__(
        self,
        config: Config,
        *,
        resolver: Resolver | None = None,
        ssl_context: ssl.SSLContext | None = None,
        was_returned: WasReturned | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._config = config.fetch
        self._policy = EgressPolicy.from_cidrs(self._config.allow_networks)
        self._was_returned = was_returned or returned_in(())
        self._allow_prefixes = [p for p in map(_prefix, self._config.allow_urls) if p is not None]
        self._robots = RobotsCache(clock)
        context = ssl_context or TLS_CONTEXT.get_sync()
        self._backend = VettedBackend(self._policy, resolver or SystemResolver())
        self._transport = VettedTransport(self._backend, context)
        self._headers = httpx.Headers(
            {"User-Agent": USER_AGENT, "Accept": ACCEPT, "Accept-Encoding": ACCEPT_ENCODING}
        )

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._transport.aclose()

    def prepare(self) -> None:
        """Start a child to read pages unless one is idle: the first fetch then does not
        wait, within its deadline, for the child to load the extraction's modules."""
        _READERS.prepare()

    async def fetch(
        self,
        url: str,
        max_chars: int | None = None,
        start_char: int = 0,
        *,
        since: float | None = None,
        progress: Progress = NO_PROGRESS,
    ) -> FetchResponse:
        """The page at ``url``: ``max_chars`` characters of its content from ``start_char``
        (``max_chars`` None: web_fetch's default). The arguments are checked here as the tool
        checks them (:func:`rypsok.validate.fetch_arguments`), since a Fetcher also serves
        callers that did not go through the tool. ``since`` (anyio time): when the call
        began, if ``timeout_ms`` (and so the call's bound, ``timeout_ms`` + 1 s) is to count
        from then rather than from the checks before the first request. ``progress`` hears of
        each stage: robots.txt, the response's headers, the body's bytes as they arrive, and
        extraction."""
        if max_chars is None:
            max_chars = bounds.default_max_chars(self._config.max_chars)
        try:
            return await self._fetch(url, max_chars, start_char, since, progress)
        except ToolError as exc:
            reason = exc.detail.get("reason")
            if exc.kind == "denied" and reason != "egress":
                log.warning("refused", extra={"fields": {"denial": reason}})
            raise

    async def _fetch(
        self, url: str, max_chars: int, start_char: int, since: float | None, progress: Progress
    ) -> FetchResponse:
        target, max_chars, start_char = validate.fetch_arguments(
            url, max_chars, start_char, self._config.max_chars
        )
        check_scheme(target, self._config.allow_http)
        self._check_credentials(url, target)
        self._check_egress(target)
        await self._check_strict(url, target)
        upgraded = target.scheme == "http" and not self._config.allow_http
        if upgraded:
            target = upgrade_to_https(target)
            self._check_egress(target)

        _READERS.prepare()  # a child to read the page starts while the network part runs
        started = anyio.current_time() if since is None else since
        # Extraction may use what the network left of timeout_ms, plus one second: a big
        # page read quickly is not refused for taking a second to extract. At the deadline
        # the child reading the page is killed, so no work outlives the call; killing it
        # and answering take time too, kept back from that second so that the answer comes
        # within timeout_ms + 1 s of the call's start (tools.md: at most 11 s).
        network_deadline = started + self._config.timeout_ms / 1000
        answer_deadline = network_deadline + EXTRACTION_S - STOP_RESERVE_S
        raw: RawPage | None = None
        with anyio.CancelScope(deadline=network_deadline):
            raw = await self._retrieve(target, upgraded, progress)
        if raw is None:
            raise errors.fetch_deadline()

        response: FetchResponse | None = None
        with (
            anyio.CancelScope(deadline=answer_deadline),
            telemetry.span("web_fetch extraction") as span,
        ):
            await progress.step("extracting the main content")
            span.set_attribute("rypsok.bytes", len(raw.body))
            try:
                response = await _READERS.run(build_response, raw, start_char, max_chars)
            except WorkerFailed as failure:
                log.error("extraction_failed", extra={"fields": {"trace": failure.trace}})
                span.set_attribute("rypsok.outcome", "extraction_failed")
                raise errors.extraction_failed() from None
            span.set_attribute("rypsok.outcome", "ok")
        if response is None:
            raise errors.fetch_deadline()
        return response

    # Checks before any request.

    def _check_credentials(self, url: str, target: FetchURL) -> None:
        found = find_url_secrets(url)
        if found:
            first = min(found, key=lambda s: s.start)
            raise errors.secret_in_url(first.kind, first.start)
        if has_username_only(url) or target.userinfo:
            raise errors.credential_in_url()

    def _check_egress(self, target: FetchURL) -> None:
        """A literal address the policy refuses, or a port not allowed: denied egress, logged
        with the address block's name (or ``port``)."""
        denial = literal_refusal(target, self._policy, self._config.ports)
        if denial is not None:
            log.warning("refused", extra={"fields": {"denial": denial}})
            raise errors.egress_denied()

    async def _check_strict(self, url: str, target: FetchURL) -> None:
        if not self._config.strict:
            return
        if await self._was_returned([url, target.url()]):
            return
        for prefix in self._allow_prefixes:
            if _origin(prefix) == _origin(target) and target.target.startswith(prefix.target):
                return
        raise errors.strict_mode_denied()

    # The network part, under the fetch deadline.

    async def _retrieve(self, target: FetchURL, upgraded: bool, progress: Progress) -> RawPage:
        """robots.txt, the page, and same-host redirects (or any, when configured)."""
        redirects = 0
        while True:
            await self._check_robots(target, upgraded)
            await progress.step("robots.txt read: the page is allowed")
            with _network_errors(upgraded):
                async with self._get(target) as response:
                    await progress.step(f"response headers: status {response.status_code}")
                    location = _redirect_location(response)
                    if location is None:
                        return await self._read_page(target, response, progress)
            redirects += 1
            upgraded = False
            hop = self._redirect_hop(target, location)
            if hop.host != target.host and self._config.follow_redirects != "any":
                await self._judge_name(hop)
                raise errors.redirected(hop.url())
            if redirects > self._config.max_redirects:
                raise errors.too_many_redirects(self._config.max_redirects)
            target = hop

    @contextlib.asynccontextmanager
    async def _get(self, target: FetchURL) -> AsyncIterator[httpx.Response]:
        """One GET, sent on the transport itself: no client layer reads a redirect's Location
        (each one is judged by :meth:`_redirect_hop` with rypsok's own URL reader), and no
        cookie is kept or sent. No timeout either: the fetch deadline's cancel scope bounds it."""
        request = httpx.Request("GET", target.url(), headers=self._headers)
        with telemetry.span("web_fetch request") as span:
            response = await self._transport.handle_async_request(request)
            span.set_attribute("rypsok.status", response.status_code)
        try:
            yield response
        finally:
            await response.aclose()

    def _redirect_hop(self, current: FetchURL, location: str) -> FetchURL:
        """The redirect's target, judged like a URL the caller sent: one that cannot be read
        is ``network`` (the site's fault, answered as a target that cannot be reached), a
        refused scheme ``scheme``, a refused literal or port ``egress``."""
        try:
            hop = read_reference(current.url(), location)
        except URLError:
            raise errors.unreadable_redirect() from None
        if hop.userinfo:
            raise errors.network()
        self._check_hop_scheme(hop)
        self._check_egress(hop)
        return hop

    def _check_hop_scheme(self, hop: FetchURL) -> None:
        """A redirect target must be https, or http where the operator allows it: a redirect
        is not upgraded, since the site chose plain http on purpose."""
        check_scheme(hop, self._config.allow_http)
        if hop.scheme == "http" and not self._config.allow_http:
            raise errors.scheme_not_allowed(self._config.allow_http)

    async def _judge_name(self, hop: FetchURL) -> None:
        """A redirect to another host is returned only when that host passes the egress
        policy; a name that does not, or does not resolve, is ``network`` (the same answer
        either way, so a redirect cannot reveal which internal names exist)."""
        with _network_errors(upgraded=False):
            await self._backend.judged_addresses(hop.host, hop.port)

    async def _read_page(
        self, target: FetchURL, response: httpx.Response, progress: Progress
    ) -> RawPage:
        status = response.status_code
        if status >= 400:
            raise errors.http_status(status, retry_after_ms(response.headers.get("retry-after")))
        if not 200 <= status < 300:
            raise errors.network()
        if status in NO_CONTENT_STATUSES:
            raise errors.extraction_failed()
        if status == 206 and not is_whole_range(response.headers.get("content-range")):
            raise errors.partial_content()
        media_type, charset = media_type_of(response.headers.get("content-type"))
        if media_type not in HTML_TYPES and media_type not in TEXT_TYPES:
            raise errors.unsupported_media_type(media_type)
        try:
            with telemetry.span("web_fetch body") as span:
                body = await read_body(
                    response,
                    self._config.byte_limit,
                    received=progress.body_bytes if progress.wanted else None,
                )
                span.set_attribute("rypsok.bytes", len(body))
        except BodyTooLarge:
            raise errors.too_large(self._config.byte_limit) from None
        await progress.body_bytes(len(body), done=True)
        return RawPage(target.url(), media_type, charset, body)

    # robots.txt

    async def _check_robots(self, target: FetchURL, upgraded: bool) -> None:
        origin = _origin(target)
        rules = self._robots.get(origin)
        if rules is None:
            with telemetry.span("web_fetch robots.txt"):
                rules = await self._read_robots(target, upgraded)
            self._robots.put(origin, rules)
        if not rules.allows(target.url()):
            raise errors.robots_denied(redirect_unreadable=rules.redirect_unreadable)

    async def _read_robots(self, target: FetchURL, upgraded: bool) -> RobotsRules:
        """RFC 9309 with DECISIONS.md: a site that cannot be reached at all is ``network``
        (or the failed https attempt); any later failure (a redirect beyond five, to a
        refused address or one that cannot be reached, a connection lost, a body cut short
        or corrupt, a redirect whose target cannot be read) makes robots.txt unreachable,
        which disallows (RFC 9309 section 2.3.1.4). A redirect to a scheme other than
        http(s) is ``denied`` ``scheme``, as for the page's own redirects."""
        current = read_reference(target.url(), "/robots.txt")
        for hop in range(MAX_ROBOTS_REDIRECTS + 1):
            try:
                async with self._get(current) as response:
                    location = _redirect_location(response)
                    if location is None:
                        status, body = response.status_code, b""
                        if 200 <= status < 300:
                            body = await read_body(response, MAX_ROBOTS_BYTES, cut=True)
                        # Parsing 512 KiB takes a third of a second: not on the event loop.
                        return await anyio.to_thread.run_sync(
                            rules_for_answer, status, body, abandon_on_cancel=True
                        )
            except (EgressRefused, ResolutionFailed, httpx.ConnectError) as exc:
                if hop > 0:
                    return DISALLOW_ALL
                if upgraded and isinstance(exc, httpx.ConnectError):
                    raise errors.https_upgrade_failed() from None
                raise errors.network() from None
            except httpx.TimeoutException:
                raise errors.fetch_deadline() from None
            except (*CLIENT_FAILURES, BodyUndecodable):
                return DISALLOW_ALL
            next_hop = self._robots_hop(current, location)
            if isinstance(next_hop, RobotsRules):
                return next_hop
            current = next_hop
        return DISALLOW_ALL

    def _robots_hop(self, current: FetchURL, location: str) -> FetchURL | RobotsRules:
        """The redirect's target, or the rules when it cannot be followed: a target that
        cannot be read, a refused literal address or port (each disallows, like a 5xx). A
        scheme rypsok does not follow raises ``denied`` ``scheme``, saying it was robots.txt
        that redirected there."""
        try:
            hop = read_reference(current.url(), location)
        except URLError:
            return UNREADABLE_REDIRECT
        try:
            self._check_hop_scheme(hop)
        except ToolError:
            raise errors.robots_redirect_scheme() from None
        try:
            self._check_egress(hop)
        except ToolError:
            return DISALLOW_ALL
        return hop


def _redirect_location(response: httpx.Response) -> str | None:
    if response.status_code in REDIRECT_STATUSES:
        return response.headers.get("location") or None
    return None


def _origin(target: FetchURL) -> tuple[str, str, int]:
    return (target.scheme, target.host, target.port)


def _prefix(text: str) -> FetchURL | None:
    try:
        return read_url(text)
    except URLError:
        return None
