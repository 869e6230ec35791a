"""The command line: probe's timeline against the deadline, status and fetch."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess

import pytest

from rypsok.probe import BAR_COLUMNS, HEADROOM, use_colour
from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.mcp_harness import ROOT, write_toml
from tests.server_fork import rypsok_command
from tests.test_http_cancel import HangingServer


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        rypsok_command(*argv),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=without_colour_settings(),
    )


def without_colour_settings(**extra: str) -> dict[str, str]:
    """The environment without what CI may set to force colour on or off."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return {**env, **extra}


def run_on_a_terminal(*argv: str, **env: str) -> tuple[int, str]:
    """The CLI with its stdout on a pseudo-terminal (isatty), as at the keyboard."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        rypsok_command(*argv),
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=without_colour_settings(TERM="xterm-256color", **env),
    )
    os.close(terminal)
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the terminal's other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    process.wait(timeout=60)
    return process.returncode, b"".join(chunks).decode().replace("\r\n", "\n")


SGR = re.compile(r"\x1b\[[0-9;]*m")
AREA = slice(25, 25 + BAR_COLUMNS)


def read_drawing(lines: list[str]) -> tuple[int, dict[str, dict]]:
    """The deadline's column and, per engine row, its outcome, bar and what is beside it."""
    header = lines[0]
    assert header[:25].split() == ["engine", "outcome"]
    assert header[AREA].startswith("0 ms") and "deadline 700 ms |" in header
    deadline_column = header[AREA].index("|")
    rows = {}
    for line in lines[1:]:
        if line.startswith("deadline "):
            break
        rows[line[:14].strip()] = {
            "outcome": line[15:25].strip(),
            "bar": line[AREA],
            "beside": line[AREA.stop :].strip(),
        }
    return deadline_column, rows


def read_ms(beside: str) -> tuple[float, float]:
    start, end = re.search(r"\(([\d.]+)-([\d.]+) ms\)$", beside).groups()
    return float(start), float(end)


