"""The distribution: `python -m build` makes an sdist and, from it, a wheel; both pass `twine
check`, the sdist holds every file the wheel is built from, and the wheel installed into a
fresh venv gives a `rypsok` that prints its version and lists its tools over stdio.

The build runs without isolation (its requirement, setuptools, is in the dev extra) and the
install from no index (the venv sees the installed dependencies: tests/fresh_venv.py), so
the test needs no network.
"""

from __future__ import annotations

import email
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from rypsok.config import config_from_dict
from rypsok.server import tool_list
from rypsok.version import __version__
from tests import fresh_venv
from tests.mcp_harness import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# Every module, and the instruction-like scorer's weights (package data).
PACKAGE_FILES = sorted(
    path.relative_to(ROOT).as_posix()
    for path in (ROOT / "rypsok").rglob("*")
    if path.is_file() and "__pycache__" not in path.parts
)


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    built = {path.suffix: path for path in out.iterdir()}
    assert sorted(path.name for path in built.values()) == [
        f"rypsok-{__version__}-py3-none-any.whl",
        f"rypsok-{__version__}.tar.gz",
    ]
    return {"wheel": built[".whl"], "sdist": built[".gz"]}


def test_the_version_has_one_source():
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "rypsok.version.__version__"
    dev = PYPROJECT["project"]["optional-dependencies"]["dev"]
    assert set(PYPROJECT["build-system"]["requires"]) <= set(dev)
    assert {"build>=1.2", "twine>=6.1"} <= set(dev)


def test_both_pass_twine_check_and_the_sdist_holds_what_the_wheel_needs(dists):
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, dists.values())],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2

    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = wheel.namelist()
        metadata = email.message_from_bytes(wheel.read(f"rypsok-{__version__}.dist-info/METADATA"))
        entry_points = wheel.read(f"rypsok-{__version__}.dist-info/entry_points.txt").decode()
    assert sorted(name for name in names if name.startswith("rypsok/")) == PACKAGE_FILES
    assert "rypsok/py.typed" in names  # PEP 561: type checkers read the library's hints
    assert f"rypsok-{__version__}.dist-info/licenses/LICENSE" in names
    assert metadata["Version"] == __version__
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Requires-Python"] == PYPROJECT["project"]["requires-python"]
    runtime = [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r]
    assert len(runtime) == len(PYPROJECT["project"]["dependencies"])
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert "rypsok = rypsok.__main__:main" in entry_points

    prefix = f"rypsok-{__version__}/"
    with tarfile.open(dists["sdist"]) as sdist:
        held = {name.removeprefix(prefix) for name in sdist.getnames()}
    assert set(PACKAGE_FILES) <= held
    assert {"pyproject.toml", "README.md", "LICENSE", "PKG-INFO"} <= held


@pytest.mark.anyio
async def test_the_wheel_in_a_fresh_venv_prints_its_version_and_lists_its_tools(dists, tmp_path):
    python = fresh_venv.create(tmp_path / "venv")
    fresh_venv.pip_install(python, str(dists["wheel"]))
    rypsok = python.parent / "rypsok"
    env = fresh_venv.clean_environment()
    version = subprocess.run(
        [str(rypsok), "--version"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert (version.returncode, version.stdout) == (0, f"rypsok {__version__}\n")
    imported = subprocess.run(
        [str(python), "-c", "import rypsok; print(rypsok.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert Path(imported.stdout.strip()).is_relative_to(tmp_path / "venv")

    params = StdioServerParameters(
        command=str(rypsok), args=["serve"], env={"HOME": str(tmp_path)}, cwd=tmp_path
    )
    async with (
        stdio_client(params, errlog=sys.stderr) as (read, write),
        ClientSession(read, write) as client,
    ):
        initialized = await client.initialize()
        listed = await client.list_tools()
    assert initialized.server_info.version == __version__
    expected = [tool.name for tool in tool_list(config_from_dict({}, env={}))]
    assert [tool.name for tool in listed.tools] == expected
