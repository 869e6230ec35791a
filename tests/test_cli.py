"""The command line: probe's timeline against the deadline, status and fetch."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.mcp_harness import ROOT, write_toml


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rypsok", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


@pytest.fixture
def config_path(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json", delay_s=0.1)
    engines.plays["stackexchange"] = Play(mode="hang")
    data = config_data(
        engines, {"github", "stackexchange", "wikipedia"}, search={"deadline_ms": 700}
    )
    return str(write_toml(data, tmp_path / "rypsok.toml"))


def test_probe_prints_a_timeline_against_the_deadline(config_path):
    done = run(
        "probe", "--config", config_path, "--category", "code", "--time-range", "week", "tokio"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == [
        "engine",
        "outcome",
        "start",
        "ms",
        "end",
        "ms",
        "results",
        "or",
        "reason",
    ]
    rows = {line.split()[0]: line.split() for line in lines[1:3]}
    assert rows["github"][1] == "answered" and rows["github"][4:6] == ["3", "results"]
    assert rows["stackexchange"][1] == "failed" and rows["stackexchange"][-1] == "timeout"
    assert 100 <= float(rows["github"][3]) < 700
    assert float(rows["stackexchange"][3]) >= 700
    assert lines[3].startswith("deadline 700 ms; the call took")
    response = json.loads("\n".join(lines[4:]))
    assert response["outcome"] == "partial"


def test_probe_json_shows_skips_and_errors(config_path):
    done = run("probe", "--config", config_path, "--json", "--time-range", "week", "tokio")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["deadline_ms"] == 700
    assert report["is_error"] is True
    assert report["response"]["error"]["detail"]["reason"] == "no_engine"
    assert report["timeline"] == [
        {
            "engine": "wikipedia",
            "outcome": "skipped",
            "start_ms": None,
            "end_ms": None,
            "results": 0,
            "reason": "time_range",
        }
    ]


def test_status_prints_engine_status(config_path):
    done = run("status", "--config", config_path)
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert status["outcome"] == "ok"
    assert [e["id"] for e in status["engines"]][:3] == ["arxiv", "brave", "brave_news"]


def log_lines(stderr: str) -> list[dict]:
    return [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]


def test_commands_at_the_keyboard_log_warnings_only_unless_asked(config_path):
    quiet = run("probe", "--config", config_path, "--category", "code", "tokio")
    assert quiet.returncode == 0, quiet.stderr
    assert [entry for entry in log_lines(quiet.stderr) if entry["level"] in ("debug", "info")] == []
    loud = run(
        "probe", "--config", config_path, "--log-level", "info", "--category", "code", "tokio"
    )
    assert loud.returncode == 0, loud.stderr
    assert "search" in {entry["event"] for entry in log_lines(loud.stderr)}
    assert loud.stdout.splitlines()[0] == quiet.stdout.splitlines()[0]
    refused = run("fetch", "--config", config_path, "https://127.0.0.1/")
    assert refused.returncode == 1
    assert [entry["event"] for entry in log_lines(refused.stderr)] == ["refused"]  # a warning
    assert run("status", "--config", config_path, "--log-level", "debug").returncode == 0
    assert run("status", "--config", config_path, "--log-level", "loud").returncode == 2