@pytest.fixture
def config_path(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json", delay_s=0.1)
    engines.plays["stackexchange"] = Play(mode="hang")
    data = config_data(
        engines, {"github", "stackexchange", "wikipedia"}, search={"deadline_ms": 700}
    )
    return str(write_toml(data, tmp_path / "rypsok.toml"))


def test_probe_draws_each_engine_against_the_deadline_plain_when_piped(config_path):
    done = run(
        "probe", "--config", config_path, "--category", "code", "--time-range", "week", "tokio"
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    lines = done.stdout.splitlines()
    deadline_column, rows = read_drawing(lines)
    assert list(rows) == ["github", "stackexchange"]
    github, stackexchange = rows["github"], rows["stackexchange"]

    assert github["outcome"] == "answered" and github["beside"].startswith("3 results (")
    start, end = read_ms(github["beside"])
    assert 100 <= end < 700
    span = max(700 * HEADROOM, read_ms(stackexchange["beside"])[1])
    answered_at = round(end / span * (BAR_COLUMNS - 1))
    assert github["bar"].index(">") == answered_at < deadline_column
    assert set(github["bar"][round(start / span * (BAR_COLUMNS - 1)) : answered_at]) == {"="}
    assert github["bar"][deadline_column] == "|"

    assert stackexchange["outcome"] == "failed"
    assert stackexchange["beside"].startswith("timeout (")
    assert read_ms(stackexchange["beside"])[1] >= 700
    ran_out_at = stackexchange["bar"].index("X")
    assert ran_out_at >= deadline_column
    assert set(stackexchange["bar"][:deadline_column].strip()) == {"="}

    footer = lines[1 + len(rows)]
    took = re.fullmatch(
        r"deadline 700 ms; the call took ([\d.]+) ms \(([\d.]+) ms (before|past) it\)", footer
    )
    assert took, footer
    elapsed, margin, side = float(took[1]), float(took[2]), took[3]
    assert abs(abs(elapsed - 700) - margin) < 0.11 and (side == "past") == (elapsed > 700)
    response = json.loads("\n".join(lines[2 + len(rows) :]))
    assert response["outcome"] == "partial"


def test_probe_draws_in_colour_on_a_terminal(config_path):
    status, out = run_on_a_terminal(
        "probe", "--config", config_path, "--category", "code", "--time-range", "week", "tokio"
    )
    assert status == 0
    lines = out.splitlines()
    deadline_column, rows = read_drawing([SGR.sub("", line) for line in lines])
    assert rows["github"]["outcome"] == "answered" and rows["stackexchange"]["outcome"] == "failed"
    assert rows["stackexchange"]["bar"].index("X") >= deadline_column
    green, red, yellow = "\x1b[0;32m", "\x1b[0;31m", "\x1b[0;33m"
    assert green in lines[1] and red not in lines[1]
    assert red in lines[2] and "timeout" in lines[2].split(red)[-1]
    assert yellow + "deadline 700 ms |" in lines[0] and yellow + "|" in lines[1]
    assert "\x1b" not in "".join(lines[3:])


def test_colour_follows_the_terminal_no_color_and_force_color():
    assert use_colour(True, {}) and not use_colour(False, {})
    assert not use_colour(True, {"TERM": "dumb"}) and use_colour(True, {"TERM": "xterm"})
    assert not use_colour(True, {"NO_COLOR": "1"})
    assert use_colour(False, {"FORCE_COLOR": "1"}) and not use_colour(False, {"FORCE_COLOR": "0"})
    assert not use_colour(True, {"NO_COLOR": "1", "FORCE_COLOR": "1"})


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
    assert loud.stdout.splitlines()[0].split()[:4] == quiet.stdout.splitlines()[0].split()[:4]
    refused = run("fetch", "--config", config_path, "https://127.0.0.1/")
    assert refused.returncode == 1
    assert [entry["event"] for entry in log_lines(refused.stderr)] == ["refused"]  # a warning
    assert run("status", "--config", config_path, "--log-level", "debug").returncode == 0
    assert run("status", "--config", config_path, "--log-level", "loud").returncode == 2


@pytest.mark.parametrize("command", ["probe", "fetch"])
def test_ctrl_c_at_the_keyboard_ends_the_work_with_130_and_no_traceback(tmp_path, command):
    """Interrupted while an engine or a page keeps it waiting: the request is closed, the
    status is 128 + SIGINT as a shell reports it, and stderr holds one line, no trace."""
    with HangingServer() as hanging:
        data = {
            "search": {"deadline_ms": 60000},
            "fetch": {
                "allow_http": True,
                "allow_networks": [f"{hanging.address}/32"],
                "ports": [hanging.port],
            },
            "engines": {"wikipedia": {"endpoint": hanging.endpoint("/w")}},
        }
        config = str(write_toml(data, tmp_path / "rypsok.toml"))
        what = (
            ["--engines", "wikipedia", "query"] if command == "probe" else [hanging.endpoint("/")]
        )
        process = subprocess.Popen(
            rypsok_command(command, "--config", config, *what),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=without_colour_settings(),
        )
        assert hanging.opened.wait(30), "the request never came"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        assert hanging.closed_at, "the request was left open"
    assert (process.returncode, out, err) == (130, "", "rypsok: interrupted\n")


def test_every_command_and_option_says_what_it_is_and_usage_errors_are_2(capsys):
    from rypsok.__main__ import _parser, main
    from rypsok.version import __version__

    parser = _parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert list(commands) == ["serve", "probe", "fetch", "status"]
    for name, command in commands.items():
        for action in command._actions:
            assert action.help, f"rypsok {name} {action.dest} has no help"
    for argv, status in (
        (["--version"], 0),
        (["--help"], 0),
        (["probe", "--help"], 0),
        (["probe"], 2),  # no query
        (["fetch", "https://example.org/", "--max-chars", "many"], 2),
        (["--config", "x.toml"], 2),  # --config goes after the command
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == status, argv
    out = capsys.readouterr().out
    assert out.startswith(f"rypsok {__version__}\n")
    assert "rypsok probe --config PATH QUERY" in out
