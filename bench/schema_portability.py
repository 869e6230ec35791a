"""Schema portability, in two parts.

Converters: every tool's input schema through the two conversions agent frameworks apply,
openai-agents' strict conversion (``MCPUtil.to_function_tool`` with
``convert_schemas_to_strict``, which calls ``ensure_strict_json_schema``) and google-genai's
MCP function declarations (``mcp_to_gemini_tool``, then ``Schema.from_json_schema``),
printing per parameter what each keeps: required, null, the range keywords, the range in
the description, the default, the enum. Needs the bench extra (openai-agents, google-genai).

Ajv: every tool's input and output schema compiled by Ajv in strict mode (draft-07, which
the TypeScript MCP SDK 1.x uses, and 2020-12), and the error envelope and sample responses
validated against each output schema, as strict clients do. Needs node and npm: Ajv is
installed with `npm install ajv@8` into a temporary folder; without them that part says so
and checks nothing.

    python bench/schema_portability.py [--only converters|ajv]

Exits 1 if a converted optional parameter cannot be null, a converted bounded parameter's
description lost its range, any schema fails to compile or any sample is refused.
"""

from __future__ import annotations

import copy
import json
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


RANGE_KEYWORDS = {
    "minimum": "minimum",
    "maximum": "maximum",
    "minLength": "min_length",
    "maxLength": "max_length",
}


def stated_range(prop: dict[str, Any]) -> str:
    """The range rypsok's schema gives a property, as its description writes it ("" if none)."""
    typed = next((b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"), prop)
    for pair in (("minimum", "maximum"), ("minLength", "maxLength")):
        if bounds := [str(typed[key]) for key in pair if key in typed]:
            return " to ".join(bounds)
    return ""


def openai_strict(tool: Any) -> tuple[str, dict[str, Any] | None]:
    """What openai-agents makes of an MCP tool with ``convert_schemas_to_strict``."""
    from agents.mcp import MCPServerStdio, MCPUtil

    server = MCPServerStdio(params={"command": sys.executable, "args": []}, name="rypsok")
    converted = MCPUtil.to_function_tool(tool, server, True)
    status = "strict" if converted.strict_json_schema else "FELL BACK to non-strict"
    return status, converted.params_json_schema


def without_boolean_schemas(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {
            key: without_boolean_schemas(value)
            for key, value in schema.items()
            if not isinstance(value, bool) or key not in {"additionalProperties", "items"}
        }
    if isinstance(schema, list):
        return [without_boolean_schemas(value) for value in schema]
    return schema


def gemini_declaration(tool: Any) -> tuple[str, dict[str, Any] | None]:
    """What google-genai makes of an MCP tool: its MCP path as shipped, and, when that path
    fails on ``additionalProperties: false`` (googleapis/python-genai#2393, open), the same
    conversion with the boolean left out, as the proposed fixes do."""
    from google.genai import _mcp_utils, types

    try:
        declared = _mcp_utils.mcp_to_gemini_tool(tool).function_declarations[0].parameters
        status = "converted"
    except Exception as error:  # noqa: BLE001 - the third party's failure is the finding
        status = (
            f"MCP path FAILED ({type(error).__name__}: {error}; googleapis/python-genai#2393);"
            " rows below: the same conversion with that bug fixed"
        )
        filtered = _mcp_utils._filter_to_supported_schema(
            without_boolean_schemas(copy.deepcopy(tool.input_schema))
        )
        declared = types.Schema.from_json_schema(json_schema=types.JSONSchema(**filtered))
    return status, declared.model_dump(exclude_none=True, mode="json") if declared else None


def kept(
    converter: str, original: dict[str, Any], name: str, converted: dict[str, Any]
) -> tuple[list[str], bool]:
    """One row for parameter ``name``, and whether it keeps what rypsok needs kept."""
    prop = (converted.get("properties") or {}).get(name, {})
    source = original["properties"][name]
    optional = name not in original.get("required", [])
    branches = prop.get("anyOf", [prop])
    gemini = converter == "google-genai"
    keywords = RANGE_KEYWORDS.values() if gemini else RANGE_KEYWORDS.keys()
    ranges = sorted({key for branch in branches for key in keywords if key in branch})
    if gemini:
        null = bool(prop.get("nullable"))
    else:
        null = any(b.get("type") == "null" or "null" in (b.get("type") or []) for b in branches)
    wanted = stated_range(source)
    described = prop.get("description") or ""
    in_words = "-" if not wanted else ("yes" if wanted in described else "LOST")
    says_null = "-" if not optional else ("yes" if "null or left out" in described else "LOST")
    good = (null or not optional) and "LOST" not in (in_words, says_null)
    row = [
        name,
        "yes" if name in (converted.get("required") or []) else "no",
        ("yes" if null else "LOST") if optional else ("yes" if null else "no"),
        ",".join(ranges) or "-",
        in_words,
        says_null,
        "yes" if "default" in prop else ("-" if "default" not in source else "dropped"),
        "yes" if any("enum" in branch for branch in branches) else "-",
    ]
    return row, good


def converters() -> bool:
    try:
        import agents  # noqa: F401
        import google.genai  # noqa: F401
    except ImportError as missing:
        print(f"# converters skipped: {missing.name} is not installed (pip install -e '.[bench]')")
        return True
    from importlib.metadata import version

    print(f"# openai-agents {version('openai-agents')}, google-genai {version('google-genai')}")
    rows, statuses, good = [], [], True
    for label, data in CONFIGS.items():
        for tool in tool_list(config_from_dict(data, env={})):
            for converter, convert in (
                ("openai-agents", openai_strict),
                ("google-genai", gemini_declaration),
            ):
                status, converted = convert(tool)
                statuses.append([converter, label, tool.name, status])
                for name in tool.input_schema["properties"]:
                    row, ok = kept(converter, tool.input_schema, name, converted or {})
                    good &= ok
                    rows.append([converter, label, tool.name, *row])
    c.table(["converter", "config", "tool", "conversion"], statuses)
    print()
    c.table(
        [
            "converter",
            "config",
            "tool",
            "parameter",
            "required",
            "null",
            "range keywords",
            "range in description",
            "null in description",
            "default",
            "enum",
        ],
        rows,
    )
    optional = sum(row[5] != "no" for row in rows)
    nullable = sum(row[5] == "yes" for row in rows)
    print(f"# {nullable} of {optional} optional parameters can be null after conversion")
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
        __doc__.splitlines()[0], only=(str, "", "run one part: converters or ajv")
    )
    c.header("schema portability", "python bench/schema_portability.py")
    good = True
    if options.only in ("", "converters"):
        print("\n## converters: what each keeps of the input schemas")
        good &= converters()
    if options.only in ("", "ajv"):
        print("\n## Ajv strict mode")
        good &= ajv()
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
