"""The stdio server: the Client, its warm-up after the first tools/list, and the pipe."""

from __future__ import annotations

import logging

import trio

from rypsok.client import Client
from rypsok.config import Config
from rypsok.serve_stdio import pipe
from rypsok.server import build_server

log = logging.getLogger("rypsok.server")


WARM_UP_AFTER_S = 0.5
"""How long after the cue the warm-up starts. A client reads the tool list then, often lists
prompts and resources, and a host may be starting other servers: the warm-up's CPU would
slow them. A call that comes sooner loads what it needs itself, within its deadline."""


class WarmUpCue:
    """When the stdio server warms the tools up: once a tools/list or tools/call has come
    and an answer has been written since, so the warm-up's thread never competes with the
    tools/list answer for the interpreter."""

    def __init__(self) -> None:
        self._asked = False
        self.given = trio.Event()

    def asked(self) -> None:
        self._asked = True

    def written(self) -> None:
        if self._asked:
            self.given.set()


async def _warm_up(client: Client, cue: WarmUpCue) -> None:
    """Load web_search's and web_fetch's modules and make the engine pools in the background:
    a first call finds them ready."""
    await cue.given.wait()
    await trio.sleep(WARM_UP_AFTER_S)
    started = trio.current_time()
    try:
        await client.warm_up()
    except Exception:
        log.exception("warm_up_failed")
        return
    took_ms = round((trio.current_time() - started) * 1000)
    log.info("warmed_up", extra={"fields": {"ms": took_ms}})


async def serve(config: Config) -> None:
    """The stdio server. tools/list is answered before the tools' modules load: they load
    in the background after it (a call that comes first loads what it needs itself)."""
    cue = WarmUpCue()
    async with Client(config, warm=False) as client, trio.open_nursery() as nursery:
        nursery.start_soon(_warm_up, client, cue)
        server = build_server(config, client=client, on_request=cue.asked)
        await pipe.serve_stdio(server, written=cue.written)
        nursery.cancel_scope.cancel()
