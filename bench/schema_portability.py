"""Schema portability: every tool's input and output schema compiled by Ajv in strict mode
(draft-07, which the TypeScript MCP SDK 1.x uses, and 2020-12), and the error envelope and
sample responses validated against each output schema, as strict clients do.

    python bench/schema_portability.py [--quick]

Needs node and npm: Ajv is installed with `npm install ajv@8` into a temporary folder. Prints
one line per schema and validator and exits 1 if any schema fails to compile or any sample
is refused. Without node or npm it says so and exits 0 (nothing was checked).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

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


def main() -> int:
    c.arguments(__doc__.splitlines()[0])
    c.header("schema portability: Ajv strict mode", "python bench/schema_portability.py")
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        print("# skipped: node or npm is not on PATH, nothing was checked")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        installed = subprocess.run(
            [npm, "install", "--silent", "--no-audit", "--no-fund", "ajv@8"],
            cwd=work,
            capture_output=True,
            text=True,
        )
        if installed.returncode != 0:
            print(f"# skipped: npm install ajv@8 failed: {installed.stderr.strip()[:300]}")
            return 0
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
    return 0 if run.returncode == 0 and rows else 1


if __name__ == "__main__":
    sys.exit(main())
