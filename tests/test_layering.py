"""The import graph keeps its layers: the pure parts never reach up into the I/O shell, and the
two tools' packages stand side by side (docs/architecture.md)."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "rypsok"

# (importer prefix, imported prefixes it must not reach)
FORBIDDEN = [
    ("rypsok.hygiene", ("rypsok.metasearch", "rypsok.webfetch", "rypsok.client", "rypsok.server")),
    ("rypsok.engines", ("rypsok.metasearch", "rypsok.webfetch", "rypsok.client", "rypsok.server")),
    ("rypsok.net", ("rypsok.metasearch", "rypsok.webfetch", "rypsok.client", "rypsok.server")),
    ("rypsok.state", ("rypsok.metasearch", "rypsok.webfetch", "rypsok.client", "rypsok.server")),
    ("rypsok.serve_stdio", ("rypsok.serve_http",)),
    ("rypsok.serve_http", ("rypsok.serve_stdio.pipe", "rypsok.serve_stdio.run")),
    ("rypsok.server", ("rypsok.serve_http", "rypsok.serve_stdio.pipe", "rypsok.serve_stdio.run")),
    ("rypsok.observability", ("rypsok.metasearch", "rypsok.webfetch", "rypsok.client")),
    ("rypsok.metasearch", ("rypsok.webfetch",)),
    ("rypsok.webfetch", ("rypsok.metasearch",)),
]

# The pure rules the state keeps (breaker, windows, caches) import no store and nothing above.
PURE_STATE = ("breaker", "limits", "ttl_cache", "result_cache")
FORBIDDEN += [
    (
        f"rypsok.state.{name}",
        (
            "rypsok.state.memory",
            "rypsok.state.redis",
            "rypsok.state.fallback",
            "rypsok.metasearch",
            "rypsok.webfetch",
            "rypsok.client",
        ),
    )
    for name in PURE_STATE
]


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: pathlib.Path) -> set[str]:
    """Every rypsok module ``path`` imports, at the top or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "rypsok" or name.startswith("rypsok.")}


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_walk_sees_every_module_and_its_imports():
    names = {module_name(path) for path in MODULES}
    assert {"rypsok.client", "rypsok.server", "rypsok.hygiene.text"} <= names
    assert "rypsok.hygiene.text" in {
        name for path in MODULES if path.name == "merge.py" for name in imports_of(path)
    }


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_import_crosses_a_layer(path):
    importer = module_name(path)
    crossings = [
        (importer, imported)
        for low, high_prefixes in FORBIDDEN
        if within(importer, low)
        for imported in sorted(imports_of(path))
        for high in high_prefixes
        if within(imported, high)
    ]
    assert crossings == []


def test_no_two_modules_import_each_other():
    """No import circle between modules (package __init__ files aside, whose re-exports
    point both ways by design): a reader can take each module after the ones it uses."""
    graph = {
        module_name(path): {
            name for name in imports_of(path) if name in PLAIN_MODULES and name != module_name(path)
        }
        for path in MODULES
        if module_name(path) in PLAIN_MODULES
    }
    circles = []
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            name = todo.pop()
            if name == start:
                circles.append(start)
                break
            if name not in seen:
                seen.add(name)
                todo.extend(graph.get(name, ()))
    assert circles == []


PLAIN_MODULES = {module_name(path) for path in MODULES if path.name != "__init__.py"}


def test_the_sanitizer_loads_no_async_machinery():
    probe = (
        "import sys, rypsok.hygiene.text; "
        "print(sorted(m for m in ('anyio', 'trio', 'rypsok.client', 'rypsok.metasearch', 'rypsok.webfetch') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    )
    assert out.stdout.strip() == "[]"


# The distribution that provides each import name, where the two differ.
DISTRIBUTION_OF = {
    "ahocorasick_rs": "ahocorasick-rs",
    "jwt": "pyjwt",
    "mcp_types": "mcp-types",
    "opentelemetry": "opentelemetry-api",
    "prometheus_client": "prometheus-client",
}


def declared_dependencies() -> set[str]:
    import re
    import tomllib

    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    names = {
        re.split(r"[<>=!\[; ]", spec, maxsplit=1)[0].lower()
        for spec in project["project"]["dependencies"]
    }
    return names


def third_party_imports() -> set[str]:
    found: set[str] = set()
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module.split(".")[0])
    return {name for name in found if name != "rypsok" and name not in sys.stdlib_module_names}


def test_the_dependencies_are_exactly_what_rypsok_imports():
    imported = {DISTRIBUTION_OF.get(name, name).lower() for name in third_party_imports()}
    assert imported == declared_dependencies()
