"""Nobody in without a token: static tokens (environment and hashed file), per-token limits,
and JWTs verified against a JWKS served by a loopback issuer. rypsok runs as
``rypsok serve --http``; a refused request must send nothing to the engines."""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import jwt
import mcp
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from mcp.client.streamable_http import streamable_http_client

from rypsok.config import ConfigError, ServerConfig, read_tokens
from rypsok.serve_http.auth import StaticTokens
from tests.conftest import config_data
from tests.engine_servers import json_play
from tests.jwt_issuer import Issuer
from tests.mcp_harness import (
    free_port,
    http_client,
    http_server,
    http_session,
    post_mcp,
    rpc_call,
    structured,
    write_toml,
)

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
ALICE = "alice-9c1e6f0b7a2d4e38"
BOB = "bob-51d0a8e2c7f94b63aa"
CAROL = "carol-e04b3c9d8f1a7265"
DAVE = "dave-7a3f12c9e05b8d41"
SEARCH = rpc_call("web_search", {"query": "quokka", "category": "code"})


def config_file(engines, tmp_path: Path, name: str = "rypsok.toml", **sections: Any) -> Path:
    data = {**config_data(engines, CODE), **sections}  # (config_data's first parameter is "server")
    return write_toml(data, tmp_path / name)


def answer_normally(engines) -> None:
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")


def hashed_file(tmp_path: Path, **tokens: str) -> Path:
    path = tmp_path / "tokens.txt"
    lines = ["# name:sha256 of the token"]
    lines += [
        f"{name}:{hashlib.sha256(token.encode()).hexdigest()}" for name, token in tokens.items()
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def log_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


# --- static tokens, without a server ----------------------------------------------------


def test_tokens_are_read_from_the_environment_and_a_hashed_file(tmp_path):
    server = ServerConfig(
        tokens_env="RYPSOK_TOKENS", tokens_file=str(hashed_file(tmp_path, carol=CAROL))
    )
    tokens = read_tokens(server, {"RYPSOK_TOKENS": f"alice:{ALICE}, bob:{BOB}"})
    assert [t.name for t in tokens] == ["alice", "bob", "carol"]
    assert ALICE not in repr(tokens)
    static = StaticTokens(tokens)
    assert static.name_of(ALICE) == "alice"
    assert static.name_of(CAROL) == "carol"
    assert static.name_of(ALICE[:-1]) is None
    assert static.name_of(ALICE + "x") is None
    assert static.name_of("") is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("alice", "pair 1 of RYPSOK_TOKENS must be NAME:TOKEN"),
        (f"alice:{ALICE} bob", "pair 2 of RYPSOK_TOKENS must be NAME:TOKEN"),
        ("alice:short", "the token of alice must be at least 16 characters"),
        (f"alice:{ALICE},alice:{BOB}", "names alice twice"),
        ("", "names RYPSOK_TOKENS, which is not set or empty"),
    ],
)
def test_bad_token_lists_are_refused_without_echoing_a_token(value, problem):
    with pytest.raises(ConfigError) as caught:
        read_tokens(ServerConfig(tokens_env="RYPSOK_TOKENS"), {"RYPSOK_TOKENS": value})
    assert caught.value.key == "server.tokens_env"
    assert str(caught.value) == f"configuration key server.tokens_env: {problem}"
    assert ALICE not in str(caught.value) and BOB not in str(caught.value)


# --- static tokens over HTTP ------------------------------------------------------------


async def test_without_a_valid_token_nothing_runs(engines, tmp_path):
    answer_normally(engines)
    path = config_file(
        engines,
        tmp_path,
        server={
            "tokens_env": "RYPSOK_TOKENS",
            "tokens_file": str(hashed_file(tmp_path, carol=CAROL)),
        },
    )
    other = config_file(engines, tmp_path, "other.toml", server={"tokens_env": "RYPSOK_TOKENS"})
    stderr = tmp_path / "stderr.log"
    env = {"RYPSOK_TOKENS": f"alice:{ALICE},bob:{BOB}"}
    with stderr.open("w") as errlog:
        async with (
            http_server(path, env, errlog) as (base, _),
            http_server(other, {"RYPSOK_TOKENS": f"dave:{DAVE}"}) as (other_base, _),
        ):
            refused = [
                await post_mcp(base, SEARCH),
                await post_mcp(base, SEARCH, token="not-a-token-of-anyone"),
                await post_mcp(base, SEARCH, token=ALICE[:-1]),
                await post_mcp(base, SEARCH, token=DAVE),  # another replica's token
                await post_mcp(base, SEARCH, headers={"Authorization": f"Basic {ALICE}"}),
                await post_mcp(other_base, SEARCH, token=ALICE),
            ]
            assert engines.seen == [], "a refused request reached an engine"
            allowed = [
                await post_mcp(base, SEARCH, token=ALICE),
                await post_mcp(base, SEARCH, token=CAROL),
                await post_mcp(other_base, SEARCH, token=DAVE),
            ]
    without_token = [refused[0], refused[4]]  # none, and a Basic credential
    for response in refused:
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer ")
    for response in without_token:
        challenge = response.headers["WWW-Authenticate"]
        assert "error=" not in challenge  # RFC 6750 3.1: no error code without credentials
        assert 'error_description="a bearer token is required"' in challenge
        assert response.json() == {"error_description": "a bearer token is required"}
    for response in (r for r in refused if r not in without_token):
        challenge = response.headers["WWW-Authenticate"]
        assert 'error="invalid_token"' in challenge
        assert 'error_description="the token is not valid"' in challenge
        assert response.json() == {
            "error": "invalid_token",
            "error_description": "the token is not valid",
        }
    for response in allowed:
        assert response.status_code == 200
        assert response.json()["result"]["structuredContent"]["outcome"] == "ok"
    log = stderr.read_text()
    for token in (ALICE, BOB, CAROL, DAVE):
        assert token not in log
    requests = [line for line in log_lines(stderr) if line["event"] == "http_request"]
    assert [line["token"] for line in requests if line["status"] == 200] == ["alice", "carol"]
    assert [line["status"] for line in requests if line["token"] is None] == [401] * 5


