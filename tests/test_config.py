"""Configuration: defaults, lookup order, and refusal of unknown keys and bad values."""

from __future__ import annotations

import dataclasses
import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

from rypsok.config import ConfigError, config_from_dict, load_config

CONFIGURATION_DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "configuration.md"


def documented_blocks() -> list[dict]:
    """The TOML blocks of docs/configuration.md, parsed (commented-out keys stay out)."""
    text = CONFIGURATION_DOC.read_text(encoding="utf-8")
    return [tomllib.loads(block) for block in re.findall(r"```toml\n(.*?)```", text, re.S)]


def as_toml(value):
    return list(value) if isinstance(value, tuple) else value


def test_the_configuration_page_shows_the_code_s_defaults_and_per_token_limits_as_none():
    config = config_from_dict({}, env={})
    defaults, *per_token = documented_blocks()
    sections = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    shown = {**defaults, **next(block for block in per_token if "server" in block)}
    for table, keys in shown.items():
        if table == "engines":
            for engine_id, engine_keys in keys.items():
                engine = config.engines[engine_id]
                for key, value in engine_keys.items():
                    assert as_toml(getattr(engine, key)) == value, f"engines.{engine_id}.{key}"
            continue
        assert "per_token" not in keys, "[limits.per_token] is shown among the defaults"
        for key, value in keys.items():
            assert as_toml(getattr(sections[table], key)) == value, f"{table}.{key}"
    # [limits.per_token] has no defaults: unset is no bound (max_concurrent: a fair share),
    # and the page says so.
    assert dataclasses.astuple(config.per_token_limits) == (None, None, None, None)
    example = next(block for block in per_token if "per_token" in block.get("limits", {}))
    assert set(example["limits"]["per_token"]) == {
        "web_search",
        "web_fetch",
        "engine_status",
        "max_concurrent",
    }
    page = CONFIGURATION_DOC.read_text(encoding="utf-8")
    assert "per-minute keys have no defaults" in page
    assert "Left out, it is a fair share" in page


def test_every_key_has_the_documented_default():
    config = config_from_dict({}, env={})
    assert config.search.deadline_ms == 2500
    assert config.search.languages == ("en",)
    assert config.search.max_query_chars == 400
    assert config.search.max_results == 20
    assert config.search.attribution is False
    assert config.search.instruction_like == "keep"
    assert config.search.secrets == "deny"
    assert config.search.max_concurrent == 8
    assert config.fetch.allow_http is False
    assert config.fetch.ports == (80, 443)
    assert config.fetch.max_chars == 20000
    assert config.fetch.byte_limit == 5242880
    assert config.fetch.timeout_ms == 10000
    assert config.fetch.follow_redirects == "same_host"
    assert config.fetch.max_redirects == 5
    assert config.fetch.strict is False
    assert config.fetch.allow_urls == ()
    assert config.fetch.allow_networks == ()
    assert config.fetch.max_concurrent == 4
    assert config.status.enabled is True
    assert (config.limits.web_search, config.limits.web_fetch, config.limits.engine_status) == (
        60,
        30,
        30,
    )
    assert (config.cache.enabled, config.cache.ttl_s, config.cache.max_entries) == (
        False,
        300,
        1000,
    )
    assert (config.breaker.failures, config.breaker.cooldown_s, config.breaker.max_cooldown_s) == (
        3,
        30,
        600,
    )
    assert (config.log.level, config.log.path) == ("info", "")


def test_engine_defaults_come_from_the_engine_and_searxng_is_off_without_endpoint():
    config = config_from_dict({}, env={})
    github = config.engine("github")
    assert github.enabled and github.weight == 1.0
    assert github.endpoint == "https://api.github.com"
    assert github.credential_env == "GITHUB_TOKEN"
    assert github.rate_per_minute == 10
    assert config.engine("searxng").enabled is False
    assert config.engine("brave").unusable_reason == "no_credential"
    assert config.engine("wikipedia").unusable_reason is None


def test_setting_a_searxng_endpoint_enables_it():
    config = config_from_dict({"engines": {"searxng": {"endpoint": "https://sx.example"}}}, env={})
    assert config.engine("searxng").enabled
    assert config.engine("searxng").endpoint == "https://sx.example"


def test_credentials_come_only_from_the_named_environment_variable():
    data = {"engines": {"brave": {"credential_env": "MY_BRAVE"}}}
    assert config_from_dict(data, env={"BRAVE_API_KEY": "x"}).engine("brave").credential is None
    brave = config_from_dict(data, env={"MY_BRAVE": "secret-value"}).engine("brave")
    assert brave.credential == "secret-value"
    assert "secret-value" not in repr(brave)
    assert brave.unusable_reason is None


