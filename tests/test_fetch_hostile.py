"""Hostile pages through web_fetch, against a real page server on loopback: bounded work,
an answer within the fetch's 11 s, no work left running once the call has answered, and a
NUL in text removed and counted (issue 9: items 3, 5 and 6; tools.md, web_fetch: "at most
11 s (10 s of network plus extraction)"; DECISIONS.md: in content, TAB and LF are the only
control characters kept, the others are removed and counted)."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator

import anyio
import pytest

from rypsok import errors
from rypsok.errors import ToolError
from rypsok.model import FetchResponse
from rypsok.webfetch import fetcher as fetcher_module
from rypsok.webfetch import worker as worker_module
from rypsok.webfetch.fetcher import Fetcher
from rypsok.webfetch.page import page
from rypsok.webfetch.worker import WorkerFailed, WorkerPool
from tests import busy
from tests.fetch_servers import Reply, Site, fetch_log, html, open_site, site_config

FETCH_S = 11.0  # tools.md: 10 s of network plus extraction
MARGIN_S = 0.3  # a call ends within its deadline plus 300 ms


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with open_site() as server:
        yield server


def timed_fetch(
    site: Site, path: str, backend: str = "trio", **fetch_config: object
) -> tuple[FetchResponse | ToolError, float]:
    """The answer (a response or the error) and how long the call took."""

    async def call() -> tuple[FetchResponse | ToolError, float]:
        async with Fetcher(site_config(site, **fetch_config)) as fetcher:
            started = time.monotonic()
            try:
                answer: FetchResponse | ToolError = await fetcher.fetch(
                    f"http://127.0.0.2:{site.port}{path}", 3000
                )
            except ToolError as error:
                answer = error
            return answer, time.monotonic() - started

    return anyio.run(call, backend=backend)


def fetch(site: Site, path: str, **fetch_config: object) -> FetchResponse:
    answer, _ = timed_fetch(site, path, **fetch_config)
    assert isinstance(answer, FetchResponse), answer
    return answer


def timed_error(site: Site, path: str, **kwargs: object) -> tuple[ToolError, float]:
    answer, elapsed = timed_fetch(site, path, **kwargs)  # type: ignore[arg-type]
    assert isinstance(answer, ToolError), answer
    return answer, elapsed


def notices(response: FetchResponse) -> dict[str, object]:
    return {notice.code: notice.count for notice in response.notices}


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def spy_on_children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the children that ran a call, in order (the calls themselves unchanged)."""
    pids: list[int] = []
    call = worker_module._Child.call

    def recorded(child: worker_module._Child, payload: bytes) -> tuple:
        pids.append(child.process.pid)
        return call(child, payload)

    monkeypatch.setattr(worker_module._Child, "call", recorded)
    return pids


# ---------------------------------------------------------------------------- attribute bombs

TEXT = "<p>The page text, a paragraph long enough to be read as the content of the page.</p>"


def attributes(count: int, value: str = '="v"') -> str:
    return " ".join(f"a{i}{value}" for i in range(count))


@pytest.mark.parametrize(
    "bomb",
    [
        f"<div {attributes(200_000)}>{TEXT}</div>",  # 1.9 MB: 11.06 s and deadline before
        f"<div {attributes(40_000, '')}>{TEXT}</div>",  # valueless: 13 s of parsing before
        f"{TEXT}<div>" + f"<b {attributes(300)}>x</b>" * 2000 + "</div>",  # 2000 tags over
    ],
    ids=["200k-attributes", "40k-valueless", "2000-tags-of-300"],
)
def test_an_attribute_bomb_is_read_in_time(site: Site, bomb: str) -> None:
    site.route("/bomb", html(bomb))
    response, elapsed = timed_fetch(site, "/bomb")
    assert isinstance(response, FetchResponse), response
    assert elapsed < FETCH_S
    assert "The page text, a paragraph long enough" in response.content
    assert "extraction_partial" in notices(response)


def test_a_page_past_the_attribute_bound_in_all_is_cut(site: Site) -> None:
    paragraphs = "".join(f"<p {attributes(250)}>paragraph {i}.</p>" for i in range(1000))
    site.route("/many", html(paragraphs))
    response = fetch(site, "/many", max_chars=20000)
    assert "extraction_partial" in notices(response)
    assert "paragraph 0." in response.content


# ---------------------------------------------------------------------------- NUL


