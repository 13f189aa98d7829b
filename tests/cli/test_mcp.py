"""``cli mcp`` driven as an MCP client drives it: the server started over stdio, initialized,
its tools listed and each one called, against the emulator."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

mcp = pytest.importorskip("mcp")
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from altostratus.emulator import Emulator  # noqa: E402

SERVER = ["-c", "from altostratus.cli import cli_entry; cli_entry()", "mcp"]

#: Every tool and the arguments it is called with; each is a read of the client's.
CALLS: dict[str, dict[str, Any]] = {
    "whoami": {},
    "quota": {},
    "regions": {},
    "environments": {},
    "app_list": {},
    "app_status": {"name": "site"},
    "app_logs": {"name": "site"},
    "app_build_logs": {"name": "site"},
    "app_env_list": {"name": "site"},
    "platform_env_list": {},
    "platform_env_get": {"name": "dev"},
    "cluster_list": {"org_name": "default"},
    "platform_app_list": {},
    "platform_app_get": {"name": "shop"},
    "platform_app_deployment_list": {},
    "platform_app_deployment_get": {"name": "shop"},
}


def environ(emulator: Emulator, tmp_path: Path, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ALTOSTRATUS_", "CLI_"))}
    return {
        **base,
        "CLI_API_URL": emulator.api_url,
        "CLI_ORG": "default",
        "CLI_CONFIG_DIR": str(tmp_path / "cli"),
        **extra,
    }


def populate(emulator: Emulator) -> None:
    """One record of each kind the tools read."""
    api = httpx.Client(
        base_url=emulator.api_url, headers={"Authorization": f"bearer {emulator.api_key}"}
    )
    calls = [
        (
            "/api/v1/environment",
            {"name": "dev", "namespace": "default", "clusters": ["lon1-managed"]},
        ),
        (
            "/api/v1/application/register",
            {"name": "shop", "namespace": "default", "repository": "https://example.com/s.git"},
        ),
        (
            "/api/v1/application-deployment/deploy",
            {"application": "shop", "namespace": "default", "environment": "dev"},
        ),
        (
            "/api/v1/apps",
            {"name": "site", "organization": "default", "runtime": "python", "digest": "ab" * 32},
        ),
    ]
    for path, body in calls:
        assert api.post(path, json=body).status_code == 200


async def drive(params: StdioServerParameters) -> dict[str, Any]:
    found: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        found["init"] = await session.initialize()
        found["tools"] = (await session.list_tools()).tools
        for name, arguments in CALLS.items():
            found[name] = await session.call_tool(name, arguments)
        found["missing"] = await session.call_tool("app_status", {"name": "nope"})
    return found


def test_every_read_is_a_tool_answering_the_raw_payload(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    populate(fresh_emulator)
    params = StdioServerParameters(
        command=sys.executable,
        args=SERVER,
        env=environ(fresh_emulator, tmp_path, CLI_MCP_KEY=fresh_emulator.api_key),
    )
    found = asyncio.run(drive(params))
    assert found["init"].server_info.name == "altostratus"
    assert sorted(tool.name for tool in found["tools"]) == sorted(CALLS)
    for name in CALLS:
        result = found[name]
        assert not result.is_error, (name, result.content)
        json.loads(result.content[0].text)  # the raw payload, as JSON
    assert json.loads(found["app_status"].content[0].text)["name"] == "site"
    assert json.loads(found["cluster_list"].content[0].text)[0]["name"] == "lon1-managed"
    assert json.loads(found["platform_app_deployment_get"].content[0].text)["environment"] == "dev"
    missing = found["missing"]
    assert missing.is_error and "404 database_app_not_found" in missing.content[0].text
    # Read-only: the server's calls were all GETs.
    methods = {entry["method"] for entry in fresh_emulator.requests()[4:]}
    assert methods == {"GET"}


@pytest.mark.parametrize(
    ("key", "expected"),
    [(None, "no MCP key: set CLI_MCP_KEY"), ("wrong", "401")],
)
def test_without_a_valid_mcp_key_the_server_does_not_start(
    emulator: Emulator, tmp_path: Path, key: str | None, expected: str
) -> None:
    extra = {} if key is None else {"CLI_MCP_KEY": key}
    # Even with an API key at hand, the server wants its own MCP key.
    env = environ(emulator, tmp_path, CLI_API_KEY=emulator.api_key, **extra)
    done = subprocess.run(
        [sys.executable, *SERVER],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert line.startswith("cli: error:") and expected in line
