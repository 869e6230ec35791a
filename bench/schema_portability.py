"""Schema portability, in two parts.

Frameworks: seven agent frameworks' own MCP adapters (LlamaIndex, openai-agents non-strict
and strict, LangChain with and without ``convert_to_openai_tool(strict=True)``, pydantic-ai,
fastmcp, google-genai's ``mcp_to_gemini_tool``, smolagents with mcpadapt) each start
``rypsok serve`` from this checkout, load its tools and call each one with the arguments a
model sends, through the framework's own call path (its argument checks included); the
matrix says per framework how many tools loaded, how many calls were answered (not refused
by the framework nor refused by rypsok as invalid_request), and what the schema its model
sees keeps of each optional argument (its type, null, the enum, the range in the
description). The frameworks are installed from PyPI, latest versions, into two virtual
environments the script makes (``--venvs``, kept between runs): one with the MCP SDK 2,
one with mcp<2 (mcpadapt and langchain-mcp-adapters import what SDK 2 removed). Needs uv
or pip and PyPI; bench/_frameworks.py is what runs inside them.

Ajv: every tool's input and output schema compiled by Ajv in strict mode (draft-07, which
the TypeScript MCP SDK 1.x uses, and 2020-12), and the error envelope and sample responses
validated against each output schema, as strict clients do. Needs node and npm: Ajv is
installed with `npm install ajv@8` into a temporary folder; without them that part says so
and checks nothing.

    python bench/schema_portability.py [--only frameworks|ajv] [--venvs DIR]

Exits 1 if a framework loads fewer tools than rypsok lists, a call is not answered, a
converted optional argument lost its type, null, enum or the range in its description, any
schema fails to compile or any sample is refused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import _common as c

from rypsok import errors
from rypsok.config import config_from_dict
from rypsok.model import (
    EngineState,
    FetchResponse,
    Notice,
    Result,
    SearchResponse,
    StatusResponse,
)
from rypsok.server import tool_list

CONFIGS = {
    "default": {},
    "two languages, no engine_status": {
        "search": {"languages": ["de", "en"]},
        "status": {"enabled": False},
    },
}

CHECK_JS = r"""
const fs = require("fs");
const Ajv07 = require("ajv").default;
const Ajv2020 = require("ajv/dist/2020").default;
const {tools, samples} = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
let failed = 0;
for (const [draft, Ajv] of [["draft-07", Ajv07], ["2020-12", Ajv2020]]) {
  for (const tool of tools) {
    for (const which of ["inputSchema", "outputSchema"]) {
      const ajv = new Ajv({strict: true, allErrors: true});
      let line = `${draft}\t${tool.config}\t${tool.name}\t${which}\t`;
      try {
        const validate = ajv.compile(tool[which]);
        const refused = [];
        if (which === "outputSchema") {
          for (const [label, payload] of samples[tool.name]) {
            if (!validate(payload)) refused.push(`${label}: ${ajv.errorsText(validate.errors)}`);
          }
        }
        if (refused.length) { failed++; line += "FAIL\t" + refused.join("; "); }
        else line += "pass\t" + (which === "outputSchema" ? `${samples[tool.name].length} samples valid` : "compiled");
      } catch (e) { failed++; line += "FAIL\t" + e.message; }
      console.log(line);
    }
  }
}
process.exit(failed ? 1 : 0);
"""


def samples() -> dict[str, list[tuple[str, dict]]]:
    """The error envelope of each kind (detail empty, filled and null) and responses of each
    shape the model builds, optional fields present and absent."""
    envelopes = [
        ("invalid_request", errors.out_of_range("max_results", 1, 20).to_json()),
        ("denied", errors.secret_in_query("github_token", 4).to_json()),
        ("unavailable", errors.http_status(503, 2000).to_json()),
        ("redirected", errors.redirected("https://example.org/").to_json()),
        ("unsupported_content", errors.unsupported_media_type("image/png").to_json()),
        ("too_large", errors.too_large(5 * 2**20).to_json()),
        ("detail empty", {"error": {"kind": "unavailable", "message": "m", "detail": {}}}),
        ("detail null", {"error": {"kind": "unavailable", "message": "m", "detail": None}}),
    ]
    notices = [
        Notice("engine_unavailable", engine="brave", reason="rate_limited"),
        Notice("snippet_truncated", count=2),
    ]
    search = SearchResponse(
        "partial",
        notices,
        [
            Result("T", "https://example.org/a", "S", "2026-09-01", ["wikipedia"]),
            Result("T", "https://example.org/b", "S"),
        ],
    )
    status = StatusResponse(
        [EngineState("brave", "disabled", None, "no_credential"), EngineState("wiki", "open", 80)]
    )
    fetched = [
        FetchResponse("https://example.org/", "T", "# C", True, 3000, notices[1:]),
        FetchResponse("https://example.org/", "T", "# C", False, None),
    ]
    return {
        "web_search": [
            ("partial", search.to_json()),
            ("empty", SearchResponse("empty", [], []).to_json()),
            *envelopes,
        ],
        "engine_status": [("status", status.to_json()), *envelopes],
        "web_fetch": [
            ("truncated", fetched[0].to_json()),
            ("whole", fetched[1].to_json()),
            *envelopes,
        ],
    }


def tools() -> list[dict]:
    listed = []
    for label, data in CONFIGS.items():
        for tool in tool_list(config_from_dict(data, env={})):
            dumped = tool.model_dump(by_alias=True, mode="json", exclude_none=True)
            listed.append({"config": label, "name": tool.name, **dumped})
    return listed


DEFAULT_VENVS = Path(tempfile.gettempdir()) / "rypsok-bench-frameworks"
VENVS = {
    "mcp2": [
        "llama-index-tools-mcp",
        "openai-agents",
        "pydantic-ai-slim[mcp]",
        "fastmcp",
        "google-genai",
    ],
    "mcp1": [
        "mcp<2",
        "smolagents[mcp]",
        "mcpadapt",
        "langchain-mcp-adapters",
        "langchain-core",
    ],
}
"""Two environments: mcpadapt and langchain-mcp-adapters import names the MCP SDK 2
removed (``mcp.shared.context.RequestContext`` and the like), the others run on SDK 2."""
FRAMEWORKS = [
    ("llamaindex", "mcp2"),
    ("openai-agents", "mcp2"),
    ("openai-agents strict", "mcp2"),
    ("langchain", "mcp1"),
    ("langchain strict", "mcp1"),
    ("pydantic-ai", "mcp2"),
    ("fastmcp", "mcp2"),
    ("google-genai", "mcp2"),
    ("smolagents", "mcp1"),
]
DRIVER = Path(__file__).resolve().parent / "_frameworks.py"


def environment(folder: Path, packages: list[str]) -> Path | None:
    """The python of a virtual environment in ``folder`` with ``packages`` (made once)."""
    python = folder / "bin" / "python"
    if python.exists():
        return python
    uv = shutil.which("uv")
    if uv:
        steps = [
            [uv, "venv", "-q", "--python", sys.executable, str(folder)],
            [uv, "pip", "install", "-q", "--python", str(python), *packages],
        ]
    else:
        steps = [
            [sys.executable, "-m", "venv", str(folder)],
            [str(python), "-m", "pip", "install", "-q", *packages],
        ]
    for step in steps:
        run = subprocess.run(step, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"# {' '.join(step[:3])} failed: {run.stderr.strip()[-500:]}")
            shutil.rmtree(folder, ignore_errors=True)
            return None
    return python


def parameter_view(prop: dict[str, Any]) -> dict[str, Any]:
    """What a converted property says, whatever the framework's dialect: the non-null
    types, whether null is allowed, the enum (null left out) and the description."""
    branches = [prop, *prop.get("anyOf", []), *prop.get("any_of", [])]
    types, null = set(), bool(prop.get("nullable"))
    for branch in branches:
        kinds = branch.get("type")
        for kind in kinds if isinstance(kinds, list) else [kinds]:
            if kind is None:
                continue
            if str(kind).lower() == "null":
                null = True
            else:
                types.add(str(kind).lower())
    enum = next((b["enum"] for b in branches if "enum" in b), None)
    return {
        "types": types,
        "null": null,
        "enum": [value for value in enum if value is not None] if enum else None,
        "description": prop.get("description") or "",
    }


def judged(original: dict[str, Any], converted: dict[str, Any] | None) -> list[str]:
    """What a framework lost of an input schema's arguments ([] if nothing)."""
    if converted is None:
        return ["not loaded"]
    properties = converted.get("properties", converted)
    lost = []
    for name, source in original["properties"].items():
        if name not in properties:
            lost.append(f"{name}: gone")
            continue
        want, got = parameter_view(source), parameter_view(properties[name])
        if not got["types"] <= want["types"] or not got["types"]:
            lost.append(f"{name}: type {sorted(got['types']) or 'none'}")
        if want["null"] and not got["null"]:
            lost.append(f"{name}: null")
        if want["enum"] and got["enum"] != want["enum"]:
            lost.append(f"{name}: enum")
        if (bound := stated_range(source)) and bound not in got["description"]:
            lost.append(f"{name}: range in description")
    return lost