def test_switched_off_engine_is_disabled_even_without_its_key():
    config = config_from_dict({"engines": {"brave": {"enabled": False}}}, env={})
    assert config.engine("brave").unusable_reason == "disabled"


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"search": {"deadline": 10}}, "search.deadline"),
        ({"serch": {}}, "serch"),
        ({"search": {"deadline_ms": "fast"}}, "search.deadline_ms"),
        ({"search": {"deadline_ms": True}}, "search.deadline_ms"),
        ({"search": {"deadline_ms": 0}}, "search.deadline_ms"),
        ({"search": {"languages": []}}, "search.languages"),
        ({"search": {"languages": ["English"]}}, "search.languages[0]"),
        ({"search": {"languages": ["en", "en"]}}, "search.languages"),
        ({"search": {"instruction_like": "flag"}}, "search.instruction_like"),
        ({"search": {"secrets": "allow"}}, "search.secrets"),
        ({"fetch": {"ports": [0]}}, "fetch.ports[0]"),
        ({"fetch": {"max_chars": 100}}, "fetch.max_chars"),
        ({"fetch": {"follow_redirects": "all"}}, "fetch.follow_redirects"),
        ({"fetch": {"allow_networks": ["not-a-cidr"]}}, "fetch.allow_networks[0]"),
        ({"fetch": {"allow_urls": ["ftp://x"]}}, "fetch.allow_urls[0]"),
        ({"status": {"enabled": "yes"}}, "status.enabled"),
        ({"limits": {"web_search": -1}}, "limits.web_search"),
        ({"cache": {"ttl_s": 0}}, "cache.ttl_s"),
        ({"breaker": {"cooldown_s": 60, "max_cooldown_s": 30}}, "breaker.max_cooldown_s"),
        ({"log": {"level": "loud"}}, "log.level"),
        ({"engines": {"bing": {}}}, "engines.bing"),
        ({"engines": {"github": {"weight": -1}}}, "engines.github.weight"),
        ({"engines": {"github": {"weight": float("nan")}}}, "engines.github.weight"),
        ({"engines": {"github": {"weight": float("inf")}}}, "engines.github.weight"),
        ({"breaker": {"cooldown_s": float("nan")}}, "breaker.cooldown_s"),
        ({"breaker": {"max_cooldown_s": float("inf")}}, "breaker.max_cooldown_s"),
        ({"engines": {"github": {"endpoint": "api.github.com"}}}, "engines.github.endpoint"),
        (
            {"engines": {"github": {"credential_env": "not a name"}}},
            "engines.github.credential_env",
        ),
        ({"engines": {"github": {"token": "x"}}}, "engines.github.token"),
        ({"engines": {"searxng": {"enabled": True}}}, "engines.searxng.endpoint"),
    ],
)
def test_bad_configuration_names_the_key(data, key):
    with pytest.raises(ConfigError) as raised:
        config_from_dict(data, env={})
    assert raised.value.key == key
    assert key in str(raised.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"search": {"deadline_ms": 1e3}}, "must be an integer of at least 1, not float"),
        ({"state": {"timeout_ms": "20"}}, "must be an integer from 1 to 100, not str"),
        ({"fetch": {"ports": [80.0]}}, "must be an integer from 1 to 65535, not float"),
        ({"breaker": {"cooldown_s": True}}, "must be a number of at least 0.001, not bool"),
        ({"search": {"deadline_ms": 0}}, "must be at least 1"),
    ],
)
def test_a_number_of_the_wrong_type_is_told_what_is_allowed(data, message):
    """DECISIONS.md: the message names the key and the allowed values, a wrong type too."""
    with pytest.raises(ConfigError) as raised:
        config_from_dict(data, env={})
    assert raised.value.problem == message


