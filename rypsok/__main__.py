"""The command line: serve (the default), probe, fetch, status.

The arguments and the configuration are checked before anything that serving needs loads
(Trio, the mcp SDK, Hypercorn), so a refusal costs a fraction of a start.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rypsok.config import Config, ConfigError, load_config
from rypsok.engines.base import CATEGORIES, TIME_RANGES
from rypsok.observability.log import LEVELS, setup_logging, terminal_level
from rypsok.version import __version__

if TYPE_CHECKING:
    from rypsok.serve_http.plan import Plan

EXIT_CONFIG = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rypsok",
        description="Web search and fetch for AI agents over MCP.",
        epilog="Without a command, rypsok serves MCP on stdio. Options such as --config go "
        "after the command: rypsok probe --config PATH QUERY. Exit status: 0 done, 1 the "
        "tool answered an error, 2 a bad configuration or usage, 130 Ctrl-C.",
    )
    parser.add_argument("--version", action="version", version=f"rypsok {__version__}")
    sub = parser.add_subparsers(dest="command")

    def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--config", metavar="PATH", help="the TOML configuration file")
        p.add_argument(
            "--log-level",
            choices=LEVELS,
            help="log at this level and above (serve: the configured level; "
            "probe, fetch, status: warning, or the configured level if higher)",
        )
        return p

    serve = with_config(sub.add_parser("serve", help="run the MCP server on stdio (the default)"))
    serve.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="serve Streamable HTTP at /mcp instead of stdio (default host 127.0.0.1)",
    )
    probe = with_config(
        sub.add_parser("probe", help="one search, each engine drawn against the deadline")
    )
    probe.add_argument("query", help="what to search for, as web_search's query")
    probe.add_argument("--category", choices=CATEGORIES, help="default: general")
    probe.add_argument("--language", help="one of [search] languages; default: the first")
    probe.add_argument("--time-range", choices=TIME_RANGES, help="default: any time")
    probe.add_argument(
        "--max-results", type=int, metavar="N", help="default: 5 (or the configured ceiling)"
    )
    probe.add_argument(
        "--engines",
        metavar="ID,ID",
        help="ask only these engines (comma-separated ids), each with its configuration",
    )
    probe.add_argument("--json", action="store_true", help="print the report as JSON")
    fetch = with_config(sub.add_parser("fetch", help="print one page as Markdown"))
    fetch.add_argument("url", help="an http or https URL")
    fetch.add_argument(
        "--max-chars", type=int, metavar="N", help="default: 3000 (or the configured ceiling)"
    )
    fetch.add_argument(
        "--start-char", type=int, metavar="N", help="where to start in the content; default: 0"
    )
    fetch.add_argument(
        "--json", action="store_true", help="print the whole web_fetch response as JSON"
    )
    with_config(sub.add_parser("status", help="print engine_status"))
    return parser


async def _probe(config: Config, args: argparse.Namespace) -> int:
    from rypsok.client import Client, given
    from rypsok.probe import probe, render_text, use_colour

    arguments = given(
        query=args.query,
        category=args.category,
        language=args.language,
        time_range=args.time_range,
        max_results=args.max_results,
    )
    async with Client(config) as client:
        report = await probe(client, arguments)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(render_text(report, colour=use_colour(sys.stdout.isatty(), os.environ)))
    return 1 if report["is_error"] else 0


async def _tool(config: Config, name: str, arguments: dict[str, Any], args) -> int:
    from rypsok.client import Client, given
    from rypsok.errors import ToolError

    async with Client(config) as client:
        try:
            payload = await client.call_tool(name, given(**arguments))
        except ToolError as exc:
            print(json.dumps(exc.to_json(), ensure_ascii=False, indent=2))
            return 1
    if name == "web_fetch" and not getattr(args, "json", False):
        print(payload["content"])
    else:
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    return 0


def only_engines(config: Config, listed: str) -> Config:
    """``config`` with the engines of ``--engines`` on and every other engine off; an
    unknown id, or one that cannot run (its key is missing), is a ConfigError."""
    chosen = [part.strip() for part in listed.split(",") if part.strip()]
    if not chosen:
        raise ConfigError("--engines", "name at least one engine")
    engines = dict(config.engines)
    for engine_id in chosen:
        if engine_id not in engines:
            known = ", ".join(engines)
            raise ConfigError("--engines", f"unknown engine {engine_id!r}; known engines: {known}")
        engine = dataclasses.replace(engines[engine_id], enabled=True)
        if engine.unusable_reason == "no_credential":
            raise ConfigError(
                "--engines", f"{engine_id} needs a key in the variable {engine.credential_env}"
            )
    for engine_id, engine in engines.items():
        engines[engine_id] = dataclasses.replace(engine, enabled=engine_id in chosen)
    return dataclasses.replace(config, engines=engines)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _serve(config: Config) -> int:
    """SIGINT and SIGTERM end the server with status 0 (rypsok.serve_stdio.pipe handles them once serving)."""
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        import trio

        from rypsok.serve_stdio.run import serve

        trio.run(serve, config)
    except* KeyboardInterrupt:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "serve"
    config: Config | None = None
    try:
        config = load_config(getattr(args, "config", None))
        if command == "probe" and args.engines is not None:
            config = only_engines(config, args.engines)
        plan = _http_plan(command, config, args)
        level = getattr(args, "log_level", None)
        if command != "serve" and level is None:
            level = terminal_level(config.log.level)
        setup_logging(config.log, level)
        stop_telemetry = _start_telemetry(config)
    except ConfigError as exc:
        if config is not None and config.source != "defaults":
            exc.read_from(config.source)  # [log] path, [server] tokens_file, ...
        print(f"rypsok: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    try:
        return _run(command, config, args, plan)
    finally:
        if stop_telemetry is not None:
            stop_telemetry()


EXIT_INTERRUPTED = 130
"""128 + SIGINT, what a shell reports for a command stopped by Ctrl-C."""


def _at_the_keyboard(run: Callable[[], int]) -> int:
    """A command at the keyboard stopped by Ctrl-C ends with EXIT_INTERRUPTED and no
    traceback (its work is cancelled as the interrupt unwinds it)."""
    try:
        return run()
    except* KeyboardInterrupt:
        print("rypsok: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


def _start_telemetry(config: Config):
    """Traces exported while the command runs, flushed as it ends; nothing loaded when off."""
    if not config.telemetry.traces_url:
        return None
    from rypsok.observability import telemetry

    return telemetry.start(config.telemetry)


def _http_plan(command: str, config: Config, args: argparse.Namespace) -> Plan | None:
    """The team server's checked plan when serving over HTTP, else None; raises ConfigError."""
    listen = getattr(args, "http", None)  # (no subcommand: no --http)
    if command != "serve" or not (listen or config.server.listen):
        return None
    from rypsok.serve_http.plan import prepare

    return prepare(config, listen)


def _run(command: str, config: Config, args: argparse.Namespace, plan: Plan | None) -> int:
    import trio

    if plan is not None:
        from rypsok.serve_http.run import serve

        trio.run(serve, config, plan)
        return 0
    if command == "serve":
        return _serve(config)
    if command == "probe":
        return _at_the_keyboard(lambda: trio.run(_probe, config, args))
    if command == "fetch":
        arguments = {"url": args.url, "max_chars": args.max_chars, "start_char": args.start_char}
        return _at_the_keyboard(lambda: trio.run(_tool, config, "web_fetch", arguments, args))
    return _at_the_keyboard(lambda: trio.run(_tool, config, "engine_status", {}, args))


if __name__ == "__main__":
    sys.exit(main())
