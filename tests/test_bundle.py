"""The MCP Bundle: `just bundle` makes dist/rypsok-<version>.mcpb with mcpb's own CLI, and a
host's steps (unpack, resolve mcp_config for the form's values, start the command) give a
server that lists its tools.

The host's steps run in @anthropic-ai/mcpb, the library Claude Desktop loads bundles with
(tests/mcpb_host.mjs). The manifest's command is `uv run --project <bundle> rypsok serve`: uv
would first download rypsok's dependencies into the bundle's .venv. The test makes that .venv
offline instead (a fresh venv that sees the installed dependencies, and rypsok built by uv
from the bundle's own files), then runs the resolved command as is, with UV_NO_SYNC=1 so
that uv uses the .venv it finds rather than asking the index.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import tomllib
import zipfile
from pathlib import Path

import pytest
import uv
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from rypsok.config import config_from_dict
from rypsok.engines.registry import ENGINE_IDS, engine_module
from rypsok.server import tool_list
from rypsok.version import __version__
from tests import fresh_venv
from tests.mcp_harness import ROOT, write_toml

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
MCPB_PACKAGE = ROOT / ".tools" / "node_modules" / "@anthropic-ai" / "mcpb"
TOOLS = [tool.name for tool in tool_list(config_from_dict({}, env={}))]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        ["just", "bundle", str(out)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Manifest schema validation passes!" in done.stdout
    return out / f"rypsok-{__version__}.mcpb"


def host_install(bundle: Path, directory: Path, user_config: dict) -> dict:
    done = subprocess.run(
        [
            "node",
            str(ROOT / "tests" / "mcpb_host.mjs"),
            str(MCPB_PACKAGE),
            str(bundle),
            str(directory),
            json.dumps(user_config),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_bundle_holds_a_manifest_of_the_current_version_with_the_tools_and_the_keys(
    bundle, tmp_path
):
    installed = host_install(bundle, tmp_path / "bundle", {})
    manifest = installed["manifest"]
    assert manifest["manifest_version"] == installed["latest_manifest_version"]
    assert (manifest["name"], manifest["version"]) == ("rypsok", __version__)
    assert [tool["name"] for tool in manifest["tools"]] == TOOLS
    assert all(tool["description"] for tool in manifest["tools"])
    server = manifest["server"]
    assert server["type"] == "uv"
    assert (tmp_path / "bundle" / server["entry_point"]).is_file()
    for name in ("pyproject.toml", "README.md", "LICENSE", "rypsok/server.py"):
        assert (tmp_path / "bundle" / name).is_file(), name
    python_request = (tmp_path / "bundle" / ".python-version").read_text().strip()
    assert python_request.startswith(PYPROJECT["project"]["requires-python"] + ",<3.")
    icon = (tmp_path / "bundle" / manifest["icon"]).read_bytes()
    assert icon[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", icon[16:24]) == (512, 512)
    env = server["mcp_config"]["env"]
    credentials = {engine_module(e).INFO.credential_env for e in ENGINE_IDS} - {None}
    wanted = credentials | {"TAVILY_API_KEY", "EXA_API_KEY", "KAGI_API_KEY", "SERPER_API_KEY"}
    for variable in wanted:
        key = variable.lower()
        assert env[variable] == f"${{user_config.{key}}}"
        field = manifest["user_config"][key]
        assert (field["type"], field["sensitive"], field["required"]) == ("string", True, False)
        assert field["title"] and field["description"]
    assert env["RYPSOK_CONFIG"] == "${user_config.config_file}"
    assert manifest["user_config"]["config_file"]["type"] == "file"
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
    assert "manifest.json" in names and not [n for n in names if "__pycache__" in n]


@pytest.mark.anyio
async def test_the_command_a_host_resolves_starts_a_server_that_lists_its_tools(bundle, tmp_path):
    config = write_toml({"engines": {"duckduckgo": {"enabled": False}}}, tmp_path / "r.toml")
    directory = tmp_path / "Claude Extensions" / "rypsok"
    installed = host_install(
        bundle, directory, {"brave_api_key": "brave-key-from-the-form", "config_file": str(config)}
    )
    resolved = installed["mcp_config"]
    assert resolved["command"] == "uv"
    assert resolved["args"] == ["run", "--project", str(directory), "rypsok", "serve"]
    env = resolved["env"]
    assert env["BRAVE_API_KEY"] == "brave-key-from-the-form"
    assert env["RYPSOK_CONFIG"] == str(config)
    assert env["OPENALEX_API_KEY"] == "" and env["TAVILY_API_KEY"] == ""

    python = fresh_venv.create(directory / ".venv")
    uv_bin = Path(uv.find_uv_bin())
    uv_env = {"UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_OFFLINE": "1"}
    built = subprocess.run(
        [str(uv_bin), "pip", "install", "--python", str(python), "--no-deps"]
        + ["--no-build-isolation", str(directory)],
        env=fresh_venv.clean_environment(**uv_env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    assert f"+ rypsok=={__version__} (from {directory.as_uri()})" in built.stderr

    host_path = f"{uv_bin.parent}{os.pathsep}{fresh_venv.clean_environment()['PATH']}"
    params = StdioServerParameters(
        command=resolved["command"],
        args=resolved["args"],
        env={**env, **uv_env, "UV_NO_SYNC": "1", "PATH": host_path},
        cwd=str(tmp_path),
    )
    with open(tmp_path / "stderr", "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as client,
        ):
            initialized = await client.initialize()
            listed = await client.list_tools()
            status = await client.call_tool("engine_status", {})
    assert initialized.server_info.version == __version__
    assert [tool.name for tool in listed.tools] == TOOLS
    engines = {engine["id"]: engine for engine in status.structured_content["engines"]}
    assert engines["brave"]["state"] == "closed"
    assert (engines["openalex"]["state"], engines["openalex"]["reason"]) == (
        "disabled",
        "no_credential",
    )
    assert (engines["duckduckgo"]["state"], engines["duckduckgo"]["reason"]) == (
        "disabled",
        "disabled",
    )