def test_lookup_order(tmp_path):
    explicit = tmp_path / "explicit.toml"
    explicit.write_text("[search]\ndeadline_ms = 1000\n")
    from_env = tmp_path / "env.toml"
    from_env.write_text("[search]\ndeadline_ms = 2000\n")
    xdg = tmp_path / "xdg" / "rypsok"
    xdg.mkdir(parents=True)
    (xdg / "config.toml").write_text("[search]\ndeadline_ms = 3000\n")
    env = {"RYPSOK_CONFIG": str(from_env), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    assert load_config(str(explicit), env).search.deadline_ms == 1000
    assert load_config(None, env).search.deadline_ms == 2000
    del env["RYPSOK_CONFIG"]
    assert load_config(None, env).search.deadline_ms == 3000
    assert load_config(None, {"XDG_CONFIG_HOME": str(tmp_path / "none")}).search.deadline_ms == 2500


def test_a_bad_key_names_the_file_it_was_read_from(tmp_path):
    """The operator may not know which file was read ($RYPSOK_CONFIG, or the XDG file):
    the message names it, beside the key."""
    xdg = tmp_path / "xdg" / "rypsok"
    xdg.mkdir(parents=True)
    found = xdg / "config.toml"
    found.write_text('[search]\ninstruction_like = "flag"\n')
    for env in ({"XDG_CONFIG_HOME": str(tmp_path / "xdg")}, {"RYPSOK_CONFIG": str(found)}):
        with pytest.raises(ConfigError) as raised:
            load_config(None, env)
        assert (raised.value.key, raised.value.file) == ("search.instruction_like", str(found))
        assert str(raised.value) == (
            f'configuration key search.instruction_like: must be one of "keep", "drop" (in {found})'
        )
    # a variable's own problem is not told as a key of the file
    env = {"RYPSOK_CONFIG": str(found), "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
    found.write_text("")
    with pytest.raises(ConfigError) as raised:
        load_config(None, env)
    assert (raised.value.key, raised.value.file) == ("OTEL_EXPORTER_OTLP_PROTOCOL", None)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "does not exist"),
        ("directory", "is a directory, not a file"),
        (
            b"[search]\ndeadline_ms = 100\n# caf\xe9\n",
            "is not UTF-8 text: byte 0xe9 at line 3, column 6",
        ),
        (b"\xff\xfe[\x00s\x00", "is not UTF-8 text: byte 0xff at line 1, column 1"),
        (
            b"[search]\ndeadline_ms = 1\ndeadline_ms = 2\n",
            "is not valid TOML: Cannot overwrite a value (at line 3, column 16)",
        ),
        (
            b"[search]\n[fetch]\n[search]\n",
            "is not valid TOML: Cannot declare ('search',) twice (at line 3, column 8)",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_named_with_what_named_it(tmp_path, content, problem):
    """The file and what named it (--config or RYPSOK_CONFIG; the XDG file is found where it
    is looked for), with the line and column where the bytes are not UTF-8 or the text is
    not TOML."""
    xdg = tmp_path / "xdg" / "rypsok"
    xdg.mkdir(parents=True)
    path = xdg / "config.toml"
    if content == "directory":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    ways = [
        (str(path), {}, "--config", " (named by --config)"),
        (None, {"RYPSOK_CONFIG": str(path)}, "RYPSOK_CONFIG", " (named by RYPSOK_CONFIG)"),
    ]
    if content not in (None, "directory"):  # the XDG file is read only where it is a file
        ways.append((None, {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}, "", ""))
    for explicit, env, key, named in ways:
        with pytest.raises(ConfigError) as raised:
            load_config(explicit, env)
        assert (raised.value.key, raised.value.file) == (key, str(path))
        assert str(raised.value) == f"configuration file {path}{named} {problem}"


def test_a_byte_order_mark_an_empty_file_and_a_path_object_are_read(tmp_path):
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf[search]\ndeadline_ms = 1000\n")  # Notepad's UTF-8
    assert load_config(str(marked), {}).search.deadline_ms == 1000
    assert load_config(marked, {}).search.deadline_ms == 1000
    empty = tmp_path / "empty.toml"
    empty.write_bytes(b"")
    assert load_config(str(empty), {}) == config_from_dict({}, env={}, source=str(empty))


def test_an_empty_config_path_is_refused_not_skipped(tmp_path):
    """``--config ""`` (a variable that expanded to nothing) is not the defaults."""
    from_env = tmp_path / "env.toml"
    from_env.write_text("[search]\ndeadline_ms = 2000\n")
    with pytest.raises(ConfigError) as raised:
        load_config("", {"RYPSOK_CONFIG": str(from_env)})
    assert str(raised.value) == "configuration key --config: must name a file, not an empty path"


def test_missing_or_broken_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        load_config(str(tmp_path / "absent.toml"), {})
    broken = tmp_path / "broken.toml"
    broken.write_text("[search\n")
    with pytest.raises(ConfigError):
        load_config(str(broken), {})


@pytest.mark.parametrize("command", ["serve", "probe", "status"])
def test_cli_refuses_bad_config_with_exit_2_and_no_traceback(tmp_path, command):
    bad = tmp_path / "bad.toml"
    bad.write_text('[search]\ninstruction_like = "flag"\n')
    argv = [sys.executable, "-m", "rypsok", command, "--config", str(bad)]
    if command == "probe":
        argv.append("query")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "search.instruction_like" in done.stderr
    assert '"keep"' in done.stderr and '"drop"' in done.stderr
    assert done.stderr.rstrip().endswith(f"(in {bad})")
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_cli_refuses_an_unwritable_log_path(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(f'[log]\npath = "{tmp_path}/no/such/dir/rypsok.log"\n')
    done = subprocess.run(
        [sys.executable, "-m", "rypsok", "status", "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "log.path" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.rstrip().endswith(f"(in {bad})")


def test_the_configuration_page_lists_every_variable_rypsok_reads():
    """An operator looks for the variable names in one table: each engine's default
    credential variable, the lookup's and the telemetry's."""
    from rypsok.engines.registry import ENGINE_IDS, engine_module

    page = CONFIGURATION_DOC.read_text(encoding="utf-8")
    section = page.split("## Environment variables", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", section))
    credentials = {engine_module(e).INFO.credential_env for e in ENGINE_IDS} - {None}
    assert credentials <= listed, credentials - listed
    sections_source = (CONFIGURATION_DOC.parent.parent / "rypsok/config/sections.py").read_text()
    telemetry = set(re.findall(r'"(OTEL_[A-Z_]+)"', sections_source))
    assert telemetry and telemetry <= listed, telemetry - listed
    assert {"RYPSOK_CONFIG", "XDG_CONFIG_HOME", "NO_COLOR", "FORCE_COLOR"} <= listed