def stated_range(prop: dict[str, Any]) -> str:
    """The range rypsok's schema gives a property, as its description writes it ("" if none)."""
    typed = next((b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"), prop)
    for pair in (("minimum", "maximum"), ("minLength", "maxLength")):
        if bounds := [str(typed[key]) for key in pair if key in typed]:
            return " to ".join(bounds)
    return ""


def frameworks(venvs: Path) -> bool:
    pythons = {name: environment(venvs / name, packages) for name, packages in VENVS.items()}
    listed = {tool.name: tool.input_schema for tool in tool_list(config_from_dict({}, env={}))}
    server = {
        "command": sys.executable,
        "args": ["-m", "rypsok", "serve"],
        "env": {"PYTHONPATH": str(c.ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    }
    rows, details, good = [], [], True
    for framework, venv in FRAMEWORKS:
        python = pythons[venv]
        if python is None:
            rows.append([framework, "-", "not installed", "-", "-"])
            good = False
            continue
        run = subprocess.run(
            [str(python), str(DRIVER), framework, json.dumps(server)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        try:
            found = json.loads(run.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            found = {"error": run.stderr.strip()[-300:]}
        if "error" in found:
            rows.append([framework, "-", "FAILED", "-", found["error"][:120]])
            good = False
            continue
        tools = found["tools"]
        loaded = sum(tools.get(name, {}).get("schema") is not None for name in listed)
        outcomes = [outcome for tool in tools.values() for outcome in tool["calls"]]
        answered = sum(outcome == "answered" for outcome in outcomes)
        lost = [
            f"{name}.{item}"
            for name, schema in listed.items()
            for item in judged(schema, tools.get(name, {}).get("schema"))
        ]
        loose = [name for name, tool in tools.items() if tool.get("strict") is False]
        if framework.endswith("strict") and loose:
            # openai-agents keeps a property-less object strict only with
            # additionalProperties: false, the boolean google-genai cannot read: engine_status
            # (no arguments) is the one tool it serves non-strict, by choice (docs/install.md)
            argumentless = [name for name in loose if not listed[name]["properties"]]
            lost += [f"{name}: non-strict" for name in loose if name not in argumentless]
            notes = [f"{name} non-strict (no arguments)" for name in argumentless]
        else:
            notes = []
        good &= loaded == len(listed) and answered == len(outcomes) and not lost
        rows.append(
            [
                framework,
                found["version"],
                f"{loaded} of {len(listed)}",
                f"{answered} of {len(outcomes)}",
                "; ".join(lost or ["type, null, enum, range in description", *notes]),
            ]
        )
        details += [
            [framework, name, outcome]
            for name, tool in tools.items()
            for outcome in tool["calls"]
            if outcome != "answered"
        ]
    c.table(["framework", "version", "tools loaded", "calls answered", "kept (or lost)"], rows)
    for framework, name, outcome in details:
        print(f"# {framework} {name}: {outcome}")
    return good


def ajv() -> bool:
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        print("# Ajv skipped: node or npm is not on PATH, nothing was checked")
        return True
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        installed = subprocess.run(
            [npm, "install", "--silent", "--no-audit", "--no-fund", "ajv@8"],
            cwd=work,
            capture_output=True,
            text=True,
        )
        if installed.returncode != 0:
            print(f"# Ajv skipped: npm install ajv@8 failed: {installed.stderr.strip()[:300]}")
            return True
        version = json.loads((work / "node_modules/ajv/package.json").read_text())["version"]
        print(f"# ajv {version}, node {subprocess.check_output([node, '--version'], text=True)}")
        (work / "check.js").write_text(CHECK_JS)
        (work / "input.json").write_text(json.dumps({"tools": tools(), "samples": samples()}))
        run = subprocess.run(
            [node, "check.js", "input.json"], cwd=work, capture_output=True, text=True
        )
    rows = [line.split("\t") for line in run.stdout.splitlines()]
    c.table(["draft", "config", "tool", "schema", "result", "detail"], rows)
    if run.stderr.strip():
        print(run.stderr.strip())
    passed = sum(row[4] == "pass" for row in rows)
    print(f"# {passed} of {len(rows)} schema compilations passed")
    return run.returncode == 0 and bool(rows)


def main() -> int:
    options = c.arguments(
        __doc__.splitlines()[0],
        only=(str, "", "run one part: frameworks or ajv"),
        venvs=(Path, DEFAULT_VENVS, "where the frameworks' virtual environments are kept"),
    )
    c.header("schema portability", "python bench/schema_portability.py")
    good = True
    if options.only in ("", "frameworks"):
        print("\n## frameworks: each one's own MCP adapter loads and calls every tool")
        good &= frameworks(options.venvs)
    if options.only in ("", "ajv"):
        print("\n## Ajv strict mode")
        good &= ajv()
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
