"""[state] from the operator's side: its keys refused by name, its password read from the
named variable, and rediss:// checking the store's certificate and host name; against
real redis-servers (one over TLS) started by the tests.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

from rypsok import Client
from rypsok.config import ConfigError, config_from_dict
from tests.conftest import make_config
from tests.engine_servers import json_play
from tests.redis_server import RedisServer, sharing_bound
from tests.redis_topologies import SentinelTopology

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}


def plays(engines) -> None:
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")


def notices_of(response, code):
    return sorted((n.engine, n.reason) for n in response.notices if n.code == code)


# Configuration


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ({"url": "http://127.0.0.1:6379/0"}, "redis://HOST:PORT/DB"),
        ({"url": "redis://"}, "redis://HOST:PORT/DB"),
        ({"url": "redis://127.0.0.1:99999/0"}, "redis://HOST:PORT/DB"),
        ({"url": "redis://127.0.0.1:6379/zero"}, "redis://HOST:PORT/DB"),
        ({"url": "redis://127.0.0.1:6379/0?db=1"}, "redis://HOST:PORT/DB"),
        ({"url": 6379}, "must be a string"),
        ({"url": "redis://:hunter2@127.0.0.1:6379/0"}, "state.password_env"),
        ({"timeout_ms": 0}, "at least 1"),
        ({"timeout_ms": 101}, "at most 100"),
        ({"key_prefix": ""}, "1 to 64 letters"),
        ({"key_prefix": "team{a}:"}, "1 to 64 letters"),
        ({"key_prefix": "team a:"}, "1 to 64 letters"),
        ({"key_prefix": "a" * 65}, "1 to 64 letters"),
        ({"key_prefix": 7}, "string"),
        ({"password": "hunter2"}, "unknown key"),
        ({"url": "redis+sentinel://127.0.0.1:26379"}, "/SERVICE[/DB]"),
        ({"url": "redis+sentinel://127.0.0.1:26379/"}, "/SERVICE[/DB]"),
        ({"url": "redis+sentinel://127.0.0.1:26379/rypsok/one"}, "/SERVICE[/DB]"),
        ({"url": "redis+sentinel://127.0.0.1:26379,/rypsok"}, "/SERVICE[/DB]"),
        ({"url": "redis+sentinel://a:1,b:99999/rypsok"}, "/SERVICE[/DB]"),
        ({"url": "redis+sentinel://:hunter2@127.0.0.1/rypsok"}, "state.sentinel_password_env"),
        ({"url": "redis://127.0.0.1:7000/3", "cluster": True}, "only database 0"),
        ({"url": "redis+sentinel://127.0.0.1/rypsok", "cluster": True}, "choose one"),
        ({"url": "redis://127.0.0.1:7000,127.0.0.1:7001/0"}, "redis://HOST:PORT/DB"),
        ({"cluster": True}, "state.url is not"),
        ({"cluster": "yes"}, "true or false"),
        ({"sentinel_password_env": "SENTINEL_PASSWORD"}, "state.url is not"),
        (
            {"sentinel_password_env": "SENTINEL_PASSWORD", "url": "redis://127.0.0.1/0"},
            "names no sentinels",
        ),
    ],
)
def test_bad_state_keys_are_named(table, problem):
    with pytest.raises(ConfigError) as raised:
        config_from_dict({"state": table}, env={})
    key = "state." + next(iter(table))
    assert raised.value.key == key
    assert problem in str(raised.value)
    assert "hunter2" not in str(raised.value)


def test_state_defaults_and_the_password_from_the_environment():
    config = config_from_dict({}, env={})
    assert (config.state.url, config.state.password_env, config.state.timeout_ms) == ("", None, 20)
    assert config.state.key_prefix == "rypsok:"
    shared = config_from_dict(
        {"state": {"url": "rediss://valkey.internal:6380/2", "password_env": "STATE_PASSWORD"}},
        env={"STATE_PASSWORD": "hunter2"},
    )
    assert shared.state.password == "hunter2"
    assert "hunter2" not in repr(shared)
    with pytest.raises(ConfigError) as raised:
        config_from_dict(
            {"state": {"url": "redis://127.0.0.1/0", "password_env": "STATE_PASSWORD"}}, env={}
        )
    assert raised.value.key == "state.password_env"
    with pytest.raises(ConfigError) as raised:
        config_from_dict({"state": {"password_env": "STATE_PASSWORD"}}, env={"STATE_PASSWORD": "x"})
    assert raised.value.key == "state.password_env"


def test_the_sentinel_and_cluster_forms_are_read():
    sentinel = config_from_dict(
        {
            "state": {
                "url": "rediss+sentinel://rypsok@s1.internal,s2.internal:26380,[::1]/team/2",
                "password_env": "STATE_PASSWORD",
                "sentinel_password_env": "SENTINEL_PASSWORD",
            }
        },
        env={"STATE_PASSWORD": "hunter2", "SENTINEL_PASSWORD": "hunter3"},
    ).state
    address = sentinel.address
    assert (address.form, address.tls, address.service, address.db) == ("sentinel", True, "team", 2)
    assert address.nodes == (("s1.internal", 26379), ("s2.internal", 26380), ("::1", 26379))
    assert address.username == "rypsok"
    assert (sentinel.password, sentinel.sentinel_password) == ("hunter2", "hunter3")
    assert "hunter" not in repr(sentinel)
    cluster = config_from_dict(
        {"state": {"url": "rediss://node1.internal:7000/0", "cluster": True}}, env={}
    ).state.address
    assert (cluster.form, cluster.tls, cluster.nodes) == (
        "cluster",
        True,
        (("node1.internal", 7000),),
    )
    single = config_from_dict({"state": {"url": "redis://127.0.0.1/1"}}, env={}).state.address
    assert (single.form, single.nodes, single.db) == ("server", (("127.0.0.1", 6379),), 1)


def test_cli_refuses_a_bad_state_url_with_exit_2(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[state]\nurl = "memcached://127.0.0.1:11211"\n')
    done = subprocess.run(
        [sys.executable, "-m", "rypsok", "status", "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "state.url" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


# TLS and the password


async def test_rediss_checks_the_certificate_and_the_host_name(
    engines, tls_files, monkeypatch, store_server
):
    plays(engines)
    with RedisServer(tls=(tls_files["ip"], tls_files["ip_key"]), server=store_server) as server:
        config = sharing_bound(
            make_config(engines, CODE, cache={"enabled": True}, state={"url": server.url()})
        )
        assert config.state.url.startswith("rediss://")
        monkeypatch.setenv("SSL_CERT_FILE", tls_files["ca"])
        async with Client(config) as a, Client(config) as b:
            assert await a.state.store_answers()
            await a.search("over tls", category="code")
            hit = await b.search("over tls", category="code")
            assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
            assert a.state.fallbacks == b.state.fallbacks == 0
        # a certificate from a CA the system does not trust: the store is not used
        monkeypatch.setenv("SSL_CERT_FILE", tls_files["stranger"])
        async with Client(config) as stranger:
            assert not await stranger.state.store_answers()
            assert (await stranger.search("untrusted", category="code")).outcome == "ok"
            assert stranger.state.fallbacks > 0
    # a trusted certificate for another name
    with RedisServer(tls=(tls_files["name"], tls_files["name_key"]), server=store_server) as server:
        config = make_config(engines, CODE, state={"url": server.url(), "timeout_ms": 100})
        monkeypatch.setenv("SSL_CERT_FILE", tls_files["ca"])
        async with Client(config) as wrong_name:
            assert not await wrong_name.state.store_answers()
            assert (await wrong_name.search("wrong name", category="code")).outcome == "ok"


async def test_the_password_comes_from_the_named_variable(engines, store_server):
    plays(engines)
    with RedisServer(password="correct horse battery", server=store_server) as server:
        state = {"url": server.url(), "password_env": "STATE_PASSWORD", "timeout_ms": 100}
        right = sharing_bound(
            make_config(
                engines,
                CODE,
                env={"STATE_PASSWORD": "correct horse battery"},
                cache={"enabled": True},
                state=state,
            )
        )
        wrong = make_config(engines, CODE, env={"STATE_PASSWORD": "wrong"}, state=state)
        async with Client(right) as a, Client(right) as b, Client(wrong) as refused:
            assert await a.state.store_answers()
            await a.search("authenticated", category="code")
            hit = await b.search("authenticated", category="code")
            assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
            assert not await refused.state.store_answers()
            assert (await refused.search("refused", category="code")).outcome == "ok"
            assert refused.state.fallbacks > 0
        # the refused replica wrote nothing: only the two good ones' windows are there
        assert sorted(server.keys("rypsok:window:*")) == [
            "rypsok:window:engine:github",
            "rypsok:window:engine:stackexchange",
            "rypsok:window:tool:web_search",
        ]


async def test_the_sentinels_password_and_the_data_nodes_are_each_their_own(engines, store_server):
    """``password_env`` for the primary and its replica, ``sentinel_password_env`` for the
    sentinels; a wrong one of either leaves the replica on memory."""
    plays(engines)
    with contextlib.ExitStack() as stack:
        topology = SentinelTopology(
            server=store_server, password="data-secret", sentinel_password="sentinel-secret"
        )
        topology.start()
        stack.callback(topology.stop)

        def config(data: str, sentinel: str):
            return make_config(
                engines,
                CODE,
                env={"STATE_PASSWORD": data, "SENTINEL_PASSWORD": sentinel},
                cache={"enabled": True},
                state=topology.state(
                    password_env="STATE_PASSWORD",
                    sentinel_password_env="SENTINEL_PASSWORD",
                    timeout_ms=100,
                ),
            )

        right = sharing_bound(config("data-secret", "sentinel-secret"))
        async with Client(right) as a, Client(right) as b:
            assert await a.state.store_answers()
            await a.search("authenticated", category="code")
            hit = await b.search("authenticated", category="code")
            assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
            assert a.state.fallbacks == b.state.fallbacks == 0
        for data, sentinel in (("wrong", "sentinel-secret"), ("data-secret", "wrong")):
            async with Client(config(data, sentinel)) as refused:
                assert not await refused.state.store_answers()
                assert refused.state.reach()["primary"] is None
                assert (await refused.search("refused", category="code")).outcome == "ok"
                assert refused.state.fallbacks > 0


async def test_rediss_sentinel_speaks_tls_to_the_sentinels_and_the_primary(
    engines, tls_files, monkeypatch, store_server
):
    """Sentinels and data nodes serve TLS only: rediss+sentinel:// reaches both with the
    certificate checked, and a CA the system does not trust reaches neither."""
    plays(engines)
    tls = (tls_files["ip"], tls_files["ip_key"], tls_files["ca"])
    with contextlib.ExitStack() as stack:
        topology = SentinelTopology(server=store_server, tls=tls)
        topology.start()
        stack.callback(topology.stop)
        config = sharing_bound(
            make_config(engines, CODE, cache={"enabled": True}, state=topology.state())
        )
        assert config.state.url.startswith("rediss+sentinel://")
        monkeypatch.setenv("SSL_CERT_FILE", tls_files["ca"])
        async with Client(config) as a, Client(config) as b:
            assert await a.state.store_answers()
            assert a.state.reach()["primary"] == f"127.0.0.1:{topology.primary.port}"
            await a.search("over tls", category="code")
            hit = await b.search("over tls", category="code")
            assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
            assert a.state.fallbacks == b.state.fallbacks == 0
        monkeypatch.setenv("SSL_CERT_FILE", tls_files["stranger"])
        async with Client(config) as stranger:
            assert not await stranger.state.store_answers()
            assert (await stranger.search("untrusted", category="code")).outcome == "ok"
            assert stranger.state.fallbacks > 0
