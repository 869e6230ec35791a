"""A fresh virtual environment that sees this interpreter's installed packages but not its
rypsok: the dependencies a user's install would download are already there, so installing
rypsok into it needs no network, and what runs is the rypsok installed into it."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import venv
from pathlib import Path

from mcp.client.stdio import get_default_environment


def create(path: Path) -> Path:
    """``python -m venv --without-pip PATH``, plus a .pth naming this interpreter's
    site-packages folders. A folder named in a .pth joins sys.path after the venv's own, and
    the .pth files inside it (an editable rypsok's finder among them) are not run."""
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(path)
    python = path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    folders = dict.fromkeys([*site.getsitepackages(), site.getusersitepackages()])
    Path(purelib, "_installed_dependencies.pth").write_text(
        "".join(f"{folder}\n" for folder in folders if Path(folder).is_dir())
    )
    return python


def pip_install(python: Path, *requirements: str) -> None:
    """This interpreter's pip installing into the venv, from no index: every dependency must
    already be visible to the venv."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", "-q"]
        + list(requirements),
        env=clean_environment(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def clean_environment(**extra: str) -> dict[str, str]:
    """What an MCP client gives a server it starts (no PYTHONPATH pointing at a checkout)."""
    return {**get_default_environment(), **extra}
