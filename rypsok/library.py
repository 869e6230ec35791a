"""The module-level library functions: ``rypsok.search``, ``rypsok.fetch``, ``rypsok.engine_status``."""

from __future__ import annotations

from rypsok.client import Client
from rypsok.config import load_config
from rypsok.model import FetchResponse, SearchResponse, StatusResponse

_default_client: Client | None = None


def _client() -> Client:
    """One Client per process for the module-level functions, so engine health persists."""
    global _default_client
    if _default_client is None:
        _default_client = Client(load_config())
    return _default_client


async def search(
    query: str,
    *,
    category: str | None = None,
    max_results: int | None = None,
    language: str | None = None,
    time_range: str | None = None,
) -> SearchResponse:
    """web_search: ask the engines of ``category`` at once, under the deadline, and return
    their results deduplicated, ranked and cleaned.

    ``None`` for a keyword means "not given", and it takes its default:

    - ``query``: 1 to ``[search] max_query_chars`` (400) characters after trimming.
    - ``category``: ``"general"``; one of the categories the enabled engines serve
      (``general``, ``news``, ``science``, ``code``).
    - ``max_results``: 5 (or ``[search] max_results`` when lower); 1 to that ceiling.
    - ``language``: the first of ``[search] languages``; one of them.
    - ``time_range``: none; ``"day"``, ``"week"``, ``"month"`` or ``"year"``.

    Returns a SearchResponse: ``outcome`` (``ok``, ``partial`` or ``empty``), ``notices``
    and ``results`` (``title``, ``url``, ``snippet``, ``date``, ``engines``).

    Raises ToolError (``kind``, ``message``, ``detail``): ``invalid_request`` for a bad
    argument (``detail.parameter``), ``denied`` ``secret_in_query``, ``unavailable``
    (``detail.reason``: ``deadline``, ``all_failed``, ``no_engine``, ``rate_limited``,
    ``busy``). Raises ConfigError when the configuration the first call reads is bad.

    Reads the configuration once, as ``rypsok.load_config()`` does (``$RYPSOK_CONFIG``,
    else ``~/.config/rypsok/config.toml``, else the defaults); ``rypsok.Client`` takes one
    of your own. Works under Trio and asyncio; cancelling the call stops its engine
    requests."""
    return await _client().search(
        query,
        category=category,
        max_results=max_results,
        language=language,
        time_range=time_range,
    )


async def fetch(
    url: str, *, max_chars: int | None = None, start_char: int | None = None
) -> FetchResponse:
    """web_fetch: read one public page (HTML, XHTML, plain text or Markdown) as Markdown,
    under the egress policy and robots.txt.

    ``None`` for a keyword means "not given", and it takes its default:

    - ``url``: an http or https URL of at most 2048 characters (http is tried over https
      unless ``[fetch] allow_http``).
    - ``max_chars``: 3000 (or ``[fetch] max_chars`` when lower); 500 to that ceiling.
    - ``start_char``: 0; where to start in the page's content, to read it in pieces.

    Returns a FetchResponse: ``url``, ``title``, ``content``, ``truncated``,
    ``next_start_char`` (while ``truncated``) and ``notices``.

    Raises ToolError (``kind``, ``message``, ``detail``): ``invalid_request``, ``denied``
    (``detail.reason``: ``scheme``, ``egress``, ``robots_txt``, ``secret_in_url``, ...),
    ``redirected`` (to another host: ``detail.location``), ``unsupported_content`` or
    ``unavailable`` (``network``, ``http_status``, ``deadline``, ``rate_limited``,
    ``busy``). Raises ConfigError when the configuration the first call reads is bad.

    The configuration, backends and cancellation as for :func:`search`."""
    return await _client().fetch(url, max_chars=max_chars, start_char=start_char)


async def engine_status() -> StatusResponse:
    """engine_status: each engine's state, sorted by id, from memory (nothing is sent to
    an engine).

    Returns a StatusResponse whose ``engines`` each have ``id``, ``state`` (``closed``,
    ``open``, ``half_open`` or ``disabled``), ``latency_ms`` (the median of its last 20
    requests, or None) and ``reason`` (``disabled`` or ``no_credential`` when disabled).

    Raises ToolError ``unavailable`` ``rate_limited`` past ``[limits] engine_status``
    calls a minute. The configuration and backends as for :func:`search`."""
    return await _client().engine_status()