async def test_per_token_limits_hold_on_top_of_the_process_limits(engines, tmp_path):
    answer_normally(engines)
    path = config_file(
        engines,
        tmp_path,
        server={"tokens_env": "RYPSOK_TOKENS"},
        limits={"web_search": 3, "per_token": {"web_search": 2, "engine_status": 1}},
    )
    env = {"RYPSOK_TOKENS": f"alice:{ALICE},bob:{BOB},carol:{CAROL}"}

    def error_of(result) -> dict[str, Any] | None:
        payload = structured(result)
        return payload.get("error")

    async with (
        http_server(path, env) as (base, _),
        http_session(f"{base}/mcp", ALICE) as alice,
        http_session(f"{base}/mcp", BOB) as bob,
        # the 2026-07-28 protocol (mcp.Client's default) names the token the same way
        http_client(CAROL) as carol_http,
        mcp.Client(streamable_http_client(f"{base}/mcp", http_client=carol_http)) as carol,
    ):
        arguments = {"query": "quokka", "category": "code"}
        assert error_of(await alice.call_tool("web_search", arguments)) is None
        assert error_of(await alice.call_tool("web_search", arguments)) is None
        own = error_of(await alice.call_tool("web_search", arguments))
        # alice's refused call spent nothing of the process budget: bob still gets one
        assert error_of(await bob.call_tool("web_search", arguments)) is None
        process = error_of(await bob.call_tool("web_search", arguments))
        # one engine_status per token: alice's does not spend carol's
        assert error_of(await alice.call_tool("engine_status", {})) is None
        assert error_of(await carol.call_tool("engine_status", {})) is None
        carols = error_of(await carol.call_tool("engine_status", {}))
    assert own is not None and process is not None and carols is not None
    for error in (own, process, carols):
        assert (error["kind"], error["detail"]["reason"]) == ("unavailable", "rate_limited")
        assert 0 < error["detail"]["retry_after_ms"] <= 60_000
    assert len(engines.seen) == 3 * 2


# --- JWTs from a loopback issuer --------------------------------------------------------


async def test_jwts_from_the_issuer_are_accepted_and_forged_ones_refused(engines, tmp_path):
    answer_normally(engines)
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    with Issuer().running() as issuer:
        path = config_file(
            engines,
            tmp_path,
            server={
                "jwks_url": f"{issuer.url}/jwks.json",
                "issuer": issuer.name,
                "audience": resource,
                "tokens_env": "RYPSOK_TOKENS",
            },
        )
        stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        now = int(time.time())
        forged = {
            "expired": issuer.token(resource, exp=now - 120, iat=now - 600),
            "signed by another key": issuer.token(resource, key=stranger),
            "other audience": issuer.token("http://127.0.0.1:1/mcp"),
            "other issuer": issuer.token(resource, iss="http://127.0.0.1:1/issuer"),
            "no expiry": jwt.encode(
                {"iss": issuer.name, "aud": resource, "sub": "x"},
                issuer.key,
                algorithm="RS256",
                headers={"kid": issuer.kid},
            ),
            "symmetric": jwt.encode(
                {"iss": issuer.name, "aud": resource, "sub": "x", "exp": now + 300},
                "a-shared-secret-of-32-bytes-long!",
                algorithm="HS256",
                headers={"kid": issuer.kid},
            ),
        }
        stderr = tmp_path / "stderr.log"
        env = {"RYPSOK_TOKENS": f"alice:{ALICE}"}
        with stderr.open("w") as errlog:
            async with http_server(path, env, errlog, listen=f"127.0.0.1:{port}") as (base, _):
                refused = {why: await post_mcp(base, SEARCH, token=t) for why, t in forged.items()}
                refused["no token"] = await post_mcp(base, SEARCH)
                assert engines.seen == [], "a refused request reached an engine"
                async with http_session(f"{base}/mcp", issuer.token(resource)) as client:
                    accepted = await client.call_tool(
                        "web_search", {"query": "quokka", "category": "code"}
                    )
                static = await post_mcp(base, SEARCH, token=ALICE)
                fetches = issuer.fetches
                # a flood of unknown key ids is not a flood of requests to the issuer
                for _ in range(5):
                    unknown = issuer.token(resource, kid=uuid.uuid4().hex)
                    assert (await post_mcp(base, SEARCH, token=unknown)).status_code == 401
                assert issuer.fetches - fetches <= 1
                async with httpx.AsyncClient() as http:
                    metadata = [
                        await http.get(f"{base}/.well-known/oauth-protected-resource/mcp"),
                        await http.get(f"{base}/.well-known/oauth-protected-resource"),
                    ]
    for why, response in refused.items():
        assert response.status_code == 401, why
        assert (
            f'resource_metadata="http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"'
            in response.headers["WWW-Authenticate"]
        ), why
    assert not accepted.is_error
    assert structured(accepted)["outcome"] == "ok"
    assert static.status_code == 200
    for response in metadata:
        assert response.status_code == 200
        document = response.json()
        assert document["resource"] == resource
        assert document["authorization_servers"] == [issuer.name]
        assert document["bearer_methods_supported"] == ["header"]
    names = {line["token"] for line in log_lines(stderr) if line["event"] == "http_request"}
    assert {"jwt:agent-7", "alice"} <= names
    log = stderr.read_text()
    assert all(token not in log for token in forged.values())
