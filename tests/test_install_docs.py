"""The install instructions: client configs that work without the venv on the app's PATH.

A desktop app starts the server with its own sparse environment, so every config the README
and docs/install.md show names its command by an absolute path, and the ``python -P -m``
form they recommend starts from any working directory.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.conftest import config_data
from tests.engine_servers import json_play
from tests.mcp_harness import ROOT, write_toml

JSON_BLOCK = re.compile(r"```json\n(.*?)```", re.DOTALL)
ABSOLUTE = re.compile(r"^(/|\$\{workspaceFolder\}/|[A-Z]:\\)")


def client_configs(path: str) -> list[dict]:
    return [json.loads(block) for block in JSON_BLOCK.findall((ROOT / path).read_text())]


def servers(config: dict) -> dict:
    return config.get("mcpServers") or config["servers"]


def test_every_client_config_names_its_command_by_an_absolute_path():
    configs = client_configs("README.md") + client_configs("docs/install.md")
    assert len(configs) >= 4
    for config in configs:
        for server in servers(config).values():
            assert ABSOLUTE.match(server["command"]), server
            assert server["args"][-1] == "serve" or "serve" in server["args"], server


def test_install_page_covers_each_client_and_each_way_and_the_readme_links_it():
    readme = (ROOT / "README.md").read_text()
    setup = "python3 -m venv .venv && . .venv/bin/activate\npython -m pip install -U pip && "
    assert setup + "pip install -e '.[dev]'\n" in readme
    assert 'rypsok probe "' in readme and "`just test`" in readme
    assert "](docs/install.md)" in readme
    page = (ROOT / "docs/install.md").read_text()
    for needle in [
        "claude_desktop_config.json",
        "~/.cursor/mcp.json",
        ".vscode/mcp.json",
        "pipx install .",
        "uvx --from",
        "-P",
    ]:
        assert needle in page, needle
    bundle = page.index("## The one-click way: the MCP Bundle")
    assert bundle < page.index("just bundle") < page.index("### 1. A virtual environment")
    assert bundle == page.index("\n## ") + 1  # the first section
    assert "Why the `uv` server type, not `python`" in page
    vscode = [config for config in client_configs("docs/install.md") if "servers" in config]
    assert vscode and all(
        server["type"] == "stdio" for config in vscode for server in config["servers"].values()
    )


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "sh", "version": "0"},
    },
}
LINES = [
    INITIALIZE,
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def first_answers(argv: list[str], cwd) -> tuple[list[dict], str]:
    """Start ``argv`` as a desktop app would (sparse environment), send the three lines of
    docs/install.md and read until tools/list is answered or the output ends."""
    env = {"HOME": str(cwd), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    answers = []
    try:
        process.stdin.write("".join(json.dumps(line) + "\n" for line in LINES))
        process.stdin.flush()
        for line in process.stdout:
            answers.append(json.loads(line))
            if answers[-1].get("id") == 2:
                break
        process.stdin.close()
        process.wait(timeout=30)
    finally:
        process.kill()
    return answers, process.stderr.read()


def test_python_dash_p_starts_from_a_folder_that_shadows_a_dependency(tmp_path):
    (tmp_path / "attrs.py").write_text("raise ImportError('a stray attrs.py in the cwd')\n")
    answers, _ = first_answers([sys.executable, "-P", "-m", "rypsok", "serve"], tmp_path)
    assert [answer["id"] for answer in answers] == [1, 2]
    assert [tool["name"] for tool in answers[1]["result"]["tools"]] == [
        "web_search",
        "engine_status",
        "web_fetch",
    ]
    shadowed, stderr = first_answers([sys.executable, "-m", "rypsok", "serve"], tmp_path)
    assert shadowed == [] and "a stray attrs.py in the cwd" in stderr


PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def test_the_readme_library_program_runs_as_written(engines, tmp_path):
    """The library section's program, run as a file would be, with the configuration it
    reads from $RYPSOK_CONFIG pointing at engines on loopback."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Use it as a library") :]
    (program,) = PYTHON_BLOCK.findall(section[: section.index("\n## ")])
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    # a new process's first search loads its modules under the deadline: room for a busy machine
    data = config_data(engines, {"github", "stackexchange"}, search={"deadline_ms": 20_000})
    config = write_toml(data, tmp_path / "c.toml")
    (tmp_path / "search.py").write_text(program)
    done = subprocess.run(
        [sys.executable, "search.py"],
        cwd=tmp_path,
        env={"HOME": str(tmp_path), "PYTHONPATH": str(ROOT), "RYPSOK_CONFIG": str(config)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "ok"
    assert lines[1] == "tokio-rs/tokio https://github.com/tokio-rs/tokio", lines
    assert len(lines[1:]) >= 5 + 2  # five results, then an engine per line
    assert "github closed" in lines and "brave disabled" in lines