def test_a_nul_in_text_is_removed_and_counted(site: Site) -> None:
    body = "<p>Three\x00 NUL\x00 characters\x00 in the text, one\ufffd real replacement.</p>"
    site.route("/nul", html(body, title="A\x00title"))
    response = fetch(site, "/nul")
    assert response.content == "Three NUL characters in the text, one\ufffd real replacement."
    assert response.title == "Atitle"
    assert notices(response) == {"characters_removed": 4}


# ---------------------------------------------------------------------------- no work after


@pytest.mark.parametrize("backend", ["trio", "asyncio"])
def test_the_work_stops_when_the_call_answers(site: Site, monkeypatch, backend: str) -> None:
    # Extraction that never ends (the worker runs tests.busy.spin instead of reading the
    # page): the call answers at its deadline, and the process that ran it is gone.
    site.route("/page", html(TEXT))
    monkeypatch.setattr(fetcher_module, "build_response", busy.spin)
    monkeypatch.setattr(fetcher_module, "EXTRACTION_S", 0.0)
    ran = spy_on_children(monkeypatch)
    error, elapsed = timed_error(site, "/page", backend=backend, timeout_ms=1500)
    assert (error.kind, error.detail) == ("unavailable", {"reason": "deadline"})
    assert elapsed < 1.5 + MARGIN_S
    assert len(ran) == 1
    assert gone(ran[0])


def test_a_cancelled_call_kills_its_extraction_child(site: Site, monkeypatch) -> None:
    # What the HTTP server does when a client cancels or hangs up (rypsok.serve_http.calls):
    # the call's scope is cancelled, and the child extracting its page dies with it.
    site.route("/page", html(TEXT))
    monkeypatch.setattr(fetcher_module, "build_response", busy.spin)
    ran = spy_on_children(monkeypatch)

    async def cancel_during_extraction() -> float:
        async with Fetcher(site_config(site)) as fetcher, anyio.create_task_group() as group:
            group.start_soon(fetcher.fetch, f"http://127.0.0.2:{site.port}/page", 3000)
            with anyio.fail_after(5):
                while not ran:
                    await anyio.sleep(0.01)
            await anyio.sleep(0.3)
            group.cancel_scope.cancel()
            cancelled_at = time.monotonic()
        with anyio.fail_after(5):
            while not gone(ran[0]):
                await anyio.sleep(0.01)
        return time.monotonic() - cancelled_at

    assert anyio.run(cancel_during_extraction, backend="trio") <= 0.1 + MARGIN_S


