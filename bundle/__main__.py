"""Build the MCP Bundle: ``python -m bundle MCPB OUT_DIR`` (``just bundle`` runs it).

Stages the bundle's files in ``build/bundle`` (the project as uv builds it: pyproject.toml,
README.md, LICENSE, .python-version and the rypsok package, plus the icon and a manifest.json
written from the code: the version, the tools ``tools/list`` answers, each engine's key), then
runs
``MCPB validate`` and ``MCPB pack`` to write ``OUT_DIR/rypsok-<version>.mcpb``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's rypsok, not an installed one

from rypsok.config import config_from_dict  # noqa: E402
from rypsok.engines.registry import ENGINE_IDS, engine_module  # noqa: E402
from rypsok.server import tool_list  # noqa: E402
from rypsok.version import __version__  # noqa: E402

MANIFEST_VERSION = "0.4"
"""The newest manifest version of @anthropic-ai/mcpb (LATEST_MANIFEST_VERSION in 2.1.2), the
first with the ``uv`` server type."""

PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE")
PYTHON_REQUEST = ">=3.11,<3.14"
"""The bundle's .python-version, which uv reads: a Python the machine has within this range,
else uv downloads the newest in it, rather than the newest Python of all, for which
rypsok's compiled dependencies may not have wheels yet."""
ICON = "icon.png"
CONFIG_FILE_KEY = "config_file"

ENGINE_KEYS: dict[str, tuple[str, str]] = {
    "BRAVE_API_KEY": ("Brave Search API key", "Turns on brave and brave_news."),
    "TAVILY_API_KEY": ("Tavily API key", "Turns on tavily."),
    "EXA_API_KEY": ("Exa API key", "Turns on exa."),
    "KAGI_API_KEY": ("Kagi API key", "Turns on kagi."),
    "SERPER_API_KEY": ("Serper API key", "Turns on serper (Google results)."),
    "OPENALEX_API_KEY": ("OpenAlex API key", "Turns on openalex (free key)."),
    "GITHUB_TOKEN": ("GitHub token", "Optional: raises github's search limit."),
    "MARGINALIA_API_KEY": ("Marginalia API key", "Optional: else the shared key is sent."),
    "STACKEXCHANGE_KEY": ("Stack Exchange app key", "Optional: raises the daily quota."),
}
"""The form's title and help for each engine credential (docs/engines.md). Every
``credential_env`` an engine declares must be here; keys of engines not yet in this checkout
are harmless (rypsok reads only the variables its engines name)."""


def credential_envs() -> list[str]:
    """Every environment variable an engine reads its credential from, once each."""
    found = [engine_module(engine_id).INFO.credential_env for engine_id in ENGINE_IDS]
    return list(dict.fromkeys(env for env in found if env))


def user_config() -> dict[str, dict[str, Any]]:
    missing = [env for env in credential_envs() if env not in ENGINE_KEYS]
    if missing:
        raise SystemExit(f"bundle: no form entry for {', '.join(missing)} in ENGINE_KEYS")
    fields: dict[str, dict[str, Any]] = {}
    for env, (title, help_text) in ENGINE_KEYS.items():
        fields[env.lower()] = {
            "type": "string",
            "title": title,
            "description": f"{help_text} Sets {env}; leave empty to go without.",
            "sensitive": True,
            "required": False,
            "default": "",
        }
    fields[CONFIG_FILE_KEY] = {
        "type": "file",
        "title": "Configuration file",
        "description": (
            "A rypsok TOML file (docs/configuration.md). Empty: "
            "~/.config/rypsok/config.toml if it exists, else the defaults."
        ),
        "required": False,
        "default": "",
    }
    return fields


def manifest() -> dict[str, Any]:
    """manifest.json: an empty user_config value becomes an empty variable, which rypsok
    reads as unset (no key; no --config)."""
    env = {key: f"${{user_config.{key.lower()}}}" for key in ENGINE_KEYS}
    env["RYPSOK_CONFIG"] = f"${{user_config.{CONFIG_FILE_KEY}}}"
    tools = [
        {"name": tool.name, "description": tool.description or ""}
        for tool in tool_list(config_from_dict({}, env={}))
    ]
    return {
        "manifest_version": MANIFEST_VERSION,
        "name": "rypsok",
        "display_name": "rypsok web search and fetch",
        "version": __version__,
        "description": (
            "Web search over several engines under a hard deadline, and public pages "
            "read as Markdown."
        ),
        "long_description": (
            "web_search asks several engines at once and returns deduplicated, ranked, "
            "cleaned results within its deadline; engine_status tells which engines are "
            "healthy; web_fetch reads one public page as Markdown under an egress policy and "
            "robots.txt. Engines without a key work out of the box; the keys below turn on "
            "more."
        ),
        "author": {"name": "the rypsok authors"},
        "license": "MIT",
        "icon": ICON,
        "keywords": ["search", "web", "fetch", "markdown"],
        "server": {
            "type": "uv",
            "entry_point": "rypsok/__main__.py",
            "mcp_config": {
                "command": "uv",
                "args": ["run", "--project", "${__dirname}", "rypsok", "serve"],
                "env": env,
            },
        },
        "tools": tools,
        "compatibility": {
            "platforms": ["darwin", "win32", "linux"],
            "runtimes": {"python": ">=3.11"},
        },
        "user_config": user_config(),
    }


def stage(directory: Path) -> None:
    """The bundle's files in ``directory`` (emptied first)."""
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    for name in PROJECT_FILES:
        shutil.copy2(ROOT / name, directory / name)
    shutil.copytree(
        ROOT / "rypsok", directory / "rypsok", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy2(ROOT / "bundle" / ICON, directory / ICON)
    (directory / ".python-version").write_text(PYTHON_REQUEST + "\n")
    text = json.dumps(manifest(), indent=2, ensure_ascii=False) + "\n"
    (directory / "manifest.json").write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m bundle MCPB OUT_DIR", file=sys.stderr)
        return 2
    mcpb, out = argv
    staged = ROOT / "build" / "bundle"
    stage(staged)
    target = Path(out).resolve() / f"rypsok-{__version__}.mcpb"
    subprocess.run([mcpb, "validate", str(staged / "manifest.json")], check=True)
    subprocess.run([mcpb, "pack", str(staged), str(target)], check=True)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