def slow_page(markup: str, chunks: int, every_s: float) -> Reply:
    """``markup`` sent in ``chunks`` pieces, one every ``every_s`` seconds."""
    data = markup.encode()
    size = -(-len(data) // chunks)
    return Reply(
        body=lambda: (data[i : i + size] for i in range(0, len(data), size)),
        chunk_delay_s=every_s,
    )


@pytest.mark.parametrize("extraction", ["never-ends", "200k-elements"])
def test_a_page_read_late_is_answered_within_the_bound(
    site: Site, monkeypatch, extraction: str
) -> None:
    # tools.md: web_fetch takes at most 11 s, 10 s of network (timeout_ms) plus extraction.
    # The body ends 0.6 s before the network deadline, then extraction outlasts what is
    # left (never ending, or the 200,000 elements issue 17 found answered at 11.013 s):
    # stopping the child that reads it and answering fit within timeout_ms + 1 s.
    timeout_s = 3.0
    if extraction == "never-ends":
        monkeypatch.setattr(fetcher_module, "build_response", busy.spin)
        markup = f"<html><body>{TEXT}</body></html>"
    else:
        markup = f"<html><body>{TEXT}{'<i>x</i>' * 200_000}</body></html>"
    site.route(f"/late-{extraction}", slow_page(markup, chunks=24, every_s=0.1))
    answer, elapsed = timed_fetch(
        site, f"/late-{extraction}", timeout_ms=int(timeout_s * 1000), byte_limit=10 << 20
    )
    assert elapsed < timeout_s + 1.0, elapsed
    if extraction == "never-ends" or isinstance(answer, ToolError):
        assert isinstance(answer, ToolError), answer
        assert (answer.kind, answer.detail) == ("unavailable", {"reason": "deadline"})
    else:
        assert "The page text, a paragraph long enough" in answer.content


def test_a_worker_that_dies_is_extraction_failed_with_its_trace_logged(
    site: Site, monkeypatch
) -> None:
    # The child is killed from outside as it takes the page (as the OOM killer would).
    site.route("/page", html(TEXT))
    call = worker_module._Child.call

    def killed_first(child: worker_module._Child, payload: bytes) -> tuple:
        child.process.kill()
        return call(child, payload)

    monkeypatch.setattr(worker_module._Child, "call", killed_first)
    with fetch_log() as records:
        error, _ = timed_error(site, "/page")
    assert (error.kind, error.detail) == ("unsupported_content", {"reason": "extraction_failed"})
    logged = [r for r in records if r.getMessage() == "extraction_failed"]
    assert len(logged) == 1 and logged[0].levelno == logging.ERROR
    assert "the worker process ended with status" in logged[0].fields["trace"]  # type: ignore[attr-defined]


def test_after_a_killed_call_the_next_one_is_served(site: Site, monkeypatch) -> None:
    site.route("/page", html(TEXT))
    with monkeypatch.context() as patched:
        patched.setattr(fetcher_module, "build_response", busy.spin)
        patched.setattr(fetcher_module, "EXTRACTION_S", 0.0)
        error, _ = timed_error(site, "/page", timeout_ms=500)
        assert error.detail == {"reason": "deadline"}
    assert "The page text" in fetch(site, "/page").content


# ---------------------------------------------------------------------------- the pool


def run(pool: WorkerPool, function: object, *args: object) -> object:
    async def call() -> object:
        return await pool.run(function, *args)  # type: ignore[arg-type]

    return anyio.run(call, backend="trio")


def test_a_tool_error_in_the_child_is_raised_as_it_was() -> None:
    pool = WorkerPool(preload=("rypsok.webfetch.page",))
    try:
        with pytest.raises(ToolError) as raised:
            run(pool, page, "content", 7, 500)
        expected = errors.start_char_beyond(7)
        assert (raised.value.kind, raised.value.message, raised.value.detail) == (
            expected.kind,
            expected.message,
            expected.detail,
        )
        assert run(pool, page, "content", 0, 500) == ("content", False, None)
    finally:
        pool.close()


def test_any_other_exception_in_the_child_is_worker_failed_with_its_trace() -> None:
    pool = WorkerPool()
    try:
        with pytest.raises(WorkerFailed) as raised:
            run(pool, int, "not a number")
        assert "ValueError: invalid literal for int()" in raised.value.trace
        assert run(pool, int, "12") == 12  # and the child serves on
    finally:
        pool.close()


def test_a_cancelled_call_kills_its_child() -> None:
    pool = WorkerPool()
    ran: list[int] = []

    async def call() -> None:
        child = pool._take()
        pool._keep(child)
        ran.append(child.process.pid)
        with anyio.move_on_after(0.5):
            await pool.run(busy.spin)

    try:
        anyio.run(call, backend="trio")
        assert gone(ran[0])
        assert [child.alive() for child in pool._idle] == [True]  # its replacement
    finally:
        pool.close()


def test_a_child_sent_a_big_page_is_retired_and_its_replacement_loads_meanwhile(tmp_path) -> None:
    pool = WorkerPool(retire_bytes=1000)
    go = tmp_path / "go"

    async def call() -> tuple[int, int]:
        ran: list[int] = []
        async with anyio.create_task_group() as group:

            async def big() -> None:
                ran.append(await pool.run(busy.wait_for, str(go), b"x" * 2000))

            group.start_soon(big)
            # while the child reads the big page, its replacement is already starting
            with anyio.fail_after(10):
                while not [child for child in pool._idle if child.alive()]:
                    await anyio.sleep(0.01)
            spare = pool._idle[0].process.pid
            go.touch()
        return ran[0], spare

    try:
        retired, spare = anyio.run(call, backend="trio")
        assert retired != spare
        assert gone(retired)
        assert [child.process.pid for child in pool._idle] == [spare]
        assert run(pool, int, "12") == 12  # served by the replacement
    finally:
        pool.close()


def test_a_child_that_cannot_start_is_worker_failed(monkeypatch) -> None:
    monkeypatch.setattr(worker_module.sys, "executable", "/nonexistent/python")
    pool = WorkerPool()
    pool.prepare()  # a failed start ahead of the call is not an error: the call reports it
    with pytest.raises(WorkerFailed) as raised:
        run(pool, int, "12")
    assert "no worker process could be started" in raised.value.trace
